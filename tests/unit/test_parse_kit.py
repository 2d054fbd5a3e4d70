"""The parsers' shared kit (kb/parse/kit), on real lines of the corpus texts.

Every expectation here can be checked by reading the lines quoted from corpus/*.txt.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from kb.records.model import Clause
from kb.parse.kit.footnotes import (SUPERSCRIPT_DIGITS, holders, peel, placed, plain_digits,
                                    take_marks)
from kb.parse.kit.ids import REPEATS, numbered, unique_id
from kb.parse.kit.lines import SourceLine, source_lines
from kb.parse.kit.paragraphs import add_paragraph, continues, joined, rejoin, runs
from kb.parse.kit.tables import padded, pipe_rows, split_header, tab_cells, trimmed
from kb.parse.kit.tree import ClauseTree
from kb.common.text import normalize_spaces

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def text_of(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def lines_of(name: str, first: int, last: int) -> list[str]:
    """Lines `first` to `last` (1-based, both included) of a corpus text."""
    return text_of(name).split("\n")[first - 1:last]


# ---------------------------------------------------------------- lines

@pytest.mark.parametrize("name, no, printed", [
    ("it-timeref-2011.txt", 10, "Terme (PR) –"),
    ("it-laws-2017.txt", 1202, " - (b) Qualsiasi giocatore, incluso il morto, può chiamare "
                               "l'Arbitro dopo che sia stata richiamata l'attenzione su "
                               "un'irregolarità."),
    ("it-burraco-2014.txt", 523, " Nei tornei a squadre, mancando decimali valgono le scale "
                                 "qui indicate."),
])
def test_a_source_line_is_numbered_from_one_as_an_editor_shows_it(name, no, printed):
    lines = source_lines(text_of(name))
    assert lines[no - 1] == SourceLine(no, printed)


def test_every_line_is_kept_the_last_without_a_newline():
    text = text_of("it-timeref-2011.txt")
    lines = source_lines(text)
    assert len(lines) == text.count("\n") + 1
    assert "\n".join(ln.text for ln in lines) == text


@pytest.mark.parametrize("printed, indent, stripped", [
    (" - (b) Qualsiasi giocatore", 1, "- (b) Qualsiasi giocatore"),
    ("Terme (PR) –", 0, "Terme (PR) –"),
    ("", 0, ""),
])
def test_indent_and_stripped_text(printed, indent, stripped):
    line = SourceLine(1, printed)
    assert (line.indent, line.stripped, line.blank) == (indent, stripped, not stripped)


def test_a_cleaning_applies_to_every_line():
    lines = source_lines(text_of("it-burraco-2014.txt"), normalize_spaces)
    assert lines[416].text == "TORNEO A SQUADRE TORNEO A SQUADRE"  # tabs and spaces of line 417


def test_a_line_record_is_frozen():
    with pytest.raises(AttributeError):
        SourceLine(1, "x").text = "y"  # type: ignore[misc]


# ---------------------------------------------------------------- ids

@pytest.mark.parametrize("base, taken, suffixes, expected", [
    # Burraco ART. 35 prints `3.` twice: the second is 3bis
    ("35-3", {"35", "35-1", "35-2", "35-3"}, REPEATS, "35-3bis"),
    ("35-3", {"35-3", "35-3bis"}, REPEATS, "35-3ter"),
    # a first occurrence keeps its id
    ("35-4", {"35-3", "35-3bis"}, REPEATS, "35-4"),
    # norms App. 3 §2: a second 1)–2) list under the same parent
    ("alert-2-1", {"alert-2", "alert-2-1", "alert-2-2"}, numbered("_"), "alert-2-1_2"),
    # a time-reference topic printed a second time (none in the 2011 table)
    ("attacco-fuori-turno", {"attacco-fuori-turno"}, numbered("-"), "attacco-fuori-turno-2"),
    ("x", {"x", "x-2"}, numbered("-"), "x-3"),
])
def test_a_taken_id_gets_the_first_free_suffix(base, taken, suffixes, expected):
    assert unique_id(base, taken, suffixes) == expected


def test_numbered_suffixes_count_from_two():
    suffixes = numbered("_")
    assert [next(suffixes) for _ in range(3)] == ["_2", "_3", "_4"]


# ---------------------------------------------------------------- paragraphs

@pytest.mark.parametrize("name, before, after, goes_on", [
    # Burraco: a page break left a blank line inside "… sono / temporaneamente congelati."
    ("it-burraco-2014.txt", 591, 593, True),
    ("it-burraco-2014.txt", 750, 752, True),
    # norms: "… senza sipari / ma, nel caso in cui …"
    ("it-norms-2026.txt", 1002, 1004, True),
    # a sentence ended ("… effettivamente giocate.") and a new item ("b) Incontri a K.O.")
    ("it-norms-2026.txt", 94, 96, False),
    # a heading without a full stop, then an item in lower case: the item's marker
    # counts as its first character only after the caller strips it
    ("it-norms-2026.txt", 110, 112, True),
])
def test_a_sentence_goes_on_across_a_break(name, before, after, goes_on):
    (first,), (second,) = lines_of(name, before, before), lines_of(name, after, after)
    assert continues(first, second) is goes_on


def test_wrapped_lines_join_into_one_paragraph():
    block = lines_of("it-timeref-2011.txt", 7, 12)  # the title block's event line, wrapped
    assert joined(block) == "Convention Arbitrale 2011 Salsomaggiore Terme (PR) – 7/09 Gennaio 2011"


def test_rejoin_merges_a_paragraph_a_page_break_cut():
    blocks = runs(lines_of("it-burraco-2014.txt", 586, 594))
    assert len(blocks) == 3  # the lead-in, the three 1)–3) items, the cut sentence's end
    merged = rejoin(blocks, lambda before, block: continues(before[-1], block[0]))
    assert len(merged) == 2
    assert merged[1][:-1] == blocks[1][:-1]
    assert merged[1][-1] == f"{blocks[1][-1]} {blocks[2][0]}"


@pytest.mark.parametrize("text, more, sep, expected", [
    ("", "Evento", "\n", "Evento"),
    ("Evento", "Una manifestazione", "\n", "Evento\nUna manifestazione"),
    ("… sono", "temporaneamente congelati.", " ", "… sono temporaneamente congelati."),
])
def test_add_paragraph(text, more, sep, expected):
    assert add_paragraph(text, more, sep) == expected


# ---------------------------------------------------------------- footnotes

SUPERSCRIPT_RUN = re.compile(f"[{SUPERSCRIPT_DIGITS}]+")
BURRACO_MARK = re.compile(r"⁽([⁰¹²³⁴⁵⁶⁷⁸⁹]+)⁾")


def clauses_of(name: str, first: int, last: int) -> list[Clause]:
    """One clause per line, its id the line number."""
    return [Clause(id=str(no), parent=None, label="", text=line)
            for no, line in enumerate(lines_of(name, first, last), first)]


def marks_of(text: str, mark: re.Pattern[str], group: int) -> list[str]:
    return take_marks(text, mark, lambda m: plain_digits(m[group]))[1]


def burraco_body(block: list[str]) -> tuple[str, str] | None:
    m = BURRACO_MARK.match(block[0])
    return (plain_digits(m[1]), block[0][m.end():].strip()) if m else None


def test_a_footnote_body_is_peeled_and_placed_on_the_clause_carrying_its_marker():
    blocks = runs(lines_of("it-burraco-2014.txt", 563, 567))
    kept, bodies = peel(blocks, burraco_body)
    assert bodies == [("1", "La somma di due ammonizioni comporta la perdita di 1 V.P. e "
                            "100 M.P. in classifica generale.")]
    assert [b[0] for b in kept] == lines_of("it-burraco-2014.txt", 563, 563) + \
        lines_of("it-burraco-2014.txt", 565, 565)
    clauses = clauses_of("it-burraco-2014.txt", 563, 565)  # "… con ammonizioni⁽¹⁾ …" on 565
    where = holders(clauses, lambda c: "1" in marks_of(c.text, BURRACO_MARK, 1))
    footnote = placed(*bodies[0], where)
    assert (footnote.clause, footnote.clauses) == ("565", ["565"])


def test_one_footnote_marked_on_several_clauses_lists_them_all():
    clauses = clauses_of("it-norms-2026.txt", 537, 539)  # board⁹ … board⁶ … board⁹
    marks = {c.id: marks_of(c.text, SUPERSCRIPT_RUN, 0) for c in clauses}
    assert marks == {"537": ["9"], "538": ["6"], "539": ["9"]}
    nine = placed("9", "…", holders(clauses, lambda c: "9" in marks[c.id]))
    assert (nine.clause, nine.clauses) == ("537", ["537", "539"])


def test_taking_marks_leaves_the_words_they_were_glued_to():
    (line,) = lines_of("it-norms-2026.txt", 108, 108)
    assert take_marks(line, SUPERSCRIPT_RUN, lambda m: plain_digits(m[0])) == (
        "ARTICOLO 8 - SEQUENZA DEI ROUND", ["2"])


def test_a_footnote_marked_nowhere_stays_where_it_was_printed():
    assert placed("*", "text", [], printed_at="79C1").clause == "79C1"
    assert placed("*", "text", []).clause is None


# ---------------------------------------------------------------- tables

def test_pipe_rows_leave_out_the_separator_and_the_empty_header():
    rows = pipe_rows(lines_of("it-laws-2017.txt", 88, 94))  # the WBF Laws Committee
    assert rows[0] == ["Max Bavin", "Howard Weinstein"]
    assert rows[-1] == ["Chip Martel", "Ton Kooijman (Chairman)"]
    assert len(rows) == 5


def test_tab_cells_keep_leading_empty_cells_and_trimmed_drops_trailing_ones():
    (line,) = lines_of("it-burraco-2014.txt", 415, 415)  # "\t\t\t\t\t\tOltre 2500\t20-0"
    cells = tab_cells(line, str.strip)
    assert cells[:6] == [""] * 6 and cells[6:] == ["Oltre 2500", "20-0"]
    (header,) = lines_of("it-burraco-2014.txt", 417, 417)  # " TORNEO A SQUADRE \t…\t\t"
    assert trimmed(tab_cells(header, str.strip))[-1] == "TORNEO A SQUADRE"


def test_the_header_is_every_row_above_the_first_data_row():
    rows = padded([tab_cells(ln, str.strip) for ln in lines_of("it-norms-2026.txt", 1182, 1185)])
    assert {len(r) for r in rows} == {15}  # "Diff IMP" row padded to the 14 board counts + label
    header, data = split_header(rows, lambda row: row[0].isdigit(), none=len(rows) - 1)
    assert [r[0] for r in header] == ["n° Board", "Diff IMP"]
    assert [r[:2] for r in data] == [["0", "10,00"], ["1", "10,71"]]


@pytest.mark.parametrize("none, header_rows", [(0, 0), (1, 1)])
def test_with_no_data_row_the_header_is_the_rows_the_caller_names(none, header_rows):
    rows = [tab_cells(ln, str.strip) for ln in lines_of("it-burraco-2014.txt", 417, 420)]
    header, data = split_header(rows, lambda row: any(c.isdigit() for c in row), none=none)
    assert (len(header), len(data)) == (header_rows, 4 - header_rows)


# ---------------------------------------------------------------- tree

DEPTH = [(re.compile(r"^([A-Z])\. "), 1), (re.compile(r"^(\d)\. "), 2),
         (re.compile(r"^- \(([a-z])\) "), 3)]


def test_a_clause_hangs_under_the_nearest_clause_above_its_depth():
    """IT Law 9: A., 1.–5., B., then (a)–(d) (the number 1 the print dropped), then 2."""
    tree = ClauseTree(Clause("9", None, "9", ""))
    for line in lines_of("it-laws-2017.txt", 1178, 1205):
        for pattern, depth in DEPTH:
            if m := pattern.match(line.strip()):
                parent = tree.above(depth)
                tree.add(Clause(parent.id + m[1], parent.id, m[1], line), depth)
    parents = {c.id: c.parent for c in tree.clauses}
    assert [c.id for c in tree.clauses if c.parent == "9A"] == ["9A1", "9A2", "9A3", "9A4", "9A5"]
    assert parents["9Ba"] == "9B" and parents["9Bd"] == "9B"
    assert parents["9B2"] == "9B"  # 2. closes the items: back at depth 2
    assert "9A5" in tree and tree.get("9B2").text.startswith("2. Nessun giocatore")
    assert (tree.root.id, tree.last.id, tree.depth) == ("9", "9B2", 2)
