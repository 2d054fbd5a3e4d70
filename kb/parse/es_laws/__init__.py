"""Profile `es_laws`: the Spanish translation of the WBF 2007 Laws, with AEB national notes.

The text is one paragraph per line (blank lines between), no markdown, no page
headers. It has three parts: a title line, the body (chapter headings `I.- TITLE`
and `Artículo N.- Title` headings with their paragraphs) and a trailing `INDICE`
that lists every chapter with its `Art. N.- title` lines. The index is never read
as articles; it gives the chapter of each article, because a body chapter heading
can be missing (chapter IV is, in the 2007 print).

Markers inside an article (flush left or NBSP-indented, often glued to the text):
`A.- Title: text` sections (also `A..-`, `B.-Text`, `C. Text`, and `C1.-` which is
section C number 1), numbers `1.Text` / `3En` / `5(a)`, items `a.Text` / `(a) Text`,
romans `(i)Text`, bullets `•`, U+F0D8, and a glued `o` (`oUna`). Clause ids follow the
logical WBF structure (DESIGN §4); where the print dropped or changed a marker the
clause keeps its logical id and records the printed marker in `extra["printed_label"]`.
"""
from __future__ import annotations

from ...records.model import Parsed
from .builder import build_article
from .document import INDEX_HEADING, assign_chapters, read_body, read_index


def parse(text: str) -> Parsed:
    lines = text.split("\n")
    cut = next((i for i, s in enumerate(lines) if INDEX_HEADING.match(s.strip())), len(lines))
    body, index = lines[:cut], lines[cut + 1:]
    title_line, articles, body_chapters = read_body(body)
    index_chapters, index_titles = read_index(index)
    groups, chapter_of = assign_chapters(body_chapters, index_chapters, articles)
    units = []
    for number, title, paragraphs in articles:
        unit = build_article(number, title, paragraphs)
        unit.group = chapter_of.get(number)
        alt = index_titles.get(number)
        if alt and alt != title:
            unit.extra["index_title"] = alt
        units.append(unit)
    meta = {"printed_title": title_line} if title_line else {}
    return Parsed(units=units, groups=groups, meta=meta)
