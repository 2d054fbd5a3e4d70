"""The interface speaks the reader's language (issue 15): a crawl of every page of the site under
the Italian and the Spanish interface finds no English interface word and no document id in what
a reader sees. Law text (an element with its own `lang` of a text's language) is never
translated, and names kept as typed (`translate="no"`) are not interface."""
import re
from html.parser import HTMLParser

import pytest

pytestmark = pytest.mark.slow
# English words of the interface and of the curated notes, none of them an Italian or Spanish word
ENGLISH = re.compile(r"\b(the|and|of|is|are|with|by|from|same|changed|moved|split|merged|removed|new in|cites|"
                     r"cited|integrates|search|results|previous|next|law|laws|page|not found|unknown|"
                     r"documents|units)\b", re.I)


class Visible(HTMLParser):
    """The text a reader sees that the interface writes, with the element it is in."""

    def __init__(self, text_langs: set[str]):
        super().__init__()
        self.text_langs = text_langs  # the languages the texts are in: an element in one is law text
        self.stack, self.found, self.hidden = [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "style", "title"):
            self.hidden += 1
        law_text = a.get("lang") in self.text_langs and tag != "html"
        self.stack.append((tag, law_text or a.get("translate") == "no"))

    def handle_endtag(self, tag):
        if tag in ("script", "style", "title"):
            self.hidden -= 1
        while self.stack and self.stack.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if not self.hidden and not any(kept for _, kept in self.stack) and data.strip():
            self.found.append(data.strip())


@pytest.fixture(scope="module")
def pages(client):
    return client.get("/offline/manifest.json").json()["pages"] + ["/it-laws/999", "/compare/94"]


@pytest.mark.parametrize("ui", ["it", "es"])
def test_no_page_shows_english_or_a_document_id(client, pages, export, ui):
    ids = [d["id"] for d in export["documents"]]
    english, named = [], []
    for path in pages:
        page = Visible({d["lang"] for d in export["documents"]})
        page.feed(client.get(path, headers={"accept-language": ui}).text)
        for text in page.found:
            english += [(path, m.group(0), text[:80]) for m in ENGLISH.finditer(text)]
            named += [(path, d, text[:80]) for d in ids if d in text]
    assert english[:10] == []
    assert named[:10] == []
