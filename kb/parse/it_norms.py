"""Profile `it_norms`: the FIGB "Norme Integrative al Codice Internazionale del Bridge".

Units (DESIGN §4)
- `premessa` (kind "front"): the PREMESSA and the DEFINIZIONI that follow the
  title block. The title block itself goes to `Parsed.meta` (`title_block`,
  `edition_text`, `deliberations`), the PREMESSA change log to `meta["changes"]`.
- one unit per norm heading `ARTICOLO N – TITLE` / `Art. N - Title` (kind "norm"),
  id = the Law number; `ARTICOLO 92 – ARTICOLO 93` (title on the next line) is a
  range, id `92-93`. `extra["law"]` lists the Law numbers the norm integrates.
- one unit per `APPENDICE N` (kind "appendix"), id from DESIGN's fixed list,
  chosen by a keyword of its title (App. 6 has none: its forms), else by number.
  `extra["appendix"]` = N, `extra["adopted"]` (ISO or None) and `adopted_text`.

Clause ids: `<unit>` for the unit's own preamble (possibly empty), then
`<unit>-<path>` where the path joins the norm's own markers from the outside in:
numbers `1.` / `1)` / `(1)` give `1`, letters `a)` / `a.` / `(a)` give `a`
(case kept: `A.` gives `A`), decimals `5.8` replace their section number
(`sipari-5.8`), `a.1` stays `a.1`. Two numbers in a row are separated by `-`
(`78-7a1-1a`: 7. a) 1) 1. a.), everything else is concatenated (`8-3b2a1`), the
same way the text cites itself ("punto b1b", "7a1g").
- Paragraphs labelled with a Law clause (`40A1(b)`, `43B3`, `78D`) get
  `<unit>-<compact clause>` (`40-40A1b`), `extra["law_clause"]`; a repeated label
  continues the same clause. `X1`..`X3` (App. 4) are cited document-wide: `sipari-X1`.
- Headings without a marker ("Penalità del morto", "Apertura 1♣:") get
  `<parent path>-<slug of the heading>` (suits spelled out) and do not enter their
  children's paths; "Term: text" paragraphs that introduce a list ("Verde: …",
  "Blu: …") become clauses `<path>-<slug of term>` whose list nests under them.
- A list that restarts numbering under the same parent (a clash) gets `_2`, `_3`
  appended to the clashing id (App. 3 §2, the two 1)–2) lists of its NOTE).
- Labels are the markers as printed (`a)`, `(1)`, `5.8`). Two repairs are flagged:
  a repeated `a)` in a running a), b) list becomes c) (`extra["printed_label"]`),
  the OCR-garbled `\\$.2` takes its section's number (`extra["label_restored"]`).

Footnotes (`Footnote.marker` is the plain digit, "4" for ⁴): a line starting with
a superscript digit is footnote text (a text
ending in ":" continues into the next paragraph); it is attached to the unit
and clause holding the marker, wherever the page break put it. Markers without
a footnote are dropped from the text and listed in `Unit.extra["missing_footnotes"]`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ..clauseid import ClauseId, closing_home, current_home
from ..model import Clause, Note, Parsed, Table, Unit
from ..text import italian_date, normalize_spaces, slugify
from .kit.footnotes import SUPERSCRIPT_DIGITS, placed, plain_digits, take_marks
from .kit.ids import numbered, unique_id
from .kit.paragraphs import add_paragraph, joined, runs
from .kit.tables import padded, split_header, tab_cells

SUPERSCRIPTS = SUPERSCRIPT_DIGITS
_SUP_RUN = re.compile(f"[{SUPERSCRIPTS}]+")

NORM_HEADING = re.compile(r"^(?:ARTICOLO|Art\.)\s+(\d{1,3})\s*[-–]\s*(.+)$")
RANGE_TITLE = re.compile(r"^ARTICOLO\s+(\d{1,3})$")
APPENDIX_HEADING = re.compile(r"^APPENDICE\s+(\d{1,2})$")

# DESIGN §4 fixes the appendix ids; a keyword of the printed title picks one.
APPENDIX_IDS = [
    ("SISTEMI", "sistemi"), ("PSICHICHE", "psichiche"), ("ALERT", "alert"),
    ("SIPARI", "sipari"), ("LINE-UP", "line-up"), ("VP", "tabelle-vp-imp"),
]
APPENDIX_IDS_BY_NUMBER = {1: "sistemi", 2: "psichiche", 3: "alert", 4: "sipari",
                          5: "line-up", 6: "moduli-cs", 7: "tabelle-vp-imp"}

SUITS = {"♣": " fiori ", "♦": " quadri ", "♥": " cuori ", "♠": " picche "}

GROUPS = [{"id": "front", "title": "Premessa"},
          {"id": "norme", "title": "Norme integrative"},
          {"id": "appendici", "title": "Appendici"}]


# --------------------------------------------------------------------------- cleaning

def clean_inline(s: str) -> str:
    """Markup residue out: LaTeX, `^h` superscripts, `<i>`, italic/bold asterisks."""
    s = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"\1/\2", s)
    s = re.sub(r"(?<!\\)\$([^$]*)\$", r"\1", s)          # $…$ inline maths
    s = s.replace("\\$", "$")
    s = re.sub(r"\s*\^\s*([A-Za-z]+)", r"\1", s)          # 1 ^h 00 ^m → 1h 00m
    s = re.sub(r"</?i>", "", s)
    s = re.sub(r"\*+(?=\()", " ", s)                      # Multi *(vedi note)
    s = re.sub(r"\(\*\)|\*+", lambda m: m.group(0) if m.group(0) == "(*)" else "", s)
    return normalize_spaces(s)


def strip_markers(s: str) -> tuple[str, list[str]]:
    """Remove superscript footnote markers; return the text and the markers (digits)."""
    return take_marks(s, _SUP_RUN, lambda m: plain_digits(m.group(0)))


def ends_statement(s: str) -> bool:
    return bool(re.search(r"[.;:!?…,][\"'»”]?$", s.rstrip()))


def ends_like_sentence(s: str) -> bool:
    """`ends_statement`, except for a closing abbreviation (`Incontri a K.O.`)."""
    if re.search(r"(?:\b[A-Z]\.){2,}$", s.rstrip()):
        return False
    return ends_statement(s)


def iso_date(text: str) -> str | None:
    m = re.search(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    if m:
        return f"{m[3]}-{int(m[2]):02d}-{int(m[1]):02d}"
    m = re.search(r"(\d{1,2}) ([a-z]+) (\d{4})", text.lower())
    return italian_date(m[1], m[2], m[3]) if m else None


def heading_slug(title: str) -> str:
    t = re.sub(r"\([^)]*\)", " ", title)
    for sym, word in SUITS.items():
        t = t.replace(sym, word)
    return slugify(t) or "sezione"


# --------------------------------------------------------------------------- footnotes

def extract_footnotes(lines: list[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Blank out footnote paragraphs; return the lines and (marker, text) pairs."""
    out = list(lines)
    notes: list[tuple[str, str]] = []
    i = 0
    while i < len(out):
        m = re.match(f"^([{SUPERSCRIPTS}]+)\\s*(.*)$", out[i].strip())
        if not m:
            i += 1
            continue
        paragraphs = [m[2]]
        out[i] = ""
        # a footnote whose text ends in ":" goes on into the next paragraph (⁴)
        while ends_with_colon(paragraphs[-1]):
            j = i + 1
            while j < len(out) and not out[j].strip():
                j += 1
            if j >= len(out):
                break
            paragraphs.append(out[j].strip())
            out[j] = ""
            i = j
        notes.append((plain_digits(m[1]),
                      "\n".join(clean_inline(p) for p in paragraphs)))
        i += 1
    return out, notes


