"""A new edition and a new language arrive by manifest alone (issue 12's acceptance).

A second edition of the Italian Laws is made here from the 2017 text by rewording a few
clauses (phrases found in the text, each once); declared `edition_of` the 2017 Laws, it
builds, becomes the Italian edition a number jumps to, is linked to the 2017 clauses it
rewords, and its compare view against 2017 badges exactly the reworded clauses. A small
English text of a few Laws, written for this test in the plain layout (kb/parse/plain_laws.py),
builds and is searched through an English analyzer.
"""
import re
import shutil

import pytest
from fastapi.testclient import TestClient

from kb import build as builder
from kb.corpus import CORPUS_DIR
from kb.knowledge import KnowledgeBase
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
issuer = "made by tests/test_editions.py from the 2017 text"
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
issuer = "tests/test_editions.py"
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
    docs = [d["id"] for d in edition_kb.store.export["documents"]]
    assert docs[-1] == "it-laws-2027" and len(docs) == 6
    assert edition_kb.store.unit("it-laws-2027", "27")["title"] == edition_kb.store.unit("it-laws", "27")["title"]


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
    assert unit["title"] == "UNAUTHORISED INFORMATION"
    assert [c["id"] for c in unit["clauses"]] == ["16", "16A", "16A1", "16A1a", "16A1b", "16B", "16B1"]
    assert english_kb.store.unit("en-laws", "68")["clauses"][1]["text"].startswith("Any statement")


def test_an_english_text_is_searched_through_an_english_analyzer(english_kb):
    engine = english_kb.engine
    assert "en" in engine.langs
    assert engine.scorer.doc_frequency("body_en", stem_word("en", "concessions")) == 2  # unit and clause
    first = english_kb.search("unauthorised information").hits[0]
    assert (first.doc, first.unit) == ("en-laws", "16")
    assert english_kb.search("Law 68").jump["doc"] == "en-laws"  # the English word for a Law


def test_an_english_text_cites_its_laws_in_english(english_kb):
    cites = [(c["raw"], c["target"], c["resolved"]) for c in english_kb.store.outgoing("en-laws", "68")]
    assert ("Law 16A1", {"doc": "en-laws", "unit": "16", "clause": "16A1"}, True) in cites
