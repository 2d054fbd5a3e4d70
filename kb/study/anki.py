"""Anki decks (`kb anki`, and the copy each build offers for download): the study cards of
`kb.study.cards` as one Anki package (.apkg), a deck per deck of DECKS. Each card's answer is the
passages it quotes, each under its citation (the edition named) and in its own language; a
card links back to its page only where the package knows the site's address (`link`): a
package built with none carries no link, rather than one to an address nobody serves.

Everything Anki matches on is derived from fixed strings, never from a build: the decks' and the
model's ids, and each note's guid (from the card's stable id), so importing the next build's
package updates the notes a student already studies instead of adding them again.
"""
from __future__ import annotations

import hashlib
import html
import tempfile
import zipfile
from collections import Counter
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import urlsplit

import genanki

from ..corpus.catalogs import translations
from ..common.files import written_beside
from ..records.built import BuiltTable
from ..records.reading import clause_blocks
from .cards import DECK_NAMES as NAMES, DECKS, SUITE, Card, Line, Passage, Sources, cards

Link = Callable[[str], str]  # a site path (a unit page and its clause's anchor) → the address a card links to


def deck_names(gettext: Callable[[str], str] = str) -> dict[str, str]:
    """Each deck's name in Anki, filed under the suite ("Bridge Laws::Definitions"), translated."""
    return {d: f"{gettext(SUITE)}::{gettext(NAMES[d])}" for d in DECKS}


DECK_NAMES = deck_names()  # in English, the catalogs' own language
FIELDS = ("Question", "Answer", "Ref", "Link")
FRONT = '<div class="question">{{Question}}</div>'
BACK = ('{{FrontSide}}<hr id="answer"><div class="answer">{{Answer}}</div>'
        '{{#Link}}<div class="link"><a href="{{Link}}">{{Link}}</a></div>{{/Link}}')
CSS = (".card { font-family: sans-serif; font-size: 20px; text-align: left; color: black; background: white; }\n"
       ".passage { margin-top: 1em; }\n.cite { font-weight: bold; }\n"
       ".published { font-weight: normal; font-size: 14px; }\n"
       ".change, .corrected { font-style: italic; }\n.section { margin-top: 1em; font-weight: bold; }\ntable { border-collapse: collapse; font-size: 14px; }\n"
       "td, th { border: 1px solid #999; padding: 0 .3em; }\n"
       + "".join(f".d{n} {{ margin-left: {n * 1.2:g}em; }}\n" for n in range(1, 7))
       + ".link { margin-top: 1em; font-size: 14px; }\n")


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


def site_links(base_url: str) -> Link:
    """Links to the site served at `base_url` (http://host[:port][/root]): its own paths."""
    base = check_base_url(base_url)
    return lambda path: base + path


def note(card: Card, link: Link | None) -> genanki.Note:
    """One card as an Anki note, its fields as HTML (Anki shows fields as HTML, everything of
    the texts escaped), tagged with its deck and language; its guid from its stable id."""
    question = f'<span lang="{card.lang}">{html.escape(card.question)}</span>'
    ref = html.escape(" · ".join(dict.fromkeys(c for p in card.passages for c in p.citations)))
    fields = (question, answer_html(card.passages), ref, html.escape(link(card.url)) if link else "")
    return genanki.Note(model=MODEL, fields=list(fields), tags=[card.deck, f"lang::{card.lang}"],
                        guid=genanki.guid_for(card.id))


def answer_html(passages: Iterable[Passage]) -> str:
    """Each passage under its citation (and, in another language than the reader's, which), its
    clauses indented as their page nests them, then what the next edition changed and the
    references of it the source gets wrong; a passage that opens a section, under its heading."""
    return "".join(_passage_html(p) for p in passages)


