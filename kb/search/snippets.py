"""Snippets: an HTML-safe excerpt of a clause with the query's words in <mark>."""
from __future__ import annotations

import html
from functools import lru_cache

from .analysis import ANALYZERS, PLAIN, terms
from .query import Plan

SNIPPET_CHARS = 180


def snippet(text: str, p: Plan, lang: str) -> str:
    """HTML-safe excerpt around the first matched word; only <mark> tags are added."""
    wanted_plain = set(p.words)
    wanted_stems = set(p.stems.get(lang, [])) | set(p.expansions.get(lang, []))
    spans = [(a, b) for a, b, word, word_stem in _words(text, lang)
             if word in wanted_plain or word_stem in wanted_stems]
    start = max(0, spans[0][0] - 60) if spans else 0
    if start:
        start = text.rfind(" ", 0, start) + 1
    end = min(len(text), start + SNIPPET_CHARS)
    if end < len(text):
        end = max(text.rfind(" ", start, end), start + 1)
    out, pos = [], start
    for a, b in spans:
        if a < start or b > end:
            continue
        out.append(html.escape(text[pos:a], quote=False))
        out.append(f"<mark>{html.escape(text[a:b], quote=False)}</mark>")
        pos = b
    out.append(html.escape(text[pos:end], quote=False))
    return ("…" if start else "") + "".join(out) + ("…" if end < len(text) else "")


@lru_cache(maxsize=8192)  # a clause's words, analysed once: the corpus has ~2 800 clauses
def _words(text: str, lang: str) -> tuple[tuple[int, int, str, str | None], ...]:
    """(start, end, folded word, stem) for each word of a text that is not a stop word."""
    return tuple((t.startchar, t.endchar, t.text, stem(lang, text[t.startchar:t.endchar]))
                 for t in PLAIN(text, chars=True))


@lru_cache(maxsize=65536)
def stem(lang: str, word: str) -> str | None:
    t = terms(ANALYZERS[lang], word)
    return t[0] if t else None
