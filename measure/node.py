"""The browser's engine (web/static/search.js) run in Node, for tests and benchmarks: its answers to
searches, analyses and stems, beside the server's (measure/engine.js does the Node side); and the
drills' scheduler (web/static/fsrs.js, measure/scheduler.js), beside the reference's."""
from __future__ import annotations

import html
import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

RUNNER = Path(__file__).resolve().parent / "engine.js"
SCHEDULER = Path(__file__).resolve().parent / "scheduler.js"
NODE = shutil.which("node") or shutil.which("nodejs")


def run(model: Path, requests: list[list[Any]]) -> dict[str, Any]:
    """{ready_ms, results}: Node's answer to each request (["search", q, options], ["terms", chain,
    text], ["stem", lang, word]), in order."""
    return _node(RUNNER, [str(model)], requests)


def schedule(requests: list[list[Any]]) -> list[Any]:
    """The scheduler's answer to each request (["review", options, card, reviews], ["leitner", box,
    due], ["draw", id, n]: see measure/scheduler.js), in order."""
    return _node(SCHEDULER, [], requests)


def _node(script: Path, args: list[str], requests: list[list[Any]]) -> Any:
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as f:
        json.dump(requests, f, ensure_ascii=False)
        f.flush()
        done = subprocess.run([NODE, str(script), *args, f.name], capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"node {script.name}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}")
    return json.loads(done.stdout)


def snippet_html(parts: list[list[Any]]) -> str:
    """The browser's snippet (text parts, marked or not) as the server writes it."""
    return "".join(f"<mark>{html.escape(t, quote=False)}</mark>" if marked else html.escape(t, quote=False)
                   for t, marked in parts)


def same_result(server: Any, browser: dict[str, Any]) -> str | None:
    """None when the browser's answer is the server's `Result` in every field a reader sees (hits
    with their clause, score, label, snippet and parallels; total, suggestion, jump, choices,
    situations said, facets, the answer card; the query as read, its page and limit); else the first field that differs."""
    hits = browser["hits"]
    checks = [
        ("units", [(h.doc, h.unit) for h in server.hits], [(h["doc"], h["unit"]) for h in hits]),
        ("clauses", [h.clause for h in server.hits], [h["clause"] for h in hits]),
        ("scores", [h.score for h in server.hits], [round(h["score"], 3) for h in hits]),
        ("labels", [(h.label, h.title, h.kind, h.lang, h.url) for h in server.hits],
         [(h["label"], h["title"], h["kind"], h["lang"], h["url"]) for h in hits]),
        ("snippets", [h.snippet for h in server.hits], [snippet_html(h["snippet"]) for h in hits]),
        ("parallels", [h.parallel for h in server.hits], [h["parallel"] for h in hits]),
        ("query", (server.query, server.page, server.limit), (browser["query"], browser["page"], browser["limit"])),
        ("total", server.total, browser["total"]), ("suggestion", server.suggestion, browser["suggestion"]),
        ("jump", server.jump, browser["jump"]), ("choices", server.choices, browser["choices"]),
        ("said", server.said, browser["said"]), ("facets", server.facets, browser["facets"]),
        ("answer", server.answer, browser["answer"]),
    ]
    return next((name for name, a, b in checks if a != b), None)
