"""Every unit reads in the order its source text prints it (`kb.pipeline.source_order`, `kb check`).

The checker finds each block of a unit (clause title, paragraph, table, note) in the unit's
source text, each after the one read before it; the cases below move real blocks out of place
and expect it to name the block read too early, and the line it was read before.
"""
import copy
from typing import Callable

import pytest

from kb.pipeline.check import check, document_reading_order, reading_order
from kb.corpus.manifest import load_manifest
from kb.records.reading import Block
from kb.pipeline.source_order import document_order, first_out_of_order, normalize

SOURCES = {e.id: e.read() for e in load_manifest()}


def document(export: dict, doc_id: str) -> dict:
    return next(d for d in export["documents"] if d["id"] == doc_id)


@pytest.mark.parametrize("doc_id", list(SOURCES))
def test_every_unit_reads_in_source_order(export, doc_id):
    """Both ways per unit: units in turn through the document, and each unit on its own."""
    doc, source = document(export, doc_id), SOURCES[doc_id]
    failing = {line.split(":")[0].split("#")[0]: line for line, ok in document_reading_order(doc, source) if not ok}
    for unit in doc["units"]:
        block = first_out_of_order(source, unit)
        where = f"{doc_id}/{unit['id']}"
        if block and where not in failing:
            failing[where] = f"{where}#{block.clause}: {block.text[:40]!r} is read before a line that precedes it"
    assert not failing, f"{len(failing)} unit(s) out of source order:\n" + "\n".join(failing.values())


# --- the checker can fail -------------------------------------------------------------------

Move = Callable[[dict], None]


def swap(a: str, b: str) -> Move:
    """Clauses `a` and `b` trade places."""
    def move(unit: dict) -> None:
        ids = [c["id"] for c in unit["clauses"]]
        i, j = ids.index(a), ids.index(b)
        unit["clauses"][i], unit["clauses"][j] = unit["clauses"][j], unit["clauses"][i]
    return move


def into_owner(paragraph: str) -> Move:
    """The closing paragraph clause goes back into its owner's text, before the owner's items
    (how the parsers used to store text that follows a list)."""
    def move(unit: dict) -> None:
        closing = next(c for c in unit["clauses"] if c["id"] == paragraph)
        owner = next(c for c in unit["clauses"] if c["id"] == closing["parent"])
        owner["text"] = "\n".join(t for t in (owner["text"], closing["text"]) if t)
        unit["clauses"].remove(closing)
        for c in unit["clauses"]:
            if c["parent"] == paragraph:
                c["parent"] = owner["id"]
        for f in unit["footnotes"]:
            f["clauses"] = [owner["id"] if c == paragraph else c for c in f.get("clauses", [])]
            if f.get("clause") == paragraph:
                f["clause"] = owner["id"]
    return move


def tables_first(clause: str) -> Move:
    """The clause's tables are printed before its text."""
    def move(unit: dict) -> None:
        for t in next(c for c in unit["clauses"] if c["id"] == clause)["tables"]:
            t["at"] = 0
    return move


