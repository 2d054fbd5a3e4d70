"""The FIGB integrative norms 2026 (profile it_norms): expected values read from the source text."""
from __future__ import annotations

import re
import time

import pytest

from kb.corpus.manifest import load_manifest

NORM_IDS = ["4", "5", "8", "12", "13", "16", "18", "20", "21", "23", "25", "26", "27", "36",
            "40", "43", "64", "70", "73", "74", "76", "78", "79", "80", "81", "87", "91", "92-93"]
APPENDIX_IDS = ["sistemi", "psichiche", "alert", "sipari", "line-up", "moduli-cs", "tabelle-vp-imp"]


def _entry():
    return next(e for e in load_manifest() if e.id == "it-norms")


@pytest.fixture(scope="module")
def doc():
    return _entry().parse()


def clause(doc, unit_id, clause_id):
    unit = doc.unit(unit_id)
    assert unit is not None, unit_id
    c = unit.clause(clause_id)
    assert c is not None, f"{unit_id}: no clause {clause_id}; has {[x.id for x in unit.clauses]}"
    return c


# ---------------------------------------------------------------- units

def test_units_are_front_norms_appendices_in_text_order(doc):
    assert [u.id for u in doc.units] == ["premessa"] + NORM_IDS + APPENDIX_IDS
    kinds = [u.kind for u in doc.units]
    assert kinds.count("norm") == 28 and kinds.count("appendix") == 7 and kinds.count("front") == 1
    assert kinds == ["front"] + ["norm"] * 28 + ["appendix"] * 7


@pytest.mark.parametrize("unit_id,title", [
    ("4", "ACCOPPIAMENTI"),
    ("8", "SEQUENZA DEI ROUND"),                      # footnote ² removed from the heading
    ("26", "CHIAMATA RITIRATA- RESTRIZIONI DI ATTACCO"),
    ("81", "L'ARBITRO"),
    ("91", "Penalizzare o sospendere"),               # `Art. 91 - …`, mixed case
    ("92-93", "DIRITTO DI APPELLARSI e RICORSO AVVERSO DECISIONE ARBITRALE"),
    ("sistemi", "NORMATIVA SISTEMI"),
    ("psichiche", "NORMATIVA DELLE PSICHICHE"),
    ("alert", "NORMATIVA DI ALERT"),
    ("sipari", "NORMATIVA DEL GIOCO CON I SIPARI"),   # blank lines inside its heading block
    ("line-up", "PROCEDURA DI LINE-UP"),
    ("moduli-cs", None),                              # App. 6 prints no title
    ("tabelle-vp-imp", "TABELLE DI CONVERSIONE VP - IMP"),
])
def test_titles_as_printed(doc, unit_id, title):
    assert doc.unit(unit_id).title == title


def test_each_norm_names_the_laws_it_integrates(doc):
    assert doc.unit("92-93").extra["law"] == ["92", "93"]
    assert doc.unit("40").extra["law"] == ["40"]
    for unit_id in NORM_IDS:
        unit = doc.unit(unit_id)
        assert unit.extra["law"][0] == unit_id.split("-")[0]
        assert unit.group == "norme"


def test_every_unit_starts_with_its_own_clause_and_ids_are_unique(doc):
    for unit in doc.units:
        assert unit.clauses and unit.clauses[0].id == unit.id and unit.clauses[0].parent is None
        ids = [c.id for c in unit.clauses]
        assert len(ids) == len(set(ids)), unit.id
        seen = set()
        for c in unit.clauses:
            assert c.parent is None or c.parent in seen, (unit.id, c.id)
            seen.add(c.id)


# ---------------------------------------------------------------- clause numbering

