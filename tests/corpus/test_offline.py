"""The site without a network, in process: what the worker is told to keep, the browser's search
data, the worker and the web manifest as served, the search page the browser answers offline."""
import gzip
import json
import re

import pytest

from kb.corpus.library import Library
from kb.search import model as search_model
from kb.search.analysis import terms
from kb.search.tuning import TUNING

BUDGET = 1.31e6  # bytes of gzipped search data: no more than the browser index it replaced (issue 27)
SEARCH_DATA = f"/offline/{search_model.MODEL_NAME}"


@pytest.fixture(scope="module")
def state(client):
    return client.get("/offline/manifest.json").json()


def test_the_copy_holds_every_page_of_every_document(state, export):
    pages = set(state["pages"])
    for d in export["documents"]:
        assert f"/{d['id']}" in pages
        assert {f"/{d['id']}/{u['id']}" for u in d["units"]} <= pages
    assert {"/", "/search", "/clock", "/glossary", "/situations"} <= pages
    in_force = Library.of(export["documents"]).laws_in_force
    laws = {u["id"] for d in export["documents"] if d["id"] == in_force for u in d["units"] if u["kind"] == "article"}
    assert {f"/compare/{n}" for n in laws} <= pages  # every Law's compare page


def test_the_copy_holds_every_page_of_the_situation_index_and_of_the_changes(client, state):
    """The pages /situations and /changes lead to (a period, a run of chapters) are kept too."""
    for index, under in (("/situations", "/situations/"), ("/changes", "/changes/")):
        pages = set(re.findall(rf'href="({under}[^"#]+)"', client.get(index).text))
        assert len(pages) >= 3 and pages <= set(state["pages"]), index


def test_every_answer_it_lists_names_its_build_a_304_too(client, state):
    """The worker keeps one build's entries only: it reads the build of each 200, and of each 304
    that confirms an entry of the copy in use (a page, a static file, the search data)."""
    for url in (state["pages"][0], "/it-laws/27", "/static/app.js", state["search"]):
        first = client.get(url)
        again = client.get(url, headers={"if-none-match": first.headers["etag"]})
        assert again.status_code == 304 and again.headers["x-build"] == first.headers["x-build"], url


