"""The compare page's switch and the changes page's filters in a real browser (Chromium, a real
server), with screenshots of both in Italian and Spanish on a phone."""
import pytest

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("locale", ["it-IT", "es-ES"])
def test_compare_shows_only_what_differs_at_a_touch(server, phone, shot, locale):
    page = phone(locale=locale)
    page.goto(server + "/compare/12")
    rows = page.locator(".compare .row[data-relation]")
    same = page.locator('.compare .row[data-relation="same"]')
    assert same.count() > 0 and page.locator("mark.change").count() > 0
    shot(page, f"compare-12-{locale[:2]}-phone")
    page.click("button.only-diff")
    assert page.get_attribute("button.only-diff", "aria-pressed") == "true"
    assert all(not same.nth(i).is_visible() for i in range(same.count()))
    assert rows.count() - same.count() == sum(rows.nth(i).is_visible() for i in range(rows.count()))


@pytest.mark.parametrize("locale", ["it-IT", "es-ES"])
def test_the_changes_page_filters_by_kind(server, phone, shot, locale):
    """On a page of the changes every Law is folded; a kind unfolds the Laws that have it and
    shows only those changes; pressed again, every change is back and the Laws fold again."""
    page = phone(locale=locale)
    page.goto(server + "/changes")
    shot(page, f"changes-{locale[:2]}-phone")
    page.locator("section.changes-part h2 a").nth(1).click()
    page.wait_for_load_state()
    laws, items = page.locator("details.law-changes"), page.locator("ul.changes > li")
    total = items.count()
    assert total > 50 and not any(d.evaluate("d => d.open") for d in laws.all())
    page.click('button.kind[data-kind="moved"]')
    shown = [li for li in items.all() if li.is_visible()]
    assert 0 < len(shown) < total and all(li.get_attribute("data-kind") == "moved" for li in shown)
    page.click('button.kind[data-kind="moved"]')  # again: every change, folded as before
    assert not any(li.evaluate("e => e.hidden") for li in items.all())
    assert all(d.is_visible() and not d.evaluate("d => d.open") for d in laws.all())


def test_a_laws_comparison_opens_its_changes_unfolded(server, phone):
    page = phone()
    page.goto(server + "/compare/27")
    page.locator('a[href*="#law-27"]').first.click()
    page.wait_for_load_state()
    assert page.evaluate("location.pathname").startswith("/changes/")
    fold = page.locator("details#law-27")
    assert fold.evaluate("d => d.open") and fold.locator("ul.changes > li").first.is_visible()
