"""Italian Laws 2017, the articles (kb.parse.it_laws).

Expected values are read from corpus/it-laws-2017.txt (the body, from
`ARTICOLO 1 - IL MAZZO DI CARTE` on) and, for the markers the translation
dropped, from the WBF 2017 English structure and the text's own citations
(`B1(b)` and `B3` in Art. 27, `50D2(a)`, `51B2`, `B2(a)(v)` in Art. 40).
The front matter and the definitions are tested in test_parse_it_definitions.py.
"""
from __future__ import annotations

import re

import pytest

from kb.corpus.manifest import load_manifest
from kb.records.model import Unit
from kb.parse import it_laws


@pytest.fixture(scope="module")
def doc():
    entry = next(e for e in load_manifest() if e.id == "it-laws")
    return entry.parse()


@pytest.fixture(scope="module")
def articles(doc) -> list[Unit]:
    return [u for u in doc.units if u.kind == "article"]


def ids(unit: Unit) -> list[str]:
    return [c.id for c in unit.clauses]


def text(doc, clause_id: str) -> str:
    unit_id = re.match(r"\d+", clause_id).group(0)
    clause = doc.unit(unit_id).clause(clause_id)
    assert clause is not None, clause_id
    return clause.text


# --- units ------------------------------------------------------------------------

def test_93_articles_in_order(articles):
    assert [u.id for u in articles] == [str(n) for n in range(1, 94)]


def test_front_matter_and_definitions_come_first(doc, articles):
    kinds = [u.kind for u in doc.units]
    first_article = kinds.index("article")
    assert set(kinds[:first_article]) == {"front", "definition"}
    assert kinds[first_article:] == ["article"] * 93
    assert len(doc.units) > 93 + 60  # 63 definitions and a few front texts
    assert all(u.group is None for u in articles)  # the body prints no chapters


def test_groups_name_the_front_matter_groups(doc):
    used = [u.group for u in doc.units if u.group]
    assert [g["id"] for g in doc.groups] == list(dict.fromkeys(used))
    assert {"id": "definitions", "title": "Definizioni"} in doc.groups


@pytest.mark.parametrize("number, title", [
    ("1", "IL MAZZO DI CARTE"),
    ("13", "NUMERO ERRATO DI CARTE"),          # printed with a footnote asterisk
    ("19", "I CONTRO ED I SURCONTRO"),         # the TOC says "Il contro ed il surcontro"
    ("31", "LICITA FUORI TURNO"),              # the TOC says "Licite"
    ("59", "IMPOSSIBILITÀ DI ATTACCARE O GIOCARE COME RICHiesto"),  # case kept as printed
    ("61", "IL MANCARE DI RISPONDERE A COLORE- INDAGINI RELATIVE AD UNA RENONCE"),
    ("77", "TABELLA DEI PUNTEGGI DEL BRIDGE"),
    ("88", "ASSEGNARE PUNTI DI INDENNIZZO"),   # en dash after the number
    ("93", "PROCEDURA PER IL RECLAMO"),
])
def test_article_titles(doc, number, title):
    assert doc.unit(number).title == title


def test_every_article_is_well_formed(articles):
    for u in articles:
        assert u.clauses[0].id == u.id and u.clauses[0].parent is None
        clause_ids = ids(u)
        assert len(clause_ids) == len(set(clause_ids)), u.id
        for c in u.clauses[1:]:
            assert c.parent in clause_ids[: clause_ids.index(c.id)], c.id
            assert c.id.startswith(u.id)


def test_sections(articles):
    sections = [c for u in articles for c in u.clauses if re.fullmatch(r"\d+[A-Z]", c.id)]
    assert len(sections) == 271
    without = [u.id for u in articles if not any(re.fullmatch(r"\d+[A-Z]", c.id) for c in u.clauses)]
    assert without == ["2", "3", "4", "33", "34", "49", "59", "77", "83", "88", "89"]


