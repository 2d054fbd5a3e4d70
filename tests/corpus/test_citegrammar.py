"""The citation grammar, form by form: each row is a phrase from the texts and what it cites."""
import pytest

from kb.citations.grammar import find


def cited(text, lang="it"):
    return [(m.kind, m.ref) for m in find(text, lang)]


L, R = "law", "relative"

ITALIAN_FORMS = [
    # keywords and abbreviations
    ("ma vedi Articolo 65B3", [(L, "65B3")]),
    ("secondo l'Art 20F5", [(L, "20F5")]),
    ("come previsto dall'Art. 16B", [(L, "16B")]),
    ("(vedi art. 22)", [(L, "22")]),
    ("vedi art.77", [(L, "77")]),
    ("ai sensi dell'Art16", [(L, "16")]),
    ("si applica l'articolo 23", [(L, "23")]),
    ("degli artt. 91A e 93B3", [(L, "91A"), (L, "93B3")]),
    ("ARTICOLO 36", [(L, "36")]),
    # lists
    ("Articoli 19A e 77", [(L, "19A"), (L, "77")]),
    ("Art 47E e 41", [(L, "47E"), (L, "41")]),
    ("Art 22B e Art 86A", [(L, "22B"), (L, "86A")]),
    ("l'Art 21B o l'Art 40B3", [(L, "21B"), (L, "40B3")]),
    ("Art 49, e l'Art 72C", [(L, "49"), (L, "72C")]),
    ("Art 64A, 64B7 e 64C", [(L, "64A"), (L, "64B7"), (L, "64C")]),
    ("Art 30, 31 o 32", [(L, "30"), (L, "31"), (L, "32")]),
    ("Art 19A1 oppure 19B1", [(L, "19A1"), (L, "19B1")]),
    ("negli articoli 36,37,38 e 39", [(L, "36"), (L, "37"), (L, "38"), (L, "39")]),
    ("dall'Articolo 64 (64A1, 64A2 o 64B1)", [(L, "64"), (L, "64A1"), (L, "64A2"), (L, "64B1")]),
    ("l'Art 31 e non il 30", [(L, "31"), (L, "30")]),
    # items, spacing, brackets, punctuation inside the id
    ("[vedi Art 12C1(b)]", [(L, "12C1b")]),
    ("Art 80B2(k)", [(L, "80B2k")]),
    ("Art 27B1(b) , 30B1(b) (i) , 31A2(a) e 32A2(a)", [(L, "27B1b"), (L, "30B1bi"), (L, "31A2a"), (L, "32A2a")]),
    ("[(vedi Art 12C2(b)]", [(L, "12C2b")]),
    ("Art 26b", [(L, "26B")]),
    ("Art 86.B", [(L, "86B")]),
    ("Art 73,D2", [(L, "73D2")]),
    ("Art 49– carta penalizzata", [(L, "49")]),
    ("condonarle- vedi Articolo 81C5", [(L, "81C5")]),
    ("l' Art 63A1", [(L, "63A1")]),
    # ids with no keyword after a pointing word
    ("(70C2)", [(L, "70C2")]),
    ("I disposti del 57A e 57B", [(L, "57A"), (L, "57B")]),
    ("Il comma 23A3 viene interpretato", [(L, "23A3")]),
    # relative
    ("vedi C2 successivo", [(R, "C2")]),
    ("punto C2 più avanti", [(R, "C2")]),
    ("punto B4 seguente", [(R, "B4")]),
    ("(vedi C)", [(R, "C")]),
    ("sopra B3", [(R, "B3")]),
    ("caso B1 o D2", [(R, "B1"), (R, "D2")]),
    ("lettera B di questo articolo", [(R, "B")]),
    ("(d) qui di seguito", [(R, "(d)")]),
    ("(a) e (b) sopra riportati", [(R, "(a)"), (R, "(b)")]),
    ("come in 2(c) o 2(d)", [(R, "2c"), (R, "2d")]),
    ("dai punti 1 e 2 precedenti", [(R, "1"), (R, "2")]),
    ("nell'ambito delle precedenti fattispecie (a) o (b)", [(R, "(a)"), (R, "(b)")]),
    # other documents and outside texts
    ("(vedi Norma Integrativa all'Art. 79)", [("norm", "79")]),
    ("nuove norme integrative agli articoli 23 e 27", [("norm", "23"), ("norm", "27")]),
    ("vedi Appendice 7", [("appendix", "7")]),
    ("la normativa sistemi", [("appendix", "sistemi")]),
    ('Vedi "Ritirata".', [("definition", "Ritirata")]),
    ("Art. 48 lettera a) dello Statuto Federale", [("external", "Statuto Federale art. 48")]),
    ("art. 8 del Regolamento di Giustizia FIGB", [("external", "Regolamento di Giustizia art. 8")]),
    ("Art. 1 del R.G.S.", [("external", "R.G.S. art. 1")]),
    # what readers write outside the texts: "Legge", "regola", a section letter set apart
    ("secondo la Legge 12C1", [(L, "12C1")]),
    ("la regola 40B2(a)", [(L, "40B2a")]),
    ("l'art. 16 B regola", [(L, "16B")]),
    ("art. 16 B1 e 17", [(L, "16B1"), (L, "17")]),
]

