"""Annotate: a clause's text with its citations, as segments — plain text, or the cited words
with where they lead. The last step of find → resolve → annotate; the website and `kb show`
both read a clause through it.
"""
from __future__ import annotations

from typing import Iterable

from ..records.citation import EXTERNAL, Citation
from ..records.clauseid import readable
from ..corpus.urls import url_for
from ..records.store import Store

Segment = dict[str, str]


def in_text_of(citations: Iterable[Citation], clause: str) -> list[Citation]:
    """The citations found in a clause's own text (not its title, notes or entry reference)."""
    return [c for c in citations if c.source[2] == clause and c.where == "text"]


def plain(paragraph: list[Segment]) -> str:
    """A paragraph for the terminal: each link that does not already say where it leads is
    followed by the clause it reaches ("come al punto 3 [→ 27B3]"; "Art 31" stays as it is)."""
    out = []
    for seg in paragraph:
        out.append(seg["text"])
        label = seg.get("label")
        if label and _compact(label) not in _compact(seg["text"]):
            out.append(f" [→ {label}]")
    return "".join(out)


def _compact(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def annotate(text: str, citations: Iterable[Citation], store: Store) -> list[list[Segment]]:
    """The clause text as paragraphs of segments; each cited span becomes a link."""
    spans = sorted(((c.span, c) for c in citations if c.span), key=lambda found: found[0][0])
    segments: list[Segment] = []
    pos = 0
    for (a, b), c in spans:
        if a < pos:
            continue
        if a > pos:
            segments.append({"text": text[pos:a]})
        segments.append(_link(text[a:b], c, store))
        pos = b
    if pos < len(text):
        segments.append({"text": text[pos:]})
    return _split_paragraphs(segments)


def _link(words: str, c: Citation, store: Store) -> Segment:
    t = c.target
    if t.doc == EXTERNAL:
        return {"text": words, "external": t.name or ""}
    place = t.clause or t.unit or ""
    if not c.resolved and not c.onward():
        return {"text": words, "unresolved": f"{t.doc} {readable(place)}"}
    title = store.title(t.doc, t.unit or "")
    label = readable(place)
    return {"text": words, "href": url_for(t.doc, t.unit or "", t.clause), "label": label,
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
