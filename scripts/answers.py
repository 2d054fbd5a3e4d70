"""What the answer cards say on every judged set: how many queries get one, and how many of those
rule a unit the judges graded 3 (the card's ruling clause, or the reader's older edition's).

    PYTHONPATH=. python scripts/answers.py [set letters]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure/ is not installed

from kb.pipeline import build as builder  # noqa: E402
from kb.readmodel.knowledge import KnowledgeBase  # noqa: E402
from measure.evaluation import judged_queries  # noqa: E402
from scripts.judged import named  # noqa: E402


def right(q, answer) -> bool:
    units = {(answer[k]["doc"], answer[k]["unit"]) for k in ("ruling", "older") if answer[k]}
    return any(q.relevant.get(u) == 3 for u in units)


def main() -> None:
    engine = KnowledgeBase(builder.ensure_build().parent).engine
    print(f"{'set':42} {'n':>4} {'cards':>6} {'rule a grade-3 unit':>20}")
    for name, folder in named(sys.argv[1:]):
        queries = judged_queries(folder)
        cards = [(q, engine.search(q.query, ui=q.lang).answer) for q in queries]
        shown = [(q, a) for q, a in cards if a]
        good = sum(right(q, a) for q, a in shown)
        print(f"{name:42} {len(queries):4} {len(shown):6} {good:8} ({good / max(len(shown), 1):.2f})")


if __name__ == "__main__":
    main()
