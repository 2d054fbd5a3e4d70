"""The bids a story tells: a lower bid right after one of its level is an insufficient bid, found
though the story never names it (kb/search/bids.py), and searched as one."""
import pytest

from kb.search import bids

CASES = [  # (text, the bids' ranks in the order made, insufficient?)
    ("l'avversario ha aperto 1 picche e io ho detto 1 cuori", [8, 7], True),
    ("ho messo 1 cuori sopra l'1 picche dell'avversario, poi 2 cuori", [8, 7, 12], True),
    ("LHO bid 1 heart over my 1 spade", [8, 7], True),
    ("over our 1NT the opponent bid 1 spade", [9, 8], True),
    ("mi rival abrió 1 corazón y yo dije 1 trébol", [7, 5], True),
    ("tras 2 picas dije 2 corazones", [13, 12], True),
    ("I opened 1 heart and LHO overcalled 1 spade", [7, 8], False),
    ("partner opened 1NT and I bid 2 diamonds, a transfer", [9, 11], False),
    ("ho aperto 1 senza atout e il compagno ha detto 2 fiori", [9, 10], False),
    ("3 sin triunfo doblado", [19], False),
    ("ho detto 1 cuori senza accorgermene", [7], False),     # "senza" after a suit is "without"
    ("ho detto 1 cuori sull'1 picche", [8, 7], True),
    ("2 fiori dopo 1 senza: si allerta?", [9, 10], False),   # "dopo": made after
    ("the response of 1 spade to 1 heart is forcing", [7, 8], False),
    # numbers of other levels are mostly no auction: a hand's shape, a contract, a seat
    ("avevo 5 picche e 4 cuori e ho aperto 1 picche", [28, 22, 8], False),
    ("Contract 4 spades by South; RHO had opened 1 heart", [23, 7], False),
    ("partner opened 2 hearts in 1st seat", [12], False),
    ("il compagno ha aperto 1 quadri, su 1 picche ho detto 2 fiori", [6, 8, 10], False),  # "su" not right after a bid
]


@pytest.mark.parametrize("text, ranks, insufficient", CASES)
def test_the_bids_of_a_story_and_whether_one_is_insufficient(text, ranks, insufficient):
    assert bids.ranks(text) == ranks
    assert bids.insufficient(text) is insufficient


@pytest.mark.parametrize("text", [
    "volevo dire 2 quadri ma dal bidding box è uscito 2 fiori",
    "quería sacar la cartulina de 2 picas y saqué la de 2 corazones",
    "I meant to bid 2 spades but pulled out 2 hearts",
])
def test_a_call_meant_otherwise_is_no_insufficient_bid(text):
    assert bids.ranks(text) and not bids.insufficient(text)


def test_what_the_bids_tell_is_named_in_the_querys_language():
    story = "l'avversario ha aperto 1 picche e io ho detto 1 cuori"
    assert [bids.told(story, lang) for lang in ("it", "es", "en", None)] == [
        "licita insufficiente", "declaración insuficiente", "insufficient bid", ""]


@pytest.mark.parametrize("q, ui, law, within", [
    ("l'avversario ha aperto 2 cuori e io ho detto 2 fiori senza guardare, cosa succede?", "it", ("it-laws", "27"), 1),
    ("RHO opened 2 spades and I said 2 hearts without looking, what now?", "en", ("it-laws", "27"), 1),
    ("el rival abrió 2 picas y mi compañero dijo 2 corazones sin mirar", "es", ("es-laws", "27"), 2),
])
def test_a_story_of_a_lower_bid_finds_the_insufficient_bid(engine, q, ui, law, within):
    """No story names the irregularity: the Law comes from the bids alone (before, a bid out of
    turn, Law 31, came first in Italian, a mistaken call, Law 25, in English, and Law 27 was not
    among the first two in Spanish)."""
    hits = engine.search(q, ui=ui).hits
    assert law in [(h.doc, h.unit) for h in hits[:within]]
