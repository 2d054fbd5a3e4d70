"""HTTP edges a hostile or careless client reaches (issue 11, finding 6): redirects that the
Host header cannot steer, HEAD wherever GET is, `Allow` on 405, no off-site links."""
import pytest

from web.http.security import HEADERS


@pytest.mark.parametrize("path, location", [("/it-laws/", "/it-laws"), ("/it-laws/27/?ui=es", "/it-laws/27?ui=es")])
def test_a_trailing_slash_redirects_relatively_whatever_the_host(client, path, location):
    r = client.get(path, headers={"host": "evil.example"}, follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == location
    assert "evil" not in r.headers["location"]
    assert r.headers["x-content-type-options"] == HEADERS["x-content-type-options"]


@pytest.mark.parametrize("path", ["/", "/it-laws/27", "/api/search?q=carta", "/static/style.css", "/compare/27"])
def test_head_answers_where_get_does_without_a_body(client, path):
    get, head = client.get(path), client.head(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b"" and head.headers["content-type"] == get.headers["content-type"]


@pytest.mark.parametrize("path", ["/it-laws/27", "/api/search?q=carta"])
def test_a_method_not_allowed_says_which_are(client, path):
    r = client.post(path)
    assert r.status_code == 405 and "GET" in r.headers.get("allow", "")


def test_a_not_found_page_for_a_double_slash_path_links_only_here(client):
    page = client.get("//evil.example/x").text
    assert 'href="//evil.example' not in page


@pytest.mark.parametrize("typed", ["articolo ２７", "ａｒｔ． ２７"])
def test_full_width_digits_are_numbers(client, typed):
    r = client.get("/search", params={"q": typed}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/it-laws/27")


def test_a_redirect_location_is_ascii_whatever_the_path_held(client):
    r = client.get("/it-laws/\u00a0/", follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == "/it-laws/%C2%A0"


def test_oversized_or_too_many_headers_are_refused_with_431(client):
    r = client.get("/", headers={"accept-language": "it," * 100000})
    assert r.status_code == 431 and r.headers["x-content-type-options"] == "nosniff"
    r = client.get("/", headers={f"x-h{i}": "1" for i in range(150)})
    assert r.status_code == 431
    assert client.get("/", headers={"accept-language": "it-IT,it;q=0.9,en;q=0.8"}).status_code == 200


@pytest.mark.parametrize("path, plain", [
    ("/compare/２７", "/compare/27"), ("/it-laws/２７", "/it-laws/27"), ("/es-laws/６４/", "/es-laws/64"),
    ("/it-norms/９２－９３", "/it-norms/92-93"), ("/api/compare/２７", "/api/compare/27"),
    ("/api/units/it-laws/２７", "/api/units/it-laws/27"), ("/graph/it-laws/２７", "/graph/it-laws/27"),
])
def test_a_number_in_full_width_digits_leads_where_search_takes_it(client, path, plain):
    r = client.get(path, params={"ui": "es"}, follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == plain + "?ui=es"
    assert client.get(path).status_code == 200


def test_the_compare_picker_takes_full_width_digits_too(client):
    r = client.get("/compare", params={"n": "２７"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/compare/27")


def test_only_numbers_are_folded_in_a_path(client):
    assert client.get("/it-laws/def-ﬁnale", follow_redirects=False).status_code == 404  # a ligature is no number
