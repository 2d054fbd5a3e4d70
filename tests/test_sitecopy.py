"""`kb site PATH`: a static copy of the whole site that a plain file server serves, its links
relative, every one of them leading somewhere (fragments included), in each interface language."""
import re
import urllib.request
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest

from kb.cli import main
from web.sitecopy import COPY_MARK, file_for, relink


@pytest.mark.parametrize("path, file", [
    ("/", "index.html"),
    ("/search", "search.html"),
    ("/it-laws/27", "it-laws/27.html"),
    ("/graph/es-laws/64", "graph/es-laws/64.html"),
    ("/compare/27?older=a&newer=b", "compare/27--older-a-newer-b.html"),
])
def test_a_page_is_a_file(path, file):
    assert file_for(path) == file


@pytest.mark.parametrize("html, page, out", [
    ('<a href="/it-laws/27#27B1b">', "it-laws/16.html", '<a href="../it-laws/27.html#27B1b">'),
    ('<a href="/">', "index.html", '<a href="index.html">'),
    ('<link href="/static/style.css">', "graph/it-laws/27.html", '<link href="../../static/style.css">'),
    ('<a href="/it-laws/27?ui=es">', "it-laws/27.html", '<a href="../../es/it-laws/27.html">'),    # language switch
    ('<a href="/search?q=carta&amp;page=2">', "search.html", '<a href="search.html?q=carta&amp;page=2">'),
    ('<form action="/search">', "it-laws/27.html", '<form action="../search.html">'),
    ('<p data-worker="/sw.js">', "it-laws/27.html", '<p data-worker="../sw.js">'),
    ('<a href="#27B1">', "it-laws/27.html", '<a href="#27B1">'),                                     # in-page: kept
    ('<a href="//elsewhere.example/x">', "index.html", '<a href="//elsewhere.example/x">'),           # not ours
])
def test_links_become_relative_to_the_page(html, page, out):
    assert relink(f"<html lang=\"it\">{html}", page, "it") == f'<html data-root="{"../" * page.count("/")}" lang="it">{out}'


def test_a_folder_holding_something_else_is_refused_and_left_alone(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["site", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("kb: error:") and "not empty" in err and "\n" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for name in ("href", "src", "action", "data-worker", "data-search-data", "data-cards"):
            if a.get(name):
                self.links.append(a[name])


@pytest.mark.slow
def test_the_copy_crawls_with_no_broken_link(static_server, copy):
    """Every page of every language, from the top: each link answers 200 from the file server,
    and each #fragment names an element of the page it leads to."""
    assert (copy / COPY_MARK).exists()
    pages: dict[str, set[str]] = {}
    todo, wanted = [static_server], []
    while todo:
        url = todo.pop()
        if url in pages:
            continue
        with urllib.request.urlopen(url, timeout=10) as r:
            body = r.read()
        parser = Links()
        if url.endswith(".html") or url.endswith("/"):
            parser.feed(body.decode("utf-8"))
        pages[url] = parser.ids
        for link in parser.links:
            target = urljoin(url, link)
            if urlsplit(target).netloc != urlsplit(static_server).netloc:
                continue
            bare, fragment = urldefrag(target)
            bare = bare.split("?")[0]
            wanted.append((url, bare, fragment))
            if bare not in pages and (bare.endswith(".html") or bare.endswith("/")):
                todo.append(bare)
    broken = []
    for source, bare, fragment in wanted:
        if bare not in pages:
            try:
                with urllib.request.urlopen(bare, timeout=10):
                    pages[bare] = set()
            except OSError:
                broken.append((source, bare))
                continue
        if fragment and bare.endswith(".html") and fragment not in pages[bare]:
            broken.append((source, f"{bare}#{fragment}"))
    print(f"crawled {len(pages)} addresses, {len(wanted)} links")
    assert len([u for u in pages if u.endswith(".html")]) > 3 * 800  # three languages of the whole site
    assert broken == []


@pytest.mark.slow
def test_the_copy_is_in_each_language_and_links_them(copy):
    for loc, word in (("it", "Cerca"), ("es", "Buscar"), ("en", "Search")):
        html = (copy / loc / "it-laws" / "27.html").read_text(encoding="utf-8")
        assert f'<html data-root="../" lang="{loc}">' in html and f">{word}</button>" in html
    html = (copy / "it" / "it-laws" / "27.html").read_text(encoding="utf-8")
    assert 'href="../../es/it-laws/27.html"' in html and not re.search(r'(href|src|action)="/(?!/)', html)


def test_a_form_only_the_server_answers_stays_on_its_page():
    """The compare picker's no-script redirect (`/compare?n=`) has no file in the copy."""
    out = relink('<html><form action="/compare">', "compare/27.html", "it", {"compare/27.html", "index.html"})
    assert 'action="../compare/27.html"' in out
