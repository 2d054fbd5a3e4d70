"""Anki decks (kb/anki.py, `kb anki`, the build's copy and its download): each package is read
back as Anki reads it — a zip holding `collection.anki2`, an SQLite collection — and held to
the study cards of kb.study it is made from."""
import html
import json
import shutil
import sqlite3
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import genanki
import pytest

import kb as library
from kb import build as builder
from kb.anki import DECK_NAMES, FIELDS, LOCAL_SITE, write_decks
from kb.generations import BuildError, DECKS_NAME
from kb.study import DECKS, cards

ALERT = "definitions:it-laws:def-alert"


@dataclass(frozen=True)
class Note:
    id: int
    guid: str
    model: int
    fields: tuple[str, ...]  # as stored: HTML
    tags: tuple[str, ...]
    deck: str                # the name of the deck its card is in


@dataclass(frozen=True)
class Collection:
    notes: tuple[Note, ...]
    decks: dict[str, int]            # name → id
    models: dict[int, dict]          # id → Anki's model JSON

    def by_guid(self, guid: str) -> Note:
        return next(n for n in self.notes if n.guid == guid)


def read_apkg(path: Path, tmp: Path) -> Collection:
    """The notes, decks and models of an .apkg, read from its SQLite collection."""
    with zipfile.ZipFile(path) as z:
        assert "collection.anki2" in z.namelist()
        db = Path(z.extract("collection.anki2", tmp / f"{path.name}.read"))
    with sqlite3.connect(db) as con:
        decks_json, models_json = con.execute("select decks, models from col").fetchone()
        deck_names = {int(i): d["name"] for i, d in json.loads(decks_json).items()}
        rows = con.execute("select n.id, n.guid, n.mid, n.flds, n.tags, c.did from notes n join cards c on c.nid = n.id")
        notes = tuple(Note(i, guid, mid, tuple(flds.split("\x1f")), tuple(tags.split()), deck_names[did])
                      for i, guid, mid, flds, tags, did in rows)
    return Collection(notes, {name: i for i, name in deck_names.items()},
                      {int(i): m for i, m in json.loads(models_json).items()})


@pytest.fixture(scope="module")
def study(build_dir):
    return cards(library.open(build_dir))


IT = DECKS_NAME.format(lang="it")  # the Italian reader's decks `kb build` writes


@pytest.fixture(scope="module")
def built(build_dir, tmp_path_factory):
    """Every card's decks, as `kb anki` writes them without a language."""
    tmp = tmp_path_factory.mktemp("built")
    return read_apkg(_write(build_dir, tmp / "all.apkg"), tmp)


@pytest.mark.parametrize("lang, suite, definitions", [("it", "Codice del Bridge", "Definizioni"),
                                                       ("es", "Reglamento del Bridge", "Definiciones")])
def test_each_readers_decks_are_named_in_their_language_and_say_its_situations(build_dir, study, tmp_path,
                                                                              lang, suite, definitions):
    decks = read_apkg(build_dir / "current" / DECKS_NAME.format(lang=lang), tmp_path)
    assert f"{suite}::{definitions}" in decks.decks
    mine = [c for c in study if c.deck != "situations" or c.lang == lang]
    assert sorted(n.guid for n in decks.notes) == sorted(genanki.guid_for(c.id) for c in mine)


def test_each_deck_holds_its_study_cards(built, study):
    assert Counter(n.deck for n in built.notes) == Counter(DECK_NAMES[c.deck] for c in study)
    assert {DECK_NAMES[d] for d in DECKS} <= set(built.decks)
    assert len({n.guid for n in built.notes}) == len(study)


def test_each_note_is_its_card_escaped_as_html(built, study):
    by_guid = {n.guid: n for n in built.notes}
    for card in study:
        note = by_guid[genanki.guid_for(card.id)]
        assert note.deck == DECK_NAMES[card.deck]
        assert tuple(html.unescape(f) for f in note.fields) == (card.question, card.answer, card.ref,
                                                               LOCAL_SITE + card.url)
        assert all(html.escape(html.unescape(f)) == f for f in note.fields), note.fields  # stored escaped
        assert card.deck in note.tags and f"lang::{card.lang}" in note.tags


