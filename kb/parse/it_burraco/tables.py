"""Tab-separated tables: header, caption, and header words paired over paired columns."""
from __future__ import annotations

from ...records.model import Table
from ..kit.tables import split_header, tab_cells, trimmed
from .text import clean


def read_table(block: list[str]) -> Table:
    rows = [cells for cells in (trimmed(tab_cells(line, clean)) for line in block) if cells]
    header, rows = split_header(rows, lambda row: any(c.isdigit() for c in row))
    caption = None
    if len(header) > 1 and _filled(header[0]) < _filled(header[1]):
        caption = " ".join(c for c in header[0] if c)
        header = header[1:]
    if len(header) == 1:
        header = [_pair_labels(header[0], rows)]
    return Table(rows=rows, header=header, caption=caption)


def _filled(row: list[str]) -> int:
    return sum(1 for c in row if c)


def _pair_labels(cells: list[str], rows: list[list[str]]) -> list[str]:
    """A header printed one word per cell over columns that pair up, joined pair by pair.

    The "RANGE DI RIFERIMENTO" tables print `Diff. | MP | Victory | Points` over four
    columns: a difference range (`0 30`: from 0 to 30 MP) and a Victory Point split
    (`10 10`, `11 9`, … `20 0`). Each pair of columns is one quantity, so each pair of
    words is its label: ["Diff. MP", "", "Victory Points", ""] (the spanned cell left
    empty, as the other spanning headers of the knowledge base are). Any other header
    is kept as printed.
    """
    width = len(cells)
    if (width < 4 or width % 2 or any(len(r) > width for r in rows)
            or not all(c and len(c.split()) == 1 for c in cells)
            or not all(_paired(rows, i) for i in range(0, width, 2))):
        return cells
    out: list[str] = []
    for i in range(0, width, 2):
        out += [f"{cells[i]} {cells[i + 1]}", ""]
    return out


def _paired(rows: list[list[str]], i: int) -> bool:
    """Columns i and i+1 hold one quantity: a range (from <= to) or a split (constant sum)."""
    pairs = [(int(r[i]), int(r[i + 1])) for r in rows
             if len(r) > i + 1 and r[i].isdigit() and r[i + 1].isdigit()]
    if len(pairs) < 2:
        return False
    return all(a <= b for a, b in pairs) or len({a + b for a, b in pairs}) == 1
