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

from .model import Clause, Table

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


class LawClauseTree:
    """Builds the clause list of one Law article from its markers, in text order.

    The caller classifies each marker (section letter, number, item letter,
    roman numeral) and calls the matching method; plain text continues the
    current clause. Ids follow DESIGN §4; an `implied` marker (one the text
    dropped but the structure and citations require) gets its logical id and
    an empty text, its content starting at its first child.
    """

    LEVELS = ("sec", "num", "item", "roman")

    def __init__(self, article: str):
        self.article = article
        self.path: dict[str, str | None] = {lv: None for lv in self.LEVELS}
        self.clauses: list[Clause] = [Clause(id=article, parent=None, label=article, text="")]
        self._by_id = {article: self.clauses[0]}

    @property
    def current(self) -> Clause:
        return self.clauses[-1]

    def _open(self, level: str, marker: str, label: str, text: str,
              title: str | None = None, implied: bool = False) -> Clause:
        idx = self.LEVELS.index(level)
        for lv in self.LEVELS[idx:]:
            self.path[lv] = None
        self.path[level] = marker
        parent = self._id_upto(idx - 1)
        cid = self._id_upto(idx)
        if cid in self._by_id:
            raise ValueError(f"duplicate clause id {cid} in article {self.article}")
        clause = Clause(id=cid, parent=parent, label=label, text=text.strip(), title=title)
        if implied:
            clause.extra["implied"] = True
        self.clauses.append(clause)
        self._by_id[cid] = clause
        return clause

    def _id_upto(self, idx: int) -> str:
        parts = [self.article]
        for lv in self.LEVELS[: idx + 1]:
            if self.path[lv]:
                parts.append(self.path[lv])
        return "".join(parts)

    def section(self, letter: str, title: str | None = None, text: str = "") -> Clause:
        return self._open("sec", letter.upper(), letter.upper(), text, title=title)

    def number(self, n: int | str, text: str = "", title: str | None = None, implied: bool = False) -> Clause:
        return self._open("num", str(n), str(n), text, title=title, implied=implied)

    def item(self, letter: str, text: str = "", implied: bool = False) -> Clause:
        return self._open("item", letter.lower(), f"({letter.lower()})", text, implied=implied)

    def roman(self, numeral: str, text: str = "", implied: bool = False) -> Clause:
        return self._open("roman", numeral.lower(), f"({numeral.lower()})", text, implied=implied)

    def add_text(self, text: str, to: Clause | None = None) -> None:
        """Append a paragraph to the current clause (or to `to`: after `to`'s items, to
        the paragraph clause that closes them)."""
        text = text.strip()
        if text:
            target = self.home(to or self.current)
            target.text = f"{target.text}\n{text}" if target.text else text

    def add_table(self, table: Table, to: Clause | None = None) -> None:
        self.home(to or self.current).add_table(table)

    def home(self, owner: Clause) -> Clause:
        """Where `owner`'s text goes now (see `closing_home`)."""
        return closing_home(self.clauses, owner, self._by_id)

    def level_marker(self, level: str) -> str | None:
        return self.path[level]

    def get(self, cid: str) -> Clause | None:
        return self._by_id.get(cid)


def article_of(clause_id: str) -> str:
    """The article (unit) a Law clause id belongs to: `40B2ci` → `40`."""
    digits = len(clause_id) - len(clause_id.lstrip("0123456789"))
    return clause_id[:digits] or clause_id


def closing_home(clauses: list[Clause], owner: Clause, by_id: dict[str, Clause]) -> Clause:
    """Where text, tables and notes of `owner` go, so that they are read where the source
    prints them: `owner` itself while no clause follows it; once its items have been
    read, the paragraph clause that closes them (`<owner>-p<n>`, opened here and
    appended in text order, read at the owner's level).
    """
    return current_home(clauses, owner) or open_paragraph(clauses, owner, by_id)


def current_home(clauses: list[Clause], owner: Clause) -> Clause | None:
    """`owner`, or its paragraph clause, when that is the last clause read; else None."""
    last = clauses[-1]
    if last is owner or (last.parent == owner.id and last.extra.get("paragraph")):
        return last
    return None


def open_paragraph(clauses: list[Clause], owner: Clause, by_id: dict[str, Clause]) -> Clause:
    """A new unlabelled paragraph clause of `owner`, `<owner>-p<n>` (n from 2: the owner's
    own text is its first block), read at the owner's level (`extra["paragraph"]`)."""
    if owner.extra.get("paragraph"):  # a paragraph has no items to close: its owner's next block
        return open_paragraph(clauses, by_id[owner.parent or ""], by_id)
    n = 2 + sum(1 for c in clauses if c.parent == owner.id and c.extra.get("paragraph"))
    cid = f"{owner.id}-p{n}"
    if cid in by_id:
        raise ValueError(f"paragraph clause {cid} would replace a clause of the same id")
    clause = Clause(id=cid, parent=owner.id, label="", text="")
    clause.extra["paragraph"] = True
    clauses.append(clause)
    by_id[clause.id] = clause
    return clause
