"""The built knowledge base, read-only: look documents and units up by id."""
from __future__ import annotations

from typing import Any

from .citation import onward
from .clauseid import readable


class NotFound(LookupError):
    """An unknown document, unit or Law; the message names what exists, the fields say what
    was asked for (a page says it in its reader's language)."""

    def __init__(self, message: str, doc: str | None = None, unit: str | None = None,
                 law: str | None = None, last: int | None = None, pairs: tuple[tuple[str, str], ...] = ()):
        super().__init__(message)
        self.doc, self.unit, self.law, self.last, self.pairs = doc, unit, law, last, pairs


def _names(ids: list[str], limit: int = 12) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f", … ({len(ids)} in all)" if len(ids) > limit else "")


def reached(c: dict[str, Any]) -> list[dict[str, Any]]:
    """The corpus targets a citation reaches: its own (when resolved), and where it stands in
    the Laws in force and in 2017 (`onward`)."""
    out = [c["target"]] if c["resolved"] and c["target"]["doc"] != "external" else []
    return out + [t for t in onward(c) if t not in out]


class Store:
    def __init__(self, export: dict[str, Any]):
        self.export = export
        self.documents: dict[str, dict[str, Any]] = {d["id"]: d for d in export["documents"]}
        self._units = {
            d["id"]: {u["id"]: u for u in d["units"]} for d in export["documents"]
        }
        self._out: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self._in: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for c in export.get("citations", []):
            s = c["source"]
            self._out.setdefault((s["doc"], s["unit"]), []).append(c)
            for t in reached(c):
                self._in.setdefault((t["doc"], t["unit"]), []).append(c)

    def doc(self, doc_id: str) -> dict[str, Any]:
        try:
            return self.documents[doc_id]
        except KeyError:
            raise NotFound(f"unknown document {doc_id!r}; documents: {_names(list(self.documents))}",
                           doc=doc_id) from None

    def unit(self, doc_id: str, unit_id: str) -> dict[str, Any]:
        units = self._units[self.doc(doc_id)["id"]]
        try:
            return units[unit_id]
        except KeyError:
            raise NotFound(f"unknown unit {unit_id!r} in {doc_id}; units: {_names(list(units))}",
                           doc=doc_id, unit=unit_id) from None

    def outgoing(self, doc_id: str, unit_id: str) -> list[dict[str, Any]]:
        """Citations written in a unit, in text order."""
        return self._out.get((doc_id, unit_id), [])

    def incoming(self, doc_id: str, unit_id: str) -> list[dict[str, Any]]:
        """Citations from other units that reach this unit (directly or, for 2007
        references, through the concordance)."""
        return [c for c in self._in.get((doc_id, unit_id), [])
                if (c["source"]["doc"], c["source"]["unit"]) != (doc_id, unit_id)]

    def units_of(self, doc_id: str) -> dict[str, dict[str, Any]]:
        return self._units[self.doc(doc_id)["id"]]

    def title(self, doc_id: str, unit_id: str) -> str:
        unit = self._units.get(doc_id, {}).get(unit_id)
        return (unit.get("title") or "") if unit else ""


def clause_depths(unit: dict[str, Any]) -> dict[str, int]:
    """How deep each clause sits under its unit (the unit's own clause is 0); a paragraph
    clause that follows its owner's items (`69B-p2`) is read at its owner's depth."""
    out: dict[str, int] = {}
    for c in unit["clauses"]:
        step = 0 if c.get("paragraph") else 1
        out[c["id"]] = out.get(c["parent"], -1) + step if c["parent"] else 0
    return out


def clause_label(doc: dict[str, Any], unit: dict[str, Any], clause: dict[str, Any]) -> str:
    """What a clause is called where it is shown: `27B1(a)` for the Laws, a time-reference
    entry's reference as written, otherwise its own label; "" for the unit's lead clause."""
    if clause["id"] == unit["id"] or clause.get("paragraph") or clause.get("label") == clause.get("title"):
        return ""  # a term clause ("Verde: …") is shown by its title alone
    if doc["kind"] == "laws" and unit["kind"] == "article":
        return readable(clause["id"])
    if clause.get("ref") is not None or clause.get("kind") == "entry":
        return clause.get("ref") or "—"
    return clause.get("label") or ""
