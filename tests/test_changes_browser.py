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
    page = phone(locale=locale)
    page.goto(server + "/changes")
    shot(page, f"changes-{locale[:2]}-phone")
    total = page.locator("ul.changes > li").count()
    page.click('button.kind[data-kind="moved"]')
    shown = [li for li in page.locator("ul.changes > li").all() if li.is_visible()]
    assert 0 < len(shown) < total and all(li.get_attribute("data-kind") == "moved" for li in shown)
    page.click('button.kind[data-kind="moved"]')  # again: every change
    assert sum(li.is_visible() for li in page.locator("ul.changes > li").all()) == total
