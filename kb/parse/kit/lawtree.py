"""The clause tree of a Law article, built from its markers in text order (`LawClauseTree`), and
where a clause's later text goes once its items are read (`closing_home`: the paragraph clause
`<owner>-p<n>`). The Laws' and the norms' builders share them."""
from __future__ import annotations

from ...records.model import Clause, Table


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
