"""Units ranked from clause scores, vectorised over the model's index documents.

A unit's score is its best clause, a little of the next two, its whole text, what the
time-reference entries and norm paragraphs pointing at it found, and part of the same Law's
score in the other edition; then weighted by its kind, its language and its game. Ties go to
the lower clause id, then to the unit that sorts first, so the order never depends on
dictionary order. The browser's engine follows this module one to one (web/static/search.js,
`ranking`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np

from ..corpus.library import OTHER_GAME, Library
from .model import UNIT_LEVEL, Model, counts
from .scoring import nonzero
from .tuning import Tuning

Key = tuple[str, str, str]  # (doc, unit, clause)
Ranked = list[tuple[tuple[str, str], tuple[str, float]]]  # (doc, unit) → (best clause, score)


@dataclass(frozen=True)
class Layout:
    """What the ranker reads of a model: a unit's number is its rank in (doc, unit) order, a
    clause's its rank in id order, so that ties break alike in every runtime."""

    units: list[tuple[str, str]]
    clause_names: list[str]
    unit_kind: list[str]
    unit_lang: list[str]
    unit_other_game: list[bool]
    arrays: dict[str, np.ndarray]  # row_unit, row_clause, lift_src/unit/clause, parallel_src/dst


def layout(keys: list[Key], unit_kind: dict[tuple[str, str], str], library: Library,
           lifts: dict[Key, list[Key]]) -> Layout:
    """The ranker's layout of index documents `keys` (in their order): `lifts` are clause → the
    Law clauses it annotates or integrates; the library says each document's language, which
    editions of the Laws pair up and which document is another game (the compiler's, and the
    tests')."""
    units = sorted(unit_kind)
    number = {u: i for i, u in enumerate(units)}
    names = sorted({c for _, _, c in keys} | {u for _, u in units} | {c for targets in lifts.values() for _, _, c in targets})
    ordinal = {c: i for i, c in enumerate(names)}
    row_of = {k: n for n, k in enumerate(keys)}
    pairs = [(row_of[src], number[t[:2]], ordinal[t[2]]) for src, targets in lifts.items() if src in row_of
             for t in targets if t[:2] in number]
    parallel = [(number[(d, u)], number[(o, u)]) for d, u in units if unit_kind[(d, u)] == "article"
                for o in library.counterparts(d) if (o, u) in number]
    arrays = {"row_unit": counts([number[k[:2]] for k in keys]), "row_clause": counts([ordinal[k[2]] for k in keys])}
    arrays.update(_columns("lift", ("src", "unit", "clause"), pairs))
    arrays.update(_columns("parallel", ("src", "dst"), parallel))
    return Layout(units, names, [unit_kind[u] for u in units], [library.lang(d) or "" for d, _ in units],
                  [d in library.ids(OTHER_GAME) for d, _ in units], arrays)


def _columns(prefix: str, names: tuple[str, ...], rows: list[tuple[int, ...]]) -> dict[str, np.ndarray]:
    return {f"{prefix}_{name}": counts([r[i] for r in rows]) for i, name in enumerate(names)}


