"""The browser's own search (web/static/search.js) run on judged queries inside a real page, for
the offline-quality test and the offline benchmark alike."""
from __future__ import annotations

from typing import Any

from .evaluation import JudgedQuery, QueryScore, score_query

RUN = """async ([url, queries]) => {
  const engine = await KBSearch.load(url);
  return queries.map(([q, ui]) => {
    const t = performance.now();
    const r = engine.search(q, {ui: ui, limit: 10});
    return {ms: performance.now() - t, jump: r.jump && [r.jump.doc, r.jump.unit], ranked: r.hits.map(h => [h.doc, h.unit])};
  });
}"""
LOAD = """async (url) => { const t = performance.now(); await KBSearch.load(url); return performance.now() - t; }"""
READY = """async (url) => {
  const buffer = await (await fetch(url)).arrayBuffer();
  const t = performance.now();
  const engine = KBSearch.open(buffer);
  const ready = performance.now() - t;
  engine.search("carta penalizzata", {ui: "it"});
  return [ready, performance.now() - t];
}"""


def browser_scores(page: Any, queries: list[JudgedQuery], data_url: str) -> tuple[list[QueryScore], list[float]]:
    """Each query searched by the page's KBSearch in its user's language, scored as the server's
    results are (a number's jump is the first unit, as the reader lands on it); and the times."""
    found = page.evaluate(RUN, [data_url, [[q.query, q.lang] for q in queries]])
    scores = [score_query(q, _landed(r["jump"]) + [tuple(u) for u in r["ranked"]]) for q, r in zip(queries, found)]
    return scores, [r["ms"] for r in found]


def load_time(page: Any, data_url: str) -> float:
    """Milliseconds to fetch, parse and index the search data in the page."""
    return page.evaluate(LOAD, data_url)


def ready_time(page: Any, data_url: str) -> tuple[float, float]:
    """Milliseconds from the search data in hand (fetched, not yet read) to an engine ready to
    answer, and to its first answer."""
    ready, first = page.evaluate(READY, data_url)
    return ready, first


def _landed(jump: list[str] | None) -> list[tuple[str, str]]:
    return [tuple(jump)] if jump else []


def mrr(scores: list[QueryScore]) -> float:
    return sum(s.rr for s in scores) / len(scores) if scores else 0.0
