"""Profile `it_timeref`: the Scuola Arbitrale's time-reference table (Convention Arbitrale 2011).

The text has four parts: a title block, an `Introduzione`, `DEFINIZIONI` (copies of
the Laws' definitions) and the table `RIFERIMENTI TEMPORALI NEL CODICE`. Only the
table makes units: each topic is a unit; each situation (subtopic) is a clause
`<topic>-s<k>`; each entry is a clause `<topic>-<n>` under its situation, carrying
`ref` (the Law reference as written, 2007 numbering) or `statement` when it cites
no Law. Title block, introduction and definitions go to `Parsed.meta`.

In the table every line is a paragraph of its own and capitalisation does not tell
topics from situations: the type of a heading line comes from its POSITION. The
heading lines between two entries are either `situation` or `topic, situation`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..records.model import Clause, Parsed, Unit
from ..common.text import italian_date, normalize_spaces, slugify
from .kit.ids import numbered, unique_id
from .kit.lines import SourceLine, source_lines
from .kit.paragraphs import add_paragraph, joined, runs

INTRO_HEADING = re.compile(r"^introduzione$", re.I)
DEFINITIONS_HEADING = re.compile(r"^definizioni$", re.I)
TABLE_HEADING = re.compile(r"^RIFERIMENTI TEMPORALI\b")
# A part heading printed in capitals (ends the table if a later edition adds a part).
PART_HEADING = re.compile(r"^[A-ZÀ-Ý' ]{6,}$")

# `REF - text`. The reference is article + section letter + number + item letter +
# roman numeral, all as written (`40B2biiv` is a typo of the source, kept); the item
# may be parenthesised (`47E2(a)`). The dash may lack its leading space
# (`79A1- L'accordo`) or be missing when the reference has a section letter
# (`47E2(a) Se il morto`); a bare number needs the dash, so a heading that starts
# with a number is never taken for an entry.
REF = r"\d{1,3}(?:[A-Z]\d*(?:[a-z][ivx]*|\([a-z]\))?)?"
ENTRY = re.compile(rf"^(?P<ref>{REF})(?P<sep>\s*[-–]\s+|\s+)(?P<text>\S.*)$")


def match_entry(s: str) -> re.Match[str] | None:
    m = ENTRY.match(s)
    if m and ("-" in m["sep"] or "–" in m["sep"] or re.search(r"[A-Z]", m["ref"])):
        return m
    return None

# An entry with no reference: a sentence right after a situation `Inizio …` that
# says when something begins (`La licitazione inizia …`, `… ha inizio quando …`).
BEGINNING_SITUATION = re.compile(r"^Inizio\b")
BEGINNING_STATEMENT = re.compile(r"\binizi(?:a|ano)\b|\bha(?:nno)? inizio\b", re.I)

# Headings printed with a typo: the topic keeps the title as printed and gains a
# corrected `display_title`.
TITLE_TYPOS = {"Presca": "Presa"}

# The FIGB "Codice" of a given year is the Italian edition of the WBF Laws of the
# previous year: the "Codice 2008" the introduction names is the 2007 Laws.
CODICE_LAWS_EDITION = {"2008": "2007", "2017": "2017"}


def parse(text: str) -> Parsed:
    lines = source_lines(text, normalize_spaces)
    title_block, intro, definitions, table = split_parts(lines)
    meta = title_meta(title_block)
    meta.update(introduction_meta(intro))
    meta["definitions"] = parse_definitions(definitions)
    if table:
        meta["table_title"] = table[0].text
    return Parsed(units=parse_table(table[1:]), meta=meta)


# ---------------------------------------------------------------- parts

def split_parts(lines: list[SourceLine]) -> tuple[list[SourceLine], ...]:
    """Title block, introduction, definitions, table (each with its heading line)."""
    starts = {}
    for i, ln in enumerate(lines):
        for name, pat in (("intro", INTRO_HEADING), ("defs", DEFINITIONS_HEADING),
                          ("table", TABLE_HEADING)):
            if name not in starts and pat.match(ln.text):
                starts[name] = i
    if "table" not in starts:
        raise ValueError("it_timeref: no 'RIFERIMENTI TEMPORALI' heading")
    t = starts["table"]
    d = starts.get("defs", t)
    n = starts.get("intro", d)
    end = next((i for i in range(t + 1, len(lines)) if PART_HEADING.match(lines[i].text)),
               len(lines))
    return lines[:n], lines[n:d], lines[d:t], lines[t:end]


def paragraphs(lines: list[SourceLine]) -> list[list[SourceLine]]:
    """Runs of adjacent non-blank lines."""
    return runs(lines, lambda ln: bool(ln.text))


# ---------------------------------------------------------------- title block, introduction

def title_meta(block: list[SourceLine]) -> dict:
    """Publisher, event, place, dates, subtitle and authors from the title block."""
    meta: dict = {}
    paras = [joined(ln.text for ln in p) for p in paragraphs(block)]
    paras = [re.sub(r"^\|\s*", "", p) for p in paras]  # table-conversion artefact `| di …`
    for p in paras:
        event = re.match(r"^(Convention\s+\w+\s+\d{4})\s*(.*)$", p)
        authors = re.match(r"^di\s+(.+)$", p)
        if event:
            meta["event"] = event[1]
            meta.update(place_and_dates(event[2]))
        elif authors:
            meta["authors"] = [name_case(a) for a in re.split(r"\s+e\s+|,\s*", authors[1])]
        elif p.isupper():
            meta["publisher"] = p
        else:
            meta["subtitle"] = p
    return meta


def place_and_dates(s: str) -> dict:
    """`Salsomaggiore Terme (PR) – 7/09 Gennaio 2011` → place, date_start, date_end."""
    out: dict = {}
    m = re.match(r"^(?P<place>.+?)\s*[-–]\s*(?P<d1>\d{1,2})(?:/(?P<d2>\d{1,2}))?\s+"
                 r"(?P<month>[A-Za-z]+)\s+(?P<year>\d{4})$", s)
    if not m or not italian_date(m["d1"], m["month"], m["year"]):
        return out
    out["place"] = m["place"]
    out["date_start"] = italian_date(m["d1"], m["month"], m["year"])
    out["date_end"] = italian_date(m["d2"] or m["d1"], m["month"], m["year"])
    out["dates_text"] = s[len(m["place"]):].strip(" –-")
    return out


def name_case(name: str) -> str:
    """`Maurizio DI SACCO` → `Maurizio Di Sacco` (surnames printed in capitals)."""
    return " ".join(w.capitalize() if w.isupper() and len(w) > 1 else w
                    for w in name.split())


def introduction_meta(part: list[SourceLine]) -> dict:
    paras = [joined(ln.text for ln in p) for p in paragraphs(part[1:])]
    if not paras:
        return {}
    intro: dict = {"title": part[0].text}
    # The signature: a last short paragraph without final punctuation.
    if len(paras[-1].split()) <= 4 and not re.search(r"[.:;!?]$", paras[-1]):
        intro["signed"] = paras.pop()
    intro["paragraphs"] = paras
    meta: dict = {"introduction": intro}
    codice = next((m for p in paras for m in [re.search(r"\bCodice (\d{4})\b", p)] if m), None)
    if codice:
        meta["cites_code"] = f"Codice {codice[1]}"
        if codice[1] in CODICE_LAWS_EDITION:
            meta["cites_laws_edition"] = CODICE_LAWS_EDITION[codice[1]]
    return meta


# ---------------------------------------------------------------- definitions

def parse_definitions(part: list[SourceLine]) -> list[dict]:
    """Term line, then its definition (one paragraph, or numbered senses on adjacent lines).

    These copy the Laws' definitions: each points at the Italian Laws unit
    `def-<slug of the term without its parenthesised qualifier>`.
    """
    out: list[dict] = []
    for para in paragraphs(part[1:]):
        block = "\n".join(ln.text for ln in para)
        if is_term(para) and (not out or out[-1]["text"]):
            bare = re.sub(r"\s*\([^)]*\)", "", block).strip()
            out.append({"term": block, "text": "", "copy_of": "def-" + slugify(bare)})
        elif out:
            out[-1]["text"] = add_paragraph(out[-1]["text"], block)
        else:
            raise ValueError(f"it_timeref: definition text without a term at line {para[0].no}")
    return out


def is_term(para: list[SourceLine]) -> bool:
    s = para[0].text
    return (len(para) == 1 and len(s.split()) <= 6 and not re.match(r"^\d+\.", s)
            and not re.search(r"[.:;]$", s))


# ---------------------------------------------------------------- the table

@dataclass
class Row:
    """One non-blank line of the table, typed."""

    kind: str  # "topic" | "situation" | "entry"
    line: SourceLine
    ref: str | None = None
    text: str = ""


def classify(lines: list[SourceLine]) -> list[Row]:
    """Type every line by position: the headings before an entry are `[topic,] situation`."""
    rows: list[Row] = []
    headings: list[SourceLine] = []
    for ln in (ln for ln in lines if ln.text):
        m = match_entry(ln.text)
        if m:
            rows += heading_rows(headings, ln)
            headings = []
            rows.append(Row("entry", ln, m["ref"], m["text"].strip()))
        elif headings and is_statement(headings[-1], ln):
            rows += heading_rows(headings, ln)
            headings = []
            rows.append(Row("entry", ln, None, ln.text))
        else:
            headings.append(ln)
    if headings:
        raise ValueError(f"it_timeref: heading without entries at line {headings[0].no}")
    return rows


def is_statement(previous: SourceLine, ln: SourceLine) -> bool:
    """A sentence without reference right after an `Inizio …` situation (it says when X begins)."""
    return bool(BEGINNING_SITUATION.match(previous.text) and BEGINNING_STATEMENT.search(ln.text)
                and len(ln.text) > len(previous.text))


def heading_rows(headings: list[SourceLine], entry: SourceLine) -> list[Row]:
    if len(headings) == 1:
        return [Row("situation", headings[0])]
    if len(headings) == 2:
        return [Row("topic", headings[0]), Row("situation", headings[1])]
    if not headings:
        return []
    raise ValueError(f"it_timeref: {len(headings)} heading lines before the entry at line "
                     f"{entry.no}; expected a situation, or a topic and a situation")


def parse_table(lines: list[SourceLine]) -> list[Unit]:
    units: list[Unit] = []
    situation: Clause | None = None
    k = n = 0
    for row in classify(lines):
        if row.kind == "topic":
            units.append(topic_unit(row.line.text, {u.id for u in units}))
            situation, k, n = None, 0, 0
        elif not units:
            raise ValueError(f"it_timeref: line {row.line.no} comes before any topic")
        elif row.kind == "situation":
            k += 1
            uid = units[-1].id
            situation = Clause(id=f"{uid}-s{k}", parent=None, label="", text=row.line.text,
                               extra={"kind": "situation", "subtopic_index": k})
            units[-1].clauses.append(situation)
        else:
            n += 1
            units[-1].clauses.append(entry_clause(units[-1].id, n, row, situation))
    return units


def topic_unit(title: str, taken: set[str]) -> Unit:
    uid = unique_id(slugify(title), taken, numbered("-"))
    extra = {}
    fixed = " ".join(TITLE_TYPOS.get(w, w) for w in title.split())
    if fixed != title:
        extra["display_title"] = fixed
    return Unit(id=uid, kind="topic", title=title, extra=extra)


def entry_clause(uid: str, n: int, row: Row, situation: Clause | None) -> Clause:
    assert situation is not None  # classify() puts a situation before every entry
    extra = {"kind": "entry", "subtopic": situation.text,
             "subtopic_index": situation.extra["subtopic_index"], "ref": row.ref}
    if row.ref is None:
        extra["statement"] = True
    return Clause(id=f"{uid}-{n}", parent=situation.id, label=row.ref or "", text=row.text,
                  extra=extra)
