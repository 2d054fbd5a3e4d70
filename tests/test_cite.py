"""Citations checked for anyone (issue 31, item 4): `kb cite` and /api/cite on paragraphs a
director, an appeal committee or an assistant might write, ten citations each, some wrong on
purpose.

Each expected status is read off the texts and corpus/concordance.tsv (`test_the_premises_…`
checks those readings against the export and the table themselves, not against `kb cite`):
a Law clause the 2017 Italian text has exists; one only the 2007 Spanish text has is not in
this edition, or numbered otherwise when the table moves it to another number; neither: no
such clause.
"""
import csv
import html
import io
import json
import re

import pytest

import kb as library
from kb.cite import (EXISTS, EXTERNAL, NO_SUCH_CLAUSE, NOT_IN_EDITION, NUMBERED_OTHERWISE, STATUS_RULES,
                     CiteError, Found, Reading, Resolved, status_of)
from kb.citegrammar import Mention
from kb.corpus import CORPUS_DIR

ITALIAN = ("La Commissione osserva che la Legge 27B1(b) consente di correggere con una chiamata paragonabile "
           "(Art. 23A) e che l'art. 16 B regola l'informazione estranea. Il reclamante invoca l'Art. 13F e "
           "l'art. 16A3, l'Articolo 95 e l'Art 27E; ricorda la norma 40 sugli accordi di coppia, l'Articolo 72C "
           "e infine l'art. 23A del reglamento.")

# (as written, status, the document checked, where the clause is: (doc, id) or None, the pair: (older, newer) or None)
ITALIAN_EXPECTED = [
    ("Legge 27B1(b)", EXISTS, "it-laws", ("it-laws", "27B1b"), None),
    ("Art. 23A", EXISTS, "it-laws", ("it-laws", "23A"), None),                # 23A: new in 2017 (comparable call)
    ("art. 16 B", EXISTS, "it-laws", ("it-laws", "16B"), None),
    ("Art. 13F", NUMBERED_OTHERWISE, "it-laws", ("es-laws", "13F"), ("13F", "13C")),  # table: 13F → 13C moved
    ("art. 16A3", NOT_IN_EDITION, "it-laws", ("es-laws", "16A3"), None),          # table: 16A3 removed-in-2017
    ("Articolo 95", NO_SUCH_CLAUSE, "it-laws", None, None),                   # the Laws end at 93
    ("Art 27E", NO_SUCH_CLAUSE, "it-laws", None, None),                           # Law 27 has sections A to D
    ("norma 40", EXISTS, "it-norms", ("it-norms", "40"), None),
    ("Articolo 72C", EXISTS, "it-laws", ("it-laws", "72C"), None),
    ("art. 23A del reglamento", NOT_IN_EDITION, "es-laws", ("it-laws", "23A"), None),  # ES 23 has no sections
]

SPANISH_ENGLISH = ("Según el Artículo 64 del reglamento la renuncia se rectifica; véase también la Ley 12C1 y el "
                   "Artículo 16C2a. Under Law 40B2(a)(i) the Regulating Authority may allow special agreements; "
                   "Law 22A1 and Law 72C of the 2007 Laws are often quoted, and so is Law 1B (2007). Law 94 does "
                   "not exist, nor does Law 12C1f in the 2017 Laws; see Law 17E2 (2007).")

SPANISH_ENGLISH_EXPECTED = [
    ("Artículo 64 del reglamento", EXISTS, "es-laws", ("es-laws", "64"), None),
    ("Ley 12C1", EXISTS, "it-laws", ("it-laws", "12C1"), None),
    ("Artículo 16C2a", NUMBERED_OTHERWISE, "it-laws", ("es-laws", "16C2a"), ("16C2a", "16D2a")),  # 16C2a → 16D2a
    ("Law 40B2(a)(i)", EXISTS, "it-laws", ("it-laws", "40B2ai"), None),
    ("Law 22A1", NUMBERED_OTHERWISE, "it-laws", ("es-laws", "22A1"), ("22A1", "22B")),  # table: 22A1 → 22B
    ("Law 72C of the 2007 Laws", NUMBERED_OTHERWISE, "es-laws", ("it-laws", "72C"), ("23", "72C")),  # 23 → 72C
    ("Law 1B (2007)", NOT_IN_EDITION, "es-laws", ("it-laws", "1B"), None),   # table: 1B new-in-2017
    ("Law 94", NO_SUCH_CLAUSE, "it-laws", None, None),
    ("Law 12C1f in the 2017 Laws", NOT_IN_EDITION, "it-laws", ("es-laws", "12C1f"), None),  # removed-in-2017
    ("Law 17E2 (2007)", EXISTS, "es-laws", ("es-laws", "17E2"), None),       # 2007 has it (2017: 17D3)
]


@pytest.fixture(scope="module")
def knowledge(build_dir):
    return library.open(build_dir)


