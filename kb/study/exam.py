"""The mock exam's questions (issue 32), compiled once per build from the knowledge base: what
the Scuola Arbitrale examines, each question with its period of the board, its right answer, the
answers also right, and distractors of its own kind.

- `situation`: a situation of the index → the clause of the Laws in force that rules it first
  (its other ruling clauses are right too);
- `norm`: a situation whose ruling in Italy a FIGB norm fixes (its `lead`) → that norm;
- `timeref`: a situation of the referees' time-reference table (topic and subtopic) → the clause
  of the Laws in force its entry cites (the table cites the 2007 numbering: the export's
  `target_2017` reading of the entry's reference; every entry of the subtopic is right);
- `definition`: a definition of the Laws, its term left out → the term.

Distractors are the same kind of answer and close to the right one: clauses of other Laws that
rule situations of the same period, nearest Laws first; the norms nearest in number; the
definitions that share most words. The browser draws, times and grades an exam from these
(web/static/exam.js); nothing here is random, so the same build compiles the same questions.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Iterator

from ..records.built import BuiltClause, BuiltUnit
from ..records.clauseid import ClauseId, readable
from ..corpus.library import TIMEREF
from ..corpus.situations import Situation
from ..common.text import fold_accents
from ..corpus.urls import url_for

KINDS = ("situation", "timeref", "norm", "definition")
# How much of an exam each kind takes: situations are what the exam asks most ("which Law
# applies, what is the rectification"); definitions have no period of the board.
SHARES = {"situation": 0.4, "timeref": 0.25, "norm": 0.15, "definition": 0.2}
SIZES, SIZE = (10, 20, 40), 20  # questions an exam may have; the one offered first
# Seconds per question, the whole exam's countdown: a question is one line to read and four
# labels to choose from (a typed clause, a few keys more), as in the timed multiple-choice theory
# tests of a driving licence (Italy's: 30 questions in 20 minutes, 40 s each); 5 s more for the
# situations told in a long line and the time-reference entries read in Italian by a Spanish reader.
SECONDS = 45
DISTRACTORS = 6  # per question: the browser shows three of them, drawn at random
WORD = re.compile(r"\w{5,}")  # the words a definition is compared by (shorter ones are mostly grammar)


@dataclass(frozen=True)
class Target:
    """What a question is answered by, or shows when graded: a clause of the Laws, a norm, an
    appendix, a norm's paragraph, a time-reference entry, a defined term."""
    key: str         # "it-laws/27#27B1b", "it-norms/8", "it-laws/def-alert"
    doc: str
    unit: str
    clause: str | None
    form: str        # clause | norm | appendix | paragraph | entry | term
    label: str       # "27B1(b)"; a norm's number, "92-93"; an appendix's, "3"; "3b2"; "53C"; the term
    url: str
    law: str = ""    # the Law (or norm) it is of: "27", "92-93"; "" for an appendix or a term
    match: tuple[str, ...] = ()  # what a typed answer naming it reads as (search.js numberQuery)
    title: str = ""  # a norm's, an appendix's or a paragraph's title; an entry's subtopic
    text: str = ""   # shown once graded (only where it is an answer or shown)
    lang: str = ""   # the language of its label, title and text

    def to_dict(self) -> dict[str, Any]:
        out = {"doc": self.doc, "unit": self.unit, "clause": self.clause, "form": self.form, "label": self.label,
               "url": self.url, "law": self.law, "match": list(self.match), "lang": self.lang}
        return out | {k: v for k, v in (("title", self.title), ("text", self.text)) if v}


@dataclass(frozen=True)
class Question:
    id: str          # stable across builds: "situation:late-arrival", "timeref:appello:1"
    kind: str        # one of KINDS
    period: str      # the board's period (corpus/clock.tsv); "" for a definition
    ask: tuple[tuple[str, str], ...]  # (language, the question said in it)
    answer: str      # a target's key
    accepted: tuple[str, ...] = ()     # the other targets that are right too
    distractors: tuple[str, ...] = ()  # targets of the same kind, none of them right
    shows: tuple[str, ...] = ()        # targets whose text the grade shows too (the table's entries)
    about: str = ""  # the situation it asks about (an exam asks about each once)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "period": self.period, "ask": dict(self.ask),
                "answer": self.answer, "accepted": list(self.accepted), "distractors": list(self.distractors),
                "shows": list(self.shows), "about": self.about}


