"""/situations: the situation index in the reader's language, by period and A–Z, each entry
linking to its ruling clauses; linked from home, the clock and the unit pages; its JSON."""
import html
import re
from pathlib import Path

import pytest

from kb.library import Library
from kb.situations import load

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(scope="module")
def situations(export):
    return load(CORPUS / "situations.tsv", Library.of(export["documents"]))


@pytest.mark.parametrize("ui, title", [("it", "Situazioni"), ("es", "Situaciones"), ("en", "Situations")])
def test_every_situation_is_listed_in_the_readers_language(client, situations, ui, title):
    page = client.get("/situations", params={"ui": ui}).text
    assert f"<h1>{title}</h1>" in page
    names = re.findall(r'<li id="([^"]+)"><span class="situation-name">([^<]+)</span>', page)
    assert len(names) == len(situations)
    said = {s.id: s.name(ui) for s in situations}
    assert all(said[i] == html.unescape(n) for i, n in names)


def test_an_entry_links_to_its_clauses_in_both_editions(client):
    page = client.get("/situations", params={"ui": "en"}).text
    entry = re.search(r'<li id="insufficient-bid-accepted">(.*?)</li>\s*</ul>\s*</li>', page, re.S).group(1)
    assert 'href="/it-laws/27#27A1"' in entry and 'href="/es-laws/27#27A1"' in entry


def test_a_to_z_is_in_the_readers_alphabet(client):
    page = client.get("/situations", params={"ui": "es"}).text
    letters = re.findall(r'<h3 id="letter-([^"]+)">', page)
    assert letters == sorted(letters) and len(letters) >= 15


def test_the_periods_come_in_the_boards_order(client):
    page = client.get("/situations", params={"ui": "it"}).text
    order = re.findall(r'<section id="period-([^"]+)"', page)
    assert order[:3] == ["before-round", "shuffle-deal", "auction"] and order[-1] == "correction"


def test_home_clock_and_units_link_into_the_index(client):
    assert 'href="/situations"' in client.get("/?ui=it").text
    assert 'href="/situations#period-auction"' in client.get("/clock?ui=it").text
    unit = client.get("/it-laws/27?ui=es").text
    assert "Situaciones que se rigen aquí" in unit and 'href="/situations#insufficient-bid-accepted"' in unit


def test_the_api_names_what_the_page_names(client):
    api = client.get("/api/situations", params={"lang": "es"}).json()
    page = client.get("/situations", params={"ui": "es"}).text
    first = api["situations"][0]
    assert f'<li id="{first["id"]}"><span class="situation-name">{first["name"]}</span>' in page
    assert [p["period"] for p in api["periods"]][0] == "before-round"
    assert client.get("/api/situations", params={"lang": "fr"}).status_code == 400


def test_a_told_situation_is_named_above_the_hits(client):
    page = client.get("/search", params={"q": "il morto ha indicato una carta al dichiarante", "ui": "it"}).text
    above = page[:page.index('<ol class="hits">')]
    said = re.search(r'<p class="said">(.*?)</p>', above).group(1)
    assert said.startswith("Sembra questa situazione:")
    named = '<a href="/situations#dummy-suggests-play">Il morto suggerisce una giocata</a>'
    kicker = re.search(r'<p class="answer-kicker">(.*?)</p>', above)
    assert named in said or (kicker and named in kicker.group(1))  # the answer card names its own, the line the rest
    assert not (kicker and named in kicker.group(1) and named in said)
    api = client.get("/api/search", params={"q": "declarer claimed the rest", "ui": "en"}).json()
    assert [s["id"] for s in api["said"]][:1] == ["claim"]
    assert client.get("/api/search", params={"q": "27B1", "ui": "it"}).json()["said"] == []