SPANISH_FORMS = [
    ("ver Artículo 90", [(L, "90")]),
    ("(Artículo. 90)", [(L, "90")]),
    ("el artículo 45", [(L, "45")]),
    ("artículo 80B2k", [(L, "80B2k")]),
    ("Artículo 40B2 (b)", [(L, "40B2b")]),
    ("(pero ver el Artículo 43B2(b, del muerto", [(L, "43B2b")]),
    ("Art 53 o 56", [(L, "53"), (L, "56")]),
    ("Artículos 30, 31 o 32", [(L, "30"), (L, "31"), (L, "32")]),
    ("Artículo 21B o 40B4", [(L, "21B"), (L, "40B4")]),
    ("Artículo 54, y no el 68", [(L, "54"), (L, "68")]),
    ("(definido en 79C)", [(L, "79C")]),
    ("(Ver 12C1 si procede)", [(L, "12C1")]),
    ("(ver C2 abajo)", [(R, "C2")]),
    ("(Pero ver C1b)", [(R, "C1b")]),
    ("punto B1 a continuación", [(R, "B1")]),
    ("punto 2(c)", [(R, "2c")]),
    ("el número 4 siguiente", [(R, "4")]),
    ("apartado (c)", [(R, "(c)")]),
    ("punto 1 (arriba)", [(R, "1")]),
    ("A y B anteriores", [(R, "A"), (R, "B")]),
    ("según (a) o (b)", [(R, "(a)"), (R, "(b)")]),
    ("Ver tabla en el anexo", [("external", "anexo")]),
    ("la Ley 64 y la regla 16C", [(L, "64"), (L, "16C")]),
]

ENGLISH_FORMS = [
    ("Under Law 27B1(b) the bid", [(L, "27B1b")]),
    ("Laws 30, 31 or 32", [(L, "30"), (L, "31"), (L, "32")]),
    ("law 40B2(a)(i) and Law 16 D", [(L, "40B2ai"), (L, "16D")]),
]

FALSE_FRIENDS = [
    ("it", "Il Bridge duplicato si gioca con un mazzo di 52 carte; 13 carte per ciascun giocatore."),
    ("it", "100 o più punti, 90 o meno, 500 | 750"),
    ("it", "tra 370-420 IMP si assegnano 9 IMP; 4000+ vale 24"),
    ("it", "il 40% o il 60% del top, entro 30 minuti"),
    ("it", "in vigore dal 30 SETTEMBRE 2017, delibera del CF n. 43 del 23/05/2017"),
    ("it", "per i board 17/32 e per ogni gruppo di 16 board (12 prese)"),
    ("it", "A meno che l'Arbitro decida altrimenti; A tale scopo; E' normale"),
    ("it", "questo Articolo si applica; quest'articolo; l'Art appropriato; Articoli pertinenti"),
    ("it", "ARTICOLO 23- CHIAMATA PARAGONABILE"),
    ("es", "se juega con 52 cartas; 1ST, 2ST y 2 diamantes; el 40% y 3 IMP"),
    ("es", "punto cardinal, puntos de match, boca arriba, cara abajo, de arriba abajo"),
    ("es", "cualquier Artículo; el artículo correspondiente; este Artículo; (IMP)"),
    ("es", "3E cartas, 13 cartas en cada palo"),
    ("it", "dal 2007 12 arbitri; la legge dello Stato; una regola di buon senso"),
    ("en", "the law of the land; Law and order; 13 tricks"),
]


