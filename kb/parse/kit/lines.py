"""Source lines as records: a line's number and its text, as printed or cleaned."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class SourceLine:
    """One line of a source text: `no` counts from 1, `text` is the line without its
    newline (or what a profile's cleaning made of it)."""

    no: int
    text: str

    @property
    def stripped(self) -> str:
        return self.text.strip()

    @property
    def indent(self) -> int:
        """Leading whitespace, in characters."""
        return len(self.text) - len(self.text.lstrip())

    @property
    def blank(self) -> bool:
        return not self.stripped


def source_lines(text: str, clean: Callable[[str], str] = str) -> list[SourceLine]:
    """Every line of `text` (the last one kept without a final newline), each passed
    through `clean`."""
    return [SourceLine(i + 1, clean(s)) for i, s in enumerate(text.split("\n"))]
