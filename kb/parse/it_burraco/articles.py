"""The text's sections and articles (`SEZIONE X –`, `ART. N –`), and the front matter's meta."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...common.text import italian_date, normalize_spaces, strip_bold
from .text import clean


SECTION = re.compile(r"^SEZIONE\s+([A-Z])\s*[–-]\s*(.+?)\s*$")
ARTICLE = re.compile(r"^ART\.\s*-?\s*(\d+)\s*[-–]?\s*(.+?)\s*$")
TOC_LINE = re.compile(r"\.{3,}\s*Pag\.\s*\d+\s*$")
VERSION = re.compile(r"aggiornato al\s+(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})", re.I)
EDITOR = re.compile(r"Redazione a cura di\s+(.+?)\s*$")


@dataclass
class Article:
    number: str
    title: str
    group: str | None
    lines: list[str] = field(default_factory=list)


def split_text(lines: list[str]) -> tuple[list[str], list[dict[str, str]], list[Article]]:
    """Front-matter lines, the section groups, and each article's raw lines.

    Text between a section heading and its first article (none in the 2014 edition)
    is kept as the group's "intro" rather than glued to the previous article.
    """
    front: list[str] = []
    groups: list[dict[str, str]] = []
    articles: list[Article] = []
    target = front  # where the next body line goes
    for line in lines:
        bare = strip_bold(line).strip()
        section = SECTION.match(bare)
        article = ARTICLE.match(bare)
        if section:
            groups.append({"id": section.group(1), "title": normalize_spaces(section.group(2))})
            target = []
        elif article:
            group = groups[-1]["id"] if groups else None
            articles.append(Article(article.group(1), normalize_spaces(article.group(2)), group))
            target = articles[-1].lines
        else:
            target.append(line)
            if groups and target is not front and not (articles and target is articles[-1].lines):
                intro = clean(" ".join(target))
                if intro:
                    groups[-1]["intro"] = intro
    return front, groups, articles


def front_meta(front: list[str]) -> dict:
    meta: dict = {}
    for line in front:
        version = VERSION.search(line)
        editor = EDITOR.search(line.strip())
        if version and italian_date(*version.groups()):
            meta["version_date"] = italian_date(*version.groups())
            meta["version_text"] = normalize_spaces(version.group(0))
        if editor:
            meta["editor"] = editor.group(1)
    return meta
