"""The parsers' shared kit (kb/parse/kit), on real lines of the corpus texts.

Every expectation here can be checked by reading the lines quoted from corpus/*.txt.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from kb.parse.kit.ids import REPEATS, numbered, unique_id
from kb.parse.kit.lines import SourceLine, source_lines
from kb.text import normalize_spaces

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def text_of(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


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
