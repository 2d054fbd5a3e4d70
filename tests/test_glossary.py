"""The Italian ↔ Spanish glossary: well formed, and every term is really used in its text."""
import pytest

from kb.corpus import load_manifest
from kb.search.glossary import Glossary
from kb.text import fold_accents

GLOSSARY = Glossary.load()
TEXTS = {e.id: fold_accents(e.read()).lower() for e in load_manifest() if e.id in ("it-laws", "es-laws")}


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
    assert expected in GLOSSARY.translate(word, lang)


def test_thesaurus_terms_are_the_texts_own_words():
    from kb.search.glossary import Thesaurus
    texts = {"it": " ".join(fold_accents(e.read()).lower() for e in load_manifest() if e.fields["lang"] == "it"),
             "es": TEXTS["es-laws"]}
    thesaurus = Thesaurus.load()
    assert len(thesaurus.rows) >= 100
    missing = [(lang, t) for lang, _, terms in thesaurus.rows for t in terms if fold_accents(t).lower() not in texts[lang]]
    assert missing == []


@pytest.mark.parametrize("said, lang, term", [
    ("il resto è mio", "it", "richiesta"),
    ("ha giocato due carte insieme", "it", "simultaneamente"),
    ("se me cayó una carta", "es", "expuesta"),
    ("no sirvió al palo", "es", "renuncio"),   # "servir" is what players say for the texts' "asistir"
])
def test_everyday_phrases_reach_the_legal_words(said, lang, term):
    from kb.search.glossary import Thesaurus
    assert any(term in t for t in Thesaurus.load().expand(said)[lang])
