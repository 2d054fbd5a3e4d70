"""Every card of every reader's package (it, es, en), read from the .apkg `kb build` writes (a zip
holding an SQLite collection), held to the texts and to the situation index — by ids, not by
wording: a situation is answered by its lead norm (corpus/situations.tsv's `lead`) and then by
its first Law clause in the edition of the reader's language (the Laws in force where that
edition has none); a time reference by its entry and the clause its reference names; every
passage whole (each clause under it, no stem left hanging), its edition named, in the reader's
language wherever the text exists in it and labelled with its language where it does not."""
import csv
import html
import re
from collections import Counter
from pathlib import Path

import genanki
import pytest
from apkg import Collection, read_apkg

from kb.generations import DECKS_NAME

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
READERS = ("it", "es", "en")


def situation_rows() -> list[dict[str, str]]:
    lines = [ln for ln in (CORPUS / "situations.tsv").read_text(encoding="utf-8").splitlines()
             if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def changed_2007() -> dict[str, str]:
    """The 2007 clauses the concordance names with a relation other than `same` → their 2017 clause."""
    lines = [ln for ln in (CORPUS / "concordance.tsv").read_text(encoding="utf-8").splitlines()
             if ln and not ln.startswith("#")]
    return {r["older"]: r["newer"] for r in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
            if r["older"] and r["relation"] != "same"}


@pytest.fixture(scope="module")
def packages(build_dir) -> dict[str, Collection]:
    return {lang: read_apkg(build_dir / "current" / DECKS_NAME.format(lang=lang)) for lang in READERS}


@pytest.fixture(scope="module")
def docs(export) -> dict[str, dict]:
    return {d["id"]: d for d in export["documents"]}


def clauses_of(docs, target: str) -> list[dict]:
    """What a passage must hold: the clause a target names and every clause under it (the export's parents)."""
    doc, _, rest = target.partition(":")
    unit_id, _, clause = rest.partition("#")
    unit = next(u for u in docs[doc]["units"] if u["id"] == unit_id)
    if not clause:
        return unit["clauses"]
    held, out = {clause}, []
    for c in unit["clauses"]:
        if c["id"] in held or c["parent"] in held:
            held.add(c["id"])
            out.append(c)
    return out


def held(docs, target: str) -> str:
    """A clause as its text holds it: the nearest one it marks (2007 prints 21B1(a) inside 21B1)."""
    doc, _, rest = target.partition(":")
    unit_id, _, clause = rest.partition("#")
    ids = {c["id"] for u in docs[doc]["units"] if u["id"] == unit_id for c in u["clauses"]}
    while clause not in ids:
        clause = clause[:-1]
    return f"{doc}:{unit_id}#{clause}"


def spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def edition_of(docs, reader: str) -> tuple[str, str]:
    """The Laws a reader of that language reads (its own language's edition, else the Laws in
    force, the newest) and the index's column of that edition."""
    laws = sorted((d for d in docs.values() if d["kind"] == "laws"), key=lambda d: d["edition"], reverse=True)
    doc = next((d for d in laws if d["lang"] == reader), laws[0])
    return doc["id"], f"laws_{doc['edition']}"


def law_target(doc: str, cid: str) -> str:
    law = re.match(r"\d+", cid)[0]
    return f"{doc}:{law}#{cid}"


def plain(field: str) -> str:
    """A field's text, as Anki shows it."""
    return html.unescape(re.sub(r"<[^>]+>", "", field))


def by_deck(collection: Collection, deck: str) -> list:
    return [n for n in collection.notes if deck in n.tags]


# ---------------------------------------------------------------- every passage of every card
@pytest.mark.parametrize("reader", READERS)
def test_no_passage_leaves_a_stem_or_a_clause_of_its_own_out(packages, docs, reader):
    """Each quoted clause comes with every clause under it; no answer ends on a stem (":"). (A
    title card quotes its Law's title alone: `test_each_title_is_its_laws`.)"""
    short, stems = [], []
    for note in (n for n in packages[reader].notes if "titles" not in n.tags):
        passages = note.passages
        assert passages, note.fields[0]
        for p in passages:
            said = spaced(p.text)
            short += [(p.target, c["id"]) for c in clauses_of(docs, p.target)
                      for line in c["text"].split("\n") if spaced(line) not in said]
        if spaced(passages[-1].text).endswith(":"):
            stems.append(passages[-1].target)
    assert short == [] and stems == []


@pytest.mark.parametrize("reader", READERS)
def test_every_passage_names_its_edition_and_its_language_where_not_the_readers(packages, docs, reader):
    for note in packages[reader].notes:
        for p in note.passages:
            doc = docs[p.target.split(":")[0]]
            assert p.heading.startswith(doc["label"][reader]) and doc["edition"] in p.heading, (p.target, p.heading)
            assert p.lang == doc["lang"]
            assert bool(p.published) == (p.lang != reader), (p.target, p.published)


@pytest.mark.parametrize("reader", READERS)
def test_a_package_speaks_its_readers_language_and_links_nowhere(packages, reader):
    """The build cannot know where it will be served: no card links (rather than to a dead address)."""
    collection = packages[reader]
    assert all(f"lang::{reader}" in n.tags for n in by_deck(collection, "situations"))
    assert Counter(n.tags[0] for n in collection.notes) == {"definitions": 63, "timerefs": 178, "titles": 186,
                                                            "situations": 472}
    assert all(n.link == "" for n in collection.notes)
    assert not any("127.0.0.1" in f for n in collection.notes for f in n.fields)


# ---------------------------------------------------------------- situations, by the index
@pytest.mark.parametrize("reader", READERS)
def test_a_situation_is_answered_by_its_lead_then_its_law_in_the_readers_edition(packages, docs, reader):
    laws, column = edition_of(docs, reader)
    in_force, force_column = edition_of(docs, "")
    notes = {n.guid: n for n in by_deck(packages[reader], "situations")}
    wrong = []
    rows = situation_rows()
    for row in rows:
        note = notes.pop(genanki.guid_for(f"situations:{row['id']}:{reader}"))
        first = (law_target(laws, row[column].split()[0]) if row[column].split()
                 else law_target(in_force, row[force_column].split()[0]))
        expected = [*([row["lead"]] if row["lead"] else []), first]
        if [p.target for p in note.passages] != expected:
            wrong.append((row["id"], [p.target for p in note.passages], expected))
        assert plain(note.fields[0]) == row[reader].split("|")[0].strip()
    assert wrong == [] and notes == {}  # one card per situation of the index, nothing else
    assert len(rows) == 472 and sum(1 for r in rows if r["lead"]) == 117


def test_the_spanish_reader_reads_2007_and_what_2017_changed_there(packages, docs):
    es = {n.guid: n for n in by_deck(packages["es"], "situations")}
    changed, noted, ruled = changed_2007(), 0, 0
    for row in situation_rows():
        law = es[genanki.guid_for(f"situations:{row['id']}:es")].passages[-1]
        if not row["laws_2007"]:  # new in 2017: the 2017 text, in Italian, says so
            assert law.target.startswith("it-laws:") and law.published == "texto en italiano" and "2017" in law.change
            continue
        ruled += 1
        assert law.target.startswith("es-laws:") and law.lang == "es" and law.published == ""
        cid = law.target.split("#")[1]
        if cid in changed:  # the 2017 clause it became is named
            noted += 1
            assert changed[cid] in law.change.replace("(", "").replace(")", ""), (cid, law.change)
    assert ruled == 467 and noted > 10


def test_forfeit_and_dummys_score_slip_are_ruled_by_their_norms(packages):
    """The two wrong answers the issue names: a team's forfeit is FIGB norm 8-3b2 (the Laws only
    give lateness, 90B1), dummy looking at the score slip is norm 43 (the Law's 43B2 a stem)."""
    it = packages["it"]
    forfeit = it.by_guid(genanki.guid_for("situations:team-forfeit:it")).passages
    assert forfeit[0].target == "it-norms:8#8-3b2" and forfeit[0].heading == "Norme integrative 2026, Norma 8 §3b2"
    assert "15' di ritardo" in forfeit[0].text and "perdente" in forfeit[0].text
    dummy = it.by_guid(genanki.guid_for("situations:dummy-looks-at-score:it")).passages
    assert dummy[0].target == "it-norms:43#43-penalita-del-morto"
    assert "il morto perde i propri diritti se prende visione dello score" in dummy[0].text
    assert dummy[1].heading == "Codice 2017, Art. 43B2" and "renonce" in dummy[1].text  # 43B2's items (a), (b)


def test_an_item_comes_with_its_stem_and_an_alternative_with_the_other(packages):
    it = packages["it"]
    late = it.by_guid(genanki.guid_for("situations:late-arrival:it")).passages[-1]
    assert late.text.startswith("90B Infrazioni soggette a penalità procedurali")  # what 90B1 is an item of
    lead = it.by_guid(genanki.guid_for("situations:lead-restrictions-withdrawn-call:it")).passages[-1]
    assert "Obbligare il compagno" in lead.text and "Proibire al compagno" in lead.text  # 26B1 "…oppure:" 26B2


# ---------------------------------------------------------------- the other decks
@pytest.mark.parametrize("reader", READERS)
def test_each_definition_is_its_terms(packages, docs, reader):
    laws = docs[edition_of(docs, "")[0]]
    terms = {u["id"]: u for u in laws["units"] if u["kind"] == "definition"}
    seen = []
    for note in by_deck(packages[reader], "definitions"):
        (p,) = note.passages
        unit = p.target.split(":")[1]
        seen.append(unit)
        assert p.target == f"{laws['id']}:{unit}" and plain(note.fields[0]) == terms[unit]["title"]
    assert sorted(seen) == sorted(terms) and len(seen) == 63


@pytest.mark.parametrize("reader", READERS)
def test_each_time_reference_is_its_entry_and_the_clause_it_names(packages, docs, export, reader):
    cited = {(c["source"]["unit"], c["source"]["clause"]): "{doc}:{unit}#{clause}".format(**c["target"])
             for c in export["citations"] if c["source"]["doc"] == "it-timeref" and c["where"] == "ref"}
    topics = {u["id"]: u for u in docs["it-timeref"]["units"]}
    laws, _ = edition_of(docs, reader)
    notes = by_deck(packages[reader], "timerefs")
    for note in notes:
        entry, *own = note.passages
        unit, clause = entry.target.split(":")[1].split("#")
        said = next(c for c in topics[unit]["clauses"] if c["id"] == clause)
        assert plain(note.fields[0]) == f"{topics[unit]['title']}: {said['subtopic']}"
        from_here = [c for c in topics[unit]["clauses"] if c.get("parent") == said["parent"]]
        from_here = [cited[(unit, c["id"])] for c in from_here[from_here.index(said):] if (unit, c["id"]) in cited]
        # its own reference first, then those of the entries a stem of it brings
        assert entry.refs == from_here[:len(entry.refs)] and bool(entry.refs) == ((unit, clause) in cited), clause
        # the reader of the edition cited reads the clause there (one its text does not mark, in the clause holding it)
        assert [p.target for p in own] == [held(docs, t) for t in entry.refs if t.startswith(laws + ":")]
    assert len(notes) == 178


@pytest.mark.parametrize("reader", READERS)
def test_each_title_is_its_laws(packages, docs, reader):
    titles = {f"{d}:{u['id']}": u["title"] for d in ("it-laws", "es-laws") for u in docs[d]["units"]
              if u["kind"] == "article" and u.get("title")}
    notes = by_deck(packages[reader], "titles")
    for note in notes:
        (p,) = note.passages
        doc, unit = p.target.split(":")
        assert p.text == titles[f"{doc}:{unit}"] and plain(note.fields[0]).endswith(f" {unit}")
        assert plain(note.fields[0]).startswith(docs[doc]["label"][reader])  # the question names the edition
    assert len(notes) == len(titles) == 186


def test_the_spanish_decks_are_named_in_spanish(packages):
    assert "Reglamento del Bridge::Títulos de los artículos" in packages["es"].decks
