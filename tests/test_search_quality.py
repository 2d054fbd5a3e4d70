"""Search quality on the judged queries (tests/data/queries*.tsv and the blind tuning set): MRR@10, recall@10."""
from pathlib import Path

import pytest

from measure.evaluation import judged_queries, search_scores, summarize
from kb import generations
from kb.search.engine import SearchEngine
from kb.store import Store

MRR, RECALL = 0.85, 0.90


@pytest.fixture(scope="module")
def engine(build_dir, export):
    return SearchEngine.open(generations.generation(build_dir), Store(export))


def test_mrr_and_recall_at_10(engine):
    summary = summarize(search_scores(engine, judged_queries()))
    for kind, s in sorted(summary.items()):
        print(f"{kind:15} n={s['n']:3} MRR@10={s['mrr']:.3f} recall@10={s['recall']:.3f}")
    assert summary["all"]["mrr"] >= MRR
    assert summary["all"]["recall"] >= RECALL




TUNING = Path(__file__).resolve().parents[1] / "measure" / "judged" / "tuning"
# Blind set D (the set issue 13 tuned on; set C stays out of every test: it is held out).
FLOORS = {"all": 0.80, "situation": 0.65, "english": 0.85, "phone": 0.80, "study": 0.75, "citation": 0.95}


def test_the_blind_tuning_set_keeps_its_floors(engine):
    """Situations told in it/es/en, English terms, phone typing, study questions, citation
    forms: what the phrasebook and the citation grammar reached, held from going back."""
    summary = summarize(search_scores(engine, judged_queries(TUNING)))
    for kind, s in sorted(summary.items()):
        print(f"{kind:15} n={s['n']:3} MRR@10={s['mrr']:.3f}")
    assert {k: round(summary[k]["mrr"], 3) for k in FLOORS if summary[k]["mrr"] < FLOORS[k]} == {}
