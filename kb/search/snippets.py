"""Snippets: an HTML-safe excerpt of a clause with the query's words in <mark>."""
from __future__ import annotations

import html
from functools import lru_cache

from .analysis import ANALYZERS, PLAIN, terms
from .query import Plan

SNIPPET_CHARS = 180


def snippet(text: str, p: Plan, lang: str) -> str:
    """HTML-safe excerpt around the first matched word; only <mark> tags are added."""
    words, by_word, by_stem = _read(text, lang)
    found = {i for w in p.words for i in by_word.get(w, ())}
    found.update(i for s in (*p.stems.get(lang, ()), *p.expansions.get(lang, ())) for i in by_stem.get(s, ()))
    spans = [words[i][:2] for i in sorted(found)]
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


Positions = dict[str | None, tuple[int, ...]]


@lru_cache(maxsize=8192)  # a clause's words, read once: the corpus has ~2 800 clauses
def _read(text: str, lang: str) -> tuple[tuple[tuple[int, int, str, str | None], ...], Positions, Positions]:
    """A text's words (as `_words`), and where each folded word and each stem stands among them."""
    words = _words(text, lang)
    by_word: dict[str | None, list[int]] = {}
    by_stem: dict[str | None, list[int]] = {}
    for i, (_, _, word, word_stem) in enumerate(words):
        by_word.setdefault(word, []).append(i)
        by_stem.setdefault(word_stem, []).append(i)
    return words, {k: tuple(v) for k, v in by_word.items()}, {k: tuple(v) for k, v in by_stem.items()}


def _words(text: str, lang: str) -> tuple[tuple[int, int, str, str | None], ...]:
    """(start, end, folded word, stem) for each word of a text that is not a stop word."""
    return tuple((t.startchar, t.endchar, t.text, stem(lang, text[t.startchar:t.endchar]))
                 for t in PLAIN(text, chars=True))


@lru_cache(maxsize=65536)
def stem(lang: str, word: str) -> str | None:
    t = terms(ANALYZERS[lang], word)
    return t[0] if t else None
