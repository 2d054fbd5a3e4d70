"""How a reader names and cites a place in the texts, in the interface's language: "Art. 27",
"Norma 40", "Codice 2017, Art. 27B1(b)", "Norme integrative 2026, Norma 8 §3b2". The pages, the
study cards, the MCP server and whatever else shows a citation to a reader say it here (`_` is
the reader's gettext; scripts/update_catalogs.py reads this file).
"""
from __future__ import annotations

import re
from typing import Callable

from ..records.built import BuiltUnit
from ..records.clauseid import readable

Gettext = Callable[[str], str]
PLACE = re.compile(r"[0-9A-Z][0-9A-Za-z.]*(?:-[0-9][0-9A-Za-z.]*)*")  # "3b2", "5.1", "7a1-1", "X1"
WORD = re.compile(r"[a-z]{4,}")  # a slug's word ("2-apertura-1-fiori"): no place, its title names it
PARAGRAPH = re.compile(r"-p\d+$")  # a closing paragraph is read at its owner's place


def unit_name(_: Gettext, unit: BuiltUnit) -> str:
    """A unit as a reader names it: "Art. 27", "Norma 40", "Appendice 4"; "" for a unit its
    title names (a definition, a time-reference topic, a preface)."""
    kind, uid = unit.kind, unit.id
    if kind == "article":
        return _("Art. %(n)s") % {"n": uid}
    if kind == "norm":
        return _("Norm %(n)s") % {"n": uid}
    if kind == "appendix":
        return _("Appendix %(n)s") % {"n": unit.appendix or uid}
    return ""


def place_name(_: Gettext, unit: BuiltUnit, clause: str | None) -> str:
    """Where in a document a reference leads: a Law's clause by its number ("27B1(b)"), elsewhere
    the unit's name and the paragraph's own number when it has one ("Appendice 4 §5.8")."""
    if unit.numbered:
        return readable(clause or unit.id)
    label = paragraph_label(unit, clause)
    return unit_name(_, unit) + (f" §{label.rstrip('.')}" if label else "")


def paragraph_label(unit: BuiltUnit, clause: str | None) -> str:
    """The number a paragraph of a unit prints for itself ("5.8", "B)"); "" for the unit's own text."""
    found = unit.clause(clause) if clause != unit.id else None
    return (found.label or "") if found else ""


def citation(_: Gettext, label: str, unit: BuiltUnit, clause: str) -> str:
    """How a reader cites a clause, the document named as the interface names it: "Codice 2017,
    Art. 27B1(b)", "Norme integrative 2026, Norm 40 §3"; a unit its title names, by its title."""
    if unit.numbered:
        return f"{label}, " + _("Art. %(n)s") % {"n": readable(clause)}
    own = paragraph_label(unit, clause)
    name = unit_name(_, unit) or unit.title or unit.id
    return f"{label}, {name}" + (f" §{own.rstrip('.)')}" if own else "")


def clause_name(_: Gettext, unit: BuiltUnit, clause: str | None) -> str:
    """A clause as a study card names it: a Law's by its number ("Art. 27B1(b)"); another
    document's by its unit and its place there ("Norma 8 §3b2", "Appendice 4 §5.1", a norm's
    paragraph on a Law clause by that clause: "Norma 40 §40B2(a)(iv)"), else by its title
    ("Norma 43, Penalità del morto"); a unit its title names, by its title."""
    if unit.numbered:
        return _("Art. %(n)s") % {"n": readable(clause or unit.id)}
    name = unit_name(_, unit) or unit.title or unit.id
    found = unit.clause(clause) if clause != unit.id else None
    if found is None:
        return name
    place = PARAGRAPH.sub("", clause or "").removeprefix(unit.id + "-")
    if found.law_clause:
        return f"{name} §{found.label or readable(found.law_clause)}"
    if PLACE.fullmatch(place) and not WORD.search(place):
        return f"{name} §{place}"
    return f"{name}, {found.title}" if found.title else name
