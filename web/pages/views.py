"""View models: the data a page shows, prepared so templates only loop and escape.

Law text reaches HTML through Jinja autoescaping only: a clause's text is cut
into segments (plain text, citation links) by `kb.citations.annotate`, and a search
snippet's `<mark>` tags become segments here, so no template marks data as safe.
"""
from __future__ import annotations

import html
import re
from typing import Any

from kb.citations.annotate import Segment
from kb.records.built import BuiltClause
from kb.records.reading import clause_blocks



def clause_body(c: BuiltClause, paragraphs: list[list[Segment]]) -> list[dict[str, Any]]:
    """A clause's paragraphs, tables and notes in reading order (`kb.records.reading`), for the page."""
    body: list[dict[str, Any]] = []
    for block in clause_blocks(c):
        if block.kind == "paragraph" and block.index < len(paragraphs):
            body.append({"paragraph": [_tap_sized(s) for s in paragraphs[block.index]]})
        elif block.kind == "table":
            body.append({"table": c.tables[block.index]})
        elif block.kind == "note":
            body.append({"note": c.notes[block.index]})
    return body


def emphasised(body: list[dict[str, Any]], phrases: tuple[str, ...]) -> list[dict[str, Any]]:
    """A clause's body with `phrases` (the words that carry a change) flagged `mark` wherever
    they stand whole inside one of its paragraphs, across the citation links in them."""
    if not phrases:
        return body
    pattern = _phrases(phrases)
    return [{"paragraph": _marked_through(b["paragraph"], pattern)} if "paragraph" in b else b for b in body]


def emphasised_line(line: str, phrases: tuple[str, ...]) -> list[Segment]:
    """A one-line text (a clause's title) as segments, `phrases` flagged `mark`."""
    return _marked_through([{"text": line}], _phrases(phrases)) if phrases else [{"text": line}]


def _phrases(phrases: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True)))


def _marked_through(paragraph: list[Segment], pattern: re.Pattern[str]) -> list[Segment]:
    """A paragraph's segments with each phrase found in its whole text flagged: a plain segment
    is cut where a phrase begins or ends, a link inside a phrase is flagged whole ("vedi Art
    72C" marks the link "Art 72C" with the word before it)."""
    found = [m.span() for m in pattern.finditer("".join(s["text"] for s in paragraph))]
    out: list[Segment] = []
    start = 0
    for s in paragraph:
        end = start + len(s["text"])
        inside = [(max(a, start), min(b, end)) for a, b in found if a < end and b > start]
        if inside and any(s.get(k) for k in ("href", "external", "unresolved")):
            out.append(s | {"mark": "1"})
        else:
            out += _cut(s, start, inside)
        start = end
    return out


def _cut(segment: Segment, start: int, inside: list[tuple[int, int]]) -> list[Segment]:
    """A plain segment (starting at `start` in its paragraph) cut at the ends of the phrases
    inside it, each phrase flagged; the phrases found never overlap, so each stretch between
    two cuts is a phrase or lies between two."""
    if not inside:
        return [segment]
    cuts = sorted({start, start + len(segment["text"]), *(x for span in inside for x in span)})
    return [segment | {"text": segment["text"][a - start:b - start]} | ({"mark": "1"} if (a, b) in inside else {})
            for a, b in zip(cuts, cuts[1:])]


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
