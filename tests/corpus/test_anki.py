"""Anki decks (kb/study/anki.py, `kb anki`, the build's copy and the server's download): each package
is read back as Anki reads it — a zip holding `collection.anki2`, an SQLite collection — and held
to the study cards of kb.study.cards it is made from; its links lead where the package is used (the
address given, the server that handed it out), or nowhere when no address is known. What each
card says is tests/corpus/test_cards.py's."""
import html
import shutil
import urllib.request
from collections import Counter
from pathlib import Path

import genanki
import pytest
from apkg import read_apkg
from fastapi.testclient import TestClient

import kb as library
from kb.pipeline import build as builder
from kb.study.anki import DECK_NAMES, FIELDS, site_links, write_decks
from kb.pipeline.generations import BuildError, DECKS_NAME
from kb.study.cards import DECKS, cards

ALERT = "definitions:it-laws:def-alert"
SITE = "https://laws.example.org"
IT = DECKS_NAME.format(lang="it")  # the Italian reader's decks `kb build` writes


@pytest.fixture(scope="module")
def study(build_dir):
    return cards(library.open(build_dir).study_sources)


@pytest.fixture(scope="module")
def built(build_dir, tmp_path_factory):
    """Every card's decks, as `kb anki` writes them without a language, linking to SITE."""
    return read_apkg(_write(build_dir, tmp_path_factory.mktemp("built") / "all.apkg", SITE))


def _write(build_dir: Path, path: Path, base_url: str | None = None, lang: str | None = None) -> Path:
    write_decks(library.open(build_dir).study_sources, path, lang, site_links(base_url) if base_url else None)
    return path


def _text(field: str) -> str:
    return html.unescape(field)


@pytest.mark.parametrize("lang, suite, definitions", [("it", "Codice del Bridge", "Definizioni"),
                                                       ("es", "Reglamento del Bridge", "Definiciones")])
def test_each_readers_decks_are_named_in_their_language_and_say_its_situations(build_dir, lang, suite, definitions):
    decks = read_apkg(build_dir / "current" / DECKS_NAME.format(lang=lang))
    assert f"{suite}::{definitions}" in decks.decks
    mine = cards(library.open(build_dir).study_sources, lang)
    assert all(c.lang == lang for c in mine if c.deck == "situations")
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
        assert note.fields[0] == f'<span lang="{card.lang}">{html.escape(card.question)}</span>'
        assert [(p.target, p.heading) for p in note.passages] == [(p.target, p.heading) for p in card.passages]
        assert _text(note.fields[3]) == SITE + card.url
        assert card.deck in note.tags and f"lang::{card.lang}" in note.tags


def test_fields_hold_the_texts(built):
    alert = built.by_guid(genanki.guid_for(ALERT))
    assert _text(alert.fields[0]).endswith(">Alert</span>") and "avvertimento" in alert.passages[0].text
    assert alert.passages[0].heading == "Codice 2017, Definizioni"  # the edition named, in the card's language
    assert alert.link == f"{SITE}/it-laws/def-alert"
    # an apostrophe of the Italian text reaches Anki as an entity, not as markup
    assert any("&#x27;" in n.fields[1] for n in built.notes if n.deck == DECK_NAMES["timerefs"])


def test_one_model_renders_the_link_only_where_there_is_one(built):
    (model_id,) = {n.model for n in built.notes}
    model = built.models[model_id]
    assert [f["name"] for f in model["flds"]] == list(FIELDS)
    assert '{{#Link}}<div class="link"><a href="{{Link}}">' in model["tmpls"][0]["afmt"]


def test_every_link_answers(built, client):
    links = {n.link for n in built.notes}
    assert all(link.startswith(SITE + "/") for link in links)
    for path in sorted({link[len(SITE):].split("#")[0] for link in links}):
        assert client.get(path).status_code == 200, path


def test_writing_again_keeps_every_id(build_dir, built, tmp_path):
    """What Anki matches an import on — note guids, deck and model ids — does not depend on
    when the package was written."""
    again = read_apkg(_write(build_dir, tmp_path / "again.apkg", SITE))
    assert _identity(again) == _identity(built)


@pytest.mark.slow
def test_another_build_keeps_every_id(build_dir, tmp_path):
    builder.build(tmp_path / "b2")
    other = read_apkg(tmp_path / "b2" / "current" / IT)
    assert _identity(other) == _identity(read_apkg(build_dir / "current" / IT))


