"""Burraco "Codice di Gara" (FIBAS, aggiornato al 01 aprile 2014): sections → articles → clauses.

Structure read from the text
- `SEZIONE X – TITLE` body headings give `Parsed.groups` (A–G); every unit's `group` is
  the letter of the section it sits in. The front table of contents (dot leaders, a tab,
  `Pag. NN`) is dropped: its page numbers map to nothing in the body.
- `ART. N – TITLE` headings (separator en dash, hyphen, none, or before the number) give
  one unit per article: id = the number, kind "article", title as printed after the dash.
- Front matter gives `meta`: `version_date` (ISO) / `version_text` from "aggiornato al …",
  `editor` from "Redazione a cura di …".

ART. 20: no unit. The numbering jumps from ART. 19 to ART. 21 and nothing in the text
marks where an ART. 20 would start: ART. 19 ("PUNTEGGI") itself sends the reader to the
"RANGE DI RIFERIMENTO" table printed on the score sheets, so the facsimiles and range
tables after it read as its own material, and the closing paragraph on who fills in the
score has no heading either. Cutting an ART. 20 out of ART. 19 would invent a boundary, so
the parser keeps the text where it is printed and reports the gap instead:
`meta["missing_articles"] == ["20"]` (computed from the numbering, not hard-coded).

Clause ids (DESIGN §4 "ids from their own numbering"), per article N:
- `N`        the lead: the article's first paragraph (empty text when it opens with a
             list or a definition); parent None. Every other clause has parent `N`.
- `N-pK`     the K-th unnumbered paragraph (comma) of the article, the lead counting as
             K = 1, so "l'ultimo comma" is the highest K.
- `N-3`      a numbered item `3.` / `3)` / `- 3)`;
- `N-b`      a lettered item `b)` / `- B)` (letter in lower case);
- `N-2.1`    a decimal item `2.1`, parent `N-2`;
- a number printed twice in one article (ART. 35 has two `3.`) gets `bis`, `ter`, …:
  `35-3`, `35-3bis` (label stays "3.").
- `2-<slug of term>` a definition of ART. 2 (DEFINIZIONI), label = the term,
  `extra = {"kind": "definition", "term": …}`; paragraphs without a leading
  `Term:` and `- N)` lists continue the previous definition.

Within an article:
- an all-caps line standing alone (a noun phrase: no finite verb, not NB/P.S.) or a short
  mixed-case line without punctuation ("Senza Burraco") is a sub-heading: it becomes the
  `title` of the next clause (trailing colon dropped). All-caps *sentences* stay text.
- `- ` bullets join, one per line, the clause whose text introduces them (ends with ":")
  or the bullet list just before them; otherwise they open a new paragraph clause.
- an item ending with ":" takes the paragraph under it as its own text (ART. 24, 1./2.).
- tab-separated blocks are `Table`s on the clause where they sit (a pending sub-heading
  opens an empty clause for them). Rows before the first row holding a bare number are
  the header; a header row with fewer cells than the next one is the caption
  ("1 SMAZZATA"). Trailing empty cells are dropped, leading ones kept (alignment).
- two paragraphs split mid-sentence (no final punctuation, next starts in lower case)
  are joined back into one.
- footnotes `⁽¹⁾` / `^[1]`: the paragraph starting with the marker is the footnote text;
  the marker in the body is removed and the footnote records the clause that held it.
- the lines after the last article's text that start with an ellipsis (the closing jokes)
  are not normative: removed from the article, kept verbatim in `meta["trailer"]`.
- noise removed everywhere: `**`/`*` emphasis, `<p>` tags, superscripts (`1^a` → `1a`,
  stray `^R` dropped), tabs outside tables.
"""
from __future__ import annotations

from ...records.model import Parsed, Unit
from .articles import TOC_LINE, front_meta, split_text
from .blocks import paragraph_blocks, peel_trailer
from .clauses import article_unit


def parse(text: str) -> Parsed:
    lines = [ln for ln in text.split("\n") if not TOC_LINE.search(ln)]
    front, groups, articles = split_text(lines)
    meta = front_meta(front)
    units: list[Unit] = []
    for i, art in enumerate(articles):
        blocks = paragraph_blocks(art.lines)
        if i == len(articles) - 1:
            blocks, trailer = peel_trailer(blocks)
            if trailer:
                meta["trailer"] = trailer
        units.append(article_unit(art, blocks))
    numbers = [int(u.id) for u in units]
    if numbers:
        missing = [str(n) for n in range(1, max(numbers) + 1) if n not in numbers]
        if missing:
            meta["missing_articles"] = missing
    return Parsed(units=units, groups=groups, meta=meta)
