"""Pages a phone can hold (issue "At the table", item 7): the situation index and each of its
pages, the changes and each of theirs, the contents of the Laws and home, each under 60 KB of
HTML in every interface language; the Laws' contents a grid of their numbers by chapter with the
definitions after the last Law; home's common calls landing on their situations."""
import re
from pathlib import Path

import pytest

from kb.corpus.library import Library
from kb.corpus.situations import load
from web.pages.search import COMMON_CALLS

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
LIMIT = 60 * 1000  # bytes of HTML
UIS = ("it", "es", "en")


def linked(client, path, prefix, ui):
    """The page at `path` and the pages under `prefix` it links to."""
    html = client.get(path, params={"ui": ui}).text
    return [path, *dict.fromkeys(re.findall(rf'href="({prefix}/[^"#?]+)"', html))]


@pytest.mark.parametrize("ui", UIS)
def test_every_page_a_phone_opens_at_the_table_is_under_60_kb(client, ui):
    paths = ["/", "/it-laws", "/es-laws", *linked(client, "/situations", "/situations", ui),
             *linked(client, "/changes", "/changes", ui)]
    sizes = {p: len(client.get(p, params={"ui": ui}).content) for p in paths}
    client.cookies.clear()
    assert len(sizes) >= 2 + 10 + 3 and all(n > 2000 for n in sizes.values())  # the index has its pages
    assert {p: n for p, n in sizes.items() if n >= LIMIT} == {}


def grid(html):
    """The contents page's chapters: (heading, [Law numbers]) in order."""
    chapters = re.findall(r'<section class="chapter" id="[^"]+"[^>]*>\s*<h3[^>]*>(.*?)</h3>\s*'
                          r'<ol class="law-grid">(.*?)</ol>', html, re.S)
    return [(re.sub(r"<[^>]+>", "", h), re.findall(r'<span class="n">(\d+)</span>', laws)) for h, laws in chapters]


@pytest.mark.parametrize("doc, chapter", [("it-laws", "Capitolo III LA SUBASTA"), ("es-laws", "Capitolo III LA SUBASTA")])
def test_the_contents_of_the_laws_are_their_numbers_by_chapter(client, export, doc, chapter):
    html = client.get(f"/{doc}", params={"ui": "it"}).text
    chapters = grid(html)
    laws = [n for _, ns in chapters for n in ns]
    articles = [u["id"] for d in export["documents"] if d["id"] == doc for u in d["units"] if u["kind"] == "article"]
    assert laws == articles and len(chapters) == 11  # every Law once, in order, in the chapters the 2007 text prints
    assert (chapter, [str(n) for n in range(17, 41)]) in chapters
    assert all(f'<a href="/{doc}/{n}"><span class="n">{n}</span>' in html for n in laws)
    assert html.count(f'href="/{doc}/') == len(laws) + sum(1 for d in export["documents"] if d["id"] == doc
                                                           for u in d["units"] if u["kind"] != "article")


def test_the_definitions_come_after_the_last_law(client):
    html = client.get("/it-laws", params={"ui": "en"}).text
    last_law, definitions = html.rindex('<ol class="law-grid">'), html.index('<section id="definitions">')
    assert last_law < definitions and 'href="/it-laws/def-chiamata-artificiale"' in html[definitions:]
    assert "these are Spanish Laws 2007&#39;s" in html  # whose chapters the Italian text borrows, said


@pytest.mark.parametrize("ui, lead", [("it", "Attacco fuori turno"), ("es", "Salida fuera de turno"),
                                      ("en", "Lead out of turn")])
def test_home_leads_to_the_ten_most_common_calls(client, export, ui, lead):
    situations = {s.id for s in load(CORPUS / "situations.tsv", Library.of(export["documents"]))}
    assert len(COMMON_CALLS) == 10 and {s for s, _ in COMMON_CALLS} <= situations
    html = client.get("/", params={"ui": ui}).text
    calls = re.findall(r'<li><a href="(/situations/[^"#]+)#([^"]+)">([^<]+)</a></li>', html.split('<ul class="calls">')[1])
    assert [i for _, i, _ in calls] == [s for s, _ in COMMON_CALLS] and calls[0][2] == lead
    assert all(f'<li id="{i}">' in client.get(page).text for page, i, _ in calls)
    example = re.search(r'<p class="example">[^<]*<a href="(/search\?q=[^"]+)">', html).group(1)
    assert client.get(example.replace("&amp;", "&"), follow_redirects=False).status_code == 200
    client.cookies.clear()


def test_the_offline_state_shows_in_the_header_and_the_footer(client):
    html = client.get("/", params={"ui": "en"}).text
    header, footer = html.split("</header>")[0], html.split("<footer")[1]
    assert 'class="offline-state"' in header and 'data-ready="Offline ready"' in header
    assert 'id="offline-state"' in footer and 'data-worker="/sw.js"' in footer
    client.cookies.clear()


def test_chapter_anchors_are_unique_even_for_laws_no_chapter_holds():
    from kb.editions.chapters import Chapter, anchors
    runs = [Chapter("", "", "x", "it", ("1",)), Chapter("II", "T", "x", "it", ("2",)), Chapter("", "", "x", "it", ("3",))]
    found = anchors(runs)
    assert len(set(found)) == 3 and "laws" not in found and found[1] == "chapter-II"
