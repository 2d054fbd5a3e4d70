"""The Spanish Laws 2007 (Reglamento del Bridge Duplicado, WBF 2007 + AEB notes).

Expected values are read from corpus/es-laws-2007.txt; clause ids follow the
logical WBF 2007 structure (DESIGN §4), confirmed by the text's own citations.
"""
from __future__ import annotations

import re

import pytest

from kb.corpus.manifest import load_manifest
from kb.parse import es_laws


@pytest.fixture(scope="module")
def entry():
    return next(e for e in load_manifest() if e.id == "es-laws")


@pytest.fixture(scope="module")
def doc(entry):
    return entry.parse()


def clause(doc, cid):
    art = re.match(r"\d+", cid).group()
    c = doc.unit(art).clause(cid)
    assert c is not None, f"no clause {cid}"
    return c


def all_clauses(doc):
    return [(u, c) for u in doc.units for c in u.clauses]


# ---------------------------------------------------------------- articles


def test_93_articles_in_order(doc):
    assert [u.id for u in doc.units] == [str(n) for n in range(1, 94)]
    assert {u.kind for u in doc.units} == {"article"}


@pytest.mark.parametrize("number, title", [
    ("1", "La baraja. Rango de cartas y palos"),
    ("12", "Facultades discrecionales del Árbitro"),
    ("24", "Carta expuesta o salida antes del periodo del carteo"),  # body, not index
    ("26", "Voz retirada. Restricciones a la salida"),
    ("30", "Paso fuera de turno"),  # the en-dash heading
    ("46", "Designación incompleta o errónea de la carta del muerto"),
    ("59", "Imposibilidad de un jugador de salir o jugar como se le ha requerido"),
    ("86", "Corrección de irregularidades en el juego por equipos o similar"),
    ("93", "Procedimiento de apelación"),
])
def test_titles_from_body_headings(doc, number, title):
    assert doc.unit(number).title == title


def test_index_title_kept_where_it_differs(doc):
    assert doc.unit("46").extra["index_title"] == "Designación errónea de la carta del muerto"
    assert "index_title" not in doc.unit("1").extra


def test_first_clause_is_the_article(doc):
    for u in doc.units:
        assert u.clauses[0].id == u.id and u.clauses[0].parent is None
        ids = [c.id for c in u.clauses]
        assert len(ids) == len(set(ids))


@pytest.mark.parametrize("number, text", [
    ("56", "Ver el Artículo 54D."),
    ("77", "Ver tabla en el anexo"),
    ("88", "Ver artículo 12C2"),
    ("89", "Ver artículo 12C3"),
])
def test_stub_articles(doc, number, text):
    u = doc.unit(number)
    assert [c.id for c in u.clauses] == [number]
    assert u.clauses[0].text == text and not u.clauses[0].tables


def test_printed_title_in_meta(doc):
    assert doc.meta["printed_title"] == "Reglamento del Bridge Duplicado 2007"


# ---------------------------------------------------------------- chapters

CHAPTERS = [
    ("I", "PRELIMINARES", 1, 8),
    ("II", "IRREGULARIDAES", 9, 16),  # the typo is printed in both copies
    ("III", "LA SUBASTA", 17, 40),
    ("IV", "EL CARTEO", 41, 60),  # heading missing from the body
    ("V", "EL RENUNCIO", 61, 64),
    ("VI", "BAZAS", 65, 67),
    ("VII", "RECLAMACIONES Y CONCESIONES", 68, 71),
    ("VIII", "NORMAS ÉTICAS", 72, 76),
    ("IX", "PUNTUACIÓN", 77, 79),
    ("X", "ORGANIZACIÓN Y DIRECCIÓN DE TORNEOS", 80, 91),
    ("XI", "APELACIONES Y RECURSOS", 92, 93),
]


def test_eleven_chapters_in_order(doc):
    assert doc.groups == [{"id": cid, "title": title} for cid, title, _, _ in CHAPTERS]


