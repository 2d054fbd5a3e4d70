"""Citations checked for anyone (DESIGN §8 `/api/cite`, §9 `kb cite`): a text — a ruling, an
appeal decision, an assistant's answer, in Italian, Spanish or English — and every Law, norm
or clause it cites, each with its status, its clause's text and its permalink.

One way through, a frozen record per step:
- find: the project's grammar (`kb.citations.grammar`), each language's merged, with the names
  readers give the documents ("reglamento 64", "norma 40", "Law 16C (2007)", the manifest's
  labels: "Reglamento 2007, Art. 12C1(e)") and what readers write that the texts never do
  (`READER`: "art. 27 B 1 b", "L. 12C1(e)") → `Found`;
- resolve: the project's resolver (`kb.citations.resolve`) in the edition the text names, else the one
  in force, and in its other edition; a norm by either Law it is on, and its paragraph; the
  concordance's row for the clause shown (numbered otherwise: the clause under its other
  number) → `Resolved`;
- status: the first of `STATUS_RULES` that fits, and for no such clause the nearest clause
  there is → `Checked` (a citation written again is checked once);
- annotate: the text escaped, each citation a link classed by its status, as eyecite's
  `annotate` does (`annotated`).

The answer names each clause once (`CiteResult.targets`, by key), its text capped: a text that
cites one Law two thousand times carries the Law's text once.

A citation written without an article number ("C2 sotto", "punto 3") is read against the
clause it stands in; a free text has none, so those are not reported.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from jinja2 import Environment

from ..records.built import BuiltUnit
from ..records.citation import Site
from .extract import normalize_ref
from .grammar import LANGUAGES, LAST, Mention, Reader, find
from ..records.clauseid import ClauseId, article_of, readable
from ..editions.concordance import ancestors
from ..editions.pairs import Editions
from ..corpus.languages import LANGS, REGISTRY
from ..corpus.library import NORMS, Library
from ..records.model import Document, Unit
from .points import named_once
from ..records.reading import clause_blocks
from .resolve import Lookups, relative_law_id, resolve
from ..records.store import Store
from ..corpus.urls import url_for

MAX_TEXT_CHARS = 20_000  # a ruling or an appeal decision of several pages; a longer text is refused, not cut

EXISTS, NOT_IN_EDITION, NUMBERED_OTHERWISE, NO_SUCH_CLAUSE, EXTERNAL = (
    "exists", "not-in-edition", "numbered-otherwise", "no-such-clause", "external")
STATUSES = (EXISTS, NOT_IN_EDITION, NUMBERED_OTHERWISE, NO_SUCH_CLAUSE, EXTERNAL)

# What a text cites on its own; a relative id or a point needs the clause it is read in.
CHECKED_KINDS = ("law", "norm", "appendix", "definition", "external")


class CiteError(ValueError):
    """A text that cannot be checked (empty, too long, not text, an unknown language); the message says why."""


# ---------------------------------------------------------------- records, one per step

@dataclass(frozen=True)
class Found:
    """A citation as the text writes it, and the document it names with it (None: it names none)."""
    mention: Mention
    stated: str | None = None


@dataclass(frozen=True)
class Reading:
    """A citation read in one document: what it names there (`clause`: the id as read, or the
    clause it leads to), the unit holding it, and whether that is there."""
    doc: str
    unit: str | None
    clause: str | None
    exists: bool


@dataclass(frozen=True)
class Pair:
    """A row of the concordance: a clause of the older edition and the newer's beside it; one
    side is None for a clause the newer edition removed or added."""
    older: Reading | None
    newer: Reading | None
    relation: str
    note: str

    def has(self, doc: str) -> bool:
        """The row puts a clause that exists in `doc` beside this one."""
        return any(side is not None and side.doc == doc and side.exists for side in (self.older, self.newer))


@dataclass(frozen=True)
class Resolved:
    found: Found
    asked: Reading | None   # in the edition the text names, else in the one in force (None: an outside text)
    other: Reading | None   # the same id in the other edition of the Laws
    pair: Pair | None       # the concordance's row for the clause shown (numbered otherwise: `other`'s)


@dataclass(frozen=True)
class Rule:
    """A status and the facts it needs (None: either way)."""
    status: str
    outside: bool = False
    in_asked: bool | None = None
    in_other: bool | None = None
    paired: bool | None = None

    def fits(self, r: Resolved) -> bool:
        facts = (r.asked is None, r.asked is not None and r.asked.exists,
                 r.other is not None and r.other.exists,
                 r.pair is not None and r.asked is not None and r.pair.has(r.asked.doc))
        wanted = (self.outside, self.in_asked, self.in_other, self.paired)
        return all(w is None or w == f for w, f in zip(wanted, facts))


STATUS_RULES = (  # the first that fits
    Rule(EXTERNAL, outside=True),
    Rule(EXISTS, in_asked=True),
    Rule(NUMBERED_OTHERWISE, in_asked=False, in_other=True, paired=True),
    Rule(NOT_IN_EDITION, in_asked=False, in_other=True),
    Rule(NO_SUCH_CLAUSE),
)


def status_of(r: Resolved) -> str:
    return next(rule.status for rule in STATUS_RULES if rule.fits(r))


MAX_CLAUSE_CHARS = 2_000  # a clause's text as a check shows it: 19 clauses in 20 whole; a whole Law's, its start

@dataclass(frozen=True)
class CitedClause:
    """A clause of the corpus as a citation check shows it: `key` names it among the check's
    `targets`, where its text is given once however often the text cites it."""
    doc: str
    edition: str
    unit: str
    id: str
    label: str
    title: str
    text: str
    url: str
    truncated: bool = False  # the text stops at MAX_CLAUSE_CHARS (its page has the rest)

    @property
    def key(self) -> str:
        return f"{self.doc}/{self.id}"

    def ref(self) -> dict[str, Any]:
        """What a citation says of its clause: all but the text, and the key to it."""
        return {"key": self.key, "doc": self.doc, "edition": self.edition, "unit": self.unit, "id": self.id,
                "label": self.label, "title": self.title, "url": self.url}

    def to_dict(self) -> dict[str, Any]:
        return self.ref() | {"text": self.text, "truncated": self.truncated}


@dataclass(frozen=True)
class ShownPair:
    """The concordance's row as a check shows it: the two clauses (one absent for a clause
    removed or added), their relation and the note."""
    older: CitedClause | None
    newer: CitedClause | None
    relation: str
    note: str

    def to_dict(self) -> dict[str, Any]:
        return {"older": self.older.ref() if self.older else None, "newer": self.newer.ref() if self.newer else None,
                "relation": self.relation, "note": self.note}


@dataclass(frozen=True)
class Checked:
    """A citation checked: where it is written, the edition it was checked against, its status,
    the clause it leads to (in the edition it is in), the concordance's row for it and, when
    there is no such clause, the nearest clause that is there ("27B9": 27B, which has no 9)."""
    start: int
    end: int
    written: str
    kind: str
    status: str
    checked: str | None          # the document checked first: the one the text names, else the one in force
    stated: bool
    id: str                      # the id as read: "27B1b"; an outside text's name
    target: CitedClause | None
    pair: ShownPair | None = None
    nearest: CitedClause | None = None

    @property
    def clauses(self) -> tuple[CitedClause, ...]:
        """Every clause the citation names: its target, the pair's, the nearest."""
        sides = (self.pair.older, self.pair.newer) if self.pair else ()
        return tuple(c for c in (self.target, *sides, self.nearest) if c is not None)

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "written": self.written, "kind": self.kind,
                "status": self.status, "checked": self.checked, "stated": self.stated, "id": self.id,
                "label": self.target.label if self.target else readable(self.id),
                "target": self.target.ref() if self.target else None,
                "pair": self.pair.to_dict() if self.pair else None,
                "nearest": self.nearest.ref() if self.nearest else None}


