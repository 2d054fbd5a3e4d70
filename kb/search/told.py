"""What a query tells: the phrasebook's evidence, added to the text's clause scores.

The entries a query says (a situation, a Law's English title, a term of art) lend their
ruling clauses part of the best text score, by how closely each is said: a told story (four
words or more the texts or the phrasebook know) to the clauses themselves, a shorter name to
their units, and only when said closely. A Law's title said in full names that Law outright.
The browser's engine follows this module one to one (web/static/search.js, `told`).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

import numpy as np

from .phrasebook import Match
from .tuning import Tuning

Key = tuple[str, str, "str | None"]


def added(matches: list[Match], story: bool, scores: np.ndarray, tuning: Tuning,
          powers: dict[str, list[float]]) -> np.ndarray:
    """The evidence per index document (a vector like `scores`): a share of the best score, at
    least `weak_score` (a situation told in words the texts lack still counts); `powers` are
    the model's decays, raised once at compile time."""
    t = tuning
    extra = np.zeros_like(scores)
    if not matches:
        return extra
    top = max(scores.max(initial=0.0), t.weak_score)
    told = t.story_weight if story else t.name_weight
    decay, rank_decay = powers["decay"], powers["rank_decay"]
    for rank, m in enumerate(m for m in matches if story or m.strength >= t.name_min):
        seen: Counter[str] = Counter()
        for target in m.entry.targets:
            n = target.row if story else target.unit_row  # a name names a unit
            if n >= 0:
                weight = told if target.leads else told * t.not_lead
                extra[n] = max(extra[n], weight * m.strength * top * decay[seen[target.doc]] * rank_decay[rank])
            seen[target.doc] += 1
    return extra


def titled(matches: list[Match], first: Callable[[str], bool], tuning: Tuning) -> list[Key]:
    """A Law's title said word for word ("Faced Opening Lead Out of Turn"): that Law's clauses
    to lead the hits, the documents `first` picks (the reader's edition) first."""
    m = next((m for m in matches if m.entry.title and m.strength >= tuning.verbatim), None)
    targets = [(t.doc, t.unit, t.clause) for t in m.entry.targets] if m else []
    return sorted(targets, key=lambda t: not first(t[0]))


def named(matches: list[Match], lang: str | None, tuning: Tuning) -> list[dict[str, str]]:
    """The situations said closely enough to name above the hits, in the reader's language."""
    return [{"id": m.entry.id, "name": m.entry.name(lang), "url": m.entry.url}
            for m in matches if m.entry.names and m.strength >= tuning.shown]
