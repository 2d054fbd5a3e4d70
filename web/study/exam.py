"""The mock exam (issue 32): /study/exam, the page (its words in the reader's language), and
/study/exam.json, the build's questions (`kb.study.exam`), compiled once per loaded build and the same
in every language. The browser draws, times and grades an exam and keeps its result with the
rest of the study data (web/static/exam.js); the server only sends the page and the questions."""
from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from kb.study.exam import KINDS, SECONDS, SIZE, SIZES, compile_exam
from kb.study.cards import DECK_NAMES

from ..site import Site
from ..http.encoded import encoded_response, once_per_build
from ..i18n import marked_for_translation as _
from ..pages.render import PERIODS, render
from .drills import STUDY

router = APIRouter(include_in_schema=False)
EXAM, EXAM_QUESTIONS = "/study/exam", "/study/exam.json"

# Each kind of question: its name (the drills' deck of the same material, where there is one), the
# question the page asks of it, and the drill that trains it.
KIND_NAMES = {"situation": DECK_NAMES["situations"], "timeref": DECK_NAMES["timerefs"], "norm": _("FIGB norms"),
              "definition": DECK_NAMES["definitions"]}
PROMPTS = {"situation": _("Which clause of the Laws rules this situation?"),
           "timeref": _("Which clause of the Laws gives the time limit here?"),
           "norm": _("Which FIGB norm fixes the ruling in Italy?"),
           "definition": _("Which term do the Laws define so?")}


def exam_json(site: Site) -> bytes:
    """The build's questions as the page reads them, made once per loaded build."""
    made = site.__dict__.get("_exam_json")
    if made is None:
        data = {"build": site.gen.name, "laws": site.library.laws_in_force, **compile_exam(site).to_dict()}
        made = site.__dict__["_exam_json"] = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    return made


@router.get(EXAM_QUESTIONS)
async def questions(request: Request) -> Response:
    """Every question of the mock exam (kept offline by the worker, like the drills' cards)."""
    site = request.app.state.site
    return encoded_response(request, once_per_build(site, "_exam_encoded", lambda: exam_json(site)), "application/json",
                            {"cache-control": "no-cache"})


@router.get(EXAM, response_class=HTMLResponse)
async def exam(request: Request) -> Response:
    sizes = [{"n": n, "time": clock_time(n * SECONDS)} for n in SIZES]
    return render(request, "exam.html", questions_url=EXAM_QUESTIONS, study_url=STUDY, sizes=sizes, size=SIZE,
                  seconds=SECONDS, kinds=[{"id": k, "name": KIND_NAMES[k], "prompt": PROMPTS[k]} for k in KINDS],
                  periods=PERIODS)


def clock_time(seconds: int) -> str:
    """A duration as a countdown shows it: 450 → "7:30"."""
    return f"{seconds // 60}:{seconds % 60:02d}"