def ends_with_colon(s: str) -> bool:
    return s.rstrip().endswith(":")


# --------------------------------------------------------------------------- line model

@dataclass
class Line:
    kind: str                    # "blank" | "row" | "text"
    text: str = ""               # cleaned text after bullet and marker
    raw: str = ""
    bullet: bool = False
    style: str | None = None     # marker style: "1.", "1)", "(1)", "a)", "a.", "A.", "(a)", "dec", "a.1", "X", "law"
    value: str = ""              # marker value used in ids
    label: str = ""              # marker as printed (cleaned)
    title: str | None = None     # an italic/colon lead-in split off the marker line
    hard_break: bool = False     # produced by splitting a merged line: never re-join
    cells: list[str] = field(default_factory=list)
    caption: bool = False


MARKERS = [
    ("dec", re.compile(r"^(\d{1,2}\.\d{1,2})(?:\s*-)?\s+(?=\S)")),
    ("dec?", re.compile(r"^\\?\$\.(\d{1,2})(?:\s*-)?\s+(?=\S)")),   # OCR `\$.2` for `4.2`
    ("X", re.compile(r"^(X\d{1,2})\s*-\s*(?=\S)")),
    ("a.1", re.compile(r"^([a-z]\.\d{1,2})\s+(?=\S)")),
    ("1.", re.compile(r"^(\d{1,2})\.\s+(?=\S)")),
    ("1)", re.compile(r"^(\d{1,2})\)\s+(?=\S)")),
    ("(1)", re.compile(r"^\((\d{1,2})\)\s+(?=\S)")),
    ("(a)", re.compile(r"^\(([a-z])\)\s+(?=\S)")),
    ("a)", re.compile(r"^([a-z])\)\s+(?=\S)")),
    ("a.", re.compile(r"^([a-z])\.\s+(?=\S)")),
    ("A.", re.compile(r"^([A-Z])\.\s+(?=\S)")),
]
LAW_LABEL = re.compile(r"^(\d{1,3})([A-Z])(\d{1,2})?((?:\([a-z]{1,4}\))*)\s+(?=\S)")
MERGED_BULLETS = re.compile(r"\s+-\s+(?=[A-Z0-9À-Ý♣♦♥♠])")
RUN_TOGETHER = re.compile(r"(?<=[a-zà-ù])(?=[A-Z]{4,}\b)")
TERM = re.compile(r"^([A-Z][\w'’]*(?: [\w'’]+){0,2}):\s+(\S.*)$")