def test_intro_quote_of_article_23_is_not_an_article(doc, articles):
    assert [u.id for u in articles].count("23") == 1
    # the body's Art. 23, not the introduction's quote (which omits the citations as "...")
    assert ids(doc.unit("23")) == ["23", "23A", "23A1", "23A2", "23A3", "23B", "23C"]
    assert "(secondo i dettami dell'Art 29B)" in text(doc, "23B")
    assert text(doc, "23A1") == ("Ha il significato medesimo o simile a quello attribuibile "
                                 "alla chiamata ritirata, o")


def test_no_article_read_from_the_table_of_contents(articles):
    for u in articles:
        assert u.title == u.title.upper() or u.id == "59", u.id  # TOC titles are lower case
    assert not any("pag." in u.text for u in articles)


# --- the clause ids of the Laws whose markers were dropped or nested --------------

CLAUSE_IDS = {
    "9": ["9", "9A", "9A1", "9A2", "9A3", "9A4", "9A5",
          "9B", "9B1", "9B1a", "9B1b", "9B1c", "9B1d", "9B2", "9C"],
    "10": ["10", "10A", "10B", "10C", "10C1", "10C2", "10C3", "10C4"],
    "12": ["12", "12A", "12A1", "12A2", "12A3", "12B", "12B1", "12B2",
           "12C", "12C1", "12C1a", "12C1b", "12C1c", "12C1d", "12C1e", "12C1ei", "12C1eii",
           "12C2", "12C2a", "12C2b", "12C2c", "12C2d", "12C3", "12C4"],
    "16": ["16", "16A", "16A1", "16A1a", "16A1b", "16A1c", "16A1d", "16A2",
           "16B", "16B1", "16B1a", "16B1b", "16B2", "16B3",
           "16C", "16C1", "16C2", "16C3",
           "16D", "16D1", "16D2", "16D2a", "16D2b", "16D2c", "16D2d", "16D3"],
    "20": ["20", "20A", "20B", "20C", "20C1", "20C2", "20D", "20E",
           "20F", "20F1", "20F2", "20F3", "20F4", "20F4a", "20F4b",
           "20F5", "20F5a", "20F5b", "20F5bi", "20F5bii", "20F6",
           "20G", "20G1", "20G2", "20G3"],
    "27": ["27", "27A", "27A1", "27A2", "27B", "27B1", "27B1a", "27B1b",
           "27B2", "27B3", "27B4", "27C", "27D"],
    "40": ["40", "40A", "40A1", "40A1a", "40A1b", "40A2", "40A3", "40A4",
           "40B", "40B1", "40B1a", "40B1b", "40B1c",
           "40B2", "40B2a", "40B2ai", "40B2aii", "40B2aiii", "40B2aiv", "40B2av",
           "40B2b", "40B2c", "40B2ci", "40B2cii", "40B2ciii", "40B2civ", "40B2d",
           "40B3", "40B3a", "40B3b", "40B4", "40B5", "40B5a", "40B5b",
           "40C", "40C1", "40C2"],
    "50": ["50", "50A", "50B", "50C", "50D", "50D1", "50D1a", "50D1b",
           "50D2", "50D2a", "50D2b", "50E", "50E1", "50E2", "50E3", "50E4"],
    "51": ["51", "51A", "51B", "51B1", "51B1a", "51B1b", "51B2", "51B2a", "51B2b", "51B2c"],
    "52": ["52", "52A", "52B", "52B1", "52B1a", "52B1b", "52B1c", "52B2"],
    "61": ["61", "61A", "61B", "61B1", "61B2", "61B2a", "61B2b", "61B3", "61C"],
    "64": ["64", "64A", "64A1", "64A2", "64B", "64B1", "64B2", "64B3", "64B4", "64B5",
           "64B6", "64B7", "64B8", "64C", "64C1", "64C2", "64C2a", "64C2b"],
    "68": ["68", "68A", "68B", "68B1", "68B2", "68C",
           "68D", "68D1", "68D2", "68D2a", "68D2b", "68D2bi", "68D2bii"],
    "70": ["70", "70A", "70B", "70B1", "70B2", "70B3", "70C", "70C1", "70C2", "70C3",
           "70D", "70D1", "70D2", "70E", "70E1", "70E2"],
    "80": ["80", "80A", "80A1", "80A1a", "80A1b", "80A1c", "80A2", "80A3",
           "80B", "80B1", "80B2", "80B2a", "80B2b", "80B2c", "80B2d", "80B2e", "80B2f",
           "80B2g", "80B2gi", "80B2gii", "80B2h", "80B2i", "80B2j", "80B2k", "80B2l"],
    "81": ["81", "81A", "81B", "81B1", "81B2", "81C", "81C1", "81C2", "81C3", "81C4",
           "81C5", "81C6", "81C7", "81C8", "81D"],
    "86": ["86", "86A", "86B", "86B1", "86B2", "86B2a", "86B2b", "86B2c", "86B3"],
}


