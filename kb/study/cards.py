"""Study cards for arbiter students, made from the knowledge base itself: the Laws' definitions
(term → definition), the time references (situation → time limit and clause), the Laws' numbers
and titles (in each edition), and the situation index (situation → the clauses that rule it).

The same sources feed the Anki decks (`kb anki`) and the site's drills (`/study`): each card has
a stable id (the same card in the next build keeps it: its deck, document, unit and clause, or
its situation), a question, the passages that answer it, the language its text is in, and the
page that answers it. A passage is a clause as published, quoted whole (`ruling`: its items
with it; an item of a list, a stem ending on ":", with the whole list), named with its edition
in the reader's language ("Codice 2017, Art. 27B1(b)").

A situation is answered by its ruling text: the norm that fixes the ruling in Italy first where
the index names one (its `lead`), then every Law clause the index names for it (a clause
another quoted one holds, once), then the other norms the index names for it (`also`). A question whose words the source prints in another language
than the reader's quotes them, labelled, in a frame in the reader's. `cards(sources)` are the
drills': every situation in every language, answered from the Laws in force. `cards(sources, reader)`
are the package of a reader of that interface language: its situations, each answered from the
edition of the Laws in its language where the rule is there (the Spanish reader's: 2007, with
what 2017 changed in it, from the concordance), else from the Laws in force; a text in another
language than the reader's says which (the law texts are never translated).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..corpus.catalogs import LOCALES, translations
from ..corpus.catalogs import marked_for_translation as _  # scripts/update_catalogs.py reads this file too
from ..records.clauseid import article_of, readable
from ..editions.concordance import Concordance, Concordances, Row, ancestors, carry, first_concordance, note_in, read_tsv
from ..editions.pairs import Editions
from ..corpus.situations import Situation, load as load_situations
from ..search.glossary import Glossary
from ..corpus.languages import BY_CODE
from ..corpus.library import LAWS, NORMS, TIMEREF, Library
from ..search.entries import TERM_COLUMNS, TERMS_TABLE, TITLE_COLUMNS
from ..citations.style import clause_name
from ..records.built import BuiltClause, BuiltUnit
from ..records.reading import clause_blocks
from ..records.store import Store
from ..corpus.urls import url_for

DECKS = ("definitions", "timerefs", "titles", "situations")


SUITE = _("Bridge Laws")  # what the decks are filed under
DECK_NAMES = {"definitions": _("Definitions"), "timerefs": _("Time limits"), "titles": _("Law titles"),
              "situations": _("Situations")}
PUBLISHED_IN = {"it": _("text in Italian"), "es": _("text in Spanish")}  # said where it is not the reader's
RELATIONS = {"moved": _("moved"), "split": _("split"), "merged": _("merged"), "changed": _("changed")}
NEW_IN, REMOVED_IN = _("new in %(edition)s"), _("removed in %(edition)s")
# A question whose source words are in another language than the reader's quotes them, labelled
# (`published`), inside a frame in the reader's: a defined term by its name in the reader's
# language where a table pairs one (glossary.tsv, tuning/terms-en.tsv), a time reference by its
# Law's title there (the reader's edition of the Laws, or law-titles.tsv: the WBF's English).
TERM_ASKED, TERM_QUOTED = _("%(term)s (%(published)s: “%(own)s”)"), _("The term “%(own)s” (%(published)s)")
TIME_ASKED, TIME_QUOTED = _("Time limit — %(law)s: “%(topic)s” (%(published)s)"), _("Time limit: “%(topic)s” (%(published)s)")
CORRECTED = _("The source prints %(written)s, read as %(clause)s")  # a reference the source gets wrong
ALSO_IN_ITALY = _("In Italy (FIGB), also:")  # the other norms that rule a situation
JOINED = re.compile(r"(?:^|[\s;,])(?:o|oppure|ovvero|e|ed|y|u|or|and)[:;,]?$")  # "…; o", "…, oppure": more follows

Key = tuple[str, str, "str | None"]  # (doc, unit, clause), as the situation index names a target


@dataclass(frozen=True)
class Line:
    """A clause of a passage: its label ("" for the passage's own clause, which its citation
    names), how deep it sits under the passage's clause, and the clause as the store holds it (a
    Law's title, a clause of its own made of it)."""
    clause: BuiltClause
    label: str = ""
    depth: int = 0

    @property
    def text(self) -> str:
        said = [b.text for b in clause_blocks(self.clause) if b.text]
        return " ".join([self.label, *said] if self.label else said)


