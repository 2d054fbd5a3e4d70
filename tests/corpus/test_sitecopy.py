"""`kb site PATH`: a static copy of the whole site that a plain file server serves, its links
relative, every one of them leading somewhere (fragments included), in each interface language."""
import gzip
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
import urllib.request
from html.parser import HTMLParser
from urllib.parse import urldefrag, urljoin, urlsplit

import pytest

from kb.pipeline import generations
from web.offline.sitecopy import COPY_MARK, file_for, relink, write_site


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
    ('<link href="/static/style.css">', "graph/it-laws/27.html", '<link href="../../../static/style.css">'),  # shared
    ('<a href="/it-laws/27?ui=es">', "it-laws/27.html", '<a href="../../es/it-laws/27.html">'),    # language switch
    ('<a href="/search?q=carta&amp;page=2">', "search.html", '<a href="search.html?q=carta&amp;page=2">'),
    ('<form action="/search">', "it-laws/27.html", '<form action="../search.html">'),
    ('<p data-worker="/sw.js">', "it-laws/27.html", '<p data-worker="../../sw.js">'),       # one worker for all
    ('<p data-search-data="/offline/search-model.bin">', "index.html", '<p data-search-data="../offline/search-model.bin">'),
    ('<a href="/study/bridge-laws-it.apkg">', "study.html", '<a href="../study/bridge-laws-it.apkg">'),
    ('<a href="/study">', "it-laws/27.html", '<a href="../study.html">'),                           # a page, not shared
    ('<a href="#27B1">', "it-laws/27.html", '<a href="#27B1">'),                                     # in-page: kept
    ('<a href="//elsewhere.example/x">', "index.html", '<a href="//elsewhere.example/x">'),           # not ours
])
def test_links_become_relative_to_the_page(html, page, out):
    assert relink(f"<html lang=\"it\">{html}", page, "it") == f'<html data-root="{"../" * page.count("/")}" lang="it">{out}'


