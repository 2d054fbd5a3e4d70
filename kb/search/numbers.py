"""A number query's clause: `27B1` in the Laws meant, the nearest clause that exists, and the same
Law in the other editions beside it. The browser's engine follows this module one to one
(web/static/search.js, `numbers`)."""
from __future__ import annotations

from typing import Any

from ..records.clauseid import unit_numbered
from ..corpus.urls import url_for
from .model import Model
from .query import NumberQuery

Target = dict[str, Any]
Key = tuple[str, str, str]


class Numbers:
    def __init__(self, model: Model):
        n = model.get("numbers")
        self.ids: dict[str, dict[str, Any]] = n["ids"]
        self.in_force: dict[str, list[str]] = n["in_force"]
        self.all: dict[str, list[str]] = n["all"]
        self.laws: list[str] = model.get("laws")
        self.across: dict[str, dict[str, str]] = n["across"]
        self.lang = {d["id"]: d["lang"] for d in model.documents}

    def resolve(self, n: NumberQuery | None, doc: str | None, lang: str | None, ui: str | None
                ) -> tuple[Target | None, list[Target], list[Key]]:
        """(the clause to jump to, the choices when several documents have it, the clauses to pin first)."""
        if n is None:
            return None, [], []
        targets = [t for t in (self.existing(d, n) for d in self.meant(n, doc, lang)) if t]
        if not targets:
            return None, [], []
        chosen = targets
        if len(targets) > 1 and ui:
            chosen = [t for t in targets if self.lang[t["doc"]] == ui] or targets
        pinned = [(t["doc"], t["unit"], t["clause"]) for t in chosen]
        if chosen[0]["doc"] in self.laws:  # then the same Law in the other edition, for comparison
            for d in self.laws:
                other = self.existing(d, n) if d not in {t["doc"] for t in chosen} else None
                if other:
                    pinned.append((d, other["unit"], other["clause"]))
        if len(chosen) == 1:
            return chosen[0], [], pinned
        return None, chosen, pinned

    def meant(self, n: NumberQuery, doc: str | None, lang: str | None) -> list[str]:
        """The documents a number means: of the first (kind, language) it wants that the filters
        allow, those in force (an edition another in its language supersedes only by name)."""
        if n.doc:
            return [n.doc] if (not doc or doc == n.doc) and (not lang or self.lang[n.doc] == lang) else []
        for kind, in_lang in n.wants:
            pool = (self.all if doc else self.in_force)[f"{kind}:{in_lang or ''}"]
            found = [d for d in pool if (not doc or d == doc) and (not lang or self.lang[d] == lang)]
            if found:
                return found
        return []

    def existing(self, doc: str, n: NumberQuery) -> Target | None:
        """The clause a number names in a document, or its nearest existing ancestor."""
        ids = self.ids[doc]
        unit = ids["appendix"].get(n.article) if n.appendix else unit_numbered(ids["units"], n.article)
        if unit is None:
            return None
        clauses = dict((c, label) for c, label in ids["units"].get(unit, ()))
        clause = n.clause
        moved = self.across.get(doc, {}).get(clause)
        if clause not in clauses and moved in clauses:  # another edition's number, where this one's differs
            clause = moved
        while clause not in clauses and len(clause) > len(n.article):
            clause = clause[:-1]
        if unit != n.article:  # norm 92-93 is the norm of Law 92
            clause = unit
        return {"doc": doc, "unit": unit, "clause": clause, "label": clauses.get(clause, clause),
                "title": ids["titles"][unit], "url": url_for(doc, unit, clause), "exact": clause == n.clause}
