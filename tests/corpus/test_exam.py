"""The mock exam's questions (kb/study/exam.py) and its page (web/study/exam.py): every question's right answer
is the clause the situation index or the time-reference table says (read here from the corpus
table and the export's own citations, not from the compiler), its distractors are of its kind and
never right, every id is the export's; the page speaks the reader's language, offline too."""
import csv
import re
from collections import Counter
from pathlib import Path

import pytest

from kb.records.clauseid import ClauseId
from kb.study.exam import DISTRACTORS, KINDS, SHARES, SIZES, compile_exam

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


@pytest.fixture(scope="module")
def exam(build_dir):
    import kb
    return compile_exam(kb.open(build_dir))


@pytest.fixture(scope="module")
def index():
    """The situation index as the corpus writes it: its rows by id."""
    lines = [ln for ln in (CORPUS / "situations.tsv").read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return {r["id"]: r for r in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)}


def key_of(doc, clause):
    """A Law clause as a target's key: `it-laws/27#27B1b`, a whole Law `it-laws/27`, a definition
    `it-laws/def-licita` (a situation may be ruled by one too)."""
    law = re.match(r"\d+", clause)[0] if clause[:1].isdigit() else clause
    return f"{doc}/{law}" + ("" if clause == law else f"#{clause}")


def questions(exam, kind):
    return [q for q in exam.questions if q.kind == kind]


def test_every_kind_holds_what_the_texts_hold(exam, index, export):
    counts = Counter(q.kind for q in exam.questions)
    timeref = next(d for d in export["documents"] if d["id"] == "it-timeref")
    subtopics = {(u["id"], c["subtopic_index"]) for u in timeref["units"] for c in u["clauses"]
                 if c.get("kind") == "entry" and c.get("ref")}  # a subtopic with an entry that cites a Law
    assert counts == {"situation": len([r for r in index.values() if r["laws_2017"]]),  # every situation: 472
                      "norm": len([r for r in index.values() if r["lead"]]),  # those a norm rules first: 117
                      "timeref": len(subtopics), "definition": 63 - 1}  # the Laws' definitions but "Cancellata: see…"
    assert counts["situation"] == 472 and counts["norm"] == 117 and counts["timeref"] == 131
    assert len({q.id for q in exam.questions}) == len(exam.questions)


def test_a_situation_is_answered_by_the_clause_the_index_names_first(exam, index):
    for q in questions(exam, "situation"):
        clauses = index[q.about]["laws_2017"].split()
        assert q.answer == key_of("it-laws", clauses[0]), q.id
        assert list(q.accepted) == [key_of("it-laws", c) for c in clauses[1:]], q.id
        assert dict(q.ask) == {lang: index[q.about][lang].split("|")[0].strip() for lang in ("it", "es", "en")}
        assert q.period == index[q.about]["period"]
    late = next(q for q in exam.questions if q.id == "situation:late-arrival")
    text = exam.targets[late.answer].text
    assert exam.targets[late.answer].label == "90B1" and text.startswith("presentazione alla gara di un concorrente")


def test_a_norm_question_is_answered_by_the_norm_that_leads_the_ruling(exam, index):
    """Forfeit of a team: FIGB norm 8, its paragraph 8-3b2 shown (issue 32: not Law 90B1)."""
    for q in questions(exam, "norm"):
        doc, _, rest = index[q.about]["lead"].partition(":")
        unit, _, clause = rest.partition("#")
        assert q.answer == f"{doc}/{unit}" and exam.targets[q.answer].unit == unit, q.id
        assert q.shows == ((f"{doc}/{unit}#{clause}",) if clause else ()), q.id
    forfeit = next(q for q in exam.questions if q.id == "norm:team-forfeit")
    assert forfeit.answer == "it-norms/8" and exam.targets[forfeit.shows[0]].title == "Forfait"
    assert "it-norms/90" not in forfeit.distractors


