"""The corpus: manifest facts and byte-identical copies of the source texts."""
import hashlib
import re

import pytest

from kb.corpus.manifest import CorpusError, load_manifest
from tests.conftest import SHARED

ENTRIES = {e.id: e for e in load_manifest()}


def test_the_five_documents_in_design_order():
    assert list(ENTRIES) == ["it-laws", "es-laws", "it-norms", "it-timeref", "it-burraco"]


@pytest.mark.parametrize("doc, lang, kind, edition, original", [
    ("it-laws", "it", "laws", "2017", "000_a74f92dc6dab0f36.txt"),
    ("es-laws", "es", "laws", "2007", "002_8f83e055686f5e84.txt"),
    ("it-norms", "it", "norms", "2026", "004_990bbf194f1487dd.txt"),
    ("it-timeref", "it", "timeref", "2011", "003_518ff542c0a45b91.txt"),
    ("it-burraco", "it", "code", "2014", "001_bf77f547087dbcea.txt"),
])
def test_manifest_fields(doc, lang, kind, edition, original):
    f = ENTRIES[doc].fields
    assert (f["lang"], f["kind"], f["edition"], f["original"]) == (lang, kind, edition, original)
    assert f["title"] and f["issuer"] and f["profile"]
    assert ENTRIES[doc].path.is_file()


def test_dates_are_iso_and_stated_in_the_text():
    """Every ISO date comes with the wording, and that wording is in the source text."""
    for e in ENTRIES.values():
        text = e.read()
        for key in ("effective", "adopted"):
            if key in e.fields:
                assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", e.fields[key])
                assert e.fields[f"{key}_text"].split(",")[0].lower() in text.lower().replace("\n", " ")


@pytest.mark.skipif(not (SHARED / "seeds").is_dir(), reason="../shared/seeds not beside the repo")
def test_corpus_texts_are_the_seeds_unchanged():
    for e in ENTRIES.values():
        seed = SHARED / "seeds" / e.fields["original"]
        assert hashlib.sha256(e.path.read_bytes()).digest() == hashlib.sha256(seed.read_bytes()).digest()


def test_bad_manifest_is_a_clear_error(tmp_path):
    (tmp_path / "manifest.toml").write_text('[[document]]\nid = "x"\n')
    with pytest.raises(CorpusError, match="lacks title"):
        load_manifest(tmp_path)
    (tmp_path / "manifest.toml").write_text("not = [toml")
    with pytest.raises(CorpusError, match="manifest.toml"):
        load_manifest(tmp_path)
