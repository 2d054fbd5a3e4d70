"""Documents as data (issue 12, part 3): outside the manifest, the parsers and the curated
tables, no code or template names a document; it asks the library (kb/corpus/library.py), which
reads each document's kind, edition, language and citations from the manifest."""
import re
from pathlib import Path

import pytest

from kb.corpus.manifest import load_manifest
from kb.corpus.library import Library

ROOT = Path(__file__).resolve().parents[2]
DOC_IDS = [e.id for e in load_manifest()]
# the shipped code; tests, scripts and measure/ name the pages they ask for, as a user would
CODE = sorted(p for folder in ("kb", "web") for p in (ROOT / folder).rglob("*")
              if p.suffix in (".py", ".html", ".js") and "parse" not in p.relative_to(ROOT).parts)


@pytest.mark.parametrize("path", CODE, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_document_id_is_written_in_code_or_templates(path):
    text = path.read_text(encoding="utf-8")
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    code = re.sub(r'"""(?:.|\n)*?"""', "", code)  # docstrings may name examples
    assert [d for d in DOC_IDS if f'"{d}"' in code or f"'{d}'" in code or f"/{d}" in code] == []


@pytest.mark.parametrize("path", [p for p in CODE if p.suffix == ".py" and p.name != "languages.py"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_the_languages_are_named_once(path):
    """kb/corpus/languages.py's LANGS is the one list of the texts' languages (the interface's
    are kb/corpus/catalogs.py's LOCALES); no module spells the pair out again."""
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"""\(\s*["'](?:it|es)["']\s*,\s*["'](?:it|es)["']\s*\)""", text)


def test_the_library_reads_roles_editions_and_pairs_from_the_manifest(export):
    library = Library.of(export["documents"])
    assert library.laws == ("it-laws", "es-laws")  # the edition in force (2017) first
    assert library.counterparts("it-laws") == ("es-laws",) and library.counterparts("es-laws") == ("it-laws",)
    assert library.counterparts("it-norms") == ()
    assert library.cites("it-timeref") == "es-laws" and library.cites("it-norms") == "it-laws"
    assert library.laws_in("es") == "es-laws" and library.short("it-norms") == "NI"
    assert library.pair == ("es-laws", "it-laws")


def test_a_third_edition_is_in_force_but_the_concordance_keeps_the_pair_it_maps():
    from kb.corpus.library import Entry
    library = Library((Entry("a-laws", "it", "laws", "2017", concordances=(("b-laws", "a-b.tsv"),)),
                       Entry("b-laws", "es", "laws", "2007"), Entry("c-laws", "en", "laws", "2027"),
                       Entry("d-laws", "en", "laws", "997")))
    assert library.laws_in_force == "c-laws" and library.laws == ("c-laws", "a-laws", "b-laws", "d-laws")
    assert library.pair == ("b-laws", "a-laws")  # the 2007 → 2017 table never pairs 2017 with 2027
    assert library.counterparts("a-laws") == ("b-laws",) and library.counterparts("c-laws") == ()
    assert library.in_force("laws") == ("c-laws", "a-laws", "b-laws")  # d-laws: 997, superseded in English


def test_an_edition_of_another_is_paired_with_it_by_ids_after_the_concordance_pair():
    from kb.corpus.library import EditionPair, Entry
    library = Library((Entry("a-laws", "it", "laws", "2017", concordances=(("b-laws", "a-b.tsv"),)),
                       Entry("b-laws", "es", "laws", "2007"), Entry("c-laws", "it", "laws", "2027", edition_of="a-laws")))
    assert library.pairs == (EditionPair("b-laws", "a-laws", "a-b.tsv"), EditionPair("a-laws", "c-laws"))
    assert [p.by_table for p in library.pairs] == [True, False]
    assert library.chain("b-laws", "c-laws") == library.pairs and library.chain("c-laws", "b-laws") is None
    assert library.counterparts("a-laws") == ("b-laws", "c-laws")
    assert library.in_force("laws") == ("c-laws", "b-laws")  # the 2017 Italian text is superseded
    assert library.pair_of("a-laws", "c-laws") and library.pair_of("c-laws", "a-laws") is None


def test_a_document_in_a_language_without_an_analyzer_fails_the_build_and_says_what_is_missing(tmp_path):
    import shutil
    from kb.pipeline import build as builder
    from kb.corpus.manifest import CORPUS_DIR, CorpusError
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR, corpus)
    manifest = (corpus / "manifest.toml").read_text(encoding="utf-8")
    (corpus / "manifest.toml").write_text(manifest.replace('lang = "es"', 'lang = "xx"', 1), encoding="utf-8")
    with pytest.raises(CorpusError, match=r"es-laws: language 'xx' is not supported.*stemmer"):
        builder.build(tmp_path / "build", corpus)
    assert not list((tmp_path / "build").glob("gen-*"))  # nothing written
