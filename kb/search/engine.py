"""The search engine: plan → whoosh → clauses grouped by unit → hits with snippets.

One whoosh searcher per call (the index is opened read-only once). Units are
ranked by their best clause plus a little of the next ones; a matching
time-reference entry or norm paragraph lifts the Law clause it annotates or
integrates; each hit carries its parallel clause in the other language.
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..clauseid import article_of, readable
from ..concordance import Concordance
from ..store import Store
from .analysis import ANALYZERS, LANGS, terms
from .glossary import Glossary, Thesaurus
from .index import INDEX_NAME, UNIT_LEVEL, open_index
from .scoring import Scorer, edit_distance
from .snippets import snippet, stem
from .query import NumberQuery, Plan, QueryError, WordQuery, plan, term_queries

with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)
    from whoosh import query as Q

KIND_WEIGHT = {"topic": 0.4, "front": 0.5, "norm": 0.85, "appendix": 1.2, "definition": 0.6}  # the Laws answer first
OTHER_GAME, OTHER_GAME_WEIGHT = "it-burraco", 0.5  # a different game: first only when asked about
OTHER_GAME_SHARE = 0.8    # …that is, when a query word is (nearly) Burraco's alone
COGNATE_MIN = 6           # shorter foreign words are not looked up as cognates
UI_PREFERENCE = 3.0       # texts in the user's own language rank first…
QUERY_PREFERENCE = 1.4    # …or, not knowing it, texts in the language the query is written in
SECOND_CLAUSE_WEIGHT = 0.1
COORD_BASE = 0.1  # a clause matching half the words scores about half: all the words count
UNIT_WEIGHT = 1.0         # the whole unit's score, beside its best clause's
PARALLEL_DOC = {"it-laws": "es-laws", "es-laws": "it-laws"}
PARALLEL_LIFT = 0.3       # share of a Law's score given to the same Law in the other edition
LINK_LIFT = 1.0           # share of an annotating entry's score given to its Law unit
INTENT_BOOST = {"definition": ("definition", 2.0), "timing": ("topic", 1.6)}
WEAK_SCORE = 6.0          # below this best score, words also match approximately
FIELDS = ("plain", "title_it", "title_es", "body_it", "body_es")


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

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["hits"] = [h.to_dict() for h in self.hits]
        return d


def url_for(doc: str, unit: str, clause: str | None = None) -> str:
    anchor = f"#{clause}" if clause and clause != unit else ""
    return f"/{doc}/{unit}{anchor}"


class SearchEngine:
    def __init__(self, index_dir: Path, store: Store, concordance: Concordance | None = None,
                 glossary: Glossary | None = None, thesaurus: Thesaurus | None = None):
        self.ix = open_index(index_dir)
        self.store = store
        self.concordance = concordance
        self.glossary = glossary
        self.thesaurus = thesaurus
        self.lifts = _lifts(store.export)
        self.kinds = sorted({u["kind"] for d in store.export["documents"] for u in d["units"]})
        with self.ix.searcher() as searcher:  # docnum → (doc, unit, clause, kind, lang)
            self.meta = {n: (f["doc"], f["unit"], f["clause"], f["kind"], f["lang"])
                         for n, f in searcher.iter_docs()}
            self.scorer = Scorer(searcher, FIELDS)
        self.other_game_docs = {n for n, m in self.meta.items() if m[0] == OTHER_GAME}

    @classmethod
    def open(cls, build_dir: Path, store: Store) -> "SearchEngine":
        """The engine over a build, with the curated tables of the corpus."""
        return cls(build_dir / INDEX_NAME, store, Concordance.load(), Glossary.load(), Thesaurus.load())

    # ------------------------------------------------------------ public

    def search(self, q: str, doc: str | None = None, lang: str | None = None, kind: str | None = None,
               limit: int = 10, page: int = 1, ui: str | None = None) -> Result:
        self._check_filters(doc, lang, kind, limit, page)
        p = plan(q, self.glossary, self.thesaurus)
        if not p.words and p.number is None:
            return Result(p.text, 0, [], page=page)
        with self.ix.searcher() as searcher:
            prefer = (ui, UI_PREFERENCE) if ui in ("it", "es") else (self._language_of(searcher, p), QUERY_PREFERENCE)
            scores, suggestion = self._scores(searcher, p, doc, lang, kind, prefer[0])
            other_game = doc == OTHER_GAME or self._about_other_game(searcher, p)
        jump, choices, pinned = self._number(p.number, doc, lang, ui)
        units = self._rank(scores, p, pinned, prefer, other_game)
        facets = _facets(units)
        units = [u for u in units if (not doc or u[0][0] == doc) and (not lang or self._lang(u[0][0]) == lang)]
        start = (page - 1) * limit
        if suggestion:  # highlight what the corrected words found
            p.words = p.words + plan(suggestion).words
        hits = [self._hit(key, best, score, p) for key, (best, score) in units[start:start + limit]]
        return Result(p.text, len(units), hits, suggestion, jump, choices, facets, page)

    # ------------------------------------------------------------ scoring

    def _scores(self, searcher: Any, p: Plan, doc: str | None, lang: str | None, kind: str | None,
                prefer: str | None = None) -> tuple[dict[tuple[str, str, str], float], str | None]:
        """Clause scores; words the index does not know are also searched as their
        likeliest correction (the `suggestion`) and approximately; words foreign to the
        user's language are also searched as their near cognates ("involuntaria" →
        "involontaria")."""
        keep = self._keep(doc, lang, kind)
        foreign = {w for w, root in zip(p.words, _stems(p, prefer))
                   if prefer and len(w) >= COGNATE_MIN and searcher.doc_frequency(f"body_{prefer}", root) == 0
                   and searcher.doc_frequency("plain", w) > 0}  # a word of the other language, not a typo
        scores = self._run(searcher, term_queries(p, cognates=foreign), p, keep)
        unknown = {w for w in p.words if self._unknown(searcher, w)}
        suggestion = self._suggestion(searcher, p, unknown) if unknown else None
        if suggestion:
            corrected = plan(suggestion, self.glossary, self.thesaurus)
            _merge(scores, self._run(searcher, term_queries(corrected), corrected, keep))
        if p.words and (unknown or max(scores.values(), default=0) < WEAK_SCORE):
            fuzzy = unknown or set(p.words)
            _merge(scores, self._run(searcher, term_queries(p, fuzzy), p, keep))
        return scores, suggestion

    def _unknown(self, searcher: Any, word: str) -> bool:
        """A word the texts know in no inflection, in neither language: likely a typo.
        ("chiede" is no typo of "chieda": the texts have "chiedere".)"""
        if searcher.doc_frequency("plain", word):
            return False
        return not any(searcher.doc_frequency(f"body_{lang}", stem)
                       for lang in LANGS for stem in terms(ANALYZERS[lang], word))

    def _about_other_game(self, searcher: Any, p: Plan) -> bool:
        """Does the query use a word that belongs to Burraco rather than to bridge
        (found almost only in the Burraco code: "pozzetto", "matta", "burraco")?"""
        burraco = self.other_game_docs
        for w in p.words:
            docs = [n for n, _ in self.scorer.postings(searcher, "plain", w)]
            if docs and sum(n in burraco for n in docs) >= OTHER_GAME_SHARE * len(docs):
                return True
        return False

    def _language_of(self, searcher: Any, p: Plan) -> str | None:
        """The language whose texts know more of the query's words (None when even)."""
        known = {lang: sum(1 for s in p.stems[lang] if searcher.doc_frequency(f"body_{lang}", s)) for lang in LANGS}
        if known["it"] == known["es"]:
            return None
        return max(known, key=known.get)

    def _run(self, searcher: Any, queries: list[WordQuery], p: Plan, keep: Any
             ) -> dict[tuple[str, str, str], float]:
        """Sum the scores of every term query per clause, then reward clauses that
        match more of the query's words (or of its glossary translation)."""
        total: dict[int, float] = {}
        words: dict[int, set[str]] = {}
        for word, q in queries:
            for n, s in self._matches(searcher, q):
                if n in total:
                    total[n] += s
                    words[n].add(word)
                else:
                    total[n] = s
                    words[n] = {word}
        if keep is not None:
            total = {n: s for n, s in total.items() if keep(n)}
        out = {}
        n_words = max(len(p.words), 1)
        for n, s in total.items():
            matched = words[n]
            coord = len(matched - {"~"}) / n_words
            if "~" in matched:
                coord = max(coord, 0.8)
            out[self.meta[n][:3]] = s * (COORD_BASE + (1 - COORD_BASE) * coord)
        return out

    def _matches(self, searcher: Any, q: Any) -> Any:
        if isinstance(q, Q.FuzzyTerm):
            return self.scorer.constant(searcher, q.fieldname, self.scorer.near(q.text, q.maxdist, q.prefixlength),
                                        q.boost).items()
        if isinstance(q, Q.Prefix):
            return self.scorer.best(searcher, q.fieldname, self.scorer.with_prefix(q.text), q.boost).items()
        return self.scorer.term(searcher, q.fieldname, q.text, q.boost)

    def _keep(self, doc: str | None, lang: str | None, kind: str | None) -> Any:
        if not (doc or lang or kind):
            return None
        return lambda n: ((not doc or self.meta[n][0] == doc) and (not lang or self.meta[n][4] == lang)
                          and (not kind or self.meta[n][3] == kind))

    def _rank(self, scores: dict[tuple[str, str, str], float], p: Plan,
              pinned: list[tuple[str, str, str]], prefer: tuple[str | None, float] = (None, 1.0),
              other_game: bool = False) -> list[tuple[tuple[str, str], tuple[str, float]]]:
        """Units best first, as (doc, unit) → (best clause, score); pinned clauses lead."""
        ranked = [(key, (best, raw * self._weight(key, p, prefer, other_game)))
                  for key, (best, raw) in self._unit_scores(scores).items()]
        top = max((s for _, (_, s) in ranked), default=1.0)
        for i, (d, u, c) in enumerate(pinned):  # the clause a number names comes first
            ranked = [r for r in ranked if r[0] != (d, u)]
            ranked.append(((d, u), (c, top * 10 + len(pinned) - i)))
        ranked.sort(key=lambda r: (-r[1][1], r[0]))
        return ranked

    def _unit_scores(self, scores: dict[tuple[str, str, str], float]) -> dict[tuple[str, str], tuple[str, float]]:
        """A unit's score: its best clause, a little of the next ones, its whole text, what the
        entries and norms pointing at it found, and part of its parallel Law's score."""
        by_unit: dict[tuple[str, str], list[tuple[float, str]]] = {}
        whole: dict[tuple[str, str], float] = {}
        for (d, u, c), s in scores.items():
            if c == UNIT_LEVEL:
                whole[(d, u)] = s
                by_unit.setdefault((d, u), [])
            else:
                by_unit.setdefault((d, u), []).append((s, c))
            for target in self.lifts.get((d, u, c), ()):
                by_unit.setdefault(target[:2], []).append((s * LINK_LIFT, target[2]))
        out = {}
        for key, clauses in by_unit.items():
            clauses.sort(key=lambda sc: (-sc[0], sc[1]))
            best = clauses[0] if clauses else (0.0, key[1])
            out[key] = (best[1], best[0] + SECOND_CLAUSE_WEIGHT * sum(s for s, _ in clauses[1:3])
                        + UNIT_WEIGHT * whole.get(key, 0.0))
        for (d, u), (best, s) in list(out.items()):  # the same Law in the other edition
            other = PARALLEL_DOC.get(d)
            if other and u in self.store.units_of(other) and self._kind((d, u)) == "article":
                cl, s2 = out.get((other, u), (u, 0.0))
                out[(other, u)] = (cl, s2 + PARALLEL_LIFT * s)
        return out

    def _weight(self, key: tuple[str, str], p: Plan, prefer: tuple[str | None, float], other_game: bool) -> float:
        kind = self._kind(key)
        w = KIND_WEIGHT.get(kind, 1.0)
        if p.intent in INTENT_BOOST and kind == INTENT_BOOST[p.intent][0]:
            w *= INTENT_BOOST[p.intent][1]
        if prefer[0] and self._lang(key[0]) == prefer[0]:
            w *= prefer[1]
        if key[0] == OTHER_GAME and not other_game:
            w *= OTHER_GAME_WEIGHT
        return w

    # ------------------------------------------------------------ numbers

    def _number(self, n: NumberQuery | None, doc: str | None, lang: str | None, ui: str | None
                ) -> tuple[dict[str, Any] | None, list[dict[str, Any]], list[tuple[str, str, str]]]:
        if n is None:
            return None, [], []
        candidates = [d for d in n.docs if (not doc or d == doc) and (not lang or self._lang(d) == lang)]
        targets = [t for t in (self._existing(d, n) for d in candidates) if t]
        if not targets:
            return None, [], []
        chosen = targets
        if len(targets) > 1 and ui:
            chosen = [t for t in targets if self._lang(t["doc"]) == ui] or targets
        pinned = [(t["doc"], t["unit"], t["clause"]) for t in chosen]
        for d in ("it-laws", "es-laws"):  # then the same Law in the other edition, for comparison
            if chosen[0]["doc"] in ("it-laws", "es-laws") and d not in {t["doc"] for t in chosen}:
                other = self._existing(d, n)
                if other:
                    pinned.append((d, other["unit"], other["clause"]))
        if len(chosen) == 1:
            return chosen[0], [], pinned
        return None, chosen, pinned

    def _existing(self, doc: str, n: NumberQuery) -> dict[str, Any] | None:
        """The clause a number names in a document, or its nearest existing ancestor."""
        unit = self.store.units_of(doc).get(n.article)
        if unit is None:
            return None
        ids = {c["id"] for c in unit["clauses"]}
        clause = n.clause
        while clause not in ids and len(clause) > len(n.article):
            clause = clause[:-1]
        return {"doc": doc, "unit": n.article, "clause": clause, "label": readable(clause),
                "title": unit.get("title") or "", "url": url_for(doc, n.article, clause),
                "exact": clause == n.clause}

    # ------------------------------------------------------------ hits

    def _hit(self, key: tuple[str, str], best: str, score: float, p: Plan) -> Hit:
        doc, unit_id = key
        unit = self.store.unit(doc, unit_id)
        clause = next((c for c in unit["clauses"] if c["id"] == best), unit["clauses"][0])
        lang = self._lang(doc)
        # an implied clause (27B1) has no text of its own: show its first child's
        text = clause["text"] or next((c["text"] for c in unit["clauses"]
                                       if c["text"] and c["id"].startswith(clause["id"])), "")
        return Hit(doc, unit_id, clause["id"], unit["kind"], unit.get("title") or "", lang,
                   snippet(text, p, lang), url_for(doc, unit_id, clause["id"]), round(score, 3),
                   _label(doc, unit, clause), self._parallel(doc, clause["id"]))

    def _parallel(self, doc: str, clause: str) -> list[dict[str, Any]]:
        if self.concordance is None or doc not in ("it-laws", "es-laws"):
            return []
        if doc == "it-laws":
            rows = self.concordance.parallels_2017(clause)
            pairs = [("es-laws", r.es, r.relation) for r in rows if r.es]
        else:
            found = self.concordance.row_for_2007(clause)
            pairs = [("it-laws", found[0].it, found[0].relation)] if found and found[0].it else []
        return [{"doc": d, "unit": article_of(cid), "clause": cid, "label": readable(cid), "relation": relation,
                 "url": url_for(d, article_of(cid), cid)} for d, cid, relation in pairs]

    def _suggestion(self, searcher: Any, p: Plan, unknown: set[str]) -> str | None:
        """The query with each unknown word replaced by the likeliest word of the texts:
        fewest edits, then most documents."""
        words, changed = [], False
        for w in p.words:
            if w in unknown:
                maxdist = 2 if len(w) > 5 else 1
                near = self.scorer.near(w, maxdist)
                if near:
                    best = min(near, key=lambda c: (edit_distance(c, w, maxdist), -self.scorer.frequency(searcher, c), c))
                    words.append(best)
                    changed = True
                    continue
            words.append(w)
        return " ".join(words) if changed else None

    def _check_filters(self, doc: str | None, lang: str | None, kind: str | None, limit: int, page: int) -> None:
        if doc is not None and doc not in self.store.documents:
            raise QueryError(f"unknown document {doc!r}; documents: {', '.join(self.store.documents)}")
        if lang is not None and lang not in ("it", "es"):
            raise QueryError(f"unknown language {lang!r}; languages: it, es")
        if kind is not None and kind not in self.kinds:
            raise QueryError(f"unknown kind {kind!r}; kinds: {', '.join(self.kinds)}")
        if not 1 <= limit <= 100:
            raise QueryError("limit must be between 1 and 100")
        if not 1 <= page <= 1000:
            raise QueryError("page must be between 1 and 1000")

    def _lang(self, doc: str) -> str:
        return self.store.doc(doc)["lang"]

    def _kind(self, key: tuple[str, str]) -> str:
        return self.store.unit(*key)["kind"]


