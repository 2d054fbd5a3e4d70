"""Footnotes: bodies peeled off the text, markers found on (and taken out of) clauses."""
from __future__ import annotations

import re
from typing import Callable, Iterable, TypeVar

from ...records.model import Clause, Footnote

T = TypeVar("T")
Body = tuple[str, str]  # (marker, footnote text)

SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"
_TO_DIGITS = str.maketrans(SUPERSCRIPT_DIGITS, "0123456789")


def plain_digits(marker: str) -> str:
    """`⁴` → `4`: a superscript marker as the plain digits it is filed under."""
    return marker.translate(_TO_DIGITS)


def peel(items: Iterable[T], read: Callable[[T], Body | None]) -> tuple[list[T], list[Body]]:
    """The items that are not footnote bodies, and the bodies `read` finds (in order)."""
    kept: list[T] = []
    bodies: list[Body] = []
    for item in items:
        body = read(item)
        if body is None:
            kept.append(item)
        else:
            bodies.append(body)
    return kept, bodies


def take_marks(text: str, mark: re.Pattern[str],
               key: Callable[[re.Match[str]], str]) -> tuple[str, list[str]]:
    """`text` without its marks, and each mark's marker (`key` of its match), in order."""
    return mark.sub("", text), [key(m) for m in mark.finditer(text)]


def holders(clauses: Iterable[Clause], carries: Callable[[Clause], bool]) -> list[str]:
    """Ids of the clauses that carry a marker, in text order."""
    return [c.id for c in clauses if carries(c)]


def placed(marker: str, text: str, where: list[str], printed_at: str | None = None) -> Footnote:
    """A footnote on the clauses `where` its marker is (the first of them is its clause);
    with its marker found nowhere, on the clause it was printed in, if known."""
    return Footnote(marker=marker, text=text, clause=where[0] if where else printed_at,
                    clauses=where)
