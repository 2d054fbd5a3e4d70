import re

import pytest

from kb.common.text import is_pipe_separator, pipe_cells, remove_blocks, slugify


@pytest.mark.parametrize("raw, slug", [
    ("Attacco fuori turno", "attacco-fuori-turno"),
    ("Chiamata Artificiale", "chiamata-artificiale"),
    ("Vulnerabilità", "vulnerabilita"),
    ("Penalità: (vedi anche “Rettifica”)", "penalita-vedi-anche-rettifica"),
    ("Línea  de   juego", "linea-de-juego"),
])
def test_slugify(raw, slug):
    assert slugify(raw) == slug


def test_pipe_rows():
    assert is_pipe_separator("|---|---|:--:|")
    assert not is_pipe_separator("| 1 | 2 |")
    assert pipe_cells("| **Board** | 1 |  5 |") == ["Board", "1", "5"]


def test_remove_blocks_full_and_suffix():
    block = [re.compile("^HEAD ONE$"), re.compile("^HEAD TWO$"), re.compile("^HEAD THREE$")]
    lines = ["a", "", "HEAD ONE", "", "HEAD TWO", "HEAD THREE", "b", "HEAD TWO", "", "HEAD THREE", "c", "HEAD THREE"]
    kept = [line for _, line in remove_blocks(lines, block)]
    # a lone last line is not a block: one line of a header can be ordinary text
    assert kept == ["a", "", "\x00", "b", "\x00", "c", "HEAD THREE"]


@pytest.mark.parametrize("day, month, year, iso", [
    ("7", "Gennaio", "2011", "2011-01-07"),
    ("01", "aprile", "2014", "2014-04-01"),
    (29, "novembre", 2023, "2023-11-29"),
    ("1", "Pag", "2014", None),
])
def test_italian_date(day, month, year, iso):
    from kb.common.text import italian_date
    assert italian_date(day, month, year) == iso
