"""The cross-reference graph and the queries the web and CLI need."""
import re

import pytest

from kb.records.store import Store
from kb.editions.concordance import load_concordances
from kb.corpus.manifest import CORPUS_DIR
from kb.editions.pairs import Editions
from kb.corpus.library import Library
from kb.pipeline.graph import build_graph, cited_by, citation_path, links, most_cited, neighbourhood, term_pattern


@pytest.fixture(scope="module")
def graph(export):
    library = Library.of(export["documents"])
    store = Store(export)
    return build_graph(store, Editions(library, load_concordances(CORPUS_DIR, library), store.documents.values()))


def test_typed_edges(graph):
    types = {d["type"] for _, _, d in graph.edges(data=True)}
    assert types == {"part", "cites", "integrates", "annotates", "parallel", "defines"}


def test_cites_between_clauses(graph):
    assert ("it-laws:23#23A", "cites") in links(graph, "it-laws:27#27B1b")


def test_norm_paragraph_integrates_its_clause_and_norm_its_law(graph):
    assert ("it-laws:40#40A1b", "integrates") in links(graph, "it-norms:40#40-40A1b")
    assert ("it-laws:40", "integrates") in links(graph, "it-norms:40")
    assert ("it-laws:92", "integrates") in links(graph, "it-norms:92-93")
    assert ("it-laws:93", "integrates") in links(graph, "it-norms:92-93")


def test_time_reference_annotates_the_2017_clause(graph):
    # the entry citing 2007 22B1 annotates 2017 17D1, where that rule moved
    sources = [s for s, t in links(graph, "it-laws:17#17D1", incoming=True) if t == "annotates"]
    assert sources and all(s.startswith("it-timeref:") for s in sources)


def test_parallel_both_ways(graph):
    assert ("es-laws:23", "parallel") in links(graph, "it-laws:72#72C")
    assert ("it-laws:72#72C", "parallel") in links(graph, "es-laws:23")


@pytest.mark.parametrize("term, text", [
    ("Chiamata Artificiale", "una chiamata artificiale"),
    ("Chiamata Artificiale", "le chiamate artificiali"),
    ("Carta Penalizzata", "due carte penalizzate"),
    ("Vulnerabilità", "la vulnerabilita"),
])
def test_terms_match_their_inflections(term, text):
    assert term_pattern(term).search(text)


def test_defines_links_a_definition_to_clauses_using_it(graph):
    uses = [b for b, t in links(graph, "it-laws:def-chiamata-artificiale") if t == "defines"]
    assert "it-laws:40#40B2av" in uses     # "chiamate artificiali psichiche"
    assert not [u for u in uses if not u.startswith("it-laws:")]


def test_cited_by_lists_other_units_only(graph):
    sources = [s for s, _ in cited_by(graph, "it-laws", "27")]
    assert "it-laws:23#23C" in sources
    assert not [s for s in sources if s.startswith("it-laws:27")]


def test_neighbourhood(graph):
    n = neighbourhood(graph, "it-laws", "40")
    assert "it-norms:40" in n["integrates_by"]
    assert "es-laws:40" in n["parallel"]
    assert all("it-laws:40" != u for units in n.values() for u in units)


def test_most_cited_are_the_hubs_directors_know(graph):
    top = [node for node, _ in most_cited(graph, "it-laws", 5)]
    assert "it-laws:16#16C" in top and "it-laws:26#26B" in top


def test_citation_path_between_two_laws(graph):
    path = citation_path(graph, "it-laws", "27", "12")
    assert path[0] == "it-laws:27" and path[-1] == "it-laws:12"
    assert all(re.fullmatch(r"it-laws:\w+", p) for p in path)
    assert citation_path(graph, "it-laws", "1", "93") is None  # Law 1 (the pack) cites no other Law
