"""Phone craft, measured in real Chromium on a 390×844 phone (issue 14, part 4): clauses reached
by anchor below the sticky header, fingertip-sized targets, law text in its own language, the
search suggestions' keyboard, nested clause headings. The fixtures (`server`, `phone`, `shot`)
are in conftest.py; screenshots go to test-artifacts/."""
import pytest

pytestmark = pytest.mark.slow

FINGERTIP = 44  # CSS px: the smallest target a finger hits reliably (WCAG 2.5.5, Apple and Material guidance)


@pytest.mark.parametrize("path, anchor", [("/it-laws/27", "27B1b"), ("/es-laws/16", "16C2b"), ("/it-norms/40", None)])
def test_a_clause_reached_by_its_anchor_is_fully_visible_below_the_sticky_header(server, phone, path, anchor):
    """The header wraps on a 390 px phone: the clause a link lands on starts below it (it used to
    sit under the header, so the first number an arbiter read was the next clause's), and its
    heading and first line are on the screen."""
    page = phone()
    if anchor is None:  # the last clause of the unit
        page.goto(server + path)
        anchor = page.evaluate("[...document.querySelectorAll('.clause')].pop().id")
    page.goto(f"{server}{path}#{anchor}")
    page.wait_for_timeout(200)
    header = page.evaluate("document.querySelector('header.top').getBoundingClientRect().bottom")
    clause = page.evaluate(f"document.getElementById({anchor!r}).getBoundingClientRect().toJSON()")
    assert clause["top"] >= header, (anchor, clause["top"], header)
    assert clause["top"] + min(clause["height"], 80) <= 844, (anchor, clause)


TARGETS = {  # page → the elements a finger must be able to hit
    "/it-laws/25": ["nav.langs a", "article.clauses a[href]:is(p a)"],
    "/es-laws/27": ["article.clauses a[href]:is(p a)"],
    "/clock": [".clock .topics a.badge", ".clock .laws a"],
}
ONE_CHARACTER = "/^[A-Za-z0-9]$/.test(e.textContent.trim())"


def boxes(page, selector: str, only: str = "true") -> list[dict]:
    """The bounding box, text and type size of each element matching the selector (and `only`)."""
    return page.evaluate(f"""[...document.querySelectorAll({selector!r})].filter(e => {only}).map(e => {{
        const r = e.getBoundingClientRect();
        return {{text: e.textContent.trim(), width: r.width, height: r.height,
                 font: getComputedStyle(e).fontSize, around: getComputedStyle(e.parentElement).fontSize}};
    }})""")


@pytest.mark.parametrize("path", TARGETS)
def test_language_switch_clock_entries_and_one_character_citations_are_fingertip_targets(server, phone, path):
    """Each is at least 44×44 CSS px; a one-character citation ("punto A", "B1") keeps the size of
    the text around it: the hit area grows, not the type."""
    page = phone()
    page.goto(server + path)
    for selector in TARGETS[path]:
        only = ONE_CHARACTER if selector.startswith("article") else "true"
        found = boxes(page, selector, only)
        assert found, selector
        small = [b for b in found if b["width"] < FINGERTIP or b["height"] < FINGERTIP]
        assert small == [], (selector, small[:5])
        if selector.startswith("article"):
            assert [b for b in found if b["font"] != b["around"]] == []


def test_a_one_character_citation_is_hit_around_its_letter(server, phone):
    """A tap 20 px beside, above or below the "A" of "punto A" still opens the citation."""
    page = phone()
    page.goto(server + "/it-laws/25")
    links = page.locator("article.clauses p a").filter(has_text="A").all()
    link = next(a for a in links if a.text_content().strip() == "A")
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    href = link.get_attribute("href")
    for dx, dy in ((-20, 0), (20, 0), (0, -20), (0, 20)):
        hit = page.evaluate(f"document.elementFromPoint({x + dx}, {y + dy}).closest('a')?.getAttribute('href')")
        assert hit == href, (dx, dy, hit)
