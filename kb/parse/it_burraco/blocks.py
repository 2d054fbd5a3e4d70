"""An article's paragraphs (blank-line blocks): the trailer, footnote bodies, cut sentences."""
from __future__ import annotations

import re

from ..kit.footnotes import Body, plain_digits
from ..kit.paragraphs import continues, runs
from .text import clean


TRAILER_LINE = re.compile(r"^\s*(\.\.\.|…)")

FOOTNOTE_MARK = re.compile(r"⁽([⁰¹²³⁴⁵⁶⁷⁸⁹]+)⁾|\^\[(\d+)\]")


def paragraph_blocks(lines: list[str]) -> list[list[str]]:
    """The text's paragraphs: runs of non-blank lines."""
    return [[line.rstrip() for line in block] for block in runs(lines)]


def is_table(block: list[str]) -> bool:
    return any("\t" in line for line in block)


def peel_trailer(blocks: list[list[str]]) -> tuple[list[list[str]], list[str]]:
    """Closing lines that start with an ellipsis: not normative, kept as printed."""
    trailer: list[str] = []
    while blocks and all(TRAILER_LINE.match(line) for line in blocks[-1]):
        trailer = blocks[-1] + trailer
        blocks = blocks[:-1]
    return blocks, trailer


def footnote_body(block: list[str]) -> Body | None:
    """(marker, text) of a paragraph that opens with a footnote marker."""
    mark = FOOTNOTE_MARK.match(block[0].strip())
    if not mark or is_table(block):
        return None
    return marker_of(mark), clean(" ".join([block[0].strip()[mark.end():]] + block[1:]))


def cut_mid_sentence(before: list[str], block: list[str]) -> bool:
    """A paragraph a page break (turned into a blank line) cut mid-sentence."""
    return (not is_table(before) and not is_table(block)
            and continues(before[-1], block[0].lstrip()))


def marker_of(m: re.Match[str]) -> str:
    return plain_digits(m.group(1) or m.group(2))
