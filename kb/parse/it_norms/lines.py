"""Line records of a unit's body: blank lines, table rows, and text lines with the marker
they open with (`1.`, `a)`, `5.8`, a Law clause label …) split off."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...records.clauseid import ClauseId
from ..kit.tables import tab_cells
from .text import clean_inline


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


def next_nonblank(items: list[Line], i: int) -> int | None:
    j = i + 1
    while j < len(items) and items[j].kind == "blank":
        j += 1
    return j if j < len(items) else None


def alone_in_block(items: list[Line], i: int) -> bool:
    before = i == 0 or items[i - 1].kind == "blank"
    after = i + 1 >= len(items) or items[i + 1].kind == "blank"
    return before and after


def next_marker(items: list[Line], i: int) -> Line | None:
    for it in items[i + 1:]:
        if it.kind == "text" and it.style:
            return it
    return None


def body_lines(raw: list[str], laws: list[str]) -> list[Line]:
    items: list[Line] = []
    for line in raw:
        items.extend(split_line(line, laws))
    while items and items[0].kind == "blank":
        items.pop(0)
    while items and items[-1].kind == "blank":
        items.pop()
    return items
