"""The document's parts: the title line, the body's chapters and articles, the trailing INDICE."""
from __future__ import annotations

import re

from ...common.text import normalize_spaces


ARTICLE = re.compile(r"^Artículo (?P<n>\d{1,3})(?:\s*\.-\s*|\s+[–-]\s+)(?P<title>\S.*)$")
INDEX_HEADING = re.compile(r"^[IÍ]NDICE$", re.I)
INDEX_ARTICLE = re.compile(r"^Art\. (?P<n>\d{1,3})(?:\s*\.-\s*|\s+[–-]\s+)(?P<title>\S.*)$")
# Chapter headings are a roman numeral and an ALL-CAPS title: `V.- EL RENUNCIO`.
# (A bare `V.-` would otherwise look like a section marker.)
CHAPTER = re.compile(r"^(?P<id>[IVXL]+)\.-\s+(?P<title>[^a-záéíóúñü]+)$")


def read_body(lines: list[str]):
    """Title line, articles [(number, title, raw paragraphs)], chapter headings
    [(id, title, number of the article that follows)]."""
    title_line = None
    articles: list[tuple[str, str, list[str]]] = []
    chapters: list[list] = []
    for raw in lines:
        s = normalize_spaces(raw)
        if not s:
            continue
        if m := ARTICLE.match(s):
            articles.append((m["n"], m["title"], []))
            for ch in chapters:
                if ch[2] is None:
                    ch[2] = m["n"]
        elif m := CHAPTER.match(s):
            chapters.append([m["id"], m["title"], None])
        elif articles:
            articles[-1][2].append(raw)
        elif title_line is None:
            title_line = s
    return title_line, articles, [tuple(c) for c in chapters]


def read_index(lines: list[str]):
    """Index chapters [(id, title, [article numbers])] and {article: index title}."""
    chapters: list[tuple[str, str, list[str]]] = []
    titles: dict[str, str] = {}
    for raw in lines:
        s = normalize_spaces(raw)
        if m := CHAPTER.match(s):
            chapters.append((m["id"], m["title"], []))
        elif (m := INDEX_ARTICLE.match(s)) and chapters:
            chapters[-1][2].append(m["n"])
            titles[m["n"]] = m["title"]
    return chapters, titles


def assign_chapters(body_chapters, index_chapters, articles):
    """Groups in order and {article: chapter id}.

    The index lists every chapter with its articles; body headings, where
    present, must open their chapter at the article the index says.
    """
    numbers = [a[0] for a in articles]
    if not index_chapters:  # no index: the body headings alone
        index_chapters = []
        for k, (cid, title, first) in enumerate(body_chapters):
            nxt = body_chapters[k + 1][2] if k + 1 < len(body_chapters) else None
            start = numbers.index(first) if first in numbers else len(numbers)
            end = numbers.index(nxt) if nxt in numbers else len(numbers)
            index_chapters.append((cid, title, numbers[start:end]))
    by_id = {cid: (title, arts) for cid, title, arts in index_chapters}
    body_title = {}
    for cid, title, first in body_chapters:
        if cid not in by_id:
            raise ValueError(f"es_laws: body chapter {cid} is not in the index")
        arts = by_id[cid][1]
        if first is not None and arts and arts[0] != first:
            raise ValueError(f"es_laws: chapter {cid} opens at Art. {first} in the body "
                             f"but at Art. {arts[0]} in the index")
        body_title[cid] = title
    groups = [{"id": cid, "title": body_title.get(cid, title)} for cid, title, _ in index_chapters]
    chapter_of = {n: cid for cid, _, arts in index_chapters for n in arts}
    return groups, chapter_of
