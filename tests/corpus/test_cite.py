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
from kb.citations.check import (EXISTS, EXTERNAL, MAX_CLAUSE_CHARS, NO_SUCH_CLAUSE, NOT_IN_EDITION, NUMBERED_OTHERWISE,
                     STATUS_RULES, CiteError, Found, Pair, Reading, Resolved, status_of)
from kb.citations.grammar import Mention
from kb.corpus.manifest import CORPUS_DIR

ITALIAN = ("La Commissione osserva che la Legge 27B1(b) consente di correggere con una chiamata paragonabile "
           "(Art. 23A) e che l'art. 16 B regola l'informazione estranea. Il reclamante invoca l'Art. 13F e "
           "l'art. 16A3, l'Articolo 95 e l'Art 27E; ricorda la norma 40 sugli accordi di coppia, l'Articolo 72C "
           "e infine l'art. 23A del reglamento.")

# (as written, status, the document checked, where the clause is: (doc, id) or None, the concordance's row
# for it: (older, newer), None for the side a row removes or adds; None where the row says `same` or there is none)
ITALIAN_EXPECTED = [
    ("Legge 27B1(b)", EXISTS, "it-laws", ("it-laws", "27B1b"), ("27B1b", "27B1b")),  # table: 27B1b changed
    ("Art. 23A", EXISTS, "it-laws", ("it-laws", "23A"), (None, "23A")),     # 23A: new in 2017 (comparable call)
    ("art. 16 B", EXISTS, "it-laws", ("it-laws", "16B"), None),                # table: 16B same
    ("Art. 13F", NUMBERED_OTHERWISE, "it-laws", ("es-laws", "13F"), ("13F", "13C")),  # table: 13F → 13C moved
    ("art. 16A3", NOT_IN_EDITION, "it-laws", ("es-laws", "16A3"), ("16A3", None)),    # table: 16A3 removed-in-2017
    ("Articolo 95", NO_SUCH_CLAUSE, "it-laws", None, None),                   # the Laws end at 93
    ("Art 27E", NO_SUCH_CLAUSE, "it-laws", None, None),                           # Law 27 has sections A to D
    ("norma 40", EXISTS, "it-norms", ("it-norms", "40"), None),
    ("Articolo 72C", EXISTS, "it-laws", ("it-laws", "72C"), ("23", "72C")),    # table: 23 → 72C moved
    ("art. 23A del reglamento", NOT_IN_EDITION, "es-laws", ("it-laws", "23A"), (None, "23A")),  # ES 23 has no sections
]

SPANISH_ENGLISH = ("Según el Artículo 64 del reglamento la renuncia se rectifica; véase también la Ley 12C1 y el "
                   "Artículo 16C2a. Under Law 40B2(a)(i) the Regulating Authority may allow special agreements; "
                   "Law 22A1 and Law 72C of the 2007 Laws are often quoted, and so is Law 1B (2007). Law 94 does "
                   "not exist, nor does Law 12C1f in the 2017 Laws; see Law 17E2 (2007).")

SPANISH_ENGLISH_EXPECTED = [
    ("Artículo 64 del reglamento", EXISTS, "es-laws", ("es-laws", "64"), None),   # table: 64 same
    ("Ley 12C1", EXISTS, "it-laws", ("it-laws", "12C1"), None),                   # table: 12C1 same
    ("Artículo 16C2a", NUMBERED_OTHERWISE, "it-laws", ("es-laws", "16C2a"), ("16C2a", "16D2a")),  # 16C2a → 16D2a
    ("Law 40B2(a)(i)", EXISTS, "it-laws", ("it-laws", "40B2ai"), ("40B2a", "40B2ai")),  # table: 40B2a split
    ("Law 22A1", NUMBERED_OTHERWISE, "it-laws", ("es-laws", "22A1"), ("22A1", "22B")),  # table: 22A1 → 22B
    ("Law 72C of the 2007 Laws", NUMBERED_OTHERWISE, "es-laws", ("it-laws", "72C"), ("23", "72C")),  # 23 → 72C
    ("Law 1B (2007)", NOT_IN_EDITION, "es-laws", ("it-laws", "1B"), (None, "1B")),   # table: 1B new-in-2017
    ("Law 94", NO_SUCH_CLAUSE, "it-laws", None, None),
    ("Law 12C1f in the 2017 Laws", NOT_IN_EDITION, "it-laws", ("es-laws", "12C1f"), ("12C1f", None)),  # removed-in-2017
    ("Law 17E2 (2007)", EXISTS, "es-laws", ("es-laws", "17E2"), ("17E2", "17D3")),  # 2007 has it; table: → 17D3
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
            ("", "23A", "new-in-2017"), ("27B1b", "27B1b", "changed"), ("16B", "16B", "same"), ("64", "64", "same"),
            ("12C1", "12C1", "same"), ("40B2a", "40B2ai", "split"), ("17E2", "17D3", "moved")} <= set(rows)
    assert "40" in clause_ids(export, "it-norms")