def split_line(raw: str, laws: list[str]) -> list[Line]:
    """One source line → Line records (merged bullets and run-together words split)."""
    s = raw.strip()
    if not s:
        return [Line("blank")]
    if "\t" in raw:
        return [Line("row", raw=raw, cells=tab_cells(raw, clean_inline))]
    bullet = s.startswith("- ")
    if bullet:
        s = s[2:].strip()
    line = classify(s, laws)
    line.raw, line.bullet = raw, bullet
    pieces = [line]
    if bullet and line.style is None:
        parts = MERGED_BULLETS.split(line.text)
        pieces = [Line("text", text=p, raw=raw, bullet=True, hard_break=k > 0)
                  for k, p in enumerate(parts)]
    out: list[Line] = []
    for p in pieces:
        # `puntiECCEZIONE`: a capitalised keyword glued onto the previous word
        first, *rest = RUN_TOGETHER.split(p.text)
        p.text = first
        out.append(p)
        out.extend(Line("text", text=r, raw=raw, hard_break=True) for r in rest)
    return out


def classify(s: str, laws: list[str]) -> Line:
    m = LAW_LABEL.match(s)
    if m and m[1] in laws:
        value = m[1] + m[2] + (m[3] or "") + re.sub(r"[()]", "", m[4])
        if ClauseId.parse(value):
            label = m[0].strip()
            return finish_marker(Line("text", style="law", value=value, label=label), s[m.end():])
    for style, rx in MARKERS:
        m = rx.match(s)
        if m:
            v = m[1]
            label = {"1.": f"{v}.", "a.": f"{v}.", "A.": f"{v}.", "1)": f"{v})", "a)": f"{v})",
                     "(1)": f"({v})", "(a)": f"({v})", "dec?": f"?.{v}"}.get(style, v)
            line = Line("text", style=style, value=label if style == "dec?" else v, label=label)
            return finish_marker(line, s[m.end():])
    return Line("text", text=clean_inline(s))


def finish_marker(line: Line, rest: str) -> Line:
    """Split an italic lead-in (`*Title:* text`) or a `5.8 - Title: text` lead-in."""
    m = re.match(r"^\*+([^*]+?)\*+\s*(.*)$", rest)
    if m and m[1].strip():
        title = clean_inline(m[1]).rstrip(":").strip()
        line.title, line.text = title, clean_inline(m[2])
        return line
    rest = clean_inline(rest)
    if line.style in ("dec", "dec?"):
        m = re.match(r"^([^:]{3,120}?):\s+(\S.*)$", rest)
        if m and len(m[1].split()) <= 14:
            line.title, line.text = m[1].strip(), m[2]
            return line
    line.text = rest
    return line


# --------------------------------------------------------------------------- ids and sequences

def is_next(a: str, b: str) -> bool:
    ma, mb = re.match(r"^(.*?)(\d+)$", a), re.match(r"^(.*?)(\d+)$", b)
    if ma and mb:
        return ma[1] == mb[1] and int(mb[2]) == int(ma[2]) + 1
    if len(a) == 1 and len(b) == 1 and a.isalpha() and b.isalpha():
        return ord(b) == ord(a) + 1
    return False


def next_value(a: str) -> str:
    m = re.match(r"^(.*?)(\d+)$", a)
    if m:
        return f"{m[1]}{int(m[2]) + 1}"
    return chr(ord(a) + 1) if len(a) == 1 else a


def is_start(v: str) -> bool:
    return v in ("a", "A") or bool(re.match(r"^(.*\D)?1$", v))


def join_path(components: list[tuple[str, str]]) -> str:
    """(kind, text) components → the path part of a clause id (see module doc)."""
    parts: list[tuple[str, str]] = []           # (kind, text)
    for kind, text in components:
        if parts and kind == "dec" and text.startswith(parts[-1][1] + "."):
            parts[-1] = (kind, text)               # 5 then 5.8 → 5.8
        else:
            parts.append((kind, text))
    out = ""
    prev_kind = ""
    for kind, text in parts:
        if out and ("slug" in (kind, prev_kind) or (out[-1].isdigit() and text[0].isdigit())):
            out += "-"
        out += text
        prev_kind = kind
    return out


# --------------------------------------------------------------------------- clause builder

@dataclass
class Level:
    style: str                          # marker style, or "heading" / "term" / "law"
    value: str
    clause: Clause
    component: tuple[str, str] | None   # id path component; None: not in children's ids
    is_title: bool = False              # heading-like: the paragraphs after it are its own