@dataclass(frozen=True)
class CiteResult:
    text: str
    citations: tuple[Checked, ...]

    @property
    def summary(self) -> dict[str, int]:
        counts = Counter(c.status for c in self.citations)
        return {s: counts[s] for s in STATUSES if counts[s]}

    @property
    def targets(self) -> dict[str, CitedClause]:
        """Every clause the citations name, once, by key, in the order first named."""
        return {c.key: c for checked in self.citations for c in checked.clauses}

    @property
    def html(self) -> str:
        return annotated(self.text, self.citations)

    def to_dict(self, html: bool = True) -> dict[str, Any]:
        """The check as /api/cite answers it (`html`: with the annotated text; an assistant reads without)."""
        out = {"length": len(self.text), "total": len(self.citations), "summary": self.summary,
               "citations": [c.to_dict() for c in self.citations],
               "targets": {key: c.to_dict() for key, c in self.targets.items()}}
        return out | {"html": self.html} if html else out


# ---------------------------------------------------------------- the steps

_READER = Unit("", "text", None)  # a free text is a unit of no document: it has no clause of its own
READER = Reader.of(tuple(lang.law_words for lang in REGISTRY))  # what readers write, read as search reads numbers
_RANGE = re.compile(r"\d+-\d+")  # "92-93": a norm on two Laws


