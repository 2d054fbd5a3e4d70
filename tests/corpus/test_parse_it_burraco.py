"""The Burraco "Codice di Gara" (FIBAS, aggiornato al 01 aprile 2014): sections → articles → clauses.

Expected values are read from corpus/it-burraco-2014.txt.
"""
from __future__ import annotations

import re

import pytest

from kb.corpus.manifest import load_manifest
from kb.parse import it_burraco


@pytest.fixture(scope="module")
def entry():
    return next(e for e in load_manifest() if e.id == "it-burraco")


@pytest.fixture(scope="module")
def doc(entry):
    return entry.parse()


def texts_of(unit):
    """Every string a reader sees in a unit: title, clause titles/texts, table cells, footnotes."""
    out = [unit.title or ""]
    for c in unit.clauses:
        out += [c.title or "", c.text, c.label]
        for t in c.tables:
            out.append(t.caption or "")
            out += [cell for row in t.header + t.rows for cell in row]
    out += [f.text for f in unit.footnotes]
    return out


# ---- sections and articles -------------------------------------------------------------

def test_sections_are_the_body_headings(doc):
    assert [(g["id"], g["title"]) for g in doc.groups] == [
        ("A", "REGOLE GENERALI"),
        ("B", "SVOLGIMENTO"),
        ("C", "IRREGOLARITA' ED ANOMALIE"),
        ("D", "ABBANDONO DELLA GARA - RITARDI"),  # the body's hyphen, not the TOC's en dash
        ("E", "RECLAMI"),
        ("F", "POTERI DELL'ARBITRO"),
        ("G", "NORME COMPORTAMENTALI DEL GIOCATORE"),
    ]


def test_article_ids_skip_20(doc):
    assert [u.id for u in doc.units] == [
        "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15",
        "16", "17", "18", "19", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30",
        "31", "32", "33", "34", "35", "36", "37", "38", "39", "40", "41"]
    assert {u.kind for u in doc.units} == {"article"}


@pytest.mark.parametrize("number, title", [
    ("1", "LO SCOPO DEL CODICE"),
    ("2", "DEFINIZIONI"),
    ("7", "TEMPI DI GIOCO"),            # no separator after the number
    ("9", "PESCA"),                     # en dash
    ("17", "TIME OUT"),                 # "ART.17" without a space
    ("18", "CHIUSURE"),
    ("21", "SCORE: VALIDITA' CORREZIONI"),
    ("26", '"LANCIO"'),                 # the quotes are part of the title
    ("31", "PESCA o RACCOLTA FUORI TURNO"),
    ("33", "CHIUSURE"),                 # same title as 18
    ("34", "PUNTEGGI NON CONTEGGIATI"), # "ART. - 34": dash before the number
    ("37", "RITARDO"),
    ("41", "NORME COMPORTAMENTALI"),
])
def test_article_titles(doc, number, title):
    assert doc.unit(number).title == title


@pytest.mark.parametrize("number, section", [
    ("1", "A"), ("7", "A"), ("8", "B"), ("19", "B"), ("21", "B"), ("22", "C"), ("35", "C"),
    ("36", "D"), ("37", "D"), ("38", "E"), ("39", "E"), ("40", "F"), ("41", "G"),
])
def test_article_sections(doc, number, section):
    assert doc.unit(number).group == section


def test_inline_article_mentions_are_not_headings(doc):
    # "3. CARTA ESPOSTA (ART. 24)" in ART. 25 and "ALL'ARTICOLO 36" in ART. 36 stay text
    assert "CARTA ESPOSTA (ART. 24)" in doc.unit("25").clause("25-3").text
    assert "DEROGHE ALL'ARTICOLO 36" in doc.unit("36").text


def test_article_20_is_a_gap_not_a_unit(doc):
    """No heading and no boundary for ART. 20 anywhere: nothing is cut out of ART. 19.

    ART. 19 itself points to the "RANGE DI RIFERIMENTO" table on the score sheets, so the
    facsimiles, the range tables and the paragraph on filling in the score stay in ART. 19,
    where they are printed; the gap is reported in the metadata instead.
    """
    assert doc.unit("20") is None
    assert doc.meta["missing_articles"] == ["20"]
    art19 = doc.unit("19")
    assert "La compilazione dello score è compito del giocatore" in art19.text
    assert len([t for c in art19.clauses for t in c.tables]) == 7  # 2 facsimiles + 5 ranges
    assert doc.unit("21").clauses[0].text == "Lo score consegnato all'arbitro diventa valido e definitivo."


