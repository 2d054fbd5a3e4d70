"""A generation is self-contained (issue 12, part 1): everything a reader needs is built
into it, so a reader never opens corpus/ and a generation is one atomic artefact."""
import shutil

import pytest
from fastapi.testclient import TestClient

from kb.pipeline import build as builder
from kb.pipeline import generations
from kb.corpus.manifest import CORPUS_DIR
from web.app import create_app

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier

MARK = "zz-clock-note-only-in-this-build"
EDITS = {  # a note of each curated table a reader shows, changed in the copy the build is made from
    "notes/en/clock.tsv": ("the round begins when the Director announces it", MARK),
    "notes/en/concordance.tsv": ("corrected with a comparable call (Law 23A", "zz-concordance-note-only-in-this-build"),
    "notes/en/glossary.tsv": ("the Italian text keeps the French word", "zz-glossary-note-only-in-this-build"),
}


@pytest.fixture(scope="module")
def edited_build(tmp_path_factory):
    """A build of a corpus copy whose clock, concordance and glossary notes differ from corpus/."""
    root = tmp_path_factory.mktemp("edited")
    corpus = root / "corpus"
    shutil.copytree(CORPUS_DIR, corpus)
    for name, (old, new) in EDITS.items():
        text = (corpus / name).read_text(encoding="utf-8")
        assert text.count(old) == 1
        (corpus / name).write_text(text.replace(old, new), encoding="utf-8")
    builder.build(root / "build", corpus)
    shutil.rmtree(corpus)  # gone: readers must find everything in the generation
    return root / "build"


def test_the_site_reads_the_tables_its_generation_was_built_with(edited_build):
    client = TestClient(create_app(edited_build))
    client.headers["accept-language"] = "en"  # the notes edited are the English ones
    assert EDITS["notes/en/clock.tsv"][1] in client.get("/clock").text
    assert EDITS["notes/en/concordance.tsv"][1] in client.get("/compare/27", params={"ui": "en"}).text  # in English
    assert EDITS["notes/en/glossary.tsv"][1] in client.get("/glossary").text
    parallels = client.get("/api/units/it-laws/27").json()["parallel"]
    assert any(EDITS["notes/en/concordance.tsv"][1] in p["note"] for p in parallels)
    assert client.get("/api/search", params={"q": "licita insufficiente"}).json()["total"] > 0


def test_the_generation_holds_export_model_graph_catalogs_and_tables(edited_build):
    from kb.search.model import MODEL_NAME
    gen = generations.generation(edited_build)
    builder.verify(gen)
    for name in ("concordance.tsv", "glossary.tsv", "tuning/thesaurus.tsv", "clock.tsv", "manifest.toml",
                 "notes/en/concordance.tsv", "notes/es/glossary.tsv", "notes/it/clock.tsv"):
        assert generations.table(gen, name).is_file()
    assert (gen / generations.GRAPH_NAME).is_file() and (gen / MODEL_NAME).is_file()


def test_the_graph_read_back_is_the_graph_built(edited_build):
    from kb.readmodel.knowledge import KnowledgeBase
    from kb.pipeline.graph import build_graph, read_graph
    gen = generations.generation(edited_build)
    g = read_graph(gen / generations.GRAPH_NAME)
    knowledge = KnowledgeBase(gen)
    built = build_graph(knowledge.store, knowledge.editions)
    assert g.number_of_nodes() == built.number_of_nodes() and g.number_of_edges() == built.number_of_edges()
    node = "it-laws:27#27B1b"
    assert dict(g.nodes[node]) == dict(built.nodes[node])
    edges = lambda graph: sorted((a, b, sorted(d.items())) for a, b, d in graph.out_edges(node, data=True))  # noqa: E731
    assert edges(g) == edges(built) and len(edges(g)) > 0
