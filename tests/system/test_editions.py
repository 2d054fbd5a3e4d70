"""A new edition and a new language arrive by manifest alone (issue 12's acceptance).

A second edition of the Italian Laws is made here from the 2017 text by rewording a few
clauses (phrases found in the text, each once); declared `edition_of` the 2017 Laws, it
builds, becomes the Italian edition a number jumps to, is linked to the 2017 clauses it
rewords, and its compare view against 2017 badges exactly the reworded clauses. A small
English text of a few Laws, written for this test in the plain layout (kb/parse/plain_laws.py),
builds and is searched through an English analyzer. A renumbered English edition of three Laws
(tests/data/edition-2027: made up, in the WBF's print shape) arrives with its own concordance
with the Italian 2017 Laws: its compare rows and changes are that table's, and a 2007 reference
reaches it through both concordances.
"""
import csv
import re
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kb.pipeline import build as builder
from kb.corpus.manifest import CORPUS_DIR
from kb.readmodel.knowledge import KnowledgeBase
from kb.records.citation import Target
from kb.search.analysis import stem_word
from web.app import create_app

pytestmark = pytest.mark.slow

# clause → (a phrase of its text in the 2017 source, found there once; the 2027 wording)
REWORDED = {
    "12C1e": ("Se, in conseguenza di una irregolarità, il partito", "Se, a causa di una irregolarità, il partito"),
    "16B1a": ("Un giocatore non può scegliere una chiamata o una ", "Un giocatore non deve scegliere una chiamata o una "),
    "27B1a": ("Se la licita insufficiente viene rimpiazzata al mi", "Se la licita insufficiente è sostituita al mi"),
    "73C1": ("Quando un giocatore abbia disponibili dal compagno", "Quando un giocatore riceva dal compagno"),
}

NEW_EDITION = """
[[document]]
id = "it-laws-2027"
title = "Codice Internazionale del Bridge Duplicato 2027 (prova)"
issuer = "made by tests/system/test_editions.py from the 2017 text"
lang = "it"
kind = "laws"
edition = "2027"
short = "I7"
edition_of = "it-laws"
source = "it-laws-2027.txt"
original = "it-laws-2017.txt"
profile = "it_laws"
"""

ENGLISH = """
[[document]]
id = "en-laws"
title = "Laws of Duplicate Bridge (a few Laws, for a test)"
issuer = "tests/system/test_editions.py"
lang = "en"
kind = "laws"
edition = "2017"
short = "EN"
source = "en-laws.txt"
original = "en-laws.txt"
profile = "plain_laws"
"""

ENGLISH_TEXT = """A few Laws, in the plain layout.

LAW 16 – UNAUTHORISED INFORMATION
A. Players' Use of Information
1. A player may use information in the auction or play if:
(a) it derives from legal calls and plays in the current board; or
(b) it is authorised information from a withdrawn action.
B. Extraneous Information from Partner
1. A player may not choose from among logical alternatives one suggested by extraneous information.

LAW 68 – CLAIM OR CONCESSION OF TRICKS
A. Claim Defined
Any statement to the effect that a contestant will win a specific number of tricks is a claim of those tricks.
B. Concession Defined
1. Any statement to the effect that a contestant will lose a specific number of tricks is a concession
(but see Law 16A1).
"""


def corpus_with(tmp_path, entries: str, files: dict[str, str]):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR, corpus)
    for name, text in files.items():
        (corpus / name).parent.mkdir(parents=True, exist_ok=True)
        (corpus / name).write_text(text, encoding="utf-8")
    manifest = corpus / "manifest.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8") + entries, encoding="utf-8")
    return corpus


