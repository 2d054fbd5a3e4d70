"""The build's side of search: an export and a build's tables → the search model (`kb.search.model`).

Each clause is an index document, and so is each unit's whole text (its clause id `*`), so that
words spread over a unit's clauses are found together. Its fields: `plain` (heading and text,
whole words), and per language of the texts `title_<lang>` (unit and clause headings) and
`body_<lang>` (clause text, notes, tables and footnotes), stemmed. For each field the compiler
keeps what BM25F needs (each term's documents and frequencies, each document's length as whoosh
keeps it, one byte; each document frequency's idf), then the units and the lifts and parallels
the ranking adds, what a hit shows of each clause, the phrasebook's books, the glossary's and the
thesaurus's expansions, the number grammar, the little words and the tuning. Everything is
analysed here once; nothing at search time compiles it again.
"""
from __future__ import annotations

import gzip
import math
import re
import warnings
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Iterator

import brotli
import numpy as np

with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)
    from whoosh.util.numeric import _length_byte_cache as LENGTH_TABLE, length_to_byte

from ..records.built import BuiltClause, BuiltDocument, BuiltUnit
from ..records.store import Store
from ..records.clauseid import article_of, readable
from ..editions.pairs import Editions
from ..corpus.languages import LANGS, REGISTRY
from ..corpus.library import LAWS, NORMS, OTHER_GAME, TIMEREF, Library
from ..corpus.urls import situation_url, url_for
from . import bids, entries as sources, model, query, ranking, story
from .analysis import (ACCENT_MAP, NUMBERS, PLAIN, SHARED_STOPWORDS, STOPWORDS, combining_ranges, fold,
                       stems_said, terms, word_ranges, control_ranges, digit_ranges)
from .glossary import THESAURUS_TABLE, Glossary, expansion_rows, known_words, load_thesaurus
from .model import UNIT_LEVEL
from .phrasebook import Phrasebook
from .tuning import TUNING, Tuning

Key = tuple[str, str, str]  # (doc, unit, clause)
GZIP_LEVEL = 6  # the model is fetched by every phone: level 9 is slower to write and barely smaller
# and in brotli for the browsers that take it (all of today's): 0.79 MB against gzip's 1.04; level
# 11 would save 30 KB more for 2 s more of every build
BROTLI_LEVEL = 10


def write(gen: Path, store: Store, editions: Editions, tables: Path, tuning: Tuning = TUNING) -> Path:
    """The generation's search model and its gzipped and brotli copies (what the server sends a browser)."""
    header, arrays = compile_model(store, editions, tables, gen.name, tuning)
    path = gen / model.MODEL_NAME
    data = model.write(path, header, arrays)
    (gen / (model.MODEL_NAME + ".gz")).write_bytes(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))
    (gen / (model.MODEL_NAME + ".br")).write_bytes(brotli.compress(data, quality=BROTLI_LEVEL))
    return path


def compile_model(store: Store, editions: Editions, tables: Path, build: str,
                  tuning: Tuning = TUNING) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The model's header and arrays: what the documents are, each field's postings, what a hit
    shows, the expansions, the phrasebook, the number grammar and the little words."""
    documents, library = list(store.documents.values()), editions.library
    langs = tuple(lang for lang in LANGS if lang in {d.lang for d in documents})
    rows = list(index_documents(store))
    keys = [(r["doc"], r["unit"], r["clause"]) for r in rows]
    units = {(d.id, u.id): u for d in documents for u in d.units}
    ranked = ranking.layout(keys, {k: u.kind for k, u in units.items()}, library, _lifts(store, library))
    arrays: dict[str, np.ndarray] = dict(ranked.arrays)
    header: dict[str, Any] = {"build": build, "tuning": tuning.to_dict(), **_documents(documents, library, units, ranked),
                              "langs": list(langs), "analyzers": list(LANGS), "fields": _fields(rows, langs, arrays),
                              "cards": _cards(units, rows, editions), **_expansions(tables, library, langs),
                              "numbers": _numbers(documents, library, editions), "words": _words()}
    header["phrasebook"] = _phrasebook(tables, library, documents, {k: n for n, k in enumerate(keys)}, arrays)
    header["story"] = {**story.compiled(story.vocabulary(tables)),  # the browser's copy of the noise patterns too
                       "aside": [[_js_words(p.pattern), bool(p.flags & re.I)] for p in story.ASIDE]}
    header["powers"] = _powers(tuning, header["phrasebook"])
    return header, arrays


def _documents(documents: list[BuiltDocument], library: Library, units: dict[tuple[str, str], BuiltUnit],
               ranked: ranking.Layout) -> dict[str, Any]:
    """The documents, the units in the ranker's order and the clause names it numbers."""
    number = {d.id: i for i, d in enumerate(documents)}
    return {"docs": [_document(d, library) for d in documents], "laws": list(library.laws),
            "laws_in_force": library.laws_in_force, "kinds": sorted({u.kind for u in units.values()}),
            "units": [[number[d], u, units[(d, u)].kind, units[(d, u)].title or ""] for d, u in ranked.units],
            "clause_names": ranked.clause_names, "length_table": list(LENGTH_TABLE)}