@dataclass(frozen=True)
class Exam:
    periods: tuple[str, ...]
    questions: tuple[Question, ...]
    targets: dict[str, Target] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"kinds": list(KINDS), "shares": SHARES, "periods": list(self.periods),
                "questions": [q.to_dict() for q in self.questions],
                "targets": {k: t.to_dict() for k, t in sorted(self.targets.items())}}


def compile_exam(kb: Any) -> Exam:
    """Every question of every kind, in KINDS order, then in the texts' order."""
    targets = Targets(kb)
    periods = tuple(row["period"] for row in kb.clock)
    questions = (*situation_questions(kb, targets), *timeref_questions(kb, targets),
                 *norm_questions(kb, targets), *definition_questions(kb, targets))
    return Exam(periods, questions, targets.used(questions))


# ---------------------------------------------------------------- targets
class Targets:
    """The build's targets by key, made as questions ask for them."""

    def __init__(self, kb: Any):
        self.store, self.library, self.made = kb.store, kb.library, {}
        self.cuts: dict[tuple[str, int], Target] = {}

    def get(self, doc: str, unit: str, clause: str | None = None, shown: bool = False) -> Target:
        key = url_for(doc, unit, clause).lstrip("/")
        had = self.made.get(key)
        if had is None or (shown and not had.text):
            had = self.made[key] = self._make(key, doc, unit, clause, shown)
        return had

    def _make(self, key: str, doc: str, unit: str, clause: str | None, shown: bool) -> Target:
        u, lang = self.store.unit(doc, unit), self.library.lang(doc) or ""
        text = ruling_text(u, clause or unit) if shown else ""
        url = url_for(doc, unit, clause)
        if u.numbered:
            cid = clause or unit
            return Target(key, doc, unit, clause, "clause", readable(cid), url, unit, (cid,), text=text, lang=lang)
        if u.kind == "definition":
            return Target(key, doc, unit, None, "term", u.title or "", url, text=text, lang=lang)
        if clause and clause != unit:
            return self._part(key, doc, u, clause, url, text, lang)
        return _norm(key, doc, u, url, text, lang)

    def _part(self, key: str, doc: str, u: BuiltUnit, clause: str, url: str, text: str, lang: str) -> Target:
        c = next(c for c in u.clauses if c.id == clause)
        if c.kind == "entry":  # a time-reference entry: its reference as the table writes it
            return Target(key, doc, u.id, clause, "entry", c.ref or "", url, title=c.subtopic or "",
                          text=text, lang=lang)
        within = _norm(key, doc, u, url, "", lang)  # a paragraph is named by its norm's or appendix's number
        return Target(key, doc, u.id, clause, "paragraph", own_label(c.label or ""), url, within.law,
                      within.match, c.title or "", text, lang)

    def used(self, questions: Iterable[Question]) -> dict[str, Target]:
        keys = {k for q in questions for k in (q.answer, *q.accepted, *q.distractors, *q.shows)}
        return {k: self.made[k] for k in keys}


def _norm(key: str, doc: str, u: BuiltUnit, url: str, text: str, lang: str) -> Target:
    """A norm keyed to a Law (typed as its number, either of a range's: "92" or "93"), or an appendix."""
    if u.kind == "appendix":
        n = str(u.appendix or u.id)
        return Target(key, doc, u.id, None, "appendix", n, url, match=(f"a:{n}",), title=u.title or "",
                      text=text, lang=lang)
    return Target(key, doc, u.id, None, "norm", u.id, url, u.id, tuple(f"n:{n}" for n in u.id.split("-")),
                  u.title or "", text, lang)


def own_label(label: str) -> str:
    """A paragraph's number as the norms print it, without its punctuation: "3." "2)" "(a)" → "3" "2" "a"."""
    return re.sub(r"^\(?(\w+)[.)]?$", r"\1", label.strip())


def ruling_text(unit: BuiltUnit, clause: str) -> str:
    """What a clause rules, whole: its text with all its items; an item that ends on ":" (one of
    two alternatives, "… oppure:"), with the stem and the list it belongs to."""
    text = subtree_text(unit, clause)
    found = unit.clause(clause)
    parent = found.parent if found else None
    if text.rstrip().endswith(":") and parent and parent != unit.id:
        return ruling_text(unit, parent)
    return text


def subtree_text(unit: BuiltUnit, clause: str) -> str:
    """A clause's text with all its items, in the text's order (a stem and its list, whole)."""
    inside, parts = {clause}, []
    for c in unit.clauses:  # a parent is listed before its clauses
        if c.id == clause or c.parent in inside:
            inside.add(c.id)
            parts += [p for p in (c.title if c.id != unit.id else "", c.text) if p]
    return "\n".join(parts)


