"""The website in-process: every page type, errors, locales, escaping, and a crawl of every link."""
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kb.readmodel.knowledge import CLOCK_COLUMNS
from fastapi.testclient import TestClient


TEMPLATES = Path(__file__).resolve().parents[2] / "web" / "templates"


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag in ("a", "link") and a.get("href"):
            self.hrefs.append(a["href"])


def parse(page):
    p = Links()
    p.feed(page)
    return p


def test_home_puts_the_search_box_first(client):
    r = client.get("/")
    assert r.status_code == 200 and '<html lang="it">' in r.text
    assert re.search(r'<input id="q" name="q" type="search"[^>]*autofocus', r.text)
    for doc in ("it-laws", "es-laws", "it-norms", "it-timeref", "it-burraco"):
        assert f'href="/{doc}"' in r.text
    assert r.text.count('rel="alternate" hreflang=') == 3


def test_unit_page_links_citations_and_shows_its_panels(client):
    page = client.get("/it-laws/27").text
    ids = parse(page).ids
    assert {"27", "27A1", "27B1", "27B1a", "27B1b", "27D"} <= ids
    assert re.search(r'<a href="/it-laws/23#23A" title="23A — CHIAMATA PARAGONABILE">Art 23A</a>', page)
    assert "numerazione 2007" in page          # time references beside their clause, badged
    assert 'href="/compare/27"' in page and 'rel="next" href="/it-laws/28"' in page


def test_tables_notes_and_footnotes(client):
    assert "<table>" in client.get("/it-laws/78").text and "4000+" in client.get("/it-laws/78").text
    es12 = client.get("/es-laws/12").text
    assert "Nota nazionale (AEB)" in es12 and "La AEB sí lo prohíbe" in es12
    assert "Note a piè di pagina" in client.get("/it-laws/13").text


def test_norm_paragraphs_sit_beside_the_clause_they_integrate(client):
    page = client.get("/it-laws/40").text
    section = page.split('id="40A1b"')[1].split("<section")[0]
    assert "Norma integrativa FIGB" in section and 'href="/it-norms/40' in section


def test_compare_aligns_clauses_with_badges(client):
    page = client.get("/compare/16").text
    assert "Italiano 2017" in page and "Spagnolo 2007" in page
    assert 'class="badge moved"' in page     # the 16C/D swap
    assert client.get("/compare/93").status_code == 200


