"""/situations: the situation index in the reader's language, its periods and A–Z, each name
linking to the page of the index that holds it (a period of the board, or a run of its Laws),
where each entry links to its ruling clauses; linked from home, the clock, the unit pages and
the search; its JSON."""
import html
import re
from pathlib import Path

import pytest

from kb.corpus.library import Library
from kb.corpus.situations import load

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
ENTRY = re.compile(r'<li id="([^"]+)"><span class="situation-name">([^<]+)</span>')


@pytest.fixture(scope="module")
def situations(export):
    return load(CORPUS / "situations.tsv", Library.of(export["documents"]))


def index_pages(client, ui):
    """The index, and each of its pages the index links to, in the reader's language."""
    index = client.get("/situations", params={"ui": ui}).text
    urls = dict.fromkeys(re.findall(r'href="(/situations/[^"#]+)"', index))
    return index, {url: client.get(url, params={"ui": ui}).text for url in urls}


def entry_on_its_page(client, situation, ui="en"):
    """A situation's entry, on the page the index links it to."""
    index = client.get("/api/situations", params={"lang": ui}).json()
    url = next(s["url"] for s in index["situations"] if s["id"] == situation)
    page = client.get(url.split("#")[0], params={"ui": ui}).text
    return re.search(rf'<li id="{situation}">(.*?)</li>\s*</ul>\s*</li>', page, re.S).group(1)


@pytest.mark.parametrize("ui, title", [("it", "Situazioni"), ("es", "Situaciones"), ("en", "Situations")])
def test_every_situation_is_listed_in_the_readers_language(client, situations, ui, title):
    index, pages = index_pages(client, ui)
    assert f"<h1>{title}</h1>" in index
    names = [n for page in pages.values() for n in ENTRY.findall(page)]
    assert sorted(i for i, _ in names) == sorted(s.id for s in situations)  # each once, on one page
    said = {s.id: s.name(ui) for s in situations}
    assert all(said[i] == html.unescape(n) for i, n in names)


@pytest.mark.parametrize("ui", ["it", "es", "en"])
def test_every_name_of_the_a_to_z_lands_on_its_entry(client, situations, ui):
    """Each situation is named once in the index's A–Z, linked to the page that holds its entry."""
    index, pages = index_pages(client, ui)
    a_to_z = index[index.index('id="a-z"'):]
    links = re.findall(r'<li><a href="(/situations/[^"#]+)#([^"]+)">([^<]+)</a></li>', a_to_z)
    assert sorted(i for _, i, _ in links) == sorted(s.id for s in situations)
    assert all(f'<li id="{i}"><span class="situation-name">{name}</span>' in pages[url] for url, i, name in links)


def test_a_page_holds_a_period_under_the_laws_that_rule_it(client):
    """A long period is cut between two Laws; each Law heads its situations, A–Z."""
    index, pages = index_pages(client, "en")
    auction = [url for url in pages if url.startswith("/situations/auction")]
    assert auction[0] == "/situations/auction" and len(auction) > 1
    laws = [re.findall(r'<section id="law-(\d+)"', pages[url]) for url in auction]
    assert [int(n) for page in laws for n in page] == sorted(int(n) for page in laws for n in page)
    holder = next(pages[url] for url in auction if '<section id="law-27"' in pages[url])
    run = holder.split('<section id="law-27"')[1].split("</section>")[0]
    names = [html.unescape(n).lower() for _, n in ENTRY.findall(run)]
    assert len(names) >= 5 and names == sorted(names)  # the insufficient bids, A–Z


def test_an_entry_links_to_its_clauses_in_both_editions(client):
    entry = entry_on_its_page(client, "insufficient-bid-accepted")
    assert 'href="/it-laws/27#27A1"' in entry and 'href="/es-laws/27#27A1"' in entry


def test_a_to_z_is_in_the_readers_alphabet(client):
    page = client.get("/situations", params={"ui": "es"}).text
    letters = re.findall(r'<h3 id="letter-([^"]+)">', page)
    assert letters == sorted(letters) and len(letters) >= 15


def test_the_periods_come_in_the_boards_order(client):
    page = client.get("/situations", params={"ui": "it"}).text
    order = re.findall(r'<li id="period-([^"]+)"><a class="period" href="/situations/([^"]+)"', page)
    assert [p for p, _ in order][:3] == ["before-round", "shuffle-deal", "auction"] and order[-1][0] == "correction"
    assert all(period == first for period, first in order)  # a period's address is its first page's


def test_home_clock_and_units_link_into_the_index(client):
    assert 'href="/situations"' in client.get("/?ui=it").text
    assert 'href="/situations/auction"' in client.get("/clock?ui=it").text
    unit = client.get("/it-laws/27?ui=es").text
    assert "Situaciones que se rigen aquí" in unit and 'href="/situations/auction-2#insufficient-bid-accepted"' in unit


def test_the_api_names_what_the_page_names(client):
    api = client.get("/api/situations", params={"lang": "es"}).json()
    first = api["situations"][0]
    page = client.get(first["url"].split("#")[0], params={"ui": "es"}).text
    assert f'<li id="{first["id"]}"><span class="situation-name">{first["name"]}</span>' in page
    assert [p["period"] for p in api["periods"]][0] == "before-round"
    assert [p["id"] for p in api["pages"]][:1] == ["before-round"]
    assert client.get("/api/situations", params={"lang": "fr"}).status_code == 400
    missing = client.get("/situations/no-such-period")
    assert missing.status_code == 404 and "no page &#39;no-such-period&#39; of the situation index" in missing.text


def test_every_link_the_search_gives_to_a_situation_lands_on_it(client, engine):
    """The search model's situations (the server's 'sounds like this situation', the answer
    card, the browser's engine offline): each link leads to a page that holds that entry."""
    linked = [(e.id, e.url) for e in engine.model.entries if e.url]
    pages = {url.split("#")[0] for _, url in linked}
    held = {url: set(re.findall(r'<li id="([^"]+)">', client.get(url).text)) for url in pages}
    astray = [i for i, url in linked if url.split("#")[1] != i or i not in held[url.split("#")[0]]]
    assert len(linked) > 400 and astray == []


def test_a_told_situation_is_named_above_the_hits(client):
    page = client.get("/search", params={"q": "il morto ha indicato una carta al dichiarante", "ui": "it"}).text
    above = page[:page.index('<ol class="hits">')]
    said = re.search(r'<p class="said">(.*?)</p>', above).group(1)
    assert said.startswith("Sembra questa situazione:")
    named = '<a href="/situations/lead-play#dummy-suggests-play">Il morto suggerisce una giocata</a>'
    kicker = re.search(r'<p class="answer-kicker">(.*?)</p>', above)
    assert named in said or (kicker and named in kicker.group(1))  # the answer card names its own, the line the rest
    assert not (kicker and named in kicker.group(1) and named in said)
    api = client.get("/api/search", params={"q": "declarer claimed the rest", "ui": "en"}).json()
    assert [s["id"] for s in api["said"]][:1] == ["claim"]
    assert client.get("/api/search", params={"q": "27B1", "ui": "it"}).json()["said"] == []