@pytest.mark.parametrize("number", list(CLAUSE_IDS))
def test_clause_ids(doc, number):
    assert ids(doc.unit(number)) == CLAUSE_IDS[number]


IMPLIED = ["9B1", "10C1", "10C2", "10C3", "10C4", "27B1", "27B2", "27B3", "27B4",
           "40A1", "40A2", "40A3", "40B1", "40B2", "40B2ai", "40B2aii", "40B2aiii", "40B2aiv",
           "40B2av", "40B2ci", "40B2cii", "40B2ciii", "40B2civ", "40B3",
           "50D1", "50D1b", "50D2", "50D2a", "50D2b", "50E1", "50E2", "50E3", "50E4",
           "51B1", "51B1a", "51B1b", "51B2", "51B2a", "51B2b", "51B2c",
           "52B1", "52B1a", "52B1b", "52B1c", "52B2",
           "68B1", "68B2", "68D1", "68D2", "68D2a", "68D2b", "68D2bi", "68D2bii"]


def test_implied_clauses_are_marked(articles):
    implied = [c.id for u in articles for c in u.clauses if c.extra.get("implied")]
    assert implied == IMPLIED


@pytest.mark.parametrize("clause_id, start", [
    ("9B1", ""),  # implied parent: its text starts at its first child
    ("9B1a", "L'Arbitro dovrebbe immediatamente essere chiamato"),
    ("10C4", "Fatto salvo il dettato dell'Articolo 16C2"),
    ("27B1", ""),
    ("27B1a", "Se la licita insufficiente viene rimpiazzata al minimo livello sufficiente"),
    ("27B1b", "Eccetto quanto previsto in (a), se la licita insufficiente è corretta"),
    ("27B3", "Ad eccezione di quanto previsto sopra in B1(b), se il colpevole tenta"),
    ("40A3", "Un giocatore può effettuare qualsiasi chiamata o giocata senza annunciarlo"),
    ("40B2a", "La Regulating Authority"),
    ("40B2av", "può limitare l'impiego di chiamate artificiali psichiche"),
    ("40B2ci", "prima che inizi la licitazione"),
    ("40B3a", "Una linea che venga danneggiata in conseguenza di una mancata spiegazione"),
    ("40B3b", "Ripetute violazioni dell'obbligo di rivelare gli accordi di coppia"),
    ("50D1b", "L'obbligo di rispondere a colore, o quello di ottemperare"),
    ("50D2", "Quando un difensore debba attaccare ed il compagno possieda"),
    ("50D2a", "richiedere al difensore di attaccare nel seme della carta penalizzata"),
    ("51B2a", "Quando un difensore abbia carte penalizzate in più di un seme [(vedi Art 50D2(a))]"),
    ("52B2", "Se il dichiarante non accetta la carta illegalmente utilizzata"),
    ("68D2", "Se viene contestata da qualsiasi giocatore (morto incluso); o"),
    ("68D2bii", "la precedente richiesta o concessione è annullata"),
    ("80B2gi", "il provvedere alla designazione di eventuali assistenti"),
    ("80B2i", "lo stabilire adeguate regole di gioco"),  # the letter i, after (h)
    ("86B2a", "Se nessun contendente era in colpa"),
    ("12C1a", "Quando, a causa di un'irregolarità, questo Codice conferisca"),
    ("43A1a", "A meno che l'attenzione su di una irregolarità non sia stata attirata"),
])
def test_clause_text_starts(doc, clause_id, start):
    if start:
        assert text(doc, clause_id).startswith(start)
    else:
        assert text(doc, clause_id) == ""


