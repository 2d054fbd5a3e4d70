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


def clause_json(export, doc, unit, clause):
    d = next(d for d in export["documents"] if d["id"] == doc)
    return next(c for u in d["units"] if u["id"] == unit for c in u["clauses"] if c["id"] == clause)


def test_a_clause_carries_its_note_and_its_table_as_the_text_prints_them(export):
    """The export's clauses are written through the records, so they are checked against the texts:
    ES 12C1(c) ends "(Nota: La AEB sí lo prohíbe)." after its one paragraph; IT Law 2 prints the
    dealers' table after its second paragraph, "Distributore Nord | Board | 1 | 5 | 9 | 13" first."""
    note = clause_json(export, "es-laws", "12", "12C1c")
    assert note["label"] == "(c)" and note["text"].endswith("resultados potenciales.")
    assert note["notes"] == [{"kind": "national-note", "text": "La AEB sí lo prohíbe", "at": 1}]
    [table] = clause_json(export, "it-laws", "2", "2")["tables"]
    assert table["at"] == 2 and table["rows"][0] == ["Distributore Nord", "Board", "1", "5", "9", "13"]
    assert [r[0] for r in table["rows"][:4]] == ["Distributore Nord", "Distributore Est", "Distributore Sud",
                                                 "Distributore Ovest"]


def test_every_citation_reads_back_to_the_export_as_written(export):
    assert [Citation.from_dict(c).to_dict() for c in export["citations"]] == export["citations"]


def test_a_record_cannot_be_changed_by_a_reader(store, export):
    """Nor through what it holds: its profile's fields all the way down, its citations."""
    unit = store.unit("it-laws", "27")
    with pytest.raises(FrozenInstanceError):
        unit.title = "another"
    with pytest.raises(TypeError):
        store.unit("it-timeref", "appello").clause("appello-1").extra["ref"] = "93"
    concordances = store.doc("it-laws").extra["concordances"]
    with pytest.raises(TypeError):
        concordances["another"] = "concordance.tsv"
    with pytest.raises(AttributeError):
        store.unit("it-norms", "8").extra["law"].append("9")
    with pytest.raises(AttributeError):
        store.outgoing("it-laws", "27").clear()
    written = next(d for d in export["documents"] if d["id"] == "it-laws")
    assert store.doc("it-laws").to_dict()["concordances"] == written["concordances"]  # its JSON, the export's


def test_a_record_can_be_a_key(store):
    """Frozen records hash: a set of clauses, a clause as a dictionary key."""
    clauses = store.unit("it-laws", "27").clauses
    assert len(set(clauses)) == len(clauses) and {clauses[0]: 1}[clauses[0]] == 1


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


@pytest.mark.parametrize("doc, unit, clause, label", [
    ("it-laws", "27", "27B1b", "27B1(b)"), ("it-laws", "27", "27", "27"),
    ("it-timeref", "appello", "appello-1", "92B"), ("it-timeref", "licitazione", "licitazione-2", "—"),
    ("it-norms", "8", "8-1a", "a)"),
])
def test_a_search_hit_calls_a_clause(engine, doc, unit, clause, label):
    model = engine.model
    number = next(n for n, u in enumerate(model.units) if tuple(u) == (doc, unit))
    assert model.cards[(number, clause)][1] == label


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
