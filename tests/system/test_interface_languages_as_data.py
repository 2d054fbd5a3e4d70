"""Interface languages as data (issue 33, item 5): a new interface language is its catalog, plus
readers' tables of its own if it likes; no domain table gains a column.

A French interface is made here, in a temporary copy of the catalogs: a catalog of a handful of
strings, and readers' tables giving one concordance row, one period of the board and two
situations their French words. It builds and serves; what it does not translate is shown in
English (the msgids' language and the notes' first); the domain tables are the built-in ones,
byte for byte."""
import shutil

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from fastapi.testclient import TestClient

from kb.pipeline import build as builder
from kb.corpus.catalogs import LOCALE_DIR, locales, po_path
from kb.corpus.manifest import CORPUS_DIR
from kb.pipeline.generations import table
from kb.readmodel.knowledge import KnowledgeBase
from web.app import create_app

pytestmark = pytest.mark.slow  # a build

FRENCH = {  # msgid → the French of this test
    "Search": "Rechercher",
    "Skip to content": "Aller au contenu",
    "The most common calls": "Les appels les plus fréquents",
    "Glossary": "Glossaire",
    "Interface language": "Langue de l’interface",
}
UNTRANSLATED = "Laws by chapter"  # a msgid the French catalog leaves out: shown in English
NOTES = {  # a readers' table → its French rows
    "concordance.tsv": "older\tnewer\tnote\n6B\t6B\tLe Code 2017 ajoute que deux cartes consécutives ne vont jamais au même joueur\n",
    "clock.tsv": "period\tnote\nauction\tla période des enchères va du premier regard sur les mains à la fin de la période d’explication\n",
    "situations.tsv": "id\tname\nclaim\tRéclamation de levées\nrevoke-definition\tRenonce\n",
}
DOMAIN_TABLES = ("concordance.tsv", "glossary.tsv", "clock.tsv", "situations.tsv")


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("french")
    catalogs = tmp / "locale"
    shutil.copytree(LOCALE_DIR, catalogs)
    catalog = Catalog(locale="fr", project="bridge-laws-kb", domain="messages")
    for msgid, msgstr in FRENCH.items():
        catalog.add(msgid, msgstr)
    po_path("fr", catalogs).parent.mkdir(parents=True)
    with po_path("fr", catalogs).open("wb") as f:
        write_po(f, catalog)
    corpus = tmp / "corpus"
    shutil.copytree(CORPUS_DIR, corpus)
    (corpus / "notes" / "fr").mkdir()
    for name, rows in NOTES.items():
        (corpus / "notes" / "fr" / name).write_text(rows, encoding="utf-8")
    builder.build(tmp / "build", corpus, catalogs)
    client = TestClient(create_app(tmp / "build"))
    yield KnowledgeBase.open(tmp / "build"), client, catalogs
    client.cookies.clear()


def test_the_interface_languages_are_the_catalogs_present(french):
    kb, _, catalogs = french
    assert locales(catalogs) == ("it", "es", "en", "fr") and locales() == ("it", "es", "en")
    assert kb.locales == ("it", "es", "en", "fr")


def test_no_domain_table_is_touched(french):
    kb, _, _ = french
    for name in DOMAIN_TABLES:
        assert table(kb.gen, name).read_bytes() == (CORPUS_DIR / name).read_bytes(), name


def test_a_page_in_french_says_what_its_catalog_translates_and_the_rest_in_english(french):
    _, client, _ = french
    page = client.get("/", params={"ui": "fr"})
    assert page.status_code == 200 and '<html lang="fr">' in page.text
    assert [words for words in FRENCH.values() if words not in page.text] == []
    assert UNTRANSLATED in page.text and page.headers["content-language"] == "fr"
    assert 'hreflang="fr"' in page.text and page.cookies.get("ui") == "fr"
    client.cookies.clear()
    asked = client.get("/", headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert '<html lang="fr">' in asked.text and "Rechercher" in asked.text


def test_a_note_is_in_french_where_its_readers_table_has_it_else_in_english(french):
    _, client, _ = french
    page = client.get("/compare/6", params={"ui": "fr"}).text
    assert '<span class="note" lang="fr">Le Code 2017 ajoute que deux cartes' in page
    assert '<span class="note" lang="en">References follow the 2017 renumbering' in page  # no French note
    clock = client.get("/clock", params={"ui": "fr"}).text
    assert "la période des enchères va du premier regard" in clock
    assert "the round begins when the Director announces it" in clock  # another period: no French note


def test_situations_are_named_in_french_where_named_so_else_in_english(french):
    _, client, _ = french
    names = {s["id"]: s["name"] for s in client.get("/api/situations", params={"lang": "fr"}).json()["situations"]}
    assert names["claim"] == "Réclamation de levées" and names["revoke-definition"] == "Renonce"
    assert names["late-arrival"] == "Late arrival at the table"  # the English column's first phrase
    index = client.get("/situations", params={"ui": "fr"}).text
    assert "Réclamation de levées" in index and "Late arrival at the table" in index


def test_the_french_study_decks_are_built(french):
    _, client, _ = french
    assert client.get("/study/bridge-laws-fr.apkg").status_code == 200