def test_implied_parent_has_no_text_of_its_own(doc):
    for cid in ("9B1", "27B1", "40A1", "40B1", "40B2", "40B3", "50D1", "51B1", "51B2", "52B1"):
        clause = doc.unit(re.match(r"\d+", cid).group(0)).clause(cid)
        assert clause.text == "" and clause.extra["implied"] is True


# --- sections, preambles, trailing paragraphs ---------------------------------------

def test_section_titles(doc):
    assert doc.unit("1").clause("1A").title == "Rango delle carte e dei semi."
    assert doc.unit("64").clause("64A").title == "Trasferimento automatico di prese."  # was bold
    assert doc.unit("15").clause("15B").title == (
        "Board sbagliato riscontrato durante il periodo licitativo o di gioco.")  # footnote `**`
    assert doc.unit("38").clause("38D").title == "Possibile mancanza di ricorso agli Articoli 26B e 72C"


def test_listed_sections_carry_text_not_title(doc):
    for cid, start in [("22A", "dopo che uno o più giocatori abbia licitato"),
                       ("35D", "Una chiamata dopo il passo finale della licitazione"),
                       ("56B", "Richiedere al difensore di ritirare il suo attacco"),
                       ("71B", "se un giocatore ha concesso una presa che non sarebbe")]:
        clause = doc.unit(re.match(r"\d+", cid).group(0)).clause(cid)
        assert clause.title is None and clause.text.startswith(start), cid


def test_numbered_subheadings_of_86B(doc):
    assert doc.unit("86").clause("86B1").title == "Unico risultato ottenuto"
    assert text(doc, "86B1").startswith("Nel gioco a squadre, quando l'Arbitro assegni")
    assert doc.unit("86").clause("86B2").title == "Risultati multipli ottenuti ad uno o più tavoli."


def test_preambles_go_to_the_article_clause(doc):
    assert text(doc, "50").startswith("Una carta prematuramente esposta da un difensore")
    assert text(doc, "68").startswith("Per quanto attenga ad affermazioni o azioni")
    assert text(doc, "22") == "La licitazione termina quando :"
    assert text(doc, "9") == ""


@pytest.mark.parametrize("owner, last_item, closing", [
    ("69B", "69B2", "Il risultato del board viene allora nuovamente registrato con tale presa assegnata alla sua linea."),
    ("71", "71B", "Il punteggio del board viene allora nuovamente registrato, con tale presa assegnata alla sua linea."),
])
def test_a_paragraph_after_the_items_closes_its_clause_and_is_read_after_them(doc, owner, last_item, closing):
    unit = doc.unit(re.match(r"\d+", owner).group(0))
    ids = [c.id for c in unit.clauses]
    para = unit.clause(f"{owner}-p2")
    assert para is not None and para.parent == owner and para.text == closing and para.label == ""
    assert ids.index(last_item) < ids.index(para.id)
    assert closing not in text(doc, owner) and closing not in text(doc, last_item)


def test_a_paragraph_between_sections_stays_in_its_section(doc):
    assert text(doc, "27C").split("\n")[1] == (
        "L'Arbitro applicherà i disposti della sezione appropriata alla sostituzione.")


# --- sentences split by a running header -------------------------------------------

def test_12C3_sentence_is_whole(doc):
    assert ("in ugual modo contro entrambi i componenti della linea colpevole, anche se uno solo "
            "di loro possa essere responsabile dell'irregolarità.") in text(doc, "12C3")
    assert "\n" not in text(doc, "12C3")


def test_45D1_sentence_is_whole(doc):
    assert ("un difensore può ritirare e riporre nella propria mano una carta giocata dopo "
            "l'errore ma prima che sia stata attirata l'attenzione su di esso;") in text(doc, "45D1")


def test_header_between_paragraphs_keeps_them_apart(doc):
    paragraphs = text(doc, "5A").split("\n")
    assert len(paragraphs) == 3
    assert paragraphs[2].startswith("Una volta scelto un punto cardinale")


