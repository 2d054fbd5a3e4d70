"""The site without a network, in process: what the worker is told to keep, the browser's search
data, the worker and the web manifest as served, the search page the browser answers offline."""
import gzip
import json

import pytest

from kb.generations import BROWSER_INDEX_NAME
from kb.library import Library
from kb.search.analysis import ANALYZERS, terms

BUDGET = 1.5e6  # bytes of gzipped search data (issue 14)


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


def test_every_page_and_file_it_lists_answers(client, state):
    """A worker that meets one failing address keeps nothing: every one must answer 200."""
    for url in [*state["pages"], *state["assets"], state["search"]]:
        assert client.get(url).status_code == 200, url


def test_the_search_data_is_the_builds_own_and_within_budget(client, build_dir):
    r = client.get("/offline/search.json", headers={"accept-encoding": "gzip"})
    stored = (build_dir / "current" / BROWSER_INDEX_NAME).read_bytes()
    assert r.headers["content-encoding"] == "gzip" and len(stored) <= BUDGET
    data = r.json()  # the client decompresses: one layer of gzip, not two
    assert data["build"] == r.headers["x-build"] and data["langs"] == ["it", "es"]
    assert client.get("/offline/search.json", headers={"if-none-match": r.headers["etag"]}).status_code == 304
    plain = client.get("/offline/search.json", headers={"accept-encoding": "identity"})
    assert "content-encoding" not in plain.headers and json.loads(plain.content) == json.loads(gzip.decompress(stored))


def test_the_search_data_carries_what_the_browser_ranks_with(client):
    data = client.get("/offline/search.json").json()
    units = {(data["docs"][u[0]]["id"], u[1]) for u in data["units"]}
    assert ("it-laws", "27") in units and ("es-laws", "64") in units
    it = data["words"]["analyzers"].index("it")  # the server's own Italian stem, computed at build time
    assert data["forms"]["penalizzata"][it] == terms(ANALYZERS["it"], "penalizzata")[0]
    assert "it:penalizz" in data["terms"] and "p:renonce" in data["terms"]
    entry = next(e for e in data["phrasebook"]["entries"] if e["id"] == "late-arrival")
    assert entry["names"]["en"] and any(t[3] for t in entry["targets"])  # the norm that rules it leads
    games = {e["id"]: e["other_game"] for e in data["phrasebook"]["entries"]}
    assert games["late-arrival"] is False and games["burraco-late-pair"] is True  # each game, its own book
    intents = [name for name, _ in data["words"]["intents"]]  # the plan's cues, as browser patterns, in order
    assert intents == ["definition", "timing", "federation"] and "figb" in data["words"]["intents"][2][1]
    told = data["words"]["bids"]  # what a story's bids tell, read as the engine reads them
    assert told["names"]["es"] == "declaración insuficiente" and "picche" in told["bid"] and "sopra" in told["over"]


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
    assert "data-search-shell" in html and 'data-search-data="/offline/search.json"' in html
    assert '<script src="/static/search.js" defer></script>' in html
    assert 'class="hits"' not in html  # no results of the server's: the browser writes them