def test_a_time_reference_is_answered_by_the_clause_its_entries_cite_in_the_laws_in_force(exam, export):
    """The table cites the 2007 numbering; its entries' references read in the 2017 Laws (the
    export's `target_2017`): 53C is 2017's 53B, 17E2 is 17D3, 22B1 is 17D1 (notes/timeref-2011.md §6)."""
    cited = {c["source"]["clause"]: c for c in export["citations"]
             if c["source"]["doc"] == "it-timeref" and c.get("where") == "ref"}
    for q in questions(exam, "timeref"):
        entries = [exam.targets[k] for k in q.shows]
        assert entries and all(t.form == "entry" and t.doc == "it-timeref" for t in entries)
        wanted = list(dict.fromkeys(key_of(cited[t.clause]["target_2017"]["doc"], cited[t.clause]["target_2017"]["clause"])
                                    for t in entries if t.clause in cited))
        assert [q.answer, *q.accepted] == wanted, q.id
    by_ref = {exam.targets[k].label: q for q in questions(exam, "timeref") for k in q.shows}
    for written, in_force in (("53C", "it-laws/53#53B"), ("17E2", "it-laws/17#17D3"), ("22B1", "it-laws/17#17D1"),
                              ("92B", "it-laws/92#92B")):
        assert in_force in (by_ref[written].answer, *by_ref[written].accepted), written
    appeal = by_ref["92B"]
    assert dict(appeal.ask) == {"it": "Appello — Termine per la presentazione di un appello"} and appeal.period == "correction"


def test_distractors_are_of_the_same_kind_and_never_right(exam):
    for q in exam.questions:
        right, wrong = [exam.targets[k] for k in (q.answer, *q.accepted)], [exam.targets[k] for k in q.distractors]
        assert len(wrong) == DISTRACTORS and len(set(q.distractors)) == DISTRACTORS, q.id
        assert not set(q.distractors) & {t.key for t in right}, q.id
        assert {t.form for t in wrong} <= ({"norm", "appendix"} if q.kind == "norm" else {right[0].form}), q.id
        assert len({t.label for t in [right[0], *wrong]}) == DISTRACTORS + 1, q.id  # no two options read alike
        if q.kind in ("situation", "timeref"):  # another Law than any right clause's, each its own
            assert not {t.law for t in wrong} & {t.law for t in right} and len({t.law for t in wrong}) == DISTRACTORS, q.id


def test_distractors_are_near_the_answer(exam):
    """Of the same period first, then the nearest Laws: for a lead out of turn the Laws around
    Law 54; a whole Law against whole Laws, a sub-clause against sub-clauses."""
    q = next(q for q in exam.questions if q.id == "situation:declarer-must-accept-oolt")
    laws = [int(exam.targets[k].law) for k in q.distractors]
    assert exam.targets[q.answer].label == "54C" and all(abs(n - 54) <= 4 for n in laws), laws
    def depth(key):  # 27 → 1, 27B → 2, 27B1 → 3, 27B1b → 4, 40B2aiv → 5
        return sum(1 for part in vars(ClauseId.parse(exam.targets[key].match[0])).values() if part)
    for q in questions(exam, "situation") + questions(exam, "timeref"):
        near = 0 if depth(q.answer) < 5 else 1  # few Laws have a roman numeral: a lettered item will do
        assert sum(abs(depth(k) - depth(q.answer)) <= near for k in q.distractors) >= 3, q.id  # three of its shape
        if depth(q.answer) == 1:
            assert all(depth(k) == 1 for k in q.distractors), q.id  # a Law against Laws


def test_every_id_is_the_exports_and_every_period_the_clocks(exam, export, build_dir):
    import kb
    units = {(d["id"], u["id"]): {c["id"] for c in u["clauses"]} for d in export["documents"] for u in d["units"]}
    for key, t in exam.targets.items():
        assert (t.doc, t.unit) in units and (t.clause is None or t.clause in units[(t.doc, t.unit)]), key
        assert t.url == "/" + key
    for q in exam.questions:
        assert {q.answer, *q.accepted, *q.distractors, *q.shows} <= set(exam.targets), q.id
    periods = [row["period"] for row in kb.open(build_dir).clock]
    assert exam.periods == tuple(periods) and len(periods) == 9
    assert {q.period for q in exam.questions if q.kind != "definition"} == set(periods)
    assert {q.period for q in questions(exam, "definition")} == {""}


def test_a_typed_answer_names_its_target_as_the_number_parser_reads_it(exam):
    """search.js's numberQuery reads "27 b 1 b" as 27B1b, "norma 92" as the norm of Laws 92-93,
    "appendice 3" as the appendix: each target says which of these it is."""
    t = exam.targets
    assert t["it-laws/90#90B1"].match == ("90B1",) and t["it-laws/90#90B1"].law == "90"
    assert t["it-norms/92-93"].match == ("n:92", "n:93") and t["it-norms/alert"].match == ("a:3",)
    assert all(x.match == (x.clause or x.unit,) for x in t.values() if x.form == "clause")


def test_a_definition_is_asked_without_its_term(exam, export):
    laws = next(d for d in export["documents"] if d["id"] == "it-laws")
    terms = {u["id"]: u["title"] for u in laws["units"] if u["kind"] == "definition"}
    for q in questions(exam, "definition"):
        term = terms[q.answer.split("/")[1]]
        assert exam.targets[q.answer].label == term and not re.search(rf"\b{re.escape(term)}\b", dict(q.ask)["it"], re.I)
    assert "def-cancellata" not in {q.answer.split("/")[1] for q in questions(exam, "definition")}  # "Vedi Ritirata"