def _identity(c) -> tuple:
    return sorted((n.guid, n.deck, n.model, n.fields) for n in c.notes), c.decks, sorted(c.models)


def test_the_command_writes_the_decks_and_counts_them(kb, study, tmp_path):
    out = tmp_path / "decks.apkg"
    run = kb("anki", str(out), "--base-url", "http://10.0.0.5:8000/kb/")
    assert run.returncode == 0, run.stderr
    written = read_apkg(out)
    assert len(written.notes) == len(study)
    for deck, n in Counter(c.deck for c in study).items():
        assert f"{DECK_NAMES[deck].split('::')[-1]} {n}" in run.stdout
    assert "links to http://10.0.0.5:8000/kb" in run.stdout
    assert all(n.link.startswith("http://10.0.0.5:8000/kb/") for n in written.notes)
    assert not any("127.0.0.1" in f for n in written.notes for f in n.fields)
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == ["decks.apkg"]  # no temporary file left


def test_without_an_address_the_command_writes_no_links(kb, tmp_path):
    run = kb("anki", str(tmp_path / "d.apkg"), "--lang", "es")
    written = read_apkg(tmp_path / "d.apkg")
    assert run.returncode == 0 and "no links: give --base-url" in run.stdout and len(written.notes) == 899
    assert {n.link for n in written.notes} == {""} and not any("http" in n.fields[1] for n in written.notes)


@pytest.mark.parametrize("where", ["missing/decks.apkg", "."])
def test_a_path_it_cannot_write_is_one_line(kb, tmp_path, where):
    run = kb("anki", str(tmp_path / where))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("kb: error: ") and run.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("address", ["127.0.0.1:8000", "ftp://laws.example.org", "http://"])
def test_a_base_url_that_is_no_site_is_refused(kb, tmp_path, address):
    run = kb("anki", str(tmp_path / "d.apkg"), "--base-url", address)
    assert run.returncode == 2 and "--base-url" in run.stderr and not (tmp_path / "d.apkg").exists()


# ---------------------------------------------------------------- handed out by the server
def test_the_server_hands_out_decks_linking_to_itself(client):
    name = DECKS_NAME.format(lang="es")
    r = client.get(f"/study/{name}")
    assert r.status_code == 200 and r.headers["content-type"] == "application/apkg"
    assert r.headers["content-disposition"] == f'attachment; filename="{name}"'
    written = read_apkg(r.content)
    assert len(written.notes) == 899 and all(n.link.startswith("http://testserver/") for n in written.notes)
    for path in sorted({n.link[len("http://testserver"):].split("#")[0] for n in written.notes})[:40]:
        assert client.get(path).status_code == 200, path
    assert client.get(f"/study/{name}", headers={"if-none-match": r.headers["etag"]}).status_code == 304
    assert client.get(f"/study/{DECKS_NAME.format(lang='fr')}").status_code == 404


def test_each_address_the_server_is_reached_at_gets_its_own_links(app, client):
    name = f"/study/{DECKS_NAME.format(lang='it')}"
    other = client.get(name, headers={"host": "192.168.1.20:8123"})
    assert all(n.link.startswith("http://192.168.1.20:8123/") for n in read_apkg(other.content).notes)
    assert other.headers["etag"] != client.get(name).headers["etag"]  # another address, another file
    mounted = TestClient(app, root_path="/kb").get(name)  # behind a proxy that mounts it at /kb
    assert all(n.link.startswith("http://testserver/kb/") for n in read_apkg(mounted.content).notes)


@pytest.mark.slow
def test_a_server_on_another_port_hands_out_decks_linking_to_itself(live_server):
    with urllib.request.urlopen(f"{live_server.url}/study/{IT}", timeout=60) as r:
        written = read_apkg(r.read())
    links = {n.link for n in written.notes}
    assert live_server.port != 8000 and all(link.startswith(live_server.url + "/") for link in links)
    assert not any("127.0.0.1:8000" in f for n in written.notes for f in n.fields)
    for path in sorted({link.split("#")[0] for link in links})[::10]:
        with urllib.request.urlopen(path, timeout=30) as page:
            assert page.status == 200, path


def test_a_generation_without_its_decks_is_not_complete(build_dir, tmp_path):
    gen = shutil.copytree((build_dir / "current").resolve(), tmp_path / "gen")
    builder.verify(gen)
    (gen / IT).unlink()
    with pytest.raises(BuildError, match=IT):
        builder.verify(gen)