# ---- clause ids --------------------------------------------------------------------------

def test_first_clause_is_the_article_and_ids_are_unique(doc):
    for u in doc.units:
        assert u.clauses[0].id == u.id and u.clauses[0].parent is None
        ids = [c.id for c in u.clauses]
        assert len(ids) == len(set(ids)), u.id
        assert all(c.parent == u.id or c.parent in ids for c in u.clauses[1:])


def test_article_6_numbered_and_lettered_items(doc):
    art = doc.unit("6")
    assert [c.id for c in art.clauses] == [
        "6", "6-1", "6-2", "6-p2", "6-3", "6-4", "6-p3", "6-a", "6-b", "6-p4", "6-p5", "6-p6"]
    assert art.clause("6").text == 'Il giocatore "mazziere" che deve iniziare a servire:'
    assert art.clause("6-2").label == "2."
    assert art.clause("6-2").text.startswith("fa tagliare (vedi definizioni) il mazzo")
    assert art.clause("6-b").label == "b)"
    assert art.clause("6-b").text.startswith("al via dell'arbitro il mazziere scopre la 1a carta")


def test_article_25_decimal_items_nest_under_2(doc):
    art = doc.unit("25")
    assert [c.id for c in art.clauses] == [
        "25", "25-1", "25-2", "25-2.1", "25-2.2", "25-2.3", "25-3", "25-p2"]
    assert [art.clause(f"25-2.{i}").parent for i in (1, 2, 3)] == ["25-2"] * 3
    assert art.clause("25-2.1").text.startswith("Errore rilevato al momento: la carta/e eccedente")


def test_article_33_capital_letters_become_lower_case_ids(doc):
    art = doc.unit("33")
    assert [art.clause(i).label for i in ("33-a", "33-b", "33-c")] == ["A)", "B)", "C)"]
    assert art.clause("33-b").text == "la carta che costituisce lo scarto rimarrà tale;"


def test_article_35_repeated_number_3(doc):
    art = doc.unit("35")
    assert [c.id for c in art.clauses] == ["35", "35-1", "35-2", "35-3", "35-3bis"]
    assert art.clause("35-3bis").label == "3."
    assert art.clause("35-3bis").text.startswith("Deve essere riconosciuta e considerata")
    assert art.clause("35-3bis").title == "CARTA FANTASMA RINVENUTA INSIEME ALLA CARTA DI SCARTO"


def test_article_41_has_13_rules(doc):
    art = doc.unit("41")
    assert [c.id for c in art.clauses if c.label] == [f"41-{n}" for n in range(1, 14)]
    assert art.clause("41-8").text.startswith("Tenere sempre le carte in mano a ventaglio")


def test_last_comma_of_article_28(doc):
    # "l'ultimo comma dell'art. 28" (ART. 22) is the highest paragraph number of ART. 28
    art = doc.unit("28")
    assert [c.id for c in art.clauses] == ["28"] + [f"28-p{k}" for k in range(2, 8)]
    assert art.clause("28-p7").text.startswith("La stessa regola vale per l'aggiunta di carte")


def test_article_24_items_take_the_paragraph_under_them(doc):
    # "art. 24 punto 2" (ART. 35) must land on a clause that holds the rule
    art = doc.unit("24")
    assert art.clause("24-2").text == ("Quando giocano gli avversari o il compagno:\n"
                                       "Al proprio turno deve essere subito giocata altrimenti "
                                       "immediatamente scartata")
    assert art.clause("24-1").title == "CARTA CADUTA ACCIDENTALMENTE AL GIOCATORE"


def test_sub_headings_are_clause_titles(doc):
    art15 = doc.unit("15")
    assert [c.title for c in art15.clauses if c.title] == [
        "BURRACO PULITO", "BURRACO SEMI PULITO", "BURRACO SPORCO"]
    assert doc.unit("37").clauses[0].title == "TAVOLO INCOMPLETO – RIPOSO"
    assert doc.unit("33").clauses[0].title == "Senza Burraco"
    # an all-caps sentence is text, not a heading
    assert "DOPO LO SCARTO NESSUNA ALTRA AZIONE È CONSENTITA" in [c.text for c in doc.unit("8").clauses]