@pytest.mark.parametrize("text, expected", ITALIAN_FORMS)
def test_italian_forms(text, expected):
    assert cited(text, "it") == expected


@pytest.mark.parametrize("text, expected", SPANISH_FORMS)
def test_spanish_forms(text, expected):
    assert cited(text, "es") == expected


@pytest.mark.parametrize("text, expected", ENGLISH_FORMS)
def test_english_forms(text, expected):
    assert cited(text, "en") == expected


def test_a_capital_a_or_e_set_apart_is_a_word_not_a_section():
    assert cited("vedi Art 16 A tale scopo") == [(L, "16")]
    assert cited("Art 16 E poi") == [(L, "16")]
    assert cited("Art 16 A.") == [(L, "16A")]


NAMES = ("reglamento", "norma", "codice", "codice di gara", "2007", "the 2007 laws", "2017")


@pytest.mark.parametrize("text, lang, expected", [
    ("Artículo 64 del reglamento", "es", [("64", "reglamento", "Artículo 64 del reglamento")]),
    ("reglamento art. 64 y 65", "es", [("64", "reglamento", "reglamento art. 64"), ("65", "reglamento", "65")]),
    ("Art 30, 31 o 32 del reglamento", "es", [("30", "reglamento", "Art 30"), ("31", "reglamento", "31"),
                                             ("32", "reglamento", "32 del reglamento")]),
    ("la norma 40", "it", [("40", "norma", "norma 40")]),
    ("codice di gara art. 24", "it", [("24", "codice di gara", "codice di gara art. 24")]),
    ("Law 16C (2007)", "en", [("16C", "2007", "Law 16C (2007)")]),
    ("Law 16C of the 2007 Laws", "en", [("16C", "the 2007 laws", "Law 16C of the 2007 Laws")]),
    ("Law 16C (see 2007)", "en", [("16C", None, "Law 16C")]),
    ("nel 2007 12 arbitri", "it", []),
])
def test_a_document_named_with_an_id_names_it(text, lang, expected):
    assert [(m.ref, m.named, m.raw) for m in find(text, lang, names=NAMES)] == expected


def test_without_names_nothing_is_named():
    assert [(m.ref, m.named) for m in find("Artículo 64 del reglamento; norma 40", "es")] == [("64", None)]


@pytest.mark.parametrize("lang, text", FALSE_FRIENDS)
def test_false_friends_cite_nothing(lang, text):
    assert cited(text, lang) == []


def test_conjunction_e_is_never_section_e():
    assert cited("Art 42 e Art 43") == [(L, "42"), (L, "43")]
    assert cited("Art 16 e 50") == [(L, "16"), (L, "50")]
    assert cited("Art 70 e 71") == [(L, "70"), (L, "71")]
    assert cited("Art 50, a meno che") == [(L, "50")]


def test_a_point_right_after_a_law_narrows_it():
    assert cited("vedi art. 24 punto 2") == [(L, "24")]


def test_spans_are_where_the_reference_is_written():
    text = "Gli Art 26B e 16C non si applicano"
    assert [text[m.start:m.end] for m in find(text, "it")] == ["Art 26B", "16C"]


# ---------------------------------------------------------------- what readers write (kb cite's reader only)

from kb.citations.check import CHECKED_KINDS, READER  # noqa: E402  (the reader kb cite reads free texts with)