class ClauseBuilder:
    """Turns the Line records of one unit into clauses, in text order."""

    def __init__(self, unit_id: str, root_label: str):
        self.unit_id = unit_id
        self.root = Clause(id=unit_id, parent=None, label=root_label, text="")
        self.clauses = [self.root]
        self.by_id = {unit_id: self.root}
        self.stack: list[Level] = []
        self.last_text: Clause | None = None   # clause whose last paragraph may continue

    @property
    def current(self) -> Clause:
        return self.stack[-1].clause if self.stack else self.root

    def _path(self, upto: int) -> list[tuple[str, str]]:
        return [lv.component for lv in self.stack[:upto] if lv.component]

    def _free_id(self, components: list[tuple[str, str]]) -> str:
        return unique_id(f"{self.unit_id}-{join_path(components)}", self.by_id, numbered("_"))

    def _open(self, at: int, level: Level, cid: str, label: str, title: str | None,
              new_list: bool = False) -> Clause:
        sibling = self.stack[at].clause if at < len(self.stack) and self.stack[at].style == level.style \
            else None
        del self.stack[at:]
        parent = self.current
        intro = current_home(self.clauses, parent)
        if sibling is not None and not new_list:
            parent = self.by_id[sibling.parent or self.unit_id]   # the list goes on where it began
        elif new_list and intro is not None and intro is not parent and ends_with_colon(intro.text):
            parent = intro                  # a list nests under the paragraph that introduces it
        clause = Clause(id=cid, parent=parent.id, label=label, text="", title=title)
        self.clauses.append(clause)
        self.by_id[cid] = clause
        level.clause = clause
        self.stack.append(level)
        self.last_text = None
        return clause

    def _place(self, style: str, value: str) -> int:
        """Stack index where a marker of this style and value opens its clause."""
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].style == style and is_next(self.stack[i].value, value):
                return i
        if self.stack and self.stack[-1].style == style:
            return len(self.stack) - 1          # a list never nests directly in itself
        styles = [lv.style for lv in self.stack]
        if style in styles and not is_start(value):
            return max(i for i, st in enumerate(styles) if st == style)
        return len(self.stack)

    def marker(self, line: Line, is_title: bool) -> Clause:
        if line.style == "law":
            return self._law(line, is_title)
        style, value, extra = line.style or "", line.value, {}
        if style == "dec?":                     # `\$.2`: the section number was garbled
            section = next((lv.value for lv in reversed(self.stack) if lv.style == "1."), "")
            style, value = "dec", section + line.value[1:]
            line.label, extra["label_restored"] = value, True
        at = self._place(style, value)
        kind = "dec" if style == "dec" else "marker"
        if style == "X":                        # X1..X3 are cited document-wide
            comps = [(kind, value)]
        else:
            comps = self._path(at) + [(kind, value)]
            if f"{self.unit_id}-{join_path(comps)}" in self.by_id and at < len(self.stack) \
                    and self.stack[at].style == style and not is_next(self.stack[at].value, value):
                # `a) b) a)`: a repeated marker in a running list; the sequence says c)
                fixed = next_value(self.stack[at].value)
                extra["printed_label"] = line.label
                line.label = line.label.replace(value, fixed, 1)
                value = fixed
                comps = self._path(at) + [(kind, value)]
        title, text = line.title, line.text
        if is_title:
            title, text = text, ""
        clause = self._open(at, Level(style, value, self.root, (kind, value),
                                      bool(title) and not text), self._free_id(comps), line.label, title,
                            new_list=is_start(value))
        clause.extra.update(extra)
        self.add_text(clause, text)
        return clause

    def _law(self, line: Line, is_title: bool) -> Clause:
        keep = 0
        while keep < len(self.stack) and self.stack[keep].style == "heading":
            keep += 1
        cid = f"{self.unit_id}-{line.value}"
        existing = self.by_id.get(cid)
        if existing is not None:                # the same label again: a new paragraph of it
            del self.stack[keep:]
            self.stack.append(Level("law", line.value, existing, None, True))
            self.add_text(existing, line.text)
            return existing
        title, text = (line.text, "") if is_title else (line.title, line.text)
        clause = self._open(keep, Level("law", line.value, self.root, None, True), cid, line.label, title)
        clause.extra["law_clause"] = line.value
        self.add_text(clause, text)
        return clause

    def heading(self, title: str) -> Clause:
        at = next((i for i, lv in enumerate(self.stack) if lv.style == "heading"), len(self.stack))
        cid = self._free_id(self._path(at) + [("slug", heading_slug(title))])
        clause = self._open(at, Level("heading", "", self.root, None, True), cid, "", title)
        law = re.search(r"\((\d{1,3}[A-Z]\d{0,2}[a-z]?)\)\s*$", title)
        if law and ClauseId.parse(law[1]):
            clause.extra["law_clause"] = law[1]
        return clause

    def term(self, term: str, text: str) -> Clause:
        self.pop_terms()
        at = len(self.stack)
        comp = ("slug", heading_slug(term))
        clause = self._open(at, Level("term", "", self.root, comp, True),
                            self._free_id(self._path(at) + [comp]), term, term)
        self.add_text(clause, text)
        return clause

    def in_terms(self) -> bool:
        """Is a "Term: text" clause open (a run of categories like App. 1's colours)?"""
        return any(lv.style == "term" for lv in self.stack)

    def heading_with_text(self) -> bool:
        top = self.stack[-1] if self.stack else None
        home = current_home(self.clauses, self.current)
        return top is not None and top.style == "heading" and home is not None and bool(home.text)

    def pop_terms(self) -> None:
        idx = [i for i, lv in enumerate(self.stack) if lv.style == "term"]
        if idx:
            del self.stack[idx[-1]:]

    def pop_text_items(self, next_marker: Line | None) -> None:
        """A paragraph after a list of plain items belongs to the list's parent,
        unless the list goes on after it (then it is the last item's own). When no
        marker follows in the unit, titled items are closed too: the paragraph ends the
        outermost point that holds them (87 §2: "Se, per effetto di un risultato…"
        after its a)–c) schema, not in c)4)."""
        while self.stack:
            top = self.stack[-1]
            nested = len(self.stack) > 1 and self.stack[-2].style not in ("heading", "term", "law")
            if top.style in ("heading", "term", "law") or top.is_title and not (next_marker is None and nested):
                return
            if next_marker is not None and next_marker.style == top.style \
                    and is_next(top.value, next_marker.value):
                return
            self.stack.pop()

    def home(self, clause: Clause) -> Clause:
        """Where `clause`'s text goes now: itself, or after its items a paragraph clause."""
        return closing_home(self.clauses, clause, self.by_id)

    def can_continue(self) -> bool:
        """Does the current clause end with a paragraph cut mid-sentence?"""
        c = current_home(self.clauses, self.current)
        return c is not None and self.last_text is c and bool(c.text) \
            and not re.search(r"[.;:!?][\"'»”)]?$", c.text)

    def paragraph(self, text: str, join: bool, force: bool = False) -> None:
        c = current_home(self.clauses, self.current)
        if join and c is not None and (self.can_continue() or force and self.last_text is c):
            c.text += " " + text.strip()
        else:
            self.add_text(self.current, text)

    def introduce(self, text: str) -> None:
        """A list introduction after a heading's own paragraphs ends the heading: it is a
        paragraph clause of the heading's parent, and the list it introduces nests under it
        (App. 3 §2: after NOTE, the should-alert and the not-alerted lists are §2's own)."""
        del self.stack[-1]
        self.add_text(self.current, text)

    def add_text(self, clause: Clause, text: str) -> None:
        text = text.strip()
        if text:
            home = self.home(clause)
            home.text = add_paragraph(home.text, text)
            self.last_text = home

    def table(self, table: Table) -> None:
        self.home(self.current).add_table(table)
        self.last_text = None

    def note(self, text: str) -> None:
        self.home(self.current).add_note(Note(kind="note", text=text))