@pytest.mark.parametrize("cid, title, first, last", CHAPTERS)
def test_chapter_articles(doc, cid, title, first, last):
    assert [u.id for u in doc.units if u.group == cid] == [str(n) for n in range(first, last + 1)]


def test_every_unit_has_a_chapter(doc):
    assert all(u.group for u in doc.units)


def test_missing_body_heading_covered_by_the_index(entry):
    # Drop another body heading: the index still places its articles.
    text = entry.read().replace("\nV.- EL RENUNCIO\n", "\n\n", 1)
    parsed = es_laws.parse(text)
    assert {u.group for u in parsed.units if 61 <= int(u.id) <= 64} == {"V"}


def test_body_heading_disagreeing_with_index_is_an_error(entry):
    text = entry.read()
    body, index = text.split("\nINDICE\n")
    index = index.replace("V.- EL RENUNCIO\n", "", 1).replace(
        "Art. 61.- ", "V.- EL RENUNCIO\n\nArt. 61.- ", 1)  # still agrees
    es_laws.parse(body + "\nINDICE\n" + index)
    moved = index.replace("V.- EL RENUNCIO\n\nArt. 61.- ", "Art. 61.- ", 1).replace(
        "Art. 62.- ", "V.- EL RENUNCIO\n\nArt. 62.- ", 1)
    with pytest.raises(ValueError, match="chapter V"):
        es_laws.parse(body + "\nINDICE\n" + moved)


# ---------------------------------------------------------------- clause trees

CLAUSE_IDS = {
    "9": ["9", "9A", "9A1", "9A2", "9A3", "9A4", "9B", "9B1", "9B1a", "9B1b", "9B1c",
          "9B1d", "9B2", "9C"],
    "12": ["12", "12A", "12A1", "12A2", "12A3", "12B", "12B1", "12B2", "12C", "12C1",
           "12C1a", "12C1b", "12C1c", "12C1d", "12C1e", "12C1ei", "12C1eii", "12C1e-p2", "12C1f",
           "12C2", "12C2a", "12C2ai", "12C2aii", "12C2aiii", "12C2b", "12C2c", "12C3",
           "12C4"],
    "16": ["16", "16A", "16A1", "16A1a", "16A1b", "16A1c", "16A1d", "16A2", "16A3", "16A4",
           "16B", "16B1", "16B2", "16B3", "16C", "16C1", "16C2", "16C2a", "16C2b", "16C2c",
           "16C2d", "16C3", "16D", "16D1", "16D2"],
    "20": ["20", "20A", "20B", "20B1", "20B2", "20C", "20C1", "20C2", "20C3", "20D", "20E",
           "20F", "20F1", "20F2", "20F2a", "20F3", "20F4", "20F5", "20F5a", "20F5b", "20F6",
           "20G", "20G1", "20G2"],
    "27": ["27", "27A", "27A1", "27A2", "27B", "27B1", "27B1a", "27B1b", "27B2", "27B3",
           "27B4", "27C", "27D"],
    "40": ["40", "40A", "40A1", "40A1a", "40A1b", "40A2", "40A3", "40B", "40B1", "40B1a",
           "40B1b", "40B2", "40B2a", "40B2b", "40B2c", "40B2ci", "40B2cii", "40B2ciii",
           "40B2d", "40B3", "40B4", "40B5", "40B6", "40B6a", "40B6b", "40C", "40C1", "40C2",
           "40C3", "40C3a", "40C3b"],
    "50": ["50", "50A", "50B", "50C", "50D", "50D1", "50D1a", "50D1b", "50D2", "50D2a",
           "50D2b", "50D2-p2", "50E", "50E1", "50E2", "50E3"],
    "61": ["61", "61A", "61B", "61B1", "61B2", "61B2a", "61B2b", "61B3"],
    "64": ["64", "64A", "64A1", "64A2", "64A-p2", "64B", "64B1", "64B2", "64B3", "64B4", "64B5",
           "64B6", "64B7", "64C"],
    "68": ["68", "68A", "68B", "68B1", "68B2", "68C", "68D"],
    "70": ["70", "70A", "70B", "70B1", "70B2", "70B3", "70C", "70C1", "70C2", "70C3", "70D",
           "70D1", "70D2", "70D3", "70E", "70E1", "70E2"],
    "81": ["81", "81A", "81B", "81B1", "81B2", "81C", "81C1", "81C2", "81C3", "81C4", "81C5",
           "81C6", "81C7", "81C8", "81D"],
    # numbers straight under the article are its sections (WBF 35A–D, 71A–B)
    "35": ["35", "35A", "35B", "35C", "35D"],
    "71": ["71", "71A", "71B", "71-p2"],  # "El estuche se puntúa…" closes the list
}


