"""Italian Laws 2017 (FIGB "Codice Internazionale del Bridge Duplicato"): the profile.

`parse(text)` returns the front matter and definitions (read by
`it_laws_front.front_units`) followed by the 93 Law articles read here.

How the articles are read (shared/notes/it-laws-2017.md §2–§5, §8):
- the body starts at the `ARTICOLO 1 -` heading after the table of contents
  (INDICE), so neither the TOC nor the introduction's quotation of Art. 23
  is ever read as an article;
- running page headers are cut (`lines_without_headers`); a sentence or a
  table row that a header split is re-joined;
- footnote lines (`* text`, `** text`, `- *text` …) are peeled off and
  attached to the clause holding the glued marker (`word*`, `word**`);
- markers build the clause tree (kb.clauseid.LawClauseTree); the markers the
  translation dropped are restored from the text's own signals (see
  `ArticleBuilder`): letters restarting at (a) open a new number, a run of
  plain bullets continues the numbering, an indented bullet under a line
  ending in ':' is a child;
- pipe tables become Table records (captions from the capitalised lines of
  Art. 77, side-by-side column pairs of Art. 78B unfolded).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..clauseid import LawClauseTree
from ..model import Clause, Footnote, Parsed, Table, Unit
from ..text import (ROMAN, is_pipe_row, is_pipe_separator, normalize_spaces,
                    pipe_cells, strip_bold)
from .it_laws_common import CUT, lines_without_headers
from .kit.footnotes import placed
from .kit.paragraphs import add_paragraph, continues
from .kit.tables import first_data
from .it_laws_front import front_units

ARTICLE_HEADING = re.compile(r"^ARTICOLO\s+(\d{1,3})\s*[-–]\s*(\S.*)$")
TOC_HEADING = re.compile(r"^\s*\**\s*(INDICE|SOMMARIO)\s*\**\s*$")
FOOTNOTE_LINE = re.compile(r"^\s*(?:-\s*)?(\*{1,3})\s*(\S.*)$")
DASH = re.compile(r"^(\s*)-\s+")
SECTION = re.compile(r"^([A-G])\.\s+(\S.*)$")
NUMBER = re.compile(r"^(\d{1,2})\.\s+(\S.*)$")
ITEM = re.compile(r"^\(([a-z]{1,4})\)\s*(.*)$|^([a-z])\)\s+(\S.*)$")
TRAILING_NUMBER = re.compile(r"^(?P<label>\D.*?)\s+(?P<value>\d[\d.]*)$")
# A footnote number printed in place of `*` (`avversario45)`): a long word with
# digits glued on. Only looked for when an article's footnote has no `*` marker.
GLUED_NUMBER = re.compile(r"(?<=[a-zà-ù]{4})(\d{1,3})(?=[).,;:]|\s|$)")
STAR_RUN = re.compile(r"\*+")
MAX_SUBHEADING_WORDS = 8

GROUP_TITLES = {"front": "Introduzioni", "definitions": "Definizioni"}


def parse(text: str) -> Parsed:
    text = unicodedata.normalize("NFC", text)
    front = front_units(text)
    articles = article_units(text)
    return Parsed(units=front + articles, groups=_groups(front), meta={})


def _groups(front: list[Unit]) -> list[dict[str, str]]:
    """The front matter's groups (ids chosen by it_laws_front); articles have no chapters."""
    groups: list[dict[str, str]] = []
    for unit in front:
        if unit.group and all(g["id"] != unit.group for g in groups):
            groups.append({"id": unit.group, "title": GROUP_TITLES.get(unit.group, unit.group)})
    return groups


# --- the body and its articles ----------------------------------------------------

def article_units(text: str) -> list[Unit]:
    lines = [line.replace("\u00a0", " ").rstrip() for _, line in lines_without_headers(text)]
    units: list[Unit] = []
    for number, title, body in _split_articles(lines, _body_start(lines)):
        units.append(ArticleBuilder(number, title, body).build())
    return units


