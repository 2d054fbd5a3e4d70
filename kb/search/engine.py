"""The search engine: plan → whoosh → clauses grouped by unit → hits with snippets.

The index is opened read-only once; its postings are read through the
engine's Scorer, which caches them. Units are
ranked by their best clause plus a little of the next ones; a matching
time-reference entry or norm paragraph lifts the Law clause it annotates or
integrates; each hit carries its parallel clause in the other language.
"""
from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from ..clauseid import article_of, readable
from ..concordance import Concordance
from ..editions import Editions
from ..generations import table
from ..library import OTHER_GAME, TIMEREF, Library
from ..store import Store
from ..urls import url_for
from . import bids, phrasebook, told
from .analysis import ANALYZERS, STOPWORDS, terms
from .glossary import Glossary, Thesaurus, light
from .index import INDEX_NAME, UNIT_LEVEL, languages_of, open_index
from .phrasebook import Phrasebook
from .ranking import UnitRanker
from .scoring import Postings, Scorer, edit_distance, summed
from .snippets import snippet, stem
from .query import EXPANDED, NumberQuery, Plan, QueryError, expansion_queries, fold, plan, word_queries

with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)
    from whoosh import query as Q

OTHER_GAME_SHARE = 0.8    # …that is, when a query word is (nearly) Burraco's alone
BRIDGE_SHARE = 0.05       # a word at most this share of whose clauses are Burraco's is bridge's
                          # ("scoperta": 0.04; "meno", 0.08, is no one's)
GAME_WORD_MIN = 4         # letters, and
GAME_WORD_DOCS = 5         # clauses: a rarer word ("restare", "arrivata", "andare") says nothing of the game
COGNATE_MIN = 6           # shorter foreign words are not looked up as cognates
UI_PREFERENCE = 3.0       # texts in the user's own language rank first…
QUERY_PREFERENCE = 1.4    # …or, not knowing it, texts in the language the query is written in
COORD_BASE = 0.1  # a clause matching half the words scores about half: all the words count
WEAK_SCORE = 6.0          # below this best score, words also match approximately
ROUNDING = 1e-9           # scores closer than this share are equal: the same matches summed in another order
ANY_STOPWORD = frozenset().union(*STOPWORDS.values())
UNKNOWN_CACHE = 8192
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

    @property
    def first(self) -> int:
        """The rank of the first hit on this page (hits are numbered across pages)."""
        return (self.page - 1) * self.limit + 1

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["hits"] = [h.to_dict() for h in self.hits]
        return d