@pytest.mark.parametrize("number", sorted(CLAUSE_IDS, key=int))
def test_clause_ids(doc, number):
    assert [c.id for c in doc.unit(number).clauses] == CLAUSE_IDS[number]


def test_parents_follow_the_ids(doc):
    for u, c in all_clauses(doc):
        if c.parent is not None:
            assert c.id.startswith(c.parent) and len(c.id) > len(c.parent)
            assert u.clause(c.parent) is not None


@pytest.mark.parametrize("cid, start", [
    ("9B1a", "Cuando se ha llamado la atención sobre una irregularidad"),
    ("9B2", "Los jugadores no deben tomar ninguna medida"),  # the `•` paragraph
    ("9C", "Cualquier corrección prematura de una irregularidad"),
    ("12A3", "El Árbitro puede otorgar una puntuación ajustada si hubo"),  # the `•` paragraph
    ("12B1", "El objetivo de ajustar una puntuación"),  # printed `a.`, cited as 12B1
    ("12B2", "El Árbitro no debe otorgar una puntuación ajustada aduciendo"),
    ("12C1b", "Si tras una irregularidad el bando inocente ha contribuido"),
    ("12C1ei", "Para el bando inocente, se le asigna"),
    ("12C2aiii", "“media máxima” (60% como mínimo"),
    ("16B1", "Si cualquiera de las siguientes acciones de un jugador"),
    ("20F3", "En los puntos 1 y 2 anteriores"),  # printed `3En`
    ("20F5a", "El compañero del jugador que dio una explicación errónea"),  # `5(a) El`
    ("21B1", "Hasta el final del periodo de subasta"),  # printed `1Hasta`
    ("27B1a", "Si la declaración insuficiente se corrige por la más baja"),
    ("35A", "Un doblo o redoblo no permitido por el Artículo 19."),
    ("40A1b", "Cada pareja tiene el deber de poner a disposición"),
    ("40B2ci", "antes de que empiece la subasta;"),  # inline (i) (ii) (iii)
    ("40B2ciii", "durante la subasta y carteo pero sólo en su turno"),
    ("64B1", "El bando infractor no gana la baza del renuncio"),
    ("80B2i", "Establecer condiciones correctas de juego"),  # letter i after h, not roman
    ("93C3a", "No obstante lo dispuesto en 1 y 2"),  # `3. (a)`
])
def test_clause_text_starts(doc, cid, start):
    assert clause(doc, cid).text.startswith(start)


def test_bullet_paragraphs_stay_in_their_clause(doc):
    assert "\nUna alternativa lógica es aquella" in clause(doc, "16B1").text
    assert "\nExcepto bajo instrucciones del Árbitro" in clause(doc, "20F1").text
    text = clause(doc, "21B1").text  # `oUna…`, `oEl…`
    assert "\nUna omisión de alertar inmediatamente" in text
    assert "\nEl Árbitro supondrá una información errónea" in text
    assert "\nLa salida inicial no se puede retirar" in clause(doc, "47E2a").text  # U+F0D8
    assert clause(doc, "61A").text.count("\nOmitir ") == 3


def test_implied_and_relabelled_clauses(doc):
    assert clause(doc, "9B1").extra.get("implied") and clause(doc, "9B1").text == ""
    assert clause(doc, "12C").extra.get("implied")
    assert clause(doc, "12B1").extra["printed_label"] == "a."
    assert clause(doc, "12A3").extra["printed_label"] == "•"


