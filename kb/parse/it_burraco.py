"""Burraco "Codice di Gara" (FIBAS, aggiornato al 01 aprile 2014): sections → articles → clauses.

Structure read from the text
- `SEZIONE X – TITLE` body headings give `Parsed.groups` (A–G); every unit's `group` is
  the letter of the section it sits in. The front table of contents (dot leaders, a tab,
  `Pag. NN`) is dropped: its page numbers map to nothing in the body.
- `ART. N – TITLE` headings (separator en dash, hyphen, none, or before the number) give
  one unit per article: id = the number, kind "article", title as printed after the dash.
- Front matter gives `meta`: `version_date` (ISO) / `version_text` from "aggiornato al …",
  `editor` from "Redazione a cura di …".

ART. 20: no unit. The numbering jumps from ART. 19 to ART. 21 and nothing in the text
marks where an ART. 20 would start: ART. 19 ("PUNTEGGI") itself sends the reader to the
"RANGE DI RIFERIMENTO" table printed on the score sheets, so the facsimiles and range
tables after it read as its own material, and the closing paragraph on who fills in the
score has no heading either. Cutting an ART. 20 out of ART. 19 would invent a boundary, so
the parser keeps the text where it is printed and reports the gap instead:
`meta["missing_articles"] == ["20"]` (computed from the numbering, not hard-coded).

Clause ids (DESIGN §4 "ids from their own numbering"), per article N:
- `N`        the lead: the article's first paragraph (empty text when it opens with a
             list or a definition); parent None. Every other clause has parent `N`.
- `N-pK`     the K-th unnumbered paragraph (comma) of the article, the lead counting as
             K = 1, so "l'ultimo comma" is the highest K.
- `N-3`      a numbered item `3.` / `3)` / `- 3)`;
- `N-b`      a lettered item `b)` / `- B)` (letter in lower case);
- `N-2.1`    a decimal item `2.1`, parent `N-2`;
- a number printed twice in one article (ART. 35 has two `3.`) gets `bis`, `ter`, …:
  `35-3`, `35-3bis` (label stays "3.").
- `2-<slug of term>` a definition of ART. 2 (DEFINIZIONI), label = the term,
  `extra = {"kind": "definition", "term": …}`; paragraphs without a leading
  `Term:` and `- N)` lists continue the previous definition.

Within an article:
- an all-caps line standing alone (a noun phrase: no finite verb, not NB/P.S.) or a short
  mixed-case line without punctuation ("Senza Burraco") is a sub-heading: it becomes the
  `title` of the next clause (trailing colon dropped). All-caps *sentences* stay text.
- `- ` bullets join, one per line, the clause whose text introduces them (ends with ":")
  or the bullet list just before them; otherwise they open a new paragraph clause.
- an item ending with ":" takes the paragraph under it as its own text (ART. 24, 1./2.).
- tab-separated blocks are `Table`s on the clause where they sit (a pending sub-heading
  opens an empty clause for them). Rows before the first row holding a bare number are
  the header; a header row with fewer cells than the next one is the caption
  ("1 SMAZZATA"). Trailing empty cells are dropped, leading ones kept (alignment).
- two paragraphs split mid-sentence (no final punctuation, next starts in lower case)
  are joined back into one.
- footnotes `⁽¹⁾` / `^[1]`: the paragraph starting with the marker is the footnote text;
  the marker in the body is removed and the footnote records the clause that held it.
- the lines after the last article's text that start with an ellipsis (the closing jokes)
  are not normative: removed from the article, kept verbatim in `meta["trailer"]`.
- noise removed everywhere: `**`/`*` emphasis, `<p>` tags, superscripts (`1^a` → `1a`,
  stray `^R` dropped), tabs outside tables.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..model import Clause, Footnote, Parsed, Table, Unit
from ..text import ends_sentence, italian_date, normalize_spaces, slugify, strip_bold
from .kit.footnotes import Body, holders, peel, placed, plain_digits, take_marks
from .kit.ids import REPEATS, numbered, unique_id
from .kit.paragraphs import add_paragraph, continues, rejoin, runs
from .kit.tables import split_header, tab_cells, trimmed

SECTION = re.compile(r"^SEZIONE\s+([A-Z])\s*[–-]\s*(.+?)\s*$")
ARTICLE = re.compile(r"^ART\.\s*-?\s*(\d+)\s*[-–]?\s*(.+?)\s*$")
TOC_LINE = re.compile(r"\.{3,}\s*Pag\.\s*\d+\s*$")
VERSION = re.compile(r"aggiornato al\s+(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})", re.I)
EDITOR = re.compile(r"Redazione a cura di\s+(.+?)\s*$")

DECIMAL_ITEM = re.compile(r"^-?\s*(\d+\.\d+)\s+(.*)$")
NUMBER_ITEM = re.compile(r"^-?\s*(\d+[.)])\s+(.*)$")
LETTER_ITEM = re.compile(r"^-?\s*([A-Za-z]\))\s+(.*)$")
BULLET = re.compile(r"^-\s+(.*)$")
TERM = re.compile(r"^([A-ZÀ-Ý][^:]{0,60}?)\s*:\s*(.*)$")
TRAILER_LINE = re.compile(r"^\s*(\.\.\.|…)")

FOOTNOTE_MARK = re.compile(r"⁽([⁰¹²³⁴⁵⁶⁷⁸⁹]+)⁾|\^\[(\d+)\]")
ORDINAL = re.compile(r"(\d)\s*\^([a-zo])(?![A-Za-z])")
STRAY_SUPERSCRIPT = re.compile(r"\^(?!\[)[A-Za-z]+")
HTML_TAG = re.compile(r"</?p>")

# Finite verbs that mark an all-caps line as a shouted sentence, not a sub-heading
# ("DOPO LO SCARTO NESSUNA ALTRA AZIONE È CONSENTITA").
FINITE_VERBS = frozenset({"È", "E'", "SONO", "PUÒ", "PUO'", "DEVE", "DEVONO", "SARÀ",
                          "SARA'", "COMPORTA", "VIGE", "VA", "VANNO"})
NOTE_PREFIXES = ("NB", "N.B.", "P.S.")
DEFINITIONS_TITLE = "DEFINIZIONI"


def parse(text: str) -> Parsed:
    lines = [ln for ln in text.split("\n") if not TOC_LINE.search(ln)]
    front, groups, articles = _split(lines)
    meta = _front_meta(front)
    units: list[Unit] = []
    for i, art in enumerate(articles):
        blocks = _blocks(art.lines)
        if i == len(articles) - 1:
            blocks, trailer = _peel_trailer(blocks)
            if trailer:
                meta["trailer"] = trailer
        units.append(_unit(art, blocks))
    numbers = [int(u.id) for u in units]
    if numbers:
        missing = [str(n) for n in range(1, max(numbers) + 1) if n not in numbers]
        if missing:
            meta["missing_articles"] = missing
    return Parsed(units=units, groups=groups, meta=meta)


# ---- sections and articles -------------------------------------------------------------

@dataclass
class _Article:
    number: str
    title: str
    group: str | None
    lines: list[str] = field(default_factory=list)


def _split(lines: list[str]) -> tuple[list[str], list[dict[str, str]], list[_Article]]:
    """Front-matter lines, the section groups, and each article's raw lines.

    Text between a section heading and its first article (none in the 2014 edition)
    is kept as the group's "intro" rather than glued to the previous article.
    """
    front: list[str] = []
    groups: list[dict[str, str]] = []
    articles: list[_Article] = []
    target = front  # where the next body line goes
    for line in lines:
        bare = strip_bold(line).strip()
        section = SECTION.match(bare)
        article = ARTICLE.match(bare)
        if section:
            groups.append({"id": section.group(1), "title": normalize_spaces(section.group(2))})
            target = []
        elif article:
            group = groups[-1]["id"] if groups else None
            articles.append(_Article(article.group(1), normalize_spaces(article.group(2)), group))
            target = articles[-1].lines
        else:
            target.append(line)
            if groups and target is not front and not (articles and target is articles[-1].lines):
                intro = _clean(" ".join(target))
                if intro:
                    groups[-1]["intro"] = intro
    return front, groups, articles


def _front_meta(front: list[str]) -> dict:
    meta: dict = {}
    for line in front:
        version = VERSION.search(line)
        editor = EDITOR.search(line.strip())
        if version and italian_date(*version.groups()):
            meta["version_date"] = italian_date(*version.groups())
            meta["version_text"] = normalize_spaces(version.group(0))
        if editor:
            meta["editor"] = editor.group(1)
    return meta


# ---- blocks: blank-line separated paragraphs ---------------------------------------------

def _blocks(lines: list[str]) -> list[list[str]]:
    """The text's paragraphs: runs of non-blank lines."""
    return [[line.rstrip() for line in block] for block in runs(lines)]