@pytest.fixture(scope="module")
def edition_build(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("edition")
    text = (CORPUS_DIR / "it-laws-2017.txt").read_text(encoding="utf-8")
    for old, new in REWORDED.values():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    corpus = corpus_with(tmp, NEW_EDITION, {"it-laws-2027.txt": text})
    builder.build(tmp / "build", corpus)
    return tmp / "build"


@pytest.fixture(scope="module")
def edition_kb(edition_build):
    return KnowledgeBase.open(edition_build)


@pytest.fixture(scope="module")
def edition_site(edition_build):
    return TestClient(create_app(edition_build))


def test_the_new_edition_builds_beside_the_five(edition_kb):
    docs = list(edition_kb.store.documents)
    assert docs[-1] == "it-laws-2027" and len(docs) == 6
    assert edition_kb.store.unit("it-laws-2027", "27").title == edition_kb.store.unit("it-laws", "27").title


def test_a_number_jumps_to_the_italian_edition_in_force(edition_kb):
    assert edition_kb.search("27B1", ui="it").jump["doc"] == "it-laws-2027"
    assert edition_kb.search("articolo 27").jump["doc"] == "it-laws-2027"
    assert edition_kb.search("artículo 27").jump["doc"] == "es-laws"
    assert edition_kb.search("27B1", doc="it-laws").jump["doc"] == "it-laws"  # the older one, when asked by name


def test_the_editions_are_linked_where_the_text_changed(edition_kb):
    links = edition_kb.parallels("it-laws-2027", "27")
    assert {(p.clause, p.doc, p.target, p.relation) for p in links} == {
        ("27", "it-laws", "27", "changed"), ("27B1a", "it-laws", "27B1a", "changed")}
    untouched = edition_kb.parallels("it-laws-2027", "28")
    assert [(p.clause, p.relation) for p in untouched] == [("28", "same")]
    older = {p.doc for p in edition_kb.parallels("it-laws", "27")}
    assert older == {"es-laws", "it-laws-2027"}  # the concordance's pair still there


def test_a_search_hit_carries_its_link_to_the_2017_clause(edition_kb):
    hits = {h.unit: h for h in edition_kb.search("irregolarità partito", doc="it-laws-2027").hits}
    assert hits["12"].parallel[0]["doc"] == "it-laws"
    assert [(p.target, p.relation) for p in edition_kb.editions.of_clause("it-laws-2027", "12C1e")] == [
        ("12C1e", "changed")]
    assert [(p.target, p.relation) for p in edition_kb.editions.of_clause("it-laws-2027", "9C")] == [("9", "same")]


def compare_rows(client, n: int) -> list[tuple[str, str, str]]:
    page = client.get(f"/compare/{n}?older=it-laws&newer=it-laws-2027")
    assert page.status_code == 200
    return re.findall(r'data-2027="([^"]*)" data-2017="([^"]*)" data-relation="([^"]*)"', page.text)


def test_the_compare_view_between_the_italian_editions_badges_exactly_the_reworded_clauses(edition_site, edition_kb):
    laws = next(d for d in edition_kb.store.export["documents"] if d["id"] == "it-laws")
    readable = {c["id"] for u in laws["units"] if u["kind"] == "article" for c in u["clauses"]
                if c["text"].strip() or c.get("title") or c.get("tables") or c.get("notes")}
    changed, rows = set(), 0
    for n in range(1, 94):
        for new, old, relation in compare_rows(edition_site, n):
            rows += 1
            assert relation in ("same", "changed") and new == old, (n, new, old, relation)
            if relation == "changed":
                changed.add(new)
    assert changed == set(REWORDED) and rows == len(readable)  # every clause with something to read, once


def test_the_changes_between_the_italian_editions_are_exactly_the_reworded_clauses(edition_site):
    got = edition_site.get("/api/changes", params={"older": "it-laws", "newer": "it-laws-2027"}).json()
    assert {(c["older"], c["newer"], c["relation"]) for c in got["changes"]} == {
        (cid, cid, "changed") for cid in REWORDED}
    assert got["summary"] == {"changed": len(REWORDED)}


def test_the_compare_pages_of_both_pairs_are_offered_and_walked(edition_site):
    unit = edition_site.get("/it-laws/27").text
    assert 'href="/compare/27"' in unit and 'href="/compare/27?older=it-laws&amp;newer=it-laws-2027"' in unit
    page = edition_site.get("/compare/27?older=it-laws&newer=it-laws-2027").text
    assert 'rel="next" href="/compare/28?older=it-laws&amp;newer=it-laws-2027"' in page
    assert "Italiano 2027" in page and "Italiano 2017" in page
    assert 'data-it="27B1a" data-es="27B1a"' in edition_site.get("/compare/27").text  # the concordance's pair
    wrong = edition_site.get("/compare/27?older=it-laws-2027&newer=it-laws")
    assert wrong.status_code == 404 and "older=it-laws&amp;newer=it-laws-2027" in wrong.text


@pytest.fixture(scope="module")
def english_kb(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("english")
    corpus = corpus_with(tmp, ENGLISH, {"en-laws.txt": ENGLISH_TEXT})
    builder.build(tmp / "build", corpus)
    return KnowledgeBase.open(tmp / "build")


def test_an_english_text_builds_into_its_laws_and_clauses(english_kb):
    unit = english_kb.store.unit("en-laws", "16")
    assert unit.title == "UNAUTHORISED INFORMATION"
    assert [c.id for c in unit.clauses] == ["16", "16A", "16A1", "16A1a", "16A1b", "16B", "16B1"]
    assert english_kb.store.unit("en-laws", "68").clauses[1].text.startswith("Any statement")


def test_an_english_text_is_searched_through_an_english_analyzer(english_kb):
    engine = english_kb.engine
    assert "en" in engine.langs
    assert engine.scorer.doc_frequency("body_en", stem_word("en", "concessions")) == 2  # unit and clause
    first = english_kb.search("unauthorised information").hits[0]
    assert (first.doc, first.unit) == ("en-laws", "16")
    assert english_kb.search("Law 68").jump["doc"] == "en-laws"  # the English word for a Law


def test_an_english_text_cites_its_laws_in_english(english_kb):
    cites = [(c.raw, c.target, c.resolved) for c in english_kb.store.outgoing("en-laws", "68")]
    assert ("Law 16A1", Target("en-laws", "16", "16A1"), True) in cites


# ------------------------------------------------------------------ a renumbered English edition, by its concordance

EDITION = Path(__file__).resolve().parents[1] / "data" / "edition-2027"
NEW_PAIR = {"older": "it-laws", "newer": "en-laws-2027"}


def tsv(path: Path) -> list[dict[str, str]]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


TABLE = tsv(EDITION / "concordance-2017-2027.tsv")
TABLE_NOTES = {(r["older"], r["newer"]): r["note"] for r in tsv(EDITION / "notes" / "en" / "concordance-2017-2027.tsv")}


@pytest.fixture(scope="module")
def renumbered(tmp_path_factory):
    """The built-in corpus and the edition's files: its text, its manifest entry, its concordance and
    that table's English notes (no code, no profile: the plain layout reads the WBF's print)."""
    tmp = tmp_path_factory.mktemp("renumbered")
    files = {str(p.relative_to(EDITION)): p.read_text(encoding="utf-8") for p in EDITION.rglob("*")
             if p.is_file() and p.name != "manifest.toml"}
    corpus = corpus_with(tmp, (EDITION / "manifest.toml").read_text(encoding="utf-8"), files)
    builder.build(tmp / "build", corpus)
    return KnowledgeBase.open(tmp / "build"), TestClient(create_app(tmp / "build"))


def clause_ids(kb, doc: str, n: str) -> set[str]:
    """The clauses of Law n that have something to read (what a compare page shows)."""
    return {c.id for c in kb.store.unit(doc, n).clauses if c.text.strip() or c.title or c.tables or c.notes}


def test_the_renumbered_edition_builds_paired_by_its_own_concordance(renumbered):
    kb, _ = renumbered
    assert [(p.older, p.newer, p.table) for p in kb.library.pairs] == [
        ("es-laws", "it-laws", "concordance.tsv"), ("it-laws", "en-laws-2027", "concordance-2017-2027.tsv")]
    assert [c.id for c in kb.store.unit("en-laws-2027", "16").clauses][:8] == [
        "16", "16A", "16A1", "16A1a", "16A1b", "16A1c", "16A1d", "16A2"]
    assert kb.library.laws_in_force == "en-laws-2027"


@pytest.mark.parametrize("n", ["16", "68", "74"])
def test_its_compare_rows_are_its_concordances(renumbered, n):
    """Each row its table names has the table's relation (a moved clause is moved, not removed and
    new); the rest are sub-clauses a `same` row carries by identical sub-ids, or new under a new row;
    every clause of both editions is in the view, and nothing is removed."""
    kb, client = renumbered
    rows = client.get(f"/api/compare/{n}", params=NEW_PAIR).json()["rows"]
    named = {(r["older"], r["newer"]): r["relation"] for r in TABLE}
    same = {r["older"] for r in TABLE if r["relation"] == "same"}
    for r in rows:
        pair = (r["older"] or "", r["newer"] or "")
        if pair in named:
            assert r["relation"] == named[pair], pair
        elif r["older"]:
            assert r["older"] == r["newer"] and r["relation"] == "same", pair
            assert any(r["older"].startswith(older) for older in same), pair  # under a `same` row
        else:
            assert r["relation"] == "new-in-2027" and any(r["newer"].startswith(k[1]) for k, rel in named.items()
                                                            if rel == "new-in-2027"), pair
    assert {r["older"] for r in rows if r["older"]} == clause_ids(kb, "it-laws", n)
    assert {r["newer"] for r in rows if r["newer"]} == clause_ids(kb, "en-laws-2027", n)
    assert not [r for r in rows if r["relation"].startswith("removed")]


def test_a_moved_section_is_moved_beside_its_new_number(renumbered):
    """2017's 16B (partner's extraneous information) is 2027's 16C; paired by identical ids it would
    stand beside 2027's 16B (information from other sources) as a change."""
    _, client = renumbered
    rows = {(r["newer"], r["older"]): r["relation"] for r in client.get("/api/compare/16", params=NEW_PAIR).json()["rows"]}
    assert rows[("16C1", "16B1")] == rows[("16B1", "16D1")] == rows[("16D1", "16C1")] == "moved"
    assert ("16B1", "16B1") not in rows
    page = client.get("/compare/16", params={**NEW_PAIR, "ui": "it"}).text
    assert 'data-en="16C1" data-it="16B1" data-relation="moved"' in page
    assert '<span class="note" lang="en">Extraneous information from partner: 2017&#39;s B is 2027&#39;s C' in page


def test_its_changes_are_its_concordances_rows_that_are_not_same(renumbered):
    _, client = renumbered
    got = client.get("/api/changes", params=NEW_PAIR).json()
    expected = [(r["older"] or None, r["newer"] or None, r["relation"], TABLE_NOTES[(r["older"], r["newer"])])
                for r in TABLE if r["relation"] != "same"]
    assert [(c["older"], c["newer"], c["relation"], c["note"]) for c in got["changes"]] == expected
    assert got["summary"] == {"moved": 18, "split": 2, "merged": 5, "changed": 2, "new-in-2027": 2}
    built_in = tsv(CORPUS_DIR / "concordance.tsv")
    assert len(client.get("/api/changes").json()["changes"]) == sum(r["relation"] != "same" for r in built_in)


def test_a_2007_reference_reaches_the_2027_clause_through_both_concordances(renumbered):
    """A time reference cites 2007's 16C2: 2017's 16D2 (corpus/concordance.tsv), 2027's 16B2 (its table)."""
    kb, _ = renumbered
    to_2017 = {r["older"]: r["newer"] for r in tsv(CORPUS_DIR / "concordance.tsv")}["16C2"]
    to_2027 = {r["older"]: r["newer"] for r in TABLE}[to_2017]
    cited = [c for c in kb.store.export["citations"]
             if c["source"]["doc"] == "it-timeref" and c["target"] == {"doc": "es-laws", "unit": "16", "clause": "16C2"}]
    assert cited and all(c["target_2017"] == {"doc": "it-laws", "unit": "16", "clause": to_2017} for c in cited)
    assert all(c["target_in_force"] == {"doc": "en-laws-2027", "unit": "16", "clause": to_2027} for c in cited)


def test_the_new_editions_unit_page_leads_to_its_compare_page(renumbered):
    _, client = renumbered
    page = client.get("/en-laws-2027/16").text
    assert 'href="/compare/16?older=it-laws&amp;newer=en-laws-2027"' in page


def test_an_edition_in_another_language_cannot_pair_by_identical_ids(tmp_path):
    """What made the compare view nonsense (19 clauses of Law 16 'removed'): now a one-line error."""
    from kb.corpus.manifest import CorpusError, load_manifest
    entry = (EDITION / "manifest.toml").read_text(encoding="utf-8").replace(
        'concordances = { "it-laws" = "concordance-2017-2027.tsv" }', 'edition_of = "it-laws"')
    corpus = corpus_with(tmp_path, entry, {"en-laws-2027.txt": (EDITION / "en-laws-2027.txt").read_text(encoding="utf-8")})
    with pytest.raises(CorpusError, match=r"en-laws-2027: edition_of pairs clauses by identical ids, in one language only"):
        load_manifest(corpus)
