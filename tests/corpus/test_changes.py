"""What changed from 2007 to 2017 (issue 15): the compare page's summary, its differences-only
switch and the words that carry a change; the /changes page and /api/changes, counted against
corpus/concordance.tsv itself."""
import re
from collections import Counter
from pathlib import Path

import pytest

from kb.records.clauseid import article_of
from kb.editions.concordance import COLUMNS, read_tsv

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
TSV = CORPUS / "concordance.tsv"
ROWS = read_tsv(TSV, COLUMNS)
CHANGED = [r for r in ROWS if r["relation"] != "same"]
NOTES = {lang: {(r["older"], r["newer"]): r["note"] for r in read_tsv(CORPUS / "notes" / lang / TSV.name,
                                                                      ("older", "newer", "note"))}
         for lang in ("en", "it", "es")}  # what each row says to a reader, in each interface language


def changes_pages(client, ui="it"):
    """/changes, and the pages of the changes it leads to (runs of chapters), in the reader's language."""
    index = client.get("/changes", params={"ui": ui}).text
    urls = dict.fromkeys(re.findall(r'href="(/changes/[^"#]+)"', index))
    pages = {url: client.get(url, params={"ui": ui}).text for url in urls}
    client.cookies.clear()
    return index, pages


def test_the_changes_page_lists_every_row_that_is_not_same(client):
    _, pages = changes_pages(client)
    html = "".join(pages.values())
    assert len(re.findall(r'<li data-kind="', html)) == len(CHANGED) > 250
    for kind, n in Counter(r["relation"] for r in CHANGED).items():
        assert html.count(f'<li data-kind="{kind}"') == n


def test_the_readme_counts_the_changes_as_the_page_lists_them():
    """The README's figure is what /changes, /api/changes and `kb release` print (it once said 277)."""
    readme = (TSV.parents[1] / "README.md").read_text(encoding="utf-8")
    assert f"new or removed ({len(CHANGED)})" in readme and f"changes {len(CHANGED)}," in readme


def test_each_law_folds_its_changes_under_its_number_title_and_count(client):
    """One fold per Law, its line saying the Law, its title and how many changes; the index
    leads to it from a grid of the Laws that changed, by chapter."""
    index, pages = changes_pages(client)
    fold = re.compile(r'<details class="law-changes" id="law-(\d+)">(.*?)</details>', re.S)
    folds = [f for page in pages.values() for f in fold.findall(page)]
    by_law = Counter(article_of(r["newer"] or r["older"]) for r in CHANGED)
    assert sorted(int(n) for n, _ in folds) == sorted(int(n) for n in by_law)
    fold = dict(folds)["27"]
    summary = re.search(r"<summary>(.*?)</summary>", fold).group(1)
    assert "Art. 27" in summary and "LICITA INSUFFICIENTE" in summary and f"modifiche: {by_law['27']}" in summary
    assert fold.count('<li data-kind="') == by_law["27"]
    assert re.search(r'<li id="law-27"><a href="/changes/[^"#]+#law-27">', index)
    assert len(re.findall(r'<h3>Capitolo [IVX]+ ', index)) >= 8


def test_each_change_links_to_both_texts_and_to_its_laws_comparison(client):
    _, pages = changes_pages(client)
    html = "".join(pages.values())
    links = set(re.findall(r'href="(/(?:it|es)-laws/[^"]+)"', html))
    assert len(links) > 300  # the clause of each side, anchored
    texts = {url.split("#")[0]: client.get(url.split("#")[0]) for url in links}
    assert all(r.status_code == 200 for r in texts.values())
    assert all(f'id="{url.split("#")[1]}"' in texts[url.split("#")[0]].text for url in links if "#" in url)
    assert 'href="/compare/27"' in html and 'id="law-27"' in html
    compare = client.get("/compare/27").text
    to_changes = re.search(r'href="(/changes/[^"#]+)#law-27"', compare).group(1)
    assert 'id="law-27"' in pages[to_changes]
    missing = client.get("/changes/laws-1-99")
    assert missing.status_code == 404 and "no page &#39;laws-1-99&#39; of the changes" in missing.text


def test_the_api_answers_the_same_changes_and_filters_by_kind(client):
    data = client.get("/api/changes").json()
    assert data["summary"] == dict(Counter(r["relation"] for r in CHANGED)) and len(data["changes"]) == len(CHANGED)
    moved = client.get("/api/changes", params={"kind": "moved"}).json()["changes"]
    assert {(c["older"], c["newer"]) for c in moved} == {(r["older"], r["newer"]) for r in CHANGED if r["relation"] == "moved"}
    r = client.get("/api/changes", params={"kind": "similar"})
    assert r.status_code == 400 and "unknown kind 'similar'" in r.json()["error"]


@pytest.mark.parametrize("ui, words", [("it", "Il Codice 2017 aggiunge"), ("es", "La edición 2017 añade")])
def test_a_change_is_explained_in_the_readers_language(client, ui, words):
    """6B: 2017 forbids dealing two consecutive cards to the same player."""
    _, pages = changes_pages(client, ui)
    for path, html in [*pages.items(), ("/compare/6", client.get("/compare/6", params={"ui": ui}).text)]:
        if path == "/compare/6" or 'id="law-6"' in html:
            assert re.search(rf'<span class="note" lang="{ui}">{words}', html), path
    client.cookies.clear()


def test_every_row_is_noted_in_each_language_where_it_is_in_english():
    """A note written in English is written in Italian and Spanish too, and every row that is not
    `same` has one."""
    assert [key for key in NOTES["en"] if not (NOTES["it"].get(key) and NOTES["es"].get(key))] == []
    assert [(r["older"], r["newer"]) for r in CHANGED if not NOTES["en"].get((r["older"], r["newer"]))] == []


def test_the_compare_page_sums_its_rows_and_offers_only_the_differences(client):
    html = client.get("/compare/12", params={"ui": "it"}).text
    client.cookies.clear()
    summary = client.get("/api/compare/12").json()["summary"]
    rows = re.findall(r'data-relation="([a-z0-9-]+)"', html)
    assert summary == dict(Counter(rows)) and summary["changed"] >= 1
    shown = re.search(r'<p class="summary">(.*?)</p>', html, re.S).group(1)
    assert all(f"</span> {n}</span>" in shown for n in summary.values())
    assert '<button type="button" class="only-diff" hidden aria-pressed="false">Solo le differenze</button>' in html


def test_the_words_that_carry_a_change_are_emphasised(client):
    html = client.get("/compare/6").text
    assert '<mark class="change">Non è permesso distribuire due carte consecutive del mazzo allo stesso giocatore</mark>' in html


def test_every_marked_phrase_is_in_its_clauses_text(export):
    """The marks are exact phrases of the clause they belong to (the table's own ids): of its text,
    or of its title (2017 30B is at partner's or LHO's turn, 2007 30B after a bid: the titles say so)."""
    texts = {(d["id"], c["id"]): f'{c.get("title") or ""}\n{c["text"]}'
             for d in export["documents"] for u in d["units"] for c in u["clauses"]}
    side = {"older": "es-laws", "newer": "it-laws"}
    missing = [(r[col], m) for r in ROWS for col in side for m in r[f"marks_{col}"].split(" | ")
               if m.strip() and m.strip() not in texts.get((side[col], r[col]), "")]
    assert missing == []
    assert sum(bool(r["marks_newer"] or r["marks_older"]) for r in ROWS) >= 90
    assert all(article_of(r["newer"] or r["older"]) for r in CHANGED)