def test_the_search_data_is_the_builds_own_model_and_within_budget(client, build_dir):
    """The browser searches the very model the server searches, sent gzipped as the build stored it."""
    r = client.get(SEARCH_DATA, headers={"accept-encoding": "gzip"})
    stored = (build_dir / "current" / (search_model.MODEL_NAME + ".gz")).read_bytes()
    assert r.headers["content-encoding"] == "gzip" and len(stored) <= BUDGET
    raw = (build_dir / "current" / search_model.MODEL_NAME).read_bytes()
    assert r.content == raw and gzip.decompress(stored) == raw  # the client decompresses: one layer of gzip
    assert search_model.parse(raw).build == r.headers["x-build"]
    assert client.get(SEARCH_DATA, headers={"if-none-match": r.headers["etag"]}).status_code == 304
    plain = client.get(SEARCH_DATA, headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == raw


@pytest.mark.parametrize("asked", ["gzip, deflate, br", "br", "br;q=1, gzip;q=0.5"])
def test_a_browser_that_takes_brotli_gets_the_search_data_in_brotli_smaller_than_gzip(client, build_dir, asked):
    import brotli
    raw = (build_dir / "current" / search_model.MODEL_NAME).read_bytes()
    r = client.get(SEARCH_DATA, headers={"accept-encoding": asked})
    stored = (build_dir / "current" / (search_model.MODEL_NAME + ".br")).read_bytes()
    assert r.headers["content-encoding"] == "br" and brotli.decompress(stored) == raw and r.content == raw
    assert len(stored) < 0.8 * len((build_dir / "current" / (search_model.MODEL_NAME + ".gz")).read_bytes())
    refused = client.get(SEARCH_DATA, headers={"accept-encoding": "gzip, br;q=0"})
    assert refused.headers["content-encoding"] == "gzip"


def test_the_search_data_carries_what_the_browser_ranks_with(client):
    m = search_model.parse(client.get(SEARCH_DATA).content)
    assert m.langs == ("it", "es") and ("it-laws", "27") in m.units and ("es-laws", "64") in m.units
    stems = m.fields["body_it"].terms  # the server's own Italian stems, computed at build time
    assert terms("it", "penalizzata")[0] in stems and "renonce" in m.fields["plain"].terms
    entry = next(e for e in m.entries if e.id == "late-arrival")
    assert dict(entry.names)["en"] and any(t.leads for t in entry.targets)  # the norm that rules it leads
    games = {e.id: e.other_game for e in m.entries}
    assert games["late-arrival"] is False and games["burraco-late-pair"] is True  # each game, its own book
    words = m.get("words")
    intents = [name for name, _ in words["intents"]]  # the plan's cues, as browser patterns, in order
    assert intents == ["definition", "timing", "federation"] and "figb" in words["intents"][2][1]
    told = words["bids"]  # what a story's bids tell, read as the engine reads them
    assert told["names"]["es"] == "declaración insuficiente" and "picche" in told["bid"] and "sopra" in told["over"]
    assert m.tuning == TUNING  # the tuning travels with the model


def test_the_worker_is_served_from_the_root(client):
    r = client.get("/sw.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.headers["service-worker-allowed"] == "/" and r.headers["cache-control"] == "no-cache"
    assert "script-src 'self'" in r.headers["content-security-policy"]


@pytest.mark.parametrize("ui, name", [("it", "Codice del Bridge"), ("es", "Reglamento del Bridge"), ("en", "Bridge Laws")])
def test_the_web_manifest_names_the_app_in_the_readers_language(client, ui, name):
    m = client.get("/manifest.webmanifest", params={"ui": ui}).json()
    assert m["name"] == name and m["start_url"] == "/" and m["display"] == "standalone"
    for icon in m["icons"]:
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.headers["content-type"].startswith(icon["type"])


def test_every_page_links_the_manifest_and_the_offline_script(client):
    html = client.get("/it-laws/27").text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<script src="/static/offline.js" defer></script>' in html
    assert 'id="offline-state"' in html and 'data-worker="/sw.js"' in html


def test_the_bare_search_page_is_what_the_browser_answers_offline(client):
    html = client.get("/search").text
    assert "data-search-shell" in html and f'data-search-data="{SEARCH_DATA}"' in html
    assert '<script src="/static/stemmers.js" defer></script><script src="/static/search.js" defer></script>' in html
    assert 'class="hits"' not in html  # no results of the server's: the browser writes them


@pytest.mark.parametrize("ui", ["it", "es", "en"])
def test_the_home_screen_name_fits_under_an_icon(client, ui):
    """A phone shows about twelve letters under a home-screen icon: the short name fits, in each language."""
    manifest = client.get("/manifest.webmanifest", params={"ui": ui}).json()
    assert 0 < len(manifest["short_name"]) <= 12, manifest["short_name"]


def test_the_web_manifest_varies_with_the_language_as_pages_do(client):
    """Its names are in the reader's language: a cache must not hand one reader's to another."""
    r = client.get("/manifest.webmanifest", headers={"accept-language": "es"})
    assert {"accept-language", "cookie"} <= {v.strip().lower() for v in r.headers["vary"].split(",")}
    assert r.json()["name"] == "Reglamento del Bridge"


def unpack(body: bytes) -> tuple[dict, dict[str, bytes]]:
    """A pack as the worker reads it: gunzipped, a line of JSON naming the entries, then their bodies."""
    raw = gzip.decompress(body)
    line = raw.index(b"\n")
    head, at, bodies = json.loads(raw[:line]), line + 1, {}
    for name, _, length in head["entries"]:
        bodies[name] = raw[at:at + length]
        at += length
    assert at == len(raw)  # nothing after the last entry
    return head, bodies


def test_a_pack_holds_every_page_of_its_language_as_the_server_renders_it(client, state):
    """One request for the pages of an interface language: every page the list names and the web
    manifest, each the very bytes the server sends for it in that language."""
    assert state["packs"] == {loc: f"/offline/pages-{loc}.pack" for loc in ("it", "es", "en")}
    r = client.get(state["packs"]["es"])
    assert r.status_code == 200 and r.headers["content-type"] == "application/gzip"
    assert "content-encoding" not in r.headers  # gzipped once, by the pack itself: any host sends it as it is
    head, bodies = unpack(r.content)
    assert set(bodies) == {*state["pages"], "/manifest.webmanifest"}
    assert head["headers"]["content-security-policy"] == r.headers["content-security-policy"]
    for path in ["/", "/it-laws/27", "/manifest.webmanifest", *state["pages"][::97]]:
        assert bodies[path] == client.get(path, params={"ui": "es"}).content, path
    client.cookies.clear()
    assert b'<html lang="es">' in bodies["/it-laws/27"] and "Leyes" in bodies["/manifest.webmanifest"].decode()
    again = client.get(state["packs"]["es"], headers={"if-none-match": r.headers["etag"]})
    assert again.status_code == 304 and again.headers["x-build"] == r.headers["x-build"]


def test_a_pack_of_a_language_the_site_has_not_is_a_404(client):
    assert client.get("/offline/pages-fr.pack").status_code == 404


def test_the_worker_can_say_in_each_language_that_it_does_not_keep_that_one(state):
    """Offline, a page of a language not kept is a page saying so in that language (the worker
    draws it from these words), with the way to the same page in the language kept."""
    words = state["unkept"]
    assert set(words) == {"it", "es", "en"} and len({w["title"] for w in words.values()}) == 3
    assert words["es"]["title"].startswith("No ") and words["it"]["title"].startswith("Non ")
    assert all(w["text"] and w["other"] and w["names"] == {"it": "Italiano", "es": "Español", "en": "English"}
               for w in words.values())


@pytest.mark.parametrize("path", ["/study/cards.json", "/study/exam.json"])
def test_what_the_phone_keeps_beside_the_model_comes_in_the_smallest_coding_it_takes(client, path):
    """The drills' cards and the exam's questions, the largest files after the model and the
    pages: brotli to a client that takes it, gzip to one that takes only that, plain to the rest,
    each the same JSON."""
    import brotli
    br = client.get(path, headers={"accept-encoding": "gzip, br"})
    gz = client.get(path, headers={"accept-encoding": "gzip"})
    plain = client.get(path, headers={"accept-encoding": "identity"})
    assert (br.headers["content-encoding"], gz.headers["content-encoding"]) == ("br", "gzip")
    assert "content-encoding" not in plain.headers and "accept-encoding" in br.headers["vary"].lower()
    assert br.json() == gz.json() == plain.json() and plain.json()["build"] == br.headers["x-build"]
    assert len(brotli.compress(plain.content, quality=9)) < len(gzip.compress(plain.content, 6))
