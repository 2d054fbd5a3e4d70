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
  appended to the clashing id.

Footnotes: a line starting with a superscript digit is footnote text (a text
ending in ":" continues into the next paragraph); it is attached to the unit
and clause holding the marker, wherever the page break put it. Markers without
a footnote are dropped from the text and listed in `Unit.extra["missing_footnotes"]`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..clauseid import ClauseId
from ..model import Clause, Footnote, Note, Parsed, Table, Unit
from ..text import normalize_spaces, slugify

SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_SUP_TO_DIGIT = str.maketrans(SUPERSCRIPTS, "0123456789")
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

MONTHS = {m: i for i, m in enumerate(
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre "
    "novembre dicembre".split(), 1)}
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
    found = [m.group(0).translate(_SUP_TO_DIGIT) for m in _SUP_RUN.finditer(s)]
    return _SUP_RUN.sub("", s), found


def ends_statement(s: str) -> bool:
    return bool(re.search(r"[.;:!?…,][\"'»”]?$", s.rstrip()))


def iso_date(text: str) -> str | None:
    m = re.search(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    if m:
        return f"{m[3]}-{int(m[2]):02d}-{int(m[1]):02d}"
    m = re.search(r"(\d{1,2}) ([a-z]+) (\d{4})", text.lower())
    if m and m[2] in MONTHS:
        return f"{m[3]}-{MONTHS[m[2]]:02d}-{int(m[1]):02d}"
    return None


def heading_slug(title: str) -> str:
    t = re.sub(r"\([^)]*\)", " ", title)
    for sym, word in SUITS.items():
        t = t.replace(sym, word)
    return "-".join(slugify(t).split("-")[:6]) or "sezione"


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
        notes.append((m[1].translate(_SUP_TO_DIGIT),
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
        return [Line("row", raw=raw, cells=[clean_inline(c) for c in raw.split("\t")])]
    bullet = s.startswith("- ") or s == "-"
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
            label = m[1] if style != "dec?" else "?." + m[1]
            line = Line("text", style=style, value=m[1] if style != "dec?" else label, label=label)
            if style in ("1.", "a.", "A."):
                line.label = m[1] + "."
            elif style in ("1)", "a)"):
                line.label = m[1] + ")"
            elif style in ("(1)", "(a)"):
                line.label = f"({m[1]})"
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


