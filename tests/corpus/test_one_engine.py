"""One engine, two runtimes: the browser's search (web/static/search.js, run here in Node, as lunr.py
holds itself to lunr.js) answers every judged query as the server does, query by query.

The browser reads the build's own search model; these tests hold it to the Python engine over
that model: the same ten units in the same order for every judged query of every set (at most
1% of a set may differ, each listed with its reason), hence the same MRR offline as online; the
whole result a reader sees alike (clauses, scores, snippets, suggestions, jumps, filters, pages);
and the same stems and terms for every word of the corpus and thousands more.
"""
import random
import re

import pytest

from kb.search.analysis import CHAINS, WORD, stem_word, terms
from kb.search.model import MODEL_NAME
from kb.search.query import QueryError
from kb.common.text import fold_accents
from measure import node
from measure.evaluation import judged_queries, score_query
from scripts.judged import SETS

pytestmark = pytest.mark.skipif(node.NODE is None, reason="Node is not installed (.ci/run installs Debian's nodejs)")
ALLOWED = 0.01  # of a set's queries whose ten units may differ, each listed


@pytest.fixture(scope="module")
def model(build_dir):
    return build_dir / "current" / MODEL_NAME


@pytest.fixture(scope="module")
def judged():
    return [(name, judged_queries(folder)) for name, folder in SETS]


@pytest.fixture(scope="module")
def browser(model, judged):
    """Node's answer to every judged query, searched in its user's language."""
    requests = [["search", q.query, {"ui": q.lang, "limit": 10}] for _, queries in judged for q in queries]
    return iter(node.run(model, requests)["results"])


def test_every_judged_query_ranks_the_same_ten_units_in_the_browser(engine, judged, browser):
    report = []
    for name, queries in judged:
        differ, online, offline = [], [], []
        for q in queries:
            server, js = engine.search(q.query, ui=q.lang, limit=10), next(browser)
            ours, theirs = [(h.doc, h.unit) for h in server.hits], [(h["doc"], h["unit"]) for h in js["hits"]]
            online.append(score_query(q, _landed(server.jump) + ours).rr)
            offline.append(score_query(q, _landed(js["jump"]) + theirs).rr)
            if ours != theirs:
                first = next(i for i, (a, b) in enumerate(zip(ours + [None] * 10, theirs + [None] * 10)) if a != b)
                differ.append(f"{q.query!r}: from rank {first + 1}, server {ours[first:first + 2]}, "
                              f"browser {theirs[first:first + 2]}")
        report.append(f"{name}: {len(queries) - len(differ)}/{len(queries)} alike, MRR {sum(online) / len(online):.3f} "
                      f"online, {sum(offline) / len(offline):.3f} offline")
        print(report[-1], *differ, sep="\n  ")
        assert len(differ) <= ALLOWED * len(queries), differ
        assert sum(offline) == sum(online), name  # MRR offline equal to online


def _landed(jump):
    return [(jump["doc"], jump["unit"])] if jump else []


VARIANTS = [{}, {"page": 2}, {"lang": "es"}, {"doc": "it-laws"}, {"kind": "norm"}, {"lang": "it", "limit": 20}]


def test_the_browser_shows_what_the_server_shows_for_every_filter_and_page(engine, model, judged):
    """Each judged query with one of the filters a reader can set (none, the second page, a
    language, a document, a kind, a longer page), and hostile or odd input: the whole result
    alike, field by field."""
    odd = ["", "   ", "27B1", "art. 50 del reglamento", "norma 92", "appendice 4", "burraco art 24", "27 e 28",
           "renonse", "dichiarante ha fatto una renonse", "penalizzatissima", "smazzavamo", "licita AND NOT x:y*",
           "¿Cómo se corrige un renuncio?", "Faced Opening Lead Out of Turn", "ho detto 1 fiori sull'1 cuori",
           "İstanbul ǅ ﬁ ٣ ß", "x" * 1501, "a" * 60, "carta " * 30, "carta 😀 penalizzata", "𠀀𠀁 carta",
           "𝐜𝐚𝐫𝐭𝐚 penalizzata", "𝔸𝕣𝕥 27", "cre𐐨e dummy", "dichiarant𐐨 renonce",  # letters outside the BMP
           # cue words the browser's \w once read as ASCII; number words it once looked up among an
           # object's own properties; characters its newer Unicode knows; digits of other scripts;
           # the dotless and dotted i, which Python's case-insensitive patterns take for i
           "how is the declaración defined", "what does señal mean", "arbitro in italiano è",
           "renonce consumata constructor", "__proto__ carta", "27B1\U0001D2C0", "figb\U0001E030 regole",
           "norma ٩٢", "٣", "27B1ı", "27 B 1 İ", "artıcolo 27", "DEFİNIZIONE DI RENONCE", "fıgb regole",
           "ho detto 1 pıcche dopo 1 cuori", "\u1369\u136a carta",
           # an edition or a language named beside a number; a story's holdings, scores and table numbers
           "Law 16.B.1.a", "16(B)(1)(a)", "L. 12C1(e)", "art. 27 B 9", "norm 40",  # the one reader of numbers
           "testo spagnolo dell'articolo 16", "Law 16 in the 2007 edition", "el artículo 16 del reglamento 2007",
           "the Spanish text of Law 25", "L'articolo 25 in spagnolo", "13A1 del 2007", "9A5 reglamento",
           "Board 12, table 4: West held ♠AQ10x ♥Kx ♦— and after 1♥ – 2♣ – 2NT declarer said the rest are mine; +620",
           "Tavolo 7: Nord con ♠ARD10 ♥F98 ha aperto 1♠ e il morto ha detto al compagno che non aveva cuori, -100"]
    cases = [(q.query, {"ui": q.lang, **VARIANTS[i % len(VARIANTS)]})
             for i, q in enumerate(q for _, queries in judged for q in queries)]
    cases += [(q, {"ui": ui}) for q in odd for ui in (None, "it", "es", "en")]
    cases += [("carta", bad) for bad in ({"doc": ""}, {"doc": "xx"}, {"lang": "fr"}, {"kind": "nope"}, {"limit": 0},
                                         {"limit": 101}, {"page": 0}, {"page": 1001}, {"ui": ""}, {"ui": "fr"})]
    answers = node.run(model, [["search", q, o] for q, o in cases])["results"]
    differ = []
    for (q, o), js in zip(cases, answers):
        try:
            server = engine.search(q, **o)
        except QueryError:
            if "error" not in js:
                differ.append((q, o, "the server refuses it"))
            continue
        why = "the browser refuses it" if "error" in js else node.same_result(server, js)
        if why:
            differ.append((q, o, why))
    print(f"{len(cases) - len(differ)}/{len(cases)} results alike")
    assert differ == []


