"""The time-reference table (Convention Arbitrale 2011): topics → situations → entries.

Expected values are read from corpus/it-timeref-2011.txt.
"""
from __future__ import annotations

import re

import pytest

from kb.corpus.manifest import load_manifest
from kb.parse import it_timeref


@pytest.fixture(scope="module")
def doc():
    entry = next(e for e in load_manifest() if e.id == "it-timeref")
    return entry.parse()


def entries(unit):
    return [c for c in unit.clauses if c.extra.get("kind") == "entry"]


def situations(unit):
    return [c for c in unit.clauses if c.extra.get("kind") == "situation"]


def all_entries(doc):
    return [(u, c) for u in doc.units for c in entries(u)]


# (topic as printed, situations, entries), in text order.
TOPICS = [
    ("Appello", 1, 1),
    ("Attacco fuori turno", 7, 7),
    ("Attacco iniziale a carta coperta", 3, 3),
    ("Attacco iniziale a carta scoperta fuori turno", 1, 2),
    ("Attacco o giocata prematuri", 2, 2),
    ("Attacchi simultanei", 1, 1),
    ("Cambio di chiamata", 3, 5),
    ("Carta esposta", 8, 9),
    ("Carta giocata", 2, 2),
    ("Carte giocate simultaneamente", 3, 4),
    ("Carta in sovrannumero", 2, 2),
    ("Carta mancante", 2, 2),
    ("Carta penalizzata", 5, 6),
    ("Chiamate", 6, 6),
    ("Chiamata fuori turno", 4, 4),
    ("Consultazione della Carta delle Convenzioni", 2, 6),
    ("Contro o surcontro fuori turno", 5, 6),
    ("Gioco di un board", 5, 5),
    ("Gioco di un board sbagliato", 2, 2),
    ("Informazioni Non Autorizzate da altre fonti", 2, 2),
    ("Informazioni Non Autorizzate dal compagno", 2, 3),
    ("Irregolarità", 5, 8),
    ("Licita fuori turno", 5, 6),
    ("Licita insufficiente", 2, 2),
    ("Licitazione", 5, 8),
    ("Mescolatura", 3, 5),
    ("Il morto", 3, 6),
    ("Numero errato di carte", 4, 4),
    ("Passo fuori turno", 5, 5),
    ("Periodo Chiarificatorio", 5, 6),
    ("Periodo licitativo", 3, 4),
    ("Periodo di correzione", 2, 2),
    ("Periodo di gioco", 3, 8),
    ("Le prese", 7, 10),
    ("Presca difettosa", 2, 2),
    ("Punteggio Arbitrale", 1, 1),
    ("La renonce", 3, 11),
    ("Richieste e/o concessioni di prese", 5, 6),
    ("Il round", 3, 4),
]


def test_totals(doc):
    assert len(doc.units) == 39
    assert all(u.kind == "topic" for u in doc.units)
    assert sum(len(situations(u)) for u in doc.units) == 134
    assert len(all_entries(doc)) == 178
    refs = [c.extra["ref"] for _, c in all_entries(doc)]
    assert sum(r is not None for r in refs) == 175
    assert len({r for r in refs if r}) == 143  # distinct as written


def test_topics_in_text_order_with_their_counts(doc):
    got = [(u.title, len(situations(u)), len(entries(u))) for u in doc.units]
    assert got == TOPICS


def test_topic_ids_are_unique_slugs(doc):
    ids = [u.id for u in doc.units]
    assert len(set(ids)) == len(ids)
    assert ids[:3] == ["appello", "attacco-fuori-turno", "attacco-iniziale-a-carta-coperta"]
    assert "irregolarita" in ids  # accent folded
    assert "richieste-e-o-concessioni-di-prese" in ids


def test_topic_typo_kept_with_display_title(doc):
    u = doc.unit("presca-difettosa")
    assert u.title == "Presca difettosa"
    assert u.extra["display_title"] == "Presa difettosa"


