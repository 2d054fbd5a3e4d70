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


def combobox(page) -> dict:
    """What assistive technology reads of the search box and its suggestions."""
    return page.evaluate("""(() => {
        const q = document.getElementById('q'), list = document.getElementById(q.getAttribute('aria-controls'));
        const active = q.getAttribute('aria-activedescendant');
        return {role: q.getAttribute('role'), expanded: q.getAttribute('aria-expanded'),
                list: list && list.getAttribute('role'), shown: !!list && !list.hidden && list.offsetHeight > 0,
                options: list ? [...list.querySelectorAll('[role=option]')].map(o => o.id) : [],
                selected: list ? [...list.querySelectorAll('[aria-selected=true]')].map(o => o.id) : [],
                active, focus: document.activeElement.id};
    })()""")


def test_search_suggestions_are_a_combobox_driven_by_the_arrow_keys(server, phone):
    """WAI-ARIA combobox: ArrowDown/ArrowUp move the active suggestion (the focus stays in the
    box, wrapping at either end), Escape closes the list, Enter opens the active one."""
    page = phone()
    page.goto(server + "/")
    page.locator("#q").type("carta penalizzata")
    page.wait_for_selector("[role=option]")
    state = combobox(page)
    assert (state["role"], state["expanded"], state["list"], state["shown"]) == ("combobox", "true", "listbox", True)
    options = state["options"]
    assert len(options) >= 3 and state["active"] is None
    page.keyboard.press("ArrowDown")
    assert (combobox(page)["active"], combobox(page)["selected"]) == (options[0], [options[0]])
    page.keyboard.press("ArrowDown")
    assert combobox(page)["active"] == options[1]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert combobox(page)["active"] == options[-1]          # wraps from the first to the last
    assert combobox(page)["focus"] == "q"                   # the typing goes on in the box
    page.keyboard.press("Escape")
    state = combobox(page)
    assert (state["expanded"], state["shown"], state["active"], page.input_value("#q")) == (
        "false", False, None, "carta penalizzata")
    page.keyboard.press("ArrowDown")                        # opens the list again, on the first
    assert combobox(page)["active"] == options[0] and combobox(page)["shown"]
    page.keyboard.press("ArrowDown")
    href = page.locator(f"#{options[1]} a").get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url("**" + href)
    assert page.evaluate("location.pathname + location.hash") == href


def test_a_suggestion_shows_a_spanish_title_as_spanish(server, phone):
    page = phone()
    page.goto(server + "/")
    page.locator("#q").type("declaración insuficiente")
    page.wait_for_selector("[role=option]")
    langs = page.evaluate("""[...document.querySelectorAll('[role=option]:not(.situation) a')]
        .map(a => [a.getAttribute('href').split('/')[1], a.querySelector('[lang]')?.lang])""")
    assert ["es-laws", "es"] in langs
    assert all(lang == {"es-laws": "es", "it-laws": "it", "it-norms": "it"}.get(doc, lang) for doc, lang in langs)


def visible_below_header(page, selector: str) -> bool:
    return page.evaluate(f"""(() => {{
        const r = document.querySelector({selector!r}).getBoundingClientRect();
        const header = document.querySelector('header.top').getBoundingClientRect().bottom;
        return r.top >= header && r.top < innerHeight && r.height > 0;
    }})()""")


def test_the_norms_beside_a_law_are_one_tap_away_and_a_folded_one_opens(server, phone, shot):
    """Law 40 is eleven screens long on a phone: the menu under its title reaches the FIGB norms;
    a long norm's text, folded under its clause, opens with a tap on its summary."""
    page = phone()
    page.goto(server + "/it-laws/40")
    shot(page, "phone-unit")
    assert not visible_below_header(page, "#panel-norms")
    page.locator(".onpage a[href='#panel-norms']").tap()
    page.wait_for_timeout(200)
    assert visible_below_header(page, "#panel-norms h2")
    page.locator("#panel-norms a[href='#40A1b']").tap()
    page.wait_for_timeout(200)
    folded = page.locator("[id='40A1b'] details.norm")
    text = folded.locator(".text")
    assert not text.is_visible()
    folded.locator("summary").tap()
    assert text.is_visible() and "Carta delle Convenzioni" in text.inner_text()


