"""The Anki decks offline, in a real browser on a phone (headless Chromium, a real server): the
worker keeps the reader's package with the site, so /study hands it out with the server gone —
in the reader's language, its cards linking to the server the phone got it from."""
import pytest
from apkg import read_apkg

from kb.pipeline.generations import DECKS_NAME
from measure.loadgen import HOST, serving
from tests.browser.test_offline_browser import keep_offline

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("locale, deck", [("es", "Reglamento del Bridge::Situaciones")])
def test_offline_the_study_page_hands_out_the_readers_decks(build_dir, phone, locale, deck):
    """The server of its own is stopped before the download (the browser's offline switch does
    not reach the worker's own requests)."""
    page = phone(locale=f"{locale}-ES")
    with serving(build_dir) as (port, _pid):
        server = f"http://{HOST}:{port}"
        keep_offline(page, server, locale)
    page.context.set_offline(True)
    page.goto(server + "/study")
    link = page.locator("p.anki a")
    assert link.get_attribute("href") == f"/study/{DECKS_NAME.format(lang=locale)}"
    with page.expect_download() as got:
        link.click()
    decks = read_apkg(open(got.value.path(), "rb").read())
    assert deck in decks.decks and len(decks.notes) == 899
    assert all(n.link.startswith(server + "/") for n in decks.notes)
