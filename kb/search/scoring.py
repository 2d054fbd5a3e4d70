"""Term scores: BM25F over the model's fields, as whoosh scores a field, kept once computed.

A term's score in a document is `idf · tf·(K1+1) / (tf + K1·(1−B+B·len/avglen))`, with the
document's length as whoosh keeps it (one byte) and the idf the model gives for the term's
document frequency; prefix and approximate matches score their best member's BM25 or a
constant, as whoosh's multi-term queries do. The model is read-only, so each term's scores,
once computed, are kept for the model's life (bounded by its terms). The browser's engine
follows this module one to one (web/static/search.js, `scoring`).
"""
from __future__ import annotations

import bisect
from typing import Iterable

import numpy as np

from .model import Field, Model
from .query import TermQuery

NEAR_CACHE = 4096    # approximate lookups remembered

Postings = tuple[np.ndarray, np.ndarray]  # (docnums, values)
EMPTY: Postings = (np.zeros(0, dtype=np.intp), np.zeros(0))
for _a in EMPTY:
    _a.setflags(write=False)


class Scorer:
    def __init__(self, model: Model):
        self.fields: dict[str, Field] = model.fields
        self.doc_count = model.doc_count
        self.tuning = model.tuning
        self.vocabulary = self.fields["plain"].terms  # sorted: a prefix's words follow one another
        self._scored: dict[tuple[str, str], Postings] = {}
        self._near: dict[tuple[str, int, int], list[str]] = {}
        self._shapes: _Shapes | None = None

    # ------------------------------------------------------------ postings
    # A postings list is two arrays: document numbers (ascending, each once) and a value per
    # document (term frequency, or a score): they add up vectorised, not one document at a time.

    def postings(self, field: str, term: str) -> Postings:
        """(docnums, term frequencies) of a term in a field."""
        f = self.fields.get(field)
        i = f.number.get(term) if f else None
        if i is None:
            return EMPTY
        a, b = int(f.offsets[i]), int(f.offsets[i + 1])
        return f.docs[a:b], f.tf[a:b]

    def doc_frequency(self, field: str, term: str) -> int:
        return len(self.postings(field, term)[0])

    def frequency(self, word: str) -> int:
        return self.doc_frequency("plain", word)

    def term(self, field: str, term: str, boost: float = 1.0) -> Postings:
        """(docnums, BM25 scores) for one term of one field."""
        scored = self._scored.get((field, term))
        if scored is None:
            docs, tf = self.postings(field, term)
            if not len(docs):
                return EMPTY
            f, t = self.fields[field], self.tuning
            tf = tf.astype(np.float64)
            norm = t.k1 * ((1 - t.b) + t.b * f.lengths[docs] / f.average)
            scored = self._scored[(field, term)] = (docs, _frozen(f.idf[len(docs)] * (tf * (t.k1 + 1)) / (tf + norm)))
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

    def matches(self, q: TermQuery) -> Postings:
        if q.kind == "near":
            return self.constant(q.field, self.near(q.text, q.maxdist, q.prefix), q.boost)
        if q.kind == "prefix":
            return self.best(q.field, self.with_prefix(q.text), q.boost)
        return self.term(q.field, q.text, q.boost)

    # ------------------------------------------------------------ vocabulary

    def with_prefix(self, prefix: str) -> list[str]:
        words = self.vocabulary
        i = bisect.bisect_left(words, prefix)
        out = []
        while i < len(words) and len(out) < self.tuning.max_expansions and words[i].startswith(prefix):
            out.append(words[i])
            i += 1
        return out

    def near(self, word: str, maxdist: int, prefix: int = 1) -> list[str]:
        """Vocabulary words within `maxdist` edits that share the first `prefix` letters, in
        vocabulary order."""
        key = (word, maxdist, prefix)
        found = self._near.get(key)
        if found is None:
            if self._shapes is None:
                self._shapes = _Shapes(list(self.vocabulary))
            found = [w for w in self._shapes.candidates(word, maxdist)
                     if w != word and w[:prefix] == word[:prefix] and edit_distance(w, word, maxdist) <= maxdist]
            found = found[:self.tuning.max_expansions]
            if len(self._near) >= NEAR_CACHE:  # queries are unbounded: so is this cache, unless emptied
                self._near.clear()
            self._near[key] = found
        return found

    def warm(self) -> None:
        """What a first approximate search would make (the vocabulary's shapes)."""
        if self._shapes is None:
            self._shapes = _Shapes(list(self.vocabulary))


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
    """Documents of any of the lists, each scoring the sum of its values in them, added in the
    lists' order."""
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
    """Kept arrays are shared by every request: none may write to them."""
    a.setflags(write=False)
    return a


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