@dataclass(frozen=True)
class Passage:
    """A text a card quotes, as published, and how its reader cites it."""
    doc: str
    unit: str
    clause: str | None        # None: the whole unit
    cite: str                 # named with its edition, in the reader's language
    lang: str                 # the language it is published in
    lines: tuple[Line, ...]
    published: str = ""       # its language, named in the reader's, when it is not the reader's
    changes: tuple[str, ...] = ()  # what the next edition made of it, in the reader's language
    refs: tuple[tuple[str, str], ...] = ()  # the Law clauses it names as its reference (a time
    # reference's): (target, citation)
    corrected: tuple[str, ...] = ()  # the references of it the source gets wrong, as read, in the reader's language
    section: str = ""  # a heading it opens, in the reader's language ("In Italia (FIGB), inoltre:")

    @property
    def heading(self) -> str:
        """Its citation, then the clauses it refers to: "Riferimenti temporali 2011 — Reglamento 2007, Art. 54A"."""
        return " — ".join([self.cite, " · ".join(c for _t, c in self.refs)] if self.refs else [self.cite])

    @property
    def citations(self) -> tuple[str, ...]:
        return (self.cite, *(c for _t, c in self.refs))

    @property
    def target(self) -> str:
        return target_of((self.doc, self.unit, self.clause))

    @property
    def text(self) -> str:
        return " ".join(line.text for line in self.lines)


def target_of(key: Key) -> str:
    """A clause as the situation index writes it: `it-norms:8#8-3b2`, `it-norms:line-up`."""
    doc, unit, clause = key
    return f"{doc}:{unit}" + (f"#{clause}" if clause else "")


@dataclass(frozen=True)
class Card:
    deck: str       # one of DECKS
    id: str         # stable across builds: "definitions:it-laws:def-alert"
    question: str
    answer: str     # the passages' text (each named by its citation when there are several)
    lang: str       # the language its question is said in (the drills': its source's; a package's: the reader's)
    url: str        # the page that answers it
    ref: str = ""   # the clause that answers it, as readers write it ("27B1(b)")
    passages: tuple[Passage, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "answer": self.answer, "lang": self.lang,
                "url": self.url, "ref": self.ref}


@dataclass(frozen=True)
class Sources:
    """What the cards are made from: one generation's records, tables and catalogs. The build hands
    over what it has just made (it never opens the read model); a reader, what it has opened
    (`KnowledgeBase.study_sources`)."""
    store: Store
    library: Library
    glossary: Glossary
    concordance: Concordance
    editions: Editions
    situations: tuple[Situation, ...]
    tables: Path    # the curated tables the generation was built with (`glossary.tsv` …)
    catalogs: Path  # the generation's compiled interface catalogs

    @classmethod
    def of(cls, store: Store, library: Library, concordances: Concordances, editions: Editions,
           tables: Path, catalogs: Path) -> "Sources":
        """The sources of a generation being built: its tables read once more, nothing opened."""
        return cls(store, library, Glossary.load(tables / "glossary.tsv"), first_concordance(concordances, library),
                   editions, load_situations(tables / "situations.tsv", library), tables, catalogs)


def cards(sources: Sources, reader: str | None = None) -> tuple[Card, ...]:
    """Every card of every deck, in deck order, then in the texts' order: the drills' (None), or
    the package of a reader of that interface language."""
    r = Reader(sources, reader)
    return (*definitions(r), *timerefs(r), *titles(r), *situations(r))


