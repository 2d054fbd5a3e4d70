"""Sixty situations told as a director hears them (measure/judged/told/told-60.tsv, written blind, not
tuned on), searched on a phone (real Chromium, 390×844) online and then offline: in the three
languages at least twenty answer cards show the told situation's ruling clause, and the card offline
is the card online for every telling."""
import csv
from pathlib import Path
from urllib.parse import quote_plus

import pytest

from kb.corpus.library import Library
from kb.corpus.situations import load as load_situations
from tests.browser.test_offline_browser import LOCALE, keep_offline

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
TOLD = ROOT / "measure" / "judged" / "told" / "told-60.tsv"
IN_FORCE = ("it-laws", "it-norms", "it-burraco")  # a card's ruling: the Laws in force, a lead norm, the game's code
CARD = "(() => { const a = document.querySelector('section.answer #answer-title a'); return a && a.getAttribute('href') })()"


def told():
    with TOLD.open(encoding="utf-8") as f:
        return [(r["lang"], r["telling"], r["situation"]) for r in csv.DictReader(f, delimiter="\t")]


def rules(situation, href: str) -> bool:
    """The card's clause (/doc/unit#clause) is one of the situation's ruling clauses in force, or
    within one (its section named by the index), or holds one."""
    path, _, clause = href.partition("#")
    doc, unit = path.strip("/").split("/")
    clause = clause or unit
    return any(d == doc and u == unit and (not c or clause.startswith(c) or c.startswith(clause))
               for d, u, c in situation.targets if d in IN_FORCE)


def cards(page, server, tellings):
    out = []
    for lang, q, _ in tellings:
        page.goto(f"{server}/search?q={quote_plus(q)}&ui={lang}")
        page.wait_for_selector("ol.hits > li.hit, p.error")
        out.append(page.evaluate(CARD))
    return out


def test_told_situations_open_on_their_ruling_clause_online_and_offline(server, phone, export):
    situations = {s.id: s for s in load_situations(ROOT / "corpus" / "situations.tsv", Library.of(export["documents"]))}
    tellings = told()
    page = phone()
    online = cards(page, server, tellings)
    right = {(lang, want) for (lang, _, want), href in zip(tellings, online) if href and rules(situations[want], href)}
    assert len(right) >= 20 and {lang for lang, _ in right} == {"it", "es", "en"}, sorted(right)
    for lang in ("it", "es", "en"):  # offline, each language's own copy of the site
        own = [t for t in tellings if t[0] == lang]
        offline_page = phone(locale=LOCALE[lang])
        keep_offline(offline_page, server, lang)
        offline_page.context.set_offline(True)
        expected = [href for t, href in zip(tellings, online) if t[0] == lang]
        assert cards(offline_page, server, own) == expected, lang