def test_bullets_join_the_clause_that_introduces_them(doc):
    lead = doc.unit("9").clauses[0].text.split("\n")
    assert lead[1:] == [
        "la prima spetterà al giocatore che potrà proseguire regolarmente il suo gioco;",
        "la seconda verrà ricollocata sul tallone dopo averla fatta visionare all'avversario "
        "che segue, il quale al proprio turno potrà scegliere se prenderla o raccogliere dal monte."]
    positivi = next(c for c in doc.unit("19").clauses if c.title == "POSITIVI")
    assert positivi.text.split("\n")[0] == "BURRACO PULITO bonus 200 M.P."


# ---- ART. 2 definitions -------------------------------------------------------------------

def definitions(doc):
    return [c for c in doc.unit("2").clauses if c.extra.get("kind") == "definition"]


def test_definitions_count_and_order(doc):
    defs = definitions(doc)
    assert len(defs) == 55
    assert defs[0].label == 'Andare a pozzetto "al volo"'
    assert defs[-1].label == "Ventaglio"
    assert "Victory Point V.P. (punti vittoria)" not in [d.label for d in defs]


@pytest.mark.parametrize("cid, term, starts", [
    ("2-andare-a-pozzetto-al-volo", 'Andare a pozzetto "al volo"', "Prendere il pozzetto senza"),
    ("2-avversario", "Avversario", "Un giocatore dell'altra linea"),
    ("2-bonus-punti-premio", "Bonus - Punti Premio", "Qualsiasi punteggio acquisito"),
    ("2-burraco-semipulito", 'Burraco "semipulito"', "Quando in una sequenza o in una combinazione"),
    ("2-carta-fantasma", 'Carta "Fantasma"', 'Si definisce tale la carta "accidentalmente nascosta"'),
    ("2-chiudere-il-gioco-chiusura", "Chiudere il gioco / Chiusura", "Aver ultimato tutte le carte"),
    ("2-gioco", "Gioco", "Il complesso di giocate fatte"),
    ("2-matta", "Matta", 'Sono dette "matte" tutti i jolly'),
    ("2-smazzata-distribuzione", "Smazzata / distribuzione", "La suddivisione delle carte"),
    ("2-tavolo-incompleto", 'Tavolo "Incompleto"', "E' il tavolo dove vi è l'assenza"),
    ("2-time-out", "Time Out", "Segnalazione da parte dell'arbitro"),
])
def test_definition(doc, cid, term, starts):
    clause = doc.unit("2").clause(cid)
    assert clause.label == term and clause.extra["term"] == term
    assert clause.parent == "2"
    assert clause.text.startswith(starts)


def test_colonless_paragraph_continues_punteggi(doc):
    text = doc.unit("2").clause("2-punteggi").text
    assert text.split("\n") == [
        'Match Point M.P. (punti partita) - I valori delle singole carte e i "bonus" per burrachi e chiusura',
        "Victory Point V.P. (punti vittoria) - Punti corrispondenti ai M.P. calcolati in base "
        "al range di riferimento presente sullo score."]


def test_numbered_list_continues_gioco_errato(doc):
    lines = doc.unit("2").clause("2-gioco-errato").text.split("\n")
    assert lines[0] == "E' considerato gioco errato:"
    assert [ln[:3] for ln in lines[1:]] == ["1) ", "2) ", "3) ", "4) "]
    assert lines[4].endswith("di valore diverso da quello della combinazione.")


# ---- tables -------------------------------------------------------------------------------

def test_card_values_table_of_article_3(doc):
    clause = next(c for c in doc.unit("3").clauses if c.tables)
    assert clause.title == "VALORE DELLE CARTE"
    table = clause.tables[0]
    assert table.header == [["CARTE", "Jolly", "2 (pinella)", "ASSO", "K Q J 10 9 8", "7 6 5 4 3"]]
    assert table.rows == [["PUNTI", "30", "20", "15", "10", "5"]]


