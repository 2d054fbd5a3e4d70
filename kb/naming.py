"""How a reader names a unit and cites a clause, in the reader's language: "Art. 27", "Norma 8",
"Appendice 4"; "Codice 2017, Art. 27B1(b)", "Norme integrative 2026, Norma 8 §3b2". The site's
pages and the study cards name them alike; the strings are the interface catalogs' (the
`gettext` given translates them; scripts/update_catalogs.py reads this file)."""
from __future__ import annotations

import re
from typing import Any, Callable

from .clauseid import readable

Gettext = Callable[[str], str]
PLACE = re.compile(r"[0-9A-Z][0-9A-Za-z.]*(?:-[0-9][0-9A-Za-z.]*)*")  # "3b2", "5.1", "7a1-1", "X1"
WORD = re.compile(r"[a-z]{4,}")  # a slug's word ("2-apertura-1-fiori"): no place, its title names it
PARAGRAPH = re.compile(r"-p\d+$")  # a closing paragraph is read at its owner's place


def unit_name(_: Gettext, unit: dict[str, Any]) -> str:
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


def clause_name(_: Gettext, of_laws: bool, unit: dict[str, Any], clause: str | None) -> str:
    """A clause as a study card names it: a Law's by its number ("Art. 27B1(b)"); another
    document's by its unit and its place there ("Norma 8 §3b2", "Appendice 4 §5.1", a norm's
    paragraph on a Law clause by that clause: "Norma 40 §40B2(a)(iv)"), else by its title
    ("Norma 43, Penalità del morto"); a unit its title names, by its title."""
    if of_laws and unit["kind"] == "article":
        return _("Art. %(n)s") % {"n": readable(clause or unit["id"])}
    name = unit_name(_, unit) or unit.get("title") or unit["id"]
    found = next((c for c in unit["clauses"] if c["id"] == clause and clause != unit["id"]), None)
    if found is None:
        return name
    place = PARAGRAPH.sub("", clause or "").removeprefix(unit["id"] + "-")
    if found.get("law_clause"):
        return f"{name} §{found.get('label') or readable(found['law_clause'])}"
    if PLACE.fullmatch(place) and not WORD.search(place):
        return f"{name} §{place}"
    return f"{name}, {found['title']}" if found.get("title") else name
