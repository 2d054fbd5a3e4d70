"""Every card of every reader's package (it, es, en), read from the .apkg `kb build` writes (a zip
holding an SQLite collection), held to the texts and to the situation index — by ids, not by
wording: a situation is answered by its lead norm (corpus/situations.tsv's `lead`), then by its
first Law clause in the edition of the reader's language (the Laws in force where that edition
has none), then by the other FIGB norms the index names for it (`also`); a time reference by its
entry and the clause its reference names; every passage whole (each clause under it, and the
whole list when it is an item of one: no stem left hanging, no item alone), its edition named,
in the reader's language wherever the text exists in it and labelled with its language where it
does not; and every question in the reader's language, its words from the reader's tables (the
glossary, the English terms, the Law titles of the reader's edition) or quoted and labelled."""
import csv
import html
import re
from collections import Counter
from pathlib import Path

import genanki
import pytest
from apkg import Collection, read_apkg
from babel.messages.pofile import read_po

from kb.corpus.catalogs import po_path
from kb.records.clauseid import readable
from kb.pipeline.generations import DECKS_NAME
from kb.study.cards import TERM_ASKED, TERM_QUOTED, TIME_ASKED, TIME_QUOTED

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
READERS = ("it", "es", "en")
QUOTES = {"it": "«»", "es": "«»", "en": "“”"}  # how each reader's catalog quotes a published term


