"""Resolution, table-driven: a sentence of the texts read at its own site → the links it makes.

Each row is a sentence as printed in the source and the clauses a reader of
that sentence would follow, in reading order (a subsequence of what is found).
"""
import dataclasses

import pytest

from kb.records.citation import Site
from kb.citations.extract import text_citations
from kb.citations.grammar import find
from kb.editions.concordance import load_concordances
from kb.corpus.manifest import CORPUS_DIR, load_documents
from kb.corpus.library import Library
from kb.citations.resolve import RESOLVERS, Lookups


@pytest.fixture(scope="module")
def documents():
    return {d.id: d for d in load_documents()}


@pytest.fixture(scope="module")
def look(documents):
    return Lookups(list(documents.values()), load_concordances(CORPUS_DIR, Library.of(list(documents.values()))))


def read(documents, look, doc, unit, clause, sentence):
    site = Site(documents[doc], documents[doc].unit(unit), clause, "text")
    return list(text_citations(site, sentence, look))


ROWS = [
    # the lone "punto d)" is an item of the Law clause cited just before it
    ("it-norms", "16", "16-informazioni-non-autorizzate-da-altre-fonti",
     "Per quanto riguarda l'applicazione dell'Articolo 16D2, nell'unico caso [...] l'Arbitro è chiamato "
     "a fare diretto riferimento al punto d), assegnando [...] dei pertinenti paragrafi dell'Articolo 12 "
     "(12A2, 12C1d, 12C2).",
     [("it-laws", "16D2", "cross"), ("it-laws", "16D2d", "relative"), ("it-laws", "12A2", "cross"),
      ("it-laws", "12C1d", "cross"), ("it-laws", "12C2", "cross")]),
    # a norm naming a point of another norm
    ("it-norms", "8", "8-3a2",
     "Si applica la normativa dell'abbandono (Norme Int. Art. 4 punto 3), salvo specifiche disposizioni",
     [("it-norms", "4-3", "internal")]),
    # the norms' bare "Art." means the 2017 Laws
    ("it-norms", "5", "5-4", "con il suo permesso (vedi Art.5A).", [("it-laws", "5A", "cross")]),
    # "A e B precedenti": sections of the same Law, in both editions
    ("it-laws", "6", "6E4", "di assoluta casualità di cui ai punti A e B precedenti.",
     [("it-laws", "6A", "relative"), ("it-laws", "6B", "relative")]),
    ("es-laws", "6", "6E4", "la que cabría esperar si se aplicara A y B anteriores.",
     [("es-laws", "6A", "relative"), ("es-laws", "6B", "relative")]),
    # the time references cite the 2007 numbering
    ("it-timeref", "attacco-fuori-turno", "attacco-fuori-turno-2",
     "tale attacco resta nel rispetto dell'articolo 53A.", [("es-laws", "53A", "cross")]),
    # Burraco cites its own articles
    ("it-burraco", "4", "4", "secondo quanto disposto dal successivo art. 3.", [("it-burraco", "3", "internal")]),
    # another federation text's article is no Law
    ("it-norms", "92-93", "92-93-5", "il contributo previsto dall'art. 8 del Regolamento di Giustizia FIGB.",
     [("external", None, "external")]),
]


@pytest.mark.parametrize("doc, unit, clause, sentence, expected", ROWS)
def test_a_sentence_links_where_its_reader_would_go(documents, look,
                                                    doc, unit, clause, sentence, expected):
    found = [(c.target.doc, c.target.clause or c.target.unit if c.target.doc != "external" else None, c.kind)
             for c in read(documents, look, doc, unit, clause, sentence)]
    rest = iter(found)
    assert all(e in rest for e in expected), found  # in order
    assert all(c.resolved for c in read(documents, look, doc, unit, clause, sentence))


def test_a_lone_point_with_no_law_cited_before_it_links_nowhere(documents, look):
    """The state is the text's own: "punto d)" alone names no Law clause."""
    found = read(documents, look, "it-norms", "16", "16-informazioni-non-autorizzate-da-altre-fonti",
                 "l'Arbitro è chiamato a fare diretto riferimento al punto d), assegnando quindi")
    assert not [c for c in found if c.target.doc == "it-laws"]


def test_a_2007_clause_cited_elsewhere_names_its_2017_successor(documents, look):
    """Spanish 16C (2007) is Italian 16D (2017)."""
    [c] = read(documents, look, "it-timeref", "attacco-fuori-turno", "attacco-fuori-turno-2",
               "si applica l'articolo 16C2.")
    assert (c.target.doc, c.target.clause, c.target_2017.doc, c.target_2017.clause) == \
        ("es-laws", "16C2", "it-laws", "16D2")
    assert c.target_in_force == c.target_2017  # the 2017 Laws are in force


def test_every_kind_the_grammar_finds_has_a_resolver(documents):
    kinds = {m.kind for d in documents.values() for u in d.units for c in u.clauses
             for m in find(c.text or "", d.lang)}
    assert kinds and kinds <= set(RESOLVERS)


def test_citations_are_frozen(documents, look):
    [c] = read(documents, look, "it-norms", "5", "5-4", "(vedi Art.5A).")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.kind = "internal"  # type: ignore[misc]
