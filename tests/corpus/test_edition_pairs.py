"""Editions as data (issue 33, item 4): a concordance per pair of editions, named by the newer
edition's manifest entry, its columns by role (older, newer), its notes in the readers' tables.

The 2007 → 2017 compare rows and changes are those of before editions became data: the compare
rows of every Law as /api/compare/{n} gave them on main (tests/data/compare-2007-2017.json), held
to corpus/concordance.tsv read here with the csv module, and /api/changes worked out from that
table and its notes tables alone."""
import csv
import json
import re
import shutil
from pathlib import Path

import pytest

from kb.corpus.manifest import CORPUS_DIR, CorpusError, load_manifest
from kb.corpus.library import EditionPair, Entry, Library

DATA = Path(__file__).resolve().parents[1] / "data"
BEFORE = json.loads((DATA / "compare-2007-2017.json").read_text(encoding="utf-8"))["laws"]
NOTES_LANGS = ("en", "it", "es")


def tsv(path: Path) -> list[dict[str, str]]:
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


ROWS = tsv(CORPUS_DIR / "concordance.tsv")
BY_PAIR = {(r["older"], r["newer"]): r for r in ROWS}
NOTES = {}  # (older, newer) → {language: note}, as the readers' tables say
for lang in NOTES_LANGS:
    for r in tsv(CORPUS_DIR / "notes" / lang / "concordance.tsv"):
        NOTES.setdefault((r["older"], r["newer"]), {})[lang] = r["note"]


def law_of(cid: str) -> int:
    return int(re.match(r"\d+", cid)[0])


def test_the_manifest_names_the_pair_and_its_table():
    library = Library.of([e.fields for e in load_manifest()])
    assert library.pairs == (EditionPair("es-laws", "it-laws", "concordance.tsv"),)
    assert library.maps_to("es-laws") == "it-laws" and library.chain("es-laws", "it-laws") == library.pairs


@pytest.mark.parametrize("n", range(1, 94))
def test_every_laws_compare_rows_are_those_of_before(client, n):
    rows = client.get(f"/api/compare/{n}").json()["rows"]
    assert [[r["newer"], r["older"], r["relation"], r["elsewhere"]] for r in rows] == BEFORE[str(n)]


def test_the_rows_of_before_are_the_concordances_where_it_names_the_pair():
    """Every compare row of before whose two clauses a row of the table names has that row's
    relation (tests/corpus/test_compare.py works out the rest of the pairing from the table)."""
    shown = {(older, newer): relation for rows in BEFORE.values() for newer, older, relation, _ in rows}
    named = {pair: relation for pair, relation in shown.items() if pair in BY_PAIR}
    assert named == {pair: BY_PAIR[pair]["relation"] for pair in named} and len(named) > 300


def test_a_compare_rows_note_is_its_concordance_rows_in_every_language(client):
    for n in (6, 12, 16, 45):
        for r in client.get(f"/api/compare/{n}").json()["rows"]:
            pair = (r["older"] or "", r["newer"] or "")
            if pair in BY_PAIR:
                assert r["notes"] == NOTES.get(pair, {}) and r["note"] == NOTES.get(pair, {}).get("en", ""), pair


def test_the_changes_are_the_tables_rows_that_are_not_same_with_their_notes(client):
    expected = [{"law": law_of(r["newer"] or r["older"]), "relation": r["relation"], "older": r["older"] or None,
                 "newer": r["newer"] or None, "note": NOTES.get((r["older"], r["newer"]), {}).get("en", ""),
                 "notes": NOTES.get((r["older"], r["newer"]), {})} for r in ROWS if r["relation"] != "same"]
    got = client.get("/api/changes").json()
    assert (got["older"], got["newer"]) == ("es-laws", "it-laws")
    assert got["changes"] == sorted(expected, key=lambda c: c["law"])
    assert client.get("/api/changes", params={"older": "es-laws", "newer": "it-laws"}).json() == got


def test_a_pair_the_manifest_does_not_make_is_a_404_naming_the_pairs(client):
    r = client.get("/api/changes", params={"older": "it-laws", "newer": "es-laws"})
    assert r.status_code == 404 and "older=es-laws&newer=it-laws" in r.json()["error"]


# ------------------------------------------------------------------ the manifest's pairs, said wrong

def manifest_with(tmp_path: Path, old: str, new: str) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR, corpus)
    manifest = corpus / "manifest.toml"
    text = manifest.read_text(encoding="utf-8")
    assert old in text
    manifest.write_text(text.replace(old, new), encoding="utf-8")
    return corpus


TABLE = 'concordances = { "es-laws" = "concordance.tsv" }'


@pytest.mark.parametrize("said, message", [
    ('concordances = { "es-laws" = "no-such.tsv" }', r"it-laws: concordance 'no-such.tsv' \(with es-laws\) is no file"),
    ('concordances = { "xx-laws" = "concordance.tsv" }', r"it-laws: concordances names 'xx-laws', which is no other edition of the Laws"),
    ('concordances = { "it-norms" = "concordance.tsv" }', r"names 'it-norms', which is no other edition of the Laws"),
    ('concordances = "concordance.tsv"', r"it-laws: concordances must be a table"),
    ('edition_of = "es-laws"', r"it-laws: edition_of pairs clauses by identical ids, in one language only.*"
                               r"concordances = \{ \"es-laws\" = \"FILE.tsv\" \}"),
])
def test_a_pair_said_wrong_is_a_one_line_error_naming_the_entry(tmp_path, said, message):
    with pytest.raises(CorpusError, match=message):
        load_manifest(manifest_with(tmp_path, TABLE, said))


def test_a_notes_table_naming_a_row_the_concordance_lacks_is_an_error(tmp_path):
    from kb.editions.concordance import Concordance
    corpus = manifest_with(tmp_path, TABLE, TABLE)
    notes = corpus / "notes" / "it" / "concordance.tsv"
    notes.write_text(notes.read_text(encoding="utf-8") + "16Z\t16Z\tnessuna riga\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=r"notes/it/concordance.tsv: no row '16Z 16Z' in concordance.tsv"):
        Concordance.load(corpus / "concordance.tsv", "2017")


def test_a_relation_naming_another_edition_is_an_error(tmp_path):
    from kb.editions.concordance import COLUMNS, Concordance
    table = tmp_path / "concordance.tsv"
    table.write_text("\t".join(COLUMNS) + "\n\t16E\tnew-in-2027\t\t\n", encoding="utf-8")
    assert Concordance.load(table).added == "new-in-2027"  # the edition its rows name
    with pytest.raises(CorpusError, match=r"unknown relation 'new-in-2027' for →16E \(relations: same, .*new-in-2017"):
        Concordance.load(table, "2017")


def test_a_chain_of_pairs_leads_from_an_edition_to_a_newer_one():
    library = Library((Entry("b", "it", "laws", "2017", concordances=(("a", "a-b.tsv"),)), Entry("a", "es", "laws", "2007"),
                       Entry("c", "en", "laws", "2027", concordances=(("b", "b-c.tsv"),)),
                       Entry("d", "en", "laws", "2031", edition_of="c")))
    ab, bc, cd = library.pairs
    assert library.chain("a", "d") == (ab, bc, cd) and library.chain("b", "c") == (bc,)
    assert library.chain("c", "c") == () and library.chain("d", "a") is None
    assert library.pair == ("a", "b")  # the first concordance's, which target_2017 is named for