@pytest.mark.parametrize("script", [True, False])
def test_the_compare_picker_goes_to_another_law(server, phone, shot, script):
    """Type a Law number, tap Compare: that Law's compare page (with script straight there,
    without it through the server's redirect)."""
    page = phone(java_script_enabled=script)
    page.goto(server + "/compare/12")
    if script:
        shot(page, "phone-compare")
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.fill("#law-n", "40")
    page.locator("form.picker button").tap()
    page.wait_for_url("**/compare/40")
    assert any("/compare?n=40" in url for url in asked) == (not script)
    assert page.locator("h1").inner_text().startswith("Articolo 40:")
    assert page.input_value("#law-n") == "40"
    page.fill("#law-n", "94")                                  # the browser refuses what is not a Law
    page.locator("form.picker button").tap()
    page.wait_for_timeout(300)
    assert page.url.endswith("/compare/40")


def test_the_glossary_fits_a_phone(server, phone, shot):
    """No sideways scrolling, neither of the page nor of the table inside it: on a phone each
    pair of terms is a card, Italian beside Spanish under their column names."""
    page = phone()
    page.goto(server + "/glossary")
    shot(page, "phone-glossary")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    overflowing = page.evaluate("""[...document.querySelectorAll('main *')]
        .filter(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
        .map(e => e.className || e.tagName)""")
    assert overflowing == []
    row = page.locator(".glossary tbody tr").first
    it, es = (row.locator("td").nth(i).bounding_box() for i in (0, 1))
    assert abs(it["y"] - es["y"]) < 2 and es["x"] > it["x"]                   # side by side
    header = page.locator(".glossary thead th").first.bounding_box()
    assert header["height"] > 0 and abs(header["x"] - it["x"]) < 2          # "Italian" above the Italian terms


