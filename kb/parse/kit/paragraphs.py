"""Paragraphs: runs of non-blank lines, and sentences re-joined across a break."""
from __future__ import annotations

from typing import Callable, Iterable

from ...common.text import ends_sentence, runs

__all__ = ["add_paragraph", "continues", "joined", "rejoin", "runs"]


def joined(lines: Iterable[str]) -> str:
    """A run of wrapped lines as one line of text."""
    return " ".join(line.strip() for line in lines)


def continues(before: str, after: str) -> bool:
    """Does `after` go on with the sentence of `before`, so a break between them (a page,
    a blank line, a running header) split one paragraph? It does when `before` ends no
    sentence and `after` starts in lower case."""
    return after[:1].islower() and not ends_sentence(before)


def add_paragraph(text: str, more: str, sep: str = "\n") -> str:
    """`text` with `more` after it, `sep` between (none when `text` is empty)."""
    return f"{text}{sep}{more}" if text else more


def rejoin(blocks: list[list[str]], joins: Callable[[list[str], list[str]], bool]) -> list[list[str]]:
    """Blocks of lines, each block that `joins` the one before merged into it: its first
    line goes on that block's last line, its other lines follow."""
    out: list[list[str]] = []
    for block in blocks:
        if out and joins(out[-1], block):
            out[-1] = out[-1][:-1] + [f"{out[-1][-1]} {block[0].lstrip()}"] + block[1:]
        else:
            out.append(list(block))
    return out
