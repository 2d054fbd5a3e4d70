"""Search quality on the situation index's own phrasings, each fold held out of the phrasebook.

    PYTHONPATH=. python scripts/phrasings_holdout.py [--folds 5] [--per-fold 400] [--seed 7]

A tuning set no judge wrote: the phrasings of the situation index (its first phrase per
language, the entry's name, always stays). For each fold a share of them is taken out of the
phrasebook, the engine searches each held-out phrasing in its language, and the unit that
should open first is its situation's lead norm (Italian and English) or else its first Law
target in the edition of the phrasing's language (Spanish: 2007; else 2017). Used with the
judged sets to tune the phrasebook's weights (the notes of issue 13 say which); it tells
nothing of how well the index's phrasings themselves were chosen. (A held-out phrasing's words
stay known to the typo check, which reads the whole phrasebook.)
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kb.pipeline import build as builder  # noqa: E402
from kb.pipeline.generations import CORPUS_COPY  # noqa: E402
from kb.readmodel.knowledge import KnowledgeBase  # noqa: E402
from kb.search import entries as sources  # noqa: E402
from kb.search.compiler import phrasebook_of  # noqa: E402
from measure.evaluation import JudgedQuery, search_scores  # noqa: E402


def held_out(kb: KnowledgeBase, engine, folds: int, per_fold: int, seed: int):
    """(fold's phrasebook, compiled over the build's model, its held-out phrasings as judged
    queries) per fold."""
    entries, phrases = sources.load(kb.gen / CORPUS_COPY, engine.library, kb.store.documents.values())
    named: set[tuple[int, str]] = set()
    candidates = []
    in_books = sorted(enumerate(phrases), key=lambda x: (entries[x[1][0]].other_game, x[1][1]))  # the books' order
    for n, (i, lang, text) in in_books:
        entry = entries[i]
        if not entry.names:
            continue  # a title, a term, a heading: no situation to find
        if (i, lang) not in named:
            named.add((i, lang))  # the entry's name in this language: kept
            continue
        wanted = _wanted(entry, lang, engine)
        if wanted:
            candidates.append((n, JudgedQuery(text, lang, "phrasing", {wanted: 3})))
    random.Random(seed).shuffle(candidates)
    for f in range(folds):
        fold = candidates[f * per_fold:(f + 1) * per_fold]
        out = {n for n, _ in fold}
        kept = [p for n, p in enumerate(phrases) if n not in out]
        yield phrasebook_of(entries, kept, engine.model), [q for _, q in fold]


def _wanted(entry, lang: str, engine) -> tuple[str, str] | None:
    library = engine.library
    if entry.lead and (lang == library.lang(entry.lead[0]) or lang not in engine.langs):
        return entry.lead[:2]  # the norm rules first for its own readers and for English ones
    edition = next((d for d in library.laws if library.lang(d) == lang), library.laws_in_force)
    return next((t[:2] for t in entry.targets if t[0] == edition), None)


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--folds", type=int, default=5)
    args.add_argument("--per-fold", type=int, default=400)
    args.add_argument("--seed", type=int, default=7)
    a = args.parse_args()
    kb = KnowledgeBase(builder.ensure_build().parent)
    engine = kb.engine
    whole = engine.phrasebook
    rr: dict[str, list[float]] = defaultdict(list)
    try:
        for book, fold in held_out(kb, engine, a.folds, a.per_fold, a.seed):
            engine.phrasebook = book
            for score in search_scores(engine, fold):
                rr["all"].append(score.rr)
                rr[score.query.lang].append(score.rr)
    finally:
        engine.phrasebook = whole
    for key, values in rr.items():
        print(f"{key:4} n={len(values):5}  MRR@10 {sum(values) / len(values):.3f}  "
              f"s@1 {sum(v == 1 for v in values) / len(values):.2f}")


if __name__ == "__main__":
    main()
