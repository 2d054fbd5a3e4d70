"""Search quality on the judged queries (tests/data/queries*.tsv): MRR@10 and recall@10."""
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


