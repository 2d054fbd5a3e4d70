"""`kb release PATH`: the texts as a versioned data release, written from one generation of the
build (`write_release`).

    PATH/datapackage.json          the Frictionless Data Package (v2) that describes it all: every
                                   file with its size and SHA-256, the build it was made from, the
                                   source texts with their checksums
    PATH/<table>.jsonl             one JSON Lines file per table (kb.release.tables), a record a line
    PATH/schemas/<table>.jsonschema.json   the JSON Schema (draft 2020-12) of its records
    PATH/bridge-laws.db            the same tables in SQLite, with full-text search (FTS5) on the
                                   clauses' text: `clauses_fts`, external content `clauses`, as
                                   Datasette and sqlite-utils name it, so `datasette bridge-laws.db`
                                   searches it as it is

A JSON Lines table is a tabular resource (`type: table`, format `jsonl`) whose Table Schema
lists its columns; `jsonSchema` names the JSON Schema of its records (a property of our own:
the Data Package spec defines `schema` as a Table Schema). The release is written as a whole
beside PATH and moved into place (kb.common.files.OwnFolder): PATH must be empty, absent or an earlier
release holding only the files it wrote (its `.kb-release` lists them).
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..common.version import __version__
from .schema import Record, Table
from ..pipeline.export import FORMAT_VERSION
from ..common.files import OwnFolder
from ..pipeline.generations import STAMP_NAME, completed_at
from .tables import TABLES, SourceText, source_texts

if TYPE_CHECKING:
    from ..readmodel.knowledge import KnowledgeBase

NAME = "bridge-laws"
DESCRIPTOR = "datapackage.json"
DATABASE = f"{NAME}.db"
SCHEMAS = "schemas"
RELEASE = OwnFolder(".kb-release", "release", "kb release")
DATA_PACKAGE = "https://datapackage.org/profiles/2.0/datapackage.json"
FTS = "clauses_fts"  # Datasette finds a table's full-text index by its content= (sqlite-utils names it <table>_fts)
FTS_SQL = (f"CREATE VIRTUAL TABLE [{FTS}] USING FTS5 ([text], [title], content=[clauses], "
           "tokenize='unicode61 remove_diacritics 2')",  # accents folded: "declaracion" finds "declaración"
           f"INSERT INTO [{FTS}] ([{FTS}]) VALUES ('rebuild')",
           f"INSERT INTO [{FTS}] ([{FTS}]) VALUES ('optimize')")
LINE_BREAKS = {"\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}  # kept in JSON text, but lines to some readers
LICENSE = {"name": "notspecified",
           "title": "License not specified: the texts are their issuers' (WBF, FIGB, AEB, the Scuola Arbitrale, the "
                    "Burraco code's editor); this release grants no licence on them"}


@dataclass(frozen=True)
class Release:
    path: Path
    version: str
    generation: str
    rows: tuple[tuple[str, int], ...]  # (table, records)
    files: int
    bytes: int
    database: int  # the SQLite file's bytes


def write_release(kb: KnowledgeBase, target: Path) -> Release:
    """Write the release of `kb`'s generation at `target` (through a link, the folder it names)."""
    records = {t.name: [t.record(r) for r in t.rows(kb)] for t in TABLES}
    with RELEASE.writing(target, kb.gen.name) as folder:
        for t in TABLES:
            (folder / f"{t.name}.jsonl").write_text(json_lines(records[t.name]), encoding="utf-8")
            _write_json(folder / schema_path(t), t.json_schema())
        write_database(folder / DATABASE, records)
        _write_json(folder / DESCRIPTOR, descriptor(kb, folder))
    target = target.resolve() if target.is_symlink() else target
    files = [p for p in target.rglob("*") if p.is_file()]
    return Release(target, __version__, kb.gen.name, tuple((t.name, len(records[t.name])) for t in TABLES),
                   len(files), sum(p.stat().st_size for p in files), (target / DATABASE).stat().st_size)


def schema_path(t: Table) -> str:
    return f"{SCHEMAS}/{t.name}.jsonschema.json"


def json_lines(records: list[Record]) -> str:
    return "".join(_line(r) + "\n" for r in records)