@pytest.mark.parametrize("unit_id,clause_id,label,title", [
    ("8", "8-1a2", "2)", "Tornei a squadre"),                       # DESIGN's example id
    ("8", "8-2", "2.", "Sanzioni per gioco lento"),                 # italic asterisks dropped
    ("8", "8-3b2a3", "(3)", None),
    ("78", "78-5b1b", "(b)", None),                                 # cited in the text as "punto b1b"
    ("78", "78-7b", "b)", "Negli incontri a K.O."),
    ("sipari", "sipari-5.8", "5.8", "Variazioni di tempo fonte di informazioni non autorizzate"),
    ("sipari", "sipari-4.2", "4.2", "Responsabilità per il gioco di un board errato"),  # printed `\$.2`
    ("sipari", "sipari-X2", "X2", "L'arbitro è stato chiamato quando l'irregolarità è già passata "
                                  "dall'altro lato del sipario e c'è un solo partito colpevole"),
    ("sistemi", "sistemi-1.2", "1.2", "Metodi proibiti"),
    ("sistemi", "sistemi-2.3-blu-G", "G.", None),
    ("70", "70-a.2", "a.2", None),
    ("92-93", "92-93-7", "7.", "Accettazione della decisione"),
    ("line-up", "line-up-3b1a", "(a)", None),
])
def test_clause_ids_follow_the_norms_own_numbering(doc, unit_id, clause_id, label, title):
    c = clause(doc, unit_id, clause_id)
    assert c.label == label
    assert c.title == title


def test_repeated_label_in_78_1_is_the_third_item(doc):
    c = clause(doc, "78", "78-1c")             # printed `a)` after a) and b)
    assert c.extra["printed_label"] == "a)"
    assert c.text.startswith("Nei tornei fra più squadre disputati col sistema Board-A-Match")
    assert [x.id for x in doc.unit("78").clauses if x.parent == "78-1c"] == ["78-1c1", "78-1c2", "78-1c3"]


def test_numbered_subsections_nest_under_their_letters(doc):
    c = clause(doc, "78", "78-7a1-1g")         # 7. a) 1) 1. g.
    assert c.parent == "78-7a1-1"
    assert c.text.startswith("si utilizzeranno gli stessi meccanismi previsti per gli spareggi")
    assert clause(doc, "78", "78-78D").parent == "78"     # the Law label closes §8


# ---------------------------------------------------------------- Law clause labels

@pytest.mark.parametrize("unit_id,clause_id,label,law_clause,start", [
    ("21", "21-21B1a", "21B1(a)", "21B1a", "La FIGB prevede una normativa di Alert"),
    ("36", "36-36C", "36C", "36C", "Si intende che il contratto finale non cambia"),
    ("40", "40-40A1b", "40A1(b)", "40A1b", "La FIGB ha definito i modelli di Carta delle Convenzioni"),
    ("40", "40-40B1c", "40B1(c)", "40B1c", "Se non altrimenti determinato esplicitamente"),
    ("40", "40-40B2aiii", "40B2(a)(iii)", "40B2aiii", "La FIGB ha stabilito le procedure di Alert"),
    ("40", "40-40B2d", "40B2(d)", "40B2d", "Non è permesso alcun aiuto alla memoria"),
    ("43", "43-43B2b", "43B2(b)", "43B2b", "Per l'applicazione dell'Art. 64"),
    ("43", "43-43B3", "43B3", "43B3", "Specifichiamo cosa si intende."),
    ("73", "73-73A2", "73A2", "73A2", "E' previsto l'uso dello Stop"),
    ("78", "78-78D", "78D", "78D", "La FIGB autorizza differenti metodi di calcolo"),
])
def test_paragraphs_labelled_with_a_law_clause(doc, unit_id, clause_id, label, law_clause, start):
    c = clause(doc, unit_id, clause_id)
    assert c.label == label
    assert c.extra["law_clause"] == law_clause
    assert c.text.startswith(start)


def test_law_labels_of_norm_40_in_order(doc):
    labels = [c.label for c in doc.unit("40").clauses[1:]]
    assert labels == ["40A1(b)", "40B1(b)", "40B1(c)", "40B2(a)(i)", "40B2(a)(ii)", "40B2(a)(iii)",
                      "40B2(a)(iv)", "40B2(a)(v)", "40B2(b)", "40B2(d)"]
    # `40A1(b)` is printed twice: one clause, the second paragraph and its examples included
    text = clause(doc, "40", "40-40A1b").text
    assert "Nelle dichiarazioni di base l'Alert viene integrato dall'ANNUNCIO." in text
    assert "Ex 3: un giocatore apre 1sa." in text
    # a following unlabelled paragraph stays with its label
    assert clause(doc, "40", "40-40B2ai").text.endswith("che dovrà esprimere il suo accordo/disaccordo.")