class SearchEngine:
    def __init__(self, index_dir: Path, store: Store, editions: Editions | None = None,
                 glossary: Glossary | None = None, thesaurus: Thesaurus | None = None,
                 phrasebook: Phrasebook | None = None):
        self.ix = open_index(index_dir)
        self.store = store
        self.editions = editions
        self.glossary = glossary
        self.thesaurus = thesaurus
        self.phrasebook = phrasebook or Phrasebook([], [])
        self.known = set().union(*(t.words() for t in (glossary, thesaurus) if t is not None))
        self.said_words = self.phrasebook.words()  # (language, stem): a word a phrase uses is no typo
        self.bridge_words = self.phrasebook.words(other_game=False)  # English bridge players say them too
        self._unknown = lru_cache(maxsize=UNKNOWN_CACHE)(self._is_unknown)  # words repeat; the index does not change
        self._word_scores = lru_cache(maxsize=WORD_CACHE)(self._scores_of_word)
        self._translation_scores = lru_cache(maxsize=WORD_CACHE)(self._scores_of_translation)
        searcher = self.ix.searcher()
        stored = dict(searcher.iter_docs())
        self.library = editions.library if editions else Library.of(store.export["documents"])
        self.langs = languages_of(store.export)  # the languages queries are read in
        self.scorer = Scorer(searcher, ("plain", *(f"{f}_{lang}" for f in ("title", "body") for lang in self.langs)))
        # per document number, as arrays: doc, unit, clause, kind, lang
        self.columns = {name: np.array([stored[n][name] for n in range(self.scorer.doc_count)])
                        for name in ("doc", "unit", "clause", "kind", "lang")}
        self.other_game_docs = np.isin(self.columns["doc"], self.library.ids(OTHER_GAME))
        self.other_game_names = {fold(name) for name, doc in self.library.names.items()
                                 if doc in self.library.ids(OTHER_GAME) and " " not in name}
        self.unit_kind = {(d["id"], u["id"]): u["kind"] for d in store.export["documents"] for u in d["units"]}
        self.kinds = sorted(set(self.unit_kind.values()))
        self.doc_lang = {d["id"]: d["lang"] for d in store.export["documents"]}
        keys = list(zip(*(self.columns[name].tolist() for name in ("doc", "unit", "clause"))))
        self.lifts = _lifts(store.export)
        self.ranker = UnitRanker(keys, self.unit_kind, self.library, self.lifts)
        self.docnum = {key: n for n, key in enumerate(keys)}
        self._shown = cache(self._show)  # bounded by the build's clauses

    @classmethod
    def open(cls, gen: Path, store: Store, editions: Editions | None = None) -> "SearchEngine":
        """The engine over a build generation, with the curated tables it was built with (the
        editions given when the caller has them open already)."""
        if editions is None:
            editions = Editions(Library.of(store.export["documents"]), Concordance.load(table(gen, "concordance.tsv")),
                                store.export["documents"])
        tables = table(gen, "glossary.tsv").parent
        glossary = Glossary.load(tables / "glossary.tsv")
        if phrasebook.TITLES_LANG not in languages_of(store.export):  # with English texts, no translation
            glossary = glossary.joined(phrasebook.term_pairs(tables))
        return cls(gen / INDEX_NAME, store, editions, glossary, Thesaurus.load(tables / "thesaurus.tsv"),
                   phrasebook.load(tables, editions.library, store.export["documents"]))

    # ------------------------------------------------------------ public

    def warm(self) -> None:
        """Read what a first search would (the index's postings)."""
        self.scorer.warm()

    def search(self, q: str, doc: str | None = None, lang: str | None = None, kind: str | None = None,
               limit: int = 10, page: int = 1, ui: str | None = None) -> Result:
        self._check_filters(doc, lang, kind, limit, page)
        p = plan(q, self.glossary, self.thesaurus, self.langs, self.library.names)
        if not p.words and p.number is None:
            return Result(p.text, 0, [], page=page, limit=limit)
        prefer = (ui, UI_PREFERENCE) if ui in self.langs else (self._reader_language(p, ui), QUERY_PREFERENCE)
        keep = self._keep(doc, lang, kind)
        scores, suggestion, correction = self._scores(p, keep, prefer[0])
        other_game = doc in self.library.ids(OTHER_GAME) or self._about_other_game(p)
        # typos read as their correction too, and bids as what they tell ("1 picche… 1 cuori": insufficient)
        heard = " ".join(filter(None, (p.text, correction, bids.told(p.text, p.written_in or prefer[0]))))
        said = self.phrasebook.match(heard, told.ENTRIES, other_game)  # the situations of its game
        evidence = told.added(said, self._story(p), scores, WEAK_SCORE, self._docnum_of)
        text, scores = scores, scores + (evidence if keep is None else evidence * keep)
        jump, choices, pinned = self._number(p.number, doc, lang, ui)
        pinned = pinned or told.titled(said, lambda d: self._lang(d) == prefer[0])
        if pinned:
            suggestion = None  # the number found its clause: nothing to correct
        units = self.ranker.rank(scores, p.intent, prefer, other_game, pinned, lifting=text)
        facets = _facets(units, self.library)
        units = [u for u in units if (not doc or u[0][0] == doc) and (not lang or self._lang(u[0][0]) == lang)]
        start = (page - 1) * limit
        if suggestion:  # highlight what the corrected words found
            p.words = p.words + plan(suggestion, langs=self.langs).words
        hits = [self._hit(key, best, score, p) for key, (best, score) in units[start:start + limit]]
        return Result(p.text, len(units), hits, suggestion, jump, choices, facets, page, limit,
                      told.named(said, ui))

    # ------------------------------------------------------------ scoring

    def _scores(self, p: Plan, keep: np.ndarray | None,
                prefer: str | None = None) -> tuple[np.ndarray, str | None, str | None]:
        """Clause scores (a vector over the index's documents); words the index does not know are also searched as their
        likeliest correction (shown as the `suggestion` when it may be) and approximately; words foreign to the
        user's language are also searched as their near cognates ("involuntaria" →
        "involontaria"); `keep` masks the documents the filters allow."""
        foreign = {w for w, root in zip(p.words, _stems(p, prefer))
                   if prefer and len(w) >= COGNATE_MIN and self.scorer.doc_frequency(f"body_{prefer}", root) == 0
                   and self.scorer.doc_frequency("plain", w) > 0}  # a word of the other language, not a typo
        scores = self._run(p, keep, cognates=foreign)
        unknown = {w for w in p.words if self._unknown(w)}
        correction, whole = self._suggestion(p, unknown, self._language_of(p)) if unknown else (None, False)
        suggestion = None
        if correction:
            corrected = plan(correction, self.glossary, self.thesaurus, self.langs)
            found = self._run(corrected, keep)
            if whole and found.max(initial=0.0) > scores.max(initial=0.0) * (1 + ROUNDING):
                suggestion = correction  # offered only when it finds more than what was typed
            scores = np.maximum(scores, found)
        if p.words and (unknown or scores.max(initial=0.0) < WEAK_SCORE):
            fuzzy = unknown or set(p.words)
            scores = np.maximum(scores, self._run(p, keep, fuzzy=fuzzy))
        return scores, suggestion, correction

    def _story(self, p: Plan) -> bool:
        """Does the query tell a story (enough words the texts or the phrasebook know)?"""
        return sum(1 for w in p.words if not w.isdigit() and not self._unknown(w)) >= told.STORY_WORDS

    def _docnum_of(self, key: tuple[str, str, str]) -> int | None:
        doc, unit, clause = key
        return next((self.docnum[k] for k in ((doc, unit, clause or unit), (doc, unit, UNIT_LEVEL))
                     if k in self.docnum), None)

    def _is_unknown(self, word: str) -> bool:
        """A word the texts know in no inflection, in no language, and no curated table knows
        (a term of art, an everyday phrase): likely a typo. ("chiede" is no typo of "chieda":
        the texts have "chiedere"; "revoke" is no typo of "revoca".)"""
        if self.scorer.doc_frequency("plain", word) or any(w in self.known for w in light(word)):
            return False
        if word in ANY_STOPWORD or self._said_word(word):
            return False  # "at", "dummy", "pointed": words of a language no text is in
        return not any(self._in_language(word, lang) for lang in self.langs)

    def _said_word(self, word: str, langs: Iterable[str] = ANALYZERS,
                   said: set[tuple[str, str]] | None = None) -> bool:
        """A word of the phrasebook's phrases (or of `said`), in any of `langs`."""
        said = self.said_words if said is None else said
        return any((lang, s) in said for lang in langs for s in terms(ANALYZERS[lang], word))

    def _about_other_game(self, p: Plan) -> bool:
        """Does the query speak of Burraco rather than of bridge? It does when it names the
        game, or when more of its words belong to the Burraco code (found almost only, and more
        than by chance, there: "pozzetto", "matta") than to the bridge texts (found in hardly any
        Burraco clause: "sostituto", "dichiarante", "scoperta"). A word the code happens to use a few
        times ("andare") is outvoted by a bridge word beside it. Short words ("out" of its
        "chiusura out") and the words of a language no text is in ("time" of its "time out":
        English bridge players say it too) say nothing of the game."""
        if any(w in self.other_game_names for w in p.words):
            return True
        foreign = tuple(lang for lang in ANALYZERS if lang not in self.langs)
        votes = 0
        voters = (w for w in p.words if len(w) >= GAME_WORD_MIN and not self._said_word(w, foreign, self.bridge_words))
        for w in voters:
            docs, _ = self.scorer.postings("plain", w)
            if len(docs) >= GAME_WORD_DOCS:
                share = self.other_game_docs[docs].sum() / len(docs)
                votes += 1 if share >= OTHER_GAME_SHARE else -1 if share <= BRIDGE_SHARE else 0
        return votes > 0

    def _reader_language(self, p: Plan, ui: str | None) -> str | None:
        """The texts' language a reader whose own no text is in (English, today) reads first:
        the query's, when its little words say it is one of the texts'; else, for a reader or
        a query of another language, the newest Laws'; else the language whose texts know
        more of the query's words."""
        if p.written_in in self.langs:
            return p.written_in
        if ui or p.written_in:
            return self.library.lang(self.library.laws_in_force or "")
        return self._language_of(p)

    def _language_of(self, p: Plan) -> str | None:
        """The language the query is written in, when its little words say so; else the
        language whose texts know more of its words (None when even)."""
        if p.written_in:
            return p.written_in
        known = sorted(((sum(1 for s in p.stems[lang] if self.scorer.doc_frequency(f"body_{lang}", s)), lang)
                        for lang in self.langs), reverse=True)
        if len(known) < 2 or known[0][0] == known[1][0]:
            return None
        return known[0][1]

    def _run(self, p: Plan, keep: np.ndarray | None, fuzzy: set[str] = frozenset(),
             cognates: set[str] = frozenset()) -> np.ndarray:
        """Sum the scores of every term query per clause, then reward clauses that
        match more of the query's words (or of its glossary translation)."""
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
            coord = np.where(matched & approximate, np.maximum(coord, 0.8), coord)
        return np.where(matched > 0, total * (COORD_BASE + (1 - COORD_BASE) * coord), 0.0)

    def _scores_of_word(self, word: str, langs: tuple[str, ...], fuzzy: bool, cognate: bool) -> Postings:
        """A query word's clause scores, its term queries summed (kept per word in
        `_word_scores`: words repeat from query to query, and the index does not change)."""
        return summed([self._matches(q) for q in word_queries(word, langs, fuzzy, cognate)])

    def _scores_of_translation(self, expansions: tuple[tuple[str, tuple[str, ...]], ...]) -> Postings:
        """A glossary translation's clause scores (its stems per language), as `_scores_of_word`."""
        return summed([self._matches(q) for q in expansion_queries(dict(expansions))])

    def _matches(self, q: Any) -> Postings:
        if isinstance(q, Q.FuzzyTerm):
            return self.scorer.constant(q.fieldname, self.scorer.near(q.text, q.maxdist, q.prefixlength), q.boost)
        if isinstance(q, Q.Prefix):
            return self.scorer.best(q.fieldname, self.scorer.with_prefix(q.text), q.boost)
        return self.scorer.term(q.fieldname, q.text, q.boost)

    def _keep(self, doc: str | None, lang: str | None, kind: str | None) -> np.ndarray | None:
        """The clauses the filters allow, as a 0/1 vector over document numbers."""
        if not (doc or lang or kind):
            return None
        keep = np.ones(self.scorer.doc_count, dtype=bool)
        for column, wanted in (("doc", doc), ("lang", lang), ("kind", kind)):
            if wanted:
                keep &= self.columns[column] == wanted
        return keep.astype(np.int64)

    # ------------------------------------------------------------ numbers

    def _number(self, n: NumberQuery | None, doc: str | None, lang: str | None, ui: str | None
                ) -> tuple[dict[str, Any] | None, list[dict[str, Any]], list[tuple[str, str, str]]]:
        if n is None:
            return None, [], []
        targets = [t for t in (self._existing(d, n) for d in self._meant(n, doc, lang)) if t]
        if not targets:
            return None, [], []
        chosen = targets
        if len(targets) > 1 and ui:
            chosen = [t for t in targets if self._lang(t["doc"]) == ui] or targets
        pinned = [(t["doc"], t["unit"], t["clause"]) for t in chosen]
        for d in self.library.laws:  # then the same Law in the other edition, for comparison
            if self.library.is_laws(chosen[0]["doc"]) and d not in {t["doc"] for t in chosen}:
                other = self._existing(d, n)
                if other:
                    pinned.append((d, other["unit"], other["clause"]))
        if len(chosen) == 1:
            return chosen[0], [], pinned
        return None, chosen, pinned

    def _meant(self, n: NumberQuery, doc: str | None, lang: str | None) -> list[str]:
        """The documents a number means: of the first (kind, language) it wants that the filters
        allow, those in force (an edition another in its language supersedes only by name)."""
        if n.doc:
            return [n.doc] if (not doc or doc == n.doc) and (not lang or self._lang(n.doc) == lang) else []
        for kind, in_lang in n.wants:
            pool = self.library.ids(kind, in_lang) if doc else self.library.in_force(kind, in_lang)
            found = [d for d in pool if (not doc or d == doc) and (not lang or self._lang(d) == lang)]
            if found:
                return found
        return []

    def _existing(self, doc: str, n: NumberQuery) -> dict[str, Any] | None:
        """The clause a number names in a document, or its nearest existing ancestor."""
        unit = self._appendix(doc, n.article) if n.appendix else self._unit_numbered(doc, n.article)
        if unit is None:
            return None
        ids = {c["id"] for c in unit["clauses"]}
        clause = n.clause
        while clause not in ids and len(clause) > len(n.article):
            clause = clause[:-1]
        if unit["id"] != n.article:  # norm 92-93 is the norm of Law 92
            clause = unit["id"]
        return {"doc": doc, "unit": unit["id"], "clause": clause, "label": readable(clause),
                "title": unit.get("title") or "", "url": url_for(doc, unit["id"], clause),
                "exact": clause == n.clause}

    def _appendix(self, doc: str, number: str) -> dict[str, Any] | None:
        return next((u for u in self.store.units_of(doc).values() if str(u.get("appendix")) == number), None)

    def _unit_numbered(self, doc: str, number: str) -> dict[str, Any] | None:
        """The unit a number names: numbered so, or a range that covers it ("92-93")."""
        units = self.store.units_of(doc)
        if number in units:
            return units[number]
        return next((u for uid, u in units.items() if (m := re.fullmatch(r"(\d+)-(\d+)", uid))
                     and int(m[1]) <= int(number) <= int(m[2])), None)

    # ------------------------------------------------------------ hits

    def _hit(self, key: tuple[str, str], best: str, score: float, p: Plan) -> Hit:
        clause, kind, title, lang, text, url, label, parallel = self._shown(key, best)
        return Hit(key[0], key[1], clause, kind, title, lang, snippet(text, p, lang), url, round(score, 3),
                   label, [dict(link) for link in parallel])  # the hit's own: callers may change it

    def _show(self, key: tuple[str, str], best: str) -> tuple[Any, ...]:
        """What a hit shows of a clause whatever the query (all but its snippet and score),
        worked out once per clause: the build does not change under a running engine."""
        doc, unit_id = key
        unit = self.store.unit(doc, unit_id)
        clause = next((c for c in unit["clauses"] if c["id"] == best), unit["clauses"][0])
        # an implied clause (27B1) has no text of its own: show its first child's
        text = clause["text"] or next((c["text"] for c in unit["clauses"]
                                       if c["text"] and c["id"].startswith(clause["id"])), "")
        return (clause["id"], unit["kind"], unit.get("title") or "", self._lang(doc), text,
                url_for(doc, unit_id, clause["id"]), self.label(doc, unit, clause), tuple(self._parallel(doc, clause["id"])))

    def label(self, doc: str, unit: dict[str, Any], clause: dict[str, Any]) -> str:
        """How a hit names its clause: "27B1(b)" in the Laws, a norm's paragraph by its own label."""
        return _label(self.library.is_laws(doc), unit, clause)

    def _parallel(self, doc: str, clause: str) -> list[dict[str, Any]]:
        links = self.editions.of_clause(doc, clause) if self.editions else []
        return [{"doc": p.other, "unit": article_of(p.target), "clause": p.target, "label": readable(p.target),
                 "relation": p.relation, "url": url_for(p.other, article_of(p.target), p.target)} for p in links]

    def _suggestion(self, p: Plan, unknown: set[str], lang: str | None) -> tuple[str | None, bool]:
        """The query with each unknown word replaced by the likeliest word of the texts in one
        language (the query's, else the one that corrects most): fewest edits, then most
        documents; and whether it may be shown. A query of no known language corrected only
        in part would splice two languages into one phrase: searched, never shown."""
        ours = lang in self.langs  # a query in English has no text of its own to be corrected to
        tries = [self._corrected(p, unknown, each) for each in ((lang,) if ours else self.langs)]
        words, changed = max(tries, key=lambda t: t[1])  # the first language wins a tie
        shown = ours or (lang is None and changed == len(unknown))
        return (" ".join(words), shown) if changed else (None, False)

    def _corrected(self, p: Plan, unknown: set[str], lang: str) -> tuple[list[str], int]:
        words, changed = [], 0
        for w in p.words:
            maxdist = 2 if len(w) > 5 else 1
            near = [c for c in self.scorer.near(w, maxdist) if self._in_language(c, lang)] if w in unknown else []
            if near:
                words.append(min(near, key=lambda c: (edit_distance(c, w, maxdist), -self.scorer.frequency(c), c)))
                changed += 1
            else:
                words.append(w)
        return words, changed

    def _in_language(self, word: str, lang: str) -> bool:
        return any(self.scorer.doc_frequency(f"body_{lang}", stem) for stem in terms(ANALYZERS[lang], word))

    def _check_filters(self, doc: str | None, lang: str | None, kind: str | None, limit: int, page: int) -> None:
        if doc is not None and doc not in self.store.documents:
            raise QueryError(f"unknown document {doc!r}; documents: {', '.join(self.store.documents)}")
        if lang is not None and lang not in self.langs:
            raise QueryError(f"unknown language {lang!r}; languages: {', '.join(self.langs)}")
        if kind is not None and kind not in self.kinds:
            raise QueryError(f"unknown kind {kind!r}; kinds: {', '.join(self.kinds)}")
        if not 1 <= limit <= 100:
            raise QueryError("limit must be between 1 and 100")
        if not 1 <= page <= 1000:
            raise QueryError("page must be between 1 and 1000")

    def _lang(self, doc: str) -> str:
        return self.doc_lang[doc]



