"""The mock exam in a real browser on a phone (headless Chromium, a real server): after one visit
the site is kept; then, offline and in Spanish, a student sits an exam of twenty questions, answers
some by choice and one by typing a clause, finishes, and reads the result by area; the result is
still there after a reload and goes out with the study export; a damaged exam result is refused."""
import json
import re

import pytest

from kb.records.clauseid import ClauseId
from kb.study.exam import SHARES
from tests.browser.test_offline_browser import keep_offline
from tests.browser.test_study_browser import import_file, requests_of, study_file

pytestmark = pytest.mark.slow
# The kinds and the nine periods of the board as the Spanish interface names them (its catalog)
KINDS_ES = {"Situaciones": "situation", "Plazos": "timeref", "Normas FIGB": "norm", "Definiciones": "definition"}
KINDS_IT = {"Situazioni": "situation", "Termini di tempo": "timeref", "Norme FIGB": "norm", "Definizioni": "definition"}
PERIODS_ES = ["Antes de la ronda", "Barajar y repartir", "Subasta", "Fin de la subasta y periodo de clarificación",
              "Salida y carteo", "Reclamaciones y concesiones", "Fin del carteo", "Estuche siguiente y fin de la ronda",
              "Periodo de corrección"]


@pytest.fixture(scope="module")
def bank(client):
    """The build's questions, by the kind and the text a page shows them with."""
    data = client.get("/study/exam.json").json()
    by_text = {lang: {(q["kind"], asked(q, lang)): q for q in data["questions"]} for lang in ("it", "es")}
    return by_text, data["targets"]


def asked(q, lang="es"):
    """A question as a page in `lang` says it (in the text's own language where it has none in that one)."""
    return q["ask"].get(lang) or next(iter(q["ask"].values()))


def shown(page, bank, lang="es"):
    """The question on the screen, as the build has it."""
    kind = {"es": KINDS_ES, "it": KINDS_IT}[lang][page.text_content(".exam-kind").split(" · ")[0]]
    return bank[0][lang][(kind, page.text_content(".exam-sitting .question"))]


def spaced(clause):
    """A clause as a student types it in a hurry: 27B1b → "27 b 1 b"."""
    cid = ClauseId.parse(clause)
    return " ".join(p.lower() for p in (cid.art, cid.sec, cid.num, cid.item, cid.roman) if p)


def option(page, bank, q, right):
    """The choice button naming the right answer (or, `right` false, another)."""
    label = page.eval_on_selector_all(".choices button", "bs => bs.map(b => b.textContent)")
    names = {bank[1][k]["label"] for k in [q["answer"], *q["accepted"]]}
    at = next(i for i, text in enumerate(label) if (text.split(" · ")[0].split()[-1] in names or text in names) == right)
    return page.locator(".choices button").nth(at)