def test_headings_that_name_a_law_clause(doc):
    c = clause(doc, "20", "20-spiegazione-delle-chiamate")
    assert c.title == "Spiegazione delle chiamate (20F1)"
    assert c.extra["law_clause"] == "20F1"
    assert clause(doc, "21", "21-21B1a").title == "Chiamata basata su una informazione errata"


# ---------------------------------------------------------------- dates

@pytest.mark.parametrize("unit_id,number,adopted,adopted_text", [
    ("sistemi", 1, "2026-03-23", "adottata il 23/03/2026"),
    ("psichiche", 2, "2026-03-23", "Adottata il 23/03/2026"),
    ("alert", 3, "2020-01-01", "Adottata il 01/01/2020"),
    ("sipari", 4, "2023-11-29", "Adottata il 29/11/2023"),
    ("line-up", 5, "2020-01-01", "Adottata il 01/01/2020"),
    ("moduli-cs", 6, "2026-03-23", "Adottata il 23/03/2026"),
    ("tabelle-vp-imp", 7, None, "Conformi alla Normativa WBF"),
])
def test_appendix_adoption(doc, unit_id, number, adopted, adopted_text):
    extra = doc.unit(unit_id).extra
    assert extra["appendix"] == number
    assert extra["adopted"] == adopted
    assert extra["adopted_text"] == adopted_text


def test_vp_tables_state_since_when_instead_of_a_date(doc):
    assert doc.unit("tabelle-vp-imp").extra["since"] == "2013"


def test_change_log_and_deliberations_in_meta(doc):
    changes = [(c["date"], c["text"], c["units"]) for c in doc.meta["changes"]]
    assert changes == [
        ("2023-11-29", "nuova normativa sipari", ["sipari"]),
        ("2026-03-23", "nuova normativa sistemi", ["sistemi"]),
        ("2026-05-04", "nuove norme integrative agli articoli 23 e 27", ["23", "27"]),
    ]
    assert [(d["number"], d["date"]) for d in doc.meta["deliberations"]] == [
        ("83/2023", "2023-11-29"), ("2/2026", "2026-02-01"),
        ("24/2026", "2026-02-25"), ("28/2026", "2026-03-17")]
    assert doc.meta["edition_text"] == "Edizione 2026 a cura della Scuola Arbitrale"
    for unit_id in ("23", "27"):
        assert doc.unit(unit_id).extra["effective"] == "2026-05-04"
    assert "effective" not in doc.unit("40").extra


def test_premessa_is_the_front_unit_with_the_definition(doc):
    unit = doc.unit("premessa")
    assert unit.kind == "front" and unit.title == "PREMESSA ALL'EDIZIONE 2026"
    assert unit.clauses[0].text.startswith("Le Norme Integrative 2020 chiariavano")
    definition = clause(doc, "premessa", "premessa-def-pre-alert")
    assert definition.title == "Pre Alert"
    assert definition.text.startswith("È un avvertimento, la cui forma può essere specificata")
    assert "CODICE INTERNAZIONALE DEL BRIDGE" not in unit.text   # the bold duplicate title


# ---------------------------------------------------------------- footnotes

@pytest.mark.parametrize("marker,unit_id,clause_id,start", [
    ("1", "4", "4-1-p2", "Ad esempio, in una competizione a coppie miste"),  # marker after 4-1's items
    ("2", "8", "8", "Tutte le penalità elencate di seguito sono emendabili"),   # marker in the heading
    ("3", "8", "8-1a2", "Qualora l'Arbitro non lo faccia"),
    ("4", "12", "12-3", "Estratto dal Verbale della WBFLC del 20 ottobre 2011 a Koningshof:"),
    ("5", "18", "18-1b", "È facile capire che lo sfilare"),                      # text printed in Art. 20
    ("6", "78", "78-7b1", "Per le procedure di Line-Up vedi Appendice 5"),       # text printed in Art. 79
    ("8", "line-up", "line-up-1", "Tanto in questa circostanza"),
])
def test_footnote_lands_on_its_markers_unit_and_clause(doc, marker, unit_id, clause_id, start):
    notes = [f for u in doc.units for f in u.footnotes if f.marker == marker]
    assert len(notes) == 1
    assert notes[0] in doc.unit(unit_id).footnotes
    assert notes[0].clause == clause_id
    assert notes[0].text.startswith(start)