# --------------------------------------------------------------------------- tables

def numbered_row(row: list[str]) -> bool:
    """A data row opens with a number (a board count, a rank)."""
    return bool(re.match(r"^\d", row[0]))


def table_from_rows(rows: list[list[str]], caption: str | None,
                    is_data: Callable[[list[str]], bool] = numbered_row) -> Table:
    """Rows padded to the widest; the rows above the first data row are the header (all
    but the last when none is)."""
    rows = padded(rows)
    header, rows = split_header(rows, is_data, none=len(rows) - 1)
    return Table(rows=rows, header=header, caption=caption)


def table_run(items: list[Line], start: int) -> tuple[int, list[list[list[str]]]]:
    """Rows from `start` on, blank lines inside allowed; a row restarting the first
    data row's key (`6` … `6`) starts a new table. Returns (end index, tables)."""
    tables: list[list[list[str]]] = [[]]
    i = start
    last = start
    while i < len(items):
        it = items[i]
        if it.kind == "blank":
            i += 1
            continue
        if it.kind != "row":
            break
        data = [r for r in tables[-1] if re.match(r"^\d", r[0])]
        if data and it.cells[0] == data[0][0]:
            tables.append([])
        tables[-1].append(it.cells)
        last = i
        i += 1
    return last, tables


def is_caption_like(it: Line) -> bool:
    return (it.kind == "text" and not it.style and not it.bullet and len(it.text.split()) <= 15
            and (it.text.endswith(":") or not ends_statement(it.text)))


def mark_captions(items: list[Line], start: int, count: int) -> list[str | None]:
    """Caption paragraphs just before a run of `count` tables, in order (Art. 8 prints
    both captions before both tables)."""
    found: list[Line] = []
    j = start - 1
    while j >= 0 and (items[j].kind == "blank" or is_caption_like(items[j])):
        if items[j].kind == "text":
            found.insert(0, items[j])
        j -= 1
    found = found[-count:] if count else []
    for it in found:
        it.caption = True
    captions: list[str | None] = [it.text.rstrip(":").strip() for it in found]
    return captions + [None] * (count - len(captions))