# doc, unit, move, the block read too early, the line it is read before (clause, kind, start)
# — each pair in the source's order checked by reading corpus/*.txt.
CASES = [
    # es-laws-2007.txt, Art. 69B: "1.Si un jugador aceptó perder una baza que su bando, de hecho…"
    # then "2.Si un jugador aceptó perder una baza que es probable…"
    ("es-laws", "69", swap("69B1", "69B2"),
     ("69B2", "paragraph", "Si un jugador aceptó perder una baza que es probable"),
     ("69B1", "paragraph", "Si un jugador aceptó perder una baza que su bando")),
    # …then, after 69B2, "El estuche se vuelve a puntuar otorgando esta baza a su bando."
    ("es-laws", "69", into_owner("69B-p2"),
     ("69B", "paragraph", "El estuche se vuelve a puntuar"),
     ("69B1", "paragraph", "Si un jugador aceptó perder una baza que su bando")),
    # the other closing paragraphs the parsers once stored in their owner's text:
    # it-laws-2017.txt 69B "1. se un giocatore ha accordato la perdita…" … "Il risultato del board…"
    ("it-laws", "69", into_owner("69B-p2"),
     ("69B", "paragraph", "Il risultato del board viene allora nuovamente registrato"),
     ("69B1", "paragraph", "se un giocatore ha accordato la perdita di una presa")),
    # it-laws-2017.txt 71 "- A. se un giocatore ha concesso una presa…" … "Il punteggio del board…"
    ("it-laws", "71", into_owner("71-p2"),
     ("71", "paragraph", "Il punteggio del board viene allora nuovamente registrato"),
     ("71A", "paragraph", "se un giocatore ha concesso una presa")),
    # es-laws-2007.txt 64A "1.Si la baza del renuncio fue ganada…" … "(A efectos de este Artículo…)"
    ("es-laws", "64", into_owner("64A-p2"),
     ("64A", "paragraph", "(A efectos de este Artículo una baza ganada en el muerto"),
     ("64A1", "paragraph", "Si la baza del renuncio fue ganada por el infractor")),
    # es-laws-2007.txt 71 "1.Un jugador ha concedido una baza…" … "El estuche se puntúa adjudicando…"
    ("es-laws", "71", into_owner("71-p2"),
     ("71", "paragraph", "El estuche se puntúa adjudicando esta baza a su bando."),
     ("71A", "paragraph", "Un jugador ha concedido una baza que su bando")),
    # es-laws-2007.txt 80B2 "a.Designar al Árbitro…" … "l.Todos los demás…" then "•En algunos casos…"
    ("es-laws", "80", into_owner("80B2-p2"),
     ("80B2", "paragraph", "En algunos casos es normal que el Árbitro asuma"),
     ("80B2a", "paragraph", "Designar al Árbitro.")),
    # it-norms-2026.txt 8.3b2a: "- (1) 60% dei V.P. …" … "La squadra perdente otterrà 0 V.P. …"
    ("it-norms", "8", into_owner("8-3b2a-p2"),
     ("8-3b2a", "paragraph", "La squadra perdente otterrà 0 V.P. e 0 I.M.P."),
     ("8-3b2a1", "paragraph", "60% dei V.P. in palio in quell'incontro")),
    # it-norms-2026.txt, App. 3 §2: "Apertura 1♣:" … NOTE, "Ad esclusione delle licite…" and its
    # items 1)-3), then "Se si gioca senza sipari, NON vanno allertate le seguenti licite⁷:"
    ("it-norms", "alert", into_owner("alert-2-p3"),
     ("alert-2", "paragraph", "Se si gioca senza sipari, NON vanno allertate"),
     ("alert-2-apertura-1-fiori", "title", "Apertura 1♣")),
    # it-norms-2026.txt, norm 8.1a2: "All'inizio di ogni incontro…", then the table "6 45 ^m …"
    ("it-norms", "8", tables_first("8-1a2"),
     ("8-1a2", "table", "Questo dà luogo alla seguente tabella\n6 | 45m"),
     ("8-1a2", "paragraph", "All'inizio di ogni incontro l'Arbitro comunica")),
    # it-timeref-2011.txt: "53A - Un attacco fuori turno può essere accettato…" under
    # "Accettazione di un attacco fuori turno", then the heading "Attacco regolare a seguito…"
    # and "53C - A seguito di un attacco fuori turno di un avversario…"
    ("it-timeref", "attacco-fuori-turno", swap("attacco-fuori-turno-1", "attacco-fuori-turno-2"),
     ("attacco-fuori-turno-2", "paragraph", "A seguito di un attacco fuori turno di un avversario"),
     ("attacco-fuori-turno-s2", "paragraph", "Attacco regolare a seguito di un attacco fuori turno")),
    # it-burraco-2014.txt, ART. 3: "RANGO DEI SEMI…", then "RANGO DELLE CARTE…"
    ("it-burraco", "3", swap("3-p2", "3-p3"),
     ("3-p3", "paragraph", "RANGO DELLE CARTE Le carte di ogni seme"),
     ("3-p2", "paragraph", "RANGO DEI SEMI Il rango dei semi")),
]


def moved(export: dict, doc_id: str, unit_id: str, move: Move) -> dict:
    """The document, with `move` applied to a copy of one of its units."""
    doc = copy.deepcopy(document(export, doc_id))
    move(next(u for u in doc["units"] if u["id"] == unit_id))
    return doc


def names(block: Block | None, clause: str, kind: str, start: str) -> bool:
    return block is not None and (block.clause, block.kind) == (clause, kind) and block.text.startswith(start)


@pytest.mark.parametrize("doc_id, unit_id, move, early, late", CASES,
                         ids=[f"{c[0]}/{c[1]}:{c[3][0]}-before-{c[4][0]}" for c in CASES])
def test_a_block_moved_before_an_earlier_line_is_named(export, doc_id, unit_id, move, early, late):
    doc = moved(export, doc_id, unit_id, move)
    unit = next(u for u in doc["units"] if u["id"] == unit_id)
    assert names(first_out_of_order(SOURCES[doc_id], unit), *early)
    order = next(o for o in document_order(SOURCES[doc_id], doc["units"]) if o.unit == unit_id)
    assert names(order.early, *early) and names(order.late, *late)
    assert order.missing == ()


