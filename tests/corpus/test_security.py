"""Security headers, request limits and methods; hostile input fuzzed with Hypothesis."""
import re
from pathlib import Path
from html.parser import HTMLParser

import pytest

from kb.corpus.languages import LANGS
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.search.query import QueryError, plan, term_queries
from web.app import create_app


@pytest.mark.parametrize("path", ["/", "/it-laws/27", "/search?q=carta", "/api/search?q=carta", "/nope", "/static/style.css"])
def test_every_response_carries_the_security_headers(client, path):
    h = client.get(path).headers
    csp = h["content-security-policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert h["x-content-type-options"] == "nosniff" and h["referrer-policy"] == "same-origin"


def test_pages_have_no_inline_script(client):
    for path in ("/", "/it-laws/27", "/search?q=carta", "/compare/12", "/clock", "/graph/it-laws/27"):
        page = client.get(path).text
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == [], path
        assert not re.search(r"\son[a-z]+=", page), path   # no inline event handlers


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_only_get_is_allowed(client, method):
    r = getattr(client, method)("/api/search?q=carta")
    assert r.status_code == 405


def test_oversized_requests_are_refused(client):
    assert client.get("/search?q=" + "x" * 25_000).status_code == 414
    assert client.post("/api/search", content=b"x" * 10).status_code in (405, 413)


@pytest.mark.parametrize("letter", ["é", "漢", "𝄞"])  # 2, 3 and 4 bytes in UTF-8, three times that encoded
def test_any_query_the_planner_takes_fits_in_the_url(client, letter):
    from kb.search.query import MAX_QUERY_CHARS
    assert client.get("/api/search", params={"q": letter * MAX_QUERY_CHARS}).status_code == 200
    r = client.get("/api/search", params={"q": letter * (MAX_QUERY_CHARS + 1)})
    assert r.status_code == 400 and "too long" in r.json()["error"]  # the planner's own limit, said as such


def test_a_body_sent_in_chunks_is_refused_too(client):
    chunks = iter([b"x" * 10, b"y" * 10])  # an iterator: httpx sends Transfer-Encoding: chunked
    r = client.request("GET", "/api/search?q=carta", content=chunks)
    assert r.status_code == 413 and r.json()["error"] == "request body not accepted"


def test_an_internal_error_is_a_plain_500_with_the_headers_and_no_traceback(build_dir):
    app = create_app(build_dir)

    def broken() -> None:
        raise RuntimeError("secret detail from deep inside")

    app.add_api_route("/api/broken", broken)
    app.add_api_route("/broken", broken)
    app.router.routes[:0] = [app.router.routes.pop(), app.router.routes.pop()]  # before the /{doc} pages
    client = TestClient(app, raise_server_exceptions=False)
    for path in ("/api/broken", "/broken"):
        r = client.get(path)
        assert r.status_code == 500
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert "secret detail" not in r.text and "Traceback" not in r.text
    assert client.get("/api/broken").json()["status"] == 500
    assert "Internal error" in client.get("/broken").text


class Elements(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def injected(page: str) -> list:
    """Elements or attributes no page of ours has: the sign of markup that got through."""
    p = Elements()
    p.feed(page)
    bad = []
    for tag, attrs in p.found:
        if tag in ("img", "svg", "iframe", "object") and not (tag == "svg" and attrs.get("class") == "graph"):
            bad.append(tag)
        if tag == "script" and attrs.get("src") not in OUR_SCRIPTS:
            bad.append("script")
        bad += [name for name in attrs if name.startswith("on")]
        bad += [v for k, v in attrs.items() if k in ("href", "src", "action", "formaction")
                and v and v.strip().lower().startswith("javascript:")]
    return bad


OUR_SCRIPTS = {f"/static/{p.name}" for p in (Path(__file__).resolve().parents[2] / "web" / "static").glob("*.js")}
XSS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>",
       "javascript:alert(1)", "</title><script>alert(1)</script>"]


@pytest.mark.parametrize("payload", XSS)
def test_reflected_fields_come_back_escaped(client, payload):
    for path, params in (("/search", {"q": payload}), ("/search", {"q": "carta", "doc": payload}),
                         ("/search", {"q": payload, "page": "2"})):
        assert injected(client.get(path, params=params).text) == []
    for path in (f"/it-laws/{payload}", f"/{payload}", f"/graph/it-laws/{payload}", f"/compare/{payload}"):
        assert injected(client.get(path).text) == []


text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=600)
tricky = st.sampled_from(["AND", "OR", "NOT", "*", "?", "~2", '"', "(", ")", "title:", "^3", "{", "[", "\\",
                          "..%2f", "%00", "\x00", "\u202e", "27B1", "art.", "Artículo"])
queries = st.one_of(text, st.lists(st.one_of(text, tricky), max_size=8).map(" ".join))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=queries)
def test_the_query_planner_never_fails_unexpectedly(q):
    try:
        p = plan(q)
    except QueryError:
        return
    assert all(q.field in {"plain", *(f"{f}_{lang}" for f in ("title", "body") for lang in LANGS)}
               for q in term_queries(p))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(q=queries, page=st.integers(min_value=-5, max_value=2000), doc=st.sampled_from([None, "it-laws", "xx", ""]))
def test_search_api_and_page_never_5xx(client, q, page, doc):
    """(How fast a hostile query is answered is scripts/bench.py's and the planner's linearity
    test's, tests/corpus/test_search.py: no clock here.)"""
    params = {"q": q, "page": page}
    if doc is not None:
        params["doc"] = doc
    for path in ("/api/search", "/search"):
        r = client.get(path, params=params, follow_redirects=False)
        assert r.status_code < 500, (path, params, r.text[:200])
        if path == "/search":
            assert injected(r.text) == []


segments = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=segments, b=segments)
def test_path_parameters_never_5xx(client, a, b):
    from urllib.parse import quote
    for path in (f"/{quote(a, safe='')}", f"/{quote(a, safe='')}/{quote(b, safe='')}", f"/compare/{quote(a, safe='')}",
                 f"/graph/{quote(a, safe='')}/{quote(b, safe='')}", f"/api/units/{quote(a, safe='')}/{quote(b, safe='')}",
                 f"/it-laws/{a}/..%2f..%2f{b}"):  # raw: a leading "//" would make `a` a host name
        r = client.get(path)
        assert r.status_code < 500, (path, r.status_code)
