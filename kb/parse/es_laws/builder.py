"""One article's clause tree, built from its tokens (section headings split into title and text)."""
from __future__ import annotations

import re

from ..kit.lawtree import LawClauseTree
from ...records.model import Clause, Note, Table, Unit
from .notes import FOOTNOTE_PARA, NOTE_LABEL, place_footnotes, take_notes
from .tokens import ROMANS, Token, article_tokens


TITLE_MAX = 80
# A heading ending in `:` whose last word opens a clause is text introducing a
# list (`B.-No se aplica … establecido si:`), not a title.
LIST_LEAD_WORDS = {"si", "que", "cuando", "entonces", "donde", "como"}
ENDS_SENTENCE = re.compile(r"[.!?)»”\"]$")


def split_heading(rest: str) -> tuple[str | None, str]:
    """Title and text of a section heading line (the marker already removed).

    `Title: text`, `Title. Text` (a short first sentence), `Title:` / `Title.` /
    `Title` alone; a long sentence with no such break is text with no title.
    """
    rest = rest.strip()
    if not rest:
        return None, ""
    m = re.match(r"^(?P<title>[^:.]+?)\s*(?P<sep>[:.])(?:\s+(?P<text>\S.*))?$", rest)
    if m and len(m["title"]) <= TITLE_MAX:
        title, text = m["title"].strip(), (m["text"] or "")
        last_word = title.rsplit(" ", 1)[-1].lower()
        if not (m["sep"] == ":" and not text and last_word in LIST_LEAD_WORDS):
            return title, text
    if len(rest) <= TITLE_MAX and not re.search(r"[.:;]\s", rest) and not rest.endswith(":"):
        return rest.rstrip("."), ""
    return None, rest


def build_article(number: str, title: str, paragraphs: list[str]) -> Unit:
    builder = ArticleBuilder(number, article_tokens(paragraphs))
    builder.run()
    unit = Unit(id=number, kind="article", title=title, clauses=builder.tree.clauses)
    unit.footnotes = place_footnotes(unit, builder.footnotes)
    return unit