def test_kb_check_reports_the_unit_and_the_line_read_too_early(export):
    bad = copy.deepcopy(export)
    bad["documents"] = [moved(export, "it-norms", "alert", into_owner("alert-2-p3")) if d["id"] == "it-norms"
                        else d for d in export["documents"]]
    problems = [p for p in check(bad) if p.startswith("it-norms/")]
    assert problems == [
        'it-norms/alert#alert-2: "Se si gioca senza sipari, NON vanno alle…" is read before a line that '
        'precedes it in the source (alert-2-apertura-1-fiori title: "Apertura 1♣")']


def test_a_unit_read_before_the_unit_it_follows_is_named(export):
    """it-laws-2017.txt prints ARTICOLO 5 (A. Posizione di partenza) before ARTICOLO 6 (A. Mescolatura)."""
    doc = copy.deepcopy(document(export, "it-laws"))
    ids = [u["id"] for u in doc["units"]]
    i, j = ids.index("5"), ids.index("6")
    doc["units"][i], doc["units"][j] = doc["units"][j], doc["units"][i]
    problems = [line for line, ok in document_reading_order(doc, SOURCES["it-laws"]) if not ok]
    assert problems == ['it-laws/6#6A: "Mescolatura" is read before a line that precedes it in the source '
                        '(it-laws/5#5A title: "Posizione di partenza")']


def test_a_block_the_source_does_not_hold_is_listed_not_failed(export):
    invented = "Questa frase non compare in nessun articolo del Codice."
    doc = copy.deepcopy(document(export, "it-laws"))
    unit = next(u for u in doc["units"] if u["id"] == "69")
    unit["clauses"][-1]["text"] += "\n" + invented
    assert invented not in SOURCES["it-laws"]
    assert first_out_of_order(SOURCES["it-laws"], unit) is None
    order = next(o for o in document_order(SOURCES["it-laws"], doc["units"]) if o.unit == "69")
    assert order.in_order and [b.text for b in order.missing] == [invented]
    lines = reading_order({"documents": [doc]}, {"it-laws": SOURCES["it-laws"]})
    assert (f'it-laws/69#{unit["clauses"][-1]["id"]}: paragraph "{invented[:40]}…" is not in the source text',
            True) in lines


def test_an_invented_block_between_real_ones_does_not_hide_their_order(export):
    doc = moved(export, "es-laws", "69", swap("69B1", "69B2"))
    unit = next(u for u in doc["units"] if u["id"] == "69")
    next(c for c in unit["clauses"] if c["id"] == "69B2")["text"] += "\nTexto que no está en el Reglamento."
    order = next(o for o in document_order(SOURCES["es-laws"], doc["units"]) if o.unit == "69")
    assert names(order.early, "69B2", "paragraph", "Si un jugador aceptó perder una baza que es probable")
    assert [b.text for b in order.missing] == ["Texto que no está en el Reglamento."]


# --- the source's markup does not hide a block ----------------------------------------------

@pytest.mark.parametrize("doc_id, source_line, parsed", [
    # a footnote call, a list marker
    ("it-norms", "Se si gioca senza sipari, NON vanno allertate le seguenti licite⁷:",
     "Se si gioca senza sipari, NON vanno allertate le seguenti licite:"),
    ("it-norms", "- 1) Le licite convenzionali", "Le licite convenzionali"),
    # markdown bold, typographic quotes
    ("it-burraco", "RANGO DELLE CARTE Le carte di ogni seme in ordine decrescente sono: **Jolly, 2 A K Q J 10 9 8 "
     "7 6 5 4 3.**", "RANGO DELLE CARTE Le carte di ogni seme in ordine decrescente sono: Jolly, 2 A K Q J 10 9 8 7 6 5 4 3."),
    # table rows: tab-separated with superscript carets, HTML italics, markdown pipes
    ("it-norms", "8\t1 ^h 00 ^m", "8 | 1h 00m"),
    ("it-norms", "<i>Nomi:</i>\t<i>posizione</i>\t<i>1a</i>", "Nomi: | posizione | 1a"),
    ("it-laws", "| Non contrata | 20 | 20 | 30 | 30 |", "Non contrata | 20 | 20 | 30 | 30"),
    # a marker and the clause title on the line of its text
    ("es-laws", "1.Si un jugador aceptó perder una baza que su bando, de hecho, había ganado; o",
     "Si un jugador aceptó perder una baza que su bando, de hecho, había ganado; o"),
])
def test_the_normalized_text_of_a_block_is_in_the_normalized_source_line(doc_id, source_line, parsed):
    assert source_line in SOURCES[doc_id]
    assert normalize(parsed) in normalize(source_line)
