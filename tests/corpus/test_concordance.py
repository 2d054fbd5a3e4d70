"""The curated 2007 ↔ 2017 concordance and reference corrections (corpus/*.tsv)."""
import re

import pytest

from kb.editions.concordance import COLUMNS, RELATIONS, Concordance, ancestors, load_corrections
from kb.corpus.manifest import CorpusError

CONCORDANCE = Concordance.load()


def law_clause_ids(export, doc_id):
    doc = next(d for d in export["documents"] if d["id"] == doc_id)
    return {c["id"] for u in doc["units"] if u["kind"] == "article" for c in u["clauses"]}


def sections(ids):
    return {i for i in ids if re.fullmatch(r"\d+[A-Z]?", i)}


def test_every_id_exists_in_its_edition(export):
    es, it = law_clause_ids(export, "es-laws"), law_clause_ids(export, "it-laws")
    assert [r.older for r in CONCORDANCE.rows if r.older and r.older not in es] == []
    assert [r.newer for r in CONCORDANCE.rows if r.newer and r.newer not in it] == []


@pytest.mark.parametrize("doc, side", [("es-laws", "older"), ("it-laws", "newer")])
def test_every_article_and_section_is_covered(export, doc, side):
    covered = {a for r in CONCORDANCE.rows if getattr(r, side) for a in ancestors(getattr(r, side))}
    assert sections(law_clause_ids(export, doc)) - covered == set()


def test_relations_and_notes():
    assert {r.relation for r in CONCORDANCE.rows} <= set(RELATIONS)
    assert [r for r in CONCORDANCE.rows if r.relation != "same" and not r.note] == []
    assert all(r.older or r.relation == "new-in-2017" for r in CONCORDANCE.rows)
    assert all(r.newer or r.relation == "removed-in-2017" for r in CONCORDANCE.rows)


@pytest.mark.parametrize("es, it, relation", [
    ("23", "72C", "moved"),        # awareness of potential damage
    ("17D", "15A", "moved"),       # cards from another board
    ("22B1", "17D1", "moved"),
    ("16C", "16D", "moved"),       # the 16C/D swap
    ("16D", "16C", "moved"),
    ("86A", "12C2b", None),        # ±3 IMP adjustment moved to Law 12
    ("53B", "53C", "moved"),
])
def test_known_moves(es, it, relation):
    rows = [r for r in CONCORDANCE.by_older[es] if r.newer == it]
    assert rows, f"no row {es} → {it}"
    if relation:
        assert rows[0].relation == relation


def test_sub_clauses_follow_their_section_by_identical_ids(export):
    from kb.editions.concordance import load_concordances
    from kb.corpus.manifest import CORPUS_DIR, load_documents
    from kb.corpus.library import Library
    from kb.citations.resolve import Lookups
    documents = load_documents()
    look = Lookups(documents, load_concordances(CORPUS_DIR, Library.of(documents)))
    assert look.to_2017("20F5b").clause == "20F5b"   # same section, same sub-id
    assert look.to_2017("16C2").clause == "16D2"     # moved section keeps its sub-id
    assert look.to_2017("12C1e") is None             # removed in 2017, not IT 12C1(e)


def test_corrections_name_real_clauses(export):
    es, it = law_clause_ids(export, "es-laws"), law_clause_ids(export, "it-laws")
    for c in load_corrections().values():
        assert c.reads_2007 in es and c.reads_2017 in it and c.note


def test_a_malformed_table_is_a_clear_error(tmp_path):
    bad = tmp_path / "concordance.tsv"
    bad.write_text("\t".join(COLUMNS) + "\n12A\t12A\tsimilar" + "\t" * (len(COLUMNS) - 3) + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="unknown relation 'similar'"):
        Concordance.load(bad)
    bad.write_text("es\tit\n12A\t12A\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="header"):
        Concordance.load(bad)
