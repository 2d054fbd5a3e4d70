"""The situation index (corpus/situations.tsv): every row speaks the three languages, belongs
to a period of the board and points at clauses that exist, in both editions of the Laws."""
from pathlib import Path

import pytest

from kb.concordance import read_tsv
from kb.library import Library
from kb.situations import load

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(scope="module")
def situations(export):
    return load(CORPUS / "situations.tsv", Library.of(export["documents"]))


@pytest.fixture(scope="module")
def clauses(export):
    return {(d["id"], u["id"], c) for d in export["documents"] for u in d["units"]
            for c in [None, *(c["id"] for c in u["clauses"])]}  # None: the whole unit


def test_the_index_is_large_and_its_ids_unique(situations):
    assert len(situations) >= 300
    assert len({s.id for s in situations}) == len(situations)


def test_every_situation_is_said_in_three_languages(situations):
    for s in situations:
        assert {lang for lang, phrases in s.says if phrases and all(phrases)} == {"it", "es", "en"}, s.id


def test_every_target_exists(situations, clauses):
    missing = [(s.id, t) for s in situations for t in s.targets if t not in clauses]
    assert missing == []


def test_both_editions_rule_it_unless_it_is_new_in_2017(situations):
    for s in situations:
        docs = {doc for doc, _, _ in s.laws}
        assert "it-laws" in docs, s.id
        assert "es-laws" in docs or "2017" in s.note, s.id  # the note says what 2007 lacks


def test_every_period_is_one_of_the_boards(situations):
    periods = [r["period"] for r in read_tsv(CORPUS / "clock.tsv", ("period", "topics", "laws", "note"))]
    assert {s.period for s in situations} <= set(periods)
    assert {s.period for s in situations} == set(periods)  # and every period has its situations
