"""Law clause ids (DESIGN §4): the compact form the Laws use in citations.

`27B1a` = article 27, section B, number 1, item (a); `20F5bii` adds roman (ii).
`readable("20F5bii") == "20F5(b)(ii)"`. The same grammar serves both editions.
A paragraph that follows a clause's list and closes it (the source prints it
after the items) is its own clause, `<clause>-p<n>`: `69B-p2` is 69B's second
block of text, read after 69B1 and 69B2 (`readable` gives `69B ¶2`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable


CLAUSE_ID = re.compile(
    r"^(?P<art>\d{1,3})(?:(?P<sec>[A-Z])(?P<num>\d{1,2})?)?(?P<item>[a-z])?(?P<roman>(?:i|ii|iii|iv|v|vi|vii|viii|ix|x))?"
    r"(?:-p(?P<para>\d{1,2}))?$"
)


@dataclass(frozen=True)
class ClauseId:
    art: str
    sec: str | None = None
    num: str | None = None
    item: str | None = None
    roman: str | None = None
    para: str | None = None  # a closing paragraph's block number

    @classmethod
    def parse(cls, s: str) -> "ClauseId | None":
        m = CLAUSE_ID.match(s)
        if not m:
            return None
        return cls(m["art"], m["sec"], m["num"], m["item"], m["roman"], m["para"])

    def __str__(self) -> str:
        base = "".join(p for p in (self.art, self.sec, self.num, self.item, self.roman) if p)
        return f"{base}-p{self.para}" if self.para else base

    def readable(self) -> str:
        s = self.art + (self.sec or "") + (self.num or "")
        if self.item:
            s += f"({self.item})"
        if self.roman:
            s += f"({self.roman})"
        if self.para:
            s += f" ¶{self.para}"
        return s


def readable(clause_id: str) -> str:
    """Readable form of a Law clause id; other ids are returned unchanged."""
    cid = ClauseId.parse(clause_id)
    return cid.readable() if cid else clause_id


# ---------------------------------------------------------------- clause numbers as people write them

ROMAN = r"(?:i{1,3}|iv|v|vi{1,3}|ix|x)"
# A clause number as a reader types or writes it, matched case-insensitively: each level under
# the one before (section, number, item, roman: so the Laws number them), each apart or glued,
# after a dot or in brackets: "27B1a", "27 b 1 a", "16.B.1.a", "16(B)(1)(a)", "40B2(a)(v)",
# "20F5bii"; an article range "92-93" (a norm on two Laws). The search planner reads a query
# with it whole (kb.search.query.NUMBER, and the browser the same pattern); kb cite reads it in
# running text, keeping only the parts a text really writes (kb.citations.grammar, `Reader`).
# Each run of spaces has one place to go: every optional part carries the spaces after it. Two
# spaced quantifiers side by side (`\s*(?P<sec>…)?\s*`, an empty part between) share a run
# between them in every way there is, and a match that fails tries them all: 8 s for "27",
# 30 spaces and "#", whoever calls it (the browser runs this pattern too).
CLAUSE_NUMBER = (
    r"(?P<art>[0-9]{1,2})(?![0-9])\s*(?:-\s*(?P<last>[0-9]{1,2})(?![0-9])\s*)?"
    r"(?:(?:[.(]\s*)?(?P<sec>[a-g])\s*(?:\)\s*)?"
    r"(?:(?:[.(]\s*)?(?P<num>[0-9]{1,2})(?![0-9])\s*(?:\)\s*)?"
    r"(?:(?:[.(]\s*)?(?P<item>[a-z])\s*(?:\)\s*)?"
    rf"(?:(?:[.(]\s*)?(?P<roman>{ROMAN})\s*(?:\)\s*)?"
    r")?)?)?)?"
)
PARTS = ("sec", "num", "item", "roman")  # the levels under an article, outermost first
TWO_ARTICLES = re.compile(r"[0-9]\s+[a-gA-G]\s+[0-9]{2}")  # "27 e 28", "27 E 28": two articles, not 27E28
# (digits as ASCII digits: the browser's regexes know no other)


def compact(art: str, parts: dict[str, str | None]) -> str:
    """A clause number's compact id (DESIGN §4): "27" + {sec: "b", num: "1", item: "A"} → "27B1a"."""
    sec, num, item, roman = (parts.get(p) or "" for p in PARTS)
    return art + sec.upper() + num + item.lower() + roman.lower()


def unit_numbered(units: Iterable[str], number: str) -> str | None:
    """The unit a number names: numbered so, or a range that covers it ("92-93" for 92 and 93)."""
    ids = list(units)
    if number in ids:
        return number
    wanted = int(number) if number.isdigit() else -1
    return next((uid for uid in ids if (m := re.fullmatch(r"(\d+)-(\d+)", uid)) and int(m[1]) <= wanted <= int(m[2])),
                None)


def article_of(clause_id: str) -> str:
    """The article (unit) a Law clause id belongs to: `40B2ci` → `40`."""
    digits = len(clause_id) - len(clause_id.lstrip("0123456789"))
    return clause_id[:digits] or clause_id
