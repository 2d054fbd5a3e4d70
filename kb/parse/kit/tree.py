"""A unit's clause tree: clauses in text order, found by id, each under its parent."""
from __future__ import annotations

from ...records.model import Clause


class ClauseTree:
    """The clauses of one unit as they are read. A clause added at a depth hangs under
    the nearest clause read before it at a lesser depth (the root is at depth 0)."""

    def __init__(self, root: Clause):
        self.clauses: list[Clause] = [root]
        self.by_id: dict[str, Clause] = {root.id: root}
        self.depths: list[int] = [0]

    @property
    def root(self) -> Clause:
        return self.clauses[0]

    @property
    def last(self) -> Clause:
        return self.clauses[-1]

    @property
    def depth(self) -> int:
        """The depth of the last clause read."""
        return self.depths[-1]

    def above(self, depth: int) -> Clause:
        """The clause a new clause at `depth` hangs under."""
        return next(c for c, d in zip(reversed(self.clauses), reversed(self.depths)) if d < depth)

    def add(self, clause: Clause, depth: int = 1) -> Clause:
        self.clauses.append(clause)
        self.by_id[clause.id] = clause
        self.depths.append(depth)
        return clause

    def get(self, clause_id: str) -> Clause | None:
        return self.by_id.get(clause_id)

    def __contains__(self, clause_id: str) -> bool:
        return clause_id in self.by_id
