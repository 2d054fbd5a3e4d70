"""The search model (kb/search/model.py): one file holds all a search needs, is the same bytes
however often and wherever it is compiled, and a damaged one, or one of another format or
tuning, is refused with a message saying to rebuild, never searched."""
import hashlib
import json
import os
import subprocess
import sys

import pytest

from kb.records.store import Store
from kb.search import model as search_model
from kb.search.engine import SearchEngine
from kb.search.model import MODEL_NAME, ModelError


@pytest.fixture(scope="module")
def model_path(build_dir):
    return build_dir / "current" / MODEL_NAME


def test_the_model_alone_answers_as_the_whole_generation(tmp_path, model_path, engine):
    """Nothing else of the generation is read: a folder holding only the model searches alike."""
    (tmp_path / MODEL_NAME).write_bytes(model_path.read_bytes())
    alone = SearchEngine.open(tmp_path)
    for q, ui in (("carta penalizzata", "it"), ("renuncio", "es"), ("27B1", None), ("penalty card", "en"),
                  ("il morto ha giocato una carta che il dichiarante non aveva chiamato", "it")):
        assert alone.search(q, ui=ui).to_dict() == engine.search(q, ui=ui).to_dict()


@pytest.mark.parametrize("damage, why", [
    (lambda data: data[: len(data) // 2], "is damaged"),                         # cut short
    (lambda data: data[:-200] + b"\0" * 200, "is damaged"),                      # its last bytes lost
    (lambda data: data.replace(b'"k1":1.2', b'"k1":1.9', 1), "is damaged"),      # its header changed
    (lambda data: b"PK\x03\x04" + data[4:], "is not a search model"),            # another file
    (lambda data: b"", "is not a search model"),
])
def test_a_damaged_model_is_refused(tmp_path, model_path, damage, why):
    path = tmp_path / MODEL_NAME
    path.write_bytes(damage(model_path.read_bytes()))
    with pytest.raises(ModelError, match=why + r".*run `kb build`"):
        search_model.read(path)


def test_a_model_saved_with_other_tuning_constants_is_refused(tmp_path, model_path):
    """A model written by another version of the code, whose tuning names constants this code
    does not have (or lacks some it has), is not read by guesswork."""
    m = search_model.read(model_path)
    header = dict(m.header, tuning={**m.header["tuning"], "story_weight_v2": 1.0})
    search_model.write(tmp_path / MODEL_NAME, header, dict(m.arrays))
    with pytest.raises(ModelError, match="story_weight_v2"):
        search_model.read(tmp_path / MODEL_NAME)


def test_no_model_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="cannot read the search model.*run `kb build`"):
        SearchEngine.open(tmp_path)


COMPILE = """
import hashlib, sys
from pathlib import Path
from kb.pipeline import generations
from kb.editions.concordance import load_concordances
from kb.editions.pairs import Editions
from kb.corpus.library import Library
from kb.records.store import Store
from kb.search import compiler
gen = Path(sys.argv[1])
export = generations.load_export(gen / generations.EXPORT_NAME)
tables = gen / generations.CORPUS_COPY
library, store = Library.of(export["documents"]), Store(export)
editions = Editions(library, load_concordances(tables, library), store.documents.values())
out = Path(sys.argv[2]) / "gen-same"
out.mkdir()
print(hashlib.sha256(compiler.write(out, store, editions, tables).read_bytes()).hexdigest())
"""


@pytest.mark.slow  # two compilations, each in a process of its own
def test_the_model_is_the_same_bytes_in_every_process(build_dir, tmp_path):
    """Compiled twice from the same export, in processes that hash strings differently (set and
    dict orders follow the hashing), the model is the same file, byte for byte."""
    gen = build_dir / "current"
    digests = []
    for seed in ("1", "2"):
        folder = tmp_path / seed
        folder.mkdir()
        done = subprocess.run([sys.executable, "-c", COMPILE, str(gen.resolve()), str(folder)], check=True,
                              capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed})
        digests.append(done.stdout.strip())
    assert digests[0] == digests[1]


def test_the_model_says_what_it_holds(model_path):
    """Its prefix holds the digest of all that follows; its header names every array with its
    type, place and length."""
    data = model_path.read_bytes()
    size, prefix = int.from_bytes(data[12:16], "little"), search_model.PREFIX
    assert data[prefix - 32:prefix] == hashlib.sha256(data[prefix:]).digest()
    header = json.loads(data[prefix:prefix + size])
    assert {"row_unit", "plain.docs", "plain.tf", "body_it.lengths", "book0.phrases"} <= set(header["arrays"])
    assert all(offset % 8 == 0 for _, offset, _ in header["arrays"].values())


@pytest.mark.slow  # writes a whoosh index of the whole corpus
def test_the_models_term_scores_are_whooshs_own_bm25f(tmp_path, export, engine):
    """A real whoosh index of every clause, written with whoosh's own analyzer chains, scored by
    whoosh's BM25F: every document's score for a sample of every field's terms is the model's."""
    import random
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        from whoosh import index as windex, scoring
        from whoosh.fields import TEXT, Schema
        from whoosh.query import Term
    from kb.search.compiler import index_documents
    from tests.corpus.test_analysis import whoosh_chain
    langs = engine.langs
    fields = {"plain": TEXT(analyzer=whoosh_chain("plain"), phrase=False)}
    for lang in langs:
        fields |= {f"title_{lang}": TEXT(analyzer=whoosh_chain(lang), phrase=False),
                   f"body_{lang}": TEXT(analyzer=whoosh_chain(lang), phrase=False)}
    ix = windex.create_in(str(tmp_path), Schema(**fields))
    writer = ix.writer()
    for r in index_documents(Store(export)):
        writer.add_document(plain=r["plain"], **{f"title_{r['lang']}": r["title"], f"body_{r['lang']}": r["body"]})
    writer.commit()
    rng = random.Random(3)
    t = engine.tuning
    with ix.searcher(weighting=scoring.BM25F(B=t.b, K1=t.k1)) as searcher:
        for name, field in engine.scorer.fields.items():
            for term in rng.sample(field.terms, min(150, len(field.terms))):
                theirs = {hit.docnum: hit.score for hit in searcher.search(Term(name, term), limit=None)}
                docs, scores = engine.scorer.term(name, term)
                ours = dict(zip(docs.tolist(), scores.tolist()))
                assert ours.keys() == theirs.keys(), (name, term)
                assert all(ours[d] == pytest.approx(theirs[d], rel=1e-12) for d in ours), (name, term)


@pytest.mark.parametrize("values, dtype", [([0, 7, 65535], "uint16"), ([0, 65536], "uint32"), ([], "uint16")])
def test_a_larger_corpus_widens_the_arrays_never_wraps_them(values, dtype):
    """Rows, phrases, entries and frequencies past 65 535 (a corpus four times this one's) take
    four bytes: the value read back is the value written."""
    a = search_model.counts(values)
    assert str(a.dtype) == dtype and a.tolist() == values
