"""The JSON API in-process (DESIGN §8): documents, units with links, search, errors."""
import pytest


def test_docs_list_the_five_documents_with_counts(client):
    docs = {d["id"]: d for d in client.get("/api/docs").json()}
    assert docs["it-laws"]["units"] == 159 and docs["es-laws"]["units"] == 93
    assert docs["it-laws"]["effective"] == "2017-09-30" and "units" in docs["it-norms"]


def test_unit_has_its_links(client):
    u = client.get("/api/units/it-laws/27").json()
    assert u["title"] == "LICITA INSUFFICIENTE"
    assert any(c["unit"] == "23" and c["clause"] == "23A" for c in u["cites"])
    assert any(c["doc"] == "it-timeref" and c["edition"] == "2007" for c in u["timerefs"])
    assert any(p["doc"] == "es-laws" for p in u["parallel"])
    assert any(n["doc"] == "it-norms" for n in client.get("/api/units/it-laws/40").json()["norms"])


def test_search_returns_the_design_shape(client):
    r = client.get("/api/search", params={"q": "licita insufficiente"}).json()
    assert set(r) >= {"query", "total", "hits", "suggestion", "jump"}
    assert set(r["hits"][0]) >= {"doc", "unit", "clause", "kind", "title", "lang", "snippet", "url", "score"}
    assert client.get("/api/search", params={"q": "articolo 27"}).json()["jump"]["url"] == "/it-laws/27"


@pytest.mark.parametrize("params, status, words", [
    ({"q": "x" * 30_000}, 414, "too long"),   # past any query the planner takes: the URL limit answers
    ({"q": "x" * 10_000}, 400, "query too long"),
    ({"q": "carta", "doc": "fr-laws"}, 400, "unknown document"),
    ({"q": "carta", "limit": "ten"}, 400, "limit"),
    ({"q": "carta", "limit": 1000}, 400, "limit"),
    ({"q": "carta", "page": -1}, 400, "page"),
])
def test_bad_search_requests_are_json_4xx(client, params, status, words):
    r = client.get("/api/search", params=params)
    assert r.status_code == status
    assert words in r.json()["error"]


@pytest.mark.parametrize("q", ["", "((((", '"', "AND", "*", "\x00", "<script>alert(1)</script>", "../../etc"])
def test_odd_queries_never_fail(client, q):
    r = client.get("/api/search", params={"q": q})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert all("<script" not in h["snippet"] for h in r.json()["hits"])  # snippets carry only <mark>


@pytest.mark.parametrize("path, words", [
    ("/api/units/it-laws/999", "unknown unit '999'"),
    ("/api/units/xx/1", "unknown document 'xx'"),
    ("/api/nothing", "Not Found"),
])
def test_unknown_things_are_json_404(client, path, words):
    r = client.get(path)
    assert r.status_code == 404 and words in r.json()["error"]


def test_openapi_describes_the_api(client):
    spec = client.get("/api/openapi.json").json()
    assert {"/api/search", "/api/docs", "/api/units/{doc}/{unit}"} <= set(spec["paths"])


def test_viewing_a_page_leaves_the_api_answer_unchanged(client):
    before = client.get("/api/units/it-laws/6").json()
    assert client.get("/it-laws/6").status_code == 200
    assert client.get("/api/units/it-laws/6").json() == before