def ruling(unit: BuiltUnit, clause: str | None) -> list[BuiltClause]:
    """A clause as a card quotes it: the whole list it is an item of (climbing from the clause
    while its parent's text, or the unit's for a section, ends on a stem, ":": the stem with
    every item), with everything under it, then, while the text ends on a stem or a
    conjunction ("…, oppure:", "…; o"), the clause after it under the same parent. A paragraph
    a norm keys to a Law clause of its own ("43B3 Specifichiamo…") is quoted only where it is
    named. None: the whole unit."""
    clauses = list(unit.clauses)
    if clause is None:
        return clauses
    quoted = _under(clauses, list_of(clauses, clause), unit.id)
    start = clauses.index(quoted[0])
    for c in (c for c in clauses[start + 1:] if c.parent == quoted[0].parent):
        if not _goes_on(quoted):
            break
        quoted += _under(clauses, c.id, unit.id)
    return [*_stems_above(clauses, quoted[0]), *quoted]


def _stems_above(clauses: list[BuiltClause], first: BuiltClause) -> list[BuiltClause]:
    """The stems further up whose words rule the quoted list too ("…trovano applicazione le
    seguenti restrizioni (tranne quando…):" over 46B3, itself a case of 46B), outermost first,
    each alone: its sentence, not its other items."""
    by_id, found = {c.id: c for c in clauses}, []
    parent = by_id.get(first.parent or "")
    while parent is not None:
        if ends_on_stem([parent]):
            found.insert(0, parent)
        parent = by_id.get(parent.parent or "")
    return found


def list_of(clauses: list[BuiltClause], clause: str) -> str:
    """The clause whose text announces the list a clause is an item of (the outermost of a list
    of lists), or the clause itself when its parent announces none."""
    by_id = {c.id: c for c in clauses}
    parent = by_id.get(by_id[clause].parent or "") if clause in by_id else None
    while parent is not None and ends_on_stem([parent]):
        clause, parent = parent.id, by_id.get(parent.parent or "")
    return clause


def _under(clauses: Sequence[BuiltClause], clause: str, unit: str = "") -> list[BuiltClause]:
    """A clause and every clause under it, in text order (but a paragraph keyed to a Law clause
    of its own, below a clause other than the unit's)."""
    held, out = {clause}, []
    for c in clauses:
        keyed = c.law_clause and c.id != clause and clause != unit
        if c.id == clause or (c.parent in held and not keyed):
            held.add(c.id)
            out.append(c)
    return out


def _last_said(quoted: list[BuiltClause]) -> str:
    """The last paragraph of the quoted clauses ("" when a table or a note comes last)."""
    for c in reversed(quoted):
        blocks = [b for b in clause_blocks(c) if b.text.strip()]
        if blocks:
            return blocks[-1].text.rstrip() if blocks[-1].kind == "paragraph" else ""
    return ""


def ends_on_stem(quoted: list[BuiltClause]) -> bool:
    return _last_said(quoted).endswith(":")


def _goes_on(quoted: list[BuiltClause]) -> bool:
    """Whether the text stops mid-sentence: on a stem, or on a conjunction that joins the next item."""
    return ends_on_stem(quoted) or bool(JOINED.search(_last_said(quoted)))


def answer_of(passages: tuple[Passage, ...]) -> str:
    if len(passages) == 1:
        return passages[0].text
    return " — ".join(f"{p.section + ' ' if p.section else ''}{p.heading}: {p.text}" for p in passages)


def _card(deck: str, cid: str, question: str, lang: str, url: str, ref: str, passages: tuple[Passage, ...]) -> Card:
    return Card(deck, cid, question, answer_of(passages), lang, url, ref, passages)


