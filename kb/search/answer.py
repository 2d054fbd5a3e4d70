"""The answer a query tells: the situation it recognises, and the clauses that rule it.

The situation said most closely answers the query when it is said closely enough
(`answer_strength`) and a clause that rules it is among the first `answer_hits` hits: the
phrasebook and the text agree, and the answer never contradicts the list under it.
The answer holds the situation's ruling clause (of the Laws in force when the Laws rule it, else
its lead norm's or its game's), the other text that fixes it (the FIGB norm beside a Law, the Law
beside a norm), the same rule in the reader's own edition when that edition is an older one
(the 2007 Spanish text for a Spanish reader), the time limit, and a line of "see also" (its other
ruling clauses). The browser's engine follows this module one to one (web/static/search.js,
`answer`).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..corpus.library import NORMS, TIMEREF, Library
from .model import Entry, Target
from .phrasebook import Match
from .tuning import Tuning

Key = tuple[str, str]


@dataclass(frozen=True)
class Parts:
    """The targets an answer shows, each at most once."""

    ruling: Target
    beside: Target | None   # the norm beside a Law, or the Law beside a norm
    older: Target | None    # the rule in the reader's older edition
    time: Target | None
    see: tuple[Target, ...]


def chosen(said: list[Match], hits: list[Key], tuning: Tuning) -> Match | None:
    """The situation said most closely, when said closely enough and it rules one of the first
    `answer_hits` hits: the two readings of the query agree."""
    named = next((m for m in said if m.entry.names and m.strength >= tuning.answer_strength), None)
    first_hits = set(hits[:tuning.answer_hits])
    if named and any((t.doc, t.unit) in first_hits for t in named.entry.targets if t.leads):
        return named
    return None


def parts(entry: Entry, library: Library, reader: str | None, see: int) -> Parts:
    """What the answer of `entry` shows to a reader of the language `reader`."""
    in_force = library.laws_in_force
    leads = [t for t in entry.targets if t.leads]
    ruling = next((t for t in leads if t.doc == in_force), leads[0])
    laws = library.is_laws(ruling.doc)
    beside = _first_target(entry, lambda t: t.doc != ruling.doc and
                           (library.kind(t.doc) == NORMS if laws else t.doc == in_force))
    own = library.laws_in(reader) if reader else None
    older = _first_target(entry, lambda t: t.doc == own) if laws and own and own != in_force else None
    time = _first_target(entry, lambda t: library.kind(t.doc) == TIMEREF)
    shown = {(t.doc, t.unit) for t in (ruling, beside, older, time) if t}
    others = [t for t in leads if t.doc == ruling.doc and (t.doc, t.unit) not in shown]
    return Parts(ruling, beside, older, time, tuple(_first_of_units(others))[:see])


def _first_target(entry: Entry, wanted) -> Target | None:
    return next((t for t in entry.targets if wanted(t)), None)


def _first_of_units(targets: list[Target]) -> list[Target]:
    """The first target of each unit, in order."""
    firsts: dict[Key, Target] = {}
    for t in targets:
        firsts.setdefault((t.doc, t.unit), t)
    return list(firsts.values())
