"""The 2007 ↔ 2017 concordance of the Laws (corpus/concordance.tsv), and reference corrections.

A row maps a Spanish/2007 clause to an Italian/2017 clause with a relation.
The most specific row whose `es` id is an ancestor-or-self of a 2007 id
applies; `same` and `changed` rows carry sub-clauses across by identical
sub-ids (ES 20F5b → IT 20F5b) when that clause exists in 2017.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .catalogs import LOCALES
from .clauseid import ClauseId
from .corpus import CORPUS_DIR, CorpusError, read_text


RELATIONS = ("same", "moved", "split", "merged", "changed", "new-in-2017", "removed-in-2017")
CARRY_SUB_IDS = ("same", "changed")


OLDER, NEWER = "es", "it"  # the columns holding the older edition's ids and the newer's (the manifest's maps_to)


# The curated tables' notes are written in English (`note`), and in each other interface
# language beside it (`note_it`, `note_es`): a page shows its reader's.
NOTES_LANG = "en"
NOTE_COLUMNS = tuple(f"note_{loc}" for loc in LOCALES if loc != NOTES_LANG)
Notes = tuple[tuple[str, str], ...]  # (language, text)


COLUMNS = (OLDER, NEWER, "relation", "note", *NOTE_COLUMNS, f"marks_{OLDER}", f"marks_{NEWER}")  # the table's header


def notes_of(row: dict[str, str]) -> Notes:
    """A curated row's note in every language it is written in."""
    said = [(NOTES_LANG, row["note"]), *((c.removeprefix("note_"), row[c]) for c in NOTE_COLUMNS)]
    return tuple((lang, text) for lang, text in said if text.strip())


def note_in(notes: Notes, lang: str | None) -> tuple[str, str]:
    """(language, text): the note in `lang` when it is written in it, else in English."""
    found = dict(notes)
    return (lang, found[lang]) if lang in found else (NOTES_LANG, found.get(NOTES_LANG, ""))


@dataclass(frozen=True)
class Row:
    es: str
    it: str
    relation: str
    note: str
    notes: Notes = ()  # the note in each language it is written in
    marks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # (older, newer): the words that carry a change


def read_tsv(path: Path, columns: tuple[str, ...]) -> list[dict[str, str]]:
    """A curated TSV: `#` comment lines, then a header with exactly `columns`."""
    lines = [ln for ln in read_text(path).splitlines() if ln and not ln.startswith("#")]
    reader = csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    if tuple(reader.fieldnames or ()) != columns:
        raise CorpusError(f"{path}: header must be {' '.join(columns)}")
    rows = list(reader)
    for i, r in enumerate(rows, 2):
        if None in r or any(v is None for v in r.values()):
            raise CorpusError(f"{path}: row {i} does not have {len(columns)} fields")
    return rows


def ancestors(cid: str) -> list[str]:
    """`40B2ci` → [40B2ci, 40B2c, 40B2, 40B, 40]: most specific first. A closing
    paragraph descends from its clause: `69B-p2` → [69B-p2, 69B, 69]."""
    parsed = ClauseId.parse(cid)
    if parsed is None:
        return [cid]
    parts = [p for p in (parsed.sec, parsed.num, parsed.item, parsed.roman) if p]
    lineage = [parsed.art + "".join(parts[:k]) for k in range(len(parts), -1, -1)]
    return [cid, *lineage] if parsed.para else lineage


def carry(row: Row, below: str, exists: Callable[[str], bool]) -> str:
    """The 2017 clause a 2007 id `row.es + below` stands at under `row`: `same` and
    `changed` rows carry the sub-id across when that 2017 clause exists; else `row.it`."""
    if below and row.relation in CARRY_SUB_IDS and exists(row.it + below):
        return row.it + below
    return row.it


class Concordance:
    def __init__(self, rows: list[Row]):
        self.rows = rows
        self.by_es: dict[str, list[Row]] = {}
        self.by_it: dict[str, list[Row]] = {}
        for r in rows:
            if r.es:
                self.by_es.setdefault(r.es, []).append(r)
            if r.it:
                self.by_it.setdefault(r.it, []).append(r)

    @classmethod
    def load(cls, path: Path = CORPUS_DIR / "concordance.tsv") -> "Concordance":
        rows = []
        for r in read_tsv(path, COLUMNS):
            if r["relation"] not in RELATIONS:
                raise CorpusError(f"{path}: unknown relation {r['relation']!r} for {r['es']}→{r['it']}")
            marks = tuple(tuple(m.strip() for m in r[f"marks_{side}"].split("|") if m.strip()) for side in (OLDER, NEWER))
            rows.append(Row(r["es"], r["it"], r["relation"], r["note"], notes_of(r), marks))
        return cls(rows)

    def rows_for_2007(self, cid: str) -> tuple[list[Row], str] | None:
        """The rows that govern a 2007 id (those of its most specific ancestor-or-self
        named in the table; several when it was split), and the part of the id below them."""
        for anc in ancestors(cid):
            if anc in self.by_es:
                return self.by_es[anc], cid[len(anc):]
        return None

    def row_for_2007(self, cid: str) -> tuple[Row, str] | None:
        """The row that governs a 2007 id (the first, when it was split), and the part
        of the id below the row's `es`."""
        found = self.rows_for_2007(cid)
        return (found[0][0], found[1]) if found else None

    def parallels_2017(self, it_cid: str) -> list[Row]:
        """Rows naming a 2017 clause or, failing that, its nearest ancestor."""
        for anc in ancestors(it_cid):
            if anc in self.by_it:
                return self.by_it[anc]
        return []


@dataclass(frozen=True)
class Correction:
    doc: str
    ref: str
    reads_2007: str
    reads_2017: str
    note: str


def load_corrections(path: Path = CORPUS_DIR / "ref-corrections.tsv") -> dict[tuple[str, str], Correction]:
    """References the source itself gets wrong, keyed by (doc, ref as written)."""
    out = {}
    for r in read_tsv(path, ("doc", "ref", "reads_2007", "reads_2017", "note")):
        out[(r["doc"], r["ref"])] = Correction(r["doc"], r["ref"], r["reads_2007"], r["reads_2017"], r["note"])
    return out
