"""View models: the data a page shows, prepared so templates only loop and escape.

Law text reaches HTML through Jinja autoescaping only: a clause's text is cut
into segments (plain text, citation links) by `kb.annotate`, and a search
snippet's `<mark>` tags become segments here, so no template marks data as safe.
"""
from __future__ import annotations

import html
import re
from typing import Any, Callable

from kb.annotate import Segment
from kb.clauseid import readable
from kb.reading import clause_blocks



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
    label = next((c.get("label") for c in unit["clauses"] if c["id"] == clause and c["id"] != unit["id"]), "")
    return unit_name(_, unit) + (f" §{label.rstrip('.')}" if label else "")


def citation(_: Callable[[str], str], label: str, of_laws: bool, unit: dict[str, Any], clause: str) -> str:
    """How a reader cites a clause, the document named as the interface names it: "Codice 2017,
    Art. 27B1(b)", "Norme integrative 2026, Norm 40 §3"; a unit its title names, by its title."""
    if of_laws and unit["kind"] == "article":
        return f"{label}, " + _("Art. %(n)s") % {"n": readable(clause)}
    return f"{label}, " + (place_name(_, of_laws, unit, clause) or unit.get("title") or unit["id"])


def clause_body(c: dict[str, Any], paragraphs: list[list[Segment]]) -> list[dict[str, Any]]:
    """A clause's paragraphs, tables and notes in reading order (`kb.reading`), for the page."""
    body: list[dict[str, Any]] = []
    for block in clause_blocks(c):
        if block.kind == "paragraph" and block.index < len(paragraphs):
            body.append({"paragraph": [_tap_sized(s) for s in paragraphs[block.index]]})
        elif block.kind == "table":
            body.append({"table": c["tables"][block.index]})
        elif block.kind == "note":
            body.append({"note": c["notes"][block.index]})
    return body


def emphasised(body: list[dict[str, Any]], phrases: tuple[str, ...]) -> list[dict[str, Any]]:
    """A clause's body with `phrases` (the words that carry a change) flagged `mark` wherever
    they stand whole inside a plain segment of its paragraphs."""
    if not phrases:
        return body
    pattern = re.compile("(" + "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True)) + ")")
    return [{"paragraph": [part for s in b["paragraph"] for part in _split(s, pattern)]} if "paragraph" in b else b
            for b in body]


def _split(segment: Segment, pattern: re.Pattern[str]) -> list[Segment]:
    if any(segment.get(k) for k in ("href", "external", "unresolved")):
        return [segment]
    # the pattern captures: a phrase found stands at every odd place of the split, as in `marked`
    return [{"text": part, "mark": "1"} if i % 2 else {"text": part}
            for i, part in enumerate(pattern.split(segment["text"])) if part]


def _tap_sized(segment: Segment) -> Segment:
    """A citation link of one or two characters ("A", "2", "B1") is flagged `short`: the page
    gives it a fingertip's hit area (44 px) without enlarging its type."""
    return segment | {"short": "1"} if segment.get("href") and len(segment["text"].strip()) <= 2 else segment


def marked(snippet: str) -> list[Segment]:
    """A search snippet (HTML-escaped text with <mark>) as segments, marks flagged."""
    out: list[Segment] = []
    for i, part in enumerate(re.split(r"</?mark>", snippet)):
        if part:
            out.append({"text": html.unescape(part), "mark": "1" if i % 2 else ""})
    return out
