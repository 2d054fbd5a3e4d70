"""Search quality on every judged set, per kind and language, beside the FTS5 peer.

    PYTHONPATH=. python scripts/judged.py

Sets: tests/data (the gated sets A and B), measure/judged/tuning (blind set D, tuned on),
measure/judged/fresh (blind set E: measured once before any tuning, then tuned on),
measure/judged/heldout (blind set C, never tuned on), measure/judged/blind-f (blind set F, written
after E was tuned on, held out for one session, then tuned on) and measure/judged/blind-g (blind
set G, written when F became a tuning set, held out for one session, then tuned on) and
measure/judged/blind-h (blind set H, written when G was measured, never tuned on); measure/judged/stories-s and
stories-t (blind stories: S tuned on, T held out). MRR@10 counts the first unit a
director would open (grade 3); success@1 is the share of queries where it comes first.
"""
from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure/ is not installed

from kb.pipeline import build as builder  # noqa: E402
from kb.pipeline import generations  # noqa: E402
from kb.readmodel.knowledge import KnowledgeBase  # noqa: E402
from measure.evaluation import judged_queries, score_query, search_scores  # noqa: E402
from scripts.fts5_peer import Fts5Peer  # noqa: E402

SETS = [("A+B (gated)", ROOT / "tests" / "data"), ("D (blind, tuned on)", ROOT / "measure" / "judged" / "tuning"),
        ("E (blind, measured once, then tuned on)", ROOT / "measure" / "judged" / "fresh"),
        ("C (blind, held out)", ROOT / "measure" / "judged" / "heldout"),
        ("F (blind, held out once, then tuned on)", ROOT / "measure" / "judged" / "blind-f"),
        ("G (blind, held out once, then tuned on)", ROOT / "measure" / "judged" / "blind-g"),
        ("H (blind, held out)", ROOT / "measure" / "judged" / "blind-h"),
        ("S (blind stories, tuned on)", ROOT / "measure" / "judged" / "stories-s"),
        ("T (blind stories, held out)", ROOT / "measure" / "judged" / "stories-t")]


def table(name: str, ours: list, peer: list) -> None:
    groups: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(ours):
        for key in ("all", s.query.kind, f"lang {s.query.lang or '-'}"):
            groups[key].append(i)
    print(f"\n{name}")
    print(f"  {'':18} {'n':>4} {'MRR@10':>7} {'s@1':>5}   {'FTS5 MRR':>8} {'s@1':>5}")
    for key, ix in groups.items():
        def mrr(xs): return sum(xs[i].rr for i in ix) / len(ix)
        def s1(xs): return sum(xs[i].rr == 1 for i in ix) / len(ix)
        print(f"  {key:18} {len(ix):4} {mrr(ours):7.3f} {s1(ours):5.2f}   {mrr(peer):8.3f} {s1(peer):5.2f}")


def named(letters: list[str]) -> list[tuple[str, Path]]:
    """The sets named by their letters ("S", "A+B"), else every set."""
    return [(name, folder) for name, folder in SETS if not letters or name.split()[0] in letters]


def main() -> None:
    gen = builder.ensure_build().parent
    engine = KnowledgeBase(gen).engine
    peer = Fts5Peer(generations.load_export(gen / generations.EXPORT_NAME))
    for name, folder in named(sys.argv[1:]):
        queries = judged_queries(folder)
        table(name, search_scores(engine, queries), [score_query(q, peer.search(q.query)) for q in queries])


if __name__ == "__main__":
    main()
