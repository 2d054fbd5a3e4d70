"""Snippets: an HTML-safe excerpt of a clause with the query's words in <mark>. The browser's
engine finds the same spans (web/static/search.js, `snippets`) and writes them as DOM nodes."""
from __future__ import annotations

import html
from functools import lru_cache

from .analysis import first_term, positions
from .query import Plan
from .tuning import TUNING, Tuning

Span = tuple[int, int]


def snippet(text: str, p: Plan, lang: str, tuning: Tuning = TUNING) -> str:
    """HTML-safe excerpt around the first matched word; only <mark> tags are added."""
    start, end, spans = window(text, p, lang, tuning)
    out, pos = [], start
    for a, b in spans:
        out.append(html.escape(text[pos:a], quote=False))
        out.append(f"<mark>{html.escape(text[a:b], quote=False)}</mark>")
        pos = b
    out.append(html.escape(text[pos:end], quote=False))
    return ("…" if start else "") + "".join(out) + ("…" if end < len(text) else "")


def window(text: str, p: Plan, lang: str, tuning: Tuning = TUNING) -> tuple[int, int, list[Span]]:
    """(start, end) of the excerpt, and the spans of the query's words inside it: a word said as
    typed, or a stem (or a glossary translation's stem) of the text's language."""
    words, by_word, by_stem = _read(text, lang)
    found = {i for w in p.words for i in by_word.get(w, ())}
    found.update(i for s in (*p.stems.get(lang, ()), *p.expansions.get(lang, ())) for i in by_stem.get(s, ()))
    spans = [words[i][:2] for i in sorted(found)]
    start = max(0, spans[0][0] - tuning.snippet_lead) if spans else 0
    if start:
        start = text.rfind(" ", 0, start) + 1
    end = min(len(text), start + tuning.snippet_chars)
    if end < len(text):
        end = max(text.rfind(" ", start, end), start + 1)
    return start, end, [(a, b) for a, b in spans if a >= start and b <= end]


Positions = dict[str | None, tuple[int, ...]]


@lru_cache(maxsize=8192)  # a clause's words, read once: the corpus has ~2 800 clauses
def _read(text: str, lang: str) -> tuple[tuple[tuple[int, int, str, str | None], ...], Positions, Positions]:
    """A text's words (start, end, plain term, stem), and where each plain term and each stem
    stands among them."""
    words = tuple((a, b, term, first_term(lang, written)) for a, b, written, term in positions(text))
    by_word: dict[str | None, list[int]] = {}
    by_stem: dict[str | None, list[int]] = {}
    for i, (_, _, word, word_stem) in enumerate(words):
        by_word.setdefault(word, []).append(i)
        by_stem.setdefault(word_stem, []).append(i)
    return words, {k: tuple(v) for k, v in by_word.items()}, {k: tuple(v) for k, v in by_stem.items()}