def shown(result):
    return [(c.written, c.status, c.checked, (c.target.doc, c.target.id) if c.target else None, row(c))
            for c in result.citations]


def row(c):
    """The concordance's row a citation carries: (older id, newer id), None for a side it has not."""
    return (c.pair.older and c.pair.older.id, c.pair.newer and c.pair.newer.id) if c.pair else None


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
    assert moved.pair.newer.doc == "it-laws" and moved.pair.newer.edition == "2017" and moved.pair.relation == "moved"
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
    beside = Pair(Reading("e", "1", "1", True), Reading("d", "2", "2", True), "moved", "")  # "d" has it, numbered 2
    return Resolved(Found(m), read(asked), read(other), beside if pair else None)


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


# ---------------------------------------------------------------- what readers write (issue 31, new user's report)
#
# Each row: the text, then per citation found (status, the document checked, the clause it leads to or
# None, the nearest clause there is when there is no such clause or None). The ids come from the texts
# (`test_the_premises_of_the_reader_forms_hold_…` checks them against the export, the seeds and the
# concordance), not from kb cite.

READER_FORMS = [
    # a clause number spaced, dotted, bracketed, in either case: read whole, never its ancestor
    ("art. 27 B 1 b", [(EXISTS, "it-laws", "27B1b", None)]),
    ("art. 27 B 9", [(NO_SUCH_CLAUSE, "it-laws", None, "27B")]),             # 27B has no 9 (nor has ES 27B)
    ("Art. 27B9", [(NO_SUCH_CLAUSE, "it-laws", None, "27B")]),
    ("Legge 16 B 1 a", [(EXISTS, "it-laws", "16B1a", None)]),
    ("Law 16.B.1.a", [(EXISTS, "it-laws", "16B1a", None)]),
    ("Law 16(B)(1)(a)", [(EXISTS, "it-laws", "16B1a", None)]),
    ("art. 12 C 1 e", [(EXISTS, "it-laws", "12C1e", None)]),
    ("art. 27 b 1 a", [(EXISTS, "it-laws", "27B1a", None)]),
    ("legge 12c1e", [(EXISTS, "it-laws", "12C1e", None)]),
    ("LAW 12C1E", [(EXISTS, "it-laws", "12C1e", None)]),
    ("Law 27B1 b", [(EXISTS, "it-laws", "27B1b", None)]),
    ("L. 12C1(e)", [(EXISTS, "it-laws", "12C1e", None)]),
    ("L 16B1", [(EXISTS, "it-laws", "16B1", None)]),
    ("Leg. 16B1", [(EXISTS, "it-laws", "16B1", None)]),
    ("art. 16bis", [(NO_SUCH_CLAUSE, "it-laws", None, "16")]),               # letters glued on: no such clause
    # words that look like parts, and are words: the clause is what is really written
    ("vedi Art 16 A tale scopo", [(EXISTS, "it-laws", "16", None)]),
    ("Legge 16 B 1 a tale scopo", [(EXISTS, "it-laws", "16B1", None)]),
    ("Art 12 e 13", [(EXISTS, "it-laws", "12", None), (EXISTS, "it-laws", "13", None)]),
    ("Law 12. E poi", [(EXISTS, "it-laws", "12", None)]),
    # an edition named: checked there (the product's own style, "Reglamento 2007, Art. …", among them)
    ("Artículo 16 C 2 del Reglamento", [(EXISTS, "es-laws", "16C2", None)]),
    ("arts. 16 y 73 del Reglamento", [(EXISTS, "es-laws", "16", None), (EXISTS, "es-laws", "73", None)]),
    ("Reglamento 2007, Art. 12C1(e)", [(EXISTS, "es-laws", "12C1e", None)]),
    ("Reglamento 2007, Art. 16A3", [(EXISTS, "es-laws", "16A3", None)]),
    ("Law 23 of the 2007 Laws", [(EXISTS, "es-laws", "23", None)]),
    ("Codice 2017, Art. 12C1(e)", [(EXISTS, "it-laws", "12C1e", None)]),
    # the norms: a norm on two Laws by either; a paragraph on a Law clause; one that is not there
    ("norma 92", [(EXISTS, "it-norms", "92-93", None)]),
    ("NI 92", [(EXISTS, "it-norms", "92-93", None)]),
    ("norma 93", [(EXISTS, "it-norms", "92-93", None)]),
    ("norma 92-93", [(EXISTS, "it-norms", "92-93", None)]),
    ("norma 40B2(a)(v)", [(EXISTS, "it-norms", "40-40B2av", None)]),
    ("norma 16F7(q)", [(NO_SUCH_CLAUSE, "it-norms", None, "16")]),
    ("norma 40Z9", [(NO_SUCH_CLAUSE, "it-norms", None, "40")]),
    ("Norme Int. Art. 4 punto 3", [(EXISTS, "it-norms", "4-3", None)]),
    ("Norme Int. Art. 4 punto 9", [(NO_SUCH_CLAUSE, "it-norms", None, "4")]),
    ("Appendice 4 §5.8", [(EXISTS, "it-norms", "sipari-5.8", None)]),
    ("Appendice 4 §9.9", [(NO_SUCH_CLAUSE, "it-norms", None, "sipari")]),
    # other regulations: outside the corpus, never a Law of the same number
    ("artículo 5 del Reglamento de Competiciones de la AEB", [(EXTERNAL, None, None, None)]),
    ("art. 12 del Regolamento Tecnico", [(EXTERNAL, None, None, None)]),
    ("Codice di Comportamento, art. 4", [(EXTERNAL, None, None, None)]),
    ("Law 12 of the Bermuda Bowl Conditions of Contest", [(EXTERNAL, None, None, None)]),
    ("Under the WBF General Conditions of Contest, Law 12 applies",
     [(EXTERNAL, None, None, None), (EXISTS, "it-laws", "12", None)]),      # ", Law 12" is the Laws'
]