def test_offline_in_spanish_a_student_sits_an_exam_and_reads_the_result_by_area(server, phone, shot, bank):
    page = phone(locale="es-ES")
    keep_offline(page, server, "es")
    page.context.set_offline(True)
    seen = requests_of(page)
    errors = []
    page.on("pageerror", lambda e: errors.append(e))

    page.goto(server + "/study/exam")
    assert page.text_content("h1") == "Simulacro de examen"
    page.wait_for_selector(".exam-setup:not([hidden])")
    assert page.is_checked(".exam-setup input[value='20']")
    page.click(".exam-setup .start")
    page.wait_for_selector(".exam-sitting:not([hidden])")
    assert re.fullmatch(r"1[45]:\d\d", page.text_content(".countdown"))  # 20 × 45 s, counting down
    assert page.locator(".choices button").count() == 4

    done = {"typed": None, "right": 0, "wrong": 0}
    n = 0
    while page.is_visible(".exam-sitting") and n < 15:
        n += 1
        q = shown(page, bank)
        count = page.text_content(".exam-count")
        assert count == f"Pregunta {n} de 20"
        if n == 3:
            shot(page, "exam-question-es-phone")
        answer = bank[1][q["answer"]]
        if done["typed"] is None and answer["form"] == "clause" and len(answer["match"][0]) > 3:
            done["typed"] = (q, spaced(answer["match"][0]))  # "27 b 1 b" for 27B1(b)
            page.fill("#exam-typed", done["typed"][1])
            page.click(".typed button")
        elif done["right"] < 2:
            option(page, bank, q, True).click()
            done["right"] += 1
        elif done["wrong"] < 1:
            option(page, bank, q, False).click()
            done["wrong"] += 1
        else:
            page.click(".exam-moves .pass")  # skipped: not answered
        page.wait_for_function("n => document.querySelector('.exam-count').textContent !== n", arg=count)
    assert done["typed"] and done["right"] == 2 and done["wrong"] == 1
    page.click(".exam-moves .finish")

    page.wait_for_selector(".exam-result:not([hidden])")
    assert page.text_content(".exam-result .score") == "Correctas: 3 de 20"  # two chosen right and the typed clause
    assert re.fullmatch(r"Tiempo empleado: \d+:\d\d de 15:00\.", page.text_content(".exam-result .took"))
    periods = page.eval_on_selector_all(".by-period .area-name", "es => es.map(e => e.textContent)")
    assert periods == PERIODS_ES  # twenty questions meet every period of the board, in the board's order
    by_kind = dict(zip(page.eval_on_selector_all(".by-kind .area-name", "es => es.map(e => e.textContent)"),
                       page.eval_on_selector_all(".by-kind .area-score", "es => es.map(e => e.textContent)")))
    assert {KINDS_ES[k]: int(v.split(" de ")[1]) for k, v in by_kind.items()} == {k: round(20 * s) for k, s in SHARES.items()}
    weak = page.locator(".weakest > li")
    assert weak.count() == 3
    links = page.eval_on_selector_all(".weakest a", "es => es.map(e => e.getAttribute('href'))")
    assert "/study#drills" in links and any(re.fullmatch(r"/it-(laws|norms)/[\w-]+", h) for h in links)
    shot(page, "exam-result-es-phone")

    typed_q, typed = done["typed"]
    summaries = page.eval_on_selector_all("ol.review > li summary", "es => es.map(e => e.textContent)")
    item = page.locator("ol.review > li").nth(next(i for i, t in enumerate(summaries) if t == "✓ " + asked(typed_q)))
    assert item.get_attribute("class") == "right" and item.locator(".yours .verdict").text_content() == typed
    right = bank[1][typed_q["answer"]]
    assert item.locator(".shown-head a").first.get_attribute("href") == right["url"]
    assert item.locator(".shown-head a").first.text_content() == right["label"]  # 27B1(b): the clause, linked
    item.locator("summary").click()  # a right answer is folded: open, it shows the clause's text
    assert right["text"].split("\n")[0] in item.locator(".shown-text").text_content()
    assert page.locator("ol.review > li.wrong").count() == 17 and page.locator("ol.review details[open]").count() == 18

    # the result is kept: after a reload it is listed, and the study export carries it
    page.reload()
    page.wait_for_selector("#exam-history li:has-text('correctas: 3 de 20')")
    page.goto(server + "/study")
    with page.expect_download() as got:
        page.click("button.export-all")
    data = json.loads(open(got.value.path(), encoding="utf-8").read())
    (kept,) = data["exams"].values()
    assert len(kept["answers"]) == 20 and sum(a["right"] for a in kept["answers"]) == 3 and kept["seconds"] == 900
    assert {"q": typed_q["id"], "kind": typed_q["kind"], "period": typed_q["period"], "law": right["law"],
            "given": typed, "right": True} in kept["answers"]
    assert errors == [] and seen and all(u.startswith(server) or u.startswith("blob:") for u in seen), seen