def _body_start(lines: list[str]) -> int:
    """Index of the `ARTICOLO 1 -` heading that opens the body.

    The first one after the table of contents; without a TOC, the last one
    (an introduction may quote an article before the body).
    """
    firsts = [i for i, line in enumerate(lines)
              if (m := ARTICLE_HEADING.match(line)) and m.group(1) == "1"]
    if not firsts:
        return len(lines)
    toc = next((i for i, line in enumerate(lines) if TOC_HEADING.match(line)), None)
    after_toc = [i for i in firsts if toc is not None and i > toc]
    return after_toc[0] if after_toc else firsts[-1]


def _split_articles(lines: list[str], start: int) -> list[tuple[str, str, list[str]]]:
    articles: list[tuple[str, str, list[str]]] = []
    last = 0
    for line in lines[start:]:
        m = ARTICLE_HEADING.match(line)
        if m and int(m.group(1)) > last:
            last = int(m.group(1))
            articles.append((m.group(1), m.group(2), []))
        elif TOC_HEADING.match(line):
            break  # a table of contents printed after the body
        elif articles:
            articles[-1][2].append(line)
    return articles


# --- line records ----------------------------------------------------------------

@dataclass
class Line:
    """A body line after header cuts, joins and footnote peeling (or a whole table)."""

    text: str = ""
    blank_before: bool = False
    table: Table | None = None

    @property
    def dash(self) -> re.Match[str] | None:
        return DASH.match(self.text)

    @property
    def indented(self) -> bool:
        m = self.dash
        return bool(m and m.group(1))

    @property
    def body(self) -> str:
        """The line without its list dash and indentation."""
        return DASH.sub("", self.text).strip()


def bare(s: str) -> str:
    """Text without bold and footnote asterisks, spaces normalised."""
    return normalize_spaces(s.replace("*", ""))


def _rejoin(lines: list[str]) -> list[str]:
    """Drop header cuts, re-joining what a header split.

    A sentence continues when the line before lacks terminal punctuation and the
    line after starts in lower case; a table row continues when plain lower-case
    text follows a pipe row; a table continues when pipe rows sit on both sides.
    """
    out: list[str] = []
    i = 0
    while i < len(lines):
        if lines[i] != CUT:
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        k = len(out) - 1
        while k >= 0 and not out[k].strip():
            k -= 1
        before = out[k] if k >= 0 else ""
        after = lines[j] if j < len(lines) else ""
        if before and after and _joins(before, after):
            del out[k + 1:]
            out[k] = _join(before, after)
            i = j + 1
        elif before and after and is_pipe_row(before) and is_pipe_row(after):
            del out[k + 1:]
            i = j
        else:
            i += 1
    return out


def _joins(before: str, after: str) -> bool:
    """Text after a header goes on with the line before it: a sentence, or a table row's
    label (a pipe row before, whatever its last cell ends with)."""
    words = bare(DASH.sub("", after))
    if is_pipe_row(after):
        return False
    return continues(before, words) or (is_pipe_row(before) and words[:1].islower())


def _join(before: str, after: str) -> str:
    if is_pipe_row(before):  # the row's label goes on after the header
        cells = pipe_cells(before)
        cells[0] = f"{cells[0]} {after.strip()}"
        return "| " + " | ".join(cells) + " |"
    return f"{before.rstrip()} {after.strip()}"


def _is_footnote(line: str) -> re.Match[str] | None:
    m = FOOTNOTE_LINE.match(line)
    if not m:
        return None
    # `**bold text**` opening a paragraph is emphasis, not a footnote.
    if m.group(1) == "**" and "**" in m.group(2):
        return None
    return m