class Reader:
    """Whom the cards are for: a reader of one interface language (a package's), or None, each
    card read in its own language (the drills'); the edition of the Laws that reader reads."""

    def __init__(self, sources: Sources, lang: str | None):
        self.sources, self.lang, library = sources, lang, sources.library
        self.laws = (library.laws_in(lang) if lang else None) or library.laws_in_force
        self.pair = next((p for p in library.pairs if p.by_table), None)  # the concordance's editions

    def language(self, own: str) -> str:
        """The language a card whose text is in `own` is read in."""
        return self.lang or own

    @cached_property
    def _catalogs(self) -> dict[str, Any]:
        return {loc: translations(self.sources.catalogs, loc) for loc in LOCALES}

    def gettext(self, lang: str) -> Any:
        found = self._catalogs.get(lang)
        return found.gettext if found else str

    def cite(self, key: Key, lang: str) -> str:
        """"Codice 2017, Art. 27B1(b)", "Norme integrative 2026, Norma 8 §3b2", in `lang`."""
        doc, unit, clause = key
        named = clause_name(self.gettext(lang), self.sources.store.unit(doc, unit), clause)
        return f"{self.sources.library.label(doc, lang)}, {named}"

    def passage(self, key: Key, lang: str, cite: str | None = None, changes: tuple[str, ...] = (),
                refs: tuple[tuple[str, str], ...] = (), **more: Any) -> Passage:
        """A clause quoted whole (`ruling`), for a reader of `lang`; a clause its text does not
        mark (2007's 21B1(a), printed inside 21B1), by the clause that holds it. `more`: the
        Passage's `corrected` and `section`."""
        doc, unit, clause = key
        u = self.sources.store.unit(doc, unit)
        clause = held_clause(u, clause)
        own = self.sources.library.lang(doc) or ""
        return Passage(doc, unit, clause, cite or self.cite(key, lang), own,
                       lines(u, ruling(u, clause), clause), self.published(own, lang), changes,
                       refs, **more)

    def also_norms(self, s: Any, lang: str, quoted: tuple[Passage, ...]) -> tuple[Passage, ...]:
        """The norms the index names for a situation besides its lead (its `also` of the kind
        `norms`), each whole, the first under a heading in the reader's language; but a norm
        already quoted (an item of a list quoted before) or one that holds a passage quoted
        before (the lead's section or unit: the index names where the lead stands)."""
        norms, out = set(self.sources.library.ids(NORMS)), []
        held = {(p.doc, p.unit, line.clause.id) for p in quoted for line in p.lines}
        for key in (k for k in s.also if k[0] in norms and k != s.lead):
            ids = {(key[0], key[1], cid) for cid in self.quoted_ids(key)}
            if not ids & held:
                out.append(self.passage(key, lang, section="" if out else self.gettext(lang)(ALSO_IN_ITALY)))
                held |= ids
        return tuple(out)

    @cached_property
    def _terms(self) -> dict[str, dict[str, str]]:
        """An Italian term of art (lower case) → its name in each other language a table pairs:
        Spanish from the glossary, else from tuning/terms-en.tsv where its row gives one Spanish
        word; English from tuning/terms-en.tsv (a row whose first Italian name is the term)."""
        out: dict[str, dict[str, str]] = {}
        en, it, es = TERM_COLUMNS[:3]
        for row in read_tsv(self.sources.tables / TERMS_TABLE, TERM_COLUMNS):
            names = {lang: [n.strip() for n in row[lang].split(",") if n.strip()] for lang in (en, it, es)}
            said = out.setdefault(names[it][0].lower(), {}) if names[it] else {}
            said.setdefault(en, names[en][0])
            if len(names[es]) == 1:
                said.setdefault(es, names[es][0])
        for pair in self.sources.glossary.curated:
            out.setdefault(pair.it.lower(), {})[es] = pair.es
        return out

    def term_in(self, term: str, lang: str) -> str:
        """A defined term's name in `lang` ("Presa" → "Baza"), "" where no table pairs one; a
        term with a gloss ("Mano (Smazzata)") by its first words too."""
        for name in (term, re.sub(r"\s*\(.*\)$", "", term)):
            said = self._terms.get(name.lower(), {}).get(lang, "")
            if said:
                return said[0].upper() + said[1:]
        return ""

    @cached_property
    def _law_titles(self) -> dict[str, dict[str, str]]:
        """law-titles.tsv: each Law's title in English, by column (`en`, and `en_2007` where 2007's differs)."""
        law = TITLE_COLUMNS[0]
        return {r[law]: r for r in read_tsv(self.sources.tables / "law-titles.tsv", TITLE_COLUMNS)}

    def law_title(self, key: Key, lang: str) -> str:
        """The title of the Law a clause is in, in `lang`: the reader's edition's, else the
        WBF's English (law-titles.tsv, the cited edition's wording), else ""."""
        doc, unit, _clause = key
        own = self.sources.library.laws_in(lang)
        if own and self.sources.library.lang(own) == lang:
            found = self.sources.store.units_of(own).get(unit)
            return (found.title or "") if found else ""
        row = self._law_titles.get(unit, {})
        edition = next((e.edition for e in self.sources.library.entries if e.id == doc), "")
        return row.get(f"{lang}_{edition}") or row.get(lang, "")

    def published(self, own: str, lang: str) -> str:
        """A text's language named for a reader of `lang` ("testo in italiano"); "" in the reader's own."""
        if own == lang:
            return ""
        said = PUBLISHED_IN.get(own) or (BY_CODE[own].name if own in BY_CODE else own)
        return self.gettext(lang)(said)

    def changes_of(self, key: Key, lang: str, quoted_ids: list[str] | None = None) -> tuple[str, ...]:
        """What the newer edition of the concordance's pair made of a clause as a card quotes it
        (`ruling`: the clause's own row, or its nearest ancestor's, then the row of each clause
        quoted with it; or of each of `quoted_ids`): a clause of the older edition that changed,
        moved, split, merged or went; a clause of the newer edition, read by a reader of the
        older, that is new."""
        doc, _unit, clause = key
        if not self.pair or not clause:
            return ()
        table = self.sources.concordance
        quoted_ids = self.quoted_ids(key) if quoted_ids is None else quoted_ids
        if doc == self.pair.older:
            found = table.rows_for(clause)
            rows = [(r, found[1]) for r in found[0]] if found else []
            rows += [(r, "") for cid in quoted_ids for r in table.by_older.get(cid, ())]
            return self._said([(r, self._target(r, below)) for r, below in rows if r.relation != "same"], lang)
        if doc == self.pair.newer and self.laws == self.pair.older:
            rows = [*table.parallels(clause), *(r for cid in quoted_ids for r in table.by_newer.get(cid, ()))]
            return self._said([(r, "") for r in rows if r.relation.startswith("new-in-")], lang)
        return ()

    def entry_changes(self, key: Key, entry: str, lang: str) -> tuple[str, ...]:
        """What the newer edition made of the clause a time-reference entry cites: of the clause
        and, of the clauses under it, those of the items the entry's words are about (42B's
        42B1, "Avvisare il dichiarante che non sta rispondendo nel colore": not 42B2, "prevenire
        qualsiasi irregolarità"), else those a whole list quotes (a clause ending on a stem)."""
        doc, unit, clause = key
        u = self.sources.store.unit(doc, unit)
        clause = held_clause(u, clause)
        items = self.items_about(u, clause, entry, doc == (self.pair.newer if self.pair else doc))
        if items:
            ids = [clause, *(c.id for item in items for c in _under(u.clauses, item, unit))]
        else:
            ids = self.quoted_ids(key) if ends_on_stem(_under(u.clauses, clause, unit)[:1]) else [clause]
        return self.changes_of(key, lang, [i for i in ids if i])

    def items_about(self, u: BuiltUnit, clause: str | None, entry: str, newer: bool) -> list[str]:
        """The items of a clause (the clauses right under it) an entry is about: the one whose
        newer edition's text (the entries' language) shares the most words with the entry's, and
        each that shares at least half as many, and those the newer edition removed (no words to
        judge them by); [] when none shares any."""
        texts: dict[str, list[str]] = {}
        for c in (c for c in u.clauses if clause and c.parent == clause):
            texts.setdefault(c.text if newer else self._newer_text(c.id), []).append(c.id)
        score = [(len(_words(entry) & _words(t)), ids) for t, ids in texts.items() if t]
        top = max((n for n, _ids in score), default=0)
        gone = [i for t, ids in texts.items() if not t for i in ids]  # no newer text to judge by
        return [i for n, ids in score if top and 2 * n >= top for i in ids] + (gone if top else [])

    def _newer_text(self, cid: str) -> str:
        """A clause of the concordance's older edition, as the newer edition words it (where it is)."""
        found = self.sources.concordance.rows_for(cid)
        if not found or not found[0] or not self.pair:
            return ""
        held = self.sources.editions.clauses.get(self.pair.newer, {})
        return " ".join(c.text if (c := held.get(self._target(r, found[1]))) else "" for r in found[0])

    def quoted_ids(self, key: Key, whole: bool = True) -> list[str]:
        """The clauses a card quoting `key` holds (the clause holding it, when its text marks it
        not); not `whole`: the clause and those under it alone."""
        doc, unit, clause = key
        u = self.sources.store.unit(doc, unit)
        clause = held_clause(u, clause)
        quoted = ruling(u, clause) if whole or clause is None else _under(u.clauses, clause, unit)
        return [c.id for c in quoted]

    def _target(self, row: Row, below: str) -> str:
        """The clause of the newer edition a row carries a clause of the older to."""
        newer = self.pair.newer if self.pair else ""
        return carry(row, below, self.sources.editions.clauses.get(newer, {}).__contains__) if row.newer else ""

    def _said(self, rows: list[tuple[Row, str]], lang: str) -> tuple[str, ...]:
        """Each change once, and once per clause of the newer edition it names (the first row
        found for it: a clause's own before those of the clauses quoted with it)."""
        first: dict[Any, tuple[Row, str]] = {}
        for row, target in rows:
            first.setdefault(target or id(row), (row, target))
        return tuple(self._change(row, target, lang) for row, target in first.values())

    def _change(self, row: Row, target: str, lang: str) -> str:
        """"Codice 2017, Art. 16D1 (changed): <the row's note, in `lang`>"."""
        newer = self.pair.newer if self.pair else ""
        where = self.cite((newer, article_of(target), target), lang) if target else self.sources.library.label(newer, lang)
        return f"{where} ({self.relation(row.relation, lang)}): {note_in(row.notes, lang)[1]}"

    def relation(self, relation: str, lang: str) -> str:
        gettext = self.gettext(lang)
        for prefix, said in (("new-in-", NEW_IN), ("removed-in-", REMOVED_IN)):
            if relation.startswith(prefix):
                return gettext(said) % {"edition": relation.removeprefix(prefix)}
        return gettext(RELATIONS.get(relation, relation))