def test_footnote_text_is_out_of_the_body(doc):
    four = next(f for f in doc.unit("12").footnotes if f.marker == "4")
    assert four.text.count("\n") == 1 and four.text.endswith("quando si applichi questo Articolo.")
    body = clause(doc, "12", "12-3").text
    assert "Koningshof" not in body and body.endswith("qualora questo sia possibile.")
    assert "È facile capire" not in doc.unit("20").text and not doc.unit("20").footnotes
    assert "Per le procedure di Line-Up" not in doc.unit("79").text
    # ¹ sat between a heading and its body
    c = clause(doc, "4", "4-2a")
    assert c.title.endswith("formule tipo Mitchell od Howell")
    assert c.text.startswith("In caso di abbandono del torneo da parte di una coppia")
    assert "dovrà terminare, sulla base di una cadenza" in clause(doc, "8", "8-1a2").text
    assert clause(doc, "line-up", "line-up-3b").text.startswith("L'Arbitro Responsabile procederà")


def test_orphan_marker_is_reported_not_printed(doc):
    missing = doc.unit("78").extra["missing_footnotes"]
    assert {m["marker"] for m in missing} == {"9"}
    assert "Verrà giocato un board per ogni 8 validamente giocati" in clause(doc, "78", "78-7b").text


# ---------------------------------------------------------------- tables

def test_time_per_board_tables(doc):
    no_screens = clause(doc, "8", "8-1a2").tables
    assert [t.caption for t in no_screens] == ["Questo dà luogo alla seguente tabella",
                                               "Ovvero, includendo i 5' di massima tolleranza"]
    assert no_screens[0].header == []
    assert no_screens[0].rows == [["6", "45m"], ["8", "1h 00m"], ["10", "1h 15m"], ["12", "1h 30m"],
                                  ["14", "1h 45m"], ["16", "2h 00m"], ["18", "2h 15m"], ["20", "2h 30m"]]
    assert no_screens[1].rows[0] == ["6", "50m"] and no_screens[1].rows[-1] == ["20", "2h 35m"]
    screens = clause(doc, "8", "8-1b2").tables
    assert len(screens) == 2
    assert screens[0].rows[5] == ["16", "2h 10m"]
    assert screens[1].rows[-1] == ["20", "2h 45m"]
    # the captions are not left in the text
    assert "seguente tabella" not in clause(doc, "8", "8-1a2").text


def test_vp_imp_tables(doc):
    tables = doc.unit("tabelle-vp-imp").clauses[0].tables
    assert [t.caption for t in tables] == ["Tabella continua da 3 a 16 board",
                                           "Tabella continua fino a 40 board (numeri più comuni)",
                                           "Tabella IMP – VP scala 0 – 20 discreta"]
    short, long_, discrete = tables
    assert short.header[0] == ["n° Board"] + [str(n) for n in range(3, 17)]
    assert short.header[1][0] == "Diff IMP"
    assert len(short.rows) == 61 and all(len(r) == 15 for r in short.rows)
    assert [r[0] for r in short.rows] == [str(n) for n in range(61)]
    assert short.rows[1][:4] == ["1", "10,71", "10,61", "10,55"]
    assert short.rows[26][1] == "20,00" and short.rows[27][1] == ""
    assert short.rows[34][:5] == ["34", "", "", "20,00", "19,65"]     # after the page break
    assert short.rows[60] == ["60"] + [""] * 13 + ["20,00"]
    assert long_.header[0] == ["n° Board", "20", "24", "28", "30", "32", "36", "40"]
    assert len(long_.rows) == 96
    assert long_.rows[13] == ["13", "13,19", "12,95", "12,76", "12,67", "12,60", "12,46", "12,35"]
    assert long_.rows[95][-1] == "20,00"
    assert discrete.header[0] == ["n° Board", "6", "7", "8", "9", "10", "12", "14", "16", "20", "32"]
    assert discrete.header[1][0] == "VP"
    assert len(discrete.rows) == 11
    assert discrete.rows[0][:2] == ["10 – 10", "0 - 0"] and discrete.rows[0][-1] == "0 - 2"
    assert discrete.rows[-1] == ["20 – 0", "33 +", "36 +", "39 +", "41 +", "43 +", "47 +",
                                 "51 +", "54 +", "61 +", "77 +"]


