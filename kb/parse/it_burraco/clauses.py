"""One article's clauses: sub-headings, items, bullets, paragraphs, definitions, footnotes."""
from __future__ import annotations

import re

from ...records.model import Clause, Footnote, Table, Unit
from ...common.text import ends_sentence, normalize_spaces, slugify, strip_bold
from ..kit.footnotes import holders, peel, placed, take_marks
from ..kit.ids import REPEATS, numbered, unique_id
from ..kit.paragraphs import add_paragraph, rejoin
from .articles import Article
from .blocks import FOOTNOTE_MARK, cut_mid_sentence, footnote_body, is_table, marker_of
from .tables import read_table
from .text import clean


DECIMAL_ITEM = re.compile(r"^-?\s*(\d+\.\d+)\s+(.*)$")
NUMBER_ITEM = re.compile(r"^-?\s*(\d+[.)])\s+(.*)$")
LETTER_ITEM = re.compile(r"^-?\s*([A-Za-z]\))\s+(.*)$")
BULLET = re.compile(r"^-\s+(.*)$")
TERM = re.compile(r"^([A-ZÀ-Ý][^:]{0,60}?)\s*:\s*(.*)$")


# Finite verbs that mark an all-caps line as a shouted sentence, not a sub-heading
# ("DOPO LO SCARTO NESSUNA ALTRA AZIONE È CONSENTITA").
FINITE_VERBS = frozenset({"È", "E'", "SONO", "PUÒ", "PUO'", "DEVE", "DEVONO", "SARÀ",
                          "SARA'", "COMPORTA", "VIGE", "VA", "VANNO"})
NOTE_PREFIXES = ("NB", "N.B.", "P.S.")
DEFINITIONS_TITLE = "DEFINIZIONI"


def _heading(block: list[str], is_last: bool) -> str | None:
    """The sub-heading a one-line block stands for, or None when it is text."""
    if is_last or len(block) != 1 or is_table(block):
        return None
    line = clean(block[0])
    if not line or BULLET.match(line) or _item(line) or FOOTNOTE_MARK.match(line):
        return None
    words = line.split()
    if not any(ch.isalpha() for ch in line):
        return None
    if line == line.upper():
        if (len(words) > 12 or re.search(r"[.;!?]$", line) or line.startswith(NOTE_PREFIXES)
                or any(w.strip(',:"') in FINITE_VERBS for w in words)):
            return None
    elif len(words) > 5 or not line[0].isupper() or ends_sentence(line):
        return None
    return line.rstrip(": ").strip()


def _item(line: str) -> tuple[str, str, str] | None:
    """(kind, marker, rest) of a numbered / lettered / decimal item line."""
    for kind, pattern in (("decimal", DECIMAL_ITEM), ("number", NUMBER_ITEM),
                          ("letter", LETTER_ITEM)):
        m = pattern.match(line)
        if m:
            return kind, m.group(1), m.group(2)
    return None


