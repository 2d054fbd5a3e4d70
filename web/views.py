"""View models: the data a page shows, prepared so templates only loop and escape.

Law text reaches HTML through Jinja autoescaping only: a clause's text is cut
into segments (plain text, citation links) by `kb.annotate`, and a search
snippet's `<mark>` tags become segments here, so no template marks data as safe.
"""
from __future__ import annotations

import html
import re
from typing import Any

from kb.annotate import Segment
from kb.reading import clause_blocks



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
