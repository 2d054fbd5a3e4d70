"""The clause tree of one unit, built from its markers, headings and paragraphs in text order."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ...records.clauseid import ClauseId
from ..kit.lawtree import closing_home, current_home
from ...records.model import Clause, Note, Table
from ..kit.ids import numbered, unique_id
from ..kit.paragraphs import add_paragraph
from .lines import Line
from .paths import is_next, is_start, join_path, next_value
from .text import ends_with_colon, heading_slug


@dataclass
class Level:
    style: str                          # marker style, or "heading" / "term" / "law"
    value: str
    clause: Clause
    component: tuple[str, str] | None   # id path component; None: not in children's ids
    is_title: bool = False              # heading-like: the paragraphs after it are its own


class ClauseBuilder:
    """Turns the Line records of one unit into clauses, in text order."""

    def __init__(self, unit_id: str, root_label: str):
        self.unit_id = unit_id
        self.root = Clause(id=unit_id, parent=None, label=root_label, text="")
        self.clauses = [self.root]
        self.by_id = {unit_id: self.root}
        self.stack: list[Level] = []
        self.last_text: Clause | None = None   # clause whose last paragraph may continue

    @property
    def current(self) -> Clause:
        return self.stack[-1].clause if self.stack else self.root

    def _path(self, upto: int) -> list[tuple[str, str]]:
        return [lv.component for lv in self.stack[:upto] if lv.component]

    def _free_id(self, components: list[tuple[str, str]]) -> str:
        return unique_id(f"{self.unit_id}-{join_path(components)}", self.by_id, numbered("_"))

    def _open(self, at: int, level: Level, cid: str, label: str, title: str | None,
              new_list: bool = False) -> Clause:
        sibling = self.stack[at].clause if at < len(self.stack) and self.stack[at].style == level.style \
            else None
        del self.stack[at:]
        parent = self.current
        intro = current_home(self.clauses, parent)
        if sibling is not None and not new_list:
            parent = self.by_id[sibling.parent or self.unit_id]   # the list goes on where it began
        elif new_list and intro is not None and intro is not parent and ends_with_colon(intro.text):
            parent = intro                  # a list nests under the paragraph that introduces it
        clause = Clause(id=cid, parent=parent.id, label=label, text="", title=title)
        self.clauses.append(clause)
        self.by_id[cid] = clause
        level.clause = clause
        self.stack.append(level)
        self.last_text = None
        return clause

    def _place(self, style: str, value: str) -> int:
        """Stack index where a marker of this style and value opens its clause."""
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i].style == style and is_next(self.stack[i].value, value):
                return i
        if self.stack and self.stack[-1].style == style:
            return len(self.stack) - 1          # a list never nests directly in itself
        styles = [lv.style for lv in self.stack]
        if style in styles and not is_start(value):
            return max(i for i, st in enumerate(styles) if st == style)
        return len(self.stack)

    def marker(self, line: Line, is_title: bool) -> Clause:
        if line.style == "law":
            return self._law(line, is_title)
        style, value, extra = line.style or "", line.value, {}
        if style == "dec?":                     # `\$.2`: the section number was garbled
            section = next((lv.value for lv in reversed(self.stack) if lv.style == "1."), "")
            style, value = "dec", section + line.value[1:]
            line.label, extra["label_restored"] = value, True
        at = self._place(style, value)
        kind = "dec" if style == "dec" else "marker"
        if style == "X":                        # X1..X3 are cited document-wide
            comps = [(kind, value)]
        else:
            comps = self._path(at) + [(kind, value)]
            if f"{self.unit_id}-{join_path(comps)}" in self.by_id and at < len(self.stack) \
                    and self.stack[at].style == style and not is_next(self.stack[at].value, value):
                # `a) b) a)`: a repeated marker in a running list; the sequence says c)
                fixed = next_value(self.stack[at].value)
                extra["printed_label"] = line.label
                line.label = line.label.replace(value, fixed, 1)
                value = fixed
                comps = self._path(at) + [(kind, value)]
        title, text = line.title, line.text
        if is_title:
            title, text = text, ""
        clause = self._open(at, Level(style, value, self.root, (kind, value),
                                      bool(title) and not text), self._free_id(comps), line.label, title,
                            new_list=is_start(value))
        clause.extra.update(extra)
        self.add_text(clause, text)
        return clause

    def _law(self, line: Line, is_title: bool) -> Clause:
        keep = 0
        while keep < len(self.stack) and self.stack[keep].style == "heading":
            keep += 1
        cid = f"{self.unit_id}-{line.value}"
        existing = self.by_id.get(cid)
        if existing is not None:                # the same label again: a new paragraph of it
            del self.stack[keep:]
            self.stack.append(Level("law", line.value, existing, None, True))
            self.add_text(existing, line.text)
            return existing
        title, text = (line.text, "") if is_title else (line.title, line.text)
        clause = self._open(keep, Level("law", line.value, self.root, None, True), cid, line.label, title)
        clause.extra["law_clause"] = line.value
        self.add_text(clause, text)
        return clause

    def heading(self, title: str) -> Clause:
        at = next((i for i, lv in enumerate(self.stack) if lv.style == "heading"), len(self.stack))
        cid = self._free_id(self._path(at) + [("slug", heading_slug(title))])
        clause = self._open(at, Level("heading", "", self.root, None, True), cid, "", title)
        law = re.search(r"\((\d{1,3}[A-Z]\d{0,2}[a-z]?)\)\s*$", title)
        if law and ClauseId.parse(law[1]):
            clause.extra["law_clause"] = law[1]
        return clause

    def term(self, term: str, text: str) -> Clause:
        self.pop_terms()
        at = len(self.stack)
        comp = ("slug", heading_slug(term))
        clause = self._open(at, Level("term", "", self.root, comp, True),
                            self._free_id(self._path(at) + [comp]), term, term)
        self.add_text(clause, text)
        return clause

    def in_terms(self) -> bool:
        """Is a "Term: text" clause open (a run of categories like App. 1's colours)?"""
        return any(lv.style == "term" for lv in self.stack)

    def heading_with_text(self) -> bool:
        top = self.stack[-1] if self.stack else None
        home = current_home(self.clauses, self.current)
        return top is not None and top.style == "heading" and home is not None and bool(home.text)

    def pop_terms(self) -> None:
        idx = [i for i, lv in enumerate(self.stack) if lv.style == "term"]
        if idx:
            del self.stack[idx[-1]:]

    def pop_text_items(self, next_marker: Line | None) -> None:
        """A paragraph after a list of plain items belongs to the list's parent,
        unless the list goes on after it (then it is the last item's own). When no
        marker follows in the unit, titled items are closed too: the paragraph ends the
        outermost point that holds them (87 §2: "Se, per effetto di un risultato…"
        after its a)–c) schema, not in c)4)."""
        while self.stack:
            top = self.stack[-1]
            nested = len(self.stack) > 1 and self.stack[-2].style not in ("heading", "term", "law")
            if top.style in ("heading", "term", "law") or top.is_title and not (next_marker is None and nested):
                return
            if next_marker is not None and next_marker.style == top.style \
                    and is_next(top.value, next_marker.value):
                return
            self.stack.pop()

    def home(self, clause: Clause) -> Clause:
        """Where `clause`'s text goes now: itself, or after its items a paragraph clause."""
        return closing_home(self.clauses, clause, self.by_id)

    def can_continue(self) -> bool:
        """Does the current clause end with a paragraph cut mid-sentence?"""
        c = current_home(self.clauses, self.current)
        return c is not None and self.last_text is c and bool(c.text) \
            and not re.search(r"[.;:!?][\"'»”)]?$", c.text)

    def paragraph(self, text: str, join: bool, force: bool = False) -> None:
        c = current_home(self.clauses, self.current)
        if join and c is not None and (self.can_continue() or force and self.last_text is c):
            c.text += " " + text.strip()
        else:
            self.add_text(self.current, text)

    def introduce(self, text: str) -> None:
        """A list introduction after a heading's own paragraphs ends the heading: it is a
        paragraph clause of the heading's parent, and the list it introduces nests under it
        (App. 3 §2: after NOTE, the should-alert and the not-alerted lists are §2's own)."""
        del self.stack[-1]
        self.add_text(self.current, text)

    def add_text(self, clause: Clause, text: str) -> None:
        text = text.strip()
        if text:
            home = self.home(clause)
            home.text = add_paragraph(home.text, text)
            self.last_text = home

    def table(self, table: Table) -> None:
        self.home(self.current).add_table(table)
        self.last_text = None

    def note(self, text: str) -> None:
        self.home(self.current).add_note(Note(kind="note", text=text))