@pytest.mark.parametrize("cid, title, start", [
    ("91B", "Derecho a descalificar", "El Director está expresamente facultado"),
    ("9A", "Denuncia de una irregularidad", ""),  # `Title:` alone
    ("10C", "Elección después de una irregularidad", ""),  # `Title.` alone
    ("6D", "Barajar y repartir de nuevo", ""),
    ("18D", "Declaración insuficiente", "Una declaración que no supera"),  # `Title. Text`
    ("39B", "El paso del defensor o cualquier voz del bando declarante", "No hay más"),
    ("84C", "Opciones de los jugadores", "Si este Reglamento otorga"),
    ("68C", "Toda reclamación de bazas debería ir acompañada por una aclaración",
     "Es decir, una explicación"),
    ("31A", "En el turno del OD", "Si el infractor de voz"),  # `A..-`
    ("42B", "Derechos condicionados", "El muerto tiene otros derechos"),  # `B.-Derechos`
    ("75C", "Voz equivocada", "El acuerdo entre Norte-Sur es el que describió"),  # `C. `
    ("12C1", "Otorgando una puntuación ajustada (asignada)", ""),
    ("12C3", "En Torneos individuales", "Las rectificaciones previstas"),
    ("60B", None, "Si un defensor juega después"),  # no title at all
    ("64B", None, "No se aplica la rectificación del apartado A"),
])
def test_section_title_and_text(doc, cid, title, start):
    c = clause(doc, cid)
    assert c.title == title
    assert c.text.startswith(start) if start else c.text == ""


def test_chapter_headings_are_not_sections(doc):
    assert [c.id for c in doc.unit("60").clauses][-1] == "60C"
    assert [c.id for c in doc.unit("79").clauses][-1] == "79C2"


# ---------------------------------------------------------------- AEB notes
# A note printed after a clause's items is read after them: its own paragraph clause (`12C1e-p2`).

NOTES = [
    ("3", "Las mesas deberían colocarse de forma consecutiva"),
    ("12C1c", "La AEB sí lo prohíbe"),
    ("12C1e-p2", "La AEB tiene acordado aplicar la totalidad de este procedimiento"),
    ("40A1b", "Las instrucciones para cumplimentar adecuadamente las Hojas de Convenciones"),
    ("72A", "En todos los torneos homologados por la AEB"),
    ("78A", "Método mal llamado “Puntuación por Top integral”"),
    ("80A-p2", "En España la Autoridad Reguladora es la Asociación Española de Bridge"),
    ("80B2a", "El OT, de acuerdo con las normas de la AEB, designará al equipo arbitral"),
]


@pytest.mark.parametrize("cid, start", NOTES)
def test_aeb_note_on_its_clause(doc, cid, start):
    c = clause(doc, cid)
    assert [n.kind for n in c.notes] == ["national-note"]
    assert c.notes[0].text.startswith(start)
    assert start not in c.text


def test_exactly_the_eight_notes(doc):
    found = sorted(c.id for _, c in all_clauses(doc) if c.notes)
    assert found == sorted(cid for cid, _ in NOTES)


@pytest.mark.parametrize("cid, text", [
    ("3", "Los demás puntos cardinales adoptan su posición habitual respecto al Norte."),
    ("72A", "condiciones del Reglamento. El objetivo principal"),
    ("78A", "Puntuando por Puntos Match, cada participante obtiene"),
    ("80B2a", "Designar al Árbitro. (Si no hay un Árbitro designado"),
])
def test_text_reads_whole_after_a_note_is_removed(doc, cid, text):
    assert text in clause(doc, cid).text


@pytest.mark.parametrize("cid, pointer", [
    ("21B1", "(Ver nota AEB abajo)"),
    ("81A", "(pero ver Normas AEB más adelante)"),
    ("81B1", "(pero ver Normas AEB más adelante)"),
])
def test_dangling_pointers_stay_in_the_text(doc, cid, pointer):
    c = clause(doc, cid)
    assert pointer in c.text and not c.notes