# --------------------------------------------------------------------------- unit bodies

def next_nonblank(items: list[Line], i: int) -> int | None:
    j = i + 1
    while j < len(items) and items[j].kind == "blank":
        j += 1
    return j if j < len(items) else None


def alone_in_block(items: list[Line], i: int) -> bool:
    before = i == 0 or items[i - 1].kind == "blank"
    after = i + 1 >= len(items) or items[i + 1].kind == "blank"
    return before and after


def marker_is_title(items: list[Line], i: int) -> bool:
    it = items[i]
    t = it.text
    if it.title is not None or not t or not t[0].isupper() or len(t.split()) > 25:
        return False
    j = next_nonblank(items, i)
    if j is None:
        return False
    nxt = items[j]
    if nxt.kind == "text" and nxt.style == it.style and is_next(it.value, nxt.value):
        return False
    if not ends_like_sentence(t):
        return True
    # `2. Tempo per la presentazione della richiesta di revisione.`: a section heading with a period
    return (it.style == "1." and not it.bullet and t.endswith(".") and len(t.split()) <= 12
            and alone_in_block(items, i) and nxt.kind == "text" and not nxt.style)


def heading_candidate(items: list[Line], i: int | None) -> bool:
    if i is None:
        return False
    it = items[i]
    t = it.text
    if it.kind != "text" or it.style or it.bullet or it.caption or it.hard_break:
        return False
    if not t or not t[0].isupper() or len(t.split()) > 12 or ": " in t:
        return False
    if re.search(r"[.;,!?]$", t) and ends_like_sentence(t):
        return False
    j = next_nonblank(items, i)
    if j is None or items[j].kind == "row":
        return False
    if t.endswith(":"):
        return items[j].bullet and not items[j].style
    return alone_in_block(items, i)


def next_marker(items: list[Line], i: int) -> Line | None:
    for it in items[i + 1:]:
        if it.kind == "text" and it.style:
            return it
    return None


def find_tables(items: list[Line]) -> dict[int, tuple[int, list[Table]]]:
    """Every run of table rows: start index → (end index, tables with their captions).
    Runs first, so caption paragraphs are known before the text reaches them."""
    runs: dict[int, tuple[int, list[Table]]] = {}
    i = 0
    while i < len(items):
        if items[i].kind == "row":
            end, tables = table_run(items, i)
            captions = mark_captions(items, i, len(tables))
            runs[i] = (end, [table_from_rows(rows, cap) for rows, cap in zip(tables, captions)])
            i = end
        i += 1
    return runs


def build_body(builder: ClauseBuilder, items: list[Line]) -> None:
    runs = find_tables(items)
    i = 0
    prev: Line | None = None          # the previous text line of the same block
    while i < len(items):
        it = items[i]
        if it.kind == "blank":
            prev = None
        elif it.kind == "row":
            end, tables = runs[i]
            for table in tables:
                builder.table(table)
            i, prev = end, None
        elif it.caption:
            pass
        elif it.style:
            builder.marker(it, marker_is_title(items, i))
            prev = it
        else:
            unmarked(builder, items, i, prev)
            prev = it
        i += 1


def unmarked(builder: ClauseBuilder, items: list[Line], i: int, prev: Line | None) -> None:
    it = items[i]
    text = it.text
    after_blank = prev is None
    if heading_candidate(items, i) and not heading_candidate(items, next_nonblank(items, i)):
        builder.heading(text.rstrip(":").strip())
        return
    if it.bullet:
        if after_blank:
            builder.pop_text_items(next_marker(items, i))
        builder.add_text(builder.current, text)
        return
    lower = text[:1].islower()
    if after_blank and lower and builder.can_continue():
        builder.paragraph(text, join=True)      # a paragraph cut by a page break
        return
    if not after_blank and not it.hard_break and (lower or (not prev.style and not prev.bullet)):
        builder.paragraph(text, join=True, force=lower)   # a line break inside a sentence
        return
    if after_blank:
        builder.pop_text_items(next_marker(items, i))
    if text.startswith("(*)"):
        builder.note(text)
        return
    j = next_nonblank(items, i)
    opens_list = j is not None and bool(items[j].style) and is_start(items[j].value)
    term = TERM.match(text)
    if term:
        in_terms = builder.in_terms()
        builder.pop_terms()
        if opens_list or in_terms:      # "Verde: …" + criteria, then "Arancione: …" without
            builder.term(term[1], term[2])
            return
    if opens_list and ends_with_colon(text) and builder.heading_with_text():
        builder.introduce(text)
        return
    builder.paragraph(text, join=False)