# ---------------------------------------------------------------- situations → Law, and → norm
def ruling(kb: Any, s: Situation) -> list[tuple[str, str, str | None]]:
    """A situation's ruling clauses in the Laws in force, most important first."""
    return [t for t in s.laws if t[0] == kb.library.laws_in_force]


def situation_questions(kb: Any, targets: Targets) -> Iterator[Question]:
    asked = [(s, [targets.get(*t) for t in ruling(kb, s)]) for s in kb.situations]
    asked = [(s, rules) for s, rules in asked if rules]
    pool = list(dict.fromkeys((s.period, rules[0]) for s, rules in asked))  # each situation's first clause
    for s, rules in asked:
        answer = targets.get(*ruling(kb, s)[0], shown=True)
        yield Question(f"situation:{s.id}", "situation", s.period, _says(s), answer.key,
                       tuple(r.key for r in rules[1:]), near_clauses(targets, pool, s.period, rules), about=s.id)


def _says(s: Situation) -> tuple[tuple[str, str], ...]:
    return tuple((lang, phrases[0]) for lang, phrases in s.says if phrases)


def near_clauses(targets: Targets, pool: list[tuple[str, Target]], period: str, right: list[Target]) -> tuple[str, ...]:
    """One clause of each other Law of the pool, cut to the depth of the right one (a Law for a
    Law, a section for a section: no option stands out by its shape): those of that depth first,
    then those of the same period, then by how far their Law is from the right one's; the
    nearest DISTRACTORS."""
    laws, answer = {t.law for t in right}, right[0]
    depth = _depth(answer.match[0])
    best: dict[str, tuple[tuple[int, bool, int, str], str]] = {}
    for p, t in pool:
        if t.law in laws:
            continue
        cut = targets.cuts.get((t.key, depth))
        if cut is None:
            cut = targets.cuts[(t.key, depth)] = _cut(targets, t, depth)
        rank = (abs(_depth(cut.match[0]) - depth), p != period, abs(int(t.law) - int(answer.law)), cut.key)
        if t.law not in best or rank < best[t.law][0]:
            best[t.law] = (rank, cut.key)
    return tuple(key for _, key in sorted(best.values())[:DISTRACTORS])


@lru_cache(maxsize=None)
def _depth(clause: str) -> int:
    """How many parts a Law clause's id has: 27 → 1, 27B → 2, 27B1 → 3, 27B1b → 4."""
    cid = ClauseId.parse(clause)
    return sum(1 for part in (cid.art, cid.sec, cid.num, cid.item, cid.roman) if part) if cid else 1


def _cut(targets: Targets, t: Target, depth: int) -> Target:
    """A Law clause cut to `depth` parts (where that clause exists), else as it is."""
    cid = ClauseId.parse(t.match[0])
    if cid is None or _depth(t.match[0]) <= depth:
        return t
    parts = (cid.art, cid.sec, cid.num, cid.item, cid.roman)[:depth]
    shorter = "".join(p for p in parts if p)
    known = {c.id for c in targets.store.unit(t.doc, t.unit).clauses}
    if shorter == t.unit:
        return targets.get(t.doc, t.unit)
    return targets.get(t.doc, t.unit, shorter) if shorter in known else t


def norm_questions(kb: Any, targets: Targets) -> Iterator[Question]:
    """The situations a FIGB norm rules first in Italy → that norm (its paragraph shown)."""
    led = [s for s in kb.situations if s.lead]
    periods: dict[tuple[str, str], set[str]] = {}  # each norm → the periods of the situations it leads
    for s in led:
        periods.setdefault(s.lead[:2], set()).add(s.period)
    for s in led:
        doc, unit, clause = s.lead
        answer, shown = targets.get(doc, unit), targets.get(doc, unit, clause, shown=True)
        yield Question(f"norm:{s.id}", "norm", s.period, _says(s), answer.key,
                       distractors=near_norms(kb, targets, answer, s.period, periods),
                       shows=(shown.key,) if shown.key != answer.key else (), about=s.id)


def near_norms(kb: Any, targets: Targets, answer: Target, period: str,
               periods: dict[tuple[str, str], set[str]]) -> tuple[str, ...]:
    """The other norms and appendices of its document: those that lead situations of the same
    period first, then the nearest in number; the nearest DISTRACTORS."""
    others = [targets.get(answer.doc, u.id) for u in kb.store.doc(answer.doc).units
              if u.kind in ("norm", "appendix") and u.id != answer.unit]
    near = sorted(others, key=lambda t: (period not in periods.get((t.doc, t.unit), ()),
                                         abs(_place(t) - _place(answer)), t.key))
    return tuple(t.key for t in near[:DISTRACTORS])