def test_round_times_table_of_article_7(doc):
    table = doc.unit("7").clause("7").tables[0]
    assert len(table.rows) == 4 and {len(r) for r in table.rows} == {3}
    assert table.rows[1] == ["Turni da", "2 Smazzate", "Tempo 25' a turno"]
    assert table.rows[3][2] == "Tempo 45' a turno"


RANGES = ["1 SMAZZATA", "2 SMAZZATE", "3 SMAZZATE", "4 SMAZZATE", "1-4 SMAZZ. SQUADRE"]


def range_tables(doc):
    clause = next(c for c in doc.unit("19").clauses if c.title and c.title.startswith("RANGE"))
    return clause.tables


def test_range_tables_shape(doc):
    tables = range_tables(doc)
    assert [t.caption for t in tables] == RANGES
    for t in tables:
        assert t.header == [["Diff. MP", "", "Victory Points", ""]]
        assert len(t.rows) == 11
        assert t.rows[0][2:] == ["10", "10"]
        assert t.rows[-1] == ["", "oltre", "20", "0"]  # the empty first cell is kept


@pytest.mark.parametrize("caption, first, last_range", [
    ("1 SMAZZATA", ["0", "30", "10", "10"], ["435", "500", "19", "1"]),
    ("2 SMAZZATE", ["0", "40", "10", "10"], ["875", "1000", "19", "1"]),
    ("3 SMAZZATE", ["0", "50", "10", "10"], ["1255", "1500", "19", "1"]),
    ("4 SMAZZATE", ["0", "100", "10", "10"], ["1705", "2000", "19", "1"]),
    ("1-4 SMAZZ. SQUADRE", ["0", "150", "10", "10"], ["2205", "2500", "19", "1"]),
])
def test_range_table_header_is_one_row_of_labels(doc, caption, first, last_range):
    """The source prints `Diff.<TAB>MP<TAB>Victory<TAB>Points` over the four columns of a
    difference range (from, to) and a VP split: one label per pair of columns, as wide as the
    data, each label spanning its pair; the data rows stay as printed."""
    table = next(t for t in range_tables(doc) if t.caption == caption)
    [header] = table.header
    assert len(header) == 4 and {len(r) for r in table.rows} == {4}
    assert header == ["Diff. MP", "", "Victory Points", ""]
    assert " ".join(c for c in header if c) == "Diff. MP Victory Points"  # the printed words, in order
    assert table.rows[0] == first
    assert table.rows[-2] == last_range
    assert table.rows[-1] == ["", "oltre", "20", "0"]
    assert ["Diff.", "MP", "Victory", "Points"] not in table.rows


@pytest.mark.parametrize("caption, row, cells", [
    ("1 SMAZZATA", 1, ["35", "60", "11", "9"]),
    ("2 SMAZZATE", 9, ["875", "1000", "19", "1"]),
    ("3 SMAZZATE", 4, ["355", "500", "14", "6"]),
    ("4 SMAZZATE", 5, ["905", "1100", "15", "5"]),
    ("1-4 SMAZZ. SQUADRE", 3, ["555", "800", "13", "7"]),
])
def test_range_table_cells(doc, caption, row, cells):
    table = next(t for t in range_tables(doc) if t.caption == caption)
    assert table.rows[row] == cells


def test_score_facsimiles(doc):
    clause = next(c for c in doc.unit("19").clauses if c.title == "FAC SIMILE SCORE A SQUADRE")
    two_hands, four_hands = clause.tables
    assert two_hands.rows[1][:4] == ["Tavolo", "Turno", 'Nord-Sud Squadra "B"', 'Est-Ovest Squadra "A"']
    cells = [cell for row in four_hands.rows for cell in row]
    assert [c for c in cells if c.endswith("Mano")] == [
        "1a Mano", "1a Mano", "2a Mano", "2a Mano", "3a Mano", "3a Mano", "4a Mano", "4a Mano"]
    # the four <p> paragraphs packed into one cell come out as one clean cell
    assert four_hands.rows[-1] == [
        "AL TERMINE DELLA PARTITA PORTARE QUESTO SCORE IN SALA APERTA PER PROCEDERE COI "
        "CONTEGGI FINALI, EVITANDO DI AVVICINARSI FINO AL TERMINE DELLA EVENTUALE PARTITA "
        "ANCORA IN CORSO. FIBAS - Viale Masini, 34 - 40126 Bologna - www.federburraco.it"]