# --- footnotes ----------------------------------------------------------------------

def footnotes(doc, number):
    return [(f.marker, f.clause, f.text) for f in doc.unit(number).footnotes]


def test_footnote_of_article_13_title(doc):
    assert footnotes(doc, "13") == [("*", "13", "Questo Art 13 viene applicato quando una o più mani "
                                     "contengono più di 13 carte. Vedi Art 14 per casi che riguardano "
                                     "un mazzo cui manca almeno una carta.")]


def test_16B3_footnote_printed_twice_is_kept_twice(doc):
    assert footnotes(doc, "16") == [
        ("*", "16B3", "chiamare l'Arbitro prima o dopo non costituisce un'infrazione"),
        ("*", "16B3", "non è un'infrazione chiamare l'arbitro prima o dopo."),
    ]


def test_footnotes_of_article_50(doc):
    fns = footnotes(doc, "50")
    assert [(m, c) for m, c, _ in fns] == [("*", "50D2a"), ("**", "50D2b")]
    assert fns[0][2] == "Se un giocatore non è in grado di attaccare come richiesto vedi Art 59"
    assert fns[1][2].startswith("Se il compagno del difensore con la carta penalizzata rimane in presa")


def test_footnote_of_article_70(doc):
    assert footnotes(doc, "70") == [("*", "70C3", 'Per gli scopi degli Art 70 e 71, "normale" include '
                                     "un gioco che sarebbe disattento o inferiore al livello del "
                                     "giocatore coinvolto.")]
    assert [(m, c) for m, c, _ in footnotes(doc, "71")] == [("*", "71B")]


@pytest.mark.parametrize("number, expected", [
    ("6", [("*", "6D2")]),
    ("15", [("*", "15A3"), ("**", "15B")]),
    ("20", [("*", "20C2"), ("**", "20F1")]),     # `- *text` and `**A meno…` (not bold)
    ("41", [("*", "41A"), ("**", "41B"), ("***", "41C")]),
    ("51", [("*", "51B1a"), ("**", "51B2c")]),
    ("74", [("*", "74C5")]),                     # marker printed as `avversario45)`
    ("80", [("*", "80B2gi")]),
    ("86", [("*", "86B2")]),                     # marker in a numbered sub-heading
    ("93", [("*", "93C3b")]),
])
def test_footnote_clauses(doc, number, expected):
    assert [(m, c) for m, c, _ in footnotes(doc, number)] == expected


def test_footnote_count_and_texts_out_of_the_body(doc, articles):
    assert sum(len(u.footnotes) for u in articles) == 29
    assert footnotes(doc, "20")[1][2] == "A meno che il giocatore sia obbligato dal Codice a passare."
    assert not any("A meno che il giocatore sia obbligato dal Codice" in c.text
                   for c in doc.unit("20").clauses)
    assert text(doc, "74C5").endswith("vedendo involontariamente una carta di un avversario).")


# --- tables -------------------------------------------------------------------------

def test_article_2_table(doc):
    [table] = doc.unit("2").clause("2").tables
    assert table.header == []
    assert len(table.rows) == 8
    assert table.rows[0] == ["Distributore Nord", "Board", "1", "5", "9", "13"]
    assert table.rows[3] == ["Distributore Ovest", "Board", "4", "8", "12", "16"]
    assert table.rows[4] == ["Tutti in prima", "Board", "1", "8", "11", "14"]
    assert table.rows[7] == ["Tutti in zona", "Board", "4", "7", "10", "13"]


def scoring_tables(doc):
    return doc.unit("77").clause("77").tables


def test_article_77_has_seven_captioned_tables(doc):
    captions = [t.caption for t in scoring_tables(doc)]
    assert len(captions) == 7
    heads = ["SE L'ATOUT E'", "IN UN CONTRATTO A SENZA ATOUT", "IN UN CONTRATTO A SENZA ATOUT",
             "SLAM", "PRESE SUPPLEMENTARI", "PREMI PER CONTRATTI PARZIALI E DI MANCHE MANTENUTI",
             "PRESE DI CADUTA"]
    for caption, head in zip(captions, heads):
        assert caption.startswith(head)
    assert "Per ogni presa addizionale" in captions[2]
    assert captions[3] == "SLAM"