def build_forms(builder: ClauseBuilder, items: list[Line]) -> None:
    """App. 6: forms. A line followed by a table is a form's name; other lines are its prompts."""
    i = 0
    while i < len(items):
        it = items[i]
        if it.kind == "row":
            end, tables = table_run(items, i)
            for rows in tables:
                builder.table(table_from_rows(rows, None, is_data=lambda row: True))
            i = end
        elif it.kind == "text":
            j = next_nonblank(items, i)
            if j is not None and items[j].kind == "row":
                clause = builder.heading(it.text)
                clause.extra["form"] = True
            else:
                builder.add_text(builder.current, it.text)
        i += 1


def body_lines(raw: list[str], laws: list[str]) -> list[Line]:
    items: list[Line] = []
    for line in raw:
        items.extend(split_line(line, laws))
    while items and items[0].kind == "blank":
        items.pop(0)
    while items and items[-1].kind == "blank":
        items.pop()
    return items


# --------------------------------------------------------------------------- splitting units

@dataclass
class UnitSpec:
    kind: str                        # "norm" | "appendix"
    number: str                      # first Law number / appendix number
    title: str | None
    laws: list[str] = field(default_factory=list)
    statement: str | None = None     # `(Adottata il …)` as printed, without parentheses
    body: list[str] = field(default_factory=list)


def is_caps(s: str) -> bool:
    letters = [c for c in s if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)


def split_units(lines: list[str]) -> tuple[list[str], list[UnitSpec]]:
    front: list[str] = []
    units: list[UnitSpec] = []
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        norm, app = NORM_HEADING.match(s), APPENDIX_HEADING.match(s)
        if norm:
            title, laws = norm[2].strip(), [norm[1]]
            rng = RANGE_TITLE.match(title)
            if rng:                               # `ARTICOLO 92 – ARTICOLO 93`, title below
                laws = [str(n) for n in range(int(norm[1]), int(rng[1]) + 1)]
                j = next_text_line(lines, i)
                title, i = (lines[j].strip(), j) if j is not None else (None, i)
            units.append(UnitSpec("norm", norm[1], title, laws))
        elif app:
            spec = UnitSpec("appendix", app[1], None)
            j = next_text_line(lines, i)
            if j is not None and is_caps(lines[j]) and not lines[j].strip().startswith("("):
                spec.title, i = lines[j].strip(), j
                j = next_text_line(lines, i)
            if j is not None and re.match(r"^\(.+\)$", lines[j].strip()):
                spec.statement, i = lines[j].strip()[1:-1].strip(), j
            units.append(spec)
        elif units:
            units[-1].body.append(lines[i])
        else:
            front.append(lines[i])
        i += 1
    return front, units


def next_text_line(lines: list[str], i: int) -> int | None:
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    return j if j < len(lines) else None


def appendix_id(spec: UnitSpec) -> str:
    title = (spec.title or "").upper()
    for keyword, uid in APPENDIX_IDS:
        if re.search(rf"\b{re.escape(keyword)}\b", title):
            return uid
    return APPENDIX_IDS_BY_NUMBER.get(int(spec.number), f"appendice-{spec.number}")


def build_unit(spec: UnitSpec) -> Unit:
    if spec.kind == "norm":
        uid = spec.laws[0] if len(spec.laws) == 1 else f"{spec.laws[0]}-{spec.laws[-1]}"
        title = clean_inline(spec.title) if spec.title else None
        unit = Unit(id=uid, kind="norm", title=title, group="norme", extra={"law": spec.laws})
        builder = ClauseBuilder(uid, uid)
    else:
        uid = appendix_id(spec)
        unit = Unit(id=uid, kind="appendix", title=clean_inline(spec.title) if spec.title else None,
                    group="appendici", extra=appendix_extra(spec))
        builder = ClauseBuilder(uid, "")
    items = body_lines(spec.body, spec.laws)
    if any(it.kind == "row" and "<i>" in it.raw for it in items):
        build_forms(builder, items)
    else:
        build_body(builder, items)
    unit.clauses = builder.clauses
    return unit


def appendix_extra(spec: UnitSpec) -> dict:
    extra: dict = {"appendix": int(spec.number)}
    stated = spec.statement or ""
    adopted = iso_date(stated) if re.search(r"adottat", stated, re.I) else None
    extra["adopted"] = adopted
    extra["adopted_text"] = stated or None
    if adopted is None:
        # App. 7: no date, only "Conformi alla Normativa WBF"; its text says since when
        for line in spec.body:
            m = re.search(r"\bdal (\d{4})\b", line)
            if m:
                extra["since"] = m[1]
                extra["since_text"] = clean_inline(line)
                break
    return extra


# --------------------------------------------------------------------------- front matter

