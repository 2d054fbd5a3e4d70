"""Pipe tables: header and data rows, side-by-side column pairs, captions (Art. 77)."""
from __future__ import annotations

import re

from ...records.model import Table
from ...common.text import is_pipe_row, is_pipe_separator, pipe_cells
from ..kit.tables import first_data
from .text import TRAILING_NUMBER, bare


def build_table(lines: list[str]) -> Table:
    header: list[list[str]] = []
    rows: list[list[str]] = []
    for i, line in enumerate(lines):
        if is_pipe_separator(line):
            continue
        if is_pipe_row(line):
            cells = [c.replace("*", "").strip() for c in pipe_cells(line)]
        else:
            cells = _plain_row(line, len(rows[-1]) if rows else 2)
        at_top = i + 1 < len(lines) and is_pipe_separator(lines[i + 1]) and i == 0
        if at_top:
            if any(cells):
                header.append(cells)
        elif any(cells):
            rows.append(cells)
    if not header and first_data(rows, _has_digit, none=0) > 0:
        header = [rows.pop(0)]  # the real header printed as the first data row
    return _unfold_pairs(Table(rows=rows, header=header))


def _plain_row(line: str, width: int) -> list[str]:
    m = TRAILING_NUMBER.match(bare(line))
    assert m  # guaranteed by _table_tail
    return [m.group("label")] + [""] * max(0, width - 2) + [m.group("value")]


def _has_digit(cells: list[str]) -> bool:
    return any(re.search(r"\d", c) for c in cells)


def _unfold_pairs(table: Table) -> Table:
    """Columns printed side by side (`A | B | A | B | A | B`) read as one column pair.

    Rows then run down the first pair, then the second…, as the print is read.
    """
    if len(table.header) != 1:
        return table
    head = table.header[0]
    for width in range(2, len(head) // 2 + 1):
        if len(head) % width or head[:width] * (len(head) // width) != head:
            continue
        rows = []
        for start in range(0, len(head), width):
            for row in table.rows:
                cells = row[start:start + width]
                if any(cells):
                    rows.append(cells)
        return Table(rows=rows, header=[head[:width]], caption=table.caption)
    return table
