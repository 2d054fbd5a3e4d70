"""The search engine: a query → its plan → clause scores → units ranked → hits with snippets.

It reads one search model (`kb.search.model`), compiled by the build, and nothing else: units
are ranked by their best clause plus a little of the next ones; a matching time-reference entry
or norm paragraph lifts the Law clause it annotates or integrates; the situations a query tells
lend evidence to the clauses that rule them; each hit carries its parallel clauses in the other
editions. The browser's engine (web/static/search.js, `engine`) follows this module one to one,
and tests/corpus/test_one_engine.py holds the two together query by query.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..corpus.library import OTHER_GAME, Library
from ..corpus.urls import url_for
from . import answer, bids, story, told
from .model import MODEL_NAME, Model, read
from .numbers import Numbers
from .phrasebook import Phrasebook
from .query import EXPANDED, Expansions, Plan, QueryError, TermQuery, expansion_queries, plan, word_queries
from .ranking import UnitRanker
from .scoring import Postings, Scorer, summed
from .snippets import snippet
from .words import Words

WORD_CACHE = 2048  # query words' scores kept (1 KB each on average, 48 KB for a word in every clause)


@dataclass
class Hit:
    doc: str
    unit: str
    clause: str
    kind: str
    title: str
    lang: str
    snippet: str
    url: str
    score: float
    label: str
    parallel: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Result:
    query: str
    total: int
    hits: list[Hit]
    suggestion: str | None = None
    jump: dict[str, Any] | None = None
    choices: list[dict[str, Any]] = field(default_factory=list)
    facets: dict[str, dict[str, int]] = field(default_factory=dict)
    page: int = 1
    limit: int = 10
    said: list[dict[str, str]] = field(default_factory=list)  # the situations the query tells, named
    answer: dict[str, Any] | None = None  # the situation that answers it, with its ruling clauses (kb.search.answer)

    @property
    def first(self) -> int:
        """The rank of the first hit on this page (hits are numbered across pages)."""
        return (self.page - 1) * self.limit + 1

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["hits"] = [h.to_dict() for h in self.hits]
        return d


class SearchEngine:
    def __init__(self, model: Model):
        self.model = model
        self.tuning = model.tuning
        self.build = model.build
        self.langs = model.langs
        self.library = Library.of(model.documents)
        self.documents = [d["id"] for d in model.documents]
        self.kinds = model.get("kinds")
        self.doc_lang = {d["id"]: d["lang"] for d in model.documents}
        self.scorer = Scorer(model)
        self.phrasebook = Phrasebook.of(model)
        self.reader = story.Reader(model.header.get("story"))
        self.ranker = UnitRanker.of(model)
        self.numbers = Numbers(model)
        self.expansions = Expansions(model.get("expansions"))
        self.powers = model.get("powers")
        self.row_doc = np.array([d for d, _ in (model.units[u] for u in model.row_unit.tolist())])
        self.words = Words(model, self.scorer, self.phrasebook, self.library, self.row_doc)
        self.row_lang = np.array([self.doc_lang[d] for d in self.row_doc.tolist()])
        self.row_kind = np.array([model.unit_kind[u] for u in model.row_unit.tolist()])
        self._word_scores = lru_cache(maxsize=WORD_CACHE)(self._scores_of_word)
        self._translation_scores = lru_cache(maxsize=WORD_CACHE)(self._scores_of_translation)
        self._shown = cache(self._show)  # bounded by the build's clauses

    @classmethod
    def open(cls, gen: Path) -> "SearchEngine":
        """The engine over a build generation's search model (`ModelError` says why it cannot)."""
        return cls(read(gen / MODEL_NAME))

    # ------------------------------------------------------------ public

    def warm(self) -> None:
        """Make now what a first search would (the cards, the vocabulary's shapes)."""
        self.model.cards  # noqa: B018
        self.scorer.warm()

    def plan(self, q: str) -> Plan:
        return plan(q, self.langs, self.library.names, self.expansions, self.tuning)

    def search(self, q: str, doc: str | None = None, lang: str | None = None, kind: str | None = None,
               limit: int = 10, page: int = 1, ui: str | None = None) -> Result:
        t = self.tuning
        self._check_filters(doc, lang, kind, limit, page)
        p = self.plan(q)
        if not p.words and p.number is None:
            return Result(p.text, 0, [], page=page, limit=limit)
        shown = p.text
        if len(p.words) >= t.aside_words:  # a story: its holdings, scores and table numbers say nothing
            p = self.plan(story.set_aside(p.text))
        prefer = (ui, t.ui_preference) if ui in self.langs else (self.words.reader_language(p, ui), t.query_preference)
        keep = self._keep(doc, lang, kind)
        scores, suggestion, correction = self._scores(p, keep, prefer[0])
        other_game = doc in self.library.ids(OTHER_GAME) or self.words.about_other_game(p)
        # typos read as their correction too, and bids as what they tell ("1 picche… 1 cuori": insufficient)
        heard = " ".join(filter(None, (p.text, correction, bids.told(p.text, p.written_in or prefer[0]))))
        structure = self.reader.read(heard)  # who acted, when, what was done
        said = self.phrasebook.match(heard, t.entries, other_game, structure)  # the situations of its game
        evidence = told.added(said, self.words.story(p), scores, t, self.powers)
        text, scores = scores, scores + (evidence if keep is None else evidence * keep)
        jump, choices, pinned = self.numbers.resolve(p.number, doc, lang, ui)
        pinned = pinned or told.titled(said, lambda d: self.doc_lang[d] == prefer[0], t)
        if pinned:
            suggestion = None  # the number found its clause: nothing to correct
        units = self.ranker.rank(scores, p.intent, prefer, other_game, pinned, lifting=text)
        facets = _facets(units, self.library)
        units = [u for u in units if (not doc or u[0][0] == doc) and (not lang or self.doc_lang[u[0][0]] == lang)]
        start = (page - 1) * limit
        if suggestion:  # highlight what the corrected words found
            p.words = p.words + plan(suggestion, self.langs, tuning=t).words
        hits = [self._hit(key, best, score, p) for key, (best, score) in units[start:start + limit]]
        found = self._answer(said, units, ui) if page == 1 else None
        return Result(shown, len(units), hits, suggestion, jump, choices, facets, page, limit,
                      told.named(said, ui, t), found)

    # ------------------------------------------------------------ scoring

    def _scores(self, p: Plan, keep: np.ndarray | None,
                prefer: str | None = None) -> tuple[np.ndarray, str | None, str | None]:
        """Clause scores (a vector over the index documents); words the texts do not know are also
        searched as their likeliest correction (shown as the `suggestion` when it may be) and
        approximately; words foreign to the user's language are also searched as their near
        cognates ("involuntaria" → "involontaria"); `keep` masks the documents the filters allow."""
        t, words = self.tuning, self.words
        scores = self._run(p, keep, cognates=words.cognates(p, prefer))
        unknown = {w for w in p.words if words.unknown(w)}
        correction, whole = words.suggestion(p, unknown, words.language_of(p)) if unknown else (None, False)
        suggestion = None
        if correction:
            found = self._run(plan(correction, self.langs, expansions=self.expansions, tuning=t), keep)
            if whole and found.max(initial=0.0) > scores.max(initial=0.0) * (1 + t.rounding):
                suggestion = correction  # offered only when it finds more than what was typed
            scores = np.maximum(scores, found)
        if p.words and (unknown or scores.max(initial=0.0) < t.weak_score):
            fuzzy = unknown or set(p.words)
            scores = np.maximum(scores, self._run(p, keep, fuzzy=fuzzy))
        return scores, suggestion, correction

    def _run(self, p: Plan, keep: np.ndarray | None, fuzzy: set[str] = frozenset(),
             cognates: set[str] = frozenset()) -> np.ndarray:
        """Sum the scores of every term query per clause, then reward clauses that
        match more of the query's words (or of its glossary translation)."""
        t = self.tuning
        total = np.zeros(self.scorer.doc_count)
        matched = np.zeros(self.scorer.doc_count, dtype=np.int64)  # bit set of the query's words matched
        bits: dict[str, int] = {}
        langs = tuple(p.stems)
        lists = [(w, self._word_scores(w, langs, w in fuzzy, w in cognates)) for w in p.words]
        if any(p.expansions.values()):
            translation = tuple((lang, tuple(stems)) for lang, stems in p.expansions.items())
            lists.append((EXPANDED, self._translation_scores(translation)))
        for word, (docs, scores) in lists:
            bit = bits.setdefault(word, 1 << len(bits))
            total[docs] += scores  # each document once per list: plain fancy indexing adds right
            matched[docs] |= bit
        if keep is not None:
            matched *= keep
        approximate = bits.get(EXPANDED, 0)  # the glossary translation, worth most of the words
        coord = np.bitwise_count(matched & ~approximate) / max(len(p.words), 1)
        if approximate:
            coord = np.where(matched & approximate, np.maximum(coord, t.expansion_coord), coord)
        return np.where(matched > 0, total * (t.coord_base + (1 - t.coord_base) * coord), 0.0)

    def _scores_of_word(self, word: str, langs: tuple[str, ...], fuzzy: bool, cognate: bool) -> Postings:
        """A query word's clause scores, its term queries summed (kept per word in
        `_word_scores`: words repeat from query to query, and the model does not change)."""
        return self._summed(word_queries(word, langs, self.tuning, fuzzy, cognate))

    def _scores_of_translation(self, expansions: tuple[tuple[str, tuple[str, ...]], ...]) -> Postings:
        """A glossary translation's clause scores (its stems per language), as `_scores_of_word`."""
        return self._summed(expansion_queries({lang: list(s) for lang, s in expansions}, self.tuning))

    def _summed(self, queries: list[TermQuery]) -> Postings:
        return summed([self.scorer.matches(q) for q in queries])

    def _keep(self, doc: str | None, lang: str | None, kind: str | None) -> np.ndarray | None:
        """The clauses the filters allow, as a 0/1 vector over document numbers."""
        if not (doc or lang or kind):
            return None
        keep = np.ones(self.scorer.doc_count, dtype=bool)
        for column, wanted in ((self.row_doc, doc), (self.row_lang, lang), (self.row_kind, kind)):
            if wanted:
                keep &= column == wanted
        return keep.astype(np.int64)

    # ------------------------------------------------------------ hits

    def _hit(self, key: tuple[str, str], best: str, score: float, p: Plan) -> Hit:
        clause, kind, title, lang, text, url, label, parallel = self._shown(key, best)
        return Hit(key[0], key[1], clause, kind, title, lang, snippet(text, p, lang, self.tuning), url,
                   round(score, 3), label, [dict(link) for link in parallel])  # the hit's own: callers may change it

    def _show(self, key: tuple[str, str], best: str) -> tuple[Any, ...]:
        """What a hit shows of a clause whatever the query (all but its snippet and score),
        worked out once per clause: the model does not change under a running engine."""
        doc, unit_id = key
        unit = self.ranker.number[key]
        clause, label, text, parallel = self._card(unit, best)
        links = tuple({"doc": d, "unit": u, "clause": c, "label": lb, "relation": rel, "url": url}
                      for d, u, c, lb, rel, url in parallel)
        return (clause, self.model.unit_kind[unit], self.model.unit_title[unit], self.doc_lang[doc], text,
                url_for(doc, unit_id, clause), label, links)

    def _card(self, unit: int, clause: str) -> tuple[str, str, str, tuple]:
        """A clause's card (its id, label, text, parallels): the clause asked for, else its unit's first."""
        m = self.model
        row, label, text, parallel = m.cards.get((unit, clause)) or m.cards[(unit, m.unit_clauses[unit][0])]
        return m.clause_names[m.row_clause[row]], label, text, parallel

    def _answer(self, said: list[Any], units: list[tuple[tuple[str, str], Any]],
                ui: str | None) -> dict[str, Any] | None:
        """The answer card: the situation the first hits agree with, and the texts that rule it."""
        t = self.tuning
        m = answer.chosen(said, [key for key, _ in units[:t.answer_hits]], t)
        if m is None:
            return None
        p = answer.parts(m.entry, self.library, ui if ui in self.langs else None, t.answer_see)
        return {"situation": {"id": m.entry.id, "name": m.entry.name(ui), "url": m.entry.url},
                **{k: self._part(v) if v else None for k, v in
                   (("ruling", p.ruling), ("beside", p.beside), ("older", p.older), ("time", p.time))},
                "see": [self._part(v) for v in p.see]}

    def _part(self, target: Any) -> dict[str, Any]:
        """A clause as an answer shows it: its text whole, and the items of a list it opens
        ("… as follows:"), which carry the rule (not the one whose text an implied clause shows)."""
        unit = self.ranker.number[(target.doc, target.unit)]
        clause, label, text, _ = self._card(unit, target.clause or target.unit)
        items = [i for i in self._items(unit, clause) if i[1] != text] if text.rstrip().endswith(":") else []
        return {"doc": target.doc, "unit": target.unit, "clause": clause, "label": label,
                "title": self.model.unit_title[unit], "lang": self.doc_lang[target.doc], "text": text,
                "items": items, "url": url_for(target.doc, target.unit, clause)}

    def _items(self, unit: int, clause: str) -> list[list[str]]:
        """The clauses under `clause` in its unit (at most `answer_items`), as [label, text]."""
        cards = self.model.cards
        under = [c for c in self.model.unit_clauses[unit] if c != clause and c.startswith(clause)]
        return [[cards[(unit, c)][1], cards[(unit, c)][2]] for c in under[:self.tuning.answer_items]]

    def _check_filters(self, doc: str | None, lang: str | None, kind: str | None, limit: int, page: int) -> None:
        if doc is not None and doc not in self.documents:
            raise QueryError(f"unknown document {doc!r}; documents: {', '.join(self.documents)}")
        if lang is not None and lang not in self.langs:
            raise QueryError(f"unknown language {lang!r}; languages: {', '.join(self.langs)}")
        if kind is not None and kind not in self.kinds:
            raise QueryError(f"unknown kind {kind!r}; kinds: {', '.join(self.kinds)}")
        if not 1 <= limit <= 100:
            raise QueryError("limit must be between 1 and 100")
        if not 1 <= page <= 1000:
            raise QueryError("page must be between 1 and 1000")


# ---------------------------------------------------------------- helpers

def _facets(units: list[tuple[tuple[str, str], Any]], library: Library) -> dict[str, dict[str, int]]:
    by_doc: dict[str, int] = {}
    for (doc, _), _ in units:
        by_doc[doc] = by_doc.get(doc, 0) + 1
    langs = {lang: sum(n for d, n in by_doc.items() if library.lang(d) == lang)
             for lang in dict.fromkeys(e.lang for e in library.entries)}  # in the manifest's order
    return {"doc": dict(sorted(by_doc.items())), "lang": {k: v for k, v in langs.items() if v}}

