"""Citation records: where a mention was read (`Site`), what it names (`Target`) and the
resolved, frozen `Citation` the export carries (DESIGN §5)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .model import Document, Unit

EXTERNAL = "external"


@dataclass(frozen=True)
class Target:
    doc: str
    unit: str | None = None
    clause: str | None = None
    name: str | None = None  # external texts only

    def to_dict(self) -> dict[str, Any]:
        if self.doc == EXTERNAL:
            return {"doc": EXTERNAL, "name": self.name}
        return {"doc": self.doc, "unit": self.unit, "clause": self.clause}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Target":
        return cls(EXTERNAL, name=d.get("name")) if d["doc"] == EXTERNAL else cls(d["doc"], d["unit"], d.get("clause"))

    @classmethod
    def maybe(cls, d: dict[str, Any] | None) -> "Target | None":
        return cls.from_dict(d) if d is not None else None


@dataclass(frozen=True)
class Site:
    """Where a mention was read: a clause of a unit, and which part of it
    (text | title | note | footnote | unit-title | ref | label)."""
    doc: Document
    unit: Unit
    clause: str
    where: str

    @property
    def source(self) -> tuple[str, str, str]:
        return self.doc.id, self.unit.id, self.clause


@dataclass(frozen=True)
class Link:
    """What a resolver makes of a mention: a target, the kind of link, whether it exists."""
    target: Target
    kind: str  # internal | relative | cross | external | integrates
    resolved: bool = True


@dataclass(frozen=True)
class Citation:
    source: tuple[str, str, str]
    raw: str
    target: Target
    kind: str
    resolved: bool
    where: str = "text"
    span: tuple[int, int] | None = None
    target_2017: Target | None = None
    as_written: str | None = None  # a time reference the source gets wrong, as printed…
    correction: str | None = None  # …and the curated note that corrects it
    target_in_force: Target | None = None  # a replaced edition's clause, where it stands in the Laws in force

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Citation":
        """An export citation read back as the record the build wrote it from (`to_dict`)."""
        s, span = d["source"], d.get("span")
        return cls((s["doc"], s["unit"], s["clause"]), d["raw"], Target.from_dict(d["target"]), d["kind"],
                   d["resolved"], d.get("where", "text"), tuple(span) if span is not None else None,
                   Target.maybe(d.get("target_2017")), d.get("as_written"), d.get("correction"),
                   Target.maybe(d.get("target_in_force")))

    def onward(self) -> tuple[Target, ...]:
        """The Law clauses it reaches through the concordances, each once, in the order of the
        way: its 2017 reading (DESIGN §7's `target_2017`), then where it stands in the Laws in force."""
        found = [t for t in (self.target_2017, self.target_in_force) if t]
        return tuple(t for i, t in enumerate(found) if t not in found[:i])

    def reached(self) -> tuple[Target, ...]:
        """The corpus targets it reaches: its own (when resolved), and `onward`."""
        own = (self.target,) if self.resolved and self.target.doc != EXTERNAL else ()
        return own + tuple(t for t in self.onward() if t not in own)

    def to_dict(self) -> dict[str, Any]:
        doc, unit, clause = self.source
        d: dict[str, Any] = {
            "source": {"doc": doc, "unit": unit, "clause": clause},
            "raw": self.raw,
            "target": self.target.to_dict(),
            "kind": self.kind,
            "resolved": self.resolved,
            "where": self.where,
        }
        if self.span is not None:
            d["span"] = list(self.span)
        if self.target_2017 is not None:
            d["target_2017"] = self.target_2017.to_dict()
        if self.target_in_force is not None:
            d["target_in_force"] = self.target_in_force.to_dict()
        if self.correction is not None:
            d.update(as_written=self.as_written, correction=self.correction)
        return d
