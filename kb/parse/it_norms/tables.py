"""Tab-separated tables: runs of rows, their header rows, the captions printed above them."""
from __future__ import annotations

import re
from typing import Callable

from ...records.model import Table
from ..kit.tables import padded, split_header
from .lines import Line
from .text import ends_statement


def numbered_row(row: list[str]) -> bool:
    """A data row opens with a number (a board count, a rank)."""
    return bool(re.match(r"^\d", row[0]))


def table_from_rows(rows: list[list[str]], caption: str | None,
                    is_data: Callable[[list[str]], bool] = numbered_row) -> Table:
    """Rows padded to the widest; the rows above the first data row are the header (all
    but the last when none is)."""
    rows = padded(rows)
    header, rows = split_header(rows, is_data, none=len(rows) - 1)
    return Table(rows=rows, header=header, caption=caption)


def table_run(items: list[Line], start: int) -> tuple[int, list[list[list[str]]]]:
    """Rows from `start` on, blank lines inside allowed; a row restarting the first
    data row's key (`6` … `6`) starts a new table. Returns (end index, tables)."""
    tables: list[list[list[str]]] = [[]]
    i = start
    last = start
    while i < len(items):
        it = items[i]
        if it.kind == "blank":
            i += 1
            continue
        if it.kind != "row":
            break
        data = [r for r in tables[-1] if re.match(r"^\d", r[0])]
        if data and it.cells[0] == data[0][0]:
            tables.append([])
        tables[-1].append(it.cells)
        last = i
        i += 1
    return last, tables


def is_caption_like(it: Line) -> bool:
    return (it.kind == "text" and not it.style and not it.bullet and len(it.text.split()) <= 15
            and (it.text.endswith(":") or not ends_statement(it.text)))


def mark_captions(items: list[Line], start: int, count: int) -> list[str | None]:
    """Caption paragraphs just before a run of `count` tables, in order (Art. 8 prints
    both captions before both tables)."""
    found: list[Line] = []
    j = start - 1
    while j >= 0 and (items[j].kind == "blank" or is_caption_like(items[j])):
        if items[j].kind == "text":
            found.insert(0, items[j])
        j -= 1
    found = found[-count:] if count else []
    for it in found:
        it.caption = True
    captions: list[str | None] = [it.text.rstrip(":").strip() for it in found]
    return captions + [None] * (count - len(captions))


def find_tables(items: list[Line]) -> dict[int, tuple[int, list[Table]]]:
    """Every run of table rows: start index → (end index, tables with their captions).
    Runs first, so caption paragraphs are known before the text reaches them."""
    runs: dict[int, tuple[int, list[Table]]] = {}
    i = 0
    while i < len(items):
        if items[i].kind == "row":
            end, tables = table_run(items, i)
            captions = mark_captions(items, i, len(tables))
            runs[i] = (end, [table_from_rows(rows, cap) for rows, cap in zip(tables, captions)])
            i = end
        i += 1
    return runs
