"""The phrasebook: what people say → the entries (situations, titles, terms, headings) that name it.

Each game has its own book per language (`model.Book`, compiled from `kb.search.entries`): a
query is matched against the phrases of its game only, each book in its own language (stop
words out, stems), and a word weighs what it weighs among its book's phrases ("burraco" is
everywhere in Burraco's book, rare in bridge's). A match is scored as the idf-weighted cosine
of the two sets of stems: "dummy pointed at a card" meets "dummy suggests a play | dummy points
at a card" whatever the words around it; a number in words is its digits ("otto cuori" is "8
cuori"). A longer query (a story) is also matched against all that an entry's phrasings say
together: a phrase's strength is then lifted towards the share of the query's words that some
phrasing of its entry uses, so a story told in words spread over several phrasings of one
situation still finds it. The browser's engine follows this module one to one
(web/static/search.js, `phrasebook`).

A sentence encoder (USE multilingual v3, pure numpy) was measured as a further signal: +0.014
MRR on the held-out set but HTTP search p95 32 ms at 8 clients against a 25 ms budget, so it
is not used (it is in commit 7fbd119; the note of issue 13 has the numbers).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..common.text import fold_accents
from .analysis import STOPWORDS, WORD, stems_said
from .model import Book, Entry, Model
from .scoring import nonzero
from .story import NOTHING, Story, fit
from .tuning import Tuning


def story_size(lang: str, text: str) -> int:
    """How many different words a text says in `lang`, its stop words aside (counted before
    stemming)."""
    return len({w for w in WORD.findall(text.lower()) if fold_accents(w) not in STOPWORDS[lang]})


@dataclass(frozen=True)
class Match:
    entry: Entry
    strength: float            # 0..1
    phrase: int                # the strongest phrase's number


class Phrasebook:
    def __init__(self, entries: list[Entry], books: list[Book], entry_rank: np.ndarray, tuning: Tuning):
        """`entry_rank`: each entry's rank in id order (ties go to the entry whose id sorts first)."""
        self.entries = entries
        self.books = books
        self.tuning = tuning
        self.entry_rank = entry_rank
        self.rank_of = {e.id: int(r) for e, r in zip(entries, entry_rank.tolist())}

    @classmethod
    def of(cls, model: Model) -> "Phrasebook":
        return cls(model.entries, model.books, model.arrays["entry_rank"], model.tuning)

    def __len__(self) -> int:
        return len(self.entries)

    def words(self, other_game: bool | None = None) -> set[tuple[str, str]]:
        """(language, stem) of every phrase (of one game's, when asked): words the search knows
        even where no text has them."""
        return {(b.lang, s) for b in self.books if other_game in (None, b.other_game) for s in b.stems}

    def match(self, text: str, limit: int = 5, other_game: bool = False, read: Story = NOTHING) -> list[Match]:
        """The entries of the query's game whose phrases it says, strongest first (one match
        per entry). A long story is also matched window by window (`window` words, each half
        over the next), each window's matches worth `window_share` of their strength: a
        situation told in one sentence of a long story is said there, and drowned in the whole;
        one said in several windows gains `window_repeat` for each after the first.
        The `fit_pool` strongest are then refitted to the story's structure (who acted, when,
        what was done: `story.fit`)."""
        t = self.tuning
        pool = max(limit, t.fit_pool)
        best = {m.entry.id: m for m in self._said(text, other_game, pool)}
        words = text.split(" ")  # a query's spaces are single (query.clean)
        if len(words) >= t.window_story:
            half, windows = t.window // 2, {}
            for start in range(0, max(1, len(words) - half), half):
                for m in self._said(" ".join(words[start:start + t.window]), other_game, pool):
                    windows[m.entry.id] = windows.get(m.entry.id, 0) + 1
                    m = Match(m.entry, m.strength * t.window_share, m.phrase)
                    if m.entry.id not in best or m.strength > best[m.entry.id].strength:
                        best[m.entry.id] = m
            best = {k: Match(m.entry, m.strength + t.window_repeat * (windows.get(k, 1) - 1), m.phrase)
                    for k, m in best.items()}  # a situation the story keeps telling
        matches = sorted(best.values(), key=lambda m: (-m.strength, self.rank_of[m.entry.id], m.phrase))[:pool]
        return self._refit(matches, read)[:limit]

    def _said(self, text: str, other_game: bool, limit: int) -> list[Match]:
        """The entries a text says, strongest first (one match per entry)."""
        found, strengths = [], []
        for book in self.books:
            if book.other_game != other_game:
                continue
            story = story_size(book.lang, text) >= self.tuning.story_size
            said, strength = self.said_in(book, stems_said(book.lang, text), story)
            strong = strength >= self.tuning.min_match
            found.append(said[strong] + book.start)
            strengths.append(strength[strong])
        if not found:  # no phrases (of this game)
            return []
        return self._best(np.concatenate(found), np.concatenate(strengths), limit)

    def _refit(self, matches: list[Match], story: Story) -> list[Match]:
        """Each match's strength moved by its fit to the story (`fit_scale` of the fit's factor
        above or below 1), strongest first (ties: as they were)."""
        if not story.acts:
            return matches
        t = self.tuning
        fitted = [Match(m.entry, m.strength + t.fit_scale * (fit(m.entry.period, m.entry.actors, m.entry.acts, story, t) - 1),
                        m.phrase) for m in matches]
        order = sorted(range(len(fitted)), key=lambda i: (-fitted[i].strength, i))
        return [fitted[i] for i in order]

    def said_in(self, book: Book, query: tuple[str, ...], story: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The phrases of a book (numbered within it) that share a stem with the query, and for
        each the idf-weighted cosine of its stems and the query's; for a `story`, at least its
        share of what its whole entry says."""
        if not query:
            return np.zeros(0, dtype=np.intp), np.zeros(0)
        stems = [book.number.get(s) for s in query]
        shared = _idf_of(stems, book, book.offsets, book.phrases, len(book.entry_of))
        said = nonzero(shared)  # the rest share nothing: a cosine of 0
        q_weight = 0.0
        for i in stems:  # in the query's (sorted) order, as the browser adds them
            q_weight += book.unknown_idf if i is None else book.idf[i]
        cosine = shared[said] / np.sqrt(q_weight * book.weights[said])
        if not story:
            return said, cosine
        offsets, entries = book.entries_using  # per entry: the share of the query some phrasing of it says
        covered = _idf_of(stems, book, offsets, entries, len(self.entries)) / q_weight
        share = self.tuning.phrase_share
        told = share * cosine + (1 - share) * covered[book.entry_of[said]]
        return said, np.maximum(cosine, told)

    def _best(self, found: np.ndarray, strength: np.ndarray, limit: int) -> list[Match]:
        """The strongest phrase of each entry, the strongest entries first, ties to the entry
        whose id sorts first (`found`: phrase numbers in ascending order, `strength` theirs);
        only the `candidates` strongest phrases (ties: the lower number) may hold them."""
        order = np.lexsort((found, -strength))[:self.tuning.candidates]
        found, strength = found[order], strength[order]
        entries = self._entry_of(found)
        first = np.unique(entries, return_index=True)[1]  # each entry's strongest phrase
        top = first[np.lexsort((found[first], self.entry_rank[entries[first]], -strength[first]))][:limit]
        return [Match(self.entries[i], value, n)
                for i, value, n in zip(entries[top].tolist(), strength[top].tolist(), found[top].tolist())]

    def _entry_of(self, phrases: np.ndarray) -> np.ndarray:
        """The entry of each phrase (numbered across the books)."""
        out = np.zeros(len(phrases), dtype=np.intp)
        for book in self.books:
            inside = (phrases >= book.start) & (phrases < book.start + len(book.entry_of))
            out[inside] = book.entry_of[phrases[inside] - book.start]
        return out


def _idf_of(stems: list[int | None], book: Book, offsets: np.ndarray, rows: np.ndarray, size: int) -> np.ndarray:
    """Per row of a stem → rows table (phrases, or entries), the idf of the query's stems it has."""
    out = np.zeros(size)
    for i in stems:
        if i is not None:
            out[rows[offsets[i]:offsets[i + 1]]] += book.idf[i]
    return out