def concordance_rows():
    lines = [ln for ln in (CORPUS_DIR / "concordance.tsv").read_text(encoding="utf-8").splitlines()
             if ln and not ln.startswith("#")]
    return [(r["older"], r["newer"], r["relation"]) for r in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)]


def clause_ids(export, doc):
    d = next(d for d in export["documents"] if d["id"] == doc)
    return {c["id"] for u in d["units"] for c in u["clauses"]} | {u["id"] for u in d["units"]}


def test_the_premises_of_the_expected_statuses_hold_in_the_texts_and_the_table(export):
    it, es, rows = clause_ids(export, "it-laws"), clause_ids(export, "es-laws"), concordance_rows()
    assert {"27B1b", "23A", "16B", "72C", "12C1", "40B2ai"} <= it and {"64", "17E2", "23"} <= es
    assert {"13F", "16A3", "16C2a", "22A1", "12C1f"} <= es - it        # only the 2007 edition numbers these
    assert {"23A", "72C", "1B"} <= it - es                              # only the 2017 edition numbers these
    assert not {"95", "94", "27E"} & (it | es)
    assert {("13F", "13C", "moved"), ("16C2a", "16D2a", "moved"), ("22A1", "22B", "moved"), ("23", "72C", "moved"),
            ("16A3", "", "removed-in-2017"), ("12C1f", "", "removed-in-2017"), ("", "1B", "new-in-2017"),
            ("", "23A", "new-in-2017")} <= set(rows)
    assert "40" in clause_ids(export, "it-norms")


def shown(result):
    return [(c.written, c.status, c.checked, (c.target.doc, c.target.id) if c.target else None,
             (c.pair[0].id, c.pair[1].id) if c.pair else None) for c in result.citations]


@pytest.mark.parametrize("text, expected", [(ITALIAN, ITALIAN_EXPECTED), (SPANISH_ENGLISH, SPANISH_ENGLISH_EXPECTED)],
                         ids=["italian", "spanish-english"])
def test_ten_citations_each_get_their_right_status(knowledge, text, expected):
    assert shown(knowledge.cite(text)) == expected


@pytest.mark.parametrize("text", [ITALIAN, SPANISH_ENGLISH])
def test_each_citation_carries_its_span_its_clause_text_and_its_permalink(knowledge, client, text):
    for c in knowledge.cite(text).citations:
        assert text[c.start:c.end] == c.written
        if c.target:
            assert c.target.text and c.target.url.startswith(f"/{c.target.doc}/{c.target.unit}")
            assert client.get(c.target.url.split("#")[0]).status_code == 200


def test_the_clause_text_is_the_clauses_own(knowledge):
    law, moved, norm = knowledge.cite("Legge 27B1(b), Art. 13F, norma 40").citations
    assert "chiamata paragonabile" in law.target.text           # 27B1(b): corrected by a comparable call
    assert law.target.title == "LICITA INSUFFICIENTE" and law.target.label == "27B1(b)"
    assert moved.target.text.startswith("Carta de más")         # ES 13F, the extra card
    assert moved.pair[1].doc == "it-laws" and moved.pair[1].edition == "2017" and moved.pair[2] == "moved"
    assert "Carta delle Convenzioni" in norm.target.text


def test_a_clause_with_sub_clauses_reads_them_after_their_labels(knowledge):
    [c] = knowledge.cite("Law 27B1").citations
    assert c.target.text.startswith("(a) ") and "\n(b) " in c.target.text


def test_outside_texts_are_reported_and_never_linked(knowledge):
    [c] = knowledge.cite("art. 48 dello Statuto Federale").citations
    assert c.status == EXTERNAL and c.target is None and "href" not in knowledge.cite("Statuto Federale").html


def test_without_a_stated_edition_the_law_in_force_is_checked_first(knowledge):
    """16C is a clause of both editions (the 2017 text swapped C and D): the one in force answers."""
    [c] = knowledge.cite("Law 16C").citations
    assert (c.status, c.checked, c.target.doc, c.stated) == (EXISTS, "it-laws", "it-laws", False)
    [c] = knowledge.cite("Law 16C (2007)").citations
    assert (c.status, c.checked, c.target.doc, c.stated) == (EXISTS, "es-laws", "es-laws", True)


def test_relative_references_need_a_clause_and_are_not_reported(knowledge):
    assert knowledge.cite("vedi C2 sotto e il punto 3").citations == ()


def test_the_html_is_the_text_escaped_with_each_citation_wrapped(knowledge):
    text = 'Secondo <script>alert("x")</script> la Legge 27B1(b) & l\'Articolo 95.'
    result = knowledge.cite(text)
    page = result.html
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert html.unescape(re.sub(r"<[^>]+>", "", page)) == text
    assert re.findall(r'class="citation ([a-z-]+)"', page) == [EXISTS, NO_SUCH_CLAUSE]
    assert '<a class="citation exists" href="/it-laws/27#27B1b"' in page
    assert '<span class="citation no-such-clause"' in page   # nowhere to go: no link


