"""The whole knowledge base as exported (DESIGN §7) and checked."""
import copy
from collections import Counter

import pytest

from kb.pipeline import build as builder
from kb.pipeline import generations
from kb.pipeline.check import check, load_explained


def units_by_kind(export, doc_id):
    doc = next(d for d in export["documents"] if d["id"] == doc_id)
    return Counter(u["kind"] for u in doc["units"])


def test_unit_counts_per_document(export):
    assert units_by_kind(export, "it-laws")["article"] == 93
    assert units_by_kind(export, "it-laws")["definition"] == 63
    assert units_by_kind(export, "es-laws") == {"article": 93}
    assert units_by_kind(export, "it-norms")["norm"] == 28
    assert units_by_kind(export, "it-norms")["appendix"] == 7
    assert units_by_kind(export, "it-timeref") == {"topic": 39}
    assert units_by_kind(export, "it-burraco")["article"] in (40, 41)


def test_law_articles_are_1_to_93_in_order(export):
    for doc_id in ("it-laws", "es-laws"):
        doc = next(d for d in export["documents"] if d["id"] == doc_id)
        ids = [u["id"] for u in doc["units"] if u["kind"] == "article"]
        assert ids == [str(n) for n in range(1, 94)]


def test_timeref_topics_hold_all_178_entries(export):
    doc = next(d for d in export["documents"] if d["id"] == "it-timeref")
    entries = [c for u in doc["units"] for c in u["clauses"] if "ref" in c]
    assert len(entries) == 178
    assert sum(1 for c in entries if c["ref"] is None) == 3


def test_export_has_the_design_fields(export):
    assert set(export) >= {"documents", "citations"}
    for doc in export["documents"]:
        assert {"id", "title", "lang", "kind", "edition", "units"} <= set(doc)
        for unit in doc["units"]:
            assert {"id", "kind", "title", "clauses", "footnotes", "text"} <= set(unit)
            assert unit["clauses"], f"{doc['id']}/{unit['id']} has no clause"
            for c in unit["clauses"]:
                assert {"id", "parent", "label", "text"} <= set(c)


def test_the_real_corpus_passes_check(export):
    assert check(export, load_explained()) == []


def test_citations_have_the_design_fields(export):
    assert len(export["citations"]) > 1000
    for c in export["citations"]:
        assert {"source", "raw", "target", "kind", "resolved"} <= set(c)
        assert set(c["source"]) == {"doc", "unit", "clause"}
        assert c["kind"] in {"internal", "relative", "cross", "external", "integrates"}
        assert set(c["target"]) == ({"doc", "name"} if c["target"]["doc"] == "external" else {"doc", "unit", "clause"})


def test_check_reports_noise_gaps_duplicates_and_empty_units(export):
    bad = copy.deepcopy(export)
    laws = bad["documents"][0]
    art27 = next(u for u in laws["units"] if u["id"] == "27")
    art27["clauses"][1]["text"] += " **grassetto**"
    laws["units"] = [u for u in laws["units"] if u["id"] != "50"]
    art27["clauses"].append(dict(art27["clauses"][2]))
    art12 = next(u for u in laws["units"] if u["id"] == "12")
    for c in art12["clauses"]:
        c["text"], c["tables"] = "", []
    problems = "\n".join(check(bad))
    assert "it-laws/27#" in problems and "markdown bold" in problems
    assert "articles missing: 50" in problems
    assert "clause id used 2 times" in problems
    assert "it-laws/12: empty unit" in problems


@pytest.mark.slow  # a second whole build
def test_two_builds_are_byte_identical(tmp_path, build_dir):
    second = builder.build(tmp_path)
    assert second.read_bytes() == generations.export_path(build_dir).read_bytes()
