"""Anki decks (`kb anki`, and the copy each build offers for download): the study cards of
`kb.study` as one Anki package (.apkg), a deck per deck of DECKS, each card linking back to its
page on the site.

Everything Anki matches on is derived from fixed strings, never from a build: the decks' and the
model's ids, and each note's guid (from the card's stable id), so importing the next build's
package updates the notes a student already studies instead of adding them again.
"""
from __future__ import annotations

import hashlib
import html
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import urlsplit

import genanki

from .catalogs import BUILD_DIR as CATALOGS, translations
from .files import written_beside
from .study import DECK_NAMES as NAMES, DECKS, SUITE, Card, cards

LOCAL_SITE = "http://127.0.0.1:8000"  # where `kb serve` answers by default


def deck_names(gettext: Callable[[str], str] = str) -> dict[str, str]:
    """Each deck's name in Anki, filed under the suite ("Bridge Laws::Definitions"), translated."""
    return {d: f"{gettext(SUITE)}::{gettext(NAMES[d])}" for d in DECKS}


DECK_NAMES = deck_names()  # in English, the catalogs' own language
FIELDS = ("Question", "Answer", "Ref", "Link")
FRONT = '<div class="question">{{Question}}</div>'
BACK = ('{{FrontSide}}<hr id="answer"><div class="answer">{{Answer}}</div>'
        '{{#Ref}}<div class="ref">{{Ref}}</div>{{/Ref}}<div class="link"><a href="{{Link}}">{{Link}}</a></div>')
CSS = (".card { font-family: sans-serif; font-size: 20px; text-align: left; color: black; background: white; }\n"
       ".ref { margin-top: 1em; font-weight: bold; }\n.link { margin-top: 1em; font-size: 14px; }\n")


def stable_id(name: str) -> int:
    """A fixed id for a deck or model: a hash of its name, in the range genanki advises."""
    digest = int.from_bytes(hashlib.sha256(f"bridge-laws:{name}".encode()).digest()[:8], "big")
    return (1 << 30) + digest % (1 << 30)


MODEL = genanki.Model(
    stable_id("model"), "Bridge Laws card", fields=[{"name": f} for f in FIELDS],
    templates=[{"name": "Card", "qfmt": FRONT, "afmt": BACK}], css=CSS)


def check_base_url(base_url: str) -> str:
    """The site's address, without a trailing slash; ValueError for anything but http(s)://host."""
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{base_url!r} is not a site address (http://host[:port])")
    return base_url.rstrip("/")


def note(card: Card, base_url: str) -> genanki.Note:
    """One card as an Anki note: its fields as HTML (Anki shows fields as HTML), tagged with its
    deck and language; its guid from its stable id."""
    fields = (card.question, card.answer, card.ref, base_url + card.url)
    return genanki.Note(model=MODEL, fields=[html.escape(f) for f in fields],
                        tags=[card.deck, f"lang::{card.lang}"], guid=genanki.guid_for(card.id))


def package(study_cards: Iterable[Card], base_url: str, names: dict[str, str] = DECK_NAMES,
            lang: str | None = None) -> tuple[genanki.Package, Counter[str]]:
    """The package of every card, a deck per deck of DECKS (named `names`; a reader's language's
    decks have ids of their own), and how many notes each deck holds."""
    base_url = check_base_url(base_url)
    decks = {d: genanki.Deck(stable_id(f"{d}:{lang}" if lang else d), names[d]) for d in DECKS}
    counts: Counter[str] = Counter()
    for card in study_cards:
        decks[card.deck].add_note(note(card, base_url))
        counts[card.deck] += 1
    return genanki.Package(list(decks.values())), counts


def write_decks(kb: Any, path: Path, base_url: str, lang: str | None = None) -> Counter[str]:
    """Write the knowledge base's study cards as an Anki package at `path` (written beside it,
    then renamed over it: readers see the old file or the new one; an existing file's mode is
    kept, a new one's follows the umask); the notes per deck.

    `base_url` is the site the cards link to (http://host[:port]): Anki opens links from outside
    the site, so they must be absolute. `lang`, an interface language: the decks are named in it
    (the build's catalogs) and the situations are said in it; None: every card, named in English."""
    if lang is None:
        pkg, counts = package(cards(kb), base_url)
    else:
        gettext = translations(kb.gen / CATALOGS, lang).gettext
        mine = [c for c in cards(kb) if c.deck != "situations" or c.lang == lang]
        pkg, counts = package(mine, base_url, deck_names(gettext), lang)
    with written_beside(path) as tmp:
        # notes get this moment as their modification time: Anki updates a note it already
        # holds (same guid) only from a newer one, so a fixed timestamp would freeze them
        pkg.write_to_file(str(tmp))
    return counts
