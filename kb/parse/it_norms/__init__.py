"""Profile `it_norms`: the FIGB "Norme Integrative al Codice Internazionale del Bridge".

Units (DESIGN §4)
- `premessa` (kind "front"): the PREMESSA and the DEFINIZIONI that follow the
  title block. The title block itself goes to `Parsed.meta` (`title_block`,
  `edition_text`, `deliberations`), the PREMESSA change log to `meta["changes"]`.
- one unit per norm heading `ARTICOLO N – TITLE` / `Art. N - Title` (kind "norm"),
  id = the Law number; `ARTICOLO 92 – ARTICOLO 93` (title on the next line) is a
  range, id `92-93`. `extra["law"]` lists the Law numbers the norm integrates.
- one unit per `APPENDICE N` (kind "appendix"), id from DESIGN's fixed list,
  chosen by a keyword of its title (App. 6 has none: its forms), else by number.
  `extra["appendix"]` = N, `extra["adopted"]` (ISO or None) and `adopted_text`.

Clause ids: `<unit>` for the unit's own preamble (possibly empty), then
`<unit>-<path>` where the path joins the norm's own markers from the outside in:
numbers `1.` / `1)` / `(1)` give `1`, letters `a)` / `a.` / `(a)` give `a`
(case kept: `A.` gives `A`), decimals `5.8` replace their section number
(`sipari-5.8`), `a.1` stays `a.1`. Two numbers in a row are separated by `-`
(`78-7a1-1a`: 7. a) 1) 1. a.), everything else is concatenated (`8-3b2a1`), the
same way the text cites itself ("punto b1b", "7a1g").
- Paragraphs labelled with a Law clause (`40A1(b)`, `43B3`, `78D`) get
  `<unit>-<compact clause>` (`40-40A1b`), `extra["law_clause"]`; a repeated label
  continues the same clause. `X1`..`X3` (App. 4) are cited document-wide: `sipari-X1`.
- Headings without a marker ("Penalità del morto", "Apertura 1♣:") get
  `<parent path>-<slug of the heading>` (suits spelled out) and do not enter their
  children's paths; "Term: text" paragraphs that introduce a list ("Verde: …",
  "Blu: …") become clauses `<path>-<slug of term>` whose list nests under them.
- A list that restarts numbering under the same parent (a clash) gets `_2`, `_3`
  appended to the clashing id (App. 3 §2, the two 1)–2) lists of its NOTE).
- Labels are the markers as printed (`a)`, `(1)`, `5.8`). Two repairs are flagged:
  a repeated `a)` in a running a), b) list becomes c) (`extra["printed_label"]`),
  the OCR-garbled `\\$.2` takes its section's number (`extra["label_restored"]`).

Footnotes (`Footnote.marker` is the plain digit, "4" for ⁴): a line starting with
a superscript digit is footnote text (a text
ending in ":" continues into the next paragraph); it is attached to the unit
and clause holding the marker, wherever the page break put it. Markers without
a footnote are dropped from the text and listed in `Unit.extra["missing_footnotes"]`.
"""
from __future__ import annotations

from ...records.model import Parsed
from .footnotes import attach_footnotes, extract_footnotes
from .front import build_front, link_changes
from .units import build_unit, split_units


GROUPS = [{"id": "front", "title": "Premessa"},
          {"id": "norme", "title": "Norme integrative"},
          {"id": "appendici", "title": "Appendici"}]


def parse(text: str) -> Parsed:
    lines, notes = extract_footnotes(text.split("\n"))
    front_lines, specs = split_units(lines)
    front, meta = build_front(front_lines)
    units = [build_unit(spec) for spec in specs]
    link_changes(meta.get("changes", []), units)
    all_units = ([front] if front else []) + units
    attach_footnotes(all_units, notes)
    return Parsed(units=all_units, groups=GROUPS, meta=meta)