def _line(record: Record) -> str:
    line = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    return line.translate(str.maketrans(LINE_BREAKS)) if any(c in line for c in LINE_BREAKS) else line


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


# ---------------------------------------------------------------- SQLite

def write_database(path: Path, records: dict[str, list[Record]]) -> None:
    """The tables in SQLite (keys, references and their indexes), then the clauses' full-text index."""
    con = sqlite3.connect(path)
    try:
        with con:
            for t in TABLES:
                con.execute(t.create_sql())
                for sql in t.index_sql():
                    con.execute(sql)
                con.executemany(t.insert_sql(), (t.sql_row(r) for r in records[t.name]))
            for sql in FTS_SQL:
                con.execute(sql)
        con.execute("VACUUM")
    finally:
        con.close()


# ---------------------------------------------------------------- datapackage.json

def descriptor(kb: KnowledgeBase, folder: Path) -> dict[str, Any]:
    """The Data Package of the files written in `folder` (each with its size and hash)."""
    return {"$schema": DATA_PACKAGE, "name": NAME, "title": "The Laws of Duplicate Bridge as data",
            "description": "The Laws of Duplicate Bridge in Italian (2017) and Spanish (2007), the FIGB integrative "
                           "norms (2026), the referees' time-reference table (2011) and the Burraco competition code "
                           "(2014): segmented into units and clauses, with their citations, the cross-reference graph, "
                           "the 2007 → 2017 concordance and changes, and the situation index.",
            "version": __version__, "created": created(kb.gen),
            "keywords": ["bridge", "laws of duplicate bridge", "codice", "reglamento", "FIGB", "WBF"],
            "licenses": [LICENSE], "sources": [source(s) for s in source_texts(kb)], "build": build(kb),
            "resources": [*(r for t in TABLES for r in _resources(folder, t)), _database(folder)]}


def created(gen: Path) -> str:
    """When the generation was verified complete (a release of the same build is the same release)."""
    at = datetime.fromtimestamp(completed_at(gen) or 0, tz=timezone.utc)
    return at.isoformat(timespec="seconds").replace("+00:00", "Z")


def build(kb: KnowledgeBase) -> dict[str, Any]:
    """The build the release was made from: its generation, the hash of corpus and code it was
    built from, the export's format."""
    return {"generation": kb.gen.name, "stamp": (kb.gen / STAMP_NAME).read_text(encoding="utf-8").strip(),
            "export_format": FORMAT_VERSION}


def source(s: SourceText) -> dict[str, Any]:
    """A source text as a Data Package source: its title and edition, and (our own properties)
    the document it is, its file as received, its SHA-256 and size."""
    return {"title": s.title, "version": s.edition, "document": s.doc, "file": s.original,
            "hash": f"sha256:{s.sha256}", "bytes": s.bytes}


def _resources(folder: Path, t: Table) -> list[dict[str, Any]]:
    data, schema = f"{t.name}.jsonl", schema_path(t)
    return [{"name": t.name, "type": "table", "title": t.title, "description": t.about, "path": data,
             "format": "jsonl", "mediatype": "application/jsonl", "encoding": "utf-8", **_file(folder / data),
             "schema": t.table_schema(), "jsonSchema": schema},
            {"name": f"{t.name}-jsonschema", "title": f"{t.title}: JSON Schema",
             "description": f"The JSON Schema (draft 2020-12) of a record of {data}", "path": schema,
             "format": "json", "mediatype": "application/schema+json", "encoding": "utf-8", **_file(folder / schema)}]


def _database(folder: Path) -> dict[str, Any]:
    return {"name": "database", "title": "SQLite database",
            "description": f"The same tables in SQLite; full-text search (FTS5) on the clauses' text and title in "
                           f"{FTS} (external content: clauses), found by Datasette as it is",
            "path": DATABASE, "format": "sqlite", "mediatype": "application/vnd.sqlite3", **_file(folder / DATABASE)}


def _file(path: Path) -> dict[str, Any]:
    data = path.read_bytes()
    return {"bytes": len(data), "hash": f"sha256:{hashlib.sha256(data).hexdigest()}"}
