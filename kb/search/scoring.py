"""BM25 over the whoosh index's postings, with what never changes kept in memory.

An index generation is read-only, so its field lengths, its vocabulary and every
postings list once read are cached here; each request still opens its own
searcher to read a list the first time. Scores are whoosh's BM25F
(`idf · tf·(K1+1) / (tf + K1·(1−B+B·len/avglen))`); prefix and approximate
matches score a constant, as whoosh's multi-term queries do.
"""
from __future__ import annotations

import math
import threading
from collections import defaultdict
from typing import Any, Iterable

B, K1 = 0.75, 1.2
MAX_EXPANSIONS = 64  # terms a prefix or an approximate word may stand for


class Scorer:
    def __init__(self, searcher: Any, fields: Iterable[str]):
        self.doc_count = searcher.doc_count_all()
        self.lengths = {f: [searcher.doc_field_length(n, f, 0) for n in range(self.doc_count)] for f in fields}
        self.avg = {f: (searcher.avg_field_length(f) or 1.0) for f in fields}
        self.vocabulary = sorted(t.decode("utf-8") if isinstance(t, bytes) else t
                                 for t in searcher.lexicon("plain"))
        self._by_start: dict[str, list[str]] = defaultdict(list)
        self._by_shape: dict[tuple[str, int], list[str]] = defaultdict(list)  # first letter, length
        for word in self.vocabulary:
            self._by_start[word[:1]].append(word)
            self._by_shape[(word[:1], len(word))].append(word)
        self._postings: dict[tuple[str, str], list[tuple[int, float]]] = {}
        self._scored: dict[tuple[str, str], list[tuple[int, float]]] = {}
        self._near: dict[tuple[str, int, int], list[str]] = {}  # the vocabulary never changes
        self._lock = threading.Lock()

    # ------------------------------------------------------------ postings

    def postings(self, searcher: Any, field: str, term: str) -> list[tuple[int, float]]:
        key = (field, term)
        cached = self._postings.get(key)
        if cached is None:
            cached = []
            if searcher.doc_frequency(field, term):
                m = searcher.postings(field, term)
                while m.is_active():
                    cached.append((m.id(), m.weight()))
                    m.next()
            with self._lock:
                self._postings[key] = cached
        return cached

    def term(self, searcher: Any, field: str, term: str, boost: float = 1.0) -> Iterable[tuple[int, float]]:
        """(docnum, BM25 score) for one term of one field."""
        scored = self._scored.get((field, term))
        if scored is None:
            plist = self.postings(searcher, field, term)
            idf = math.log(self.doc_count / (len(plist) + 1)) + 1
            lengths, avg = self.lengths[field], self.avg[field]
            scored = [(n, idf * (tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * lengths[n] / avg))) for n, tf in plist]
            with self._lock:
                self._scored[(field, term)] = scored
        return scored if boost == 1.0 else [(n, boost * s) for n, s in scored]

    def best(self, searcher: Any, field: str, terms: Iterable[str], boost: float) -> dict[int, float]:
        """Documents holding any of `terms`, each scoring its best term's BM25 (a word's family)."""
        out: dict[int, float] = {}
        for t in terms:
            for n, s in self.term(searcher, field, t, boost):
                if s > out.get(n, 0.0):
                    out[n] = s
        return out

    def constant(self, searcher: Any, field: str, terms: Iterable[str], boost: float) -> dict[int, float]:
        """Documents holding any of `terms`, each scoring `boost` once."""
        return {n: boost for t in terms for n, _ in self.postings(searcher, field, t)}

    # ------------------------------------------------------------ vocabulary

    def frequency(self, searcher: Any, word: str) -> int:
        return len(self.postings(searcher, "plain", word))

    def with_prefix(self, prefix: str) -> list[str]:
        words = self._by_start.get(prefix[:1], [])
        return [w for w in words if w.startswith(prefix)][:MAX_EXPANSIONS]

    def near(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Vocabulary words within `maxdist` edits that share the first `prefix` letters."""
        key = (word, maxdist, prefix)
        found = self._near.get(key)
        if found is None:
            found = self._near[key] = self._search_near(word, maxdist, prefix)
        return found

    def _search_near(self, word: str, maxdist: int, prefix: int) -> list[str]:
        out = []
        for size in range(len(word) - maxdist, len(word) + maxdist + 1):
            for w in self._by_shape.get((word[:1], size), ()):
                if w != word and w[:prefix] == word[:prefix] and edit_distance(w, word, maxdist) <= maxdist:
                    out.append(w)
        return sorted(out)[:MAX_EXPANSIONS]


def edit_distance(a: str, b: str, limit: int) -> int:
    """Damerau–Levenshtein (adjacent swaps count one), giving up past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]