def test_the_premises_of_the_reader_forms_hold_in_the_texts_and_the_table(export):
    it, es, norms = clause_ids(export, "it-laws"), clause_ids(export, "es-laws"), clause_ids(export, "it-norms")
    assert {"27B1b", "27B", "16B1a", "12C1e", "27B1a", "16B1", "16", "12", "13"} <= it
    assert not {"27B9", "16bis"} & (it | es) and "16A" in it   # "16 A tale scopo" would be 16A: it is not read so
    assert {"16C2", "16", "73", "12C1e", "16A3", "23"} <= es
    assert {"92-93", "40-40B2av", "16", "40", "4-3", "sipari-5.8"} <= norms
    assert not {"92", "93", "16-16F7q", "4-9", "sipari-9.9"} & norms
    seed = (CORPUS_DIR / "it-norms-2026.txt").read_text(encoding="utf-8")
    assert "ARTICOLO 92 – ARTICOLO 93" in seed and "\n40B2(a)(v) " in seed   # one norm on two Laws; 40B2(a)(v)'s paragraph
    docs = {d["id"]: d for d in export["documents"]}
    paragraphs = {c.get("law_clause") for u in docs["it-norms"]["units"] if u["id"] == "16" for c in u["clauses"]}
    assert "16F7q" not in paragraphs


@pytest.mark.parametrize("text, expected", READER_FORMS, ids=[t for t, _ in READER_FORMS])
def test_what_readers_write_is_read_whole_and_checked_where_it_says(knowledge, text, expected):
    got = [(c.status, c.checked, c.target.id if c.target else None, c.nearest.id if c.nearest else None)
           for c in knowledge.cite(text).citations]
    assert got == expected


