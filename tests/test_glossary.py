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
