"""The search index a browser reads offline (`web/static/search.js`), made from a build's engine.

What the server computes per query from the whoosh index, the browser cannot: so the build
writes what it needs, computed by the same code. Every term's BM25 scores per clause, as the
server's Scorer gives them; every word a query may use, with its stems in each language (the
Snowball stemmers run here, once, not in the browser); the glossary's and the thesaurus's
phrases with the stems they add; the phrasebook's phrases as stems, with their targets; the
units, their clauses' numbers, the documents' names and the number grammar; the lifts and the
ranking's weights. The browser then plans, scores and ranks as the engine does, more simply:
no cognates, a fuzzy match only for words the texts lack. Written as one JSON file per build.
"""
from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

from ..languages import REGISTRY
from ..library import LAWS, NORMS, OTHER_GAME
from ..urls import situation_url, url_for
from . import bids, engine as e, query, ranking, told
from .analysis import ANALYZERS, SHARED_STOPWORDS, STOPWORDS, WORD, terms
from .glossary import SIDES, light
from .index import UNIT_LEVEL
from .phrasebook import MIN_MATCH, NUMBERS, PHRASE_SHARE, STORY_SIZE, VERBATIM
from .query import OWN_STOPWORDS, QUESTION_WORDS

FORMAT = 1
SNIPPET_CHARS = 400   # of each clause's text: enough for the snippet around a first match
DIGITS = 3            # decimals kept of a score


def write_browser_index(gen: Path, target: Path) -> None:
    """The generation's browser index, gzipped (what the server sends), from its own engine."""
    from ..knowledge import KnowledgeBase
    data = json.dumps(browser_index(KnowledgeBase(gen).engine, gen.name), ensure_ascii=False, separators=(",", ":"))
    target.write_bytes(gzip.compress(data.encode("utf-8"), compresslevel=9, mtime=0))


def browser_index(engine: Any, build: str) -> dict[str, Any]:
    """Everything the browser's search reads, as JSON-ready data."""
    library = engine.library
    docs = [d["id"] for d in engine.store.export["documents"]]
    units, unit_number = _units(engine, docs)
    return {
        "format": FORMAT, "build": build, "langs": list(engine.langs),
        "docs": [{"id": d, "lang": library.lang(d), "kind": library.get(d).kind} for d in docs],
        "units": units,
        "clauses": _clauses(engine, unit_number),
        "terms": _terms(engine),
        "forms": _forms(engine),
        "words": _words(),
        "expansions": _expansions(engine),
        "phrasebook": _phrasebook(engine),
        "numbers": _numbers(engine, docs),
        "lifts": [[src, unit_number[t[:2]], t[2]] for key, targets in engine.lifts.items()
                  if (src := engine.docnum.get(key)) is not None for t in targets if t[:2] in unit_number],
        "parallel": [[unit_number[(d, u)], unit_number[(o, u)]] for (d, u), kind in engine.unit_kind.items()
                     if kind == "article" for o in library.counterparts(d) if (o, u) in unit_number],
        "other_game": list(library.ids(OTHER_GAME)),
        "other_game_names": sorted(engine.other_game_names),
        "weights": _weights(),
    }


def _units(engine: Any, docs: list[str]) -> tuple[list[list[Any]], dict[tuple[str, str], int]]:
    """[doc number, unit id, kind, title] per unit, in the ranker's order (its tie-break)."""
    order = {d: i for i, d in enumerate(docs)}
    keys = engine.ranker.units
    rows = [[order[d], u, engine.unit_kind[(d, u)], engine.store.unit(d, u).get("title") or ""] for d, u in keys]
    return rows, {k: i for i, k in enumerate(keys)}


def _clauses(engine: Any, unit_number: dict[tuple[str, str], int]) -> list[list[Any]]:
    """Per index document: [unit number, clause id ("*": the whole unit), label, url, text]."""
    out = []
    for n in range(engine.scorer.doc_count):
        doc, unit, clause = (str(engine.columns[k][n]) for k in ("doc", "unit", "clause"))
        u = engine.store.unit(doc, unit)
        c = next((c for c in u["clauses"] if c["id"] == clause), u["clauses"][0])
        text = c["text"] or next((x["text"] for x in u["clauses"] if x["text"] and x["id"].startswith(c["id"])), "")
        out.append([unit_number[(doc, unit)], clause, engine.label(doc, u, c), url_for(doc, unit, c["id"]),
                    text[:SNIPPET_CHARS]])
    return out