def build_front(lines: list[str]) -> tuple[Unit | None, dict]:
    """Title block → meta; PREMESSA (+ DEFINIZIONI) → the `premessa` front unit."""
    bold = [i for i, l in enumerate(lines) if l.strip().startswith("**") or l.strip().endswith("**")]
    if bold:
        head, rest = lines[: bold[0]], lines[bold[-1] + 1:]
    else:
        k = next((i for i, l in enumerate(lines) if is_caps(l) and l.strip().startswith("PREMESSA")), 0)
        head, rest = lines[:k], lines[k:]
    meta = title_block_meta(paragraphs(head))
    paras = paragraphs(rest)
    if not paras:
        return None, meta
    unit = Unit(id="premessa", kind="front", title=paras[0], group="front")
    root = Clause(id="premessa", parent=None, label="", text="")
    unit.clauses.append(root)
    section, term = root, None
    changes = []
    for k, p in enumerate(paras[1:], 1):
        nxt = paras[k + 1] if k + 1 < len(paras) else None
        if is_caps(p):
            section = Clause(id=f"premessa-{heading_slug(p)}", parent="premessa", label="", text="", title=p)
            unit.clauses.append(section)
            term = None
            continue
        m = re.match(r"^(\d{1,2}/\d{1,2}/\d{4}):\s*(.+)$", p)
        if m:
            changes.append({"date": iso_date(m[1]), "date_text": m[1], "text": m[2]})
        if section.title and section.title.upper().startswith("DEFINIZION") \
                and not ends_statement(p) and len(p.split()) <= 6 and nxt and not is_caps(nxt):
            term = Clause(id=f"premessa-def-{heading_slug(p)}", parent=section.id, label="",
                          text="", title=p, extra={"term": p})
            unit.clauses.append(term)
            continue
        target = term or section
        target.text = add_paragraph(target.text, p)
    meta["changes"] = changes
    return unit, meta


def paragraphs(lines: list[str]) -> list[str]:
    return [clean_inline(joined(block)) for block in runs(lines)]


def title_block_meta(paras: list[str]) -> dict:
    meta: dict = {"title_block": paras}
    edition = next((p for p in paras if p.startswith("Edizione")), None)
    if edition:
        meta["edition_text"] = edition
    text = " ".join(paras)
    meta["deliberations"] = [
        {"number": m[1], "date": iso_date(m[2]), "text": m[0]}
        for m in re.finditer(r"Delibera(?: CF)? n\. (\d+/\d{4}) del (\d{1,2}/\d{1,2}/\d{4}|\d{1,2} [a-z]+ \d{4})", text)]
    return meta


def link_changes(changes: list[dict], units: list[Unit]) -> None:
    """Name the units each change-log entry concerns; give norms their stated date."""
    by_id = {u.id: u for u in units}
    for entry in changes:
        ids: list[str] = []
        m = re.search(r"articol[oi]\s+(\d+(?:\s*(?:,|e)\s*\d+)*)", entry["text"])
        if m:
            ids += [n for n in re.findall(r"\d+", m[1]) if n in by_id]
        ids += [uid for uid in APPENDIX_IDS_BY_NUMBER.values()
                if uid in by_id and re.search(rf"\b{re.escape(uid)}\b", entry["text"], re.I)]
        entry["units"] = ids
        for uid in ids:
            unit = by_id[uid]
            if unit.kind == "norm":
                unit.extra["effective"] = entry["date"]
                unit.extra["effective_text"] = f"{entry['date_text']}: {entry['text']}"


# --------------------------------------------------------------------------- footnotes on units

def attach_footnotes(units: list[Unit], notes: list[tuple[str, str]]) -> None:
    where: dict[str, tuple[Unit, str]] = {}
    seen: list[tuple[Unit, str, str]] = []
    for unit in units:
        if unit.title:
            unit.title, found = strip_markers(unit.title)
            unit.title = unit.title.strip()
            seen += [(unit, unit.clauses[0].id, m) for m in found]
        for clause in unit.clauses:
            for attr in ("title", "text"):
                value = getattr(clause, attr)
                if value:
                    value, found = strip_markers(value)
                    setattr(clause, attr, value.strip())
                    seen += [(unit, clause.id, m) for m in found]
    holders: dict[str, list[str]] = {}  # the clauses holding the marker, in the unit it goes to
    for unit, cid, marker in seen:
        where.setdefault(marker, (unit, cid))
        if where[marker][0] is unit and cid not in holders.setdefault(marker, []):
            holders[marker].append(cid)
    texts = dict(notes)
    for marker, text in notes:
        if marker in where:
            unit = where[marker][0]
            unit.footnotes.append(placed(marker, text, holders[marker]))
    for unit, cid, marker in seen:
        if marker not in texts:
            missing = unit.extra.setdefault("missing_footnotes", [])
            if {"marker": marker, "clause": cid} not in missing:
                missing.append({"marker": marker, "clause": cid})


# --------------------------------------------------------------------------- entry point

def parse(text: str) -> Parsed:
    lines, notes = extract_footnotes(text.split("\n"))
    front_lines, specs = split_units(lines)
    front, meta = build_front(front_lines)
    units = [build_unit(spec) for spec in specs]
    link_changes(meta.get("changes", []), units)
    all_units = ([front] if front else []) + units
    attach_footnotes(all_units, notes)
    return Parsed(units=all_units, groups=GROUPS, meta=meta)
