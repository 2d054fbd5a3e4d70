"""Real headless Chromium (Debian's, driven by Playwright) against a real server on a free port
(the fixtures `server`, `browser`, `page`, `phone` and `shot` are in conftest.py)."""
import pytest

pytestmark = pytest.mark.slow


def test_type_a_query_open_a_result_land_on_the_highlighted_clause(server, page, shot):
    page.goto(server + "/")
    assert page.evaluate("document.activeElement.id") == "q"          # the search box has the focus
    page.keyboard.type("carta penalizzata")
    page.wait_for_selector(".live li a")                               # results while typing
    page.keyboard.press("Enter")
    page.wait_for_selector(".hit")
    shot(page, "search")
    first = page.locator(".hit .hit-title").first
    href = first.get_attribute("href")
    first.click()
    page.wait_for_load_state()
    anchor = href.split("#", 1)[1]
    assert page.evaluate("location.hash") == "#" + anchor
    highlighted = page.evaluate(f"getComputedStyle(document.getElementById('{anchor}')).borderLeftColor")
    plain = page.evaluate("getComputedStyle(document.querySelector('.clause:not(:target)')).borderLeftColor")
    assert highlighted != plain
    shot(page, "unit")


def test_follow_a_citation_and_come_back(server, page):
    page.goto(server + "/it-laws/27")
    page.click('a[href="/it-laws/23#23A"]')
    page.wait_for_url("**/it-laws/23#23A")
    assert "CHIAMATA PARAGONABILE" in page.text_content("h1")
    page.go_back()
    page.wait_for_url("**/it-laws/27")
    assert "LICITA INSUFFICIENTE" in page.text_content("h1")


def test_switch_the_interface_language(server, page):
    page.goto(server + "/it-laws/27")
    page.click('nav.langs a[hreflang="es"]')
    page.wait_for_load_state()
    assert page.evaluate("document.documentElement.lang") == "es"
    assert page.get_attribute("#q", "placeholder").startswith("Buscar")
    page.goto(server + "/it-laws/28")                                   # the choice is remembered
    assert page.evaluate("document.documentElement.lang") == "es"


def test_compare_view_stacks_on_a_phone(server, phone, shot):
    page = phone(viewport={"width": 375, "height": 812})
    page.goto(server + "/compare/12")
    row = page.locator(".compare .row:not(.head)").nth(2)
    it_box, es_box = row.locator(".cell.it").bounding_box(), row.locator(".cell.es").bounding_box()
    assert es_box["y"] >= it_box["y"] + it_box["height"] - 1          # Spanish below Italian, not beside
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scrolling
    shot(page, "compare-phone")


def test_no_payload_runs_in_the_browser(server, page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for path in ('/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E', '/search?q=%22%3E%3Cimg%20src%3Dx%20onerror%3Dalert(2)%3E',
                 '/it-laws/%3Csvg%20onload%3Dalert(3)%3E', '/search?q=carta&doc=%22%3E%3Cscript%3Ealert(4)%3C/script%3E'):
        page.goto(server + path)
        page.wait_for_load_state("load")
    page.goto(server + "/")
    page.fill("#q", "<img src=x onerror=alert(5)>")             # search as you type with a payload
    page.wait_for_timeout(600)
    assert dialogs == []


def test_the_situation_index_on_a_phone(server, phone, shot):
    """Pick a period, then a situation's ruling clause: the Law opens at that clause."""
    page = phone(locale="es-ES")
    page.goto(server + "/situations")
    assert page.locator("h1").inner_text() == "Situaciones"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scrolling
    shot(page, "situations-phone")
    page.locator('#period-lead-play a.period').click()
    page.wait_for_load_state()
    assert page.evaluate("location.pathname") == "/situations/lead-play"
    for part in [a.get_attribute("href") for a in page.locator("ul.parts a").all()]:  # the period's pages, by Law
        if page.locator("#revoke-corrected").count():
            break
        page.click(f'ul.parts a[href="{part}"]')
        page.wait_for_load_state()
    page.locator('#revoke-corrected a[href^="/es-laws/62"]').first.click()
    page.wait_for_load_state()
    assert page.evaluate("location.pathname") == "/es-laws/62" and page.evaluate("location.hash").startswith("#62")
