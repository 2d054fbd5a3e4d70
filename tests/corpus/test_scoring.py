"""The scorer over the index: approximate word lookup and bounded caches."""
import random

import pytest

from kb.pipeline import generations
from kb.search.engine import SearchEngine
from kb.search.scoring import NEAR_CACHE, edit_distance
from kb.search.tuning import TUNING

MAX_EXPANSIONS = TUNING.max_expansions


@pytest.mark.parametrize("typo, maxdist, expected", [
    ("sospenzione", 2, "sospensione"),
    ("dichiarente", 2, "dichiarante"),
    ("penalizata", 2, "penalizada"),
    ("surcontro", 1, "surcontra"),
    ("attaco", 1, "attacco"),
    ("arbitor", 1, "arbitro"),
    ("revoac", 2, "revoca"),  # adjacent letters swapped: one edit
])
def test_approximate_lookup_finds_the_word_meant(engine, typo, maxdist, expected):
    assert expected in engine.scorer.near(typo, maxdist)


def test_approximate_lookup_is_exactly_the_words_within_the_distance(engine):
    """The letter-count prefilter may only skip words that are too far: compared with
    the distance computed against every word of the vocabulary, on random typos."""
    vocabulary = engine.scorer.vocabulary
    rng = random.Random(11)
    for _ in range(300):
        word = list(rng.choice(vocabulary))
        for _ in range(rng.randint(0, 3)):
            i = rng.randrange(len(word))
            op = rng.choice("sidt")
            if op == "s":
                word[i] = rng.choice("aeiourstnlzñ")
            elif op == "i":
                word.insert(i, rng.choice("aeiourstnlzñ"))
            elif op == "d" and len(word) > 1:
                del word[i]
            elif op == "t" and i + 1 < len(word):
                word[i], word[i + 1] = word[i + 1], word[i]
        typo = "".join(word)
        for maxdist, prefix in ((1, 1), (2, 1), (2, 2)):
            every = sorted(w for w in vocabulary if w != typo and w[:prefix] == typo[:prefix]
                           and edit_distance(w, typo, maxdist) <= maxdist)
            assert engine.scorer.near(typo, maxdist, prefix) == every[:MAX_EXPANSIONS], typo


def test_random_words_do_not_grow_the_caches_past_the_model(build_dir):
    engine = SearchEngine.open(generations.generation(build_dir))
    rng = random.Random(7)
    for _ in range(300):
        word = "".join(rng.choice("abcdefghilmnopqrstuvz") for _ in range(rng.randint(3, 12)))
        engine.search(f"{word} carta {word[::-1]}")
    scorer = engine.scorer
    assert scorer._scored and all(term in scorer.fields[field].number for field, term in scorer._scored)
    assert len(scorer._near) <= NEAR_CACHE
