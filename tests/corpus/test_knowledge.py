"""`kb.open(build) -> KnowledgeBase` (issue 12, part 2): one object over one build generation,
the way the CLI and the website read it."""
import shutil

import pytest

import kb
from kb.pipeline import generations
from kb.readmodel.knowledge import KnowledgeBase


def test_open_gives_units_search_links_and_graph_of_the_build(build_dir):
    base = kb.open(build_dir)
    assert base.gen == generations.generation(build_dir)
    assert base.store.unit("it-laws", "27").title == "LICITA INSUFFICIENTE"
    assert base.search("licita insufficiente").hits[0].unit == "27"
    assert any(p.doc == "es-laws" and p.unit == "27" for p in base.parallels("it-laws", "27"))
    assert "it-laws:27#27B1b" in base.graph
    assert [row["period"] for row in base.clock][0] == "before-round"


def test_open_reads_the_newest_complete_generation_when_current_is_gone(tmp_path, build_dir):
    good = tmp_path / "gen-good"
    shutil.copytree(generations.generation(build_dir), good)
    generations.switch(tmp_path, tmp_path / "gen-gone")  # current names nothing
    assert kb.open(tmp_path).gen == good


def test_open_without_a_build_says_so(tmp_path):
    with pytest.raises(generations.BuildError, match="no complete build"):
        KnowledgeBase.open(tmp_path)
