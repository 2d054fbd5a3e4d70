"""Clause and unit ids kept unique: a taken id gets the first suffix that frees it."""
from __future__ import annotations

from itertools import count
from typing import Container, Iterable, Iterator

# Latin repetition words, as legal texts number a repeated article or paragraph.
REPEATS = ("bis", "ter", "quater", "quinquies")


def numbered(sep: str, start: int = 2) -> Iterator[str]:
    """Suffixes `{sep}2`, `{sep}3`, …: the second of a kind is numbered 2."""
    return (f"{sep}{n}" for n in count(start))


def unique_id(base: str, taken: Container[str], suffixes: Iterable[str]) -> str:
    """`base` while it is free, else `base` with the first suffix that is."""
    if base not in taken:
        return base
    return next(base + s for s in suffixes if base + s not in taken)