def test_a_stem_is_shown_with_its_whole_list(exam, export):
    """A clause that introduces a list is graded with its items, an item that ends on ":" ("… oppure:")
    with its stem and the other items: never a sentence ending in ':'."""
    laws = {u["id"]: u for d in export["documents"] if d["id"] == "it-laws" for u in d["units"]}
    stems = 0
    for t in (t for t in exam.targets.values() if t.form == "clause" and t.text):
        assert not t.text.rstrip().endswith(":"), t.key
        unit = laws[t.unit]
        own = next(c for c in unit["clauses"] if c["id"] == (t.clause or t.unit))
        items = [c["text"] for c in unit["clauses"] if c["parent"] == own["id"] and c["text"]]
        if own["text"].rstrip().endswith(":") and items:
            stems += 1
            assert own["text"] in t.text and all(i in t.text for i in items), t.key
    assert stems >= 5
    either = exam.targets["it-laws/26#26B1"].text  # "Obbligare … oppure:" and "Proibire …": Law 26B whole
    assert [c["text"] in either for c in laws["26"]["clauses"] if c["id"].startswith("26B")] == [True, True, True]


def test_the_draw_takes_each_kind_its_share(exam):
    assert set(SHARES) == set(KINDS) and sum(SHARES.values()) == pytest.approx(1)
    assert 20 in SIZES and all(len(questions(exam, k)) >= max(SIZES) * SHARES[k] for k in KINDS)  # a 40 can be drawn


# ---------------------------------------------------------------- the page and its data (web/study/exam.py)
def test_the_questions_json_is_the_compilers(client, exam):
    r = client.get("/study/exam.json")
    data = r.json()
    assert r.status_code == 200 and data["build"] == r.headers["x-build"] and data["laws"] == "it-laws"
    assert [q["id"] for q in data["questions"]] == [q.id for q in exam.questions]
    assert data["targets"]["it-laws/90#90B1"]["label"] == "90B1" and data["kinds"] == list(KINDS)
    assert client.get("/study/exam.json", headers={"if-none-match": r.headers["etag"]}).status_code == 304


@pytest.mark.parametrize("ui, title, start, sizes", [
    ("it", "Simulazione d'esame", "Inizia la simulazione", ["10 domande · 7:30", "20 domande · 15:00", "40 domande · 30:00"]),
    ("es", "Simulacro de examen", "Empezar el simulacro",
     ["10 preguntas · 7:30", "20 preguntas · 15:00", "40 preguntas · 30:00"]),
    ("en", "Mock exam", "Start the exam", ["10 questions · 7:30", "20 questions · 15:00", "40 questions · 30:00"])])
def test_the_exam_page_speaks_the_readers_language(client, ui, title, start, sizes):
    html = client.get("/study/exam", params={"ui": ui}).text
    client.cookies.clear()
    assert f"<title>{title.replace(chr(39), '&#39;')} · " in html and f">{start}</button>" in html
    assert re.findall(r'<input type="radio" name="size" value="\d+"(?: checked)?> ([^<]+)</label>', html) == sizes
    assert 'value="20" checked' in html and 'data-questions="/study/exam.json" data-seconds="45"' in html
    assert '<script src="/static/exam.js" defer></script>' in html and "/static/search.js" in html
    assert not re.search(r"<script>|<style|\son\w+=|\sstyle=", html)  # the CSP allows no inline code or style
    words = dict(re.findall(r'data-([a-z-]+)="([^"]*)"', html.split('id="exam-words"')[1].split(">")[0]))
    assert len(words) >= 40 and all(words.values())  # every word the script shows, in the page's language
    assert {f"period-{p}" for p in ("before-round", "auction", "correction")} <= set(words)


def test_the_exam_is_linked_kept_offline_and_copied(client):
    from web.offline.sitecopy import is_shared, relink
    assert 'href="/study/exam"' in client.get("/").text and 'href="/study/exam"' in client.get("/study").text
    state = client.get("/offline/manifest.json").json()
    assert "/study/exam" in state["pages"] and {"/study/exam.json", "/static/exam.js"} <= set(state["assets"])
    assert is_shared("/study/exam.json") and not is_shared("/study/exam")  # the questions once, the page per language
    assert 'data-questions="../../study/exam.json"' in relink('<section data-questions="/study/exam.json">', "study/exam.html", "it")