# (topic id, n, ref as written, subtopic as printed, first words of the text)
ENTRIES = [
    ("appello", 1, "92B", "Termine per la presentazione di un appello",
     "Il tempo per richiedere una decisione arbitrale"),
    # topic and its first situation have the same text
    ("attacco-iniziale-a-carta-coperta", 1, "41A", "Attacco iniziale a carta coperta",
     "Dopo che una licita, un contro o un surcontro"),
    # `Chiamata Involontaria` is a situation of "Cambio di chiamata", not a topic
    ("cambio-di-chiamata", 4, "25A1", "Chiamata Involontaria",
     "Un giocatore può sostituire una chiamata involontaria"),
    ("carta-esposta", 1, "6D", "Esposizione di una carta durante la smazzatura",
     "si procederà ad una nuova smazzatura."),
    ("carta-esposta", 9, "49", "Esposizione delle carte di un difensore durante il gioco",
     "Se un difensore espone o designa"),
    ("chiamata-fuori-turno", 4, "33", "Chiamata simultanea",
     "Una chiamata fuori turno effettuata simultaneamente"),
    # the source's typo `biiv`, kept as written
    ("consultazione-della-carta-delle-convenzioni", 5, "40B2biiv",
     "Consultazione della Carta delle Convenzioni avversaria",
     "Il dichiarante può consultare la Carta delle Convenzioni avversaria durante il gioco"),
    # parenthesised item and no dash at all
    ("il-morto", 2, "47E2(a)", "Scopertura della mano",
     "Se il morto scopre una o più carte"),
    # `40B2biii- Un …`: no space before the dash
    ("licitazione", 1, "40B2biii",
     "Consultazione della Carta delle Convenzioni avversaria durante la licitazione",
     "Un giocatore può consultare la Carta delle Convenzioni avversaria durante la licitazione"),
    ("licitazione", 3, "22A1", "Fine della licitazione", "La licitazione termina quando non"),
    ("le-prese", 7, "79A1", "Prese vinte", "L'accordo sulle prese realizzate"),
    ("le-prese", 9, "79C1", "Errore di calcolo o di punteggio", "Un errore di calcolo"),
    ("periodo-chiarificatorio", 5, "20F", "Richiesta di spiegazioni",
     "Fino al passo finale, qualunque giocatore"),
    ("presca-difettosa", 1, "67A", "Correzione della presa difettosa",
     "La presa difettosa dovrà essere corretta"),
    # the file's last line, which has no final newline
    ("il-round", 4, "8C", "Fine dell'ultimo round",
     "L'ultimo round finisce quando tutti i board previsti siano stati giocati ed i "
     "risultati trascritti sullo score."),
]


@pytest.mark.parametrize("uid,n,ref,subtopic,start", ENTRIES)
def test_entry(doc, uid, n, ref, subtopic, start):
    c = doc.unit(uid).clause(f"{uid}-{n}")
    assert c is not None
    assert c.extra["kind"] == "entry"
    assert c.extra["ref"] == ref
    assert c.label == ref
    assert c.extra["subtopic"] == subtopic
    assert c.text.startswith(start)
    assert "statement" not in c.extra


def test_last_line_is_last_entry(doc):
    last = entries(doc.units[-1])[-1]
    assert (last.id, last.extra["ref"]) == ("il-round-4", "8C")
    assert last.text.endswith("trascritti sullo score.")


# (topic id, n, subtopic, first words): the three entries that cite no Law
STATEMENTS = [
    ("licitazione", 2, "Inizio della licitazione", "La licitazione inizia per entrambe le linee"),
    ("periodo-di-correzione", 1, "Inizio del Periodo di Correzione",
     "Il Periodo di Correzione inizia dopo che sono stati resi"),
    ("il-round", 1, "Inizio del round", "Ogni round, compreso il primo, ha inizio"),
]


def test_statements(doc):
    got = [(u.id, int(c.id.rsplit("-", 1)[1]), c.extra["subtopic"], c.text)
           for u, c in all_entries(doc) if c.extra.get("statement")]
    assert [g[:3] for g in got] == [s[:3] for s in STATEMENTS]
    for g, s in zip(got, STATEMENTS):
        assert g[3].startswith(s[3])
    for u, c in all_entries(doc):
        if c.extra.get("statement"):
            assert c.extra["ref"] is None and c.label == ""


