"""One article's clauses, from its markers and from the markers the translation dropped."""
from __future__ import annotations

import re

from ..kit.lawtree import LawClauseTree
from ...records.model import Clause, Footnote, Unit
from ...common.text import ROMAN
from ..kit.footnotes import placed
from ..kit.paragraphs import add_paragraph, continues
from .footnotes import GLUED_NUMBER, footnote_markers
from .markers import (ITEM, MAX_SUBHEADING_WORDS, NUMBER, SECTION, clause_level, is_marker,
                      next_roman)
from .records import Line, line_records, with_captions
from .text import bare, clean_text


class ArticleBuilder:
    """Builds one article: clauses from markers (and from the markers the text dropped).

    Restoring dropped markers uses only the text's own signals:
    - an item with no number open, or `(a)` again after other items, opens an
      implied number (9B1, 27B1, 40A1, 40B1–B3, 50D1);
    - a plain bullet `- text` at the margin is the next number (10C1–4, 27B2–4,
      40A2–3, 50E1–4, 68B1–2, 68D1–2); when it is a whole sentence and indented
      bullets follow it, it is item (a) of an implied number instead (51B1–2,
      52B1);
    - an indented plain bullet ` - text` is a child of a number, or of an item
      that ends in ':' (40B2a(i)–(v), 40B2c(i)–(iv), 50D2a–b, 68D2a–b,
      68D2b(i)–(ii)); otherwise it is the next sibling (50D1b, 51B1b, 52B1b–c).
    """

    def __init__(self, number: str, title: str, lines: list[str]):
        self.number = number
        self.raw_title = title
        records, self.footnote_lines = line_records(lines)
        self.records = with_captions(records)
        self.tree = LawClauseTree(number)
        self.target: Clause = self.tree.current  # where plain text goes
        self.last_letter: str | None = None
        self.list_sections: set[str] = set()  # `- A. text` sections (no title)
        self.titled_numbers: set[str] = set()  # 86B `1. Unico risultato ottenuto`

    def build(self) -> Unit:
        for i, rec in enumerate(self.records):
            if rec.table is not None:
                self.tree.add_table(rec.table, to=self.target)
            else:
                self._line(i, rec)
        clauses = self.tree.clauses
        footnotes = self._footnotes(clauses)
        for clause in clauses:
            clause.text = clean_text(clause.text)
            if clause.title is not None:
                clause.title = clean_text(clause.title)
        return Unit(id=self.number, kind="article", title=clean_text(self.raw_title),
                    clauses=clauses, footnotes=footnotes)

    # -- one line
    def _line(self, i: int, rec: Line) -> None:
        body = rec.body
        section = SECTION.match(bare(body))
        if section and section.group(1) == self._next_section() and (rec.dash or rec.blank_before):
            return self._section(section.group(1), body, listed=bool(rec.dash))
        number = NUMBER.match(body)
        if number:
            return self._number(i, int(number.group(1)), number.group(2))
        item = ITEM.match(body)
        if item:
            return self._item(item.group(1) or item.group(3), item.group(2) or item.group(4) or "")
        if rec.dash:
            return self._bullet(i, rec)
        self._plain(rec)

    def _next_section(self) -> str:
        current = self.tree.level_marker("sec")
        return chr(ord(current) + 1) if current else "A"

    def _section(self, letter: str, body: str, listed: bool) -> None:
        rest = re.sub(r"^\**\s*[A-G]\.\s*", "", body)
        if listed:
            self.target = self.tree.section(letter, text=rest)
            self.list_sections.add(self.target.id)
        else:
            self.target = self.tree.section(letter, title=rest)

    def _number(self, i: int, n: int, rest: str) -> None:
        item = ITEM.match(rest)
        if item and item.group(1):
            self._open_number(n)
            return self._item(item.group(1), item.group(2))
        if self._is_subheading(i, rest):
            self.target = self.tree.number(n, title=rest)
            self.titled_numbers.add(self.target.id)
        else:
            self._open_number(n, rest)

    def _open_number(self, n: int, text: str = "", implied: bool = False) -> None:
        if self.tree.get(self._id_with_number(n)):
            self.tree.add_text(text, to=self.target)  # a repeated number is text, not a clause
            return
        self.target = self.tree.number(n, text=text, implied=implied)

    def _id_with_number(self, n: int) -> str:
        return f"{self.number}{self.tree.level_marker('sec') or ''}{n}"

    def _next_number(self) -> int:
        current = self.tree.level_marker("num")
        return int(current) + 1 if current else 1

    def _is_subheading(self, i: int, rest: str) -> bool:
        """`1. Unico risultato ottenuto` alone, then a plain paragraph: a numbered heading."""
        nxt = self.records[i + 1] if i + 1 < len(self.records) else None
        words = bare(rest).rstrip(".").split()
        return (nxt is not None and nxt.table is None and nxt.blank_before and not nxt.dash
                and not is_marker(nxt.body) and len(words) <= MAX_SUBHEADING_WORDS
                and not re.search(r"[:;,]$", bare(rest)))

    def _item(self, token: str, rest: str) -> None:
        if self._is_roman(token):
            self.target = self.tree.roman(token, text=rest)
            return
        if len(token) != 1:
            self.tree.add_text(f"({token}) {rest}", to=self.target)
            return
        if self.tree.level_marker("num") is None or (token == "a" and self.tree.level_marker("item")):
            self._open_number(self._next_number(), implied=True)
        self.target = self.tree.item(token, text="")
        combined = ITEM.match(rest)  # `(g) (i) text`
        if combined and combined.group(1) and self._is_roman(combined.group(1)):
            self.target = self.tree.roman(combined.group(1), text=combined.group(2))
        else:
            self.tree.add_text(rest, to=self.target)

    def _is_roman(self, token: str) -> bool:
        """(i), (ii)… under an open item; but `(i)` right after item (h) is the letter i."""
        item = self.tree.level_marker("item")
        if token not in ROMAN or item is None:
            return False
        follows_letter = len(token) == 1 and chr(ord(item) + 1) == token
        return not (follows_letter and self.tree.level_marker("roman") is None)

    def _bullet(self, i: int, rec: Line) -> None:
        text = rec.body
        if not rec.indented:
            n = self._next_number()
            nxt = self.records[i + 1] if i + 1 < len(self.records) else None
            if bare(text).endswith(".") and nxt is not None and nxt.indented \
                    and not is_marker(nxt.body):
                self._open_number(n, implied=True)
                self.target = self.tree.item("a", text=text, implied=True)
            else:
                self._open_number(n, text, implied=True)
            return
        item = self.tree.level_marker("item")
        roman = self.tree.level_marker("roman")
        if item is None:
            if self.tree.level_marker("num") is None:
                self._open_number(self._next_number(), implied=True)
            self.target = self.tree.item("a", text=text, implied=True)
        elif roman is None and bare(self.target.text).endswith(":"):
            self.target = self.tree.roman("i", text=text, implied=True)
        elif roman is None:
            self.target = self.tree.item(chr(ord(item) + 1), text=text, implied=True)
        else:
            self.target = self.tree.roman(next_roman(roman), text=text, implied=True)

    def _plain(self, rec: Line) -> None:
        text = rec.body
        if not rec.blank_before:
            home = self.tree.home(self.target)
            sep = " " if continues(home.text, bare(text)) else "\n"
            home.text = add_paragraph(home.text, text, sep)
            return
        self.target = self._paragraph_home()
        self.tree.add_text(text, to=self.target)

    def _paragraph_home(self) -> Clause:
        """A new plain paragraph after a list belongs to the section (or article) around it,
        read after the list (the tree gives it a paragraph clause, `69B-p2`)."""
        clause = self.target
        while clause.parent is not None and not self._holds_paragraphs(clause):
            clause = self.tree.get(clause.parent) or self.tree.clauses[0]
        return clause

    def _holds_paragraphs(self, clause: Clause) -> bool:
        if clause.id in self.titled_numbers:
            return True
        level = clause_level(clause.id)
        return level == "sec" and clause.id not in self.list_sections

    # -- footnotes
    def _footnotes(self, clauses: list[Clause]) -> list[Footnote]:
        """Each footnote goes to every clause whose text carries its marker (70C3, D1, D2, E1
        for `normale*`); `clause` is the first of them."""
        footnotes = []
        for marker, text in self.footnote_lines:
            footnotes.append(placed(marker, text, self._marker_clauses(marker, clauses)))
        return footnotes

    def _marker_clauses(self, marker: str, clauses: list[Clause]) -> list[str]:
        """The clauses holding the marker, in text order. The first is found as before (the
        first marker, or a number printed in place of the asterisk); later ones must be glued
        to a word (`normale*`), since a stray bold `**` after `.` or `e` is no footnote mark."""
        found: list[str] = []
        if marker in footnote_markers(self.raw_title):
            found.append(self.number)
        for clause in clauses:
            for raw in (clause.title or "", clause.text):
                if clause.id not in found and marker in footnote_markers(raw, strict=bool(found)):
                    found.append(clause.id)
        if found:
            return found
        for clause in clauses:  # a number printed in place of the asterisk
            if GLUED_NUMBER.search(clause.text):
                clause.text = GLUED_NUMBER.sub("", clause.text, count=1)
                return [clause.id]
        return []
