"""Text analysis is total and is whoosh's: no word makes it fail or poisons it for the words after,
and every text of the corpus is read into the very terms whoosh's own analyzer chains make.

Whoosh 2.7.4's Spanish Snowball stemmer raises IndexError on 4-letter letter+"gue" words
("ague", "ngue", "águe"); through Whoosh's own cache one failure also left the cache
inconsistent, so that after ~50 000 more distinct words every search failed until a restart.
"""
import random
import re
import warnings

import pytest

from kb.search.analysis import (CHAINS, PLAIN, SHARED_STOPWORDS, STOPWORDS, WORDS_KEPT, positions, stem_word,
                                stems_said, terms)
from kb.common.text import fold_accents

with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)
    from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StopFilter
    from whoosh.support.charset import accent_map

POISON = ["ague", "ngue", "igue", "águe", "ungue", "agüe", "GUE", "gué", "zgue"]


class _FoldedStop(StopFilter):
    """The stop filter the texts were indexed with: it decides on the word with accents folded."""

    def __call__(self, tokens):
        for t in tokens:
            if len(t.text) < self.min or fold_accents(t.text) in self.stops:
                continue
            yield t


class _AccentTolerantStems(Filter):
    """Stem, then fold accents; a word with accents also gives the stem of its folded form."""

    def __init__(self, lang):
        self.lang = lang

    def __call__(self, tokens):
        for t in tokens:
            word, folded = t.text, fold_accents(t.text)
            t.text = fold_accents(stem_word(self.lang, word))
            yield t
            if folded != word:
                other = stem_word(self.lang, folded)
                if other != t.text:
                    t.text = other
                    yield t


def whoosh_chain(name):
    """The whoosh chain the texts were indexed with until the model replaced the index (whoosh's
    tokenizer, lower case, stop and charset filters, its Snowball stemmers through `stem_word`): the
    reference kb.search.analysis reproduces, a word at a time."""
    tokens = RegexTokenizer(r"\w+") | LowercaseFilter()
    if name == PLAIN:
        return tokens | StopFilter(stoplist=SHARED_STOPWORDS, minsize=2) | CharsetFilter(accent_map)
    return tokens | _FoldedStop(stoplist=STOPWORDS[name], minsize=1) | _AccentTolerantStems(name)


@pytest.mark.parametrize("name", CHAINS)
@pytest.mark.parametrize("word", POISON)
def test_a_word_the_stemmer_chokes_on_still_gives_a_term(name, word):
    got = terms(name, word)
    assert got and all(t for t in got)


def adversarial_words(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    letters = "abcdefghijklmnopqrstuvwxyzàèéìòùáíóúüñç"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 12))) + rng.choice(["", "gue", "güe", "ión", "ò"])
             for _ in range(n)]
    return words + [w.upper() for w in words[:200]] + ["\u0301", "ß", "ǅ", "ﬁ", "٣", "x" * 500, "İstanbul", "ǈubljana"]


def corpus_texts(export):
    for d in export["documents"]:
        for u in d["units"]:
            yield d["lang"], (u.get("title") or "") + "\n" + u["text"]


@pytest.mark.parametrize("name", CHAINS)
def test_every_text_of_the_corpus_reads_into_whooshs_own_terms(export, name):
    """Each chain, run a word at a time and remembered, against the whoosh chain run on whole texts:
    every unit of every document (in its own language's chain, and the plain one), and thousands
    of random words."""
    reference = whoosh_chain(name)
    texts = [text for lang, text in corpus_texts(export) if name in (PLAIN, lang)]
    texts.append(" ".join(adversarial_words(3000)))
    for text in texts:
        assert terms(name, text) == [t.text for t in reference(text)]


def test_a_texts_words_stand_where_whoosh_finds_them(export):
    reference = whoosh_chain(PLAIN)
    for _, text in list(corpus_texts(export))[:60]:
        found = [(a, b, term) for a, b, _, term in positions(text)]
        assert found == [(t.startchar, t.endchar, t.text) for t in reference(text, chars=True)]


def test_poison_words_then_many_more_words_leave_search_working(engine):
    for word in ("ague", "ngue", "águe"):
        assert engine.search(word).total >= 0
    for word in adversarial_words(60000, seed=11):   # past the old 50 000-entry cache
        terms("es", word)
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


def test_the_browsers_tables_of_characters_are_this_pythons(export):
    """The browser splits words, folds accents, blanks controls and reads digits by tables the model
    carries (its own Unicode may be newer): each holds exactly the code points Python's own test
    says yes of, every one of the 1 114 112 (a word character is a letter or a number, or `_`)."""
    import unicodedata
    from kb.search.analysis import combining_ranges, control_ranges, digit_ranges, word_ranges
    every = "".join(map(chr, range(0x110000)))
    for ranges, inside in ((word_ranges(), lambda ch: ch.isalnum() or ch == "_"),
                           (combining_ranges(), lambda ch: unicodedata.combining(ch) != 0),
                           (control_ranges(), lambda ch: unicodedata.category(ch)[0] == "C"),
                           (digit_ranges(), str.isdigit)):
        held = bytearray(0x110000)
        for first, last in ranges:
            held[first:last + 1] = b"\1" * (last - first + 1)
        assert [cp for cp, ch in enumerate(every) if bool(held[cp]) != inside(ch)] == []


def test_a_stream_of_new_words_does_not_grow_what_the_chains_remember(export):
    """A server reads every query's words through these chains; words never seen before (typos,
    random strings) must not make it grow for good, while the corpus's own words stay remembered."""
    import gc
    import sys
    vocabulary = {w.lower() for _, text in corpus_texts(export) for w in re.findall(r"\w+", text)}
    assert len(vocabulary) < WORDS_KEPT / 1.5   # the texts' words fit, with room for a day's queries
    stream = adversarial_words(WORDS_KEPT + WORDS_KEPT // 2, seed=5)

    def read(words):
        for word in words:
            for chain in CHAINS:
                terms(chain, word)
        gc.collect()
        return sys.getallocatedblocks()
    full = read(stream[:WORDS_KEPT])            # the chains full of words never seen before
    grown = read(stream[WORDS_KEPT:]) - full    # half as many more: at 65 536 words a chain, 95 000 blocks
    assert grown < 20_000, f"{grown} more memory blocks after {WORDS_KEPT // 2} more new words"
