"""A Laws text laid out plainly, in any language of the registry: the profile a new
translation or edition starts from before it earns a profile of its own.

The layout read, one element per line (blank lines ignored):

    LAW 16 – UNAUTHORISED INFORMATION     an article heading: the registry's heading word
                                          of any language ("LAW", "ARTICOLO", "ARTÍCULO"),
                                          its number, a dash, its title
    A. Players' Use of Information        a section: a letter, then a title (short, no
                                          closing full stop) or its text
    1. A player may use information …     a numbered paragraph
    (a) it derives from legal calls …     an item of the paragraph above
    (ii) …                                a roman sub-item of the item above

Any other line continues the clause above it. Clause ids are the Laws' compact form
(16A1a, 20F5bii), each clause's parent the one above it; text before the first
article is left out.
"""
from __future__ import annotations

import re

from ..corpus.languages import REGISTRY
from ..records.model import Clause, Parsed, Unit
from .kit.paragraphs import add_paragraph
from .kit.tree import ClauseTree

_HEADING_WORDS = "|".join(re.escape(lang.heading_word) for lang in REGISTRY)
ARTICLE = re.compile(rf"^(?:{_HEADING_WORDS})\s+(?P<n>\d{{1,3}})\s*[-–—.:]\s*(?P<title>\S.*)$", re.I)
SECTION = re.compile(r"^(?P<m>[A-Z])\.\s+(?P<rest>\S.*)$")
NUMBER = re.compile(r"^(?P<m>\d{1,2})\.\s+(?P<rest>\S.*)$")
ROMAN = re.compile(r"^\((?P<m>i{1,3}|iv|vi{0,3}|ix|x)\)\s+(?P<rest>\S.*)$")
ITEM = re.compile(r"^\((?P<m>[a-z])\)\s+(?P<rest>\S.*)$")
LEVELS = ((SECTION, "{m}"), (NUMBER, "{m}"), (ITEM, "({m})"), (ROMAN, "({m})"))  # outermost first
TITLE_MAX_WORDS = 10


def parse(text: str) -> Parsed:
    articles: list[_Article] = []
    for line in (ln.strip() for ln in text.splitlines()):
        heading = ARTICLE.match(line)
        if heading:
            articles.append(_Article(str(int(heading["n"])), heading["title"].strip()))
        elif line and articles:
            articles[-1].read(line)
    return Parsed([a.unit for a in articles])


class _Article:
    """An article as it is read: its unit, and its clause tree (the article at depth 0)."""

    def __init__(self, n: str, title: str):
        self.tree = ClauseTree(Clause(n, None, n, ""))
        self.unit = Unit(n, "article", title, self.tree.clauses)

    def read(self, line: str) -> None:
        """A line: a new clause at its level, or more text of the clause above."""
        for depth, pattern, label in self._levels(line):
            m = pattern.match(line)
            if m and depth <= self.tree.depth + 1:  # never a level below nothing
                self._open(depth, m, label)
                return
        self.tree.last.text = add_paragraph(self.tree.last.text, line, " ")

    def _levels(self, line: str) -> list[tuple[int, re.Pattern[str], str]]:
        """The levels a line may open, likeliest first: "(i)" under an item is its roman
        sub-item, unless the item above is "(h)"."""
        levels = [(depth + 1, pattern, label) for depth, (pattern, label) in enumerate(LEVELS)]
        if self.tree.depth >= 3 and not line.startswith(f"({chr(ord(self.tree.last.id[-1]) + 1)})"):
            levels.sort(key=lambda lv: lv[1] is not ROMAN)
        return levels

    def _open(self, depth: int, m: re.Match[str], label: str) -> None:
        parent = self.tree.above(depth)
        title, rest = _title(m["rest"]) if depth == 1 else (None, m["rest"])
        self.tree.add(Clause(parent.id + m["m"], parent.id, label.format(m=m["m"]), rest, title), depth)


def _title(rest: str) -> tuple[str | None, str]:
    """A section's words are its title when short and not a sentence."""
    if len(rest.split()) <= TITLE_MAX_WORDS and not rest.endswith((".", ":", ";")):
        return rest, ""
    return None, rest
