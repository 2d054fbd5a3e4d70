"""Search quality on the judged queries (tests/data/queries*.tsv and the blind tuning set): MRR@10, recall@10."""
from pathlib import Path

import pytest

from measure.evaluation import judged_queries, search_scores, summarize

MRR, RECALL = 0.90, 0.90  # the gate of issue 13 on the gated sets A and B


def test_mrr_and_recall_at_10(engine):
    summary = summarize(search_scores(engine, judged_queries()))
    for kind, s in sorted(summary.items()):
        print(f"{kind:15} n={s['n']:3} MRR@10={s['mrr']:.3f} recall@10={s['recall']:.3f}")
    assert summary["all"]["mrr"] >= MRR
    assert summary["all"]["recall"] >= RECALL




JUDGED = Path(__file__).resolve().parents[2] / "measure" / "judged"
# The blind sets issue 13 tuned on, D, E, F and G, held from going back a little below where they
# stand; sets C and H stay out of every quality test: they are held out.
FLOORS = {
    "tuning": {"all": 0.87, "situation": 0.82, "english": 0.93, "phone": 0.92, "study": 0.75, "citation": 0.98},
    "fresh": {"all": 0.87, "situation": 0.83, "phone": 0.92, "study": 0.87},
    "blind-f": {"all": 0.88, "situation": 0.85, "phone": 0.94, "study": 0.87},
    "blind-g": {"all": 0.88, "situation": 0.84, "phone": 0.92, "study": 0.90},
}


@pytest.mark.parametrize("folder", sorted(FLOORS))
def test_the_blind_tuning_sets_keep_their_floors(engine, folder):
    """Situations told in it/es/en, English terms, phone typing, study questions, citation
    forms: what the phrasebook and the citation grammar reached, held from going back."""
    summary = summarize(search_scores(engine, judged_queries(JUDGED / folder)))
    for kind, s in sorted(summary.items()):
        print(f"{kind:15} n={s['n']:3} MRR@10={s['mrr']:.3f}")
    floors = FLOORS[folder]
    assert {k: round(summary[k]["mrr"], 3) for k in floors if summary[k]["mrr"] < floors[k]} == {}