def _words(text: str) -> set[str]:
    """A text's words of four letters or more, lower case (the words two texts share on a topic)."""
    return set(re.findall(r"\w{4,}", text.lower()))


def held_clause(unit: BuiltUnit, clause: str | None) -> str | None:
    """A clause as its text holds it: itself, or the nearest ancestor the text marks (2007
    prints 21B1(a) inside 21B1), else the unit's own."""
    held = {c.id for c in unit.clauses}
    if clause is None or clause in held:
        return clause
    return next((a for a in ancestors(clause) if a in held), unit.id)


def lines(unit: BuiltUnit, quoted: list[BuiltClause], clause: str | None) -> tuple[Line, ...]:
    """The quoted clauses as a passage's lines, indented from the first: each labelled as its
    page labels it (`BuiltUnit.heading`), but for the quoted clause itself when it comes first
    (its citation names it)."""
    depths = unit.depths()
    top = depths[quoted[0].id]
    return tuple(Line(c, unit.heading(c) if i or c.id != clause else "", max(depths[c.id] - top, 0))
                 for i, c in enumerate(quoted))


def definitions(r: Reader) -> Iterator[Card]:
    """Each defined term of the Laws in force → its definition."""
    sources = r.sources
    doc = sources.library.laws_in_force
    own = sources.library.lang(doc) or ""
    lang = r.language(own)
    cite = f"{sources.library.label(doc, lang)}, {r.gettext(lang)(DECK_NAMES['definitions'])}"
    for u in sources.store.doc(doc).units:
        if u.kind == "definition":
            p = r.passage((doc, u.id, None), lang, cite)
            yield _card("definitions", f"definitions:{doc}:{u.id}", _term_asked(r, u.title or "", p, lang), lang,
                        url_for(doc, u.id), "", (p,))