def test_the_exam_reads_in_the_dark_with_fingertip_targets(server, phone, shot, bank):
    page = phone(locale="es-ES", color_scheme="dark")
    page.goto(server + "/study/exam?ui=es")
    page.wait_for_selector(".exam-setup:not([hidden])")
    page.check(".exam-setup input[value='10']")
    page.click(".exam-setup .start")
    page.wait_for_selector(".exam-sitting:not([hidden]) .choices button")
    small = ("els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect())"
             ".filter(r => r.height < 44 || r.width < 44).length")
    assert page.eval_on_selector_all(".exam-sitting button, .exam-sitting input", small) == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "exam-question-es-dark-phone")
    typed_norm, said = None, False
    for n in range(1, 11):  # a ten-question exam holds one norm question (15 % of 10, rounded)
        q, count = shown(page, bank), page.text_content(".exam-count")
        t = bank[1][q["answer"]]
        assert page.is_visible(".typed") == (q["kind"] != "definition")  # a term is chosen, not typed
        if not said and q["kind"] != "definition":  # words are no clause: said so, and the question stays
            said = True
            page.fill("#exam-typed", "no lo sé")
            page.click(".typed button")
            page.wait_for_selector(".typed-error:not([hidden])")
            assert page.text_content(".typed-error") == "No es el número de un apartado: escríbalo como 27B1b o 27 b 1 b."
            assert page.text_content(".exam-count") == count
        if q["kind"] == "norm":
            typed_norm = (q, f"norma {t['label']}" if t["form"] == "norm" else f"apéndice {t['label']}")
            page.fill("#exam-typed", typed_norm[1])
            page.click(".typed button")
        else:
            page.locator(".choices button").first.click()
        if n < 10:
            page.wait_for_function("n => document.querySelector('.exam-count').textContent !== n", arg=count)
    page.wait_for_selector(".exam-result:not([hidden])")
    assert said and typed_norm
    summaries = page.eval_on_selector_all("ol.review > li summary", "es => es.map(e => e.textContent)")
    at = summaries.index("✓ " + asked(typed_norm[0]))  # "norma 8" names norm 8 (and "norma 92" norm 92-93)
    assert page.locator("ol.review > li").nth(at).locator(".yours .verdict").text_content() == typed_norm[1]
    shot(page, "exam-result-es-dark-phone")
    page.eval_on_selector_all("ol.review details", "ds => ds.forEach(d => { d.open = true; })")
    assert page.eval_on_selector_all(".exam-result a, .exam-result button, .exam-result summary", small) == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    colour = page.eval_on_selector(".exam-result .score", "e => getComputedStyle(e).color")
    assert colour == "rgb(232, 230, 225)"  # the dark theme's text on its dark ground
    page.goto(server + "/study/exam?ui=es")
    assert page.eval_on_selector_all(".exam-setup label.size, .exam-setup button", small) == 0


EXAM = {"at": "2026-03-01T10:00:00.000Z", "seconds": 450, "took": 300,
        "answers": [{"q": "situation:late-arrival", "kind": "situation", "period": "before-round", "law": "90",
                     "given": "90B1", "right": True}] * 10}


def test_an_exam_result_imports_with_the_study_file_and_a_damaged_one_changes_nothing(server, phone, tmp_path):
    page = phone()
    page.goto(server + "/study")
    import_file(page, tmp_path / "bad.json", study_file(exams={"exam-a1": {**EXAM, "answers": [{"q": "<script>", "right": 1}]}}))
    status = page.locator(".data-status.error")
    status.wait_for()
    assert "voce 1 delle simulazioni d'esame (exam-a1): una risposta della simulazione non valida" in status.text_content()
    assert page.evaluate("localStorage.getItem('kb-study')") is None
    import_file(page, tmp_path / "good.json", study_file(exams={"exam-a1": EXAM}))
    page.wait_for_selector(".data-status:not(.error):has-text('Importato')")
    page.goto(server + "/study/exam")
    page.wait_for_selector("#exam-history li:has-text('giuste: 10 su 10')")


def test_in_the_static_copy_the_exam_runs_and_links_to_the_copys_pages(static_server, phone, bank):
    """`kb site`: the page, its questions and the search model it reads a typed clause with are
    files of the copy; the result links to the copy's files."""
    page = phone()
    errors = []
    page.on("pageerror", lambda e: errors.append(e))
    page.goto(static_server + "it/study/exam.html")
    page.wait_for_selector(".exam-setup:not([hidden])")
    page.check(".exam-setup input[value='10']")
    page.click(".exam-setup .start")
    page.wait_for_selector(".exam-sitting:not([hidden]) .choices button")
    typed = None
    for n in range(1, 11):
        q = shown(page, bank, "it")
        answer = bank[1][q["answer"]]
        count = page.text_content(".exam-count")
        if typed is None and answer["form"] == "clause":
            typed = spaced(answer["match"][0])
            page.fill("#exam-typed", typed)
            page.click(".typed button")
        else:
            page.click(".exam-moves .pass")
        if n < 10:
            page.wait_for_function("n => document.querySelector('.exam-count').textContent !== n", arg=count)
    page.wait_for_selector(".exam-result:not([hidden])")
    assert typed and page.text_content(".exam-result .score") == "Giuste: 1 su 10"
    hrefs = page.eval_on_selector_all(".exam-result a", "es => es.map(e => e.getAttribute('href'))")
    assert hrefs and all(h.startswith("../") and ".html" in h for h in hrefs), hrefs[:5]
    assert "../study.html#drills" in hrefs and errors == []
