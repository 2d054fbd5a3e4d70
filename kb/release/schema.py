"""A table of the data release, declared once (`Table`, its `Column`s) and given in three
forms: the JSON Schema (draft 2020-12) of one of its JSON Lines records, the Frictionless
Table Schema of its resource in `datapackage.json`, and its SQLite table.

Every record holds every column, in order (`None` where there is nothing); a column's values
are JSON strings, integers, booleans, arrays or objects, and SQLite keeps arrays and objects as
JSON text, booleans as 0/1. Objects nested in a column (a clause's tables, a footnote) are the
export's own and may gain fields (DESIGN §7), so their schemas allow more; a record allows no
column it does not declare.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

JSON_SCHEMA = "https://json-schema.org/draft/2020-12/schema"
SQL_TYPES = {"string": "TEXT", "integer": "INTEGER", "boolean": "INTEGER", "array": "TEXT", "object": "TEXT"}

Record = dict[str, Any]


@dataclass(frozen=True)
class Column:
    name: str
    type: str           # a JSON type: string, integer, boolean, array, object
    about: str
    null: bool = False  # may be null (the Table Schema's `required` is its opposite)
    shape: dict[str, Any] = field(default_factory=dict)  # more JSON Schema: pattern, enum, items, format…

    def json_schema(self) -> dict[str, Any]:
        shape = dict(self.shape)
        if self.null and "enum" in shape:
            shape["enum"] = [*shape["enum"], None]
        return {"type": [self.type, "null"] if self.null else self.type, "description": self.about, **shape}

    def field(self) -> dict[str, Any]:
        """The column as a Table Schema field."""
        constraints = {"required": True} if not self.null else {}
        if "enum" in self.shape:
            constraints["enum"] = self.shape["enum"]
        return {"name": self.name, "type": self.type, "description": self.about,
                **({"constraints": constraints} if constraints else {})}

    def sql(self, value: Any) -> Any:
        if value is None:
            return None
        if self.type in ("array", "object"):
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return int(value) if self.type == "boolean" else value


@dataclass(frozen=True)
class Reference:
    """Columns of a table naming a row of another (a foreign key)."""
    columns: tuple[str, ...]
    table: str
    theirs: tuple[str, ...]


@dataclass(frozen=True)
class Table:
    name: str
    title: str
    about: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    rows: Callable[[Any], Iterable[Record]]  # its records, from a KnowledgeBase
    references: tuple[Reference, ...] = ()
    unique: tuple[tuple[str, ...], ...] = ()  # other columns that name one row (the references' targets)

    def record(self, values: Record) -> Record:
        """`values` as a record of the table: every column, in order (a missing one is a bug)."""
        extra = set(values) - {c.name for c in self.columns}
        if extra:
            raise ValueError(f"{self.name}: no column {', '.join(sorted(extra))}")
        return {c.name: values[c.name] for c in self.columns}

    def json_schema(self) -> dict[str, Any]:
        return {"$schema": JSON_SCHEMA, "title": self.title, "description": self.about, "type": "object",
                "properties": {c.name: c.json_schema() for c in self.columns},
                "required": [c.name for c in self.columns], "additionalProperties": False}

    def table_schema(self) -> dict[str, Any]:
        out: dict[str, Any] = {"fields": [c.field() for c in self.columns], "missingValues": [],  # "" is text here
                               "primaryKey": list(self.key)}
        if self.unique:
            out["uniqueKeys"] = [list(u) for u in self.unique]
        if self.references:
            out["foreignKeys"] = [{"fields": list(r.columns), "reference": {"resource": r.table, "fields": list(r.theirs)}}
                                  for r in self.references]
        return out

    def create_sql(self) -> str:
        columns = [f"[{c.name}] {SQL_TYPES[c.type]}{'' if c.null else ' NOT NULL'}" for c in self.columns]
        keys = [f"PRIMARY KEY ({_names(self.key)})"]
        keys += [f"FOREIGN KEY ({_names(r.columns)}) REFERENCES [{r.table}] ({_names(r.theirs)})" for r in self.references]
        return f"CREATE TABLE [{self.name}] (\n  " + ",\n  ".join(columns + keys) + "\n)"

    def index_sql(self) -> list[str]:
        """Its unique keys, and an index on each reference's columns (what a join reads)."""
        indexes = {cols: True for cols in self.unique}
        for r in self.references:
            indexes.setdefault(r.columns, False)
        return [f"CREATE {'UNIQUE ' if unique else ''}INDEX [idx_{self.name}_{'_'.join(cols)}] "
                f"ON [{self.name}] ({_names(cols)})" for cols, unique in indexes.items()]

    def insert_sql(self) -> str:
        return f"INSERT INTO [{self.name}] VALUES ({', '.join('?' for _ in self.columns)})"

    def sql_row(self, record: Record) -> tuple[Any, ...]:
        return tuple(c.sql(record[c.name]) for c in self.columns)


def _names(columns: Iterable[str]) -> str:
    return ", ".join(f"[{c}]" for c in columns)


# ---------------------------------------------------------------- columns

def text(name: str, about: str, null: bool = False, **shape: Any) -> Column:
    return Column(name, "string", about, null, shape)


def number(name: str, about: str, null: bool = False, **shape: Any) -> Column:
    return Column(name, "integer", about, null, shape)


def flag(name: str, about: str) -> Column:
    return Column(name, "boolean", about)


def listing(name: str, about: str, items: dict[str, Any], null: bool = False) -> Column:
    return Column(name, "array", about, null, {"items": items})


def mapping(name: str, about: str, null: bool = False, **shape: Any) -> Column:
    return Column(name, "object", about, null, shape)


def shape_of(required: Iterable[str], **properties: dict[str, Any]) -> dict[str, Any]:
    """The schema of an object nested in a column: these properties (more allowed)."""
    return {"type": "object", "properties": properties, "required": list(required)}


STRING: dict[str, Any] = {"type": "string"}
STRINGS: dict[str, Any] = {"type": "array", "items": STRING}