READER_FORMS = [
    # clause numbers spaced, dotted, bracketed, in either case (the search planner's reader of numbers)
    ("art. 27 B 1 b", "it", [(L, "27B1b")]), ("Law 16.B.1.a", "en", [(L, "16B1a")]),
    ("Law 16(B)(1)(a)", "en", [(L, "16B1a")]), ("art. 27 b 1 a", "it", [(L, "27B1a")]),
    ("legge 12c1e", "it", [(L, "12C1e")]), ("LAW 12C1E", "en", [(L, "12C1e")]), ("Law 27B1 b", "en", [(L, "27B1b")]),
    ("Art 30B1(b) (i)", "it", [(L, "30B1bi")]), ("Artículo 16 C 2", "es", [(L, "16C2")]),
    # the registry's law words and their abbreviations
    ("L. 12C1(e)", "it", [(L, "12C1e")]), ("L 16B1", "it", [(L, "16B1")]), ("Leg. 16B1", "it", [(L, "16B1")]),
    ("arts. 16 y 73", "es", [(L, "16"), (L, "73")]),
    # glued on past a number: the id as written, which no clause has
    ("art. 16bis", "it", [(L, "16bis")]), ("Art 27H", "it", [(L, "27H")]),
    # what is a word, a bracket closed or a sentence ended is no part of the id
    ("vedi Art 16 A tale scopo", "it", [(L, "16")]), ("Legge 16 B 1 a tale scopo", "it", [(L, "16B1")]),
    ("Art 12 e 13", "it", [(L, "12"), (L, "13")]), ("Art 27 E 28", "it", [(L, "27")]),
    ("Law 12. E poi", "it", [(L, "12")]), ("(Ver 12C1 si procede)", "es", [(L, "12C1")]),
    ("(vedi Art 12C2) o l'Art 13", "it", [(L, "12C2"), (L, "13")]), ("Artículo 70D3). Si", "es", [(L, "70D3")]),
]


@pytest.mark.parametrize("text, lang, expected", READER_FORMS)
def test_a_reader_reads_what_readers_write(text, lang, expected):
    assert [(m.kind, m.ref) for m in find(text, lang, reader=READER)] == expected


@pytest.mark.parametrize("text, lang, expected", [f for f in READER_FORMS if f[0].split()[0] in ("art.", "legge")])
def test_without_a_reader_the_grammar_stops_where_the_texts_would(text, lang, expected):
    """The corpus's extraction reads no spaced item or lower-case run: what it reads of these is shorter."""
    assert [(m.kind, m.ref) for m in find(text, lang)] != expected


@pytest.mark.parametrize("lang, text", FALSE_FRIENDS)
def test_false_friends_cite_nothing_to_a_reader_either(lang, text):
    assert [(m.kind, m.ref) for m in find(text, lang, reader=READER)] == []


@pytest.mark.parametrize("forms, lang", [(ITALIAN_FORMS, "it"), (SPANISH_FORMS, "es"), (ENGLISH_FORMS, "en")])
def test_a_reader_reads_the_texts_own_forms_as_the_grammar_does(forms, lang):
    assert [(t, cited(t, lang)) for t, _ in forms] == [(t, [(m.kind, m.ref) for m in find(t, lang, reader=READER)])
                                                       for t, _ in forms]


def test_the_laws_own_running_text_read_as_a_free_text_cites_what_the_grammar_reads(export):
    """Every clause's text and title, each document's names and all, read with and without kb cite's
    reader: the same citations, span for span (the reader's forms match nothing in the Laws)."""
    names = tuple(n for d in export["documents"] for n in d.get("names", ()))
    differ, read = [], 0
    for d in export["documents"]:
        for u in d["units"]:
            for t in (t for c in u["clauses"] for t in (c.get("text"), c.get("title")) if t):
                plain = [(m.start, m.end, m.ref) for m in find(t, d["lang"], names=names) if m.kind in CHECKED_KINDS]
                free = [(m.start, m.end, m.ref) for m in find(t, d["lang"], names=names, reader=READER)
                        if m.kind in CHECKED_KINDS]
                read += len(plain)
                if plain != free:
                    differ.append((d["id"], u["id"], plain, free))
    assert read > 700 and differ == []


@pytest.mark.parametrize("text, name", [
    ("artículo 5 del Reglamento de Competiciones de la AEB", "Reglamento de Competiciones art. 5"),
    ("art. 12 del Regolamento Tecnico", "Regolamento Tecnico art. 12"),
    ("Codice di Comportamento, art. 4", "Codice di Comportamento art. 4"),
    ("Law 12 of the Bermuda Bowl Conditions of Contest", "Conditions of Contest art. 12"),
])
def test_another_regulations_article_is_outside_the_corpus(text, name):
    for lang in ("it", "es", "en"):
        assert [(m.kind, m.ref, m.raw) for m in find(text, lang)] == [("external", name, text)]


def test_an_article_of_the_laws_after_another_regulation_is_the_laws(text="il Regolamento Tecnico, art. 16 del Codice"):
    assert cited(text) == [("external", "Regolamento Tecnico"), (L, "16")]
