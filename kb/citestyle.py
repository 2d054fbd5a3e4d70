"""How a reader names and cites a place in the texts, in the interface's language: "Art. 27",
"Norma 40", "Codice 2017, Art. 27B1(b)". The pages, the MCP server and whatever else shows a
citation to a reader say it here (`_` is the reader's gettext).
"""
from __future__ import annotations

from typing import Any, Callable

from .clauseid import readable


def unit_name(_: Callable[[str], str], unit: dict[str, Any]) -> str:
    """A unit as a reader names it: "Art. 27", "Norma 40", "Appendice 4"; "" for a unit its
    title names (a definition, a time-reference topic, a preface)."""
    kind, uid = unit["kind"], unit["id"]
    if kind == "article":
        return _("Art. %(n)s") % {"n": uid}
    if kind == "norm":
        return _("Norm %(n)s") % {"n": uid}
    if kind == "appendix":
        return _("Appendix %(n)s") % {"n": unit.get("appendix") or uid}
    return ""


def place_name(_: Callable[[str], str], of_laws: bool, unit: dict[str, Any], clause: str | None) -> str:
    """Where in a document a reference leads: a Law's clause by its number ("27B1(b)"), elsewhere
    the unit's name and the paragraph's own number when it has one ("Appendice 4 §5.8")."""
    if of_laws and unit["kind"] == "article":
        return readable(clause or unit["id"])
    label = paragraph_label(unit, clause)
    return unit_name(_, unit) + (f" §{label.rstrip('.')}" if label else "")


def paragraph_label(unit: dict[str, Any], clause: str | None) -> str:
    """The number a paragraph of a unit prints for itself ("5.8", "B)"); "" for the unit's own text."""
    return next((c.get("label") or "" for c in unit["clauses"] if c["id"] == clause and c["id"] != unit["id"]), "")


def citation(_: Callable[[str], str], label: str, of_laws: bool, unit: dict[str, Any], clause: str) -> str:
    """How a reader cites a clause, the document named as the interface names it: "Codice 2017,
    Art. 27B1(b)", "Norme integrative 2026, Norm 40 §3"; a unit its title names, by its title."""
    if of_laws and unit["kind"] == "article":
        return f"{label}, " + _("Art. %(n)s") % {"n": readable(clause)}
    own = paragraph_label(unit, clause)
    name = unit_name(_, unit) or unit.get("title") or unit["id"]
    return f"{label}, {name}" + (f" §{own.rstrip('.)')}" if own else "")