def test_truncated_note_at_41a_stays_as_printed(doc):
    c = clause(doc, "41A")
    assert c.text.endswith("devuelta a la mano del defensor. (Nota") and not c.notes


# ---------------------------------------------------------------- footnotes


def test_article_51_footnote(doc):
    u = doc.unit("51")
    assert [(f.marker, f.clause) for f in u.footnotes] == [("1", "51B1a")]
    assert u.footnotes[0].text.startswith("Si el jugador no puede salir tal y como lo requiere")
    assert "el declarante obliga a su compañero" in clause(doc, "51B1a").text
    assert "el declarante prohíbe que su compañero" in clause(doc, "51B1b").text
    assert "puede prohibir la salida" in clause(doc, "51B2b").text
    assert not re.search(r"[a-zé]1\b|Nota 1", "\n".join(c.text for c in u.clauses))


def test_article_70_normal_footnote(doc):
    u = doc.unit("70")
    assert [(f.marker, f.clause) for f in u.footnotes] == [("*", "70C3")]
    assert u.footnotes[0].text.startswith("A efectos de los Artículos 70 y 71, “normal” incluye")
    assert "una línea de juego normal se podría perder" in clause(doc, "70C3").text
    assert "*" not in "\n".join(c.text for c in u.clauses)
    assert "A efectos" not in clause(doc, "70E2").text


def test_article_31_inline_footnote(doc):
    u = doc.unit("31")
    assert [(f.marker, f.clause) for f in u.footnotes] == [("*", "31B")]
    assert u.footnotes[0].text.startswith("Voces posteriores en el turno del OI")
    text = clause(doc, "31B").text
    assert "no había subastado anteriormente, el compañero" in text
    assert text.endswith("restricciones de la salida del Artículo 26.")


def test_article_79_footnote_printed_without_its_asterisk(doc):
    """79C1 `…lo especifique más largo*, este periodo …` has no `*(…)` footnote: its footnote
    (WBF 79C1's, IT 79C1 `* Un tempo più breve…`) is the paragraph's closing parenthetical."""
    u = doc.unit("79")
    assert [(f.marker, f.clauses) for f in u.footnotes] == [("*", ["79C1"])]
    assert u.footnotes[0].text == ("Se puede especificar un periodo de corrección más corto, "
                                   "si lo impone alguna característica especial del evento")
    text = clause(doc, "79C1").text
    assert "Excepto que el Organizador del torneo lo especifique más largo, este periodo" in text
    assert text.endswith("haya sido disponible para la inspección.")
    assert "*" not in u.text and "Se puede especificar" not in text


def test_footnotes_marked_on_several_clauses_list_them_all(doc):
    assert [(f.marker, f.clause, f.clauses) for f in doc.unit("51").footnotes] == [
        ("1", "51B1a", ["51B1a", "51B1b", "51B2b"])]          # obliga1, prohíbe1, prohibir1
    assert [(f.marker, f.clause, f.clauses) for f in doc.unit("70").footnotes] == [
        ("*", "70C3", ["70C3", "70D1", "70D2", "70E1"])]      # normal* (L1442's footnote)
    assert [f.clauses for f in doc.unit("31").footnotes] == [["31B"]]


def test_no_other_footnotes(doc):
    assert [u.id for u in doc.units if u.footnotes] == ["31", "51", "70", "79"]


# ---------------------------------------------------------------- tables


def test_article_2_dealer_and_vulnerability_table(doc):
    c = clause(doc, "2")
    assert len(c.tables) == 1
    rows = c.tables[0].rows
    assert len(rows) == 8
    assert rows[0] == ["Dador Norte", "Estuches 1-5-9-13"]
    assert rows[4] == ["Nadie vulnerable", "Estuches 1-8-11-14"]
    assert rows[7] == ["Todos vulnerable", "Estuches 4-7-10-13"]
    assert "Estuches 1-5-9-13" not in c.text
    assert c.text.endswith("las condiciones que en ellos estén marcadas.")


