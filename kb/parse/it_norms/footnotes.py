"""Footnotes: superscript-digit paragraphs peeled off, attached where their marker is."""
from __future__ import annotations

import re

from ...records.model import Unit
from ..kit.footnotes import SUPERSCRIPT_DIGITS, placed, plain_digits, take_marks
from .text import clean_inline, ends_with_colon


_SUP_RUN = re.compile(f"[{SUPERSCRIPT_DIGITS}]+")


def strip_markers(s: str) -> tuple[str, list[str]]:
    """Remove superscript footnote markers; return the text and the markers (digits)."""
    return take_marks(s, _SUP_RUN, lambda m: plain_digits(m.group(0)))


def extract_footnotes(lines: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Blank out footnote paragraphs; return the lines and (marker, text) pairs."""
    out = list(lines)
    notes: list[tuple[str, str]] = []
    i = 0
    while i < len(out):
        m = re.match(f"^([{SUPERSCRIPT_DIGITS}]+)\\s*(.*)$", out[i].strip())
        if not m:
            i += 1
            continue
        paragraphs = [m[2]]
        out[i] = ""
        # a footnote whose text ends in ":" goes on into the next paragraph (⁴)
        while ends_with_colon(paragraphs[-1]):
            j = i + 1
            while j < len(out) and not out[j].strip():
                j += 1
            if j >= len(out):
                break
            paragraphs.append(out[j].strip())
            out[j] = ""
            i = j
        notes.append((plain_digits(m[1]),
                      "\n".join(clean_inline(p) for p in paragraphs)))
        i += 1
    return out, notes


def attach_footnotes(units: list[Unit], notes: list[tuple[str, str]]) -> None:
    where: dict[str, tuple[Unit, str]] = {}
    seen: list[tuple[Unit, str, str]] = []
    for unit in units:
        if unit.title:
            unit.title, found = strip_markers(unit.title)
            unit.title = unit.title.strip()
            seen += [(unit, unit.clauses[0].id, m) for m in found]
        for clause in unit.clauses:
            for attr in ("title", "text"):
                value = getattr(clause, attr)
                if value:
                    value, found = strip_markers(value)
                    setattr(clause, attr, value.strip())
                    seen += [(unit, clause.id, m) for m in found]
    holders: dict[str, list[str]] = {}  # the clauses holding the marker, in the unit it goes to
    for unit, cid, marker in seen:
        where.setdefault(marker, (unit, cid))
        if where[marker][0] is unit and cid not in holders.setdefault(marker, []):
            holders[marker].append(cid)
    texts = dict(notes)
    for marker, text in notes:
        if marker in where:
            unit = where[marker][0]
            unit.footnotes.append(placed(marker, text, holders[marker]))
    for unit, cid, marker in seen:
        if marker not in texts:
            missing = unit.extra.setdefault("missing_footnotes", [])
            if {"marker": marker, "clause": cid} not in missing:
                missing.append({"marker": marker, "clause": cid})
