"""Tables: the cells of tabular rows, and a table's header rows told from its data rows."""
from __future__ import annotations

from typing import Callable

from ...common.text import is_pipe_separator, pipe_cells

Row = list[str]


def tab_cells(line: str, clean: Callable[[str], str]) -> Row:
    """The cells of a tab-separated row, each cleaned."""
    return [clean(c) for c in line.split("\t")]


def pipe_rows(lines: list[str]) -> list[Row]:
    """The rows of a markdown pipe table: separator rows and empty rows left out."""
    rows = [pipe_cells(line) for line in lines if not is_pipe_separator(line)]
    return [row for row in rows if any(row)]


def padded(rows: list[Row]) -> list[Row]:
    """Rows filled out with empty cells to the widest row."""
    width = max(len(r) for r in rows)
    return [r + [""] * (width - len(r)) for r in rows]


def trimmed(cells: Row) -> Row:
    """Cells without the empty ones that trail them (leading ones keep the alignment)."""
    cells = list(cells)
    while cells and not cells[-1]:
        cells.pop()
    return cells


def first_data(rows: list[Row], is_data: Callable[[Row], bool], none: int) -> int:
    """Index of the first data row; `none` when no row is data."""
    return next((i for i, row in enumerate(rows) if is_data(row)), none)


def split_header(rows: list[Row], is_data: Callable[[Row], bool],
                 none: int = 0) -> tuple[list[Row], list[Row]]:
    """(header rows, data rows): the header is every row above the first data row (the
    first `none` rows when no row is data)."""
    k = first_data(rows, is_data, none)
    return rows[:k], rows[k:]