def _term_asked(r: Reader, term: str, p: Passage, lang: str) -> str:
    """A defined term as its reader is asked it: as published in the reader's language; else
    by its name there, the published term quoted and labelled; else the term, quoted and labelled."""
    if not p.published:
        return term
    said, gettext = r.term_in(term, lang), r.gettext(lang)
    values = {"term": said, "own": term, "published": p.published}
    return gettext(TERM_ASKED if said else TERM_QUOTED) % values


def timerefs(r: Reader) -> Iterator[Card]:
    """Each entry of the time-reference table: its situation → its time limit (with the entries
    a stem of it announces), the Law clause it cites (the edition it cites, as the build resolved
    and corrected it) and what the newer edition changed there; a reader of the cited edition
    also reads that clause's own text."""
    sources = r.sources
    for doc in sources.library.ids(TIMEREF):
        cited = entry_citations(sources, doc)
        own = sources.library.lang(doc) or ""
        for u in sources.store.doc(doc).units:
            for c in u.clauses:
                if c.kind == "entry" and c.subtopic and c.text:
                    yield _timeref(r, doc, u, c, cited, r.language(own))


def _timeref(r: Reader, doc: str, u: BuiltUnit, c: BuiltClause, cited: dict[tuple[str, str], Reference],
             lang: str) -> Card:
    entries = [(u.id, e.id) for e in ruling(u, c.id)]
    laws = [cited[e].key for e in entries if e in cited]
    in_own_edition = [k for k in laws if k[0] == r.laws]
    changes = () if in_own_edition else tuple(said for k in laws for said in r.entry_changes(k, c.text, lang))
    refs = tuple((target_of(k), r.cite(k, lang)) for k in laws)
    corrected = tuple(r.gettext(lang)(CORRECTED) % {"written": cited[e].as_written, "clause": r.cite(cited[e].key, lang)}
                      for e in entries if e in cited and cited[e].as_written)
    entry = r.passage((doc, u.id, c.id), lang, r.sources.library.label(doc, lang), changes, refs, corrected=corrected)
    passages = (entry, *(r.passage(k, lang, changes=r.changes_of(k, lang)) for k in in_own_edition))
    return _card("timerefs", f"timerefs:{doc}:{u.id}:{c.id}", _time_asked(r, entry_topic(u, c), entry, laws, lang), lang, url_for(doc, u.id, c.id),
                 readable(laws[0][2] or laws[0][1]) if laws else "", passages)


