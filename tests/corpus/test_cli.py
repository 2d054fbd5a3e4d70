"""The `kb` command, run as a user runs it (a real process)."""
import json
import os
import subprocess
import sys

import pytest

from kb.pipeline import build as builder
from kb.pipeline import generations


def test_show_renders_readable_clause_labels(kb):
    r = kb("show", "it-laws", "27")
    assert r.returncode == 0
    assert "LICITA INSUFFICIENTE" in r.stdout
    assert "27B1(a)" in r.stdout and "27B1(b)" in r.stdout


def test_show_renders_tables_as_tables(kb):
    out = kb("show", "it-laws", "78").stdout
    assert "│" in out and "IMP" in out.upper()


def test_show_json_is_the_exported_unit_with_what_the_api_says_of_it(kb, export, client):
    r = kb("show", "es-laws", "12", "--json")
    shown = json.loads(r.stdout)
    es = next(d for d in export["documents"] if d["id"] == "es-laws")
    assert {k: shown[k] for k in ("id", "title", "clauses", "footnotes")} == \
        {k: u[k] for u in es["units"] if u["id"] == "12" for k in ("id", "title", "clauses", "footnotes")}
    assert shown == client.get("/api/units/es-laws/12").json()
    assert shown["next"]["unit"] == "13" and shown["prev"]["unit"] == "11"


@pytest.mark.parametrize("args, names", [
    (("show", "fr-laws", "1"), "it-laws, es-laws"),
    (("show", "es-laws", "94"), "units: 1, 2, 3"),
    (("show", "it-timeref", "27"), "units: "),
])
def test_unknown_doc_or_unit_is_one_line_naming_what_exists(kb, args, names):
    r = kb(*args)
    assert r.returncode == 2
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1
    assert names in r.stderr and "Traceback" not in r.stderr


def test_export_writes_the_build(kb, tmp_path, build_dir):
    out = tmp_path / "kb.json"
    r = kb("export", str(out))
    assert r.returncode == 0
    assert out.read_bytes() == generations.export_path(build_dir).read_bytes()
    assert kb("export", str(tmp_path / "no" / "such" / "dir.json")).returncode == 2


def test_check_passes_on_the_real_corpus(kb):
    r = kb("check")
    assert r.returncode == 0, r.stdout
    assert "0 problem(s)" in r.stderr


def corrupt_build(tmp_path):
    """A current generation whose export is not JSON and whose search model is not a model, though
    its stamp says it is up to date and it was verified complete (the disk corrupted them afterwards)."""
    from kb.search.model import MODEL_NAME
    gen = tmp_path / "gen-broken"
    gen.mkdir()
    (gen / "kb.json").write_text("{not json")
    (gen / MODEL_NAME).write_text("{not a model")
    (gen / "stamp").write_text(builder.source_stamp() + "\n")
    (gen / generations.COMPLETE).write_text(generations.COMPLETE_TEXT)
    generations.switch(tmp_path, gen)
    return tmp_path


@pytest.mark.parametrize("command, said", [(("show", "it-laws", "1"), "corrupt build"), (("check",), "corrupt build"),
                                           (("search", "carta"), "is not a search model")])  # a search reads the model alone
def test_corrupt_build_is_a_clear_error(tmp_path, command, said):
    env = dict(os.environ, KB_BUILD_DIR=str(corrupt_build(tmp_path)))
    r = subprocess.run([sys.executable, "-m", "kb.cli", *command], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert said in r.stderr and "run `kb build`" in r.stderr and "Traceback" not in r.stderr


def test_show_lists_outgoing_and_incoming_links(kb):
    out = kb("show", "it-laws", "27").stdout
    assert "Cites (" in out and "23A CHIAMATA PARAGONABILE" in out
    assert "Cited by (" in out and "it-timeref" in out  # time references reach 27 through the concordance


def test_check_lists_the_explained_unresolved_references(kb):
    r = kb("check")
    assert r.returncode == 0
    assert r.stdout.count("(explained:") == 3


@pytest.mark.parametrize("fmt, marker", [("graphml", "<graphml"), ("json", '"links"')])
def test_graph_writes_graphml_and_json(kb, tmp_path, fmt, marker):
    out = tmp_path / f"g.{fmt}"
    r = kb("graph", "--format", fmt, str(out))
    assert r.returncode == 0, r.stderr
    assert marker in out.read_text(encoding="utf-8")


def test_search_numbers_hits_across_pages_of_any_size(kb):
    numbered = lambda r: [line.split(".")[0].strip() for line in r.stdout.splitlines()  # noqa: E731
                          if line[:3].strip().rstrip(".").isdigit() and line[2:4] == ". "]
    first = kb("search", "carta", "--limit", "3")
    second = kb("search", "carta", "--limit", "3", "--page", "2")
    assert numbered(first) == ["1", "2", "3"] and numbered(second) == ["4", "5", "6"]


def test_show_annotates_citations_with_the_clause_they_reach_as_the_site_links_them(kb, client):
    out = kb("show", "it-laws", "27").stdout
    assert "ma vedi punto 3 [→ 27B3] seguente" in out   # a bare "punto 3" says where it leads
    assert "trova applicazione l'Art 31." in out         # a citation that names its Law stays as written
    page = client.get("/it-laws/27").text
    assert 'href="/it-laws/27#27B3"' in page             # the same annotation, as a link on the page


def test_search_names_the_situation_a_query_tells(kb):
    out = kb("search", "--ui", "it", "il morto ha indicato una carta al dichiarante").stdout
    assert "≈ Il morto suggerisce una giocata  /situations/lead-play#dummy-suggests-play" in out.splitlines()[:4]


def _scratch_corpus(tmp_path):
    """The built-in corpus with the Burraco code under another title: a corpus of one's own."""
    import shutil
    from kb.corpus.manifest import CORPUS_DIR
    corpus = tmp_path / "scratch-corpus"
    shutil.copytree(CORPUS_DIR, corpus)
    manifest = corpus / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    assert SCRATCH_TITLE not in text
    manifest.write_text(text.replace('title = "Burraco – Codice di Gara"', f'title = "{SCRATCH_TITLE}"'), encoding="utf-8")
    return corpus


SCRATCH_TITLE = "Burraco – Codice di prova"


def _kb(build, *command):
    return subprocess.run([sys.executable, "-m", "kb.cli", "--build-dir", str(build), *command],
                          capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_readers_read_a_build_of_another_corpus_as_built_and_never_rebuild_it(tmp_path):
    """`kb build --corpus DIR` then `kb check`, `kb show`, `kb search` without it: they read the
    build of DIR, they do not replace it with one of the built-in corpus."""
    corpus, build = _scratch_corpus(tmp_path), tmp_path / "build"
    made = _kb(build, "--corpus", str(corpus), "build")
    assert made.returncode == 0, made.stderr
    gen = generations.generation(build)
    assert _kb(build, "check").returncode == 0
    exported = _kb(build, "export", "-")
    assert SCRATCH_TITLE in exported.stdout   # the build of the scratch corpus, not rebuilt from the built-in one
    assert generations.generation(build) == gen
    corpus.rename(tmp_path / "moved")   # its corpus gone: read as built, and the warning says how to rebuild
    found = _kb(build, "search", "carta")
    assert found.returncode == 0 and generations.generation(build) == gen
    assert "--corpus DIR build" in found.stderr and str(corpus) in found.stderr
