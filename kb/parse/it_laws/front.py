"""Italian Laws 2017, the part before the articles: front matter and definitions.

`front_units(text)` returns, in text order, the front-matter texts (kind
"front": the Italian editor's introduction, the WBF preface, the WBF
introduction) and the definitions (kind "definition", one unit per term).
The table of contents (INDICE) and the articles are not read here.

Layout read by pattern (see shared/notes/it-laws-2017.md §1, §3, §6):
- a front-matter text starts at an upper-case heading line; a line starting
  `ARTICOLO` is a quote inside an introduction, never a heading;
- `Definizioni` opens the glossary; each entry is a term line alone in its
  block (blank line before and after), then the definition paragraph(s), or
  numbered senses `1.` … on adjacent lines, or `word : text` sub-entries;
- running page headers (CUT lines) are dropped; a sentence split by one is
  re-joined.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...records.model import Clause, Table, Unit
from ...common.text import is_pipe_row, normalize_spaces, slugify, strip_bold
from ..kit.paragraphs import continues
from ..kit.tables import pipe_rows
from .headers import CUT, lines_without_headers

DEFINITIONS_HEADING = re.compile(r"^\s*(\*\*)?(Definizioni|DEFINIZIONI)(\*\*)?\s*$")
# Where the glossary ends: the table of contents, or the articles if a print has none.
GLOSSARY_END = re.compile(r"^\s*(\*\*)?(INDICE|SOMMARIO)\b|^\s*ARTICOLO 1\s*[-–]")
QUOTED_ARTICLE = re.compile(r"^ARTICOLO\s+\d", re.I)
LIST_PREFIX = re.compile(r"^\s*-\s+")
SENSE = re.compile(r"^(\d{1,2})\.\s+(.*)$")
SUB_ENTRY = re.compile(r"^([a-zà-ù][\w' ]{0,30}?)\s*:\s+(\S.*)$")
QUALIFIER = re.compile(r"^(?P<term>.+?)\s*\((?P<qualifier>[^()]+)\)$")
SEE = re.compile(r"^Vedi\s+[\"“](?P<target>[^\"”]+)[\"”]\s*\.?$")
SEE_ALSO = re.compile(r"vedi anche\s+[\"“](?P<target>[^\"”]+)[\"”]", re.I)
MAX_TERM_WORDS = 6
MAX_GLUED_WORDS = 3


@dataclass
class Block:
    """Consecutive non-blank source lines (a paragraph or a list/table)."""

    lines: list[str]


def front_units(text: str) -> list[Unit]:
    """The front-matter units, then the definition units, in text order."""
    lines = [line for _, line in lines_without_headers(text)]
    start = _find(lines, DEFINITIONS_HEADING, 0)
    if start is None:
        return _front_texts(lines)
    end = _find(lines, GLOSSARY_END, start + 1)
    end = len(lines) if end is None else end
    return _front_texts(lines[:start]) + _definitions(lines[start + 1:end])


def definition_terms(units: list[Unit]) -> dict[str, str]:
    """Bare term → definition unit id (for search and term links)."""
    return {u.extra["term"]: u.id for u in units if u.kind == "definition"}


def _find(lines: list[str], pattern: re.Pattern[str], start: int) -> int | None:
    for i in range(start, len(lines)):
        if pattern.match(lines[i]):
            return i
    return None


# --- blocks -----------------------------------------------------------------

def _blocks(lines: list[str]) -> list[Block]:
    """Split lines into blocks at blank lines and page-header cuts.

    A block that a header cut in the middle of a sentence (or of a table) is
    re-joined with what follows the header.
    """
    blocks: list[Block] = []
    current: list[str] = []
    after_cut = False
    for line in lines + [""]:
        if line == CUT:
            after_cut = True
        if not line.strip() or line == CUT:
            if current:
                blocks.append(Block(current))
                current = []
            continue
        if after_cut and blocks and not current and _continues(blocks[-1].lines[-1], line):
            current = blocks.pop().lines
        after_cut = False
        current.append(line)
    return blocks


def _continues(before: str, after: str) -> bool:
    if is_pipe_row(before) and is_pipe_row(after):
        return True
    return continues(before, _clean(after))


def _clean(line: str) -> str:
    """Clause text of one line: no bold, no list dash, no trailing `*` markers."""
    s = strip_bold(line)
    s = LIST_PREFIX.sub("", s)
    # In the front matter a trailing `*` marks quoted text that is new in 2017.
    s = re.sub(r"\s*\*+\s*$", "", s)
    return normalize_spaces(s)


# --- front matter -------------------------------------------------------------

def _is_front_heading(line: str) -> bool:
    s = strip_bold(line).strip()
    return (bool(re.search(r"[A-Z]{3}", s)) and s == s.upper() and len(s.split()) >= 2
            and not QUOTED_ARTICLE.match(s) and not is_pipe_row(s))


def _front_texts(lines: list[str]) -> list[Unit]:
    units: list[Unit] = []
    for block in _blocks(lines):
        if len(block.lines) == 1 and _is_front_heading(block.lines[0]):
            title = _clean(block.lines[0])
            units.append(Unit(id=slugify(title), kind="front", title=title, group="front"))
        elif units:
            _add_front_block(units[-1], block)
    for unit in units:
        if not unit.clauses:
            unit.clauses.append(Clause(id="p1", parent=None, label="", text=""))
    return units


def _add_front_block(unit: Unit, block: Block) -> None:
    """One clause per paragraph (per line of a list); a pipe table joins the clause before it."""
    table_lines = [line for line in block.lines if is_pipe_row(line)]
    if table_lines and len(table_lines) == len(block.lines):
        table = _table(table_lines)
        if unit.clauses:
            unit.clauses[-1].add_table(table)
        else:
            unit.clauses.append(Clause(id="p1", parent=None, label="", text="", tables=[table]))
        return
    for paragraph in _paragraphs(block.lines):
        n = len(unit.clauses) + 1
        unit.clauses.append(Clause(id=f"p{n}", parent=None, label="", text=paragraph))


def _paragraphs(lines: list[str]) -> list[str]:
    """Each line is a paragraph, except a lower-case line that continues a sentence."""
    out: list[str] = []
    for line in lines:
        text = _clean(line)
        if not text:
            continue
        if out and not LIST_PREFIX.match(line) and _continues(out[-1], text):
            out[-1] = f"{out[-1]} {text}"
        else:
            out.append(text)
    return out


def _table(lines: list[str]) -> Table:
    return Table(rows=pipe_rows(lines))


# --- definitions --------------------------------------------------------------

@dataclass
class Entry:
    term_line: str          # the term line as printed (merged lead removed)
    lead: list[str]         # the definition's own paragraphs
    senses: list[tuple[int, str]]
    sub_entries: list[tuple[str, str]]
    glued: str = ""         # definition words printed on the term line


def _definitions(lines: list[str]) -> list[Unit]:
    entries: list[Entry] = []
    expecting_definition = False
    for block in _blocks(lines):
        head = _term_line(block, expecting_definition)
        if head is not None:
            term_line, glued = head
            entries.append(Entry(term_line, [], [], [], glued=glued))
            expecting_definition = True
        elif entries:
            _add_definition_block(entries[-1], block)
            expecting_definition = False
    return [_definition_unit(e) for e in entries]


def _term_line(block: Block, after_term: bool) -> tuple[str, str] | None:
    """(term line, merged lead text) if the block is a term line, else None.

    A term line is alone in its block, short, capitalised and without final
    punctuation. The block right after a term line is always its definition
    (`Cancellata` → `Vedi "Ritirata".`). A short line ending in a full stop
    may be a term with the first words of its definition glued on
    (`Non voluto Involontario.`): the lead starts at the last capitalised word.
    """
    if after_term or len(block.lines) != 1:
        return None
    line = _clean(block.lines[0])
    bare = QUALIFIER.sub(r"\g<term>", line)
    if not line[:1].isupper() or len(bare.split()) > MAX_TERM_WORDS or re.search(r"[,;:]", bare):
        return None
    if not re.search(r"[.:;!?]$", bare):
        return line, ""
    return _split_merged_term(line)


def _split_merged_term(line: str) -> tuple[str, str] | None:
    """`Non voluto Involontario.` → ("Non voluto", "Involontario.").

    Only a few glued words and no figures: a short second paragraph of a
    definition (`Vedi Articolo 12.`) must not pass for a term.
    """
    if not line.endswith(".") or re.search(r"\d", line):
        return None
    words = line.split()
    for i in range(len(words) - 1, 0, -1):
        if words[i][:1].isupper():
            glued = words[i:]
            return (" ".join(words[:i]), " ".join(glued)) if len(glued) <= MAX_GLUED_WORDS else None
    return None


def _add_definition_block(entry: Entry, block: Block) -> None:
    for line in block.lines:
        text = _clean(line)
        sense = SENSE.match(text)
        sub = SUB_ENTRY.match(text)
        if sense:
            entry.senses.append((int(sense.group(1)), sense.group(2)))
        elif sub:
            entry.sub_entries.append((sub.group(1).strip(), sub.group(2)))
        elif entry.senses and text[:1].islower():
            n, previous = entry.senses[-1]
            entry.senses[-1] = (n, f"{previous} {text}")
        elif entry.lead and continues(entry.lead[-1], text):
            entry.lead[-1] = f"{entry.lead[-1]} {text}"
        else:
            entry.lead.append(text)


def _definition_unit(entry: Entry) -> Unit:
    qualified = QUALIFIER.match(entry.term_line)
    term = qualified.group("term") if qualified else entry.term_line
    uid = "def-" + slugify(term)
    extra: dict[str, str] = {"term": term}
    if qualified:
        extra["qualifier"] = qualified.group("qualifier")
        see_also = SEE_ALSO.search(qualified.group("qualifier"))
        if see_also:
            extra["see_also"] = "def-" + slugify(see_also.group("target"))
    lead = "\n".join(entry.lead)
    if entry.glued:  # `Non voluto Involontario.`: the glued words open the first paragraph
        lead = f"{entry.glued} {lead}" if lead else entry.glued
    see = SEE.match(lead)
    if see and not entry.senses and not entry.sub_entries:
        extra["see"] = "def-" + slugify(see.group("target"))
    clauses = [Clause(id=uid, parent=None, label="", text=lead)]
    for n, text in entry.senses:
        clauses.append(Clause(id=f"{uid}-{n}", parent=uid, label=f"{n}.", text=text,
                              extra={"sense": n}))
    for word, text in entry.sub_entries:
        clauses.append(Clause(id=f"{uid}-{slugify(word)}", parent=uid, label="", text=text,
                              title=word))
    return Unit(id=uid, kind="definition", title=entry.term_line, clauses=clauses,
                group="definitions", extra=extra)