class _ArticleBuilder:
    """Builds one article's clauses in text order (see the module docstring for ids)."""

    def __init__(self, number: str) -> None:
        self.number = number
        self.clauses: list[Clause] = []
        self.pending_title: str | None = None
        self.paragraphs = 0
        self.last_was_bullet = False
        self.item_waits_for_text = False

    @property
    def current(self) -> Clause | None:
        return self.clauses[-1] if self.clauses else None

    def _add(self, cid: str, label: str, text: str, parent: str | None, **extra) -> Clause:
        clause = Clause(id=cid, parent=parent, label=label, text=text,
                        title=self.pending_title, extra=dict(extra))
        self.pending_title = None
        self.last_was_bullet = False
        self.item_waits_for_text = False
        self.clauses.append(clause)
        return clause

    def ensure_lead(self) -> None:
        if not self.clauses:
            title, self.pending_title = self.pending_title, None
            self.paragraphs = 1
            self.clauses.append(Clause(id=self.number, parent=None, label="", text=""))
            self.pending_title = title

    def paragraph(self, text: str) -> Clause:
        self.paragraphs += 1
        if self.paragraphs == 1:
            return self._add(self.number, "", text, None)
        return self._add(f"{self.number}-p{self.paragraphs}", "", text, self.number)

    def item(self, kind: str, marker: str, text: str) -> None:
        self.ensure_lead()
        key = marker.rstrip(".)").lower()
        parent = self.number
        if kind == "decimal":
            whole = f"{self.number}-{key.split('.')[0]}"
            parent = whole if any(c.id == whole for c in self.clauses) else self.number
        cid = unique_id(f"{self.number}-{key}", {c.id for c in self.clauses}, REPEATS)
        self._add(cid, marker, text, parent)
        self.item_waits_for_text = text.endswith(":")

    def append(self, text: str) -> None:
        self.current.text = add_paragraph(self.current.text, text)

    def heading(self, title: str) -> None:
        if self.pending_title is not None:  # a heading with nothing under it
            self.paragraph("")
        self.pending_title = title

    def table(self, table: Table) -> None:
        if self.pending_title is not None or not self.clauses:
            self.paragraph("")
        self.current.add_table(table)
        self.last_was_bullet = False

    def content(self, block: list[str]) -> None:
        for j, raw in enumerate(block):
            line = clean(raw)
            item = _item(line)
            bullet = BULLET.match(line)
            if item:
                self.item(*item)
            elif bullet:
                self.bullet(bullet.group(1), first=j == 0)
            elif j == 0 and self.item_waits_for_text and self.pending_title is None:
                self.append(line)
                self.item_waits_for_text = False
            elif j == 0 or not self.clauses:
                self.paragraph(line)
            else:
                self.append(line)

    def bullet(self, text: str, first: bool) -> None:
        clause = self.current
        goes_on = clause is not None and self.pending_title is None and (
            not first or self.last_was_bullet or clause.text.endswith(":"))
        if goes_on:
            self.append(text)
        else:
            self.paragraph(text)
        self.last_was_bullet = True

    def finish(self) -> list[Clause]:
        if self.pending_title is not None:
            self.paragraph("")
        self.ensure_lead()
        return self.clauses


def _article_clauses(number: str, blocks: list[list[str]]) -> list[Clause]:
    builder = _ArticleBuilder(number)
    for i, block in enumerate(blocks):
        title = _heading(block, is_last=i == len(blocks) - 1)
        if is_table(block):
            builder.table(read_table(block))
        elif title is not None:
            builder.heading(title)
        else:
            builder.content(block)
    return builder.finish()


def _definition_clauses(number: str, blocks: list[list[str]]) -> list[Clause]:
    """ART. 2: one clause per `Term: definition` paragraph; other lines continue it."""
    lead = Clause(id=number, parent=None, label="", text="")
    clauses = [lead]
    for block in blocks:
        for j, raw in enumerate(block):
            line = clean(raw)
            bullet = BULLET.match(line)
            term = TERM.match(line) if j == 0 and not bullet else None
            if term and len(term.group(1).split()) <= 6:
                name = term.group(1).strip()
                cid = unique_id(f"{number}-{slugify(name)}", {c.id for c in clauses}, numbered("-"))
                clauses.append(Clause(id=cid, parent=number, label=name, text=term.group(2),
                                      extra={"kind": "definition", "term": name}))
                continue
            text = bullet.group(1) if bullet else line
            clauses[-1].text = add_paragraph(clauses[-1].text, text)
    return clauses


def article_unit(art: Article, blocks: list[list[str]]) -> Unit:
    blocks, bodies = peel(blocks, footnote_body)
    blocks = rejoin(blocks, cut_mid_sentence)
    if slugify(art.title) == slugify(DEFINITIONS_TITLE):
        clauses = _definition_clauses(art.number, blocks)
    else:
        clauses = _article_clauses(art.number, blocks)
    footnotes = _attach_footnotes(clauses, dict(bodies))
    return Unit(id=art.number, kind="article", title=strip_bold(art.title), clauses=clauses,
                footnotes=footnotes, group=art.group)


def _attach_footnotes(clauses: list[Clause], texts: dict[str, str]) -> list[Footnote]:
    """Footnotes in marker order, each on every clause holding its marker (removed there)."""
    marks = {c.id: take_marks(c.text, FOOTNOTE_MARK, marker_of)[1] for c in clauses}
    found = dict.fromkeys(m for c in clauses for m in marks[c.id] if m in texts)
    footnotes = [placed(m, texts[m], holders(clauses, lambda c: m in marks[c.id])) for m in found]
    footnotes += [placed(m, text, []) for m, text in texts.items() if m not in found]
    for clause in clauses:
        if marks[clause.id]:
            clause.text = "\n".join(normalize_spaces(FOOTNOTE_MARK.sub("", ln))
                                    for ln in clause.text.split("\n"))
    return footnotes
