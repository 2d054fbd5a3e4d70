"""The built records readers get (kb.records.built): the export read back whole, frozen, and one rule
for what a clause is called, which the pages, the search hits and the study cards all follow."""
from __future__ import annotations

import json
from dataclasses import FrozenInstanceError

import pytest

from kb.records.built import BuiltDocument
from kb.records.citation import Citation
from kb.records.store import Store


@pytest.fixture(scope="module")
def store(export):
    return Store(export)


def test_every_document_reads_back_to_the_export_as_written(export):
    """The records' JSON is the export's, key for key and in its order: /api/units and the release
    write what the build wrote."""
    for d in export["documents"]:
        assert json.dumps(BuiltDocument.from_dict(d).to_dict(), ensure_ascii=False) == json.dumps(d, ensure_ascii=False)


def test_every_citation_reads_back_to_the_export_as_written(export):
    assert [Citation.from_dict(c).to_dict() for c in export["citations"]] == export["citations"]


def test_a_record_cannot_be_changed_by_a_reader(store):
    unit = store.unit("it-laws", "27")
    with pytest.raises(FrozenInstanceError):
        unit.title = "another"
    with pytest.raises(TypeError):
        store.unit("it-timeref", "appello").clause("appello-1").extra["ref"] = "93"


@pytest.mark.parametrize("doc, unit, clause, heading", [
    ("it-laws", "27", "27B1b", "27B1(b)"),                 # a Law clause: its number
    ("es-laws", "12", "12A1", "12A1"),
    ("it-laws", "27", "27", ""),                            # the unit's own clause: the page's heading names it
    ("it-timeref", "appello", "appello-1", "92B"),          # a time reference: the Law as the table writes it
    ("it-timeref", "licitazione", "licitazione-2", "—"),    # an entry that names no Law
    ("it-norms", "8", "8-1a", "a)"),                        # a norm's paragraph: its own label
    ("it-norms", "sistemi", "sistemi-2.3-verde", ""),       # a term clause ("Verde"): shown by its title alone
    ("it-burraco", "5", "5-p2", ""),                        # a closing paragraph: no label of its own
])
def test_what_a_clause_is_called_where_its_unit_is_shown(store, doc, unit, clause, heading):
    u = store.unit(doc, unit)
    assert u.heading(u.clause(clause)) == heading


def test_a_search_hit_names_its_clause_as_the_page_does(engine, store):
    """The one rule: every clause a hit can show is called by the search model what its unit calls
    it (a unit's own clause by the unit's number or title)."""
    model, wrong = engine.model, []
    for (u, cid), (_, label, _, _) in model.cards.items():
        doc, uid = model.units[u]
        unit = store.unit(doc, uid)
        clause = unit.clause(cid)
        expected = (unit.label or unit.title or unit.id) if clause.id == unit.id else (unit.number(clause) or clause.id)
        if label != expected:
            wrong.append((doc, uid, clause.id, label, expected))
    assert wrong == [] and len(model.cards) > 2000


def test_the_store_hands_out_records_for_what_a_reader_asks(store):
    assert store.unit("it-laws", "27").title == "LICITA INSUFFICIENTE"
    assert store.doc("it-laws").units[0].doc == "it-laws"
    cited = [c for c in store.outgoing("it-timeref", "appello") if c.where == "ref"]
    assert cited and all(isinstance(c, Citation) for c in cited)
    assert any(t.doc == "it-laws" for c in cited for t in c.reached())  # 2007's 92B, read in 2017 too
