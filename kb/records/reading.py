"""A unit in reading order: the blocks a reader meets, in the order the source prints them.

Clauses are listed in text order; inside a clause, its title comes first, then its
paragraphs with each table and note where the text has reached (`at`; a note without
one comes last).
Text that follows a clause's items is its own paragraph clause (`<clause>-p<n>`),
so it is read after them. The terminal view, the unit page and the reading-order
check (`kb.pipeline.source_order`, against the source text) all walk these blocks.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from .built import BuiltClause, BuiltTable


@dataclass(frozen=True)
class Block:
    clause: str      # the clause id
    kind: str        # "title" | "paragraph" | "table" | "note"
    index: int       # paragraph number in the clause, table or note number
    text: str        # the block's plain text (a table: its cells row by row, " | "-joined)


def clause_blocks(c: BuiltClause) -> Iterator[Block]:
    if c.title:
        yield Block(c.id, "title", 0, c.title)
    paragraphs = c.text.split("\n") if c.text else []
    end = len(paragraphs)
    for i in range(end + 1):
        for k, t in enumerate(c.tables):
            if min(t.at or 0, end) == i:
                yield Block(c.id, "table", k, table_text(t))
        for k, n in enumerate(c.notes):
            if min(end if n.at is None else n.at, end) == i:
                yield Block(c.id, "note", k, n.text)
        if i < end:
            yield Block(c.id, "paragraph", i, paragraphs[i])


def unit_blocks(unit: Mapping[str, Any]) -> Iterator[Block]:
    """The blocks of an export unit (the build's checks read the export as written)."""
    for c in unit["clauses"]:
        yield from clause_blocks(BuiltClause.from_dict(c))


def table_text(t: BuiltTable) -> str:
    rows = ([t.caption] if t.caption else []) + [" | ".join(r) for r in t.header + t.rows]
    return "\n".join(rows)
