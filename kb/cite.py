"""Citations checked for anyone (DESIGN §8 `/api/cite`, §9 `kb cite`): a text — a ruling, an
appeal decision, an assistant's answer, in Italian, Spanish or English — and every Law, norm
or clause it cites, each with its status, its clause's text and its permalink.

One way through, a frozen record per step:
- find: the project's grammar (`kb.citegrammar`), each language's merged, with the names
  readers give the documents ("reglamento 64", "norma 40", "Law 16C (2007)") → `Found`;
- resolve: the project's resolver (`kb.resolve`) in the edition the text names, else the one
  in force, and in its other edition; the concordance's pair where the clause stands under
  another number → `Resolved`;
- status: the first of `STATUS_RULES` that fits → `Checked`;
- annotate: the text escaped, each citation a link classed by its status, as eyecite's
  `annotate` does (`annotated`).

A citation written without an article number ("C2 sotto", "punto 3") is read against the
clause it stands in; a free text has none, so those are not reported.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from jinja2 import Environment

from .citation import Site
from .citegrammar import LANGUAGES, Mention, find
from .clauseid import article_of, readable
from .editions import Editions
from .library import NORMS, Library
from .model import Document, Unit
from .reading import clause_blocks
from .resolve import Lookups, resolve
from .search.analysis import LANGS
from .store import Store
from .urls import url_for

MAX_TEXT_CHARS = 20_000  # a ruling or an appeal decision of several pages; a longer text is refused, not cut

EXISTS, NOT_IN_EDITION, NUMBERED_OTHERWISE, NO_SUCH_CLAUSE, EXTERNAL = (
    "exists", "not-in-edition", "numbered-otherwise", "no-such-clause", "external")
STATUSES = (EXISTS, NOT_IN_EDITION, NUMBERED_OTHERWISE, NO_SUCH_CLAUSE, EXTERNAL)

# What a text cites on its own; a relative id or a point needs the clause it is read in.
CHECKED_KINDS = ("law", "norm", "appendix", "definition", "external")


class CiteError(ValueError):
    """A text that cannot be checked (empty, too long, an unknown language); the message says why."""


# ---------------------------------------------------------------- records, one per step

@dataclass(frozen=True)
class Found:
    """A citation as the text writes it, and the document it names with it (None: it names none)."""
    mention: Mention
    stated: str | None = None


@dataclass(frozen=True)
class Reading:
    """A citation read in one document: what it names there, and whether that is there."""
    doc: str
    unit: str | None
    clause: str | None
    exists: bool


@dataclass(frozen=True)
class Pair:
    """A row of the concordance: a clause of the older edition and the newer's beside it."""
    older: Reading
    newer: Reading
    relation: str
    note: str


@dataclass(frozen=True)
class Resolved:
    found: Found
    asked: Reading | None   # in the edition the text names, else in the one in force (None: an outside text)
    other: Reading | None   # the same id in the other edition of the Laws
    pair: Pair | None       # where the concordance puts `other` in the asked edition, numbered otherwise


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
                 r.other is not None and r.other.exists, r.pair is not None)
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


@dataclass(frozen=True)
class CitedClause:
    """A clause of the corpus as a citation check shows it."""
    doc: str
    edition: str
    unit: str
    id: str
    label: str
    title: str
    text: str
    url: str

    def to_dict(self) -> dict[str, Any]:
        return {"doc": self.doc, "edition": self.edition, "unit": self.unit, "id": self.id, "label": self.label,
                "title": self.title, "text": self.text, "url": self.url}


