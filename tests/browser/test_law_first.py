"""A unit page on a phone opens on the text (real Chromium at 390×844): the first clause's text starts
in the upper half of the first screen on every unit page, in light and dark, online and offline; the
study tools, the citation and the other edition wait behind one control per clause."""
import pytest

from tests.browser.test_offline_browser import keep_offline

pytestmark = pytest.mark.slow
HALF = 844 / 2
FIRST_TEXT = "(() => { const t = document.querySelector('article.clauses section.clause > .text'); return t && t.getBoundingClientRect().top })()"


def unit_paths(export, kinds=None):
    return [f"/{d['id']}/{u['id']}" for d in export["documents"] if kinds is None or d["kind"] in kinds
            for u in d["units"]]


def low_pages(page, base, paths):
    """The pages whose first clause text starts at or below the middle of the screen, light or dark
    (and the pages of the replaced 2007 text whose first screen does not say which edition is in force)."""
    low = {}
    for path in paths:
        assert page.goto(base + path).status == 200, path
        if path.startswith("/es-laws/") and not page.locator("p.replaced a[href*='it-laws']").is_visible():
            low[path] = "no edition in force named"
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            y = page.evaluate(FIRST_TEXT)
            if y is None or y >= HALF:
                low[f"{path} {scheme}"] = y
        page.emulate_media(color_scheme="light")
    return low


def test_every_unit_page_opens_on_its_text(server, phone, export):
    assert low_pages(phone(), server, unit_paths(export)) == {}


def test_every_law_page_opens_on_its_text_offline_and_in_spanish(server, phone, export):
    page = phone(locale="es-ES")
    keep_offline(page, server, "es")
    page.context.set_offline(True)
    assert low_pages(page, server, unit_paths(export, {"laws"})) == {}


def test_the_clause_tools_wait_behind_one_control(server, phone, shot):
    """No row of buttons under the clauses: each clause has one folded control; opened, it holds the
    citation, the permalink, the other edition's clause and the bookmark and note buttons."""
    page = phone()
    page.goto(server + "/it-laws/27")
    page.wait_for_selector("details.more .clause-tools button", state="attached")
    assert page.locator("section.clause .clause-tools button:visible").count() == 0
    more = page.locator("details.more[data-for='27B1b']")
    more.locator("summary").tap()
    body = more.locator(".more-body")
    assert body.locator(".cite-text").text_content() == "Codice 2017, Art. 27B1(b)"
    assert body.locator("a[href='/es-laws/27#27B1b']").is_visible()
    assert body.locator("button.bookmark").is_visible() and body.locator("button.note-toggle").is_visible()
    shot(page, "law-first-clause-tools-phone")


def test_copying_a_citation_and_its_permalink(server, phone):
    page = phone()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page.goto(server + "/it-laws/27")
    more = page.locator("details.more[data-for='27B1b']")
    more.locator("summary").tap()
    more.locator("button.copy-cite").tap()
    assert page.evaluate("navigator.clipboard.readText()") == "Codice 2017, Art. 27B1(b)"
    more.locator("button.copy-link").tap()
    assert page.evaluate("navigator.clipboard.readText()") == server + "/it-laws/27#27B1b"