@pytest.mark.parametrize("text, lang, said", [
    ("", None, "no text to check"), ("  \n ", None, "no text to check"),
    ("x" * 20_001, None, "text too long: 20001 characters, at most 20000"),
    ("Law 12", "fr", "unknown language 'fr'"),
])
def test_a_text_that_cannot_be_checked_says_why(knowledge, text, lang, said):
    with pytest.raises(CiteError, match=re.escape(said)):
        knowledge.cite(text, lang)


def rule_facts(asked, other, pair):
    m = Mention(0, 1, "x", "law", "1")
    read = lambda exists: Reading("d", "1", "1", exists) if exists is not None else None  # noqa: E731
    return Resolved(Found(m), read(asked), read(other), ("pair" if pair else None))


@pytest.mark.parametrize("asked, other, pair, status", [
    (True, True, False, EXISTS), (True, False, False, EXISTS), (True, None, False, EXISTS),
    (False, True, True, NUMBERED_OTHERWISE), (False, True, False, NOT_IN_EDITION),
    (False, False, False, NO_SUCH_CLAUSE), (False, None, False, NO_SUCH_CLAUSE),
])
def test_the_status_table(asked, other, pair, status):
    assert status_of(rule_facts(asked, other, pair)) == status
    assert STATUS_RULES[-1].status == NO_SUCH_CLAUSE   # the last rule fits anything left


# ---------------------------------------------------------------- the command


def test_kb_cite_prints_each_citation_and_the_count(kb):
    r = kb("cite", "Secondo la Legge 27B1(b) e l'Art. 13F")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].startswith(" 1. Legge 27B1(b)  [11-24]  exists: it-laws 27B1(b) (2017)")
    assert "numbered otherwise" in lines[2] and "es-laws 13F (2007) ↔ it-laws 13C (2017), moved" in lines[2]
    assert lines[-1] == "2 citation(s): 1 exists, 1 numbered-otherwise"


def test_kb_cite_reads_standard_input_and_prints_what_the_api_answers(kb, client, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(SPANISH_ENGLISH))
    r = kb("cite", "-", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == client.post("/api/cite", json={"text": SPANISH_ENGLISH}).json()


def test_kb_cite_html_is_the_annotated_text(kb, client):
    r = kb("cite", "--html", "Law 13F <b>")
    assert r.stdout.strip() == client.get("/api/cite", params={"text": "Law 13F <b>", "format": "html"}).text
    assert r.stdout.startswith('<a class="citation numbered-otherwise" href="/es-laws/13#13F"')


@pytest.mark.parametrize("args, said", [
    (("cite", ""), "kb: error: no text to check"),
    (("cite", "y" * 20_001), "kb: error: text too long"),
    (("cite", "--lang", "fr", "Law 12"), "invalid choice: 'fr'"),
])
def test_kb_cite_refuses_in_one_line(kb, args, said):
    r = kb(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert said in r.stderr and "Traceback" not in r.stderr


# ---------------------------------------------------------------- the API


def test_get_and_post_answer_alike(client):
    got = client.get("/api/cite", params={"text": ITALIAN}).json()
    assert got == client.post("/api/cite", json={"text": ITALIAN}).json()
    assert got["total"] == 10 and got["length"] == len(ITALIAN)
    assert got["summary"] == {EXISTS: 5, NOT_IN_EDITION: 2, NUMBERED_OTHERWISE: 1, NO_SUCH_CLAUSE: 2}


def test_a_long_text_is_posted(client):
    text = ("Law 27B1(b). " + "Nothing cited here at all. " * 800)[:20_000]
    r = client.post("/api/cite", json={"text": text})
    assert r.status_code == 200 and r.json()["total"] == 1
    assert client.post("/api/cite", json={"text": text + "!"}).status_code == 400


@pytest.mark.parametrize("method, kwargs, said", [
    ("get", {"params": {"text": ""}}, "no text to check"),
    ("get", {"params": {"text": "Law 12", "format": "pdf"}}, "unknown format 'pdf'"),
    ("get", {"params": {"text": "Law 12", "lang": "de"}}, "unknown language 'de'"),
    ("post", {"json": {"words": "Law 12"}}, "bad parameter body.text"),
    ("post", {"content": b"Law 12", "headers": {"content-type": "application/json"}}, "bad parameter body"),
    ("post", {"content": b"x" * 300_000}, "request body too large"),
])
def test_bad_requests_are_4xx_json_with_a_message(client, method, kwargs, said):
    r = getattr(client, method)("/api/cite", **kwargs)
    assert 400 <= r.status_code < 500 and said in r.json()["error"] and r.json()["status"] == r.status_code
