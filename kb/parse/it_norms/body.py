"""A unit's body read line by line: markers, headings, plain paragraphs, tables, forms."""
from __future__ import annotations

import re

from .builder import ClauseBuilder
from .lines import Line, TERM, alone_in_block, next_marker, next_nonblank
from .paths import is_next, is_start
from .tables import find_tables, table_from_rows, table_run
from .text import ends_like_sentence, ends_with_colon


def marker_is_title(items: list[Line], i: int) -> bool:
    it = items[i]
    t = it.text
    if it.title is not None or not t or not t[0].isupper() or len(t.split()) > 25:
        return False
    j = next_nonblank(items, i)
    if j is None:
        return False
    nxt = items[j]
    if nxt.kind == "text" and nxt.style == it.style and is_next(it.value, nxt.value):
        return False
    if not ends_like_sentence(t):
        return True
    # `2. Tempo per la presentazione della richiesta di revisione.`: a section heading with a period
    return (it.style == "1." and not it.bullet and t.endswith(".") and len(t.split()) <= 12
            and alone_in_block(items, i) and nxt.kind == "text" and not nxt.style)


def heading_candidate(items: list[Line], i: int | None) -> bool:
    if i is None:
        return False
    it = items[i]
    t = it.text
    if it.kind != "text" or it.style or it.bullet or it.caption or it.hard_break:
        return False
    if not t or not t[0].isupper() or len(t.split()) > 12 or ": " in t:
        return False
    if re.search(r"[.;,!?]$", t) and ends_like_sentence(t):
        return False
    j = next_nonblank(items, i)
    if j is None or items[j].kind == "row":
        return False
    if t.endswith(":"):
        return items[j].bullet and not items[j].style
    return alone_in_block(items, i)


def build_body(builder: ClauseBuilder, items: list[Line]) -> None:
    runs = find_tables(items)
    i = 0
    prev: Line | None = None          # the previous text line of the same block
    while i < len(items):
        it = items[i]
        if it.kind == "blank":
            prev = None
        elif it.kind == "row":
            end, tables = runs[i]
            for table in tables:
                builder.table(table)
            i, prev = end, None
        elif it.caption:
            pass
        elif it.style:
            builder.marker(it, marker_is_title(items, i))
            prev = it
        else:
            unmarked(builder, items, i, prev)
            prev = it
        i += 1


def unmarked(builder: ClauseBuilder, items: list[Line], i: int, prev: Line | None) -> None:
    it = items[i]
    text = it.text
    after_blank = prev is None
    if heading_candidate(items, i) and not heading_candidate(items, next_nonblank(items, i)):
        builder.heading(text.rstrip(":").strip())
        return
    if it.bullet:
        if after_blank:
            builder.pop_text_items(next_marker(items, i))
        builder.add_text(builder.current, text)
        return
    lower = text[:1].islower()
    if after_blank and lower and builder.can_continue():
        builder.paragraph(text, join=True)      # a paragraph cut by a page break
        return
    if not after_blank and not it.hard_break and (lower or (not prev.style and not prev.bullet)):
        builder.paragraph(text, join=True, force=lower)   # a line break inside a sentence
        return
    if after_blank:
        builder.pop_text_items(next_marker(items, i))
    if text.startswith("(*)"):
        builder.note(text)
        return
    j = next_nonblank(items, i)
    opens_list = j is not None and bool(items[j].style) and is_start(items[j].value)
    term = TERM.match(text)
    if term:
        in_terms = builder.in_terms()
        builder.pop_terms()
        if opens_list or in_terms:      # "Verde: …" + criteria, then "Arancione: …" without
            builder.term(term[1], term[2])
            return
    if opens_list and ends_with_colon(text) and builder.heading_with_text():
        builder.introduce(text)
        return
    builder.paragraph(text, join=False)


def build_forms(builder: ClauseBuilder, items: list[Line]) -> None:
    """App. 6: forms. A line followed by a table is a form's name; other lines are its prompts."""
    i = 0
    while i < len(items):
        it = items[i]
        if it.kind == "row":
            end, tables = table_run(items, i)
            for rows in tables:
                builder.table(table_from_rows(rows, None, is_data=lambda row: True))
            i = end
        elif it.kind == "text":
            j = next_nonblank(items, i)
            if j is not None and items[j].kind == "row":
                clause = builder.heading(it.text)
                clause.extra["form"] = True
            else:
                builder.add_text(builder.current, it.text)
        i += 1
