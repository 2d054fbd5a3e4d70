"""AEB national notes and WBF footnotes: found in parentheticals and paragraphs, placed on clauses."""
from __future__ import annotations

import re

from ...records.model import Footnote, Unit
from ...common.text import normalize_spaces
from ..kit.footnotes import holders, placed


# Notes printed in the body: a parenthetical mentioning the AEB, unless it is a
# pointer to notes not in the text (`(Ver nota AEB abajo)`, `(pero ver Normas AEB …)`).
AEB = re.compile(r"\bAEB\b")
POINTER = re.compile(r"^(?:pero\s+)?ver\b", re.I)
NOTE_LABEL = re.compile(r"^Nota(?:\s+de\s+la)?(?:\s+AEB)?\s*:\s*")
# WBF footnotes: a `(Nota 1) text` or `*(text)` paragraph, or an inline `(*text)`.
FOOTNOTE_PARA = re.compile(r"^\(Nota (?P<m>\d+)\)\s*(?P<t>.+)$|^(?P<star>\*)\s*(?P<st>.+)$")


def parentheticals(text: str):
    """(start, end) of each balanced top-level parenthetical; unclosed ones are skipped."""
    depth, start = 0, None
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                yield start, i + 1


def cut_span(text: str, start: int, end: int) -> str:
    """Remove text[start:end] (and the space before it) without leaving `. .` or `, ,`."""
    before, after = text[:start].rstrip(), text[end:]
    if before and after[:1] and before[-1] in ".,;" and after[:1] == before[-1]:
        after = after[1:]
    if after[:1].isalnum() or after[:1] in "(“\"":
        after = " " + after
    out = (before + after).strip()
    return out if re.search(r"\w", out) else ""


def take_notes(text: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    """Text without its AEB notes and inline `(*…)` footnotes; the notes; the footnotes."""
    notes: list[str] = []
    footnotes: list[tuple[str, str]] = []
    while True:
        for start, end in parentheticals(text):
            inner = text[start + 1: end - 1].strip()
            if inner.startswith("*"):
                footnotes.append(("*", inner[1:].strip()))
            elif AEB.search(inner) and not POINTER.match(inner):
                notes.append(NOTE_LABEL.sub("", inner))
                # the 78A note is printed `-(Nota AEB: …)-`
                if start and text[start - 1] == "-" and text[end: end + 1] == "-":
                    start, end = start - 1, end + 1
            else:
                continue
            text = cut_span(text, start, end)
            break
        else:
            return text, notes, footnotes


def place_footnotes(unit: Unit, found: list[tuple[str, str, str]]) -> list[Footnote]:
    """Footnotes of a unit, each on every clause holding its marker (removed there).

    Markers are glued to a word: `obliga1`, `normal*`. A footnote whose marker is
    on several clauses (`normal*` in 70C3, D1, D2, E1) lists them all, in order.
    A `*` left with no marked footnote had its footnote printed unmarked: see
    `unmarked_footnotes`.
    """
    result = []
    for marker, text, where in found:
        glued = re.compile(rf"(?<=[a-záéíóúñü]{{2}}){re.escape(marker)}(?![\w*])")
        where_marked = holders(unit.clauses, lambda c: bool(glued.search(c.text)))
        for clause in unit.clauses:
            clause.text = glued.sub("", clause.text)
        result.append(placed(marker, text, where_marked, printed_at=where))
    return result + unmarked_footnotes(unit)


ORPHAN_STAR = re.compile(r"(?<=[a-záéíóúñü]{2})\*(?![\w*])")


def unmarked_footnotes(unit: Unit) -> list[Footnote]:
    """Footnotes printed as the closing parenthetical of their marker's paragraph, the
    `*` that should open them dropped: 79C1 `…más largo*, este periodo … (Se puede
    especificar un periodo de corrección más corto, …)` (WBF 79C1's footnote). The
    marker and the parenthetical leave the text; a `*` with no such parenthetical stays.
    """
    result = []
    for clause in unit.clauses:
        lines = clause.text.split("\n")
        for k, line in enumerate(lines):
            star = ORPHAN_STAR.search(line)
            if not star:
                continue
            rest = line[:star.start()] + line[star.end():]
            closing = [(a, b) for a, b in parentheticals(rest)
                       if a >= star.start() and rest[b:].strip() in ("", ".")]
            if not closing:
                continue
            a, b = closing[-1]
            result.append(placed("*", normalize_spaces(rest[a + 1: b - 1]), [clause.id]))
            lines[k] = cut_span(rest, a, b)
        clause.text = "\n".join(lines)
    return result
