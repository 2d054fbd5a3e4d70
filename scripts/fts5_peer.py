"""The peer a user might pick instead: SQLite FTS5 over the same clauses, BM25-ranked.

    python scripts/fts5_peer.py   # quality and latency on the judged queries

Built the plain way (stdlib sqlite3, `unicode61 remove_diacritics 2`, the query's
words OR-ed, `bm25()` order), grouped by unit like our hits, so the bench can
put the two side by side on the same units and queries.
"""
from __future__ import annotations

import re
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # measure/ is not installed

from kb.records.store import Store  # noqa: E402
from kb.search.compiler import index_documents  # noqa: E402

WORD = re.compile(r"\w+")


class Fts5Peer:
    def __init__(self, export: dict[str, Any]):
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute("CREATE VIRTUAL TABLE clauses USING fts5(doc UNINDEXED, unit UNINDEXED, "
                        "heading, body, tokenize = 'unicode61 remove_diacritics 2')")
        rows = [(d["doc"], d["unit"], d["title"], d["body"]) for d in index_documents(Store(export))]
        self.db.executemany("INSERT INTO clauses VALUES (?, ?, ?, ?)", rows)
        self.db.commit()

    def search(self, q: str, limit: int = 10) -> list[tuple[str, str]]:
        words = WORD.findall(q)
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', "") + '"' for w in words)
        out: list[tuple[str, str]] = []
        for doc, unit in self.db.execute(
                "SELECT doc, unit FROM clauses WHERE clauses MATCH ? ORDER BY bm25(clauses) LIMIT 400", (match,)):
            if (doc, unit) not in out:
                out.append((doc, unit))
                if len(out) == limit:
                    break
        return out


def evaluate(peer: Fts5Peer) -> tuple[dict[str, dict[str, float]], list[float]]:
    from measure.evaluation import judged_queries, score_query, summarize
    scores, times = [], []
    for q in judged_queries():
        t0 = time.perf_counter()
        ranked = peer.search(q.query)
        times.append((time.perf_counter() - t0) * 1000)
        scores.append(score_query(q, ranked))
    return summarize(scores), times


if __name__ == "__main__":
    from kb.pipeline import build as builder
    from kb.pipeline import generations
    peer = Fts5Peer(generations.load_export(builder.ensure_build()))
    quality, times = evaluate(peer)
    times.sort()
    print(f"FTS5 MRR@10 {quality['all']['mrr']:.3f} recall@10 {quality['all']['recall']:.3f}; "
          f"p50 {times[len(times) // 2]:.2f} ms p95 {times[int(len(times) * 0.95)]:.2f} ms")