ENTRY_WORDS = 12  # how much of an entry's own line names it in a question (not the whole answer)


def entry_topic(u: BuiltUnit, c: BuiltClause) -> str:
    """A time-reference entry as the table names it: its topic, its sub-heading and its own line
    (entries under one sub-heading share the first two), to the end of its first sentence and at
    most ENTRY_WORDS words ("…" where cut)."""
    said = c.text.split()
    first = next((i + 1 for i, w in enumerate(said) if w.endswith((".", ":", ";"))), len(said))
    line = " ".join(said[:min(first, ENTRY_WORDS)]).rstrip(".:;,")
    return f"{u.title}: {c.subtopic} — {line}{'…' if len(said) > ENTRY_WORDS and first > ENTRY_WORDS else ''}"


def _time_asked(r: Reader, topic: str, entry: Passage, laws: list[Key], lang: str) -> str:
    """A time reference as its reader is asked it: its topic and subtopic as published in the
    reader's language; else quoted and labelled, after the title of the Law it cites in the
    reader's language (where there is one)."""
    if not entry.published:
        return topic
    law = r.law_title(laws[0], lang) if laws else ""
    values = {"law": law, "topic": topic, "published": entry.published}
    return r.gettext(lang)(TIME_ASKED if law else TIME_QUOTED) % values


