"""An article's lines as records: header cuts re-joined, footnote lines peeled, tables grouped."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...records.model import Table
from ...common.text import is_pipe_row, pipe_cells, strip_bold
from ..kit.paragraphs import continues
from .headers import CUT
from .markers import ITEM, NUMBER, SECTION
from .tables import build_table
from .text import DASH, TRAILING_NUMBER, bare


FOOTNOTE_LINE = re.compile(r"^\s*(?:-\s*)?(\*{1,3})\s*(\S.*)$")


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


def line_records(lines: list[str]) -> tuple[list[Line], list[tuple[str, str]]]:
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


def _is_caps(s: str) -> bool:
    letters = [c for c in s if c.isalpha()]
    return len(letters) >= 3 and s == s.upper() and not SECTION.match(s)


def with_captions(records: list[Line]) -> list[Line]:
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