class Checker:
    """The citation check over one build's records."""

    def __init__(self, store: Store, library: Library, editions: Editions):
        self.store, self.library, self.editions = store, library, editions
        self.look = Lookups([Document.from_dict(d) for d in store.export["documents"]])
        self.names: dict[str, str] = {}
        for entry in library.entries:  # a name two documents share names the first; its labels too
            said = (*entry.names, *(label for _lang, label in entry.labels))
            self.names.update({n: entry.id for n in said if n not in self.names})
        self._clauses: dict[tuple[str, str, str], CitedClause] = {}

    def check(self, text: str, lang: str | None = None) -> CiteResult:
        langs = _languages(text, lang)
        checked: dict[tuple[Any, ...], Checked] = {}  # a citation written again is checked once
        out = []
        for f in self.found(text, langs):
            key = (f.mention.kind, f.mention.ref, f.mention.point, f.stated)
            if key not in checked:
                checked[key] = self.checked(self.resolved(f))
            m = f.mention
            out.append(replace(checked[key], start=m.start, end=m.end, written=m.raw))
        return CiteResult(text, tuple(out))

    def found(self, text: str, langs: tuple[str, ...]) -> list[Found]:
        """Every citation of the text, in order: the first language's reading of a span wins."""
        mentions = [_with_keyword(text, m, lang) for lang in langs
                    for m in find(text, lang, names=tuple(self.names), reader=READER) if m.kind in CHECKED_KINDS]
        return [self._named(m) for m in _apart(mentions)]

    def _named(self, m: Mention) -> Found:
        """The mention as the document it names reads it: "norma 40B2(a)(v)" is norm 40's
        paragraph on Law clause 40B2(a)(v); "art. 27B punto 1" is 27B1."""
        stated = self.names.get(m.named or "")
        if stated and self.library.kind(stated) == NORMS:
            return Found(replace(m, kind="norm", named=None))
        if m.kind == "law" and m.point and m.point != LAST and self.library.is_laws(stated or self.look.laws_in_force):
            m = replace(m, ref=relative_law_id(m.point, m.ref) or m.ref, point=None)
        return Found(m, stated)

    def resolved(self, f: Found) -> Resolved:
        if f.mention.kind == "external":
            return Resolved(f, None, None, None)
        if f.mention.kind == "norm":
            return Resolved(f, self._norm(f.mention), None, None)
        asked = self._read(f, f.stated or self.look.laws_in_force)
        other_doc = next(iter(self.library.counterparts(asked.doc)), None)
        other = self._read(f, other_doc) if other_doc else None
        if asked.exists:
            return Resolved(f, asked, other, self._pair(asked))
        pair = self._pair(other, within=asked.doc) or self._pair(other) if other and other.exists else None
        return Resolved(f, asked, other, pair)

    def _read(self, f: Found, doc: str) -> Reading:
        """The project's resolver, the text read as if it stood in `doc`; a point the unit does
        not number once is not there, though the unit is ("Appendice 4 §5.8", "Burraco 2014,
        Art. 33 §B"; a Law numbers none: "art. 24 punto 2")."""
        m = f.mention
        if self.library.is_laws(doc) and m.kind == "law":
            m = replace(m, ref=_first_article(m.ref))
        links = resolve(m, Site(self.look.docs[doc], _READER, "", "text"), self.look)
        if not links:
            return Reading(doc, None, m.ref, False)
        t, there = links[0].target, links[0].resolved
        if m.point in (None, LAST):
            return Reading(t.doc, t.unit, t.clause or t.unit, there)
        point = None if self.library.is_laws(t.doc) or not there else self._point(t.doc, t.unit or "", m.point)
        return Reading(t.doc, t.unit, point or f"{t.unit}-{normalize_ref(m.point)}", point is not None)

    def _point(self, doc: str, unit: str, wanted: str) -> str | None:
        return named_once(self.look.docs[doc].unit(unit), wanted)

    def _norm(self, m: Mention) -> Reading:
        """A norm by its Law's number (a norm on two Laws by either: "norma 92" is 92-93), and
        the paragraph it names: on a Law clause ("norma 40B2(a)(v)"), or by its own number
        ("Norme Int. Art. 4 punto 3", "Norma 8 §3b2")."""
        doc = self.look.norms
        number = m.ref if _RANGE.fullmatch(m.ref) else article_of(m.ref)
        unit = self.look.unit_numbered(doc, number)
        if unit is None:
            return Reading(doc, None, m.ref, False)
        wanted = m.ref if m.ref != number else m.point
        if not wanted:
            return Reading(doc, unit, unit, True)
        by_number = wanted == m.point
        found = self._paragraph(doc, unit, number, wanted, by_number)
        asked = f"{unit}-{normalize_ref(wanted)}" if by_number else normalize_ref(wanted)  # "4-9", "16F7q"
        return Reading(doc, unit, found or asked, found is not None)

    def _paragraph(self, doc: str, unit: str, number: str, wanted: str, by_number: bool) -> str | None:
        """The paragraph of a norm on a Law clause ("40B2av"), or (`by_number`: a point named after
        the norm) numbered so in the norm ("3", "3b2", "5.8")."""
        law = normalize_ref(wanted)
        if law != number and ClauseId.parse(law) and article_of(law) == number:  # "40B2av", not "4"
            return next((c.id for c in self.store.unit(doc, unit).clauses if c.law_clause == law), None)
        return self._point(doc, unit, wanted) if by_number else None

    def _pair(self, reading: Reading, within: str | None = None) -> Pair | None:
        """The concordance's row for a clause that is there: the clause beside it in the other
        edition (`within`: only where that edition has it), or its row alone when the other
        edition removed or added it; None for a row that says the two are the same."""
        links = self.editions.of_clause(reading.doc, reading.clause or "")
        for p in links:
            target, there = self.look.law_target(p.other, p.target)
            if not there or within not in (None, p.other):
                continue
            if p.relation == "same" and within is None:
                return None
            return self._ordered(reading, Reading(target.doc, target.unit, target.clause, True), p.relation, p.note)
        return None if links or within else self.alone(reading)

    def alone(self, reading: Reading) -> Pair | None:
        """The row of a clause the newer edition removed, or added: nothing beside it."""
        look, cid = self.look, reading.clause or ""
        pair = self.library.pair_of(look.laws_before, look.laws_after)
        if pair is None or reading.doc not in (look.laws_before, look.laws_after):
            return None
        concordance = self.editions.concordance(pair)
        if reading.doc == look.laws_before:
            found = concordance.rows_for(cid)
            rows = found[0] if found else []
        else:
            rows = concordance.parallels(cid)
        row = next((r for r in rows if not (r.older and r.newer)), None)
        if row is None:
            return None
        older, newer = (reading, None) if reading.doc == look.laws_before else (None, reading)
        return Pair(older, newer, row.relation, row.note)

    def _ordered(self, a: Reading, b: Reading, relation: str, note: str) -> Pair:
        pair = self.library.pair_of(a.doc, b.doc) or self.library.pair_of(b.doc, a.doc)
        older = pair.older if pair else a.doc
        return Pair(a, b, relation, note) if a.doc == older else Pair(b, a, relation, note)

    def _nearest(self, r: Resolved) -> CitedClause | None:
        """The nearest clause the checked edition has of one it has not ("27B9": 27B)."""
        asked = r.asked
        if asked is None or asked.exists or not asked.clause:
            return None
        if not self.library.is_laws(asked.doc):  # its unit: the norm, the article ("burraco art. 40Z9": 40)
            unit = next((u for u in (asked.unit, article_of(asked.unit or asked.clause))
                         if u and self.look.has_unit(asked.doc, u)), None)
            return self.clause(Reading(asked.doc, unit, unit, True)) if unit else None
        article = article_of(asked.clause)
        for cid in (*ancestors(asked.clause)[1:], article):
            if self.look.law_target(asked.doc, cid)[1]:
                return self.clause(Reading(asked.doc, article, cid, True))
        return None

    def checked(self, r: Resolved) -> Checked:
        m, status = r.found.mention, status_of(r)
        shown = {EXISTS: r.asked, NUMBERED_OTHERWISE: r.other, NOT_IN_EDITION: r.other}.get(status)
        pair = None if r.pair is None else ShownPair(*(self.clause(side) if side else None
                                                       for side in (r.pair.older, r.pair.newer)),
                                                     r.pair.relation, r.pair.note)
        asked = r.asked.clause or r.asked.unit or m.ref if r.asked else m.ref
        return Checked(m.start, m.end, m.raw, m.kind, status, r.asked.doc if r.asked else None,
                       r.found.stated is not None, asked, self.clause(shown) if shown else None, pair,
                       self._nearest(r) if status == NO_SUCH_CLAUSE else None)

    def clause(self, reading: Reading) -> CitedClause:
        """The clause a reading names (the whole unit when it names a unit), its text capped; each
        made once per check… and per build (a text cites the same clauses again and again)."""
        unit = self.store.unit(reading.doc, reading.unit or "")
        cid = reading.clause or unit.id
        key = (reading.doc, unit.id, cid)
        if key not in self._clauses:
            label = readable(cid) if unit.laws else cid
            text, truncated = capped(subtree_text(unit, cid), MAX_CLAUSE_CHARS)
            self._clauses[key] = CitedClause(reading.doc, self.library.edition(reading.doc) or "", unit.id, cid,
                                             label, unit.title or "", text, url_for(reading.doc, unit.id, cid), truncated)
        return self._clauses[key]


