"""Reading order against the source: does a unit read its blocks in the order its source prints them?

`kb.records.reading` gives a unit's blocks as every renderer reads them; this module finds each
block in the document's source text, in turn, and names the first one read out of order.
`kb check` and tests/corpus/test_reading_order.py run it over the whole corpus.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..records.reading import Block, unit_blocks

# Reading order against the source text. The sources carry markup the parsers remove
# (markdown emphasis, HTML tags, list dashes and markers, table pipes, footnote calls,
# hyphenation, line breaks), so a block is looked for by an anchor of its normalized text,
# which keeps letters and digits only.

ANCHOR = 40        # normalized characters that find a block in its source
SHORTEST = 16      # the shortest start of a longer block that may stand for it
_SUPERSCRIPT_DIGITS = str.maketrans("", "", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_TAG = re.compile(r"</?[a-z]+>")
_NOT_ALNUM = re.compile(r"[\W_]+")


def normalize(text: str) -> str:
    """Letters and digits only, casefolded, accents folded; HTML tags and superscript digits
    (footnote calls) dropped, so `**Legge⁷**` and `legge` compare equal."""
    text = _TAG.sub("", text).translate(_SUPERSCRIPT_DIGITS).casefold()
    return _NOT_ALNUM.sub("", unicodedata.normalize("NFKD", text))


def head(block: Block) -> str:
    """The start of a block's normalized text. A table's starts at its first row: its caption
    may be a heading the parser composed (`table_text` puts it first, the only line without " | ")."""
    text = block.text
    if block.kind == "table":
        first, _, rows = text.partition("\n")
        if rows and " | " not in first:
            text = rows
    return normalize(text)[:ANCHOR]


def tail(block: Block) -> str:
    """The end of a block's normalized text: the anchor of a block whose start the parser rewrote."""
    return normalize(block.text)[-ANCHOR:]


@dataclass(frozen=True)
class UnitOrder:
    """How a unit's blocks sit in its source text.

    `late` is the first block not found after the blocks read before it, `early` the first block
    read before `late` that the source prints after it. With no `early`, the unit's text sits
    before the text read before it; with a `late_unit`, `late` is that later unit's first block,
    and this unit was read too early. `missing` lists the blocks whose text the source does not
    hold at all (a parser wrote or rewrote it): not an ordering error, and not placed."""
    unit: str
    early: Block | None = None
    late: Block | None = None
    missing: tuple[Block, ...] = ()
    late_unit: str | None = None

    @property
    def in_order(self) -> bool:
        return self.late is None


class Source:
    """A document's source text, normalized, and where each block's anchor sits in it."""

    def __init__(self, text: str) -> None:
        self.text = normalize(text)
        self._keys: dict[Block, str | None] = {}

    def key(self, block: Block) -> str | None:
        """What to search for: the block's whole normalized text when the source holds it; else
        the longest start of its head the source holds (at least `SHORTEST` characters, or the
        whole of a shorter head); else its tail (the parser rewrote its start); else None."""
        if block not in self._keys:
            self._keys[block] = self._key(block)
        return self._keys[block]

    def _key(self, block: Block) -> str | None:
        whole = normalize(block.text)
        if whole and whole in self.text:
            return whole
        start = head(block)
        n = self._longest_prefix(start)
        if start and n >= min(len(start), SHORTEST):
            return start[:n]
        end = tail(block)
        return end if end and end in self.text else None

    def _longest_prefix(self, anchor: str) -> int:
        low, high = 0, len(anchor)
        while low < high:
            mid = (low + high + 1) // 2
            if anchor[:mid] in self.text:
                low = mid
            else:
                high = mid - 1
        return low

    def find(self, block: Block, pos: int) -> tuple[int, int] | None:
        """The first place at or after `pos` where the block's key sits, as (start, end)."""
        key = self.key(block)
        at = self.text.find(key, pos) if key else -1
        return (at, at + len(key)) if key and at >= 0 else None

    def unit_start(self, unit: dict[str, Any], cursor: int) -> int | None:
        """Where the unit begins at or after `cursor`: the last occurrence of its title before its
        first block (a contents list may print the title earlier), else that block; None when
        its first block (the first the source holds) is not at or after `cursor`."""
        first = self.first(unit)
        found = self.find(first, cursor) if first else None
        if found is None:
            return None
        title = normalize(unit.get("title") or "")
        heading = self.text.rfind(title, cursor, found[0]) if title else -1
        return heading if heading >= 0 else found[0]

    def first(self, unit: dict[str, Any]) -> Block | None:
        """The unit's first block that the source holds."""
        return next((b for b in unit_blocks(unit) if self.key(b)), None)

    def missing(self, unit: dict[str, Any]) -> tuple[Block, ...]:
        return tuple(b for b in unit_blocks(unit) if self.key(b) is None)