def _is_table(block: list[str]) -> bool:
    return any("\t" in line for line in block)


def _peel_trailer(blocks: list[list[str]]) -> tuple[list[list[str]], list[str]]:
    """Closing lines that start with an ellipsis: not normative, kept as printed."""
    trailer: list[str] = []
    while blocks and all(TRAILER_LINE.match(line) for line in blocks[-1]):
        trailer = blocks[-1] + trailer
        blocks = blocks[:-1]
    return blocks, trailer


def _footnote_body(block: list[str]) -> Body | None:
    """(marker, text) of a paragraph that opens with a footnote marker."""
    mark = FOOTNOTE_MARK.match(block[0].strip())
    if not mark or _is_table(block):
        return None
    return _marker(mark), _clean(" ".join([block[0].strip()[mark.end():]] + block[1:]))


def _cut_mid_sentence(before: list[str], block: list[str]) -> bool:
    """A paragraph a page break (turned into a blank line) cut mid-sentence."""
    return (not _is_table(before) and not _is_table(block)
            and continues(before[-1], block[0].lstrip()))


# ---- cleaning ------------------------------------------------------------------------------

def _clean(s: str) -> str:
    """Markdown emphasis, HTML paragraphs and superscripts out; footnote markers kept."""
    s = strip_bold(s).replace("*", "")
    s = HTML_TAG.sub(" ", s)
    s = ORDINAL.sub(r"\1\2", s)
    s = STRAY_SUPERSCRIPT.sub("", s)
    return normalize_spaces(s)