# ---------------------------------------------------------------- helpers

def _lifts(export: dict[str, Any]) -> dict[tuple[str, str, str], list[tuple[str, str, str]]]:
    """Time-reference entries and norm paragraphs → the Law clauses they annotate or integrate
    (for an entry: its 2007 clause and, through the concordance, the 2017 one)."""
    out: dict[tuple[str, str, str], list[tuple[str, str, str]]] = {}
    timerefs = Library.of(export["documents"]).ids(TIMEREF)
    parents = {(d["id"], u["id"], c["id"]): c["parent"] for d in export["documents"] if d["id"] in timerefs
               for u in d["units"] for c in u["clauses"] if c["parent"]}
    for c in export["citations"]:
        s = c["source"]
        if s["doc"] in timerefs and c["where"] == "ref":
            targets = [t for t in (c.get("target_2017"), c["target"] if c["resolved"] else None) if t]
        elif c["kind"] == "integrates" and c["resolved"]:
            targets = [c["target"]]
        else:
            continue
        found = [(t["doc"], t["unit"], t["clause"] or t["unit"]) for t in targets]
        out.setdefault((s["doc"], s["unit"], s["clause"]), []).extend(found)
        situation = parents.get((s["doc"], s["unit"], s["clause"]))
        if situation:  # the situation an entry belongs to points where its entries point
            out.setdefault((s["doc"], s["unit"], situation), []).extend(found)
    return {key: list(dict.fromkeys(targets)) for key, targets in out.items()}


def _stems(p: Plan, lang: str | None) -> list[str]:
    return [stem(lang, w) or w for w in p.words] if lang else list(p.words)


def _facets(units: list[tuple[tuple[str, str], Any]], library: Library) -> dict[str, dict[str, int]]:
    by_doc: dict[str, int] = {}
    for (doc, _), _ in units:
        by_doc[doc] = by_doc.get(doc, 0) + 1
    langs = {lang: sum(n for d, n in by_doc.items() if library.lang(d) == lang)
             for lang in dict.fromkeys(e.lang for e in library.entries)}  # in the manifest's order
    return {"doc": dict(sorted(by_doc.items())), "lang": {k: v for k, v in langs.items() if v}}


def _label(of_laws: bool, unit: dict[str, Any], clause: dict[str, Any]) -> str:
    if clause["id"] == unit["id"]:
        return unit["id"] if unit["kind"] in ("article", "norm") else (unit.get("title") or unit["id"])
    if of_laws and unit["kind"] == "article":
        return readable(clause["id"])
    return clause.get("label") or clause["id"]
