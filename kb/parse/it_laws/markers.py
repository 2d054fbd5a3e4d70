"""Clause markers of an article line (`A.`, `1.`, `(a)`, `(i)`) and the level a clause id is at."""
from __future__ import annotations

import re

from ...common.text import ROMAN
from .text import bare


SECTION = re.compile(r"^([A-G])\.\s+(\S.*)$")
NUMBER = re.compile(r"^(\d{1,2})\.\s+(\S.*)$")
ITEM = re.compile(r"^\(([a-z]{1,4})\)\s*(.*)$|^([a-z])\)\s+(\S.*)$")


MAX_SUBHEADING_WORDS = 8


def is_marker(body: str) -> bool:
    s = bare(body)
    return bool(NUMBER.match(s) or ITEM.match(s) or SECTION.match(s))


def clause_level(clause_id: str) -> str:
    m = re.match(r"^\d+([A-Z])?(\d+)?([a-z])?([ivx]+)?$", clause_id)
    if not m:
        return "art"
    for level, part in zip(("roman", "item", "num", "sec"), reversed(m.groups())):
        if part:
            return level
    return "art"


def next_roman(numeral: str) -> str:
    value = ROMAN[numeral] + 1
    return next(k for k, v in ROMAN.items() if v == value)
