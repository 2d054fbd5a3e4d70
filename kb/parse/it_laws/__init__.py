"""Italian Laws 2017 (FIGB "Codice Internazionale del Bridge Duplicato"): the profile.

`parse(text)` returns the front matter and definitions (read by
`front.front_units`) followed by the 93 Law articles read here.

How the articles are read (shared/notes/it-laws-2017.md §2–§5, §8):
- the body starts at the `ARTICOLO 1 -` heading after the table of contents
  (INDICE), so neither the TOC nor the introduction's quotation of Art. 23
  is ever read as an article;
- running page headers are cut (`lines_without_headers`); a sentence or a
  table row that a header split is re-joined;
- footnote lines (`* text`, `** text`, `- *text` …) are peeled off and
  attached to the clause holding the glued marker (`word*`, `word**`);
- markers build the clause tree (kb.parse.kit.lawtree.LawClauseTree); the markers the
  translation dropped are restored from the text's own signals (see
  `builder.ArticleBuilder`): letters restarting at (a) open a new number, a run of
  plain bullets continues the numbering, an indented bullet under a line
  ending in ':' is a child;
- pipe tables become Table records (captions from the capitalised lines of
  Art. 77, side-by-side column pairs of Art. 78B unfolded).
"""
from __future__ import annotations

import unicodedata

from ...records.model import Parsed, Unit
from .body import article_units
from .front import front_units


GROUP_TITLES = {"front": "Introduzioni", "definitions": "Definizioni"}


def parse(text: str) -> Parsed:
    text = unicodedata.normalize("NFC", text)
    front = front_units(text)
    articles = article_units(text)
    return Parsed(units=front + articles, groups=_groups(front), meta={})


def _groups(front: list[Unit]) -> list[dict[str, str]]:
    """The front matter's groups (ids chosen by `front`); articles have no chapters."""
    groups: list[dict[str, str]] = []
    for unit in front:
        if unit.group and all(g["id"] != unit.group for g in groups):
            groups.append({"id": unit.group, "title": GROUP_TITLES.get(unit.group, unit.group)})
    return groups