def _expansions(tables: Path, library: Library, langs: tuple[str, ...]) -> dict[str, Any]:
    """The glossary's and the thesaurus's expansion rows, the words they make known, and the other
    game's names (a query naming Burraco is about Burraco)."""
    glossary = Glossary.load(tables / "glossary.tsv")
    if sources.TITLES_LANG not in langs:  # with English texts, no translation
        glossary = glossary.joined(sources.term_pairs(tables))
    thesaurus = load_thesaurus(tables / THESAURUS_TABLE)
    return {"expansions": [[list(words), any_order, adds] for words, any_order, adds in
                           expansion_rows(glossary, thesaurus, langs)],
            "known": sorted(known_words(glossary, thesaurus)),
            "other_game_names": sorted({fold(name) for name, doc in library.names.items()
                                        if doc in library.ids(OTHER_GAME) and " " not in name})}


def _powers(tuning: Tuning, phrasebook: dict[str, Any]) -> dict[str, list[float]]:
    """The decays raised to each power a search may ask for: no pow() at search time, where two
    runtimes' libraries may round its last bit apart."""
    longest = max((len(e["targets"]) for e in phrasebook["entries"]), default=0)
    return {"decay": [tuning.decay ** k for k in range(longest + 1)],
            "rank_decay": [tuning.rank_decay ** k for k in range(tuning.entries + 1)]}


# ---------------------------------------------------------------- the index documents

def index_documents(store: Store) -> Iterator[dict[str, str]]:
    """What is indexed of each unit (its whole text) and of each of its clauses, in export order:
    the index documents, each a row of its fields by name."""
    for d in store.documents.values():
        for u in d.units:
            footnotes: dict[str, list[str]] = {}
            for f in u.footnotes:
                footnotes.setdefault(f.clause or u.clauses[0].id, []).append(f.text)
            title = u.title or ""
            yield {"doc": d.id, "unit": u.id, "clause": UNIT_LEVEL, "lang": d.lang,
                   "title": title, "body": u.text, "plain": title + "\n" + u.text}
            for c in u.clauses:
                heading = " ".join(p for p in (u.title, c.title, c.subtopic, c.term) if p)
                body = "\n".join([c.text, *(n.text for n in c.notes), *_table_text(c), *footnotes.get(c.id, [])])
                yield {"doc": d.id, "unit": u.id, "clause": c.id, "lang": d.lang,
                       "title": heading, "body": body, "plain": heading + "\n" + body}


def _table_text(c: BuiltClause) -> list[str]:
    return [" ".join(row) for t in c.tables for row in t.header + t.rows]


def _fields(rows: list[dict[str, str]], langs: tuple[str, ...], arrays: dict[str, np.ndarray]) -> list[dict[str, Any]]:
    """Per field: its terms, averages and idf in the header, its postings and lengths as arrays."""
    out = []
    for name, chain, part, lang in [("plain", PLAIN, "plain", None)] + [
            (f"{part}_{lang}", lang, part, lang) for lang in langs for part in ("title", "body")]:
        texts = [(n, r[part]) for n, r in enumerate(rows) if lang is None or r["lang"] == lang]
        out.append(_field(name, [(n, terms(chain, text)) for n, text in texts], len(rows), arrays))
    return out


