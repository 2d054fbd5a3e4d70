"""View models: the data a page shows, prepared so templates only loop and escape.

Law text reaches HTML through Jinja autoescaping only: a clause's text is cut
into segments (plain text, citation links) here, and a search snippet's
`<mark>` tags become segments too, so no template marks data as safe.
"""
from __future__ import annotations

import html
import re
from typing import Any

from kb.clauseid import readable
from kb.reading import clause_blocks
from kb.search.engine import url_for
from kb.store import Store

Segment = dict[str, str]


def clause_paragraphs(text: str, citations: list[dict[str, Any]], store: Store) -> list[list[Segment]]:
    """The clause text as paragraphs of segments; each cited span becomes a link."""
    spans = sorted((c for c in citations if c.get("span")), key=lambda c: c["span"][0])
    segments: list[Segment] = []
    pos = 0
    for c in spans:
        a, b = c["span"]
        if a < pos:
            continue
        if a > pos:
            segments.append({"text": text[pos:a]})
        segments.append(_link(text[a:b], c, store))
        pos = b
    if pos < len(text):
        segments.append({"text": text[pos:]})
    return _split_paragraphs(segments)


def clause_body(c: dict[str, Any], paragraphs: list[list[Segment]]) -> list[dict[str, Any]]:
    """A clause's paragraphs, tables and notes in reading order (`kb.reading`), for the page."""
    body: list[dict[str, Any]] = []
    for block in clause_blocks(c):
        if block.kind == "paragraph" and block.index < len(paragraphs):
            body.append({"paragraph": paragraphs[block.index]})
        elif block.kind == "table":
            body.append({"table": c["tables"][block.index]})
        elif block.kind == "note":
            body.append({"note": c["notes"][block.index]})
    return body


def _link(words: str, c: dict[str, Any], store: Store) -> Segment:
    t = c["target"]
    if t["doc"] == "external":
        return {"text": words, "external": t["name"]}
    if not c["resolved"] and not c.get("target_2017"):
        return {"text": words, "unresolved": f"{t['doc']} {readable(t.get('clause') or t['unit'])}"}
    title = store.title(t["doc"], t["unit"])
    label = readable(t.get("clause") or t["unit"])
    return {"text": words, "href": url_for(t["doc"], t["unit"], t.get("clause")),
            "title": f"{label} — {title}" if title else label}


def _split_paragraphs(segments: list[Segment]) -> list[list[Segment]]:
    paragraphs: list[list[Segment]] = [[]]
    for seg in segments:
        parts = seg["text"].split("\n")
        for i, part in enumerate(parts):
            if i:
                paragraphs.append([])
            if part:
                paragraphs[-1].append({**seg, "text": part})
    return [p for p in paragraphs if p]


def marked(snippet: str) -> list[Segment]:
    """A search snippet (HTML-escaped text with <mark>) as segments, marks flagged."""
    out: list[Segment] = []
    for i, part in enumerate(re.split(r"</?mark>", snippet)):
        if part:
            out.append({"text": html.unescape(part), "mark": "1" if i % 2 else ""})
    return out


def neighbours(store: Store, doc: str, unit: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    ids = list(store.units_of(doc))
    i = ids.index(unit)
    prev = store.unit(doc, ids[i - 1]) if i > 0 else None
    nxt = store.unit(doc, ids[i + 1]) if i + 1 < len(ids) else None
    return prev, nxt
