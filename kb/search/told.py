"""What a query tells: the phrasebook's evidence, added to the text's clause scores.

The entries a query says (a situation, a Law's English title, a term of art) lend their
ruling clauses part of the best text score, by how closely each is said: a told story (four
words or more the texts or the phrasebook know) to the clauses themselves, a shorter name to
their units, and only when said closely. A Law's title said in full names that Law outright.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

import numpy as np

from .index import UNIT_LEVEL
from ..urls import situation_url
from .phrasebook import VERBATIM, Match

Key = tuple[str, str, "str | None"]

ENTRIES = 4            # the phrasebook entries a query's words may say at once
NAME_WEIGHT = 1.3      # a ruling unit of a name the query says gains this share of the best score…
STORY_WORDS = 4        # …a query of this many known words tells a story…
STORY_WEIGHT = 4.0     # …and the ruling clauses of its situation gain this share
NAME_MIN = 0.7         # a shorter query must say a phrase at least this closely
NOT_LEAD = 0.6         # a target that does not rule first (not the Laws', not the lead's unit) gains less
DECAY = 0.9            # each further clause of the same document a little less
RANK_DECAY = 0.8       # the second and third entries said, each this much less
SHOWN = 0.7            # a situation said this closely is named above the hits


def added(matches: list[Match], story: bool, scores: np.ndarray, floor: float,
          docnum: Callable[[Key], "int | None"]) -> np.ndarray:
    """The evidence per index document (a vector like `scores`); `floor` is the least best
    score it is a share of (a situation told in words the texts lack still counts)."""
    extra = np.zeros_like(scores)
    if not matches:
        return extra
    top = max(scores.max(initial=0.0), floor)
    told = STORY_WEIGHT if story else NAME_WEIGHT
    for rank, m in enumerate(m for m in matches if story or m.strength >= NAME_MIN):
        seen: Counter[str] = Counter()
        for i, target in enumerate(m.entry.targets):
            n = docnum(target if story else (*target[:2], UNIT_LEVEL))  # a name names a unit
            if n is not None:
                weight = told if m.entry.leads(i) else told * NOT_LEAD
                extra[n] = max(extra[n], weight * m.strength * top * DECAY ** seen[target[0]] * RANK_DECAY ** rank)
            seen[target[0]] += 1
    return extra


def titled(matches: list[Match], first: Callable[[str], bool]) -> list[Key]:
    """A Law's title said word for word ("Faced Opening Lead Out of Turn"): that Law's clauses
    to lead the hits, the documents `first` picks (the reader's edition) first."""
    m = next((m for m in matches if m.entry.title and m.strength >= VERBATIM), None)
    return sorted(m.entry.targets, key=lambda t: not first(t[0])) if m else []


def named(matches: list[Match], lang: str | None) -> list[dict[str, str]]:
    """The situations said closely enough to name above the hits, in the reader's language."""
    return [{"id": m.entry.id, "name": m.entry.name(lang), "url": situation_url(m.entry.id)}
            for m in matches if m.entry.names and m.strength >= SHOWN]