def _place(norm: Target) -> int:
    """Where a norm sits among the others: by its Law's number; the appendices after, by theirs."""
    return 100 + int(norm.label) if norm.form == "appendix" else int(norm.unit.split("-")[0])


# ---------------------------------------------------------------- the time-reference table
def timeref_questions(kb: Any, targets: Targets) -> Iterator[Question]:
    """Each subtopic of the table (a situation, under its topic) → the clauses of the Laws in
    force its entries cite, the first of them the answer."""
    period_of, asked = _topic_periods(kb), list(_cited_subtopics(kb))
    pool = list(dict.fromkeys((period_of.get(u.id, ""), targets.get(*rules[0])) for _, u, _, _, rules in asked))
    for doc, u, index, entries, rules in asked:
        right = [targets.get(*r) for r in dict.fromkeys(rules)]
        answer, period = targets.get(*rules[0], shown=True), period_of.get(u.id, "")
        yield Question(f"timeref:{u.id}:{index}", "timeref", period,
                       ((kb.library.lang(doc) or "", f"{u.title} — {entries[0].subtopic}"),), answer.key,
                       tuple(r.key for r in right[1:]), near_clauses(targets, pool, period, right),
                       tuple(targets.get(doc, u.id, c.id, shown=True).key for c in entries))


def _cited_subtopics(kb: Any) -> Iterator[tuple[str, BuiltUnit, int, list[BuiltClause], list[Any]]]:
    """(document, topic, subtopic's number, its entries, the clauses they cite) for each subtopic
    of the table whose entries cite a Law."""
    cited = _cited_2017(kb)
    for doc in kb.library.ids(TIMEREF):
        for u in kb.store.doc(doc).units:
            for index, entries in _subtopics(u):
                rules = [cited[(doc, c.id)] for c in entries if (doc, c.id) in cited]
                if rules:
                    yield doc, u, index, entries, rules


def _subtopics(unit: BuiltUnit) -> Iterator[tuple[int, list[BuiltClause]]]:
    """A topic's subtopics (by the number the profile gives each, `subtopic_index`), each with its entries."""
    by_index: dict[int, list[BuiltClause]] = {}
    for c in unit.clauses:
        if c.kind == "entry" and c.subtopic:
            by_index.setdefault(c.subtopic_index, []).append(c)
    return iter(by_index.items())


def _cited_2017(kb: Any) -> dict[tuple[str, str], tuple[str, str | None, str | None]]:
    """Each time-reference entry → the clause of the Laws in force its reference reads as."""
    out = {}
    for c in kb.store.citations:
        (doc, _unit, clause), t = c.source, c.target_2017
        if c.where == "ref" and t and kb.library.kind(doc) == TIMEREF:
            out[(doc, clause)] = (t.doc, t.unit, t.clause)
    return out


def _topic_periods(kb: Any) -> dict[str, str]:
    """Each time-reference topic → the first period of the board's clock that lists it."""
    out: dict[str, str] = {}
    for row in kb.clock:
        for topic in (t.strip() for t in row["topics"].split(",")):
            out.setdefault(topic, row["period"])
    return out


# ---------------------------------------------------------------- definitions
def definition_questions(kb: Any, targets: Targets) -> Iterator[Question]:
    """Each definition of the Laws in force that says something (not "see X"), its term left
    out → the term; the distractors, the terms whose definitions share most words with it."""
    doc = kb.library.laws_in_force
    defined = [(u, subtree_text(u, u.id)) for u in kb.store.doc(doc).units if u.kind == "definition"]
    defined = [(u, text) for u, text in defined if text and not fold_accents(text.lower()).startswith("vedi ")]
    words = {u.id: _words(text) - _words(u.title or "") for u, text in defined}
    for u, text in defined:
        mine = words[u.id]
        near = sorted((-len(mine & words[o.id]), o.id) for o, _ in defined if o.id != u.id)
        answer = targets.get(doc, u.id, shown=True)
        yield Question(f"definition:{u.id}", "definition", "", ((kb.library.lang(doc) or "", masked(text, u.title or "")),),
                       answer.key, distractors=tuple(targets.get(doc, o).key for _, o in near[:DISTRACTORS]))


def _words(text: str) -> set[str]:
    return set(WORD.findall(fold_accents(text.lower())))


def masked(text: str, term: str) -> str:
    """The definition with its term left out, wherever it is written."""
    return re.sub(rf"\b{re.escape(term)}\b", "…", text, flags=re.I)
