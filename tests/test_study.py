"""Study cards (kb/study.py): one per definition, time reference, Law title and situation, each
with a stable id and a page that answers it."""
from collections import Counter

import pytest

from kb.study import DECKS, cards


@pytest.fixture(scope="module")
def deck(build_dir):
    import kb
    return cards(kb.open(build_dir))


def test_every_deck_holds_what_the_texts_hold(deck):
    counts = Counter(c.deck for c in deck)
    assert counts["definitions"] == 63 and counts["timerefs"] == 178    # the Laws' 63 definitions, 178 entries
    assert counts["titles"] == 2 * 93 and counts["situations"] >= 3 * 300
    assert list(counts) == list(DECKS)


def test_ids_are_unique_and_name_what_they_ask(deck):
    assert len({c.id for c in deck}) == len(deck)
    alert = next(c for c in deck if c.id == "definitions:it-laws:def-alert")
    assert alert.question == "Alert" and "avvertimento" in alert.answer and alert.url == "/it-laws/def-alert"


def test_every_card_links_to_a_page_that_answers_it(deck, client):
    for url in sorted({c.url.split("#")[0] for c in deck}):
        assert client.get(url).status_code == 200, url
