"""Study cards (kb/study/cards.py): one per definition, time reference, Law title and situation, each
with a stable id and a page that answers it."""
import re
from collections import Counter

import pytest

from kb.study.cards import DECKS, cards


@pytest.fixture(scope="module")
def deck(build_dir):
    import kb
    return cards(kb.open(build_dir).study_sources)


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


# ---------------------------------------------------------------- the /study page and its cards (web/study/drills.py)
def test_the_cards_json_holds_every_card_by_deck(client, deck):
    r = client.get("/study/cards.json")
    data = r.json()
    assert r.status_code == 200 and data["build"] == r.headers["x-build"]
    assert list(data["decks"]) == list(DECKS)
    assert {d: len(cs) for d, cs in data["decks"].items()} == Counter(c.deck for c in deck)
    assert data["decks"]["definitions"][0] == next(c for c in deck if c.deck == "definitions").to_dict()


@pytest.mark.parametrize("ui, title, drills, ratings", [
    ("it", "Studio", "Esercizi", ["Di nuovo", "Difficile", "Bene", "Facile"]),
    ("es", "Estudio", "Ejercicios", ["Otra vez", "Difícil", "Bien", "Fácil"]),
    ("en", "Study", "Drills", ["Again", "Hard", "Good", "Easy"])])
def test_the_study_page_speaks_the_readers_language(client, ui, title, drills, ratings):
    html = client.get("/study", params={"ui": ui}).text
    assert f"<title>{title} · " in html and f'<h2 id="drills-h">{drills}</h2>' in html
    assert 'data-cards="/study/cards.json"' in html
    assert '<script src="/static/fsrs.js" defer></script><script src="/static/study.js" defer></script>' in html
    assert re.findall(r'<button type="button" class="rate" data-rating="(\d)"><span class="rate-name">([^<]+)</span>',
                      html) == [(str(n), name) for n, name in enumerate(ratings, 1)]  # FSRS's four, in order
    assert re.findall(r'data-deck="(\w+)"', html) == list(DECKS)
    assert not re.search(r"<script>|<style|\son\w+=|\sstyle=", html)  # the CSP allows no inline code or style
    words = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', html.split('id="study-words"')[1].split(">")[0]))
    assert len(words) >= 20 and all(words.values())  # every word the script shows, in the page's language


def test_the_reading_plan_lists_every_law_in_force_by_chapter(client, export):
    html = client.get("/study", params={"ui": "en"}).text
    laws = next(d for d in export["documents"] if d["id"] == "it-laws")
    articles = [u["id"] for u in laws["units"] if u["kind"] == "article"]
    assert re.findall(r'<li data-doc="it-laws" data-unit="([^"]+)">', html) == articles
    assert html.count('class="plan-group"') == 11  # the chapters (the 2017 text has none: the 2007 edition's)
    assert '<h3 id="plan-chapter-II">Chapter II <span lang="es">Irregularidaes</span>' in html


def test_the_home_page_leads_to_study(client):
    assert 'href="/study"' in client.get("/").text


def test_a_law_page_offers_the_tools_a_norm_page_no_read_mark(client):
    law = client.get("/it-laws/27").text
    assert 'id="study-words"' in law and '<article class="clauses" data-doc="it-laws" data-unit="27">' in law
    assert 'class="read-mark"' in law and "/static/study.js" in law
    other = client.get("/es-laws/27").text
    assert 'class="read-mark"' not in other and 'data-doc="es-laws"' in other  # bookmarks on any clause


def test_study_is_kept_offline_and_copied(client):
    from web.offline.sitecopy import is_shared, relink
    state = client.get("/offline/manifest.json").json()
    assert "/study" in state["pages"] and {"/study/cards.json", "/static/fsrs.js", "/static/study.js"} <= set(state["assets"])
    assert is_shared("/study/cards.json") and not is_shared("/study")  # the cards once, beside the languages
    assert 'data-cards="../study/cards.json"' in relink('<section data-cards="/study/cards.json">', "study.html", "it")


@pytest.mark.parametrize("ui", ["it", "es", "en"])
def test_the_anki_decks_in_the_readers_language_are_offered(client, ui):
    html = client.get("/study", params={"ui": ui}).text
    client.cookies.clear()
    url = re.search(r'<a href="(/study/[^"]+\.apkg)">', html).group(1)
    assert url.endswith(f"-{ui}.apkg") and client.get(url).status_code == 200


def test_a_situation_is_answered_by_its_ruling_text(deck):
    """Late arrival (the drills' card, said in English): the FIGB norm that fixes the penalty in
    Italy first (the index's lead, norm 8 §3), then Law 90B1 with the list it is an item of
    ("I seguenti sono esempi di violazioni soggette a penalità procedurali … : 1. presentazione
    alla gara di un concorrente dopo l'orario d'inizio stabilito; … 8. mancare di ottemperare
    prontamente …"), then Law 90A (the index's other clause), each named in English."""
    card = next(c for c in deck if c.id == "situations:late-arrival:en")
    norm, law, penalties, *_norms = card.answer.split(" — ")
    assert card.ref == "90B1" and card.url == "/it-laws/90#90B1"
    assert norm.startswith("FIGB integrative norms 2026, Norm 8 §3: Ritardo nella presentazione alla Gara")
    assert law.startswith("Italian Laws 2017, Art. 90B1: 90B Infrazioni soggette a penalità procedurali I seguenti")
    assert "90B1 presentazione alla gara di un concorrente dopo l'orario d'inizio stabilito; 90B2 gioco" in law
    assert law.endswith("90B8 mancare di ottemperare prontamente ai regolamenti del torneo o a qualsivoglia istruzione dell'Arbitro.")


def test_no_drill_ends_on_a_stem(deck):
    assert [c.id for c in deck if c.answer.rstrip().endswith(":")] == []