BADGE_CONTRAST = """[...document.querySelectorAll('.compare .badge')].map(b => {
    const rgb = s => s.match(/[\\d.]+/g).slice(0, 3).map(Number);
    const lum = c => c.map(v => (v /= 255) <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4)
                      .reduce((sum, v, i) => sum + v * [.2126, .7152, .0722][i], 0);
    const text = lum(rgb(getComputedStyle(b).color)), back = lum(rgb(getComputedStyle(b).backgroundColor));
    return {badge: b.className, ratio: (Math.max(text, back) + .05) / (Math.min(text, back) + .05), light_text: text > back};
})"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_relation_badges_are_legible_in_either_colour_scheme(server, phone, shot, scheme):
    """Every relation badge of a compare page (same, moved, split, merged, changed, new in, removed
    in) reads at 7:1 or more, and in dark mode is a dark badge with light text, not a bright pill."""
    page = phone(color_scheme=scheme)
    page.goto(server + "/compare/12")
    badges = page.evaluate(BADGE_CONTRAST)
    assert {b["badge"] for b in badges} >= {"badge same", "badge changed", "badge split", "badge merged",
                                            "badge new-in-2017", "badge removed-in-2017"}
    assert [b for b in badges if b["ratio"] < 7] == []
    assert {b["light_text"] for b in badges} == {scheme == "dark"}
    if scheme == "dark":
        page.locator(".badge.split").first.scroll_into_view_if_needed()
        shot(page, "phone-compare-dark")


LEFT_OUT_IN_PRINT = ["header.top", "nav.langs", "form.search", "nav.crumbs", "nav.onpage", "aside.panels", "nav.prevnext",
                     "footer", "details.more", ".read-mark"]


def displayed(page, selector: str) -> bool:
    return page.evaluate(f"[...document.querySelectorAll({selector!r})].some(e => e.getClientRects().length > 0)")


def test_print_leaves_out_navigation_search_languages_and_panels(server, phone):
    """Printed, a Law is its text (with the FIGB norms beside its clauses, unfolded) under the line
    naming its edition, source and date; nothing of the study tools; on screen all of it is there."""
    page = phone()
    page.goto(server + "/it-laws/40")
    page.wait_for_selector(".read-mark button")
    assert all(displayed(page, s) for s in LEFT_OUT_IN_PRINT) and not displayed(page, ".print-source")
    page.emulate_media(media="print")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    assert [s for s in LEFT_OUT_IN_PRINT if displayed(page, s)] == []
    source = page.text_content(".print-source")
    assert displayed(page, ".print-source") and "Codice Internazionale del Bridge Duplicato 2017" in source
    assert "FIGB" in source and "30 settembre 2017" in source
    assert displayed(page, "article.clauses") and page.locator("[id='40A1b'] details.norm .text").is_visible()
    page.evaluate("dispatchEvent(new Event('afterprint'))")
    page.emulate_media(media="screen")
    assert not page.locator("[id='40A1b'] details.norm .text").is_visible()   # folded again on screen


@pytest.mark.parametrize("path, kept, left_out", [
    ("/compare/12", ".compare", ["form.picker", "nav.prevnext"]),
    ("/search?q=revoca", "ol.hits", ["nav.facets"]),
    ("/it-laws", "nav.contents", ["header.top"]),                                  # a document's contents are its page
])
def test_other_pages_print_their_content_alone(server, phone, path, kept, left_out):
    page = phone()
    page.goto(server + path)
    page.emulate_media(media="print")
    assert displayed(page, kept) and [s for s in left_out if displayed(page, s)] == []


def test_a_spanish_law_reads_as_spanish_under_the_italian_interface(server, phone):
    """The browser resolves the language of every paragraph of the Law (what hyphenation and a
    screen reader's voice follow) as Spanish; the interface around it stays Italian."""
    page = phone(locale="it-IT")
    page.goto(server + "/es-laws/27")
    assert page.evaluate("document.documentElement.lang") == "it"
    langs = page.evaluate("""[...document.querySelectorAll('article.clauses .text p, .clause-head span, h1 span:not(.label)')]
        .map(p => [p.matches(':lang(es)'), p.matches(':lang(it)')])""")
    assert len(langs) > 10 and set(map(tuple, langs)) == {(True, False)}
    assert page.evaluate("document.querySelector('aside.panels h2').matches(':lang(it)')")


def test_search_results_on_a_phone(server, phone, shot):
    """Results in both languages, each title and snippet in its own; nothing wider than the phone."""
    page = phone()
    page.goto(server + "/search?q=renonce")
    shot(page, "phone-search")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    langs = page.evaluate("""[...document.querySelectorAll('.hit')].map(h =>
        [h.querySelector('.hit-title').getAttribute('href').split('/')[1], h.querySelector('.snippet').lang])""")
    assert {doc for doc, _ in langs} >= {"it-laws", "es-laws"}
    assert all(lang == {"es-laws": "es"}.get(doc, "it") for doc, lang in langs)


def test_clause_headings_of_a_deep_law_nest(server, phone):
    """Law 27's outline as a screen reader lists it: h1 the Law, h2 27A/27B…, h3 27B1…, h4 27B1(a);
    never a level skipped going down."""
    page = phone()
    page.goto(server + "/it-laws/27")
    outline = page.evaluate("""[...document.querySelectorAll('h1, article.clauses :is(h2, h3, h4, h5, h6)')]
        .map(h => [Number(h.tagName[1]), h.closest('section')?.id || ''])""")
    levels = dict((cid, level) for level, cid in outline)
    assert (levels["27A"], levels["27B1"], levels["27B1a"], levels["27B1b"], levels["27D"]) == (2, 3, 4, 4, 2)
    assert outline[0][0] == 1
    assert all(b[0] <= a[0] + 1 for a, b in zip(outline, outline[1:])), outline