@dataclass(frozen=True)
class Checked:
    """A citation checked: where it is written, the edition it was checked against, its status,
    the clause it leads to (in the edition it is in) and, numbered otherwise, the pair."""
    start: int
    end: int
    written: str
    kind: str
    status: str
    checked: str | None          # the document checked first: the one the text names, else the one in force
    stated: bool
    id: str                      # the id as read: "27B1b"; an outside text's name
    target: CitedClause | None
    pair: tuple[CitedClause, CitedClause, str, str] | None = None  # older, newer, relation, note

    def to_dict(self) -> dict[str, Any]:
        pair = None if self.pair is None else {"older": self.pair[0].to_dict(), "newer": self.pair[1].to_dict(),
                                                "relation": self.pair[2], "note": self.pair[3]}
        return {"start": self.start, "end": self.end, "written": self.written, "kind": self.kind,
                "status": self.status, "checked": self.checked, "stated": self.stated, "id": self.id,
                "label": self.target.label if self.target else readable(self.id),
                "target": self.target.to_dict() if self.target else None, "pair": pair}


@dataclass(frozen=True)
class CiteResult:
    text: str
    citations: tuple[Checked, ...]

    @property
    def summary(self) -> dict[str, int]:
        counts = Counter(c.status for c in self.citations)
        return {s: counts[s] for s in STATUSES if counts[s]}

    @property
    def html(self) -> str:
        return annotated(self.text, self.citations)

    def to_dict(self) -> dict[str, Any]:
        return {"length": len(self.text), "total": len(self.citations), "summary": self.summary,
                "citations": [c.to_dict() for c in self.citations], "html": self.html}


# ---------------------------------------------------------------- the steps

_READER = Unit("", "text", None)  # a free text is a unit of no document: it has no clause of its own


class Checker:
    """The citation check over one build's records."""

    def __init__(self, store: Store, library: Library, editions: Editions):
        self.store, self.library, self.editions = store, library, editions
        self.look = Lookups([Document.from_dict(d) for d in store.export["documents"]])
        self.names: dict[str, str] = {}
        for entry in library.entries:  # a name two documents share names the first
            self.names.update({n: entry.id for n in entry.names if n not in self.names})

    def check(self, text: str, lang: str | None = None) -> CiteResult:
        langs = _languages(text, lang)
        return CiteResult(text, tuple(self.checked(self.resolved(f)) for f in self.found(text, langs)))

    def found(self, text: str, langs: tuple[str, ...]) -> list[Found]:
        """Every citation of the text, in order: the first language's reading of a span wins."""
        mentions = [_with_keyword(text, m, lang) for lang in langs for m in find(text, lang, names=tuple(self.names))
                    if m.kind in CHECKED_KINDS]
        return [self._named(m) for m in _apart(mentions)]

    def _named(self, m: Mention) -> Found:
        stated = self.names.get(m.named or "")
        if stated and self.library.kind(stated) == NORMS:  # "norma 40": the norm on Law 40
            return Found(replace(m, kind="norm", ref=article_of(m.ref), named=None))
        return Found(m, stated)

    def resolved(self, f: Found) -> Resolved:
        if f.mention.kind == "external":
            return Resolved(f, None, None, None)
        asked = self._read(f, f.stated or self.look.laws_in_force)
        other_doc = next(iter(self.library.counterparts(asked.doc)), None)
        other = self._read(f, other_doc) if other_doc else None
        pair = self._pair(asked, other) if other and other.exists and not asked.exists else None
        return Resolved(f, asked, other, pair)

    def _read(self, f: Found, doc: str) -> Reading:
        """The project's resolver, the text read as if it stood in `doc`."""
        links = resolve(f.mention, Site(self.look.docs[doc], _READER, "", "text"), self.look)
        if not links:
            return Reading(doc, None, f.mention.ref, False)
        t = links[0].target
        return Reading(t.doc, t.unit, t.clause, links[0].resolved)

    def _pair(self, asked: Reading, other: Reading) -> Pair | None:
        """The concordance's row for the other edition's clause, when the clause beside it in the
        asked edition is there (under another number: the asked edition has not this one)."""
        for p in self.editions.of_clause(other.doc, other.clause or ""):
            target, there = self.look.law_target(asked.doc, p.target)
            if p.other == asked.doc and there:
                beside = Reading(target.doc, target.unit, target.clause, True)
                older, newer = (other, beside) if other.doc == self._older(other.doc, asked.doc) else (beside, other)
                return Pair(older, newer, p.relation, p.note)
        return None

    def _older(self, a: str, b: str) -> str:
        pair = self.library.pair_of(a, b) or self.library.pair_of(b, a)
        return pair.older if pair else a

    def checked(self, r: Resolved) -> Checked:
        m, status = r.found.mention, status_of(r)
        shown = {EXISTS: r.asked, NUMBERED_OTHERWISE: r.other, NOT_IN_EDITION: r.other}.get(status)
        pair = None if r.pair is None else (self.clause(r.pair.older), self.clause(r.pair.newer),
                                            r.pair.relation, r.pair.note)
        asked = r.asked.clause or r.asked.unit or m.ref if r.asked else m.ref
        return Checked(m.start, m.end, m.raw, m.kind, status, r.asked.doc if r.asked else None,
                       r.found.stated is not None, asked, self.clause(shown) if shown else None, pair)

    def clause(self, reading: Reading) -> CitedClause:
        """The clause a reading names (the whole unit when it names a unit), text and all."""
        unit = self.store.unit(reading.doc, reading.unit or "")
        cid = reading.clause or unit["id"]
        label = readable(cid) if self.library.is_laws(reading.doc) else cid
        return CitedClause(reading.doc, self.library.edition(reading.doc) or "", unit["id"], cid, label,
                      unit.get("title") or "", subtree_text(unit, cid), url_for(reading.doc, unit["id"], cid))