def _records(lines: list[str]) -> tuple[list[Line], list[tuple[str, str]]]:
    """Line records (tables grouped) and the article's footnotes (marker, text)."""
    records: list[Line] = []
    footnotes: list[tuple[str, str]] = []
    blank = False
    table_lines: list[str] = []
    for line in _rejoin(lines) + [""]:
        if table_lines and (is_pipe_row(line) or _table_tail(line, table_lines)):
            table_lines.append(line)
            continue
        if table_lines:
            records.append(Line(blank_before=blank, table=build_table(table_lines)))
            table_lines, blank = [], False
        if not line.strip():
            blank = True
        elif (fn := _is_footnote(line)):
            footnotes.append((fn.group(1), bare(strip_bold(fn.group(2)))))
            blank = True
        elif is_pipe_row(line):
            table_lines = [line]
        else:
            records.append(Line(text=line, blank_before=blank))
            blank = False
    return records, footnotes


def _table_tail(line: str, table_lines: list[str]) -> bool:
    """A plain line right under a table, ending in a number, is one more row of it."""
    return bool(line.strip()) and bool(TRAILING_NUMBER.match(bare(line))) \
        and is_pipe_row(table_lines[-1])


# --- tables ----------------------------------------------------------------------

def build_table(lines: list[str]) -> Table:
    header: list[list[str]] = []
    rows: list[list[str]] = []
    for i, line in enumerate(lines):
        if is_pipe_separator(line):
            continue
        if is_pipe_row(line):
            cells = [c.replace("*", "").strip() for c in pipe_cells(line)]
        else:
            cells = _plain_row(line, len(rows[-1]) if rows else 2)
        at_top = i + 1 < len(lines) and is_pipe_separator(lines[i + 1]) and i == 0
        if at_top:
            if any(cells):
                header.append(cells)
        elif any(cells):
            rows.append(cells)
    if not header and first_data(rows, _has_digit, none=0) > 0:
        header = [rows.pop(0)]  # the real header printed as the first data row
    return _unfold_pairs(Table(rows=rows, header=header))


def _plain_row(line: str, width: int) -> list[str]:
    m = TRAILING_NUMBER.match(bare(line))
    assert m  # guaranteed by _table_tail
    return [m.group("label")] + [""] * max(0, width - 2) + [m.group("value")]


def _has_digit(cells: list[str]) -> bool:
    return any(re.search(r"\d", c) for c in cells)


