"""BM25 over the whoosh index's postings, with what never changes kept in memory.

An index generation is read-only, so its field lengths, its vocabulary and every
postings list once read are cached here. One reader stays open for the
generation's life and is only touched, under a lock, to read a list the first
time: a warm request opens no file at all. Scores are whoosh's BM25F
(`idf · tf·(K1+1) / (tf + K1·(1−B+B·len/avglen))`); prefix and approximate
matches score a constant, as whoosh's multi-term queries do.
"""
from __future__ import annotations

import bisect
import math
import threading
from typing import Any, Iterable

import numpy as np

B, K1 = 0.75, 1.2
MAX_EXPANSIONS = 64  # terms a prefix or an approximate word may stand for
NEAR_CACHE = 4096    # approximate lookups remembered

Postings = tuple[np.ndarray, np.ndarray]  # (docnums, values)
EMPTY: Postings = (np.zeros(0, dtype=np.intp), np.zeros(0))
for _a in EMPTY:
    _a.setflags(write=False)


class Scorer:
    def __init__(self, searcher: Any, fields: Iterable[str]):
        """`searcher` stays open for the generation's life (closed when the engine is
        dropped) and is read under the lock."""
        self._searcher = searcher
        self.doc_count = searcher.doc_count_all()
        self.lengths = {f: np.array([searcher.doc_field_length(n, f, 0) for n in range(self.doc_count)], dtype=np.float64)
                        for f in fields}
        self.avg = {f: (searcher.avg_field_length(f) or 1.0) for f in fields}
        # every field's terms: a word the index lacks is answered without reading or caching
        # anything, so random queries cannot grow the caches past the index's own size
        self.lexicon = {f: frozenset(_text(t) for t in searcher.lexicon(f)) for f in fields}
        self.vocabulary = sorted(self.lexicon["plain"])
        self._shapes = _Shapes(self.vocabulary)
        self._postings: dict[tuple[str, str], Postings] = {}
        self._scored: dict[tuple[str, str], Postings] = {}
        self._near: dict[tuple[str, int, int], list[str]] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------ postings
    # A postings list is two arrays: document numbers (ascending, each once) and a
    # value per document (term frequency, or a score): the engine adds them up
    # vectorised instead of one document at a time.

    def postings(self, field: str, term: str) -> Postings:
        """(docnums, term frequencies) of a term in a field."""
        key = (field, term)
        cached = self._postings.get(key)
        if cached is None:
            if term not in self.lexicon[field]:
                return EMPTY
            with self._lock:  # whoosh readers seek in shared files: one reader at a time
                cached = self._postings.get(key)
                if cached is None:
                    cached = self._postings[key] = self._read(field, term)
        return cached

    def warm(self) -> None:
        """Read every postings list now (about a second, ~10 MB), so that no request
        pays for reading one: a server does this before it serves a generation."""
        for field, terms in self.lexicon.items():
            for term in terms:
                self.postings(field, term)

    def _read(self, field: str, term: str) -> Postings:
        docs, weights = [], []
        if self._searcher.doc_frequency(field, term):
            m = self._searcher.postings(field, term)
            while m.is_active():
                docs.append(m.id())
                weights.append(m.weight())
                m.next()
        return _frozen(np.asarray(docs, dtype=np.intp)), _frozen(np.asarray(weights, dtype=np.float64))

    def doc_frequency(self, field: str, term: str) -> int:
        return len(self.postings(field, term)[0])

    def term(self, field: str, term: str, boost: float = 1.0) -> Postings:
        """(docnums, BM25 scores) for one term of one field."""
        scored = self._scored.get((field, term))
        if scored is None:
            docs, tf = self.postings(field, term)
            if not len(docs):
                return EMPTY
            idf = math.log(self.doc_count / (len(docs) + 1)) + 1
            norm = K1 * ((1 - B) + B * self.lengths[field][docs] / self.avg[field])
            scored = (docs, _frozen(idf * (tf * (K1 + 1)) / (tf + norm)))
            with self._lock:
                self._scored[(field, term)] = scored
        return scored if boost == 1.0 else (scored[0], boost * scored[1])

    def best(self, field: str, terms: Iterable[str], boost: float) -> Postings:
        """Documents holding any of `terms`, each scoring its best term's BM25 (a word's family)."""
        found = [self.term(field, t, boost) for t in terms]
        found = [f for f in found if len(f[0])]
        if len(found) <= 1:
            return found[0] if found else EMPTY
        dense = np.zeros(self.doc_count)
        for docs, scores in found:
            dense[docs] = np.maximum(dense[docs], scores)
        docs = nonzero(dense)
        return docs, dense[docs]

    def constant(self, field: str, terms: Iterable[str], boost: float) -> Postings:
        """Documents holding any of `terms`, each scoring `boost` once."""
        lists = [self.postings(field, t)[0] for t in terms]
        docs = np.unique(np.concatenate(lists)) if lists else EMPTY[0]
        return docs, np.full(len(docs), float(boost))

    # ------------------------------------------------------------ vocabulary

    def frequency(self, word: str) -> int:
        return self.doc_frequency("plain", word)

    def with_prefix(self, prefix: str) -> list[str]:
        words = self.vocabulary  # sorted: the prefix's words follow one another
        i = bisect.bisect_left(words, prefix)
        out = []
        while i < len(words) and len(out) < MAX_EXPANSIONS and words[i].startswith(prefix):
            out.append(words[i])
            i += 1
        return out

    def near(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Vocabulary words within `maxdist` edits that share the first `prefix` letters."""
        key = (word, maxdist, prefix)
        found = self._near.get(key)
        if found is None:
            found = self._search_near(word, maxdist, prefix)
            with self._lock:
                if len(self._near) >= NEAR_CACHE:  # queries are unbounded: so is this cache, unless emptied
                    self._near.clear()
                self._near[key] = found
        return found

    def _search_near(self, word: str, maxdist: int, prefix: int) -> list[str]:
        out = [w for w in self._shapes.candidates(word, maxdist)
               if w != word and w[:prefix] == word[:prefix] and edit_distance(w, word, maxdist) <= maxdist]
        return out[:MAX_EXPANSIONS]


class _Shapes:
    """The vocabulary's first letters, lengths and letter counts, as arrays: the words that
    may lie within `maxdist` edits of a word, found without computing a single distance.

    Every edit (insertion, deletion, substitution, adjacent swap) changes the letters a
    word holds by at most one, so a word whose letters differ from the query's by more
    than `maxdist` ("bag distance") cannot be near it: a bound, never a guess.
    """

    def __init__(self, vocabulary: list[str]):
        self.words = vocabulary
        self.alphabet = {ch: i for i, ch in enumerate(sorted({ch for w in vocabulary for ch in w}))}
        self.first = np.array([w[:1] for w in vocabulary])
        self.length = np.array([len(w) for w in vocabulary])
        self.counts = np.zeros((len(vocabulary), len(self.alphabet)), dtype=np.int16)
        for i, w in enumerate(vocabulary):
            for ch in w:
                self.counts[i, self.alphabet[ch]] += 1

    def candidates(self, word: str, maxdist: int) -> list[str]:
        """Words sharing `word`'s first letter, within `maxdist` in length and in letters; sorted."""
        rows = np.flatnonzero((self.first == word[:1]) & (np.abs(self.length - len(word)) <= maxdist))
        mine = np.zeros(len(self.alphabet), dtype=np.int16)
        unknown = 0  # letters no vocabulary word has
        for ch in word:
            if ch in self.alphabet:
                mine[self.alphabet[ch]] += 1
            else:
                unknown += 1
        diff = self.counts[rows] - mine
        extra, missing = np.clip(diff, 0, None).sum(axis=1), np.clip(-diff, 0, None).sum(axis=1) + unknown
        return [self.words[i] for i in rows[np.maximum(extra, missing) <= maxdist].tolist()]


def summed(lists: list[Postings]) -> Postings:
    """Documents of any of the lists, each scoring the sum of its values in them."""
    docs = np.concatenate([d for d, _ in lists]) if lists else EMPTY[0]
    if not len(docs):
        return EMPTY
    merged, at = np.unique(docs, return_inverse=True)
    scores = np.bincount(at, weights=np.concatenate([v for _, v in lists]), minlength=len(merged))
    return _frozen(merged), _frozen(scores)


def nonzero(values: np.ndarray) -> np.ndarray:
    """The positions of a vector's non-zero values. Asked of the comparison, not of the floats:
    numpy finds a boolean vector's several times faster (12 000 floats: 10 µs against 45)."""
    return np.flatnonzero(values != 0)


def _frozen(a: np.ndarray) -> np.ndarray:
    """Cached arrays are shared by every request: none may write to them."""
    a.setflags(write=False)
    return a


def _text(term: str | bytes) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term


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