@dataclass(frozen=True)
class Reference:
    """A time-reference entry's own reference, as the build read it."""
    key: Key
    as_written: str = ""  # what the source prints, where it gets it wrong (corpus/ref-corrections.tsv)


def entry_citations(sources: Sources, doc: str) -> dict[tuple[str, str], Reference]:
    """Each time-reference entry's own reference (unit, entry) → the clause it cites, as the build
    read it (a reference the source gets wrong, as its correction reads it, with what the
    source prints; one to a clause the cited text does not mark, corpus/unresolved.tsv, as cited)."""
    out = {}
    for c in sources.store.citations:
        (source, unit, clause), t = c.source, c.target
        if source == doc and c.where == "ref" and t.unit:
            out[(unit, clause)] = Reference((t.doc, t.unit, t.clause), (c.as_written or "") if c.correction else "")
    return out


def titles(r: Reader) -> Iterator[Card]:
    """Each Law of each edition: its number, with its edition → its title. The drills' question
    is marked with the edition's short name ("IT 27", "ES 27"; the page names the edition); a
    package's, the edition named in the reader's language ("Reglamento 2007, Art. 27")."""
    sources = r.sources
    for doc in sources.library.ids(LAWS):
        own = sources.library.lang(doc) or ""
        lang = r.language(own)
        for u in sources.store.doc(doc).units:
            if u.kind == "article" and u.title:
                cite = r.cite((doc, u.id, u.id), lang)
                title = Line(BuiltClause(u.id, None, "", u.title))
                p = Passage(doc, u.id, None, cite, own, (title,), r.published(own, lang))
                question = cite if r.lang else f"{sources.library.short(doc)} {u.id}"
                yield _card("titles", f"titles:{doc}:{u.id}", question, lang, url_for(doc, u.id), u.id, (p,))


def situations(r: Reader) -> Iterator[Card]:
    """Each situation, as said in each language (a reader's: in theirs) → its ruling text."""
    for s in r.sources.situations:
        for lang, _phrases in s.says:
            card = _situation(r, s, lang) if r.lang in (None, lang) else None
            if card is not None:
                yield card


def _situation(r: Reader, s: Any, lang: str) -> Card | None:
    """The lead norm, then every clause of the reader's edition of the Laws the index names for
    it, most important first (the Laws in force', where the reader's edition has none), each
    whole and once, then the other norms that rule it."""
    laws = clauses_in(s, r.laws) or clauses_in(s, r.sources.library.laws_in_force)
    if not laws:
        return None
    lead = (r.passage(s.lead, lang),) if s.lead else ()
    ruled = (*lead, *law_passages(r, laws, lang))
    d, unit, clause = laws[0]
    return _card("situations", f"situations:{s.id}:{lang}", s.name(lang), lang, url_for(d, unit, clause),
                 readable(clause or unit), (*ruled, *r.also_norms(s, lang, ruled)))


def law_passages(r: Reader, laws: list[Key], lang: str) -> list[Passage]:
    """Each Law clause quoted whole, once: one another quoted clause holds (30B1 in 30A's whole
    Law) is said by that one, in the place of the first it holds; each change noted once."""
    quoted = [(key, set(r.quoted_ids(key))) for key in laws]
    kept: list[Key] = []
    for key, ids in quoted:
        holders = [(-len(more), j, k) for j, (k, more) in enumerate(quoted) if k[:2] == key[:2] and ids <= more]
        outer = min(holders)[2]  # the outermost, the first of equals (itself among them)
        kept += [] if outer in kept else [outer]
    out: list[Passage] = []
    for key in kept:
        said = {c for p in out for c in p.changes}
        out.append(r.passage(key, lang, changes=tuple(c for c in r.changes_of(key, lang) if c not in said)))
    return out


def clauses_in(s: Any, laws: str | None) -> list[Key]:
    return [k for k in s.laws if k[0] == laws]
