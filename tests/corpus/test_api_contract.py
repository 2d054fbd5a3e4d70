"""The API says what it does (issue 12, part 8): every route in the OpenAPI description,
asked for each status it documents, answers with that status and a body its documented
schema accepts; no route documents a status it never returns (FastAPI's 422)."""
import pytest
from fastapi.testclient import TestClient
from jsonschema import Draft202012Validator

from web.app import create_app

# (path, query): one real request per documented status of each route
ASKED = {
    "/api/docs": {200: ("/api/docs", {})},
    "/api/units/{doc}/{unit}": {200: ("/api/units/it-laws/27", {}), 404: ("/api/units/it-laws/999", {})},
    "/api/search": {200: ("/api/search", {"q": "licita insufficiente"}), 400: ("/api/search", {"limit": "0"})},
    "/api/compare/{n}": {200: ("/api/compare/27", {}), 404: ("/api/compare/94", {})},
    "/api/situations": {200: ("/api/situations", {"lang": "es"}), 400: ("/api/situations", {"lang": "fr"})},
    "/api/changes": {200: ("/api/changes", {"kind": "moved"}), 400: ("/api/changes", {"kind": "similar"}),
                     404: ("/api/changes", {"older": "it-laws", "newer": "es-laws"})},
    "/api/cite": {200: ("/api/cite", {"text": "Law 27B1(b), Law 13F, Law 95"}), 400: ("/api/cite", {"text": ""}),
                  414: ("/api/cite", {"text": "Legge 16 " * 2300})},  # a text too long for a URL: sent by POST
}
POSTED = {  # the one route that takes a body: (JSON body, raw bytes) per documented status
    "/api/cite": {200: ({"text": "Artículo 64 del reglamento, norma 40", "lang": "es"}, None),
                  400: ({"text": "Law 12", "lang": "fr"}, None), 413: (None, b"x" * (12 * 20_000 + 1025))},
}
MORE_SHAPES = [  # other answers of the same routes, held to the same schemas
    ("/api/units/es-laws/12", {}), ("/api/units/it-norms/40", {}), ("/api/units/it-timeref/licita-insufficiente", {}),
    ("/api/search", {"q": "27B1", "ui": "it"}), ("/api/search", {"q": "contrato", "doc": "es-laws"}),
    ("/api/search", {"q": "carta", "page": "2", "limit": "3"}), ("/api/search", {"q": "zzzzqqq"}),
    ("/api/compare/12", {}), ("/api/compare/12", {"older": "it-laws", "newer": "es-laws"}),
    ("/api/search", {"q": "x", "doc": "nope"}), ("/api/search", {"q": "y" * 600}), ("/api/units/xx/1", {}),
    ("/api/cite", {"text": "l'Art. 16A3 e la norma 99; Statuto Federale"}), ("/api/cite", {"text": "z" * 20_001}),
    ("/api/cite", {"text": "Law 12", "format": "pdf"}),
    ("/api/cite", {"text": "art. 27 B 9, norma 92, Reglamento 2007, Art. 12C1(e), Law 23 of the 2007 Laws"}),
]


@pytest.fixture(scope="module")
def spec(client):
    return client.get("/api/openapi.json").json()


def schema_of(spec, path, status, method="get"):
    response = spec["paths"][path][method]["responses"][str(status)]
    return Draft202012Validator(response["content"]["application/json"]["schema"] | {"components": spec["components"]})


def route_of(spec, url):
    for path in spec["paths"]:
        prefix = path.split("{")[0]
        if url == path or ("{" in path and url.startswith(prefix) and url.count("/") == path.count("/")):
            return path
    raise AssertionError(f"{url} is not a documented route")


def test_the_description_documents_exactly_the_api_routes(spec):
    assert set(spec["paths"]) == set(ASKED)


def test_no_route_documents_a_422(spec):
    assert all("422" not in op["responses"] for ops in spec["paths"].values() for op in ops.values())


@pytest.mark.parametrize("path,status", [(p, s) for p, asked in ASKED.items() for s in asked])
def test_each_documented_status_is_real_and_its_body_fits(client, spec, path, status):
    assert str(status) in spec["paths"][path]["get"]["responses"]
    url, query = ASKED[path][status]
    r = client.get(url, params=query)
    assert r.status_code == status
    errors = list(schema_of(spec, path, status).iter_errors(r.json()))
    assert errors == [], errors[0].message


@pytest.mark.parametrize("path,status", [(p, s) for p, sent in POSTED.items() for s in sent])
def test_each_documented_status_of_a_post_is_real_and_its_body_fits(client, spec, path, status):
    body, raw = POSTED[path][status]
    r = client.post(path, json=body) if raw is None else client.post(path, content=raw)
    assert r.status_code == status
    errors = list(schema_of(spec, path, status, "post").iter_errors(r.json()))
    assert errors == [], errors[0].message


def test_the_posted_methods_are_the_documented_ones(spec):
    assert {p for p, ops in spec["paths"].items() if "post" in ops} == set(POSTED)


@pytest.mark.parametrize("url,query", MORE_SHAPES)
def test_other_answers_fit_their_documented_schema(client, spec, url, query):
    r = client.get(url, params=query)
    path = route_of(spec, url)
    assert str(r.status_code) in spec["paths"][path]["get"]["responses"]
    errors = list(schema_of(spec, path, r.status_code).iter_errors(r.json()))
    assert errors == [], errors[0].message


def test_without_a_build_the_documented_503_is_what_comes(spec, tmp_path):
    empty = TestClient(create_app(tmp_path))
    for path, asked in ASKED.items():
        url, query = asked[200]
        r = empty.get(url, params=query)
        assert r.status_code == 503 and "503" in spec["paths"][path]["get"]["responses"]
        assert list(schema_of(spec, path, 503).iter_errors(r.json())) == []
