"""Italian Laws 2017: front matter and the 63 definitions (kb.parse.it_laws.front).

Expected values are read from corpus/it-laws-2017.txt (lines 1–446).
"""
from __future__ import annotations

import importlib.util

import pytest

from kb.corpus.manifest import load_manifest
from kb.records.model import Unit
from kb.parse.it_laws.front import definition_terms, front_units


@pytest.fixture(scope="module")
def units() -> list[Unit]:
    entry = next(e for e in load_manifest() if e.id == "it-laws")
    return front_units(entry.read())


@pytest.fixture(scope="module")
def by_id(units) -> dict[str, Unit]:
    return {u.id: u for u in units}


@pytest.fixture(scope="module")
def definitions(units) -> list[Unit]:
    return [u for u in units if u.kind == "definition"]


def test_unit_ids_are_unique(units):
    ids = [u.id for u in units]
    assert len(ids) == len(set(ids))


def test_front_matter_then_definitions_in_text_order(units):
    kinds = [u.kind for u in units]
    assert kinds == ["front"] * 3 + ["definition"] * 63
    assert all(u.group == "front" for u in units[:3])
    assert all(u.group == "definitions" for u in units[3:])


# --- front matter ---------------------------------------------------------------

@pytest.mark.parametrize("uid, title, first_words, last_words", [
    ("introduzione-all-edizione-italiana-del-codice-2017",
     "INTRODUZIONE ALL'EDIZIONE ITALIANA DEL CODICE 2017",
     "Il Codice 2017 si caratterizza", "Antonio Riccardi"),
    ("prefazione-all-edizione-2017", "PREFAZIONE ALL'EDIZIONE 2017",
     "A differenza di altri Giochi della Mente", "I membri della Commissione erano:"),
    ("introduzione-al-codice-2017", "INTRODUZIONE AL CODICE 2017",
     "Il Bridge Duplicato è in continua evoluzione",
     "il maschile include il femminile, e viceversa."),
])
def test_front_units(by_id, uid, title, first_words, last_words):
    unit = by_id[uid]
    assert unit.kind == "front"
    assert unit.title == title
    assert unit.clauses[0].id == "p1"
    assert unit.clauses[0].text.startswith(first_words)
    assert unit.clauses[-1].text.endswith(last_words)
    assert [c.id for c in unit.clauses] == [f"p{i}" for i in range(1, len(unit.clauses) + 1)]
    assert all(c.label == "" and c.parent is None for c in unit.clauses)


def test_riccardi_intro_quotes_article_23_and_20g_as_its_own_text(by_id):
    intro = by_id["introduzione-all-edizione-italiana-del-codice-2017"]
    texts = [c.text for c in intro.clauses]
    assert "ARTICOLO 23- CHIAMATA PARAGONABILE" in texts
    assert "A. Definizione." in texts
    # quoted items keep their number; the trailing "new text" asterisk is gone
    assert ("3. Ha lo stesso scopo (es. un asking bid o un relay) di quello attribuibile "
            "alla chiamata ritirata.") in texts
    assert "1. Ha il significato medesimo o simile a quello attribuibile alla chiamata ritirata, o" in texts
    assert "Procedura non corretta" in texts
    assert texts[texts.index("Procedura non corretta") + 1].endswith(
        "all'unico fine di procurare un vantaggio al compagno.")
    # the quote stays between the paragraph announcing it and Riccardi's comment on it
    quote = texts.index("ARTICOLO 23- CHIAMATA PARAGONABILE")
    assert texts[quote - 1].endswith("importante passo avanti su quella strada:")
    assert texts[quote + 1] == "A. Definizione."
    assert any(t.startswith("Detto in altri termini") for t in texts[quote:])


def test_no_unit_is_an_article(units):
    assert not [u.id for u in units if u.kind == "article" or u.id.isdigit()]
    assert not [u.title for u in units if u.title and u.title.upper().startswith("ARTICOLO")]