def test_a_folder_holding_something_else_is_refused_and_left_alone(kb, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    r = kb("site", str(tmp_path))
    err = r.stderr.strip()
    assert r.returncode == 2 and err.startswith("kb: error:") and "not empty" in err and "\n" not in err
    assert "(notes.txt)" in err
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


def earlier_copy(folder, files=("it/index.html", "it/it-laws/27.html"), mark=None):
    """A folder as a copy leaves it: its files and a mark listing them (or `mark` itself)."""
    for name in files:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(f"<html>{name}</html>", encoding="utf-8")
    (folder / COPY_MARK).write_text(mark if mark is not None else "\n".join(["gen-old", *files]) + "\n",
                                    encoding="utf-8")
    return folder


def snapshot(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


def test_an_earlier_copy_holding_files_it_did_not_write_is_refused_naming_them(kb, tmp_path):
    site = earlier_copy(tmp_path / "site")
    (site / "it" / "my-notes.txt").write_text("mine", encoding="utf-8")
    (site / "photos").mkdir()
    (site / "photos" / "hall.jpg").write_bytes(b"jpg")
    before = snapshot(site)
    r = kb("site", str(site))
    err = r.stderr.strip()
    assert r.returncode == 2 and err.startswith("kb: error:") and "\n" not in err
    assert "it/my-notes.txt" in err and "photos/" in err and "it/index.html" not in err
    assert snapshot(site) == before and sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_a_copy_marked_before_marks_listed_files_is_read_by_its_offline_lists(kb, tmp_path):
    state = {"pages": ["index.html"], "assets": ["static/style.css"], "search": "offline/search-model.bin"}
    site = earlier_copy(tmp_path / "site", ("index.html", "it/index.html", "it/static/style.css", "it/sw.js",
                                            "it/offline/search-model.bin"), mark="gen-old\n")
    (site / "it" / "offline" / "manifest.json").write_text(json.dumps(state), encoding="utf-8")
    (site / "it" / "mine.txt").write_text("mine", encoding="utf-8")
    r = kb("site", str(site))
    assert r.returncode == 2 and "(it/mine.txt)" in r.stderr


@pytest.mark.slow
def test_a_copy_into_a_link_writes_the_folder_it_names(build_dir, tmp_path):
    real = earlier_copy(tmp_path / "real")
    link = tmp_path / "site"
    link.symlink_to(real)
    copy = write_site(build_dir, link, ("it",))
    assert copy.path == real and link.is_symlink() and link.resolve() == real
    assert (real / "it" / "it-laws" / "27.html").is_file()
    mark = (real / COPY_MARK).read_text(encoding="utf-8").splitlines()
    assert mark[0] == generations.generation(build_dir).name and "it/it-laws/27.html" in mark
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real", "site"]


@pytest.mark.slow
@pytest.mark.parametrize("mask, folders, files", [(0o022, 0o755, 0o644), (0o027, 0o750, 0o640)],
                         ids=["umask 022", "umask 027"])
def test_a_copy_is_readable_by_others_as_the_umask_says(build_dir, tmp_path, mask, folders, files):
    old = os.umask(mask)
    try:
        copy = write_site(build_dir, tmp_path / "site", ("it",)).path
    finally:
        os.umask(old)
    inside = [copy, *copy.rglob("*")]
    assert {str(p) for p in inside if p.is_dir() and stat.S_IMODE(p.stat().st_mode) != folders} == set()
    assert {str(p) for p in inside if p.is_file() and stat.S_IMODE(p.stat().st_mode) != files} == set()


@pytest.mark.slow
def test_a_killed_copy_leaves_a_temporary_that_the_next_run_removes(build_dir, tmp_path):
    target = tmp_path / "site"
    env = dict(os.environ, KB_BUILD_DIR=str(build_dir))
    run = subprocess.Popen([sys.executable, "-m", "kb.cli", "site", str(target)], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    partial = tmp_path / f".site.kb-site-{run.pid}.new"  # named for its target and its process
    deadline = time.monotonic() + 120
    while not (partial / "it" / "it-laws").is_dir() and time.monotonic() < deadline:
        time.sleep(0.1)
    run.send_signal(signal.SIGKILL)
    run.wait(timeout=10)
    assert partial.is_dir() and not target.exists()
    running = tmp_path / f".site.kb-site-{os.getppid()}.new"  # another run's, still going
    running.mkdir()
    write_site(build_dir, target, ("it",))
    assert sorted(p.name for p in tmp_path.iterdir()) == [running.name, "site"]


# ---------------------------------------------------------------- its Anki decks
PUBLISHED = "https://laws.example.org/copy"  # where a copy written with --base-url says it will be


@pytest.mark.slow
def test_a_copy_for_an_address_holds_decks_linking_to_its_own_pages(build_dir, tmp_path):
    """`kb site --base-url URL`: each language's decks link to that language's files of the copy
    as published at URL (`URL/es/es-laws/16.html#16C1`), each file there, each anchor on its page."""
    from apkg import read_apkg
    from kb import cli
    target = tmp_path / "site"
    assert cli.main(["--build-dir", str(build_dir), "site", str(target), "--base-url", PUBLISHED + "/"]) == 0
    for lang in ("it", "es", "en"):
        state = json.loads((target / "offline" / "manifest.json").read_text(encoding="utf-8"))
        decks = f"study/bridge-laws-{lang}.apkg"
        assert state["own"][lang] == [decks]  # kept offline with the language's pages
        notes = read_apkg(target / decks).notes
        assert len(notes) == 899 and not any("127.0.0.1" in f for n in notes for f in n.fields)
        links = {n.link for n in notes}
        assert all(link.startswith(f"{PUBLISHED}/{lang}/") for link in links)
        missing = []
        for link in sorted(links):
            page, _, anchor = link[len(PUBLISHED) + 1:].partition("#")
            if not (target / page).is_file():
                missing.append(link)
            elif anchor and f'id="{anchor}"' not in (target / page).read_text(encoding="utf-8"):
                missing.append(link)
        assert missing == [], missing[:5]


@pytest.mark.slow
def test_a_copy_for_no_address_holds_decks_with_no_links(copy):
    from apkg import read_apkg
    notes = read_apkg(copy / "study" / "bridge-laws-it.apkg").notes
    assert len(notes) == 899 and {n.link for n in notes} == {""}


def test_a_copy_for_an_address_that_is_no_site_is_refused(kb, tmp_path):
    r = kb("site", str(tmp_path / "site"), "--base-url", "laws.example.org")
    assert r.returncode == 2 and "--base-url" in r.stderr and not (tmp_path / "site").exists()


LANGUAGES = ("it", "es", "en")


@pytest.mark.slow
def test_what_every_language_shares_is_in_the_copy_once(copy):
    """The search data, the scripts, the worker and the cards lie once, at the copy's top; each
    language's folder holds its pages and its web manifest, and its pages link the shared files."""
    model = (copy / "offline" / "search-model.bin").read_bytes()
    copies = [p for p in copy.rglob("*") if p.is_file() and p.read_bytes() == model]
    assert [p.relative_to(copy).as_posix() for p in copies] == ["offline/search-model.bin"]
    for loc in LANGUAGES:
        folder = copy / loc
        assert not (folder / "offline").exists() and not (folder / "static").exists() and not (folder / "sw.js").exists()
        assert (folder / "manifest.webmanifest").is_file() and (folder / "it-laws" / "27.html").is_file()
    page = (copy / "es" / "graph" / "it-laws" / "27.html").read_text(encoding="utf-8")
    assert 'href="../../../static/style.css"' in page and 'data-worker="../../../sw.js"' in page
    assert 'data-search-data="../../../offline/search-model.bin"' in page


def gunzip_pack(path):
    raw = gzip.decompress(path.read_bytes())
    line = raw.index(b"\n")
    return json.loads(raw[:line]), raw[line + 1:]


@pytest.mark.slow
def test_each_languages_pack_holds_its_pages_as_the_copy_holds_them(copy):
    """The worker's one download for a language: every page of that language's folder and its web
    manifest, byte for byte the files beside it."""
    state = json.loads((copy / "offline" / "manifest.json").read_text(encoding="utf-8"))
    assert state["folders"] == {loc: f"{loc}/" for loc in LANGUAGES} and state["default"] == "it"
    for loc in LANGUAGES:
        head, bodies = gunzip_pack(copy / state["packs"][loc])
        names = [name for name, _, _ in head["entries"]]
        on_disk = {p.relative_to(copy).as_posix() for p in (copy / loc).rglob("*")
                   if p.suffix in (".html", ".webmanifest")}
        assert set(names) == on_disk and len(names) == len(state["pages"]) + 1
        at = 0
        for name, _, length in head["entries"]:
            assert bodies[at:at + length] == (copy / name).read_bytes(), name
            at += length
    for listed in [*state["assets"], state["search"]]:
        assert (copy / listed).is_file(), listed


COMPRESSED = (".html", ".js", ".css", ".json", ".webmanifest", ".svg", ".bin")


@pytest.mark.slow
def test_beside_every_text_file_lie_its_gzip_and_its_brotli(copy):
    """For hosts that serve precompressed files: each text file (and the search model) has a .gz and
    a .br that decompress to it; what is compressed already (the packs, the images, the decks) has none."""
    import brotli
    texts = [p for p in copy.rglob("*") if p.is_file() and p.suffix in COMPRESSED]
    assert len(texts) > 3 * 855
    for path in texts:
        data = path.read_bytes()
        packed = path.with_name(path.name + ".gz").read_bytes()
        squeezed = path.with_name(path.name + ".br").read_bytes()
        assert gzip.decompress(packed) == data and brotli.decompress(squeezed) == data, path
    for other in [*copy.glob("offline/*.pack"), *copy.glob("static/*.png"), *copy.glob("study/*.apkg")]:
        assert not other.with_name(other.name + ".gz").exists() and not other.with_name(other.name + ".br").exists()


@pytest.mark.slow
def test_the_top_page_leads_to_each_language_with_no_inline_script(copy):
    top = (copy / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", top, re.S)
    assert scripts and all(body == "" and 'src="' in attrs for attrs, body in scripts)  # CSP: only script files
    src = re.search(r'<script src="([^"]+)"', top).group(1)
    assert (copy / src).is_file() and "http-equiv" not in top  # no refresh that would override the reader's language
    assert re.findall(r'<a href="([a-z]{2})/index.html" hreflang="\1"', top) == list(LANGUAGES)