def corpus_words(export) -> list[str]:
    words = {w.lower() for d in export["documents"] for u in d["units"] for w in WORD.findall(u["text"])}
    return sorted(words | {fold_accents(w) for w in words})


def test_every_word_stems_alike_in_both_runtimes(model, export):
    """The Snowball stemmers of web/static/stemmers.js against whoosh's: every word of the corpus
    typed with and without its accents, and random mutations of them (letters in, out, endings
    that trip the stemmers)."""
    rng = random.Random(5)
    words = corpus_words(export)
    endings = ["ando", "mente", "ità", "ción", "ing", "ies", "ed", "ly", "ness", "gue", "ague", "uyendo", "selo", "logía"]
    for w in rng.sample(words, 4000):
        i = rng.randrange(len(w) + 1)
        words += [w[:i] + rng.choice("aeioulnrstàéíóúñ") + w[i:], w[:i] + w[i + 1:], w + rng.choice(endings)]
    requests = [["stem", lang, w] for lang in ("it", "es", "en") for w in words]
    got = node.run(model, requests)["results"]
    differ = [(lang, w, stem_word(lang, w), js) for (_, lang, w), js in zip(requests, got) if stem_word(lang, w) != js]
    assert differ == []


def test_every_text_reads_into_the_same_terms_in_both_runtimes(model, export):
    """Each chain (plain, and each language's stems) on every unit of the corpus, and on text a
    phone may send (other scripts, ligatures, combining accents, capitals that lower-case long)."""
    texts = [(u.get("title") or "") + "\n" + u["text"] for d in export["documents"] for u in d["units"]]
    texts += ["İstanbul ǅemal ﬁnale ½ ٣ ß ΣΊΣΥΦΟΣ e\u0301 ca\u0300rta", "L'ARBITRO è arrivato: perché?"]
    requests = [["terms", chain, text] for chain in CHAINS for text in texts]
    got = node.run(model, requests)["results"]
    differ = [(chain, text[:60]) for (_, chain, text), js in zip(requests, got) if terms(chain, text) != js]
    assert differ == []


@pytest.mark.parametrize("damage, why", [
    (lambda data: data[:8] + (99).to_bytes(4, "little") + data[12:], "format 99"),  # another format
    (lambda data: data[:-100] + bytes(100), "damaged"),                           # its last bytes lost
    (lambda data: data[: len(data) // 2], "damaged"),                             # cut short
])
def test_a_model_of_another_format_or_damaged_is_refused_by_both(model, tmp_path, damage, why):
    from kb.search import model as search_model
    other = tmp_path / MODEL_NAME
    other.write_bytes(damage(model.read_bytes()))
    with pytest.raises(search_model.ModelError, match=why + ".*run `kb build`"):
        search_model.read(other)
    with pytest.raises(RuntimeError, match=why):
        node.run(other, [])


def test_the_browser_reads_every_tuning_constant_from_the_model_and_no_other(model):
    """A constant the JavaScript names that the model lacks is an error there, never NaN: every
    `t.name` / `tuning.name` the browser's engine reads is one of the Tuning record's fields."""
    from dataclasses import fields
    from pathlib import Path
    from kb.search.tuning import Tuning
    source = (Path(node.RUNNER).parents[1] / "web" / "static" / "search.js").read_text(encoding="utf-8")
    read = set(re.findall(r"\b(?:t|tuning|this\.tuning)\.([a-z_]+)\b", source))
    assert read and read <= {f.name for f in fields(Tuning)}, read - {f.name for f in fields(Tuning)}
