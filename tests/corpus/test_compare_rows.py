"""Compare rows that say what changed (issue "At the table", item 6): a row badged `changed`
has a note in the reader's language and its changed words emphasised; a row badged new or
removed says what it is; a row that says the same emphasises nothing; on a phone each cell
names its edition.

The page is read as a reader sees it, for each of the 93 Laws in each interface language.
The known faults are checked against words read in the two texts: 64B1–B7 were all
"changed, 2017 adds B8", five of them saying the same; 27B2 was changed with no note and
nothing emphasised (it cites 72C where 2007 cited 23); IT 40B2(a)(i)–(iii) were new with no
note although ES 40B2(a) says them; "chiamata paragonabile" in 27B1(b) was not emphasised
(a citation link inside the phrase kept it plain).
"""
import re
from pathlib import Path

import pytest

from tests.corpus.test_compare import page_rows, pair

LAWS = range(1, 94)
INTERFACES = ("it", "es", "en")
STYLE = Path(__file__).resolve().parents[2] / "web" / "static" / "style.css"


@pytest.fixture(scope="module")
def pages(client) -> dict[tuple[int, str], list[dict]]:
    """The rows of every compare page in every interface language."""
    return {(n, ui): page_rows(client, n, ui) for n in LAWS for ui in INTERFACES}


def where(n: int, row: dict) -> tuple:
    return n, pair(row, "it"), pair(row, "es")


def test_every_changed_row_says_what_changed_in_the_readers_language(pages):
    unsaid = [(where(n, r), ui, r["note_lang"]) for (n, ui), rows in pages.items() for r in rows
              if r["relation"] == "changed" and not (r["note"].strip() and r["note_lang"] == ui)]
    assert unsaid == []
    assert sum(r["relation"] == "changed" for n in LAWS for r in pages[(n, "en")]) > 50


def test_every_changed_row_emphasises_its_changed_words(pages):
    plain = [where(n, r) for n in LAWS for r in pages[(n, "en")]
             if r["relation"] == "changed" and not any(m.strip() for side in ("it", "es") for m in r["marks"][side])]
    assert plain == []


def test_a_row_that_says_the_same_emphasises_nothing(pages):
    marked = [(where(n, r), r["marks"]) for n in LAWS for r in pages[(n, "en")]
              if r["relation"] == "same" and (r["marks"]["it"] or r["marks"]["es"])]
    assert marked == []


def test_every_row_new_or_removed_in_2017_says_what_it_is(client):
    """In each language the note is written in (a group of rows under one concordance row, such
    as IT 64C2(a)–(b), shows its note once on the page: the rows are checked in the knowledge base)."""
    editions = client.app.state.site.editions
    unsaid = [(n, r.new, r.old, r.relation, dict(r.notes)) for n in LAWS for r in editions.compare(str(n)).rows
              if r.relation in ("new-in-2017", "removed-in-2017")
              and not all(dict(r.notes).get(lang, "").strip() for lang in INTERFACES)]
    assert unsaid == []


def test_notes_speak_to_a_director_not_to_the_maintainers(pages):
    jargon = re.compile(r"logical id|identificativ|identificador|\bparser\b|\bids?\b|clause rows", re.I)
    said = [(where(n, r), ui, r["note"]) for (n, ui), rows in pages.items() for r in rows if jargon.search(r["note"])]
    assert said == []


def row(rows: list[dict], it: str | None, es: str | None) -> dict:
    found = [r for r in rows if (pair(r, "it"), pair(r, "es")) == (it, es)]
    assert len(found) == 1, (it, es, [r["data"] for r in rows])
    return found[0]


# Read in the two texts: IT 64B1-B2 and B4-B6 say what ES 64B1-B2 and B4-B6 say (B2's Spanish
# "Se puede aplicar el Artículo 64C" is the Italian preamble's "(ma vedi Art 64C)"); IT B3 names a
# penalty card or dummy's card where ES names any card faced on the table; IT B7 adds that both
# revokes be established; IT B8 (a revoke corrected under 62C3) has no Spanish counterpart.
@pytest.mark.parametrize("n, it, es, relation, note_says, it_marks, es_marks", [
    (64, "64B", "64B", "same", None, None, None),
    *[(64, f"64B{k}", f"64B{k}", "same", None, None, None) for k in (1, 2, 4, 5, 6)],
    (64, "64B3", "64B3", "changed", None, "penalizzata", "expuesta"),
    (64, "64B7", "64B7", "changed", None, "consumate", None),
    (64, "64B8", None, "new-in-2017", "62C3", None, None),
    (27, "27B2", "27B2", "changed", "72C", "72C", "23"),      # "vedi l'Art 72C" against "ver el Artículo 23"
    (27, "27B3", "27B3", "changed", "72C", "72C", "23"),
    (27, "27B1b", "27B1b", "changed", "23A", "paragonabile", "más preciso"),
    *[(40, f"40B2a{k}", "40B2a", "split", "40B2(a)", None, None) for k in ("i", "ii", "iii")],
    (31, "31B1", "31B", "changed", "16C2", "qualunque chiamata legale", None),
    (75, "75B2", "75B", "changed", "20F4", "prima che la carta d'attacco venga scoperta", None),
])
def test_known_rows_say_what_changed(pages, n, it, es, relation, note_says, it_marks, es_marks):
    for ui in INTERFACES:
        r = row(pages[(n, ui)], it, es)
        assert r["relation"] == relation, ui
        if note_says:
            assert note_says in r["note"] and r["note_lang"] == ui, (ui, r["note"])
        if relation == "same":
            assert r["marks"] == {"it": [], "es": []}
        for side, words in (("it", it_marks), ("es", es_marks)):
            if words:
                assert any(words in m for m in r["marks"][side]), (side, r["marks"][side])


def test_a_phrase_with_a_citation_inside_is_emphasised_whole(client):
    """27B1(b): "corretta con una chiamata paragonabile (vedi Art 23A)" holds the link "Art 23A";
    the mark runs across it, the link still a link."""
    html = client.get("/compare/27").text
    cell = re.search(r'<div class="cell newer it"[^>]*id="it-27B1b">(.*?)</div>', html, re.S).group(1)
    mark = re.search(r'<mark class="change">(corretta con una chiamata paragonabile.*?)</mark>', cell, re.S)
    assert mark and re.search(r'<a href="[^"]*#23A"[^>]*>Art 23A</a>', mark.group(1))


def test_on_a_phone_each_cell_names_its_edition(pages):
    """The head row naming the editions is hidden below 48rem: each cell carries its edition
    ("IT 2017", "ES 2007") and the narrow-screen style shows it before the cell's text."""
    rows = pages[(27, "en")]
    assert {r["edition"]["it"] for r in rows} == {"IT 2017"} and {r["edition"]["es"] for r in rows} == {"ES 2007"}
    narrow = re.findall(r"@media \(max-width: 47\.99rem\) \{([^@]*?)\n\}", STYLE.read_text(encoding="utf-8"), re.S)
    assert any(re.search(r"\.compare \.cell\[data-edition\][^{]*::before \{[^}]*content: attr\(data-edition\)", block)
               for block in narrow)