def table_rows(name: str) -> list[dict[str, str]]:
    lines = [ln for ln in (CORPUS / name).read_text(encoding="utf-8").splitlines()
             if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def situation_rows() -> list[dict[str, str]]:
    return table_rows("situations.tsv")


def concordance_rows() -> list[dict[str, str]]:
    return table_rows("concordance.tsv")


def changed_2007() -> dict[str, str]:
    """The 2007 clauses the concordance names with a relation other than `same` → their 2017 clause."""
    return {r["older"]: r["newer"] for r in concordance_rows() if r["older"] and r["relation"] != "same"}


@pytest.fixture(scope="module")
def packages(build_dir) -> dict[str, Collection]:
    return {lang: read_apkg(build_dir / "current" / DECKS_NAME.format(lang=lang)) for lang in READERS}


@pytest.fixture(scope="module")
def docs(export) -> dict[str, dict]:
    return {d["id"]: d for d in export["documents"]}


def announces(c: dict) -> bool:
    """A clause whose text ends on a stem (":"): it announces a list, its items under it."""
    return c["text"].rstrip().endswith(":")


def clauses_of(docs, target: str, whole: bool = True) -> list[dict]:
    """What a passage must hold: the clause a target names, or the whole list it is an item of
    (the stem its parent is, or the unit's own text for a section, and every item; not `whole`:
    the clause alone), and every clause under that (the export's parents) but a norm's
    paragraph keyed to a Law clause of its own ("43B3 …", below a paragraph of the norm)."""
    doc, _, rest = target.partition(":")
    unit_id, _, clause = rest.partition("#")
    unit = next(u for u in docs[doc]["units"] if u["id"] == unit_id)
    if not clause:
        return unit["clauses"]
    by_id = {c["id"]: c for c in unit["clauses"]}
    while whole and by_id[clause]["parent"] and announces(by_id[by_id[clause]["parent"]]):
        clause = by_id[clause]["parent"]
    held, out = {clause}, []
    for c in unit["clauses"]:
        keyed = c.get("law_clause") and clause != unit_id
        if c["id"] == clause or (c["parent"] in held and not keyed):
            held.add(c["id"])
            out.append(c)
    return out


def missing_lines(docs, p) -> list[tuple[str, str]]:
    """The clauses of what a passage must hold that it leaves out (a line of theirs it does not say)."""
    said = spaced(p.text)
    return [(p.target, c["id"]) for c in clauses_of(docs, p.target)
            for line in c["text"].split("\n") if spaced(line) not in said]


def held(docs, target: str) -> str:
    """A clause as its text holds it: the nearest one it marks (2007 prints 21B1(a) inside 21B1)."""
    doc, _, rest = target.partition(":")
    unit_id, _, clause = rest.partition("#")
    ids = {c["id"] for u in docs[doc]["units"] if u["id"] == unit_id for c in u["clauses"]}
    if not clause:
        return target
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
    """A Law clause id as the index writes it, as a target: `40B2c` → `es-laws:40#40B2c`; a definition's (`def-licita`), its unit."""
    law = re.match(r"\d+", cid)
    return f"{doc}:{law[0]}#{cid}" if law else f"{doc}:{cid}"


def plain(field: str) -> str:
    """A field's text, as Anki shows it."""
    return html.unescape(re.sub(r"<[^>]+>", "", field))


def by_deck(collection: Collection, deck: str) -> list:
    return [n for n in collection.notes if deck in n.tags]


def msgstr(reader: str, msgid: str) -> str:
    """A string of the interface as the reader's catalog (kb/locale) says it."""
    with po_path(reader).open("rb") as f:
        return read_po(f, locale=reader)[msgid].string


def frame_words(reader: str, *msgids: str) -> set[str]:
    """The words a reader's catalog frames a question with (its placeholders left out)."""
    return {w for m in msgids for w in words(re.sub(r"%\(\w+\)s", " ", msgstr(reader, m)))}


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def holds(outer: str, inner: str) -> bool:
    """Whether a target holds another: its unit, or a clause of which the other is a part (by the export's ids)."""
    (o_doc_unit, _, o_clause), (i_doc_unit, _, i_clause) = outer.partition("#"), inner.partition("#")
    return o_doc_unit == i_doc_unit and (not o_clause or i_clause.startswith(o_clause))


# ---------------------------------------------------------------- every passage of every card
@pytest.mark.parametrize("reader", READERS)
def test_no_passage_leaves_a_stem_or_a_clause_of_its_own_out(packages, docs, reader):
    """Each quoted clause comes with every clause under it; no answer ends on a stem (":"). (A
    title card quotes its Law's title alone: `test_each_title_is_its_laws`.)"""
    short, stems = [], []
    for note in (n for n in packages[reader].notes if "titles" not in n.tags):
        passages = note.passages
        assert passages, note.fields[0]
        short += [m for p in passages for m in missing_lines(docs, p)]
        if spaced(passages[-1].text).endswith(":"):
            stems.append(passages[-1].target)
    assert short == [] and stems == []


@pytest.mark.parametrize("reader", READERS)
def test_an_item_of_a_list_is_never_quoted_alone(packages, docs, reader):
    """A clause whose parent's text (or, for a section, the Law's own) ends on a stem (":") is
    one item of a list: the card quotes the stem and every item. The three the card read found
    quoting one item: 37B1 (37B "Nel caso che A. non si applichi:" announces 37B1 and 37B2, the
    rectification), 2007's 84A (Law 84 "actuará de la siguiente manera:" announces A-D) and 79B1
    (79B "se debe llamar al Árbitro, y:" announces B1 and B2)."""
    alone = []
    for note in packages[reader].notes:
        for p in note.passages:
            doc, _, rest = p.target.partition(":")
            unit, _, clause = rest.partition("#")
            u = next(u for u in docs[doc]["units"] if u["id"] == unit)
            parent = next((c for c in u["clauses"] if clause and c["id"] == clause), {}).get("parent")
            items = [c for c in u["clauses"] if parent and c["parent"] == parent]
            stem = next((c for c in u["clauses"] if c["id"] == parent), None)
            if stem and announces(stem) and not all(spaced(c["text"].split("\n")[0]) in spaced(p.text) for c in items):
                alone.append(p.target)
    assert alone == []
    named = {"it-laws": [("call-when-required-to-pass", "37B1", "La chiamata viene sostituita da un passo")],
             "es-laws": [("agreed-facts-ruling", "84A", "El Árbitro buscará la manera de restablecer la equidad"),
                         ("disagreement-tricks", "79B1", "el Árbitro decidirá qué resultado anotar")]}
    for situation, item, rule in named[edition_of(docs, reader)[0]]:
        passages = packages[reader].by_guid(genanki.guid_for(f"situations:{situation}:{reader}")).passages
        (quoted,) = [p for p in passages if p.target.endswith(f"#{item}")]
        assert rule in quoted.text, (situation, reader)


@pytest.mark.parametrize("reader", READERS)
def test_a_norms_paragraph_on_another_law_clause_is_not_quoted_with_the_one_named(packages, reader):
    """Norm 43's "Penalità del morto" (dummy looking at the score slip) is followed, in the
    norm, by its paragraphs on 43B2(b) and 43B3, on other irregularities: the card quotes the
    paragraph the index names."""
    (norm, *_rest) = packages[reader].by_guid(genanki.guid_for(f"situations:dummy-looks-at-score:{reader}")).passages
    assert norm.target == "it-norms:43#43-penalita-del-morto"
    assert "prende visione dello score" in norm.text
    assert "carta sostitutiva" not in norm.text and "Specifichiamo cosa si intende" not in norm.text


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
        passages, head = note.passages, 1 if row["lead"] else 0
        law = passages[head] if len(passages) > head else None  # its first clause, or a clause holding it
        if ([p.target for p in passages[:head]] != ([row["lead"]] if row["lead"] else [])
                or law is None or law.target.split(":")[0] != first.split(":")[0]
                or any(spaced(line) not in spaced(law.text) for c in clauses_of(docs, held(docs, first), False)
                       for line in c["text"].split("\n"))):
            wrong.append((row["id"], [p.target for p in passages], first))
        assert plain(note.fields[0]) == row[reader].split("|")[0].strip()
    assert wrong == [] and notes == {}  # one card per situation of the index, nothing else
    assert len(rows) == 472 and sum(1 for r in rows if r["lead"]) == 117


def ruling_clauses(docs, row: dict[str, str], reader: str) -> list[str]:
    """The Law clauses the index lists for a situation, in the reader's edition (the Laws in
    force where that edition has none): the 2007 ids for the Spanish reader, the concordance's
    `older` side, whose `newer` side the 2017 column lists."""
    laws, column = edition_of(docs, reader)
    in_force, force_column = edition_of(docs, "")
    if row[column].split():
        return [law_target(laws, cid) for cid in row[column].split()]
    return [law_target(in_force, cid) for cid in row[force_column].split()]


@pytest.mark.parametrize("reader", READERS)
def test_a_situation_card_quotes_every_law_clause_the_index_lists(packages, docs, reader):
    """Every ruling clause of the index is on the card, whole, in the reader's edition, each
    once (a clause another quoted one holds is said there: no line twice). The second card read
    found three quoting only the first: the face-down lead out of turn (41A, not 24B, 24E),
    arranging the tricks (65A, not 65B1, 65B2, 65C), dummy looking at a defender's cards
    (43A2(c), not 43B1, 43B2)."""
    missing, twice = [], []
    for row in situation_rows():
        passages = packages[reader].by_guid(genanki.guid_for(f"situations:{row['id']}:{reader}")).passages
        for target in ruling_clauses(docs, row, reader):
            said = " ".join(spaced(p.text) for p in passages if p.target.split(":")[0] == target.split(":")[0])
            missing += [(row["id"], target) for c in clauses_of(docs, held(docs, target), False)
                        for line in c["text"].split("\n") if spaced(line) not in said]
        laws = [p for p in passages if docs[p.target.split(":")[0]]["kind"] == "laws"]
        twice += [(row["id"], p.target) for i, p in enumerate(laws) for q in laws[i + 1:]
                  if p.target.split(":")[0] == q.target.split(":")[0] and spaced(p.text) in spaced(q.text)]
    assert missing == [] and twice == []
    laws = edition_of(docs, reader)[0]
    named = {"face-down-lead-out-of-turn": "24E" if laws == "it-laws" else "24", "arranging-tricks": "65C",
             "dummy-looks-at-defender-hand": "43B2"}
    for situation, cid in named.items():
        passages = packages[reader].by_guid(genanki.guid_for(f"situations:{situation}:{reader}")).passages
        said = spaced(" ".join(p.text for p in passages))
        assert all(spaced(c["text"]) in said for c in clauses_of(docs, law_target(laws, cid))), situation


@pytest.mark.parametrize("reader", READERS)
def test_every_figb_norm_the_index_names_is_on_its_card(packages, docs, reader):
    """After the lead and the Law, the other FIGB norms the index names for a situation (its
    `also` of the norms), whole, in the index's order, under a heading in the reader's language;
    a norm left out is one the card already says (an item of a list quoted before) or one that
    holds a passage quoted before (the section or unit the lead stands in). The card read found
    three left out: the norm on Art. 70 on a trump still out (a.1, a.2), the 2026 norm on 27D
    (Law 16 never involved), the norm on Art. 12 (Neuberg)."""
    heading, left_out = msgstr(reader, "In Italy (FIGB), also:"), []
    for row in situation_rows():
        passages = packages[reader].by_guid(genanki.guid_for(f"situations:{row['id']}:{reader}")).passages
        norms = [t for t in row["also"].split() if t.split(":")[0] == "it-norms" and t != row["lead"]]
        head = (1 if row["lead"] else 0) + sum(docs[p.target.split(":")[0]]["kind"] == "laws" for p in passages)
        rest, said = passages[head:], " ".join(spaced(p.text) for p in passages)
        assert [p.target for p in rest] == [t for t in norms if t in {p.target for p in rest}], row["id"]
        assert [p.section for p in rest] == ([heading] + [""] * (len(rest) - 1) if rest else []), row["id"]
        assert all(p.section == "" for p in passages[:head])
        for t in norms:
            whole = all(spaced(line) in said for c in clauses_of(docs, t) for line in c["text"].split("\n"))
            if not (whole or any(holds(t, p.target) for p in passages[:head])):
                left_out.append((row["id"], t))
    assert left_out == []
    card = {s: " ".join(p.text for p in packages[reader].by_guid(genanki.guid_for(f"situations:{s}:{reader}")).passages)
            for s in ("claim-outstanding-trump", "insufficient-bid-damage", "artificial-adjusted-score")}
    assert "la giocherà per ultima" in card["claim-outstanding-trump"] and "tagli con la più piccola" in card["claim-outstanding-trump"]
    assert "In nessun caso l'articolo 16 sarà coinvolto" in card["insufficient-bid-damage"]
    assert "Neuberg" in card["artificial-adjusted-score"] and "un massimo di 60+" in card["artificial-adjusted-score"]


def test_the_spanish_reader_reads_2007_and_what_2017_changed_there(packages, docs):
    es = {n.guid: n for n in by_deck(packages["es"], "situations")}
    changed, noted, ruled = changed_2007(), 0, 0
    for row in situation_rows():
        law = es[genanki.guid_for(f"situations:{row['id']}:es")].passages[1 if row["lead"] else 0]
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
    late = next(p for p in it.by_guid(genanki.guid_for("situations:late-arrival:it")).passages if p.target.startswith("it-laws:"))
    assert late.text.startswith("90B Infrazioni soggette a penalità procedurali")  # what 90B1 is an item of
    (lead,) = [p for p in it.by_guid(genanki.guid_for("situations:lead-restrictions-withdrawn-call:it")).passages
               if p.target.startswith("it-laws:")]
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
        assert p.target == f"{laws['id']}:{unit}"
        assert plain(note.fields[0]) == terms[unit]["title"] if reader == laws["lang"] else terms[unit]["title"] in plain(note.fields[0])
    assert sorted(seen) == sorted(terms) and len(seen) == 63


def term_names(reader: str) -> dict[str, set[str]]:
    """An Italian term of art (lower case) → its names in the reader's language the tables give:
    the glossary's Spanish, the English terms table's (tuning/terms-en.tsv) English or Spanish
    names on a row whose first Italian name is the term."""
    out: dict[str, set[str]] = {}
    for r in table_rows("tuning/terms-en.tsv"):
        it = [n.strip().lower() for n in r["it"].split(",") if n.strip()]
        if it:
            out.setdefault(it[0], set()).update(n.strip() for n in r[reader].split(",") if n.strip())
    for r in table_rows("glossary.tsv") if reader == "es" else ():
        out.setdefault(r["it"].lower(), set()).add(r["es"])
    return out


@pytest.mark.parametrize("reader", ("es", "en"))
def test_a_definition_is_asked_in_the_readers_language(packages, docs, reader):
    """The Laws' definitions are published in Italian alone (the 2007 Spanish text has none): a
    reader of Spanish or English is asked the term by its name in their language where the
    tables pair one (the glossary's Spanish first), the Italian term quoted and labelled
    beside it; else the Italian term, quoted and labelled, in a question in their language.
    Every word outside the quote is the reader's: a name from those tables or the catalog's frame."""
    terms = {u["id"]: u["title"] for u in docs["it-laws"]["units"] if u["kind"] == "definition"}
    names, frame, (opening, closing) = term_names(reader), frame_words(reader, TERM_ASKED, TERM_QUOTED), QUOTES[reader]
    glossary = {r["it"].lower(): r["es"] for r in table_rows("glossary.tsv")}
    named = 0
    for note in by_deck(packages[reader], "definitions"):
        (p,) = note.passages
        term, q = terms[p.target.split(":")[1]], plain(note.fields[0])
        quoted = f"{opening}{term}{closing}"
        assert quoted in q and p.published in q, q
        rest = words(q.replace(quoted, " ").replace(p.published, " "))
        own = {n for key in (term.lower(), re.sub(r"\s*\(.*\)$", "", term).lower()) for n in names.get(key, ())}
        assert set(rest) <= frame | {w for n in own for w in words(n)}, q
        if reader == "es" and term.lower() in glossary:
            assert q.startswith(glossary[term.lower()][0].upper() + glossary[term.lower()][1:]), q
        named += bool(set(rest) - frame)
    assert named >= 40  # most terms have a name in the reader's language


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
        q = plain(note.fields[0])
        asked = q if reader == "it" else q.split(QUOTES[reader][0], 1)[1].rsplit(QUOTES[reader][1], 1)[0]
        assert names_its_entry(asked, topics[unit], said), q
        from_here = [c for c in topics[unit]["clauses"] if c.get("parent") == said["parent"]]
        from_here = [cited[(unit, c["id"])] for c in from_here[from_here.index(said):] if (unit, c["id"]) in cited]
        # its own reference first, then those of the entries a stem of it brings
        assert entry.refs == from_here[:len(entry.refs)] and bool(entry.refs) == ((unit, clause) in cited), clause
        # the reader of the edition cited reads the clause there (one its text does not mark, in the clause holding it)
        assert [p.target for p in own] == [held(docs, t) for t in entry.refs if t.startswith(laws + ":")]
    assert len(notes) == 178


def names_its_entry(asked: str, topic: dict, entry: dict) -> bool:
    """Whether a question names a time-reference entry: its topic, its sub-heading, then the
    start of its own line (whole, or cut with "…")."""
    head = f"{topic['title']}: {entry['subtopic']} — "
    line = asked.removeprefix(head).removesuffix("…").rstrip(".:;,")
    return asked.startswith(head) and bool(line) and spaced(entry["text"]).startswith(line)


@pytest.mark.parametrize("reader", READERS)
def test_no_two_cards_of_a_package_ask_the_same(packages, reader):
    """Entries under one sub-heading of the time-reference table ("Il morto: Diritti qualificati":
    warning declarer he has not followed suit, preventing an irregularity) are asked each by its
    own line: a student can tell which is asked. (The second card read found 28 such questions
    in the Italian package, 24 in the others.)"""
    asked = Counter(plain(n.fields[0]) for n in packages[reader].notes)
    assert [q for q, n in asked.items() if n > 1] == []
    dummy = [plain(packages[reader].by_guid(genanki.guid_for(f"timerefs:it-timeref:il-morto:il-morto-{i}")).fields[0])
             for i in (4, 5)]
    assert "Prevenire qualsiasi irregolarità del dichiarante" in dummy[0]
    assert "Avvisare il dichiarante che non sta rispondendo nel colore" in dummy[1]


def law_titles(docs, reader: str) -> dict[str, str]:
    """Each Law's title in the reader's language, for a clause of the 2007 Laws the time
    references cite: the reader's own edition's (Spanish), else the WBF's English
    (law-titles.tsv: its 2007 wording where that differs)."""
    if reader == "es":
        return {u["id"]: u["title"] for u in docs["es-laws"]["units"] if u["kind"] == "article"}
    return {r["law"]: r["en_2007"] or r["en"] for r in table_rows("law-titles.tsv")}


@pytest.mark.parametrize("reader", ("es", "en"))
def test_a_time_reference_is_asked_in_the_readers_language(packages, docs, reader):
    """The 2011 table is Italian: its topic, subtopic and entry are quoted and labelled, after the
    title of the Law the entry cites in the reader's language; every other word is the catalog's."""
    titles, frame, (opening, closing) = law_titles(docs, reader), frame_words(reader, TIME_ASKED, TIME_QUOTED), QUOTES[reader]
    topics = {u["id"]: u for u in docs["it-timeref"]["units"]}
    for note in by_deck(packages[reader], "timerefs"):
        entry = note.passages[0]
        unit, clause = entry.target.split(":")[1].split("#")
        said = next(c for c in topics[unit]["clauses"] if c["id"] == clause)
        q = plain(note.fields[0])
        quoted = opening + q.split(opening, 1)[1].rsplit(closing, 1)[0] + closing
        title = titles[entry.refs[0].split(":")[1].split("#")[0]] if entry.refs else ""
        assert names_its_entry(quoted[1:-1], topics[unit], said), q
        assert entry.published in q and title in q, q
        assert set(words(q.replace(quoted, " ").replace(entry.published, " "))) <= frame | set(words(title)), q


@pytest.mark.parametrize("reader", READERS)
def test_a_reference_the_source_gets_wrong_says_so(packages, export, reader):
    """The 2011 table letters 40B2(c) as 40B2b (corpus/ref-corrections.tsv): the card cites the
    clause as corrected and says what the source prints."""
    wrong = {(c["source"]["unit"], c["source"]["clause"]): c["as_written"] for c in export["citations"]
             if c["source"]["doc"] == "it-timeref" and c["where"] == "ref" and c.get("correction")}
    seen = 0
    for note in by_deck(packages[reader], "timerefs"):
        entry = note.passages[0]
        unit, clause = entry.target.split(":")[1].split("#")
        if (unit, clause) in wrong:
            seen += 1
            cited = entry.heading.split(" — ", 1)[1].split(" · ")[0]  # the clause as corrected
            assert wrong[(unit, clause)] in entry.corrected and cited in entry.corrected, entry.corrected
    assert seen == len(wrong) >= 5


@pytest.mark.parametrize("reader", READERS)
def test_what_2017_changed_in_a_quoted_2007_clause_is_said(packages, docs, reader):
    """Each clause of the 2007 Laws a card quotes (the Spanish reader's: with the clauses quoted
    with it) or cites (a time reference, for the others: the clause itself, and of those under
    it the items the entry is about) that the concordance says 2017 changed, moved, split or
    merged: the card names the 2017 clause. The card read found 2007's 6D (a time reference)
    with 6D1, which 2017 changed, and no change shown; and the entry on warning declarer he has
    not followed suit (42B, 2007's 42B1) with 42B2's change (preventing an irregularity)."""
    rows = {r["older"]: r for r in concordance_rows() if r["older"] and r["newer"] and r["relation"] != "same"}
    unsaid = []
    for note in (n for n in packages[reader].notes if "titles" not in n.tags):  # a title card quotes a title
        checks = [(p, p.target, True) for p in note.passages if p.target.startswith("es-laws:")]
        if not checks:  # a time reference's, for a reader of the other edition: on its entry
            checks = [(p, held(docs, t), False) for p in note.passages for t in p.refs if t.startswith("es-laws:")]
        unsaid += [(note.tags[0], target, c["id"]) for p, target, whole in checks
                   for c in (clauses_of(docs, target) if whole else clauses_of(docs, target, False)[:1])
                   if c["id"] in rows and f"Art. {readable(rows[c['id']]['newer'])}" not in p.change]
    assert unsaid == []
    shuffle = packages[reader].by_guid(genanki.guid_for("timerefs:it-timeref:mescolatura:mescolatura-5")).passages
    assert any("Art. 6D1" in p.change for p in shuffle)
    if reader != "es":  # an entry citing 42B: the change of the item it is about, not of its neighbour
        dummy = [packages[reader].by_guid(genanki.guid_for(f"timerefs:it-timeref:il-morto:il-morto-{i}")).passages[0]
                 for i in (4, 5)]
        assert "Art. 42B2" in dummy[0].change and "Art. 42B2" not in dummy[1].change


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


@pytest.mark.parametrize("reader", ["it", "en"])
def test_a_list_is_quoted_with_the_stems_further_up_that_rule_it(packages, docs, reader):
    """46B3(a) and (b) are the list of 46B3 ("Se il dichiarante designa il rango ma non il seme"),
    itself a case of 46B's stem "…trovano applicazione le seguenti restrizioni (tranne quando…):",
    whose exception rules both: the card of a rank named without its suit quotes that stem too
    (the third card read found it left out)."""
    law = next(u for u in docs["it-laws"]["units"] if u["id"] == "46")
    stem, heading = (next(c for c in law["clauses"] if c["id"] == i) for i in ("46B", "46B3"))
    assert stem["text"].endswith(":") and not heading["text"].endswith(":") and heading["parent"] == "46B"
    said = " ".join(p.text for p in packages[reader].by_guid(genanki.guid_for(f"situations:designation-rank-only:{reader}")).passages)
    assert spaced(stem["text"].split("\n")[0]) in spaced(said)