# ---- rejoined paragraphs, trailer, footnotes -----------------------------------------------

def test_paragraph_broken_in_article_23_is_whole(doc):
    text = doc.unit("23").clause("23-3").text
    assert "o i giochi nuovi aperti sono temporaneamente congelati. I giochi congelati" in text
    assert text.endswith("conteggiate negativamente a fine smazzata.")


def test_paragraph_broken_in_article_33_is_whole(doc):
    assert ("e/o aggiungesse carte a sequenze o combinazioni esistenti il giocatore colpevole"
            in doc.unit("33").text)


def test_no_clause_starts_in_lower_case_after_a_cut(doc):
    for u in doc.units:
        for c in u.clauses:
            if not c.label:  # items may start in lower case ("1. mescola le carte")
                assert not c.text[:1].islower(), (u.id, c.id)


def test_closing_jokes_are_a_trailer_not_article_41(doc):
    art41 = doc.unit("41")
    assert "ANTIDOPING" not in art41.text and "DARO' UN CAMBIO SOLO" not in art41.text
    assert art41.clauses[-1].text == ("LA SOMMA DI 2 AMMONIZIONI COMPORTA LA PERDITA DI 1 V.P. "
                                      "E 100 M.P. IN CLASSIFICA GENERALE")
    trailer = doc.meta["trailer"]
    assert len(trailer) == 2
    assert trailer[0].startswith("...E SICCOME GIOCATE TROPPO LENTI")
    assert trailer[1] == "...VIGE L'OBBLIGO DI NON FUMARE E CHI VINCE SARÀ SOTTOPOSTO A CONTROLLO ANTIDOPING."


def test_footnote_of_article_22(doc):
    art = doc.unit("22")
    [note] = art.footnotes
    assert note.marker == "1"
    assert note.text == "La somma di due ammonizioni comporta la perdita di 1 V.P. e 100 M.P. in classifica generale."
    clause = art.clause(note.clause)
    assert clause.title == "INTERRUZIONE DEL GIOCO"
    assert "sanzionato dall'Arbitro con ammonizioni o con attribuzione di punteggi arbitrali" in clause.text
    assert "La somma di due ammonizioni" not in art.text


def test_footnote_of_article_33(doc):
    art = doc.unit("33")
    [note] = art.footnotes
    assert note.clause == "33-a"
    assert note.text.startswith("Le/a carte/a che compongono l'ultimo gioco sono considerate")
    assert "tranne l'ultimo gioco: - combinazione/sequenza" in art.clause("33-a").text
    assert "Le/a carte/a che compongono" not in art.text
    # the footnote sat between two sub-parts: the NB list and "Con Burraco, scartando una matta"
    titles = [c.title for c in art.clauses]
    assert "Con Burraco, scartando una matta" in titles


def test_only_articles_22_and_33_have_footnotes(doc):
    assert [u.id for u in doc.units if u.footnotes] == ["22", "33"]


# ---- noise, metadata, determinism -----------------------------------------------------------

NOISE = [re.compile(p) for p in (r"\*", r"\^", r"</?p>", r"\bPag\.", r"\t", r"\.{4,}", r"⁽", r"^- ")]


def test_no_noise_anywhere(doc):
    for u in doc.units:
        for s in texts_of(u):
            for line in s.split("\n"):
                for pattern in NOISE:
                    assert not pattern.search(line), (u.id, pattern.pattern, line)


def test_no_table_of_contents_line(doc):
    for u in doc.units:
        assert "REGOLE GENERALI" not in u.text


def test_meta_read_from_the_text(doc):
    assert doc.meta["version_date"] == "2014-04-01"
    assert doc.meta["version_text"] == "aggiornato al 01 aprile 2014"
    assert doc.meta["editor"] == "L. Giannecchini"


def test_deterministic(entry):
    text = entry.read()
    first = it_burraco.parse(text)
    second = it_burraco.parse(text)
    assert [u.to_dict() for u in first.units] == [u.to_dict() for u in second.units]
    assert first.meta == second.meta and first.groups == second.groups
