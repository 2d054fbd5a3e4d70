"""Compare rows on a phone (issue "At the table", item 6): at 390 px the two editions' cells stack,
and each names its edition before its text (tests/corpus/test_compare_rows.py reads the rows)."""


def test_a_phone_shows_the_edition_of_the_spanish_cell(server, phone, shot):
    """At 390 px the cells stack; the Spanish cell of 27B2 begins with a visible "ES 2007"."""
    page = phone()
    page.goto(server + "/compare/27")
    label = page.evaluate("""() => { const c = document.getElementById('es-27B2');
        const s = getComputedStyle(c, '::before'); return [s.content, s.display, c.getBoundingClientRect().width]; }""")
    shot(page, "phone-compare-edition")
    assert label[0] == '"ES 2007"' and label[1] == "block" and label[2] < 390