def _terms(engine: Any) -> dict[str, list[list[float]]]:
    """"p:word" (the plain field, unboosted) and "lang:stem" (title × its boost + body) →
    [document numbers (each the gap from the previous), scores]."""
    out: dict[str, list[list[float]]] = {}
    scorer = engine.scorer
    for word in scorer.vocabulary:
        out["p:" + word] = _postings([scorer.term("plain", word)])
    for lang in engine.langs:
        stems = scorer.lexicon[f"title_{lang}"] | scorer.lexicon[f"body_{lang}"]
        for s in sorted(stems):
            out[f"{lang}:{s}"] = _postings([scorer.term(f"title_{lang}", s, query.TITLE_BOOST),
                                            scorer.term(f"body_{lang}", s)])
    return out


def _postings(lists: list[Any]) -> list[list[float]]:
    summed: dict[int, float] = {}
    for docs, scores in lists:
        for d, s in zip(docs.tolist(), scores.tolist()):
            summed[d] = summed.get(d, 0.0) + s
    gaps, values, last = [], [], 0
    for d in sorted(summed):
        gaps.append(d - last)
        values.append(round(summed[d], DIGITS))
        last = d
    return [gaps, values]


def _forms(engine: Any) -> dict[str, list[str]]:
    """Every word the texts, the phrasebook and the glossary know → its stem per language of
    `ANALYZERS` (in that order; "" when a stop word there)."""
    words = set(engine.scorer.vocabulary)
    for lang, text in _phrases_of(engine):
        words.update(WORD.findall(query.fold(text)))
    for pair in engine.glossary.pairs if engine.glossary else ():
        words.update(WORD.findall(query.fold(" ".join((pair.it, pair.es, *pair.also)))))
    langs = list(ANALYZERS)
    return {w: [(terms(ANALYZERS[lang], w) or [""])[0] for lang in langs] for w in sorted(words) if not w.isdigit()}


def _phrases_of(engine: Any) -> list[tuple[str, str]]:
    return [(lang, text) for _, lang, text, _ in engine.phrasebook.phrases]


def _words() -> dict[str, Any]:
    """The query's little words and the language cues (the plan's own tables and patterns)."""
    return {"analyzers": list(ANALYZERS), "shared_stop": sorted(SHARED_STOPWORDS),
            "question": sorted(QUESTION_WORDS), "own_stop": {k: sorted(v) for k, v in OWN_STOPWORDS.items()},
            "stop": {lang: sorted(STOPWORDS[lang]) for lang in ANALYZERS},
            "intents": [[name, _js_words(cues.pattern)] for name, cues in query.INTENTS],  # the first that says it wins
            "bids": {"bid": _js_words(bids.BID.pattern), "over": _js_words(bids.OVER.pattern),
                     "meant": _js_words(bids.MEANT.pattern), "denominations": bids.DENOMINATIONS,
                     "names": {lang.code: lang.insufficient_bid for lang in REGISTRY if lang.insufficient_bid}}}


def _expansions(engine: Any) -> list[list[Any]]:
    """Glossary and thesaurus: [language, its phrase's light words, any order?, {lang: stems added}]."""
    out = []
    if engine.glossary:
        for pair in engine.glossary.pairs:
            stems = {lang: _stems(lang, pair.side(lang)) for lang in SIDES if lang in engine.langs}
            for lang in SIDES:
                other = {k: v for k, v in stems.items() if k != lang}
                out.append([list(light(pair.side(lang))), False, other])
            for name in pair.also:
                out.append([list(light(name)), False, stems])
    if engine.thesaurus:
        for lang, phrase, targets in engine.thesaurus.rows:
            if lang in engine.langs:
                out.append([list(light(phrase)), True, {lang: [s for t in targets for s in _stems(lang, t)]}])
    return [row for row in out if row[0]]


def _stems(lang: str, text: str) -> list[str]:
    return terms(ANALYZERS[lang], text)


def _phrasebook(engine: Any) -> dict[str, Any]:
    """Entries {id, targets [document number, clause's index document, unit's (-1: none), does
    it rule first?], title (a Law's own), names per language, other_game (Burraco's: its own
    book)} and per language its phrases [entry, stems space-separated]; the number words per
    language, read as digits."""
    docs = {d["id"]: i for i, d in enumerate(engine.store.export["documents"])}
    entries = [{"id": e.id, "title": e.title, "names": dict(e.names), "url": situation_url(e.id) if e.names else "",
                "other_game": e.other_game,
                "targets": [[docs[t[0]], _docnum(engine, t), _docnum(engine, (*t[:2], UNIT_LEVEL)), int(e.leads(i))]
                            for i, t in enumerate(e.targets)]} for e in engine.phrasebook.entries]
    phrases: dict[str, list[list[Any]]] = {}
    for i, lang, _, stems in engine.phrasebook.phrases:
        phrases.setdefault(lang, []).append([i, " ".join(sorted(stems))])
    return {"entries": entries, "phrases": phrases, "numbers": NUMBERS}


