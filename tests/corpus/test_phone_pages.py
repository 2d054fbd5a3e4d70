"""The phone-craft markup of the pages, in process: what a screen reader, a hyphenator or a
phone reads from the HTML itself (the browser measurements are in test_phone.py)."""
import html
import re
from html.parser import HTMLParser

import pytest


def clause_headings(page: str) -> dict[str, int]:
    """Each clause section's heading level, by clause id (clauses shown without a heading left out)."""
    return {cid: int(level) for cid, level in
            re.findall(r'<section id="([^"]+)" class="clause[^"]*"[^>]*>\s*(?:<details class="more"(?:(?!</details>).)*</details>\s*)?'
                       r'<h([1-6]) class="clause-head"', page, re.S)}


@pytest.mark.parametrize("doc, unit", [("it-laws", "27"), ("it-laws", "40"), ("es-laws", "40"), ("it-norms", "8"),
                                       ("it-norms", "alert"), ("it-burraco", "33")])
def test_clause_headings_nest_as_the_clauses_do(client, doc, unit):
    """Under the page's h1, a clause's heading is one level below the nearest headed clause
    it belongs to (27B h2 > 27B1 h3 > 27B1(a) h4), so a screen reader's outline is the Law's."""
    levels = clause_headings(client.get(f"/{doc}/{unit}").text)
    parents = {c["id"]: c["parent"] for c in client.get(f"/api/units/{doc}/{unit}").json()["clauses"]}
    assert len(set(levels.values())) >= 2                  # nested, not a flat list
    for cid, level in levels.items():
        above = parents[cid]
        while above and above not in levels:
            above = parents[above]
        assert level == (levels[above] + 1 if above else 2), (cid, level, above)


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class LangOfText(HTMLParser):
    """The page's text as (words, the language they are marked as: the nearest `lang`)."""

    def __init__(self):
        super().__init__()
        self.open: list[tuple[str, str]] = []
        self.texts: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.open.append((tag, dict(attrs).get("lang") or (self.open[-1][1] if self.open else "")))

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if data.strip() and self.open and self.open[-1][0] != "title":
            self.texts.append((" ".join(data.split()), self.open[-1][1]))


def languages_of(page: str, words: str) -> set[str]:
    """The languages the page's body marks a piece of its text as (every text node holding the
    words; the window's <title> is one string, in the interface's language)."""
    parser = LangOfText()
    parser.feed(page)
    return {lang for text, lang in parser.texts if words in text}


def law_words(client, doc, unit) -> list[str]:
    """Three words of each clause's text, from the API, taken away from its citations ("B1",
    "Art 23A"), whose links cut the text into other nodes: the page must show them."""
    out = []
    for c in client.get(f"/api/units/{doc}/{unit}").json()["clauses"]:
        runs = re.split(r"\S*\d\S*|\b[A-Z]\b|\n", c["text"])
        longest = max(runs, key=lambda run: len(run.split())).split()
        if len(longest) >= 5:
            out.append(" ".join(longest[1:4]))
    return out


def test_a_spanish_law_is_marked_spanish_under_the_italian_interface(client):
    page = client.get("/es-laws/27", params={"ui": "it"}).text
    assert '<html lang="it">' in page
    words = law_words(client, "es-laws", "27")
    assert len(words) > 5
    for w in words:
        assert languages_of(page, w) == {"es"}, w
    assert languages_of(page, "Declaración insuficiente") == {"es"}          # the title
    for interface in ("Citato da", "Situazioni regolate qui", "Altra edizione"):
        assert languages_of(page, interface) == {"it"}, interface              # the interface stays Italian


def test_the_compare_page_marks_each_edition_in_its_language(client):
    page = client.get("/compare/27", params={"ui": "en"}).text
    for doc, lang in (("it-laws", "it"), ("es-laws", "es")):
        for w in law_words(client, doc, "27"):
            assert languages_of(page, w) == {lang}, w


def test_search_results_mark_titles_and_snippets_in_the_language_of_their_text(client):
    result = client.get("/api/search", params={"q": "revoca renuncio", "ui": "it"}).json()
    page = client.get("/search", params={"q": "revoca renuncio", "ui": "it"}).text
    assert {h["lang"] for h in result["hits"]} == {"it", "es"}
    for h in result["hits"]:
        assert languages_of(page, h["title"]) == {h["lang"]}, h["title"]
        words = max(re.split(r"</?mark>", h["snippet"]), key=len).split()[:3]    # within one text node
        assert languages_of(page, html.unescape(" ".join(words))) == {h["lang"]}, words


def section(page: str, anchor: str) -> str:
    """A clause's section of the unit page, up to the next clause."""
    return page.split(f'<section id="{anchor}"')[1].split("<section")[0]