def test_situation_after_statement_is_its_own(doc):
    # `Fine della licitazione` follows the statement and carries 22A1, 22A2, 17E2
    u = doc.unit("licitazione")
    got = [(c.extra["ref"], c.extra["subtopic_index"]) for c in entries(u)]
    assert got == [("40B2biii", 1), (None, 2), ("22A1", 3), ("22A2", 3), ("17E2", 3),
                   ("20B", 4), ("20C2", 5), ("41C", 5)]


def test_same_text_topic_and_situation_kept_apart(doc):
    u = doc.unit("attacco-iniziale-a-carta-coperta")
    assert [c.text for c in situations(u)] == [
        "Attacco iniziale a carta coperta", "Scopertura della carta d'attacco",
        "Ritiro della carta d'attacco iniziale coperta"]
    assert [c.id for c in situations(u)] == [f"{u.id}-s1", f"{u.id}-s2", f"{u.id}-s3"]


@pytest.mark.parametrize("uid,subtopics", [
    ("chiamata-fuori-turno", 4),   # ends with `Chiamata simultanea`
    ("le-prese", 7),               # holds `Prese vinte`, `Errore di calcolo o di punteggio`
    ("periodo-chiarificatorio", 5),  # holds `Richiesta di spiegazioni`
])
def test_headings_that_look_like_topics_are_situations(doc, uid, subtopics):
    assert len(situations(doc.unit(uid))) == subtopics
    titles = {u.title for u in doc.units}
    for t in ("Chiamata Involontaria", "Chiamata simultanea", "Prese vinte",
              "Errore di calcolo o di punteggio", "Richiesta di spiegazioni"):
        assert t not in titles


def test_clause_structure(doc):
    for u in doc.units:
        ids = [c.id for c in u.clauses]
        assert len(set(ids)) == len(ids)
        assert u.clauses and u.clauses[0].extra["kind"] == "situation"
        by_id = {c.id: c for c in u.clauses}
        es = entries(u)
        assert [c.id for c in es] == [f"{u.id}-{n}" for n in range(1, len(es) + 1)]
        for k, s in enumerate(situations(u), 1):
            assert s.id == f"{u.id}-s{k}" and s.parent is None and s.label == ""
            assert s.extra["subtopic_index"] == k
            assert any(c.parent == s.id for c in es), f"{s.id} has no entry"
        for c in es:
            parent = by_id[c.parent]
            assert parent.extra["kind"] == "situation"
            assert c.extra["subtopic"] == parent.text
            assert c.extra["subtopic_index"] == parent.extra["subtopic_index"]


def test_entry_texts_are_clean(doc):
    for u, c in all_entries(doc):
        assert c.text, c.id
        assert not re.match(r"^[-–\s]", c.text), c.id
        ref = c.extra["ref"]
        if ref:
            assert not c.text.startswith(ref), c.id
            assert re.fullmatch(r"\d+[A-Z]?\d*(?:[a-z]+|\([a-z]\))?", ref), ref


def test_no_noise_anywhere(doc):
    for u in doc.units:
        assert "|" not in u.title and "**" not in u.title
        for c in u.clauses:
            assert "|" not in c.text and "**" not in c.text, c.id
            assert "RIFERIMENTI TEMPORALI" not in c.text
        assert "DEFINIZIONI" not in u.text and "Introduzione" not in u.text


def test_entries_that_repeat_are_kept(doc):
    # 60A1 appears twice with identical text (Attacco fuori turno, Attacco o giocata prematuri)
    rows = [(u.id, c.text) for u, c in all_entries(doc) if c.extra["ref"] == "60A1"]
    assert [r[0] for r in rows] == ["attacco-fuori-turno", "attacco-o-giocata-prematuri"]
    assert rows[0][1] == rows[1][1]


