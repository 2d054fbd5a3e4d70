"""The curated tables (corpus/*.tsv): their reader, and what their rows say to a reader.

A curated table is `#` comment lines, then a header, then rows (`read_tsv`). A domain table
(a concordance, the glossary, the board's clock) holds its domain columns only; what a row says
to a reader, its note, is in the readers' tables beside it, one per interface language and
domain table: `notes/<lang>/<table>.tsv` next to the table, its header the domain table's key
columns and then `note` (`notes`). A new interface language brings its own, or none: a row it
has no note for shows the English one (`note_in`). The same tables give a situation its name
in an interface language the situation index has no column for (`notes/<lang>/situations.tsv`:
`id`, `name`; kb.situations).
"""
from __future__ import annotations

import csv
from pathlib import Path

from .manifest import CorpusError, read_text
from .languages import in_order

NOTES_DIR = "notes"  # beside the domain tables: one folder per interface language
NOTES_LANG = "en"    # every note is written in English first; a language without one falls back to it
Notes = tuple[tuple[str, str], ...]  # (language, text), English first
Key = tuple[str, ...]  # a row's key: the values of its table's key columns


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


def notes_tables(table: Path) -> list[tuple[str, Path]]:
    """(language, path) of each readers' table on a domain table, in the languages' order."""
    root = table.parent / NOTES_DIR
    langs = [d.name for d in root.iterdir() if (d / table.name).is_file()] if root.is_dir() else []
    ordered = sorted(in_order(langs), key=lambda lang: lang != NOTES_LANG)
    return [(lang, root / lang / table.name) for lang in ordered]


def notes(table: Path, rows: list[dict[str, str]], key: tuple[str, ...], field: str = "note") -> dict[Key, Notes]:
    """What each row of a domain table says to a reader, in every language it is said in
    (English first), by row key; a readers' table naming a row the domain table lacks is a
    `CorpusError` (a row renamed in one and not the other)."""
    keys = {tuple(r[k] for k in key) for r in rows}
    found: dict[Key, list[tuple[str, str]]] = {}
    for lang, path in notes_tables(table):
        for r in read_tsv(path, (*key, field)):
            row = tuple(r[k] for k in key)
            if row not in keys:
                raise CorpusError(f"{path}: no row {' '.join(row).strip()!r} in {table.name}")
            if r[field].strip():
                found.setdefault(row, []).append((lang, r[field]))
    return {row: tuple(said) for row, said in found.items()}


def note_in(notes: Notes, lang: str | None) -> tuple[str, str]:
    """(language, text): the note in `lang` when it is written in it, else in English."""
    found = dict(notes)
    return (lang, found[lang]) if lang in found else (NOTES_LANG, found.get(NOTES_LANG, ""))
