"""Anki packages read back as Anki reads them, for the tests: an .apkg is a zip holding
`collection.anki2`, an SQLite collection (genanki writes it); a note's fields are HTML, its
answer the passages it quotes (kb/study/anki.py), parsed here with the standard library."""
from __future__ import annotations

import html
import io
import json
import sqlite3
import tempfile
import zipfile
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path


@dataclass(frozen=True)
class Note:
    id: int
    guid: str
    model: int
    fields: tuple[str, ...]  # as stored: HTML
    tags: tuple[str, ...]
    deck: str                # the name of the deck its card is in

    @property
    def passages(self) -> list["Passage"]:
        return answer(self.fields[1])

    @property
    def link(self) -> str:
        return html.unescape(self.fields[3])


@dataclass(frozen=True)
class Collection:
    notes: tuple[Note, ...]
    decks: dict[str, int]            # name → id
    models: dict[int, dict]          # id → Anki's model JSON

    def by_guid(self, guid: str) -> Note:
        return next(n for n in self.notes if n.guid == guid)


def read_apkg(data: bytes | Path) -> Collection:
    """The notes, decks and models of an .apkg (its bytes, or its file)."""
    raw = data.read_bytes() if isinstance(data, Path) else data
    with zipfile.ZipFile(io.BytesIO(raw)) as z, tempfile.TemporaryDirectory() as tmp:
        assert "collection.anki2" in z.namelist()
        db = Path(z.extract("collection.anki2", tmp))
        con = sqlite3.connect(db)
        try:
            decks_json, models_json = con.execute("select decks, models from col").fetchone()
            names = {int(i): d["name"] for i, d in json.loads(decks_json).items()}
            rows = con.execute("select n.id, n.guid, n.mid, n.flds, n.tags, c.did from notes n "
                               "join cards c on c.nid = n.id")
            notes = tuple(Note(i, guid, mid, tuple(flds.split("\x1f")), tuple(tags.split()), names[did])
                          for i, guid, mid, flds, tags, did in rows)
        finally:
            con.close()
    models = {int(i): m for i, m in json.loads(models_json).items()}
    return Collection(notes, {name: i for i, name in names.items()}, models)


@dataclass
class Passage:
    """One quoted text of an answer, as the note's HTML holds it."""
    target: str                   # data-clause: `it-norms:8#8-3b2`
    refs: list[str]               # data-refs: the Law clauses a time reference names
    heading: str = ""             # its citation (the edition named), in the reader's language
    published: str = ""           # its language named, when it is not the reader's
    lang: str = ""                # the lang of its text
    paragraphs: list[str] = field(default_factory=list)  # its text, paragraph by paragraph (a table: its cells)
    change: str = ""              # what the next edition changed
    corrected: str = ""           # the references of it the source gets wrong, as read
    section: str = ""             # the heading of the section it opens (the other FIGB norms)

    @property
    def text(self) -> str:
        return " ".join(self.paragraphs)


class _Answer(HTMLParser):
    def __init__(self):
        super().__init__()
        self.passages: list[Passage] = []
        self.into: str | None = None  # the part of the passage being read
        self.section: str | None = None  # a section heading read, for the passage after it

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        css = a.get("class") or ""
        if tag == "div" and css == "passage":
            self.passages.append(Passage(a["data-clause"], (a.get("data-refs") or "").split(), section=self.section or ""))
            self.section = None
        elif tag == "p" and css == "section":
            self.section, self.into = "", "section"
        elif tag == "p" and css == "cite":
            self.into = "heading"
        elif tag == "span" and css == "published":
            self.into = "published"
        elif tag == "div" and css == "text":
            self.passages[-1].lang, self.into = a["lang"], "text"
        elif tag == "p" and css in ("change", "corrected"):
            self.into = css
            said = getattr(self.passages[-1], css)
            setattr(self.passages[-1], css, said + " " if said else said)
        elif self.into == "text" and tag in ("p", "td", "th", "caption"):
            self.passages[-1].paragraphs.append("")

    def handle_endtag(self, tag):
        if tag == "span" and self.into == "published":
            self.into = "heading"
        elif tag == "p" and self.into in ("heading", "change", "corrected", "section"):
            self.into = None
        elif tag == "div" and self.into == "text":
            self.into = None

    def handle_data(self, data):
        if self.into == "section":
            self.section += data
            return
        p = self.passages[-1] if self.passages else None
        if p is None or self.into is None:
            return
        if self.into == "text":
            p.paragraphs[-1] += data
        else:
            setattr(p, self.into, getattr(p, self.into) + data)


def answer(field_html: str) -> list[Passage]:
    parser = _Answer()
    parser.feed(field_html)
    for p in parser.passages:
        p.heading, p.published = p.heading.strip(), p.published.strip("() ")
    return parser.passages