@pytest.mark.parametrize("text, pair", [
    ("Artículo 16 C 2 del Reglamento", ("16C2", "16D2", "moved")),
    ("Law 23 of the 2007 Laws", ("23", "72C", "moved")),
    ("Reglamento 2007, Art. 12C1(e)", ("12C1e", None, "removed-in-2017")),   # IT 12C1(e) is another rule
    ("Reglamento 2007, Art. 16A3", ("16A3", None, "removed-in-2017")),
])
def test_a_stated_edition_comes_with_the_concordances_row_to_the_other(knowledge, text, pair):
    [c] = knowledge.cite(text).citations
    assert (c.pair.older and c.pair.older.id, c.pair.newer and c.pair.newer.id, c.pair.relation) == pair
    older, newer, relation = pair
    assert (older, newer or "", relation) in concordance_rows()


def test_the_nearest_clause_says_what_the_cited_one_lacks(kb):
    r = kb("cite", "art. 27 B 9, norma 40Z9")
    assert "no such clause: it-laws 27B9 — 27B has no 9 (nor has its other edition)" in r.stdout
    assert "no such clause: it-norms 40Z9 — 40 has no Z9" in r.stdout


def reader_citation(gettext, label, unit, clause):
    from kb.citations.style import clause_name
    return f"{label}, " + clause_name(gettext, unit, clause)


@pytest.mark.parametrize("doc", ["it-laws", "es-laws"])
@pytest.mark.parametrize("lang", ["it", "es", "en"])
def test_the_products_own_citation_of_every_clause_of_the_laws_reads_back_to_it(knowledge, doc, lang):
    """"Codice 2017, Art. 27B1(b)", "Reglamento 2007, Art. 12C1(e)", "Spanish Laws 2007, Art. 13F": as
    the pages and the MCP server cite a clause in each interface language, checked in its own edition.
    (A closing paragraph, `69B-p2`, is cited by its clause's number: it is left out.)"""
    from kb.corpus.catalogs import BUILD_DIR as CATALOGS, translations
    from kb.citations.style import citation
    gettext, label = translations(knowledge.gen / CATALOGS, lang).gettext, knowledge.library.label(doc, lang)
    wrong = []
    for unit in knowledge.store.units_of(doc).values():
        for c in (c for c in unit.clauses if unit.kind == "article" and "-p" not in c.id):
            for text in {citation(gettext, label, unit, c.id), reader_citation(gettext, label, unit, c.id)}:
                got = [(x.status, x.checked, x.target.id if x.target else None, x.end) for x in knowledge.cite(text).citations]
                if got != [(EXISTS, doc, c.id, len(text))]:
                    wrong.append((text, got))
    assert wrong == []


def test_a_norms_citation_never_reads_as_another_clause(knowledge):
    """A norm's paragraph as the study cards and the MCP server cite it ("Norma 8 §3b2", "Norma 40
    §40B2(a)(v)") reads back to it; where the style names the norm alone or a paragraph by its title,
    the check names the norm, never another paragraph. (A closing paragraph is cited by its owner's
    number, as in the Laws: left out.)"""
    from kb.corpus.catalogs import BUILD_DIR as CATALOGS, translations
    gettext = translations(knowledge.gen / CATALOGS, "it").gettext
    label, exact, other = knowledge.library.label("it-norms", "it"), 0, []
    for unit in knowledge.store.units_of("it-norms").values():
        for c in (c for c in unit.clauses if unit.kind == "norm" and not re.search(r"-p\d+$", c.id)):
            text = reader_citation(gettext, label, unit, c.id)
            [got] = knowledge.cite(text).citations
            exact += got.target is not None and got.target.id == c.id
            if got.status != EXISTS or got.target.id not in (c.id, unit.id):
                other.append((text, got.status, got.target and got.target.id))
    assert other == [] and exact >= 200


# ---------------------------------------------------------------- bounded replies

def test_a_long_text_citing_one_law_again_and_again_gives_its_text_once(client):
    """"Law 40 " 2857 times (20 000 characters): each citation names its clause by key, the text of
    each clause named is given once, at most MAX_CLAUSE_CHARS long (Law 40 is longer: cut, and said)."""
    text = "Law 40 " * 2857
    r = client.post("/api/cite", json={"text": text})
    body = r.json()
    assert r.status_code == 200 and body["total"] == 2857
    assert all("text" not in c["target"] for c in body["citations"])
    assert {c["target"]["key"] for c in body["citations"]} == {"it-laws/40"}
    assert set(body["targets"]) == {"it-laws/40", "es-laws/40"}       # the clause and the other edition's, once each
    law = body["targets"]["it-laws/40"]
    assert law["truncated"] and len(law["text"]) <= MAX_CLAUSE_CHARS + 2
    assert len(r.content) < 1000 * 2857                                # it was 17.4 MB: the Law's text in each
    whole = client.get("/api/units/it-laws/40").json()["text"]
    assert len(whole) > MAX_CLAUSE_CHARS and whole.startswith(law["text"].removesuffix(" …")[:500])


