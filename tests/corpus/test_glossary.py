"""The Italian ↔ Spanish glossary: well formed, every term really used in its text, and each side
searched for the other; the thesaurus's everyday phrases reach the texts' own words."""
import pytest

from kb.corpus.manifest import CORPUS_DIR, load_manifest
from kb.search.analysis import terms
from kb.search.glossary import THESAURUS_TABLE, Glossary, expansion_rows, load_thesaurus
from kb.search.query import Expansions
from kb.common.text import fold_accents

GLOSSARY = Glossary.load()
THESAURUS = load_thesaurus(CORPUS_DIR / THESAURUS_TABLE)
TEXTS = {e.id: fold_accents(e.read()).lower() for e in load_manifest() if e.id in ("it-laws", "es-laws")}
LANGS = ("it", "es")


def test_glossary_is_substantial():
    assert len(GLOSSARY.pairs) >= 40


@pytest.mark.parametrize("it, es", [(p.it, p.es) for p in GLOSSARY.pairs])
def test_every_term_occurs_in_its_text(it, es):
    assert fold_accents(it).lower() in TEXTS["it-laws"], it
    assert fold_accents(es).lower() in TEXTS["es-laws"], es


@pytest.mark.parametrize("word, lang, expected", [
    ("renuncio", "es", "renonce"),
    ("renonce", "it", "renuncio"),
    ("baza", "es", "presa"),
    ("muerto", "es", "morto"),
])
def test_translation_both_ways(word, lang, expected):
    other = next(x for x in LANGS if x != lang)
    added = Expansions(expansion_rows(GLOSSARY, [], LANGS)).added(word)
    assert set(terms(other, expected)) <= set(added[other])


def test_thesaurus_terms_are_the_texts_own_words():
    texts = {"it": " ".join(fold_accents(e.read()).lower() for e in load_manifest() if e.fields["lang"] == "it"),
             "es": TEXTS["es-laws"]}
    assert len(THESAURUS) >= 100
    missing = [(lang, t) for lang, _, words in THESAURUS for t in words if fold_accents(t).lower() not in texts[lang]]
    assert missing == []


@pytest.mark.parametrize("said, lang, term", [
    ("il resto è mio", "it", "richiesta"),
    ("ha giocato due carte insieme", "it", "simultaneamente"),
    ("se me cayó una carta", "es", "expuesta"),
    ("no sirvió al palo", "es", "renuncio"),   # "servir" is what players say for the texts' "asistir"
    ("caduta una carta", "it", "esposta"),     # in any order: "carta caduta"
])
def test_everyday_phrases_reach_the_legal_words(said, lang, term):
    added = Expansions(expansion_rows(None, THESAURUS, LANGS)).added(said)
    assert set(terms(lang, term)) <= set(added.get(lang, ()))
