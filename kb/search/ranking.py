"""Units ranked from clause scores, vectorised over the index's documents.

A unit's score is its best clause, a little of the next two, its whole text,
what the time-reference entries and norm paragraphs pointing at it found, and
part of the same Law's score in the other edition; then weighted by its kind,
its language and its game. Ties go to the lower clause id, then to the unit
that sorts first, so the order never depends on dictionary order.
"""
from __future__ import annotations

from typing import Iterable

import numpy as np

from ..library import OTHER_GAME, Library
from .index import UNIT_LEVEL
from .scoring import nonzero

# A FIGB norm or appendix that matches about as well comes before the Law it integrates: in
# Italy it gives the ruling (penalties, procedures the Law leaves to the federation).
KIND_WEIGHT = {"topic": 0.4, "front": 0.5, "norm": 1.3, "appendix": 1.4, "definition": 0.6}
OTHER_GAME_WEIGHT = 0.2  # a different game (the manifest's kind `code`): first only when asked about
SECOND_CLAUSE_WEIGHT = 0.1
UNIT_WEIGHT = 0.5         # the whole unit's score, beside its best clause's
PARALLEL_LIFT = 0.3       # share of a Law's score given to the same Law in the other edition
LINK_LIFT = 1.0           # share of an annotating entry's score given to its Law unit
INTENT_BOOST = {"definition": (("definition",), 2.0), "timing": (("topic",), 1.6),
                "federation": (("norm", "appendix"), 1.4)}  # the federation named: its rules first
INTENT_DEMOTE = {"definition": (("norm", "appendix"), 0.8)}  # what a term means: the Laws' wording first

Key = tuple[str, str, str]  # (doc, unit, clause)
Ranked = list[tuple[tuple[str, str], tuple[str, float]]]  # (doc, unit) → (best clause, score)


class UnitRanker:
    def __init__(self, keys: list[Key], unit_kind: dict[tuple[str, str], str], library: Library,
                 lifts: dict[Key, list[Key]]):
        """`keys`: the identity of each index document by number; `lifts`: clause → the
        Law clauses it annotates or integrates; the library says each document's language,
        which editions of the Laws pair up and which document is another game."""
        self.units = sorted(unit_kind)  # a unit's number is its rank in (doc, unit) order
        number = {u: i for i, u in enumerate(self.units)}
        names = sorted({c for _, _, c in keys} | {u for _, u in self.units}
                       | {c for targets in lifts.values() for _, _, c in targets})
        self.clause_names = names  # a clause's number is its rank in id order: ties break alike
        ordinal = {c: i for i, c in enumerate(names)}
        self.doc_unit = np.array([number[(d, u)] for d, u, _ in keys], dtype=np.intp)
        self.doc_whole = np.array([c == UNIT_LEVEL for _, _, c in keys])
        self.doc_clause = np.array([ordinal[c] for _, _, c in keys], dtype=np.intp)
        docnum = {k: n for n, k in enumerate(keys)}
        pairs = [(docnum[src], number[t[:2]], ordinal[t[2]]) for src, targets in lifts.items() if src in docnum
                 for t in targets if t[:2] in number]
        self.lift_src, self.lift_unit, self.lift_clause = _columns(pairs, 3)
        self.unit_clause = np.array([ordinal[u] for _, u in self.units], dtype=np.intp)  # the unit's own id
        parallel = [(number[(d, u)], number[(o, u)]) for (d, u), kind in unit_kind.items() if kind == "article"
                    for o in library.counterparts(d) if (o, u) in number]
        self.parallel_src, self.parallel_dst = _columns(parallel, 2)
        self.kind = np.array([unit_kind[u] for u in self.units])
        self.lang = np.array([library.lang(d) for d, _ in self.units])
        self.other_game = np.array([d in library.ids(OTHER_GAME) for d, _ in self.units])
        self.kind_weight = np.array([KIND_WEIGHT.get(unit_kind[u], 1.0) for u in self.units])

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
        lifting = scores if lifting is None else lifting
        n_units = len(self.units)
        found = nonzero(scores)
        whole_docs, clause_docs = found[self.doc_whole[found]], found[~self.doc_whole[found]]
        lifted = lifting[self.lift_src] > 0
        unit = np.concatenate([self.doc_unit[clause_docs], self.lift_unit[lifted]])
        score = np.concatenate([scores[clause_docs], lifting[self.lift_src[lifted]] * LINK_LIFT])
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
        total = best_score + SECOND_CLAUSE_WEIGHT * next_two + UNIT_WEIGHT * whole

        share = present[self.parallel_src]  # the same Law in the other edition
        src, dst = self.parallel_src[share], self.parallel_dst[share]
        out = total.copy()
        out[dst] += PARALLEL_LIFT * total[src]
        present[dst] = True
        return present, best, out

    def weights(self, intent: str | None, prefer: tuple[str | None, float], other_game: bool) -> np.ndarray:
        w = self.kind_weight.copy()
        if intent in INTENT_DEMOTE:
            kinds, weight = INTENT_DEMOTE[intent]
            w[np.isin(self.kind, kinds)] = weight
        if intent in INTENT_BOOST:
            kinds, factor = INTENT_BOOST[intent]
            w[np.isin(self.kind, kinds)] *= factor
        if prefer[0]:
            w[self.lang == prefer[0]] *= prefer[1]
        w[self.other_game != other_game] *= OTHER_GAME_WEIGHT  # the game the query is not about weighs less
        return w


def _columns(rows: list[tuple[int, ...]], width: int) -> list[np.ndarray]:
    """Rows of integers as one array per column (empty arrays for no rows)."""
    return [np.array([r[i] for r in rows], dtype=np.intp) for i in range(width)]