def test_committee_table_is_a_table_on_its_clause(by_id):
    preface = by_id["prefazione-all-edizione-2017"]
    clause = preface.clauses[-1]
    assert clause.text == "I membri della Commissione erano:"
    assert len(clause.tables) == 1
    table = clause.tables[0]
    assert table.rows[0] == ["Max Bavin", "Howard Weinstein"]
    assert table.rows[-1] == ["Chip Martel", "Ton Kooijman (Chairman)"]
    assert len(table.rows) == 5 and all(len(r) == 2 for r in table.rows)
    assert sum(len(c.tables) for u in by_id.values() for c in u.clauses) == 1


def test_wbf_intro_modal_verbs_lose_their_bold(by_id):
    text = by_id["introduzione-al-codice-2017"].text
    assert "“può” (may)" in text and "“non dovrà”(shall not)" in text


# --- definitions ------------------------------------------------------------------

def test_sixty_three_definitions_from_alert_to_vulnerabilita(definitions):
    assert len(definitions) == 63
    assert (definitions[0].id, definitions[0].title) == ("def-alert", "Alert")
    assert (definitions[-1].id, definitions[-1].title) == ("def-vulnerabilita", "Vulnerabilità")
    assert all(u.id.startswith("def-") for u in definitions)


def test_text_order_kept_estraneo_before_errata_informazione(definitions):
    ids = [u.id for u in definitions]
    assert ids.index("def-estraneo") + 1 == ids.index("def-errata-informazione")


@pytest.mark.parametrize("title, uid, term, first_words", [
    ("Alert", "def-alert", "Alert", "È un avvertimento, la cui forma"),
    ("Board", "def-board", "Board", ""),
    ("Cancellata", "def-cancellata", "Cancellata", 'Vedi "Ritirata".'),
    ("Carta d'attacco iniziale", "def-carta-d-attacco-iniziale", "Carta d'attacco iniziale",
     "La carta d'attacco della prima presa."),
    ('Chiamata psichica (comunemente detta "psichica")', "def-chiamata-psichica",
     "Chiamata psichica", "La deliberata e grossolana deviazione"),
    ("Concorrente (Partecipante)", "def-concorrente", "Concorrente",
     "Negli eventi individuali un giocatore"),
    ("International Match Point (IMP)", "def-international-match-point",
     "International Match Point", "Unità di punteggio da attribuirsi"),
    ("Mano (Smazzata)", "def-mano", "Mano", "Le carte inizialmente distribuite"),
    ("Non voluto", "def-non-voluto", "Non voluto",
     "Involontario. Non soggetto al controllo della volontà;"),
    ('Penalità (vedi anche "Rettifica")', "def-penalita", "Penalità",
     "Le penalità sono di due tipi:"),
    ("Presca eccedente", "def-presca-eccedente", "Presca eccedente",
     "Ogni presa che deve essere vinta dalla linea del dichiarante"),
    ("Punti-presca", "def-punti-presca", "Punti-presca", "I punti segnati dalla linea"),
    ("Presa in più", "def-presa-in-piu", "Presa in più", "Ogni presa vinta dal dichiarante"),
    ("Carta visibile", "def-carta-visibile", "Carta visibile",
     "Una carta tenuta in maniera tale"),  # no final period in the text
    ("MatchPoint", "def-matchpoint", "MatchPoint", "L'unità di punteggio"),
    ("Mazzo Intatto", "def-mazzo-intatto", "Mazzo Intatto", "Un mazzo di carte non modificato"),
])
def test_definition_entry(by_id, title, uid, term, first_words):
    unit = by_id[uid]
    assert unit.kind == "definition"
    assert unit.title == title
    assert unit.extra["term"] == term
    first = unit.clauses[0]
    assert (first.id, first.parent, first.label) == (uid, None, "")
    if first_words:
        assert first.text.startswith(first_words)
    else:
        assert first.text == ""