def test_forms_of_appendix_6(doc):
    forms = [c for c in doc.unit("moduli-cs").clauses if c.extra.get("form")]
    assert [c.title for c in forms] == ["Modulo Convenzione Speciale di Apertura",
                                        "Modulo Convenzione Speciale di Intervento"]
    assert forms[0].tables[0].rows[0] == ["Nomi:", "posizione", "1a", "2a", "3a", "4a"]
    assert "Con quali mani il rispondente passa sull'apertura?" in forms[0].text


# ---------------------------------------------------------------- cleaning

NOISE = re.compile(r"\*\*|\||\$|\\frac|\\|<i>|</i>|\^|[⁰¹²³⁴⁵⁶⁷⁸⁹]")


def _strings(doc):
    for u in doc.units:
        yield u.id, u.title or ""
        for c in u.clauses:
            yield u.id, c.text
            yield u.id, c.title or ""
            yield u.id, c.label
            for t in c.tables:
                yield u.id, t.caption or ""
                for row in t.header + t.rows:
                    yield from ((u.id, cell) for cell in row)
            for n in c.notes:
                yield u.id, n.text
        for f in u.footnotes:
            yield u.id, f.text


def test_no_markup_noise_anywhere(doc):
    for unit_id, s in _strings(doc):
        assert not NOISE.search(s), (unit_id, s[:120])
        assert "*" not in s.replace("(*)", ""), (unit_id, s[:120])
        assert not s.startswith("- ") and "\n- " not in s, (unit_id, s[:120])


def test_latex_and_glued_words_are_cleaned(doc):
    assert "superiore a 1/5 del numero delle smazzate" in clause(doc, "78", "78-2a").text
    assert "approssimato all'intero più vicino (0,5 = 0)." in clause(doc, "12", "12-3").text
    assert "meno di 13 punti\nECCEZIONE (Multicolor): un'apertura" in clause(doc, "sistemi", "sistemi-2.2a").text
    assert "debole si annuncia: debole (vedi note)" in doc.unit("alert").text.lower()


def test_merged_bullets_are_split(doc):
    c = clause(doc, "alert", "alert-2-aperture-1-cuori-1-picche")
    assert c.title == "Aperture 1♥, 1♠"
    assert c.text.split("\n") == [
        "Se prevede 4+ carte in un sistema a base naturale si annuncia: nobili IV",
        "Se prevede 5+ carte in un sistema a base naturale: NON si annuncia. NON si allerta",
        "Se prevede 5+ carte in un sistema a base ♣/♦ forte si annuncia: massimo 15 (16, ecc.) PO",
        "Altro: si allerta"]


def test_paragraphs_broken_at_page_ends_are_rejoined(doc):
    assert "Il gioco proseguirà adesso come senza sipari ma, nel caso in cui un giocatore" \
        in clause(doc, "sipari", "sipari-2").text
    assert "L'arbitro non trasferirà mai informazioni da un lato all'altro del sipario" \
        in clause(doc, "sipari", "sipari-5.6").text
    assert "cominciando da quella che siede in Nord Sud in sala aperta nel primo tempo." \
        in clause(doc, "line-up", "line-up-2c").text
    assert "formula: si procederà come al punto b1b precedente" in clause(doc, "78", "78-5b2").text


def test_body_note_becomes_a_note(doc):
    """The "(*)" note follows 2.1's items (a)–(e): it is read after them, in 2.1's closing block."""
    c = clause(doc, "sistemi", "sistemi-2.1-p2")
    assert c.parent == "sistemi-2.1" and not c.text
    assert [n.text[:30] for n in c.notes] == ["(*) nei punti (d) ed (e) sopra"]
    assert "(*) nei punti" not in c.text


# ---------------------------------------------------------------- build properties