def _languages(text: str, lang: str | None) -> tuple[str, ...]:
    """The grammars to read a text with (all three, the text's own first when it is said), once
    the text is one that can be checked."""
    if not text.strip():
        raise CiteError("no text to check: give the ruling, decision or answer whose citations to check")
    if len(text) > MAX_TEXT_CHARS:
        raise CiteError(f"text too long: {len(text)} characters, at most {MAX_TEXT_CHARS} (check it in parts)")
    if lang is not None and lang not in LANGS:
        raise CiteError(f"unknown language {lang!r}; languages: {', '.join(LANGS)}")
    return tuple(dict.fromkeys([lang, *LANGS] if lang else LANGS))


_KEYWORD_BEFORE = {lang: re.compile(rf"(?<![\w])(?:{grammar.keyword})\s*$") for lang, grammar in LANGUAGES.items()}


def _with_keyword(text: str, m: Mention, lang: str) -> Mention:
    """A Law id listed after another as the text writes it, its keyword with it: the grammar
    spans "16C2a" in "la Ley 12C1 y el Artículo 16C2a", a reader reads "Artículo 16C2a"."""
    k = _KEYWORD_BEFORE[lang].search(text, max(0, m.start - 16), m.start) if m.kind == "law" else None
    return replace(m, start=k.start(), raw=text[k.start():m.end]) if k else m


def _apart(mentions: list[Mention]) -> list[Mention]:
    """The mentions, in text order, none overlapping: at one place, the longest (then the first read)."""
    out: list[Mention] = []
    for m in sorted(mentions, key=lambda m: (m.start, m.start - m.end)):
        if not out or m.start >= out[-1].end:
            out.append(m)
    return out


def subtree_text(unit: dict[str, Any], cid: str) -> str:
    """A clause's text with its sub-clauses' (the unit's whole text for its own id), each
    sub-clause after its label: "27B1" reads "(a) …" and "(b) …"."""
    if cid == unit["id"]:
        return unit["text"]
    inside, lines = {cid}, []
    for c in unit["clauses"]:
        if c["id"] in inside or c.get("parent") in inside:
            inside.add(c["id"])
            own = [b.text for b in clause_blocks(c)]
            label = c.get("label") if c["id"] != cid and c.get("label") else ""
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