@pytest.mark.parametrize("uid, qualifier", [
    ("def-chiamata-psichica", 'comunemente detta "psichica"'),
    ("def-concorrente", "Partecipante"),
    ("def-international-match-point", "IMP"),
    ("def-mano", "Smazzata"),
    ("def-penalita", 'vedi anche "Rettifica"'),
])
def test_qualifiers(by_id, uid, qualifier):
    assert by_id[uid].extra["qualifier"] == qualifier


def test_only_five_terms_have_a_qualifier(definitions):
    assert sum("qualifier" in u.extra for u in definitions) == 5


def test_cross_references_between_definitions(by_id, definitions):
    assert by_id["def-cancellata"].extra["see"] == "def-ritirata"
    assert [u.id for u in definitions if "see" in u.extra] == ["def-cancellata"]
    assert by_id["def-penalita"].extra["see_also"] == "def-rettifica"
    assert "def-ritirata" in by_id and "def-rettifica" in by_id


def test_board_keeps_both_senses_across_the_page_header(by_id):
    board = by_id["def-board"]
    assert [c.id for c in board.clauses] == ["def-board", "def-board-1", "def-board-2"]
    assert board.clauses[1].text == "Un board per bridge duplicato quale descritto nell'Articolo 2."
    assert board.clauses[2].text.startswith("Le quattro mani così come sono state")
    assert board.clauses[2].text.endswith('(alle quali ci si riferisce anche con il termine "smazzata").')
    assert "CODICE INTERNAZIONALE" not in board.text and "Modificato" not in board.text


def test_penalita_sub_entries_are_clauses_not_terms(by_id, definitions):
    penalita = by_id["def-penalita"]
    ids = [c.id for c in penalita.clauses]
    assert ids == ["def-penalita", "def-penalita-disciplinari", "def-penalita-procedurali"]
    disciplinari = penalita.clause("def-penalita-disciplinari")
    assert disciplinari.parent == "def-penalita"
    assert disciplinari.title == "disciplinari"
    assert disciplinari.text.startswith("ovvero quelle applicate al fine di mantenere l'ordine")
    procedurali = penalita.clause("def-penalita-procedurali")
    assert procedurali.text.endswith("in casi di irregolarità procedurali (vedi Articolo 90).")
    titles = {u.title for u in definitions}
    assert not {t for t in titles if t.lower().startswith(("disciplinari", "procedurali"))}


@pytest.mark.parametrize("uid, senses, first_words", [
    ("def-board", 2, ["Un board per bridge duplicato", "Le quattro mani"]),
    ("def-chiamata-artificiale", 3, ["Una licita, un contro od un surcontro",
                                     "Un passo che promette", "Un passo che garantisca"]),
    ("def-gioco", 4, ["Il contributo di una carta", "L'insieme delle giocate fatte.",
                      "Il periodo durante il quale", "L'insieme delle chiamate e delle giocate"]),
    ("def-licitazione", 2, ["Il processo attraverso il quale", "Il complesso delle chiamate"]),
    ("def-morto", 2, ["Il compagno del dichiarante.", "Le carte del compagno del dichiarante"]),
    ("def-smazzata", 2, ["La distribuzione del mazzo di carte",
                         "Le carte così distribuite"]),
])
def test_numbered_senses(by_id, uid, senses, first_words):
    unit = by_id[uid]
    assert unit.clauses[0].id == uid
    rest = unit.clauses[1:]
    assert [c.id for c in rest] == [f"{uid}-{n}" for n in range(1, senses + 1)]
    assert [c.label for c in rest] == [f"{n}." for n in range(1, senses + 1)]
    assert all(c.parent == uid for c in rest)
    for clause, words in zip(rest, first_words):
        assert clause.text.startswith(words)