def test_meta(doc):
    m = doc.meta
    assert m["event"] == "Convention Arbitrale 2011"
    assert m["place"] == "Salsomaggiore Terme (PR)"
    assert (m["date_start"], m["date_end"]) == ("2011-01-07", "2011-01-09")
    assert m["authors"] == ["Maurizio Di Sacco", "Alessandro Orsillo"]
    assert m["publisher"] == "ALBO ARBITRI - SCUOLA ARBITRALE ITALIANA"
    assert m["subtitle"] == "Casi Commentati"
    assert (m["cites_code"], m["cites_laws_edition"]) == ("Codice 2008", "2007")
    assert m["introduction"]["signed"] == "Maurizio Di Sacco"
    assert len(m["introduction"]["paragraphs"]) == 5
    assert m["introduction"]["paragraphs"][0].startswith("Questo lavoro nasce")
    assert m["table_title"] == "RIFERIMENTI TEMPORALI NEL CODICE"
    assert m["cites"] == "es-laws"  # the manifest's value is not overridden


# term, copy_of (checked against the `Definizioni` of corpus/it-laws-2017.txt), first words
DEFINITIONS = [
    ("Dichiarante", "def-dichiarante", "Il giocatore il quale, per conto della linea"),
    ("Evento", "def-evento", "Una manifestazione della durata di una o più sessioni."),
    ("Gioco", "def-gioco", "1. Il contributo di una carta"),
    ("Licitazione", "def-licitazione", "1. Il processo attraverso il quale"),
    ("Morto", "def-morto", "1. Il compagno del dichiarante."),
    ("Periodo di gioco", "def-periodo-di-gioco", "Comincia quando la carta d'attacco"),
    ("Rettifica", "def-rettifica", "L'insieme delle misure atte a porre rimedio"),
    ("Round", "def-round", "La parte di una sessione giocata"),
    ("Sessione", "def-sessione", "Il prolungato periodo di gara"),
    ("Turno", "def-turno", "Il giusto momento nel quale"),
]


def test_definitions(doc):
    defs = doc.meta["definitions"]
    assert [(d["term"], d["copy_of"]) for d in defs] == [(t, c) for t, c, _ in DEFINITIONS]
    for d, (_, _, start) in zip(defs, DEFINITIONS):
        assert d["text"].startswith(start)
    gioco = defs[2]["text"].split("\n")
    assert [s[:2] for s in gioco] == ["1.", "2.", "3.", "4."]
    assert defs[8]["text"].endswith("articoli 4, 12C2 e 91).")


def test_definitions_make_no_units(doc):
    assert not any(u.id.startswith("def-") for u in doc.units)


def test_final_newline_changes_nothing(doc):
    text = next(e for e in load_manifest() if e.id == "it-timeref").read()
    assert not text.endswith("\n")
    a = it_timeref.parse(text)
    b = it_timeref.parse(text + "\n")
    assert [u.to_dict() for u in a.units] == [u.to_dict() for u in b.units]


SMALL = """RIFERIMENTI TEMPORALI NEL CODICE

Carta esposta

Prima situazione

6D - Testo uno.

Carta esposta

7 giorni dopo

8B2 - Testo due."""


def test_duplicate_topic_slug_gets_suffix():
    units = it_timeref.parse(SMALL).units
    assert [u.id for u in units] == ["carta-esposta", "carta-esposta-2"]
    assert [u.title for u in units] == ["Carta esposta", "Carta esposta"]
    assert [c.id for c in units[1].clauses] == ["carta-esposta-2-s1", "carta-esposta-2-1"]


def test_heading_starting_with_a_number_is_not_an_entry():
    # a bare article number is a reference only when a dash follows it
    second = it_timeref.parse(SMALL).units[1]
    assert [c.text for c in situations(second)] == ["7 giorni dopo"]
    assert [c.extra["ref"] for c in entries(second)] == ["8B2"]


def test_unexplained_heading_run_is_an_error():
    text = SMALL.replace("7 giorni dopo", "Una situazione\n\nUn'altra situazione")
    with pytest.raises(ValueError, match="heading lines"):
        it_timeref.parse(text)