def _marker(m: re.Match[str]) -> str:
    return plain_digits(m.group(1) or m.group(2))


def _heading(block: list[str], is_last: bool) -> str | None:
    """The sub-heading a one-line block stands for, or None when it is text."""
    if is_last or len(block) != 1 or _is_table(block):
        return None
    line = _clean(block[0])
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


# ---- tables ---------------------------------------------------------------------------------

def _table(block: list[str]) -> Table:
    rows = [cells for cells in (trimmed(tab_cells(line, _clean)) for line in block) if cells]
    header, rows = split_header(rows, lambda row: any(c.isdigit() for c in row))
    caption = None
    if len(header) > 1 and _filled(header[0]) < _filled(header[1]):
        caption = " ".join(c for c in header[0] if c)
        header = header[1:]
    if len(header) == 1:
        header = [_pair_labels(header[0], rows)]
    return Table(rows=rows, header=header, caption=caption)


def _filled(row: list[str]) -> int:
    return sum(1 for c in row if c)


def _pair_labels(cells: list[str], rows: list[list[str]]) -> list[str]:
    """A header printed one word per cell over columns that pair up, joined pair by pair.

    The "RANGE DI RIFERIMENTO" tables print `Diff. | MP | Victory | Points` over four
    columns: a difference range (`0 30`: from 0 to 30 MP) and a Victory Point split
    (`10 10`, `11 9`, … `20 0`). Each pair of columns is one quantity, so each pair of
    words is its label: ["Diff. MP", "", "Victory Points", ""] (the spanned cell left
    empty, as the other spanning headers of the knowledge base are). Any other header
    is kept as printed.
    """
    width = len(cells)
    if (width < 4 or width % 2 or any(len(r) > width for r in rows)
            or not all(c and len(c.split()) == 1 for c in cells)
            or not all(_paired(rows, i) for i in range(0, width, 2))):
        return cells
    out: list[str] = []
    for i in range(0, width, 2):
        out += [f"{cells[i]} {cells[i + 1]}", ""]
    return out


def _paired(rows: list[list[str]], i: int) -> bool:
    """Columns i and i+1 hold one quantity: a range (from <= to) or a split (constant sum)."""
    pairs = [(int(r[i]), int(r[i + 1])) for r in rows
             if len(r) > i + 1 and r[i].isdigit() and r[i + 1].isdigit()]
    if len(pairs) < 2:
        return False
    return all(a <= b for a, b in pairs) or len({a + b for a, b in pairs}) == 1


# ---- clauses --------------------------------------------------------------------------------

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
            line = _clean(raw)
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
        continues = clause is not None and self.pending_title is None and (
            not first or self.last_was_bullet or clause.text.endswith(":"))
        if continues:
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
        if _is_table(block):
            builder.table(_table(block))
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
            line = _clean(raw)
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


# ---- units and footnotes --------------------------------------------------------------------

def _unit(art: _Article, blocks: list[list[str]]) -> Unit:
    blocks, bodies = peel(blocks, _footnote_body)
    blocks = rejoin(blocks, _cut_mid_sentence)
    if slugify(art.title) == slugify(DEFINITIONS_TITLE):
        clauses = _definition_clauses(art.number, blocks)
    else:
        clauses = _article_clauses(art.number, blocks)
    footnotes = _attach_footnotes(clauses, dict(bodies))
    return Unit(id=art.number, kind="article", title=strip_bold(art.title), clauses=clauses,
                footnotes=footnotes, group=art.group)


def _attach_footnotes(clauses: list[Clause], texts: dict[str, str]) -> list[Footnote]:
    """Footnotes in marker order, each on every clause holding its marker (removed there)."""
    marks = {c.id: take_marks(c.text, FOOTNOTE_MARK, _marker)[1] for c in clauses}
    found = dict.fromkeys(m for c in clauses for m in marks[c.id] if m in texts)
    footnotes = [placed(m, texts[m], holders(clauses, lambda c: m in marks[c.id])) for m in found]
    footnotes += [placed(m, text, []) for m, text in texts.items() if m not in found]
    for clause in clauses:
        if marks[clause.id]:
            clause.text = "\n".join(normalize_spaces(FOOTNOTE_MARK.sub("", ln))
                                    for ln in clause.text.split("\n"))
    return footnotes