class ArticleBuilder:
    """Walks an article's tokens in order and feeds a LawClauseTree."""

    def __init__(self, number: str, tokens: list[Token]):
        self.number = number
        self.tokens = tokens
        self.tree = LawClauseTree(number)
        self.has_sections = any(t.kind == "section" for t in tokens)
        self.items_as_numbers = False  # letters directly under a section stand for numbers
        self.footnotes: list[tuple[str, str, str]] = []  # (marker, text, clause id)
        self.prev_text = ""

    def run(self) -> None:
        for i, tok in enumerate(self.tokens):
            getattr(self, "on_" + tok.kind)(i, tok)
            if tok.kind != "row":
                self.prev_text = tok.text or self.prev_text

    # -- markers

    def on_section(self, i: int, tok: Token) -> None:
        text, notes, feet = take_notes(tok.text)
        tree = self.tree
        if tok.sub:  # `C1.-`: section C, number 1 (the print has no `C.-` line)
            if tree.level_marker("sec") != tok.marker:
                tree.section(tok.marker).extra["implied"] = True
            title, body = split_heading(text)
            clause = tree.number(tok.sub, text=body, title=title)
        else:
            title, body = split_heading(text)
            clause = tree.section(tok.marker, title=title, text=body)
        self.items_as_numbers = False
        self.attach(clause, notes, feet)

    def on_number(self, i: int, tok: Token) -> None:
        text, notes, feet = take_notes(tok.text)
        if not self.has_sections:
            # numbers straight under an article are its sections (WBF 35A–D, 71A–B)
            letter = chr(ord("A") + int(tok.marker) - 1)
            clause = self.tree.section(letter, text=text)
            clause.extra["printed_label"] = f"{tok.marker}."
        else:
            clause = self.tree.number(tok.marker, text=text)
        self.attach(clause, notes, feet)

    def on_item(self, i: int, tok: Token) -> None:
        tree = self.tree
        letter = tok.marker
        current = tree.level_marker("item")
        if letter in ROMANS and current and chr(ord(letter) - 1) != current:
            return self.on_roman(i, Token("roman", letter, tok.text))
        text, notes, feet = take_notes(tok.text)
        if tree.level_marker("sec") and tree.level_marker("num") is None:
            self.items_as_numbers = not self.closed_by_bullet(i)
            if not self.items_as_numbers:
                tree.number(1, implied=True)
        if self.items_as_numbers:
            clause = tree.number(ord(letter) - ord("a") + 1, text=text)
            clause.extra["printed_label"] = f"{letter}."
        else:
            clause = tree.item(letter, text=text)
        self.attach(clause, notes, feet)

    def on_roman(self, i: int, tok: Token) -> None:
        text, notes, feet = take_notes(tok.text)
        self.attach(self.tree.roman(tok.marker, text=text), notes, feet)

    # -- unmarked paragraphs

    def on_bullet(self, i: int, tok: Token) -> None:
        if NOTE_LABEL.match(tok.text):  # `•Nota: En España …`
            self.tree.home(self.owner()).add_note(Note("national-note", NOTE_LABEL.sub("", tok.text)))
        elif self.bullet_is_number(i):
            clause = self.tree.number(int(self.tree.level_marker("num")) + 1, text="")
            clause.extra["printed_label"] = "•"
            self.on_para(i, tok)
        else:
            self.on_para(i, tok)

    def on_para(self, i: int, tok: Token) -> None:
        if m := FOOTNOTE_PARA.match(tok.text):
            marker = m["m"] or m["star"]
            note = (m["t"] or m["st"]).strip()
            if m["star"] and note.startswith("(") and note.endswith(")"):
                note = note[1:-1].strip()
            self.footnotes.append((marker, note, self.tree.current.id))
            return
        text, notes, feet = take_notes(tok.text)
        if text:
            home = self.tree.home(self.closed_list_owner(i) or self.tree.current)
            self.tree.add_text(text, to=home)
            self.attach(home, notes, feet)
        else:  # a note standing as its own paragraph annotates the list's owner, after its items
            self.attach(self.tree.home(self.owner()), notes, feet)

    def on_row(self, i: int, tok: Token) -> None:
        clause = self.tree.current
        prev = self.tokens[i - 1] if i else None
        if prev is not None and prev.kind == "row" and clause.tables:
            clause.tables[-1].rows.append(tok.cells)
        else:
            self.tree.add_table(Table(rows=[tok.cells]), to=self.closed_list_owner(i) or clause)

    # -- helpers

    def attach(self, clause: Clause, notes: list[str], feet: list[tuple[str, str]]) -> None:
        for n in notes:
            clause.add_note(Note("national-note", n))
        self.footnotes.extend((m, t, clause.id) for m, t in feet)

    def owner(self) -> Clause:
        """The clause a free-standing note annotates: the owner of the current list item."""
        current = self.tree.current
        in_list = any(self.tree.level_marker(lv) for lv in ("num", "item", "roman"))
        if in_list and current.parent:
            return self.tree.get(current.parent) or current
        return current

    def closed_list_owner(self, i: int) -> Clause | None:
        """The clause whose list a plain paragraph closes (69B: "El estuche se vuelve a
        puntuar…" after 69B2), or None when the paragraph is the current item's own.

        It closes the list when the list was introduced by a lead-in (its owner's text
        ends in ':'), the last item ends a sentence, and no further item of the list
        follows; the paragraph is then read after the items, as its owner's.
        """
        current = self.tree.current
        owner = self.tree.get(current.parent or "")
        if owner is None or current.extra.get("paragraph") or not owner.text.rstrip().endswith(":"):
            return None
        if not ENDS_SENTENCE.search(current.text.rstrip()):
            return None
        nxt = self.next_marker(i)
        if nxt is not None and nxt.kind != "section" and self.continues_list(current, nxt):
            return None
        return owner

    def continues_list(self, current: Clause, nxt: Token) -> bool:
        """Is the next marker another item of the current clause's list (or below it)?"""
        level = {"num": "number", "item": "item", "roman": "roman"}
        order = ["section", "number", "item", "roman"]
        mine = next((lv for lv in ("roman", "item", "num") if self.tree.level_marker(lv)), None)
        if mine is None:  # numbers standing for sections (71A, 71B): a number goes on
            return nxt.kind == "number"
        return order.index(nxt.kind) >= order.index(level[mine]) if nxt.kind in order else True

    def next_marker(self, i: int) -> Token | None:
        """The next marker token after i (bullets and plain paragraphs skipped)."""
        for tok in self.tokens[i + 1:]:
            if tok.kind not in ("bullet", "para", "row"):
                return tok
        return None

    def bullet_is_number(self, i: int) -> bool:
        """A bullet that closes a run of numbers stands for the next number (12A3, 9B2).

        It must follow a complete sentence (not a lead-in ending in `:`/`entonces`)
        and be followed by a new section or the end of the article, not by the next
        number; inside items it counts only if they hang from an implied number.
        """
        tree = self.tree
        num = tree.level_marker("num")
        if num is None or not num.isdigit() or tree.level_marker("roman"):
            return False
        if tree.level_marker("item"):
            parent = tree.get(tree.current.parent or "")
            if not (parent and parent.extra.get("implied")):
                return False
        if not ENDS_SENTENCE.search(self.prev_text):
            return False
        nxt = self.next_marker(i)
        return nxt is None or nxt.kind == "section"

    def closed_by_bullet(self, i: int) -> bool:
        """Letters straight under a section: is the run closed by a numbered bullet?

        Then they are the items of an implied number 1 and the bullet is 2 (9B1a–d,
        9B2); otherwise each letter stands for a number (12B `a.`/`b.` = 12B1/12B2,
        as the text's own citations of 12B1 confirm).
        """
        prev = ""
        for k in range(i, len(self.tokens)):
            tok = self.tokens[k]
            if tok.kind == "section":
                return False
            if tok.kind == "bullet":
                nxt = self.next_marker(k)
                return bool(ENDS_SENTENCE.search(prev)) and (nxt is None or nxt.kind == "section")
            if tok.kind not in ("item", "para", "roman"):
                return False
            prev = tok.text or prev
        return False