def _unfold_pairs(table: Table) -> Table:
    """Columns printed side by side (`A | B | A | B | A | B`) read as one column pair.

    Rows then run down the first pair, then the second…, as the print is read.
    """
    if len(table.header) != 1:
        return table
    head = table.header[0]
    for width in range(2, len(head) // 2 + 1):
        if len(head) % width or head[:width] * (len(head) // width) != head:
            continue
        rows = []
        for start in range(0, len(head), width):
            for row in table.rows:
                cells = row[start:start + width]
                if any(cells):
                    rows.append(cells)
        return Table(rows=rows, header=[head[:width]], caption=table.caption)
    return table


def _is_caps(s: str) -> bool:
    letters = [c for c in s if c.isalpha()]
    return len(letters) >= 3 and s == s.upper() and not SECTION.match(s)


def _captions(records: list[Line]) -> list[Line]:
    """Give each table the capitalised heading printed over it (Art. 77).

    Walking back from a table over caption-like lines (no final full stop), a
    capitalised line (`SLAM`, `PRESE DI CADUTA`) is its heading; the lines in
    between (`Per ogni presa addizionale`) complete the caption. A table right
    under another table keeps the heading of the one above. The lines used
    leave the text. Tables with no such heading (Art. 2, 78B) get no caption.
    """
    used: set[int] = set()
    heading_of: dict[int, str] = {}
    for t, rec in enumerate(records):
        if rec.table is None:
            continue
        lead: list[int] = []
        heading = None
        j = t - 1
        while j >= 0:
            prev = records[j]
            if prev.table is not None:
                heading = heading_of.get(j)
                break
            s = bare(prev.text)
            if prev.dash or NUMBER.match(s) or ITEM.match(s) or s.endswith("."):
                break
            if _is_caps(s):
                heading = s
                lead.insert(0, j)
                break
            lead.insert(0, j)
            j -= 1
        if heading is None:
            continue
        heading_of[t] = heading
        words = [bare(records[k].text) for k in lead if bare(records[k].text) != heading]
        rec.table.caption = heading + (" – " + " ".join(words) if words else "")
        used.update(lead)
    return [r for k, r in enumerate(records) if k not in used]


# --- clauses ---------------------------------------------------------------------

class ArticleBuilder:
    """Builds one article: clauses from markers (and from the markers the text dropped).

    Restoring dropped markers uses only the text's own signals:
    - an item with no number open, or `(a)` again after other items, opens an
      implied number (9B1, 27B1, 40A1, 40B1–B3, 50D1);
    - a plain bullet `- text` at the margin is the next number (10C1–4, 27B2–4,
      40A2–3, 50E1–4, 68B1–2, 68D1–2); when it is a whole sentence and indented
      bullets follow it, it is item (a) of an implied number instead (51B1–2,
      52B1);
    - an indented plain bullet ` - text` is a child of a number, or of an item
      that ends in ':' (40B2a(i)–(v), 40B2c(i)–(iv), 50D2a–b, 68D2a–b,
      68D2b(i)–(ii)); otherwise it is the next sibling (50D1b, 51B1b, 52B1b–c).
    """

    def __init__(self, number: str, title: str, lines: list[str]):
        self.number = number
        self.raw_title = title
        records, self.footnote_lines = _records(lines)
        self.records = _captions(records)
        self.tree = LawClauseTree(number)
        self.target: Clause = self.tree.current  # where plain text goes
        self.last_letter: str | None = None
        self.list_sections: set[str] = set()  # `- A. text` sections (no title)
        self.titled_numbers: set[str] = set()  # 86B `1. Unico risultato ottenuto`

    def build(self) -> Unit:
        for i, rec in enumerate(self.records):
            if rec.table is not None:
                self.tree.add_table(rec.table, to=self.target)
            else:
                self._line(i, rec)
        clauses = self.tree.clauses
        footnotes = self._footnotes(clauses)
        for clause in clauses:
            clause.text = clean_text(clause.text)
            if clause.title is not None:
                clause.title = clean_text(clause.title)
        return Unit(id=self.number, kind="article", title=clean_text(self.raw_title),
                    clauses=clauses, footnotes=footnotes)

    # -- one line
    def _line(self, i: int, rec: Line) -> None:
        body = rec.body
        section = SECTION.match(bare(body))
        if section and section.group(1) == self._next_section() and (rec.dash or rec.blank_before):
            return self._section(section.group(1), body, listed=bool(rec.dash))
        number = NUMBER.match(body)
        if number:
            return self._number(i, int(number.group(1)), number.group(2))
        item = ITEM.match(body)
        if item:
            return self._item(item.group(1) or item.group(3), item.group(2) or item.group(4) or "")
        if rec.dash:
            return self._bullet(i, rec)
        self._plain(rec)

    def _next_section(self) -> str:
        current = self.tree.level_marker("sec")
        return chr(ord(current) + 1) if current else "A"

    def _section(self, letter: str, body: str, listed: bool) -> None:
        rest = re.sub(r"^\**\s*[A-G]\.\s*", "", body)
        if listed:
            self.target = self.tree.section(letter, text=rest)
            self.list_sections.add(self.target.id)
        else:
            self.target = self.tree.section(letter, title=rest)

    def _number(self, i: int, n: int, rest: str) -> None:
        item = ITEM.match(rest)
        if item and item.group(1):
            self._open_number(n)
            return self._item(item.group(1), item.group(2))
        if self._is_subheading(i, rest):
            self.target = self.tree.number(n, title=rest)
            self.titled_numbers.add(self.target.id)
        else:
            self._open_number(n, rest)

    def _open_number(self, n: int, text: str = "", implied: bool = False) -> None:
        if self.tree.get(self._id_with_number(n)):
            self.tree.add_text(text, to=self.target)  # a repeated number is text, not a clause
            return
        self.target = self.tree.number(n, text=text, implied=implied)

    def _id_with_number(self, n: int) -> str:
        return f"{self.number}{self.tree.level_marker('sec') or ''}{n}"

    def _next_number(self) -> int:
        current = self.tree.level_marker("num")
        return int(current) + 1 if current else 1

    def _is_subheading(self, i: int, rest: str) -> bool:
        """`1. Unico risultato ottenuto` alone, then a plain paragraph: a numbered heading."""
        nxt = self.records[i + 1] if i + 1 < len(self.records) else None
        words = bare(rest).rstrip(".").split()
        return (nxt is not None and nxt.table is None and nxt.blank_before and not nxt.dash
                and not _is_marker(nxt.body) and len(words) <= MAX_SUBHEADING_WORDS
                and not re.search(r"[:;,]$", bare(rest)))

    def _item(self, token: str, rest: str) -> None:
        if self._is_roman(token):
            self.target = self.tree.roman(token, text=rest)
            return
        if len(token) != 1:
            self.tree.add_text(f"({token}) {rest}", to=self.target)
            return
        if self.tree.level_marker("num") is None or (token == "a" and self.tree.level_marker("item")):
            self._open_number(self._next_number(), implied=True)
        self.target = self.tree.item(token, text="")
        combined = ITEM.match(rest)  # `(g) (i) text`
        if combined and combined.group(1) and self._is_roman(combined.group(1)):
            self.target = self.tree.roman(combined.group(1), text=combined.group(2))
        else:
            self.tree.add_text(rest, to=self.target)

    def _is_roman(self, token: str) -> bool:
        """(i), (ii)… under an open item; but `(i)` right after item (h) is the letter i."""
        item = self.tree.level_marker("item")
        if token not in ROMAN or item is None:
            return False
        follows_letter = len(token) == 1 and chr(ord(item) + 1) == token
        return not (follows_letter and self.tree.level_marker("roman") is None)

    def _bullet(self, i: int, rec: Line) -> None:
        text = rec.body
        if not rec.indented:
            n = self._next_number()
            nxt = self.records[i + 1] if i + 1 < len(self.records) else None
            if bare(text).endswith(".") and nxt is not None and nxt.indented \
                    and not _is_marker(nxt.body):
                self._open_number(n, implied=True)
                self.target = self.tree.item("a", text=text, implied=True)
            else:
                self._open_number(n, text, implied=True)
            return
        item = self.tree.level_marker("item")
        roman = self.tree.level_marker("roman")
        if item is None:
            if self.tree.level_marker("num") is None:
                self._open_number(self._next_number(), implied=True)
            self.target = self.tree.item("a", text=text, implied=True)
        elif roman is None and bare(self.target.text).endswith(":"):
            self.target = self.tree.roman("i", text=text, implied=True)
        elif roman is None:
            self.target = self.tree.item(chr(ord(item) + 1), text=text, implied=True)
        else:
            self.target = self.tree.roman(_next_roman(roman), text=text, implied=True)

    def _plain(self, rec: Line) -> None:
        text = rec.body
        if not rec.blank_before:
            home = self.tree.home(self.target)
            sep = " " if continues(home.text, bare(text)) else "\n"
            home.text = add_paragraph(home.text, text, sep)
            return
        self.target = self._paragraph_home()
        self.tree.add_text(text, to=self.target)

    def _paragraph_home(self) -> Clause:
        """A new plain paragraph after a list belongs to the section (or article) around it,
        read after the list (the tree gives it a paragraph clause, `69B-p2`)."""
        clause = self.target
        while clause.parent is not None and not self._holds_paragraphs(clause):
            clause = self.tree.get(clause.parent) or self.tree.clauses[0]
        return clause

    def _holds_paragraphs(self, clause: Clause) -> bool:
        if clause.id in self.titled_numbers:
            return True
        level = _level(clause.id)
        return level == "sec" and clause.id not in self.list_sections

    # -- footnotes
    def _footnotes(self, clauses: list[Clause]) -> list[Footnote]:
        """Each footnote goes to every clause whose text carries its marker (70C3, D1, D2, E1
        for `normale*`); `clause` is the first of them."""
        footnotes = []
        for marker, text in self.footnote_lines:
            footnotes.append(placed(marker, text, self._marker_clauses(marker, clauses)))
        return footnotes

    def _marker_clauses(self, marker: str, clauses: list[Clause]) -> list[str]:
        """The clauses holding the marker, in text order. The first is found as before (the
        first marker, or a number printed in place of the asterisk); later ones must be glued
        to a word (`normale*`), since a stray bold `**` after `.` or `e` is no footnote mark."""
        found: list[str] = []
        if marker in footnote_markers(self.raw_title):
            found.append(self.number)
        for clause in clauses:
            for raw in (clause.title or "", clause.text):
                if clause.id not in found and marker in footnote_markers(raw, strict=bool(found)):
                    found.append(clause.id)
        if found:
            return found
        for clause in clauses:  # a number printed in place of the asterisk
            if GLUED_NUMBER.search(clause.text):
                clause.text = GLUED_NUMBER.sub("", clause.text, count=1)
                return [clause.id]
        return []


def _is_marker(body: str) -> bool:
    s = bare(body)
    return bool(NUMBER.match(s) or ITEM.match(s) or SECTION.match(s))


def _level(clause_id: str) -> str:
    m = re.match(r"^\d+([A-Z])?(\d+)?([a-z])?([ivx]+)?$", clause_id)
    if not m:
        return "art"
    for level, part in zip(("roman", "item", "num", "sec"), reversed(m.groups())):
        if part:
            return level
    return "art"


def _next_roman(numeral: str) -> str:
    value = ROMAN[numeral] + 1
    return next(k for k, v in ROMAN.items() if v == value)


def footnote_markers(raw: str, strict: bool = False) -> list[str]:
    """Footnote markers glued to words in a raw line, in order: `*`, `**`, `***`.

    `**` is also markdown bold: a `**` glued after a word closes a bold span if
    one is open, and is a footnote marker otherwise (`richiedere**,`). `strict`
    keeps only markers glued to a word of two letters or more: the unbalanced
    bold of 50E (`e** la conoscenza`, `dichiarante.**`) is not taken for marks.
    """
    markers: list[str] = []
    bold_open = False
    for m in STAR_RUN.finditer(raw):
        run = m.group(0)
        before = raw[m.start() - 1] if m.start() else " "
        after = raw[m.end()] if m.end() < len(raw) else " "
        glued_after_word = not before.isspace()
        opens = not after.isspace() and (before.isspace() or before in "([")
        mark = not strict or (m.start() >= 2 and raw[m.start() - 2:m.start()].isalpha())
        if len(run) == 2:
            if opens and not bold_open:
                bold_open = True
            elif bold_open and not before.isspace():
                bold_open = False
            elif glued_after_word:
                if mark:
                    markers.append(run)
            elif not bold_open:
                bold_open = True
        elif glued_after_word and mark:
            markers.append(run)
    return markers


def clean_text(raw: str) -> str:
    """Clause text without markdown residue, footnote markers or stray spacing."""
    paragraphs = []
    for part in raw.split("\n"):
        s = bare(strip_bold(part))
        s = DASH.sub("", s)
        s = re.sub(r"\s+([,.;])", r"\1", s)
        if s:
            paragraphs.append(s)
    return "\n".join(paragraphs)
