"""The body of the Laws: where it starts (after the INDICE), and its `ARTICOLO N -` articles."""
from __future__ import annotations

import re

from ...records.model import Unit
from .builder import ArticleBuilder
from .headers import lines_without_headers


ARTICLE_HEADING = re.compile(r"^ARTICOLO\s+(\d{1,3})\s*[-–]\s*(\S.*)$")
TOC_HEADING = re.compile(r"^\s*\**\s*(INDICE|SOMMARIO)\s*\**\s*$")


def article_units(text: str) -> list[Unit]:
    lines = [line.replace("\u00a0", " ").rstrip() for _, line in lines_without_headers(text)]
    units: list[Unit] = []
    for number, title, body in _split_articles(lines, _body_start(lines)):
        units.append(ArticleBuilder(number, title, body).build())
    return units


def _body_start(lines: list[str]) -> int:
    """Index of the `ARTICOLO 1 -` heading that opens the body.

    The first one after the table of contents; without a TOC, the last one
    (an introduction may quote an article before the body).
    """
    firsts = [i for i, line in enumerate(lines)
              if (m := ARTICLE_HEADING.match(line)) and m.group(1) == "1"]
    if not firsts:
        return len(lines)
    toc = next((i for i, line in enumerate(lines) if TOC_HEADING.match(line)), None)
    after_toc = [i for i in firsts if toc is not None and i > toc]
    return after_toc[0] if after_toc else firsts[-1]


def _split_articles(lines: list[str], start: int) -> list[tuple[str, str, list[str]]]:
    articles: list[tuple[str, str, list[str]]] = []
    last = 0
    for line in lines[start:]:
        m = ARTICLE_HEADING.match(line)
        if m and int(m.group(1)) > last:
            last = int(m.group(1))
            articles.append((m.group(1), m.group(2), []))
        elif TOC_HEADING.match(line):
            break  # a table of contents printed after the body
        elif articles:
            articles[-1][2].append(line)
    return articles