def test_deterministic_and_fast():
    entry = _entry()
    start = time.perf_counter()
    first = entry.parse().to_dict()
    elapsed = time.perf_counter() - start
    assert first == entry.parse().to_dict()
    assert elapsed < 0.5


# ---------------------------------------------------------------- reading order of lists

def ids_in_order(doc, unit_id):
    return [c.id for c in doc.unit(unit_id).clauses]


def test_alert_note_lists_each_under_its_own_introduction(doc):
    """App. 3 §2: the should-alert list and the NOT-alerted list are two clauses of §2 (after
    its NOTE), each introducing its own items, in source order (read the other way, the rule
    reverses)."""
    should = clause(doc, "alert", "alert-2-p2")
    should_not = clause(doc, "alert", "alert-2-p3")
    assert should.parent == should_not.parent == "alert-2"
    assert should.text.endswith("dovrebbero essere allertate le seguenti categorie di licite:")
    assert should_not.text == "Se si gioca senza sipari, NON vanno allertate le seguenti licite:"
    unit = doc.unit("alert")
    assert [c.id for c in unit.clauses if c.parent == should.id] == ["alert-2-1", "alert-2-2", "alert-2-3"]
    assert [c.id for c in unit.clauses if c.parent == should_not.id] == ["alert-2-1_2", "alert-2-2_2"]
    assert clause(doc, "alert", "alert-2-1").text == "Le licite convenzionali"
    assert clause(doc, "alert", "alert-2-1_2").text.startswith("Ogni tipo di contro e di surcontro")
    order = ids_in_order(doc, "alert")
    assert order.index("alert-2-note") < order.index(should.id) < order.index("alert-2-3") \
        < order.index(should_not.id) < order.index("alert-2-1_2")


@pytest.mark.parametrize("unit_id, owner, last_item, start", [
    ("8", "8-3b2a", "8-3b2a3", "La squadra perdente otterrà 0 V.P. e 0 I.M.P."),
    ("4", "4-1", "4-1e", "Le sostituzioni che trasgrediscono le suddette condizioni"),
    ("alert", "alert-3", "alert-3-4", "La mancata osservanza della norma comporta"),
    ("alert", "alert-4", "alert-4b", "I giocatori hanno l'obbligo di assicurarsi che l'Alert"),
    # 87 §2: the closing sentence follows the whole a)–c) schema, not only c)4)
    ("87", "87-2", "87-2c4", "Se, per effetto di un risultato ottenuto in un board non conforme"),
    ("sistemi", "sistemi-1.1", "sistemi-1.1-3", "In tutta questa appendice"),
])
def test_text_after_a_list_is_read_after_its_items(doc, unit_id, owner, last_item, start):
    para = clause(doc, unit_id, f"{owner}-p2")
    assert para.parent == owner and para.text.startswith(start)
    order = ids_in_order(doc, unit_id)
    assert order.index(last_item) < order.index(para.id)
    assert start not in clause(doc, unit_id, owner).text


def test_every_system_colour_is_a_clause_in_source_order(doc):
    colours = [c for c in doc.unit("sistemi").clauses if c.parent == "sistemi-2.3"]
    assert [c.title for c in colours] == ["Verde", "Arancione", "Blu", "Viola", "Rosso", "Giallo"]
    assert [c.id for c in colours][1] == "sistemi-2.3-arancione"
    assert colours[3].text.startswith("appartengono a questa categoria i sistemi che non sono blu")
    assert "Arancione" not in clause(doc, "sistemi", "sistemi-2.3").text


def test_tables_are_read_after_the_paragraph_before_them(doc):
    """8-1a2: the rule, then "Questo dà luogo alla seguente tabella" with its table, then
    "Ovvero, includendo i 5'…" with the second (the lines introducing a table are its caption)."""
    c = clause(doc, "8", "8-1a2")
    assert c.text.endswith("alla smazzatura ed alla spiegazione reciproca dei sistemi.")
    assert [(t.at, t.caption) for t in c.tables] == [
        (1, "Questo dà luogo alla seguente tabella"), (1, "Ovvero, includendo i 5' di massima tolleranza")]
    assert c.tables[0].rows[0] == ["6", "45m"] and c.tables[1].rows[0] == ["6", "50m"]