def _docnum(engine: Any, key: tuple[str, str, Any]) -> int:
    n = engine._docnum_of(key)
    return -1 if n is None else n


def _numbers(engine: Any, docs: list[str]) -> dict[str, Any]:
    """The number grammar (the plan's own pattern), the documents' names, which documents a
    number means, and per document its numbered units' clause ids."""
    library = engine.library
    ids = {}
    for d in docs:
        units = engine.store.units_of(d)
        ids[d] = {"units": {uid: [c["id"] for c in u["clauses"]] for uid, u in units.items()
                            if u["kind"] in ("article", "norm")},
                  "appendix": {str(u["appendix"]): uid for uid, u in units.items() if u.get("appendix")},
                  "titles": {uid: u.get("title") or "" for uid, u in units.items()}}
    wants = {f"{kind}:{lang.code}": list(library.in_force(kind, lang.code)) for kind in (LAWS, NORMS)
             for lang in REGISTRY}
    wants.update({f"{kind}:": list(library.in_force(kind, None)) for kind in (LAWS, NORMS)})
    return {"pattern": _js(query._NUMBER.pattern), "langs": [lang.code for lang in REGISTRY],
            "names": {query.fold(k): v for k, v in library.names.items()}, "of": _js(query._OF),
            "wants": wants, "ids": ids, "laws": list(library.laws)}


def _weights() -> dict[str, Any]:
    """The engine's and the ranker's constants, read where they are defined."""
    return {name.lower(): value for name, value in {
        "COORD_BASE": e.COORD_BASE, "UI_PREFERENCE": e.UI_PREFERENCE, "QUERY_PREFERENCE": e.QUERY_PREFERENCE,
        "WEAK_SCORE": e.WEAK_SCORE, "OTHER_GAME_SHARE": e.OTHER_GAME_SHARE, "BRIDGE_SHARE": e.BRIDGE_SHARE,
        "GAME_WORD_MIN": e.GAME_WORD_MIN, "GAME_WORD_DOCS": e.GAME_WORD_DOCS,
        "PLAIN_BOOST": query.PLAIN_BOOST, "PREFIX_BOOST": query.PREFIX_BOOST, "PREFIX_MIN": query.PREFIX_MIN,
        "FUZZY_BOOST": query.FUZZY_BOOST, "EXPANSION_BOOST": query.EXPANSION_BOOST, "MAX_WORDS": query.MAX_WORDS,
        "KIND_WEIGHT": ranking.KIND_WEIGHT, "OTHER_GAME_WEIGHT": ranking.OTHER_GAME_WEIGHT,
        "SECOND_CLAUSE_WEIGHT": ranking.SECOND_CLAUSE_WEIGHT, "UNIT_WEIGHT": ranking.UNIT_WEIGHT,
        "PARALLEL_LIFT": ranking.PARALLEL_LIFT, "LINK_LIFT": ranking.LINK_LIFT,
        "INTENT_BOOST": ranking.INTENT_BOOST, "INTENT_DEMOTE": ranking.INTENT_DEMOTE,
        "ENTRIES": told.ENTRIES, "NAME_WEIGHT": told.NAME_WEIGHT, "STORY_WORDS": told.STORY_WORDS,
        "STORY_WEIGHT": told.STORY_WEIGHT, "NAME_MIN": told.NAME_MIN, "NOT_LEAD": told.NOT_LEAD, "DECAY": told.DECAY,
        "RANK_DECAY": told.RANK_DECAY, "SHOWN": told.SHOWN, "MIN_MATCH": MIN_MATCH, "VERBATIM": VERBATIM,
        "STORY_SIZE": STORY_SIZE, "PHRASE_SHARE": PHRASE_SHARE,
    }.items()}


def _js(pattern: str) -> str:
    """A Python pattern as JavaScript reads it (named groups are spelled differently)."""
    return pattern.replace("(?P<", "(?<")


_WORD = r"[\p{L}\p{N}_]"
_BOUNDARY = rf"(?:(?<={_WORD})(?!{_WORD})|(?<!{_WORD})(?={_WORD}))"


def _js_words(pattern: str) -> str:
    """A Python pattern of words as JavaScript reads it with the `u` flag: a word boundary
    there knows only ASCII letters ("cos'è" would never end a word), so it is spelled out."""
    return re.sub(r"(?<!\\)\\b", lambda _: _BOUNDARY, _js(pattern))