def test_article_77_tables_content(doc):
    trick, nt_first, nt_next, slam, over, bonus, under = scoring_tables(doc)
    assert trick.header == [["", "♣", "♦", "♥", "♠"]]
    assert trick.rows[2] == ["Surcontrata", "80", "80", "120", "120"]
    assert nt_first.rows == [["Non contrata", "40"], ["Contrata", "80"], ["Surcontrata", "160"]]
    assert slam.header == [["Per la realizzazione di uno slam", "Non vulnerabile", "Vulnerabile"]]
    assert slam.rows[1] == ["Grande Slam (tutte e 13 le prese) Dichiarato e fatto", "1000", "1500"]
    assert over.rows[0] == ["Non contrata", "Il valore dei punti presa", "Il valore dei punti presa"]
    assert under.rows[0] == ["Per la prima presa in meno", "", ""]
    assert under.rows[-1] == ["Surcontrata", "200", "0"]


def test_article_77_part_score_row_split_by_header_is_rejoined(doc):
    bonus = scoring_tables(doc)[5]
    assert bonus.rows == [
        ["Per la realizzazione di una MANCHE vulnerabile", "500"],
        ["Per la realizzazione di una MANCHE non vulnerabile", "300"],
        ["Per la realizzazione di un qualunque PARZIALE", "50"],
        ["Per il mantenimento di un qualunque contratto contrato ma non surcontrato", "50"],
        ["Per il mantenimento di un qualunque contratto surcontrato", "100"],
    ]


def test_article_77_prose(doc):
    t = text(doc, "77")
    assert t.startswith("PUNTI PRESA\nRegistrati dalla linea del dichiarante se il contratto è mantenuto.")
    assert "PUNTI PREMIO" in t
    assert t.endswith("ciascuna delle due linee si accrediterà il punteggio di 0.")
    assert "SLAM" not in t.split("\n")  # used as a caption


def test_imp_scale_read_column_wise(doc):
    [table] = doc.unit("78").clause("78B").tables
    assert table.header == [["Differenza in punti", "IMPS"]]
    assert len(table.rows) == 25
    assert table.rows[0] == ["0-10", "0"]
    assert table.rows[8] == ["320-360", "8"]
    assert table.rows[9] == ["370-420", "9"]
    assert table.rows[17] == ["1500-1740", "17"]
    assert table.rows[-1] == ["4000+", "24"]
    assert [int(r[1]) for r in table.rows] == list(range(25))


def test_tables_only_where_printed(articles):
    where = [(u.id, c.id, len(c.tables)) for u in articles for c in u.clauses if c.tables]
    assert where == [("2", "2", 1), ("77", "77", 7), ("78", "78B", 1)]


# --- noise ---------------------------------------------------------------------------

NOISE = re.compile(r"\*|\||\x00|\bpag\.?\s*\d|FEDERAZIONE ITALIANA|CODICE INTERNAZIONALE DEL BRIDGE"
                   r"|NUOVA VERSIONE IN VIGORE|Modificato ed approvato|^\s*- |\n\s*- |^ARTICOLO",
                   re.M)


def all_strings(u: Unit):
    yield u.title or ""
    for c in u.clauses:
        yield c.title or ""
        yield c.text
        for t in c.tables:
            yield t.caption or ""
            for row in t.header + t.rows:
                yield from row
    for f in u.footnotes:
        yield f.text


def test_no_noise_anywhere(articles):
    for u in articles:
        for s in all_strings(u):
            assert not NOISE.search(s), (u.id, s[:80])
            assert s == s.strip() and "  " not in s, (u.id, s[:80])


def test_no_stray_footnote_number(doc):
    assert "avversario45" not in doc.unit("74").text


def test_parse_is_deterministic():
    entry = next(e for e in load_manifest() if e.id == "it-laws")
    raw = entry.read()
    first = [u.to_dict() for u in it_laws.parse(raw).units]
    assert first == [u.to_dict() for u in it_laws.parse(raw).units]