def _passage_html(p: Passage) -> str:
    published = f' <span class="published">({html.escape(p.published)})</span>' if p.published else ""
    change = "".join(f'<p class="change">{html.escape(said)}</p>' for said in p.changes)
    change += "".join(f'<p class="corrected">{html.escape(said)}</p>' for said in p.corrected)
    section = f'<p class="section">{html.escape(p.section)}</p>' if p.section else ""
    body = "".join(_line_html(line) for line in p.lines)
    refs = f' data-refs="{html.escape(" ".join(t for t, _c in p.refs))}"' if p.refs else ""
    return (f'{section}<div class="passage" data-clause="{html.escape(p.target)}"{refs}><p class="cite">{html.escape(p.heading)}'
            f'{published}</p><div class="text" lang="{p.lang}">{body}</div>{change}</div>')


def _line_html(line: Line) -> str:
    css, label = f' class="d{min(line.depth, 6)}"' if line.depth else "", line.label
    out = []
    for b in clause_blocks(line.clause):
        if b.kind == "table":
            out.append(_table_html(line.clause.tables[b.index], css))
        elif b.text:
            said = html.escape(b.text)
            said = f"<b>{said}</b>" if b.kind == "title" else f"<i>{said}</i>" if b.kind == "note" else said
            out.append(f"<p{css}>{html.escape(label) + ' ' if label else ''}{said}</p>")
            label = ""
    return "".join(out) or (f"<p{css}>{html.escape(label)}</p>" if label else "")


def _table_html(table: BuiltTable, css: str) -> str:
    def row(cells: tuple[str, ...], tag: str) -> str:
        return "<tr>" + "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in cells) + "</tr>"
    caption = f"<caption>{html.escape(table.caption)}</caption>" if table.caption else ""
    return (f"<table{css}>{caption}" + "".join(row(r, "th") for r in table.header)
            + "".join(row(r, "td") for r in table.rows) + "</table>")


def package(study_cards: Iterable[Card], link: Link | None, names: dict[str, str] = DECK_NAMES,
            lang: str | None = None) -> tuple[genanki.Package, Counter[str]]:
    """The package of every card, a deck per deck of DECKS (named `names`; a reader's language's
    decks have ids of their own), and how many notes each deck holds."""
    decks = {d: genanki.Deck(stable_id(f"{d}:{lang}" if lang else d), names[d]) for d in DECKS}
    counts: Counter[str] = Counter()
    for card in study_cards:
        decks[card.deck].add_note(note(card, link))
        counts[card.deck] += 1
    return genanki.Package(list(decks.values())), counts


def write_decks(sources: Sources, path: Path, lang: str | None = None, link: Link | None = None) -> Counter[str]:
    """Write the knowledge base's study cards as an Anki package at `path` (written beside it,
    then renamed over it: readers see the old file or the new one; an existing file's mode is
    kept, a new one's follows the umask); the notes per deck.

    `lang`, an interface language: that reader's cards (`kb.study.cards.cards`), the decks named in
    it (the build's catalogs); None: every card, named in English. `link`: where each card's page
    is (Anki opens links from outside the site, so they must be absolute); None: no links."""
    if lang is None:
        pkg, counts = package(cards(sources), link)
    else:
        gettext = translations(sources.catalogs, lang).gettext
        pkg, counts = package(cards(sources, lang), link, deck_names(gettext), lang)
    with written_beside(path) as tmp:
        # notes get this moment as their modification time: Anki updates a note it already
        # holds (same guid) only from a newer one, so a fixed timestamp would freeze them
        pkg.write_to_file(str(tmp))
        deflate(tmp)
    return counts


def deflate(path: Path) -> None:
    """genanki stores the collection uncompressed; Anki reads a deflated zip as well (its own
    packages are), and the texts shrink to a fifth: smaller builds, copies and offline caches."""
    with zipfile.ZipFile(path) as z:
        members = [(info.filename, z.read(info)) for info in z.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(name, data)


def decks_bytes(sources: Sources, lang: str, link: Link | None) -> bytes:
    """A reader's package as bytes (what a server hands out, or a static copy holds)."""
    with tempfile.TemporaryDirectory(prefix="kb-decks-") as tmp:
        path = Path(tmp) / "decks.apkg"
        write_decks(sources, path, lang, link)
        return path.read_bytes()
