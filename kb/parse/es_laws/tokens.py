"""An article's paragraphs as tokens, each classified by the marker it opens with."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...common.text import normalize_spaces


UPPER = "A-ZÁÉÍÓÚÑ¿“\""
SECTION = re.compile(
    rf"^(?P<sec>[A-H])(?P<num>\d)?(?:\.{{1,2}}-\s*|\.\s+(?=[{UPPER}]))(?P<rest>.*)$")
NUMBER = re.compile(rf"^(?P<n>\d{{1,2}})(?:\.\s*|(?=\()|(?=[{UPPER}]))(?P<rest>.*)$")
ITEM = re.compile(r"^(?:(?P<dot>[a-z])\.(?=\S)|\((?P<par>[a-z]{1,4})\)\s*)(?P<rest>.*)$")
BULLET = re.compile(rf"^(?:[•\uf0d8]|o(?=[{UPPER}]))\s*(?P<rest>.*)$")
# A table row: two cells separated by a run of spaces holding NBSPs (Art. 2).
ROW = re.compile(r"^(?P<a>\S.*?\S)(?P<gap>\s{2,})(?P<b>\S.*)$")

ROMANS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


@dataclass
class Token:
    """One paragraph of an article, classified by its leading marker."""

    kind: str  # section | number | item | roman | bullet | para | row
    marker: str = ""
    text: str = ""
    sub: str | None = None  # the number of a `C1.-` section heading
    cells: list[str] = field(default_factory=list)


def tokenize(raw: str) -> list[Token]:
    s = raw.strip()
    if (m := ROW.match(s)) and "\u00a0" in m["gap"]:
        return [Token("row", cells=[normalize_spaces(m["a"]), normalize_spaces(m["b"])])]
    s = normalize_spaces(s)
    if m := SECTION.match(s):
        return [Token("section", m["sec"], m["rest"], sub=m["num"])]
    if m := NUMBER.match(s):
        return [Token("number", m["n"])] + tokenize_rest(m["rest"])
    if m := ITEM.match(s):
        letter = m["dot"] or m["par"]
        if len(letter) == 1:
            return [Token("item", letter)] + split_inline_romans(m["rest"])
        if letter in ROMANS:
            return [Token("roman", letter, m["rest"])]
    if m := BULLET.match(s):
        return [Token("bullet", text=m["rest"])]
    return [Token("para", text=s)]


def tokenize_rest(rest: str) -> list[Token]:
    """The text after a number: `1.(a) Text` carries an item on the same line."""
    m = ITEM.match(rest)
    if m and m["par"] and len(m["par"]) == 1:
        return [Token("para", text=""), Token("item", m["par"])] + split_inline_romans(m["rest"])
    return split_inline_romans(rest)


INLINE_ROMAN = re.compile(r"\s\((?P<r>i|ii|iii|iv|v|vi|vii|viii|ix|x)\)\s")


def split_inline_romans(text: str) -> list[Token]:
    """`…oponente: (i) antes…; (ii) durante…; (iii) durante…` → text + roman tokens.

    Only a run that follows a colon and counts (i), (ii), … in order is split.
    """
    padded = " " + text + " "
    marks = list(INLINE_ROMAN.finditer(padded))
    if (not marks or not padded[: marks[0].start()].rstrip().endswith(":")
            or [m["r"] for m in marks] != list(ROMANS[: len(marks)])):
        return [Token("para", text=text)]
    tokens = [Token("para", text=padded[: marks[0].start()].strip())]
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(padded)
        tokens.append(Token("roman", m["r"], padded[m.end(): end].strip()))
    return tokens


def article_tokens(paragraphs: list[str]) -> list[Token]:
    tokens: list[Token] = []
    for raw in paragraphs:
        line = tokenize(raw)
        head = line[0]
        if head.kind in ("number", "item") and len(line) > 1 and line[1].kind == "para":
            head.text = line[1].text
            line = [head] + line[2:]
        tokens.extend(line)
    return tokens