def test_a_figb_norm_shows_its_text_beside_the_law_clause_it_integrates(client):
    """Not only a reference: the norm paragraph's own words, in Italian, under the clause; a long
    one folded (its opening words showing), a short one open."""
    page = client.get("/it-laws/40", params={"ui": "es"}).text
    norms = {c["id"]: c["text"] for c in client.get("/api/units/it-norms/40").json()["clauses"]}
    long_one, short_one = section(page, "40A1b"), section(page, "40B2d")
    assert len(norms["40-40A1b"]) > 400 > len(norms["40-40B2d"])
    for html_of, norm in ((long_one, "40-40A1b"), (short_one, "40-40B2d")):
        words = " ".join(norms[norm].split()[:12])
        assert words in " ".join(html_of.split()) and languages_of(html_of, words) == {"it"}
        assert f'href="/it-norms/40#{norm}"' in html_of
    assert re.search(r'<details class="norm">\s*<summary>', long_one)            # folded
    assert re.search(r'<details class="norm" open>\s*<summary>', short_one)      # open


def test_a_unit_page_opens_with_a_menu_of_what_stands_beside_the_text(client):
    """On a phone the panels come after the whole Law: a menu before the first clause leads to
    each one that has something, saying how many."""
    page = client.get("/it-laws/40", params={"ui": "en"}).text
    menu = page.split('<nav class="onpage"')[1].split("</nav>")[0]
    assert page.index('<nav class="onpage"') < page.index('<section id="40A"')
    entries = re.findall(r'<a href="#([^"]+)">([^<]+?)(?: <span class="count">(\d+)</span>)?</a>', menu)
    assert [(anchor, name) for anchor, name, _ in entries] == [
        ("panel-norms", "FIGB norms"), ("panel-timerefs", "Time references"), ("panel-cited-by", "Cited by"),
        ("panel-situations", "Situations"), ("panel-terms", "Defined terms"), ("panel-compare", "Other edition")]
    api = client.get("/api/units/it-laws/40").json()
    assert dict((a, n) for a, _, n in entries)["panel-norms"] == str(len(api["norms"]))
    for anchor, _, count in entries:
        panel = page.split(f'<section id="{anchor}">')[1].split("</section>")[0]
        assert not count or panel.count("<li>") == int(count), anchor
    norm_panel = page.split('<section id="panel-norms">')[1]
    assert '<a href="#40A1b">40A1(b)</a> <span lang="it">La FIGB ha definito' in norm_panel


def test_a_unit_with_nothing_beside_it_has_no_menu(client):
    api = client.get("/api/units/it-norms/premessa").json()
    assert not any(api[kind] for kind in ("norms", "timerefs", "cited_by", "terms", "compare"))
    assert 'class="onpage"' not in client.get("/it-norms/premessa").text


def test_the_compare_page_has_a_law_picker_that_works_without_script(client):
    page = client.get("/compare/16").text
    form = page.split('<form class="picker"')[1].split("</form>")[0]
    assert 'action="/compare" method="get"' in form
    assert re.search(r'<input id="law-n" name="n" type="number"[^>]* min="1" max="93" value="16"', form)
    r = client.get("/compare", params={"n": "40"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/compare/40"
    assert re.search(r"<h1>\w+ 40:", client.get("/compare", params={"n": " 40 "}).text)


@pytest.mark.parametrize("n", ["94", "0", "abc", "", "27B", "//evil.example", "²"])
def test_a_law_picked_that_does_not_exist_is_the_clear_404(client, n):
    r = client.get("/compare", params={"n": n}, follow_redirects=False)
    assert r.status_code == 404 and "numbered 1 to 93" in html.unescape(r.text)
    assert 'id="q"' in r.text                                                  # the site's page, with search


def test_the_picker_keeps_the_pair_of_editions_it_compares(client):
    r = client.get("/compare", params={"n": "12", "older": "es-laws", "newer": "it-laws"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/compare/12"       # the first pair needs no query
    r = client.get("/compare", params={"n": "12", "older": "it-laws", "newer": "es-laws"})
    assert r.status_code == 404 and "not compared here" in html.unescape(r.text)


@pytest.mark.parametrize("path, named", [
    ("/it-laws/40?ui=it", ['<span class="badge same">uguale</span>', '<span class="badge changed">modificato</span>']),
    ("/search?q=revoca&ui=es", ['<span class="badge same">igual</span>']),
    ("/compare/12?ui=en", ['<span class="badge new-in-2017">new in 2017</span>']),
])
def test_relation_badges_are_named_in_the_interface_language(client, path, named):
    """The unit page and search results name a parallel's relation as the compare page does
    ("uguale", not the id "same")."""
    page = client.get(path).text
    assert [badge for badge in named if badge not in page] == []