def test_only_six_terms_have_senses(definitions):
    with_senses = [u.id for u in definitions if any(c.label.endswith(".") for c in u.clauses)]
    assert with_senses == ["def-board", "def-chiamata-artificiale", "def-gioco",
                           "def-licitazione", "def-morto", "def-smazzata"]


def test_single_paragraph_definitions_have_one_clause(definitions):
    multi = {"def-board", "def-chiamata-artificiale", "def-gioco", "def-licitazione",
             "def-morto", "def-smazzata", "def-penalita"}
    for unit in definitions:
        if unit.id not in multi:
            assert len(unit.clauses) == 1, unit.id
            assert unit.clauses[0].text, unit.id


def test_definition_terms_map(units):
    terms = definition_terms(units)
    assert len(terms) == 63
    assert terms["Chiamata psichica"] == "def-chiamata-psichica"
    assert terms["Non voluto"] == "def-non-voluto"
    assert terms["Vulnerabilità"] == "def-vulnerabilita"


# --- noise --------------------------------------------------------------------------

NOISE = ("**", "|", "\x00", "FEDERAZIONE ITALIANA GIOCO BRIDGE",
         "CODICE INTERNAZIONALE DEL BRIDGE DUPLICATO", "NUOVA VERSIONE IN VIGORE",
         "Modificato ed approvato", "INDICE", "pag.")


def test_no_noise_anywhere(units):
    for unit in units:
        pieces = [unit.title or ""] + [c.text for c in unit.clauses] + [c.title or "" for c in unit.clauses]
        for piece in pieces:
            assert not any(n in piece for n in NOISE), (unit.id, piece)
            for line in piece.split("\n"):
                assert not line.startswith(("- ", " ")), (unit.id, line)
                assert not line.rstrip().endswith("*"), (unit.id, line)


def test_deterministic(units):
    entry = next(e for e in load_manifest() if e.id == "it-laws")
    again = front_units(entry.read())
    assert [u.to_dict() for u in again] == [u.to_dict() for u in units]


# --- the rules are general: a new print drops in -------------------------------------------

SYNTHETIC = """INTRODUZIONE DI PROVA

Un paragrafo.

Definizioni

Mazzo Intatto Intero.

Non alterato.

Zeta (vedi anche "Mazzo Intatto")

Una frase spezzata da una testata



CODICE INTERNAZIONALE DEL BRIDGE DUPLICATO

NUOVA VERSIONE IN VIGORE DAL 1 GENNAIO 2027

(Modificato ed approvato con delibera del CF n. 1 del 01/01/2027)

di pagina che continua qui.

INDICE
"""


def test_general_rules_on_a_synthetic_print():
    units = front_units(SYNTHETIC)
    assert [(u.kind, u.id) for u in units] == [
        ("front", "introduzione-di-prova"), ("definition", "def-mazzo-intatto"),
        ("definition", "def-zeta")]
    assert units[1].clauses[0].text == "Intero. Non alterato."
    assert units[2].extra["see_also"] == "def-mazzo-intatto"
    assert units[2].clauses[0].text == ("Una frase spezzata da una testata di pagina "
                                       "che continua qui.")


def test_a_short_second_paragraph_is_not_taken_for_a_term():
    text = "Definizioni\n\nAlfa\n\nUna cosa.\n\nVedi Articolo 12.\n\nBeta\n\nAltro.\n\nINDICE\n"
    units = front_units(text)
    assert [u.id for u in units] == ["def-alfa", "def-beta"]
    assert units[0].clauses[0].text == "Una cosa.\nVedi Articolo 12."


@pytest.mark.skipif(importlib.util.find_spec("kb.parse.it_laws") is None,
                    reason="the it_laws profile is not written yet")
def test_the_document_profile_includes_these_units(units):
    entry = next(e for e in load_manifest() if e.id == "it-laws")
    doc = entry.parse()
    mine = [u.to_dict() for u in units]
    theirs = [u.to_dict() for u in doc.units if u.kind in ("front", "definition")]
    assert theirs == mine
