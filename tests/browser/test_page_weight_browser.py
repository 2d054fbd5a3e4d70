"""The pages a phone holds, in a real browser (Chromium, a real server) at 390 px wide: each Law
number of the contents a fingertip's target, the search box's placeholder whole, the offline state
in the header without the header growing."""
import time

import pytest

pytestmark = pytest.mark.slow


def test_every_law_number_of_the_contents_is_a_fingertips_target(server, phone, shot):
    page = phone()
    page.goto(server + "/it-laws")
    shot(page, "it-laws-phone")
    boxes = page.evaluate("""[...document.querySelectorAll('ol.law-grid a')]
        .map(a => { const r = a.getBoundingClientRect(); return [r.width, r.height]; })""")
    assert len(boxes) == 93 and min(w for w, _ in boxes) >= 44 and min(h for _, h in boxes) >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("locale", ["it-IT", "es-ES", "en-GB"])
def test_the_search_box_says_its_whole_placeholder_on_a_phone(server, phone, locale):
    page = phone(locale=locale)
    page.goto(server + "/")
    text, room = page.evaluate("""(() => {
        const q = document.getElementById('q'), s = getComputedStyle(q), c = document.createElement('canvas').getContext('2d');
        c.font = s.font;
        return [c.measureText(q.placeholder).width, q.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)];
    })()""")
    assert 0 < text <= room
    example = page.locator("p.example a")
    assert example.bounding_box()["height"] >= 44
    example.click()
    page.wait_for_load_state()
    assert page.evaluate("location.pathname") == "/search" and page.locator("ol.hits > li.hit").count() > 0


def test_the_header_says_the_site_is_being_kept_offline(server, phone):
    page = phone(locale="en-GB")
    page.goto(server + "/")
    header = page.locator("header.top")
    before = header.bounding_box()["height"]
    badge = page.locator("header .offline-state")
    deadline = time.monotonic() + 60
    while not badge.is_visible():
        assert time.monotonic() < deadline, "the header never showed the offline state"
        page.wait_for_timeout(200)
    assert badge.text_content().startswith(("Saving for offline", "Offline ready"))
    assert header.bounding_box()["height"] == before
    assert page.locator("#offline-state").text_content()  # the footer's says it in full
