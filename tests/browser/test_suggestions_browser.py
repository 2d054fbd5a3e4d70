"""The search box's suggestions on a phone (real Chromium): from the server online, from the browser's
own engine offline and in a static copy under a sub-path (its links the copy's own files); the
recognised situation first, leading to its ruling clause; each clause told apart by a few words."""
import pytest

from tests.browser.test_offline_browser import keep_offline

pytestmark = pytest.mark.slow
QUERY = "attacco fuori turno"


def suggestions(page, q=QUERY):
    page.fill("#q", q)
    page.wait_for_selector("#q-suggestions li a", timeout=20000)
    return page.eval_on_selector_all("#q-suggestions li", """els => els.map(li => ({
        situation: li.classList.contains('situation'), text: li.textContent,
        href: li.querySelector('a').getAttribute('href')}))""")


def test_online_the_situation_first_then_clauses_told_apart(server, phone, client):
    page = phone()
    page.goto(server + "/it-laws/12")
    shown = suggestions(page)
    api = client.get("/api/search", params={"q": QUERY, "limit": 6, "ui": "it"}).json()
    assert shown[0]["situation"] and shown[0]["href"] == api["answer"]["ruling"]["url"]
    assert api["answer"]["situation"]["name"] in shown[0]["text"]
    clauses = shown[1:]
    assert [c["href"] for c in clauses] == [h["url"] for h in api["hits"][:len(clauses)]]
    assert all(" — " in c["text"] for c in clauses)                 # a few words of each clause's text
    assert len({c["text"] for c in clauses}) == len(clauses)         # no two alike


def test_offline_the_browsers_engine_suggests_the_same(server, phone):
    page = phone()
    page.goto(server + "/it-laws/12")
    online = suggestions(page)
    keep_offline(page, server)
    page.context.set_offline(True)
    page.goto(server + "/it-laws/12")
    assert suggestions(page) == online


def test_a_static_copy_under_a_sub_path_suggests_its_own_files(static_subpath_server, phone, shot):
    page = phone(locale="es-ES")
    page.goto(static_subpath_server + "es/it-laws/12.html")
    shown = suggestions(page, "carta penalizada")
    assert shown and all(not s["href"].startswith("/") for s in shown)   # relative: never the host's root
    shot(page, "static-subpath-suggestions-phone")
    page.locator("#q-suggestions li a").first.click()
    page.wait_for_load_state()
    assert page.url.startswith(static_subpath_server + "es/") and page.locator("main h1").count() == 1
