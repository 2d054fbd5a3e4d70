"""Text analysis is total: no word makes it fail, and no word poisons it for the words after.

Whoosh 2.7.4's Spanish Snowball stemmer raises IndexError on 4-letter letter+"gue" words
("ague", "ngue", "águe"); through Whoosh's own cache one failure also left the cache
inconsistent, so that after ~50 000 more distinct words every search failed until a restart.
"""
import random
import re

import pytest

from kb import generations
from kb.search.analysis import ANALYZERS, PLAIN, terms
from kb.search.engine import SearchEngine
from kb.store import Store

POISON = ["ague", "ngue", "igue", "águe", "ungue", "agüe", "GUE", "gué", "zgue"]
ANALYSERS = {**ANALYZERS, "plain": PLAIN}


@pytest.mark.parametrize("name", sorted(ANALYSERS))
@pytest.mark.parametrize("word", POISON)
def test_a_word_the_stemmer_chokes_on_still_gives_a_term(name, word):
    got = terms(ANALYSERS[name], word)
    assert got and all(t for t in got)


def adversarial_words(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyzàèéìòùáíóúüñç"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 12))) + rng.choice(["", "gue", "güe", "ión", "ò"])
             for _ in range(n)]
    return words + [w.upper() for w in words[:200]] + ["\u0301", "ß", "ǅ", "ﬁ", "٣", "x" * 500]


@pytest.mark.parametrize("lang", sorted(ANALYZERS))
def test_every_word_of_the_corpus_and_thousands_of_random_words_analyse(export, lang):
    vocabulary = {w for d in export["documents"] for u in d["units"] for w in re.findall(r"\w+", u["text"].lower())}
    for word in sorted(vocabulary) + adversarial_words(5000):
        terms(ANALYZERS[lang], word)


@pytest.fixture(scope="module")
def engine(build_dir, export):
    return SearchEngine.open(generations.generation(build_dir), Store(export))


def test_poison_words_then_many_more_words_leave_search_working(engine):
    for word in ("ague", "ngue", "águe"):
        assert engine.search(word).total >= 0
    for word in adversarial_words(60000, seed=11):   # past the old 50 000-entry cache
        terms(ANALYZERS["es"], word)
    assert engine.search("articolo 27").jump["unit"] == "27"
    assert engine.search("renonce consumata").total > 0
    assert engine.search("ague").total >= 0


def test_a_poison_word_is_an_ordinary_query_on_the_web_and_the_cli(client, kb):
    assert client.get("/api/search", params={"q": "ague"}).status_code == 200
    assert client.get("/search", params={"q": "ngue águe"}).status_code == 200
    r = kb("search", "ague")
    assert r.returncode == 0 and "Traceback" not in r.stderr


@pytest.mark.parametrize("lang, typed, listed", [
    ("es", "¿Cómo se corrige un renuncio?", "como se corrige un renuncio"),  # the list has "como"
    ("es", "qué había pasado", "que habia pasado"),
    ("it", "perche piu carte", "perché più carte"),                          # the list has "perché"
])
def test_a_stop_word_is_one_with_or_without_its_accents(lang, typed, listed):
    from kb.search.phrasebook import stems_said
    assert stems_said(lang, typed) == stems_said(lang, listed)


def test_a_question_typed_with_accents_finds_what_it_finds_without(engine):
    """"¿Cómo se corrige…?" opened on Law 63 while "como se corrige" opened on 62."""
    first = [engine.search(q, ui="es").hits[0].unit for q in ("¿Cómo se corrige un renuncio?",
                                                             "como se corrige un renuncio")]
    assert first == ["62", "62"]


@pytest.mark.parametrize("q, law", [
    ("il contro è stato fatto fuori turno", "32"),    # a double out of rotation, not a call out of turn
    ("contro sulla licita del compagno", "36"),       # an inadmissible double
])
def test_contro_is_a_double_not_a_stop_word(engine, q, law):
    assert engine.search(q, ui="it").hits[0].unit == law


@pytest.mark.parametrize("q, lang", [
    ("si può cambiare la carta", "it"),      # Spanish "sí" typed bare is "si": still Italian's own word
    ("mio compagno ha sbagliato", "it"),     # as Spanish "mío" is "mio"
    ("the dummy was late", "en"),
])
def test_a_querys_little_words_still_say_its_language(q, lang):
    from kb.search.query import written_in
    assert written_in(q) == lang


def test_a_search_without_a_phrasebook_answers(engine):
    """The engine's own fallback, a phrasebook of no phrases, matches nothing and searches on."""
    from kb.search.phrasebook import Phrasebook
    whole, engine.phrasebook = engine.phrasebook, Phrasebook([], [])
    try:
        assert Phrasebook([], []).match("carta penalizzata") == []
        assert engine.search("carta penalizzata", ui="it").hits
    finally:
        engine.phrasebook = whole