def test_no_other_tables(doc):
    assert [c.id for _, c in all_clauses(doc) if c.tables] == ["2"]
    assert "se reproduce en el anexo" in clause(doc, "78B").text


# ---------------------------------------------------------------- noise


NOISE = [
    ("NBSP", re.compile("\u00a0")),
    ("bullet", re.compile("[•\uf0d8]")),
    ("glued o bullet", re.compile(r"(?m)^o[A-ZÁÉÍÓÚ]")),
    ("AEB note", re.compile(r"\(Nota( de la)? AEB|\(Nota: La AEB|Nota: En España")),
    ("index line", re.compile(r"(?m)^Art\. \d+\.-|^INDICE$|Art\. 93\.- Procedimiento")),
    ("article heading", re.compile(r"(?m)^Artículo \d+(\.-| –)")),
    ("chapter heading", re.compile(r"(?m)^[IVX]+\.- [A-ZÁÉÍÓÚ ]+$")),
    ("marker left in text", re.compile(r"(?m)^([A-H]\d?\.{1,2}-|\d{1,2}\.\S|[a-z]\.\S|\([a-z]\)\S)")),
    ("trailing space", re.compile(r"(?m)[ \t]$")),
    ("markdown", re.compile(r"\*\*|\|")),
]


@pytest.mark.parametrize("name, pattern", NOISE, ids=[n for n, _ in NOISE])
def test_no_noise_in_any_clause(doc, name, pattern):
    bad = [c.id for _, c in all_clauses(doc)
           if pattern.search(c.text) or (c.title and pattern.search(c.title))]
    bad += [u.id for u in doc.units if pattern.search(u.title)]
    assert not bad, f"{name} in {bad[:10]}"


def test_no_index_text_at_the_end(doc):
    last = doc.unit("93").clauses[-1]
    assert last.id == "93C3b"
    assert last.text.endswith("de la legislación nacional que pudiera afectarle.)")


def test_titles_are_clean(doc):
    for _, c in all_clauses(doc):
        if c.title is not None:
            assert c.title and c.title == c.title.strip() and not c.title.endswith((".", ":"))


def test_deterministic(entry, doc):
    again = es_laws.parse(entry.read())
    assert [u.to_dict() for u in again.units] == [u.to_dict() for u in doc.units]


@pytest.mark.parametrize("owner, last_item, start", [
    ("69B", "69B2", "El estuche se vuelve a puntuar otorgando esta baza a su bando."),
    ("71", "71B", "El estuche se puntúa adjudicando esta baza a su bando."),
    ("64A", "64A2", "(A efectos de este Artículo una baza ganada en el muerto"),
    ("80B2", "80B2l", "En algunos casos es normal que el Árbitro asuma"),
])
def test_a_paragraph_closing_a_list_is_read_after_its_items(doc, owner, last_item, start):
    """The source prints these after the last item; they apply to the whole list."""
    unit = doc.unit(re.match(r"\d+", owner).group(0))
    ids = [c.id for c in unit.clauses]
    para = unit.clause(f"{owner}-p2")
    assert para is not None and para.parent == owner and para.text.startswith(start)
    assert ids.index(last_item) < ids.index(para.id)
    assert start not in unit.clause(last_item).text and start not in unit.clause(owner).text


def test_a_paragraph_continuing_an_item_stays_in_it(doc):
    """64A2 ends "entonces": the next paragraph finishes the item, it does not close the list."""
    assert clause(doc, "64A2").text.endswith(
        "Si el bando infractor ganó ésta o cualquier baza posterior, al final del carteo se traslada al bando inocente una baza.")


def test_a_note_inside_a_sentence_is_read_where_it_stands(doc):
    """78A: "-(Nota AEB: Método mal llamado …)-" sits in the opening sentence, before the • items."""
    c = clause(doc, "78A")
    assert c.notes[0].text.startswith("Método mal llamado") and c.notes[0].at == 1
    assert c.text.split("\n")[1].startswith("Dos unidades")
