"""Unit ranking rules (kb/search/ranking.py), on small hand-made score vectors."""
import numpy as np
import pytest

from kb.corpus.library import Entry, Library
from kb.search.ranking import UnitRanker, layout
from kb.search.tuning import TUNING

INTENT_BOOST, PARALLEL_LIFT = TUNING.intent_boost, TUNING.parallel_lift
SECOND_CLAUSE_WEIGHT, UNIT_WEIGHT = TUNING.second_clause_weight, TUNING.unit_weight

# index documents by number: clauses of Law 12 in both editions, a whole-unit document,
# a time-reference entry and a norm
KEYS = [("it-laws", "12", "12A1"), ("it-laws", "12", "12A2"), ("it-laws", "12", "12B"), ("it-laws", "12", "12C"),
        ("it-laws", "12", "*"), ("es-laws", "12", "12A1"), ("it-timeref", "t1", "t1-1"),
        ("it-norms", "40", "40-1")]
KINDS = {("it-laws", "12"): "article", ("it-laws", "13"): "article", ("es-laws", "12"): "article",
         ("it-timeref", "t1"): "topic", ("it-norms", "40"): "norm"}
LIBRARY = Library((Entry("it-laws", "it", "laws", "2017", concordances=(("es-laws", "concordance.tsv"),)),
                   Entry("es-laws", "es", "laws", "2007"),
                   Entry("it-timeref", "it", "timeref", "2011"), Entry("it-norms", "it", "norms", "2026")))
LIFTS = {("it-timeref", "t1", "t1-1"): [("it-laws", "13", "13A")]}


@pytest.fixture
def ranker():
    return UnitRanker(layout(KEYS, KINDS, LIBRARY, LIFTS), TUNING)


def vector(**by_position):
    v = np.zeros(len(KEYS))
    for pos, score in by_position.items():
        v[int(pos[1:])] = score
    return v


def as_dict(ranked):
    return {key: (clause, round(score, 6)) for key, (clause, score) in ranked}


def test_a_unit_scores_its_best_clause_plus_a_little_of_the_next_two_and_its_whole_text(ranker):
    got = as_dict(ranker.rank(vector(p0=2.0, p1=5.0, p2=1.0, p3=0.5, p4=3.0)))
    assert got[("it-laws", "12")] == ("12A2", round(5.0 + SECOND_CLAUSE_WEIGHT * (2.0 + 1.0) + UNIT_WEIGHT * 3.0, 6))


def test_equal_clauses_break_ties_by_clause_id(ranker):
    assert as_dict(ranker.rank(vector(p2=1.0, p1=1.0)))[("it-laws", "12")][0] == "12A2"


def test_an_entry_lifts_the_law_it_annotates_and_the_law_lifts_its_other_edition(ranker):
    got = as_dict(ranker.rank(vector(p6=4.0)))
    assert got[("it-laws", "13")][0] == "13A"  # found only through the time-reference entry
    assert ("es-laws", "12") not in got
    got = as_dict(ranker.rank(vector(p0=10.0)))
    assert got[("es-laws", "12")] == ("12", round(PARALLEL_LIFT * 10.0, 6))  # no clause of its own matched


def test_weights_put_the_users_language_first_and_a_norm_before_a_law_it_integrates(ranker):
    """A FIGB norm that matches as well as a Law comes first (it gives the ruling in Italy);
    a time-reference topic comes after both."""
    scores = vector(p0=1.0, p5=1.0)
    assert ranker.rank(scores, prefer=("es", 3.0))[0][0] == ("es-laws", "12")
    assert ranker.rank(scores, prefer=("it", 3.0))[0][0] == ("it-laws", "12")
    norm_and_topic = vector(p6=1.0, p7=1.0)
    assert [k for k, _ in ranker.rank(norm_and_topic)] == [("it-norms", "40"), ("it-laws", "13"), ("it-timeref", "t1")]
    plain, timing = (as_dict(ranker.rank(norm_and_topic, intent=i)) for i in (None, "timing"))
    assert timing[("it-timeref", "t1")][1] == pytest.approx(INTENT_BOOST["timing"][1] * plain[("it-timeref", "t1")][1])
    assert timing[("it-norms", "40")] == plain[("it-norms", "40")]


def test_a_question_after_the_federations_rules_reads_its_norms_first(ranker):
    """"…under FIGB rules": a norm that matches a little worse than the Law comes first."""
    law_and_norm = vector(p6=2.0, p7=1.2)  # Law 13 through its time-reference entry; the norm
    assert [k for k, _ in ranker.rank(law_and_norm)][0] == ("it-laws", "13")
    assert [k for k, _ in ranker.rank(law_and_norm, intent="federation")][0] == ("it-norms", "40")


def test_pinned_clauses_lead_in_their_order(ranker):
    ranked = ranker.rank(vector(p0=9.0), pinned=[("es-laws", "12", "12A1"), ("it-norms", "40", "40-1")])
    assert [k for k, _ in ranked][:3] == [("es-laws", "12"), ("it-norms", "40"), ("it-laws", "12")]
    assert len({k for k, _ in ranked}) == len(ranked)


def test_a_question_of_meaning_reads_the_laws_wording_before_the_norm(ranker):
    """"Cos'è una chiamata paragonabile": the Law that defines it before the norm that applies
    it (which otherwise comes first when it matches as well), even when the norm matches a
    little better."""
    norm_and_law = vector(p6=1.0, p7=1.1)
    assert [k for k, _ in ranker.rank(norm_and_law)][0] == ("it-norms", "40")
    assert [k for k, _ in ranker.rank(norm_and_law, intent="definition")][0] == ("it-laws", "13")