def _field(name: str, analysed: list[tuple[int, list[str]]], count: int, arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    postings: dict[str, list[tuple[int, int]]] = {}
    lengths = np.zeros(count, dtype=np.uint8)
    total = 0
    for n, found in analysed:
        if found:
            lengths[n] = length_to_byte(len(found))
            total += len(found)
        for term, tf in Counter(found).items():
            postings.setdefault(term, []).append((n, tf))
    vocabulary = sorted(postings)
    offsets = np.cumsum([0] + [len(postings[t]) for t in vocabulary], dtype=np.uint32)
    arrays.update({f"{name}.offsets": offsets, f"{name}.docs": model.counts([n for t in vocabulary for n, _ in postings[t]]),
                   f"{name}.tf": model.counts([f for t in vocabulary for _, f in postings[t]]), f"{name}.lengths": lengths})
    frequencies = sorted({len(p) for p in postings.values()})
    return {"name": name, "terms": vocabulary, "average": (total / count) or 1.0,
            "idf": {str(df): math.log(count / (df + 1)) + 1 for df in frequencies}}  # whoosh's idf


def _document(d: BuiltDocument, library: Library) -> dict[str, Any]:
    """A document's metadata, as `Library.of` reads it, with what the browser asks of it."""
    keep = ("id", "lang", "kind", "edition", "cites", "cites_edition", "short", "concordances", "edition_of", "names",
            "label")
    meta = d.meta()
    out = {k: meta[k] for k in keep if meta.get(k) is not None}
    return {**out, "laws": library.is_laws(d.id), "other_game": d.id in library.ids(OTHER_GAME)}


def _lifts(store: Store, library: Library) -> dict[Key, list[Key]]:
    """Time-reference entries and norm paragraphs → the Law clauses they annotate or integrate
    (for an entry: its 2007 clause and, through the concordance, the 2017 one)."""
    out: dict[Key, list[Key]] = {}
    timerefs = library.ids(TIMEREF)
    parents = {(d, u.id, c.id): c.parent for d in timerefs for u in store.units_of(d).values() for c in u.clauses
               if c.parent}
    for c in store.citations:
        if c.source[0] in timerefs and c.where == "ref":
            targets = [*c.onward(), *([c.target] if c.resolved else [])]
        elif c.kind == "integrates" and c.resolved:
            targets = [c.target]
        else:
            continue
        found = [(t.doc, t.unit or "", t.clause or t.unit or "") for t in targets]
        out.setdefault(c.source, []).extend(found)
        situation = parents.get(c.source)
        if situation:  # the situation an entry belongs to points where its entries point
            out.setdefault((*c.source[:2], situation), []).extend(found)
    return {key: list(dict.fromkeys(targets)) for key, targets in out.items()}


# ---------------------------------------------------------------- what a hit shows

def _cards(units: dict[tuple[str, str], BuiltUnit], rows: list[dict[str, str]], editions: Editions) -> list[list[Any]]:
    """Per index document, what a hit shows of its clause (label, text, the parallel clauses in
    the other editions); a unit's whole text shows none of its own."""
    out: list[list[Any]] = []
    for r in rows:
        if r["clause"] == UNIT_LEVEL:
            out.append([None, None, None])
            continue
        unit = units[(r["doc"], r["unit"])]
        clause = next(c for c in unit.clauses if c.id == r["clause"])
        # an implied clause (27B1) has no text of its own: show its first child's
        text = clause.text or next((c.text for c in unit.clauses if c.text and c.id.startswith(clause.id)), "")
        out.append([_label(unit, clause), text, _parallel(editions, r["doc"], clause.id)])
    return out


def _label(unit: BuiltUnit, clause: BuiltClause) -> str:
    """How a hit names its clause: as its unit numbers it ("27B1(b)", a norm's paragraph by its own
    label, a time reference as written), its unit's own clause by the unit's number or title."""
    if clause.id == unit.id:
        return unit.label or unit.title or unit.id
    return unit.number(clause) or clause.id


def _parallel(editions: Editions, doc: str, clause: str) -> list[list[str]]:
    """[doc, unit, clause, label, relation, url] of each clause standing beside it in another edition."""
    return [[p.other, article_of(p.target), p.target, readable(p.target), p.relation,
             url_for(p.other, article_of(p.target), p.target)] for p in editions.of_clause(doc, clause)]


# ---------------------------------------------------------------- the phrasebook

def _phrasebook(tables: Path, library: Library, documents: list[BuiltDocument], row_of: dict[Key, int],
                arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    """Entries {id, targets [doc, unit, clause, its index document, its unit's, does it rule
    first?], title (a Law's own), names per language, url, other_game}; and each game's book
    per language (the other game's apart: each weighs its words among its own phrases)."""
    entries, phrases = sources.load(tables, library, documents)
    return compile_phrasebook(entries, phrases, [d.id for d in documents], row_of, arrays)


def compile_phrasebook(entries: list[sources.Entry], phrases: list[sources.Phrase], docs: list[str],
                       row_of: dict[Key, int], arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    number = {d: i for i, d in enumerate(docs)}

    def row(doc: str, unit: str, clause: str | None) -> int:
        found = next((row_of[k] for k in ((doc, unit, clause or unit), (doc, unit, UNIT_LEVEL)) if k in row_of), None)
        return -1 if found is None else found

    header: dict[str, Any] = {"entries": [
        {"id": e.id, "title": e.title, "names": dict(e.names), "other_game": e.other_game,
         "url": situation_url(e.id, e.page) if e.names else "", "period": e.period, "actors": list(e.actors),
         "acts": list(e.acts),
         "targets": [[number[t[0]], t[1], t[2], row(*t), row(t[0], t[1], UNIT_LEVEL), int(e.leads(i))]
                     for i, t in enumerate(e.targets)]} for e in entries]}
    arrays["entry_rank"] = model.counts(np.unique([e.id for e in entries], return_inverse=True)[1])  # ties: id order
    in_books = sorted(phrases, key=lambda p: (entries[p[0]].other_game, p[1]))  # stable: a book's side by side
    books: dict[tuple[bool, str], list[tuple[int, tuple[str, ...]]]] = {}
    for i, lang, text in in_books:
        books.setdefault((entries[i].other_game, lang), []).append((i, stems_said(lang, text)))
    header["books"], start = [], 0
    for n, ((other_game, lang), said) in enumerate(books.items()):
        header["books"].append(_book(n, lang, other_game, start, said, arrays))
        start += len(said)
    return header


def phrasebook_of(entries: list[sources.Entry], phrases: list[sources.Phrase], over: model.Model | None = None):
    """A phrasebook of these entries alone, compiled as a build compiles one, for tests and tools:
    its targets lend to the index documents of the model `over` (none without one)."""
    if over is None:
        docs, row_of, tuning = sorted({t[0] for e in entries for t in e.targets}), {}, TUNING
    else:
        docs, tuning = [d["id"] for d in over.documents], over.tuning
        row_of = {(*over.units[u], over.clause_names[c]): n
                  for n, (u, c) in enumerate(zip(over.row_unit.tolist(), over.row_clause.tolist()))}
    arrays: dict[str, np.ndarray] = {}
    header = compile_phrasebook(entries, phrases, docs, row_of, arrays)
    return Phrasebook(model.entries_of(header["entries"], docs), model.books_of(header["books"], arrays),
                      arrays["entry_rank"], tuning)


def _book(n: int, lang: str, other_game: bool, start: int, said: list[tuple[int, tuple[str, ...]]],
          arrays: dict[str, np.ndarray]) -> dict[str, Any]:
    using: dict[str, list[int]] = {}
    for p, (_, stems) in enumerate(said):
        for s in stems:
            using.setdefault(s, []).append(p)
    stems = sorted(using)
    arrays[f"book{n}.offsets"] = np.cumsum([0] + [len(using[s]) for s in stems], dtype=np.uint32)
    arrays[f"book{n}.phrases"] = model.counts([p for s in stems for p in using[s]])
    arrays[f"book{n}.entry_of"] = model.counts([i for i, _ in said])
    count = len(said)
    return {"lang": lang, "other_game": other_game, "start": start, "stems": stems,
            "idf": {str(df): math.log(1 + count / df) for df in sorted({len(v) for v in using.values()})}}


# ---------------------------------------------------------------- numbers and little words

def _numbers(documents: list[BuiltDocument], library: Library, editions: Editions) -> dict[str, Any]:
    """The documents' names, which documents a number means (in force, and all), per document
    its numbered units' clause ids with their readable labels, appendices and titles, and per
    edition of the Laws the clause standing for each clause id of another edition (the
    concordance's), for a number the named edition lacks: "13A1 del 2007" is 2007's 13D1."""
    ids = {}
    for d in documents:
        units = d.units
        ids[d.id] = {"units": {u.id: [[c.id, readable(c.id)] for c in u.clauses] for u in units
                               if u.kind in ("article", "norm")},
                     "appendix": {str(u.appendix): u.id for u in units if u.appendix},
                     "titles": {u.id: u.title or "" for u in units}}
    kinds = (LAWS, NORMS)
    langs: list[str | None] = [lang.code for lang in REGISTRY] + [None]
    names = library.names
    before, after, by_key = query.name_patterns(tuple(names)) if names else (None, None, {})
    across: dict[str, dict[str, str]] = {}
    for p in editions.links:  # the first link of a clause, in the table's order
        across.setdefault(p.other, {}).setdefault(p.clause, p.target)
    return {"named": {key: names[name] for key, name in by_key.items()}, "ids": ids, "across": across,
            "before": _js(before.pattern) if before else "", "after": _js(after.pattern) if after else "",
            "in_force": {f"{k}:{lang or ''}": list(library.in_force(k, lang)) for k in kinds for lang in langs},
            "all": {f"{k}:{lang or ''}": list(library.ids(k, lang)) for k in kinds for lang in langs},
            "pattern": _js(query.NUMBER.pattern), "two_articles": query.TWO_ARTICLES.pattern,
            "link": _js(query.LINK.pattern),
            "langs": [lang.code for lang in REGISTRY], "kinds": list(kinds)}


def _words() -> dict[str, Any]:
    """The query's little words, the language cues and the folding tables (the browser's copy
    of what kb.search.analysis, query and bids define)."""
    return {"shared_stop": sorted(SHARED_STOPWORDS), "question": sorted(query.QUESTION_WORDS),
            "own_stop": {k: sorted(v) for k, v in query.OWN_STOPWORDS.items()},
            "stop": {lang: sorted(STOPWORDS[lang]) for lang in LANGS},
            "intents": [[name, _js_words(cues.pattern)] for name, cues in query.INTENTS],  # the first that says it wins
            "bids": {"bid": _js_words(bids.BID.pattern), "over": _js_words(bids.OVER.pattern),
                     "meant": _js_words(bids.MEANT.pattern), "denominations": bids.DENOMINATIONS,
                     "names": {lang.code: lang.insufficient_bid for lang in REGISTRY if lang.insufficient_bid}},
            "numbers": NUMBERS, "accents": {str(k): v for k, v in sorted(ACCENT_MAP.items())},
            "combining": combining_ranges(), "word": word_ranges(), "control": control_ranges(),
            "digit": digit_ranges(), "max_query_chars": query.MAX_QUERY_CHARS}


def _js(pattern: str) -> str:
    """A Python pattern as JavaScript reads it (named groups are spelled differently)."""
    return pattern.replace("(?P<", "(?<")


_WORD = r"[\p{L}\p{N}_]"
_BOUNDARY = rf"(?:(?<={_WORD})(?!{_WORD})|(?<!{_WORD})(?={_WORD}))"


def _js_words(pattern: str) -> str:
    """A Python pattern of words as JavaScript reads it with the `u` flag: a word boundary and a
    word character there know only ASCII letters ("cos'è" would never end a word, "señal" be one
    word), so they are spelled out."""
    return re.sub(r"(?<!\\)\\w", lambda _: _WORD, re.sub(r"(?<!\\)\\b", lambda _: _BOUNDARY, _js(pattern)))