def test_search_page_marks_words_and_redirects_numbers(client):
    r = client.get("/search", params={"q": "carta penalizzata"})
    assert r.status_code == 200 and "<mark>" in r.text
    r = client.get("/search", params={"q": "27B1", "ui": "es"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/es-laws/27#27B1"
    assert "Forse cercavi" in client.get("/search", params={"q": "renonse"}).text


def test_reflected_markup_is_escaped(client):
    payload = '"><script>alert(1)</script>'
    r = client.get("/search", params={"q": payload})
    assert "<script>alert(1)" not in r.text and "&lt;script&gt;" in r.text
    assert "<script>alert" not in client.get(f"/it-laws/{payload}").text


def test_templates_never_mark_data_safe():
    for path in TEMPLATES.glob("*.html"):
        assert "|safe" not in path.read_text().replace(" ", ""), path.name


@pytest.mark.parametrize("path, ui, words", [
    ("/fr-laws", "it", "Non esiste il documento “fr-laws”"),
    ("/it-laws/999", "es", "Código italiano 2017 no tiene “999”"),
    ("/compare/94", "it", "gli articoli vanno da 1 a 93"),
    ("/compare/x", "en", "the Laws are numbered 1 to 93"),
])
def test_not_found_pages_say_what_exists_and_offer_search(client, path, ui, words):
    """In the reader's language, with the documents by name, never the units' ids."""
    r = client.get(path, params={"ui": ui})
    client.cookies.clear()  # ?ui= sets the reader's language for the pages after
    assert r.status_code == 404 and words in html.unescape(r.text)
    assert 'href="/it-laws"' in r.text and 'id="q"' in r.text
    assert "def-alert" not in r.text and "introduzione-all" not in r.text


def test_bad_search_is_a_400_page(client):
    r = client.get("/search", params={"q": "x" * 1600})
    assert r.status_code == 400 and "too long" in r.text


@pytest.mark.parametrize("kwargs, locale, word", [
    ({"params": {"ui": "es"}}, "es", "Buscar"),
    ({"params": {"ui": "en"}}, "en", "Search"),
    ({"headers": {"accept-language": "fr;q=0.9, es;q=0.8, it;q=0.5"}}, "es", "Buscar"),
    ({"headers": {"accept-language": "en;q=0.1, it;q=0.9"}}, "it", "Cerca"),
    ({"cookies": {"ui": "en"}}, "en", "Search"),
])
def test_interface_language_per_request(client, kwargs, locale, word):
    c = TestClient(client.app, cookies=kwargs.pop("cookies", None))  # a fresh browser: no cookie left over
    r = c.get("/it-laws/27", **kwargs)
    assert f'<html lang="{locale}">' in r.text and word in r.text
    assert "LICITA INSUFFICIENTE" in r.text   # the law text itself is never translated


def test_ui_parameter_sets_the_cookie(client):
    c = TestClient(client.app)
    assert "ui=es" in c.get("/", params={"ui": "es"}).headers["set-cookie"]
    assert '<html lang="es">' in c.get("/it-laws/1").text


def test_catalogs_translate_every_interface_string():
    from babel.messages.pofile import read_po
    from kb.corpus.catalogs import LOCALES, po_path
    used = set()
    kb_said = [TEMPLATES.parents[1] / "kb" / name for name in ("study/cards.py", "citations/style.py")]  # the study cards' words
    for path in [*TEMPLATES.glob("*.html"), *TEMPLATES.parent.rglob("*.py"), *kb_said]:
        used |= set(re.findall(r"""\b_\(\s*["'](.+?)["']\s*\)""", path.read_text()))
    for locale in LOCALES:
        catalog = {m.id: m.string for m in read_po(po_path(locale).open("rb")) if m.id}
        assert used - set(catalog) == set(), locale
        assert [m for m in used if not catalog[m]] == [], locale


def test_clock_lists_the_periods_in_order_with_entries_and_laws(client):
    page = client.get("/clock").text
    order = [page.index(f'id="{p}"') for p in ("before-round", "shuffle-deal", "auction", "clarification",
                                                  "lead-play", "claims", "end-of-play", "next-board", "correction")]
    assert order == sorted(order)
    correction = page.split('id="correction"')[1]
    assert 'href="/it-laws/79#79C"' in correction and "Periodo di correzione" in page


def test_clock_places_every_time_reference_topic(export):
    from kb.editions.concordance import read_tsv
    from kb.corpus.manifest import CORPUS_DIR
    rows = read_tsv(CORPUS_DIR / "clock.tsv", CLOCK_COLUMNS)
    topics = {t.strip() for r in rows for t in r["topics"].split(",")}
    timeref = next(d for d in export["documents"] if d["id"] == "it-timeref")
    assert topics == {u["id"] for u in timeref["units"]}
    laws = next(d for d in export["documents"] if d["id"] == "it-laws")
    ids = {c["id"] for u in laws["units"] for c in u["clauses"]}
    assert [x for r in rows for x in (s.strip() for s in r["laws"].split(",")) if x not in ids] == []


def test_glossary_pairs_link_to_where_each_term_is_used(client):
    page = client.get("/glossary").text
    assert 'href="/search?q=renonce&amp;doc=it-laws"' in page and 'href="/search?q=renuncio&amp;doc=es-laws"' in page
    assert 'href="/it-laws/def-morto"' in page


def test_graph_page_draws_the_neighbourhood_as_clickable_svg(client):
    page = client.get("/graph/it-laws/40").text
    assert "<svg" in page and 'href="/it-norms/40"' in page and 'href="/es-laws/40"' in page
    assert client.get("/graph/it-laws/999").status_code == 404


def test_pages_carry_an_etag_and_revalidate_with_304(client):
    r = client.get("/it-laws/27")
    etag = r.headers["etag"]
    again = client.get("/it-laws/27", headers={"if-none-match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/it-laws/28", headers={"if-none-match": etag}).status_code == 200


@pytest.mark.parametrize("path", ["/it-laws/27", "/api/search?q=revoca", "/nowhere/at-all"])
def test_responses_say_how_long_the_app_took(client, path):
    timing = client.get(path).headers["server-timing"]
    assert re.fullmatch(r"app;dur=\d+\.\d\d", timing)
    assert float(timing.split("=")[1]) < 10_000


def test_pages_are_gzipped_when_the_client_accepts_it(client):
    r = client.get("/it-laws", headers={"accept-encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"


def test_defined_terms_used_in_a_unit_link_to_their_definitions(client):
    page = client.get("/it-laws/40").text
    panel = page.split("Termini definiti usati qui")[1].split("</section>")[0]
    assert 'href="/it-laws/def-chiamata-artificiale"' in panel and 'href="/it-laws/def-alert"' in panel


@pytest.mark.parametrize("n", ["²", "٣", "0", "094", "09"])
def test_compare_refuses_what_is_not_a_law_number(client, n):
    assert client.get(f"/compare/{n}").status_code == 404


@pytest.mark.parametrize("path", ["/it-laws/27", "/api/search?q=revoca", "/static/style.css"])
def test_revalidation_keeps_the_same_weak_tag_and_varies_by_encoding(client, path):
    first = client.get(path, headers={"accept-encoding": "gzip"})
    again = client.get(path, headers={"accept-encoding": "gzip", "if-none-match": first.headers["etag"]})
    assert again.status_code == 304
    for r in (first, again):
        assert "accept-encoding" in r.headers["vary"].lower()
    if not path.startswith("/static/"):  # ours: weak, as the body may travel compressed or not
        assert first.headers["etag"].startswith('W/"')
        plain = client.get(path, headers={"accept-encoding": "identity"})
        assert plain.headers["etag"] == first.headers["etag"]


def test_every_page_of_the_replaced_edition_names_the_edition_in_force(client, export):
    """Each unit page of the 2007 Spanish text (and its contents page) says, in the reader's
    language, that the 2017 edition replaced it and links the same Law in force; no 2017 page does."""
    docs = {d["id"]: d for d in export["documents"]}
    in_force = {u["id"] for u in docs["it-laws"]["units"]}
    for u in docs["es-laws"]["units"]:
        html = client.get(f"/es-laws/{u['id']}", params={"ui": "es"}).text
        banner = html[html.index('<p class="replaced"'):]
        banner = banner[:banner.index("</p>")]
        assert "Sustituido" in banner and "2017-09-30" in banner, u["id"]
        assert (f'href="/it-laws/{u["id"]}"' in banner) == (u["id"] in in_force), u["id"]
    assert "Sostituito" in client.get("/es-laws", params={"ui": "it"}).text
    assert 'class="replaced"' not in client.get("/it-laws/16", params={"ui": "es"}).text


def test_a_spanish_readers_hits_in_the_2007_text_are_badged_with_the_clause_in_force_first(client):
    """Searching as a Spanish reader, every hit in the replaced 2007 text says so and leads first to
    its clause in the Laws in force; no hit in the 2017 text is badged."""
    html = client.get("/search", params={"q": "carta penalizada", "ui": "es"}).text
    hits = re.findall(r'<li class="hit">(.*?)</li>', html, re.S)
    old = [h for h in hits if 'href="/es-laws/' in h.split("</a>")[0]]
    assert len(old) >= 3
    for h in old:
        assert '<span class="badge replaced">sustituido</span>' in h
        first = re.search(r'<p class="parallel([^"]*)">(.*?)</p>', h, re.S)
        assert first and first.group(1) == " in-force" and "En vigor" in first.group(2)
        assert re.search(r'href="/it-laws/\d+(#[^"]*)?"', first.group(2)) or "no está en la edición en vigor" in first.group(2)
    assert all("badge replaced" not in h for h in hits if h not in old)


def test_a_search_that_finds_nothing_says_what_to_try(client):
    html = client.get("/search", params={"q": "xqzwv kjhgfd", "ui": "it"}).text
    assert '<span class="count">0 risultati</span>' in html and "prova altre parole" in html
    assert "prova altre parole" not in client.get("/search", params={"q": "revoca", "ui": "it"}).text


@pytest.mark.parametrize("path, clause, cite", [
    ("/it-laws/27", "27B1b", "Codice 2017, Art. 27B1(b)"),
    ("/es-laws/27?ui=es", "27B1b", "Reglamento 2007, Art. 27B1(b)"),
    ("/it-burraco/33", "33-b", "Burraco 2014, Art. 33 §B"),
])
def test_each_clause_offers_its_citation_as_a_reader_writes_it(client, path, clause, cite):
    html = client.get(path).text
    assert f'<section id="{clause}" class="clause' in html
    section = html[html.index(f'<section id="{clause}" class="clause'):]
    assert section[:section.index(">")].endswith(f'data-cite="{cite}"')


def test_a_unit_its_title_names_is_cited_by_its_title(client, export):
    docs = {d["id"]: d for d in export["documents"]}
    for doc in ("it-timeref", "it-laws"):
        for u in docs[doc]["units"]:
            if u["kind"] in ("article", "norm", "appendix"):
                continue
            cites = re.findall(r'data-cite="([^"]*)"', client.get(f"/{doc}/{u['id']}").text)
            assert cites and all(", §" not in c and not c.endswith(", ") for c in cites), (u["id"], cites[:3])
            assert html.unescape(cites[0]).endswith(u["title"]), (u["id"], cites[0])
