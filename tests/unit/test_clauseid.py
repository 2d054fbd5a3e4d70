import pytest

from kb.parse.kit.lawtree import LawClauseTree
from kb.records.clauseid import ClauseId, readable


@pytest.mark.parametrize("cid, shown", [
    ("27", "27"),
    ("27B", "27B"),
    ("27B1", "27B1"),
    ("27B1a", "27B1(a)"),
    ("20F5bii", "20F5(b)(ii)"),
    ("40B2av", "40B2(a)(v)"),
    ("80B2i", "80B2(i)"),       # the letter i, after (h)
    ("def-board", "def-board"),  # not a Law clause: unchanged
])
def test_readable_labels(cid, shown):
    assert readable(cid) == shown


@pytest.mark.parametrize("bad", ["", "B1", "27BB", "1234", "27B1A"])
def test_non_law_ids_do_not_parse(bad):
    assert ClauseId.parse(bad) is None


def test_tree_gives_logical_ids_and_parents():
    t = LawClauseTree("40")
    t.section("A", "Accordi di coppia")
    t.number(1, implied=True)
    t.item("a", "first")
    t.roman("i", "deep")
    t.number(2, "second")
    t.section("B")
    t.item("a", "no number")
    got = [(c.id, c.parent, c.label) for c in t.clauses]
    assert got == [
        ("40", None, "40"), ("40A", "40", "A"), ("40A1", "40A", "1"),
        ("40A1a", "40A1", "(a)"), ("40A1ai", "40A1a", "(i)"),
        ("40A2", "40A", "2"), ("40B", "40", "B"), ("40Ba", "40B", "(a)"),
    ]
    assert t.get("40A1").extra == {"implied": True}


def test_tree_refuses_duplicate_ids():
    t = LawClauseTree("9")
    t.section("A")
    with pytest.raises(ValueError, match="9A"):
        t.section("A")