class UnitRanker:
    def __init__(self, layout: Layout, tuning: Tuning):
        a = layout.arrays
        self.tuning = tuning
        self.units = layout.units
        self.clause_names = layout.clause_names
        self.number = {u: i for i, u in enumerate(self.units)}
        self.doc_unit, self.doc_clause = a["row_unit"].astype(np.intp), a["row_clause"].astype(np.intp)
        self.doc_whole = self.doc_clause == layout.clause_names.index(UNIT_LEVEL)
        self.lift_src, self.lift_unit, self.lift_clause = (a[f"lift_{n}"].astype(np.intp) for n in ("src", "unit", "clause"))
        self.parallel_src, self.parallel_dst = a["parallel_src"].astype(np.intp), a["parallel_dst"].astype(np.intp)
        ordinal = {c: i for i, c in enumerate(layout.clause_names)}
        self.unit_clause = np.array([ordinal[u] for _, u in self.units], dtype=np.intp)  # the unit's own id
        self.kind = np.array(layout.unit_kind)
        self.lang = np.array(layout.unit_lang)
        self.other_game = np.array(layout.unit_other_game)
        self.kind_weight = np.array([tuning.kind_weight.get(k, 1.0) for k in layout.unit_kind])

    @classmethod
    def of(cls, model: Model) -> "UnitRanker":
        langs = {d["id"]: d["lang"] for d in model.documents}
        games = {d["id"]: d["other_game"] for d in model.documents}
        names = ("row_unit", "row_clause", "lift_src", "lift_unit", "lift_clause", "parallel_src", "parallel_dst")
        return cls(Layout(model.units, model.clause_names, model.unit_kind, [langs[d] for d, _ in model.units],
                          [games[d] for d, _ in model.units], {n: model.arrays[n] for n in names}), model.tuning)

    def rank(self, scores: np.ndarray, intent: str | None = None, prefer: tuple[str | None, float] = (None, 1.0),
             other_game: bool = False, pinned: Iterable[Key] = (), lifting: np.ndarray | None = None) -> Ranked:
        """Units best first; `pinned` clauses (a number's target) lead, in their order. `lifting`:
        the scores an annotating entry lends its Law (default `scores`; the engine lends the
        text's alone, not the evidence a situation gave the entry itself)."""
        present, best, total = self.unit_scores(scores, lifting)
        final = total * self.weights(intent, prefer, other_game)
        found = np.flatnonzero(present)
        order = found[np.lexsort((found, -final[found]))]
        names, units = self.clause_names, self.units
        ranked = [(units[i], (names[c], s)) for i, c, s in zip(order.tolist(), best[order].tolist(),
                                                                final[order].tolist())]
        pinned = list(pinned)
        if pinned:
            top = ranked[0][1][1] if ranked else 1.0
            keep = {(d, u) for d, u, _ in pinned}
            ranked = [((d, u), (c, top * 10 + len(pinned) - i)) for i, (d, u, c) in enumerate(pinned)] + \
                     [r for r in ranked if r[0] not in keep]
        return ranked

    def unit_scores(self, scores: np.ndarray, lifting: np.ndarray | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per unit: found at all, its best clause's number, its score before weighting."""
        t = self.tuning
        lifting = scores if lifting is None else lifting
        n_units = len(self.units)
        found = nonzero(scores)
        whole_docs, clause_docs = found[self.doc_whole[found]], found[~self.doc_whole[found]]
        lifted = lifting[self.lift_src] > 0
        unit = np.concatenate([self.doc_unit[clause_docs], self.lift_unit[lifted]])
        score = np.concatenate([scores[clause_docs], lifting[self.lift_src[lifted]] * t.link_lift])
        clause = np.concatenate([self.doc_clause[clause_docs], self.lift_clause[lifted]])
        present = np.zeros(n_units, dtype=bool)
        present[self.doc_unit[found]] = True
        present[unit] = True
        whole = np.zeros(n_units)
        whole[self.doc_unit[whole_docs]] = scores[whole_docs]

        order = np.lexsort((clause, -score, unit))  # per unit, best clause first
        unit, score, clause = unit[order], score[order], clause[order]
        first = np.ones(len(unit), dtype=bool)
        first[1:] = unit[1:] != unit[:-1]
        starts = np.maximum.accumulate(np.where(first, np.arange(len(unit)), 0))
        rank_in_unit = np.arange(len(unit)) - starts
        best_score = np.zeros(n_units)
        best_score[unit[first]] = score[first]
        best = self.unit_clause.copy()
        best[unit[first]] = clause[first]
        next_two = np.zeros(n_units)
        runner_up = (rank_in_unit == 1) | (rank_in_unit == 2)
        np.add.at(next_two, unit[runner_up], score[runner_up])
        total = best_score + t.second_clause_weight * next_two + t.unit_weight * whole

        share = present[self.parallel_src]  # the same Law in the other edition
        src, dst = self.parallel_src[share], self.parallel_dst[share]
        out = total.copy()
        np.add.at(out, dst, t.parallel_lift * total[src])
        present[dst] = True
        return present, best, out

    def weights(self, intent: str | None, prefer: tuple[str | None, float], other_game: bool) -> np.ndarray:
        t = self.tuning
        w = self.kind_weight.copy()
        if intent in t.intent_demote:
            kinds, weight = t.intent_demote[intent]
            w[np.isin(self.kind, kinds)] = weight
        if intent in t.intent_boost:
            kinds, factor = t.intent_boost[intent]
            w[np.isin(self.kind, kinds)] *= factor
        if prefer[0]:
            w[self.lang == prefer[0]] *= prefer[1]
        w[self.other_game != other_game] *= t.other_game_weight  # the game the query is not about weighs less
        return w