def test_a_clause_cited_with_its_sub_clauses_reads_them_whole_when_short(knowledge):
    [c] = knowledge.cite("Law 27B1").citations
    assert not c.target.truncated and c.target.text.startswith("(a) ") and "\n(b) " in c.target.text


# ---------------------------------------------------------------- not text, and the HTTP and CLI edges

@pytest.mark.parametrize("body", [b'{"text": "\\ud800 Law 16"}', b'{"text": "Law 16 \\udfff"}'])
def test_a_lone_surrogate_is_a_400_that_says_so(client, body):
    r = client.post("/api/cite", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "lone surrogate" in r.json()["error"] and r.json()["status"] == 400


def test_the_cli_refuses_text_that_is_not_text_in_one_line(kb):
    r = kb("cite", "Law 16 \udced\udca0\udc80")   # bytes that were not UTF-8, as Python hands them over
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and "lone surrogate" in r.stderr


def test_another_method_is_told_which_the_route_takes(client):
    r = client.put("/api/cite", json={"text": "Law 16"})
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD, POST"
    assert client.delete("/api/search").headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize("kwargs", [{"data": {"text": "Law 16"}},
                                    {"content": b"Law 16", "headers": {"content-type": "text/plain"}}])
def test_a_body_that_is_not_json_is_told_what_to_send(client, kwargs):
    r = client.post("/api/cite", **kwargs)
    assert r.status_code == 400 and "Content-Type: application/json" in r.json()["error"]


def test_a_text_too_long_for_a_url_is_told_to_post_it(client):
    r = client.get("/api/cite", params={"text": "Legge 16 " * 2300})
    assert r.status_code == 414 and "POST /api/cite" in r.json()["error"]


def test_kb_cite_of_a_files_path_says_how_to_check_the_file(kb, tmp_path):
    path = tmp_path / "ruling.txt"
    path.write_text("Law 16", encoding="utf-8")
    r = kb("cite", str(path))
    assert r.returncode == 2 and r.stdout == "" and f"kb cite - < {path}" in r.stderr


def test_the_texts_language_reads_first_and_does_not_choose_the_edition(knowledge):
    """`lang` (README: `--lang`) is the language the text is written in; the edition checked is the
    one the text names, else the one in force, whatever the language."""
    for lang in (None, "it", "es", "en"):
        assert [(c.checked, c.status) for c in knowledge.cite("Artículo 16C2a y Ley 27B1", lang).citations] == \
            [("it-laws", NUMBERED_OTHERWISE), ("it-laws", EXISTS)]


PIECES = ["Law", "art.", "L.", "Leg.", "arts.", "norma", "NI", "Appendice", "Reglamento 2007,", "Burraco 2014,",
          "of the 2007 Laws", "del Reglamento", "(2007)", "§", "§3b2", "§(a", "92-93", "16", "27", "B", "b", "1", "a",
          "(a)", "(B)", ".", ",", "e", "y", "and", "(", ")", "16bis", "40Z9", "punto", "lettera", "Statuto Federale",
          "Conditions of Contest", "ultimo comma dell'", "99", "Art. 27B1(b)", "ı", "٣", "Norme Int. Art."]


def test_any_text_of_citation_pieces_is_checked_and_every_span_is_its_own(knowledge):
    from hypothesis import given, settings, strategies as st

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12), st.sampled_from([" ", ""]))
    def checked(pieces, joint):
        text = joint.join(pieces)
        if not text.strip():
            return
        result = knowledge.cite(text)
        result.to_dict()
        for c in result.citations:
            assert text[c.start:c.end] == c.written
            assert (c.target is not None) == (c.status in (EXISTS, NOT_IN_EDITION, NUMBERED_OTHERWISE))
            assert c.target is None or c.target.key in result.targets
    checked()