# ---------------------------------------------------------------- helpers

def _lifts(export: dict[str, Any]) -> dict[tuple[str, str, str], list[tuple[str, str, str]]]:
    """Time-reference entries and norm paragraphs → the Law clauses they annotate or integrate
    (for an entry: its 2007 clause and, through the concordance, the 2017 one)."""
    out: dict[tuple[str, str, str], list[tuple[str, str, str]]] = {}
    parents = {(d["id"], u["id"], c["id"]): c["parent"] for d in export["documents"] if d["kind"] == "timeref"
               for u in d["units"] for c in u["clauses"] if c["parent"]}
    for c in export["citations"]:
        s = c["source"]
        if s["doc"] == "it-timeref" and c["where"] == "ref":
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


def _merge(into: dict[tuple[str, str, str], float], more: dict[tuple[str, str, str], float]) -> None:
    for key, s in more.items():
        into[key] = max(into.get(key, 0.0), s)


def _facets(units: list[tuple[tuple[str, str], Any]]) -> dict[str, dict[str, int]]:
    by_doc: dict[str, int] = {}
    for (doc, _), _ in units:
        by_doc[doc] = by_doc.get(doc, 0) + 1
    langs = {"it": sum(n for d, n in by_doc.items() if d != "es-laws"), "es": by_doc.get("es-laws", 0)}
    return {"doc": dict(sorted(by_doc.items())), "lang": {k: v for k, v in langs.items() if v}}


def _label(doc: str, unit: dict[str, Any], clause: dict[str, Any]) -> str:
    if clause["id"] == unit["id"]:
        return unit["id"] if unit["kind"] in ("article", "norm") else (unit.get("title") or unit["id"])
    if doc in ("it-laws", "es-laws") and unit["kind"] == "article":
        return readable(clause["id"])
    return clause.get("label") or clause["id"]