def unit_order(source: Source, unit: dict[str, Any], start: int, floor: int = 0) -> UnitOrder:
    """Walk the unit's blocks from `start`, each looked for at or after the end of the previous
    one's match (the first occurrence there). On the first block not found so, look back for it
    (from `start`, else from `floor`, else anywhere) and blame the first block read before it
    that sits after it."""
    placed: list[tuple[Block, int]] = []
    pos = start
    for block in unit_blocks(unit):
        if source.key(block) is None:
            continue
        found = source.find(block, pos)
        if found is None:
            at = next(f[0] for f in (source.find(block, p) for p in (start, floor, 0)) if f)
            early = next((b for b, p in placed if p > at), None)
            return UnitOrder(unit["id"], early, block, source.missing(unit))
        placed.append((block, found[0]))
        pos = found[1]
    return UnitOrder(unit["id"], missing=source.missing(unit))


def document_order(source: str, units: list[dict[str, Any]]) -> list[UnitOrder]:
    """Each unit of a document against the document's source, in turn: a unit is looked for from
    where the last unit read in order begins, its blocks from where it begins itself.

    A unit whose first block is not there was read after text that follows it: if it sits
    before the last unit read in order (and after the one before that), that unit was read too
    early and is blamed (its first block `early`, this unit's first block `late`); otherwise the
    unit itself is out of order (its first block `late`, nothing `early`)."""
    text = source_text(source)
    orders: list[UnitOrder] = []
    chain: list[tuple[int, int]] = []  # (index in orders, start) of the units read in order
    for unit in units:
        start = text.unit_start(unit, _floor(chain))
        if start is None and chain and _read_before(text, unit, chain):
            i, _ = chain.pop()
            orders[i] = _read_too_early(text, units[i], orders[i], unit)
            start = text.unit_start(unit, _floor(chain))
        if start is None:
            orders.append(UnitOrder(unit["id"], None, text.first(unit), text.missing(unit)))
            continue
        orders.append(unit_order(text, unit, start, _floor(chain)))
        if orders[-1].in_order:
            chain.append((len(orders) - 1, start))
    return orders


def _floor(chain: list[tuple[int, int]]) -> int:
    return chain[-1][1] if chain else 0


def _read_before(source: Source, unit: dict[str, Any], chain: list[tuple[int, int]]) -> bool:
    """Does the unit's first block sit between the last two units read in order?"""
    first = source.first(unit)
    found = source.find(first, _floor(chain[:-1])) if first else None
    return found is not None and found[0] < chain[-1][1]


def _read_too_early(source: Source, unit: dict[str, Any], order: UnitOrder, later: dict[str, Any]) -> UnitOrder:
    return UnitOrder(order.unit, source.first(unit), source.first(later), order.missing, later["id"])


@lru_cache(maxsize=8)
def source_text(source: str) -> Source:
    """The normalized form of a source text (the same few documents are checked over and over)."""
    return Source(source)


def first_out_of_order(source: str, unit: dict[str, Any]) -> Block | None:
    """The first block of `unit` read before a line that precedes it in `source` (the unit's
    document, or any part of it holding the unit), or None when the unit reads in source order
    (blocks the source does not hold are left out: `document_order` lists them). The unit is
    looked for from the start of `source`: from its title's last occurrence before its first block."""
    text = source_text(source)
    start = text.unit_start(unit, 0)
    if start is None:
        return None
    order = unit_order(text, unit, start)
    return order.early or order.late