def test_fields_hold_the_texts(built):
    alert = built.by_guid(genanki.guid_for(ALERT))
    assert alert.fields[0] == "Alert" and "avvertimento" in alert.fields[1]
    assert alert.fields[3] == f"{LOCAL_SITE}/it-laws/def-alert"
    # an apostrophe of the Italian text reaches Anki as an entity, not as markup
    assert any("&#x27;" in n.fields[1] for n in built.notes if n.deck == DECK_NAMES["timerefs"])


def test_one_model_renders_the_link(built):
    (model_id,) = {n.model for n in built.notes}
    model = built.models[model_id]
    assert [f["name"] for f in model["flds"]] == list(FIELDS)
    assert '<a href="{{Link}}">' in model["tmpls"][0]["afmt"]


def test_every_link_answers(built, client):
    links = {n.fields[3] for n in built.notes}
    assert all(link.startswith(LOCAL_SITE + "/") for link in links)
    for path in sorted({html.unescape(link)[len(LOCAL_SITE):].split("#")[0] for link in links}):
        assert client.get(path).status_code == 200, path


def test_writing_again_keeps_every_id(build_dir, built, tmp_path):
    """What Anki matches an import on — note guids, deck and model ids — does not depend on
    when the package was written."""
    again = read_apkg(_write(build_dir, tmp_path / "again.apkg"), tmp_path)
    assert _identity(again) == _identity(built)


@pytest.mark.slow
def test_another_build_keeps_every_id(build_dir, tmp_path):
    def built_dir_file():
        return build_dir / "current" / IT
    builder.build(tmp_path / "b2")
    other = read_apkg(tmp_path / "b2" / "current" / IT, tmp_path / "b2")
    assert _identity(other) == _identity(read_apkg(built_dir_file(), tmp_path))


def _write(build_dir: Path, path: Path, base_url: str = LOCAL_SITE) -> Path:
    write_decks(library.open(build_dir), path, base_url)
    return path


def _identity(c: Collection) -> tuple:
    return sorted((n.guid, n.deck, n.model, n.fields) for n in c.notes), c.decks, sorted(c.models)


def test_links_go_to_the_site_given(build_dir, tmp_path):
    written = read_apkg(_write(build_dir, tmp_path / "d.apkg", "https://laws.example.org/"), tmp_path)
    assert written.by_guid(genanki.guid_for(ALERT)).fields[3] == "https://laws.example.org/it-laws/def-alert"


def test_the_command_writes_the_decks_and_counts_them(kb, study, tmp_path):
    out = tmp_path / "decks.apkg"
    run = kb("anki", str(out), "--base-url", "http://10.0.0.5:8000")
    assert run.returncode == 0, run.stderr
    written = read_apkg(out, tmp_path)
    assert len(written.notes) == len(study)
    for deck, n in Counter(c.deck for c in study).items():
        assert f"{DECK_NAMES[deck].split('::')[-1]} {n}" in run.stdout
    assert written.by_guid(genanki.guid_for(ALERT)).fields[3].startswith("http://10.0.0.5:8000/")
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == ["decks.apkg"]  # no temporary file left


@pytest.mark.parametrize("where", ["missing/decks.apkg", "."])
def test_a_path_it_cannot_write_is_one_line(kb, tmp_path, where):
    run = kb("anki", str(tmp_path / where))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("kb: error: ") and run.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_base_url_that_is_no_site_is_refused(kb, tmp_path):
    run = kb("anki", str(tmp_path / "d.apkg"), "--base-url", "127.0.0.1:8000")
    assert run.returncode == 2 and "--base-url" in run.stderr and not (tmp_path / "d.apkg").exists()


def test_the_site_offers_the_builds_decks(client, build_dir):
    name = DECKS_NAME.format(lang="es")
    r = client.get(f"/study/{name}")
    assert r.status_code == 200
    assert r.content == (build_dir / "current" / name).read_bytes()
    assert r.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert r.headers["content-type"] == "application/apkg"
    assert client.get(f"/study/{name}", headers={"if-none-match": r.headers["etag"]}).status_code == 304
    assert client.get(f"/study/{DECKS_NAME.format(lang='fr')}").status_code == 404


def test_a_generation_without_its_decks_is_not_complete(build_dir, tmp_path):
    gen = shutil.copytree((build_dir / "current").resolve(), tmp_path / "gen")
    builder.verify(gen)
    (gen / IT).unlink()
    with pytest.raises(BuildError, match=IT):
        builder.verify(gen)