def _first_article(ref: str) -> str:
    """A range of Laws ("92-93") is checked as its first."""
    return article_of(ref) if _RANGE.fullmatch(ref) else ref


def _languages(text: str, lang: str | None) -> tuple[str, ...]:
    """The grammars to read a text with (all three, the text's own first when it is said), once
    the text is one that can be checked."""
    if not text.strip():
        raise CiteError("no text to check: give the ruling, decision or answer whose citations to check")
    if len(text) > MAX_TEXT_CHARS:
        raise CiteError(f"text too long: {len(text)} characters, at most {MAX_TEXT_CHARS} (check it in parts)")
    unencodable(text, "the text")
    if lang is not None and lang not in LANGS:
        raise CiteError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    return tuple(dict.fromkeys([lang, *LANGS] if lang else LANGS))


def unencodable(value: str, what: str) -> None:
    """CiteError when a string holds what no UTF-8 text can (a lone surrogate, from an escape such
    as "\\ud800" in JSON or from bytes that were not UTF-8): it cannot be read, nor answered."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise CiteError(f"{what} cannot be read: its character {e.start + 1} is a lone surrogate "
                        f"(U+{ord(value[e.start]):04X}), which no UTF-8 text holds") from None


_KEYWORD_BEFORE = {lang: re.compile(rf"(?<![\w])(?:{grammar.keyword})\s*$") for lang, grammar in LANGUAGES.items()}


def _with_keyword(text: str, m: Mention, lang: str) -> Mention:
    """A Law id listed after another as the text writes it, its keyword with it: the grammar
    spans "16C2a" in "la Ley 12C1 y el Artículo 16C2a", a reader reads "Artículo 16C2a"."""
    k = _KEYWORD_BEFORE[lang].search(text, max(0, m.start - 16), m.start) if m.kind == "law" else None
    return replace(m, start=k.start(), raw=text[k.start():m.end]) if k else m


def _apart(mentions: list[Mention]) -> list[Mention]:
    """The mentions, in text order, none overlapping: at one place, the longest, then one that
    names its document ("arts. 16 y 73 del Reglamento": the Spanish list names it), then the first read."""
    out: list[Mention] = []
    for m in sorted(mentions, key=lambda m: (m.start, m.start - m.end, m.named is None)):
        if not out or m.start >= out[-1].end:
            out.append(m)
    return out


def capped(text: str, limit: int) -> tuple[str, bool]:
    """The text, or its start up to `limit` characters, cut at the last line or sentence end (True: cut)."""
    if len(text) <= limit:
        return text, False
    head = text[:limit]
    cut = max(head.rfind("\n"), head.rfind(". ") + 1)
    return (head[:cut] if cut > limit // 2 else head).rstrip() + " …", True


def subtree_text(unit: BuiltUnit, cid: str) -> str:
    """A clause's text with its sub-clauses' (the unit's whole text for its own id), each
    sub-clause after its label: "27B1" reads "(a) …" and "(b) …"."""
    if cid == unit.id:
        return unit.text
    inside, lines = {cid}, []
    for c in unit.clauses:
        if c.id in inside or c.parent in inside:
            inside.add(c.id)
            own = [b.text for b in clause_blocks(c)]
            label = c.label if c.id != cid and c.label else ""
            lines += [f"{label} {own[0]}".strip(), *own[1:]] if own else []
    return "\n".join(lines)


# ---------------------------------------------------------------- annotate

_ANNOTATED = Environment(autoescape=True).from_string(
    "{% for s in segments %}{% if not s.status %}{{ s.text }}"
    "{% elif s.url %}<a class=\"citation {{ s.status }}\" href=\"{{ s.url }}\" title=\"{{ s.title }}\">{{ s.text }}</a>"
    "{% else %}<span class=\"citation {{ s.status }}\" title=\"{{ s.title }}\">{{ s.text }}</span>{% endif %}"
    "{% endfor %}")


def annotated(text: str, citations: tuple[Checked, ...]) -> str:
    """The text as HTML, escaped (Jinja's autoescaping), each citation wrapped: a link to its
    clause classed `citation <status>`, or a span where there is no clause to go to."""
    segments, pos = [], 0
    for c in citations:
        segments.append({"text": text[pos:c.start]})
        segments.append({"text": text[c.start:c.end], "status": c.status, "title": _title(c),
                         "url": c.target.url if c.target else ""})
        pos = c.end
    segments.append({"text": text[pos:]})
    return _ANNOTATED.render(segments=segments)


def _title(c: Checked) -> str:
    """What a link says on hover: its status and where it leads."""
    if c.target is None:
        return f"{c.status}: {c.id}" if c.kind == "external" else f"{c.status}: {c.checked} {readable(c.id)}"
    return f"{c.status}: {c.target.doc} {c.target.label} — {c.target.title}".rstrip(" —")
