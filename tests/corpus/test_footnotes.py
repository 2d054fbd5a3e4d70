"""Footnotes across the five documents: every clause holding a marker, and no marker left behind.

A footnote whose marker is printed on several clauses (IT 70's `normale*` in 70C3, D1, D2
and E1) names them all in `clauses`, in text order; `clause` stays the first of them. The
export, `kb show` and the unit page all show every one. Expected values are read from the
corpus texts.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest


# Every footnote of the corpus whose marker sits on more than one clause, with those clauses.
SEVERAL = {
    ("it-laws", "51", "*"): ["51B1a", "51B1b", "51B2a", "51B2b"],   # richieda* proibisca* richiedere* proibire*
    ("it-laws", "64", "*"): ["64A1", "64A2"],                       # dal giocatore colpevole*
    ("it-laws", "70", "*"): ["70C3", "70D1", "70D2", "70E1"],       # normale* / normali*
    ("it-laws", "76", "*"): ["76A1", "76C1", "76D"],                # area di gioco*
    ("it-laws", "80", "*"): ["80B2gi", "80B2h", "80B2j"],           # provvedere* predisporre* organizzazione*
    ("es-laws", "51", "1"): ["51B1a", "51B1b", "51B2b"],            # obliga1 prohíbe1 prohibir1
    ("es-laws", "70", "*"): ["70C3", "70D1", "70D2", "70E1"],       # normal*
}


def units(export):
    for d in export["documents"]:
        for u in d["units"]:
            yield d, u


def unit(export, doc_id, unit_id):
    return next(u for d, u in units(export) if d["id"] == doc_id and u["id"] == unit_id)


def test_every_footnote_lists_the_clauses_holding_its_marker(export):
    for d, u in units(export):
        ids = [c["id"] for c in u["clauses"]]
        for f in u["footnotes"]:
            where = f"{d['id']} {u['id']} {f['marker']}"
            assert isinstance(f["clauses"], list), where
            assert len(set(f["clauses"])) == len(f["clauses"]), where
            assert all(c in ids for c in f["clauses"]), where
            assert sorted(f["clauses"], key=ids.index) == f["clauses"], where   # text order
            if f.get("clause"):
                assert f["clauses"][0] == f["clause"], where                    # `clause` is the first
            else:
                assert f["clauses"] == [], where


def test_the_footnotes_marked_on_several_clauses(export):
    found = {(d["id"], u["id"], f["marker"]): f["clauses"]
             for d, u in units(export) for f in u["footnotes"] if len(f["clauses"]) > 1}
    assert found == SEVERAL


@pytest.mark.parametrize("doc_id, unit_id, word", [
    ("it-laws", "70", "normal"),          # the footnote defines "normale"
    ("it-laws", "76", "area di gioco"),   # … and "area di gioco"
    ("es-laws", "70", "normal"),
])
def test_each_marked_clause_uses_the_word_the_footnote_glosses(export, doc_id, unit_id, word):
    u = unit(export, doc_id, unit_id)
    [f] = u["footnotes"]
    assert word in f["text"]
    for cid in f["clauses"]:
        text = next(c["text"] for c in u["clauses"] if c["id"] == cid)
        assert word in text and "*" not in text, cid


def test_bold_residue_is_not_a_footnote_marker(export):
    """IT 50E's unbalanced bold (`e** la conoscenza`, `dichiarante.**`) is no `**` footnote mark:
    the `**` footnote (50D2(b)'s `carta penalizzata**`) stays on 50D2b alone."""
    fns = {f["marker"]: f["clauses"] for f in unit(export, "it-laws", "50")["footnotes"]}
    assert fns == {"*": ["50D2a"], "**": ["50D2b"]}


# ---------------------------------------------------------------- no footnote marker left in the text

def strings(u):
    """Every string a reader sees in a unit, with where it is."""
    yield "title", u.get("title") or ""
    for c in u["clauses"]:
        yield c["id"], c["text"]
        yield c["id"] + " title", c.get("title") or ""
        yield c["id"] + " label", c.get("label") or ""
        for t in c.get("tables", []):
            yield c["id"] + " caption", t.get("caption") or ""
            for row in t["header"] + t["rows"]:
                yield from ((c["id"] + " cell", cell) for cell in row)
        for n in c.get("notes", []):
            yield c["id"] + " note", n["text"]
    for f in u["footnotes"]:
        yield "footnote " + f["marker"], f["text"]


def test_no_asterisk_left_in_any_text(export):
    """The only asterisks a reader may see are it-norms' `(*)`: App. 1 §2.1(d)–(e)
    `sostanzialmente(*)` pointing to the `(*) nei punti (d) ed (e) sopra …` note printed in the
    body right after them (kept as that unit's note). Any other `*` (a footnote marker whose
    footnote was not found, markdown residue) fails, naming where it is."""
    for d, u in units(export):
        body_notes = [n["text"] for c in u["clauses"] for n in c.get("notes", [])]
        legit = "(*)" if any(n.startswith("(*)") for n in body_notes) else None
        for where, s in strings(u):
            rest = s.replace(legit, "") if legit else s
            assert "*" not in rest, (d["id"], u["id"], where, s[max(s.find("*") - 40, 0):][:100])


def test_the_spanish_79C1_asterisk_became_its_footnote(export):
    u = unit(export, "es-laws", "79")
    c = next(c for c in u["clauses"] if c["id"] == "79C1")
    assert "lo especifique más largo, este periodo de corrección expira 30 minutos" in c["text"]
    assert [(f["marker"], f["clause"], f["clauses"]) for f in u["footnotes"]] == [("*", "79C1", ["79C1"])]
    assert u["footnotes"][0]["text"].startswith("Se puede especificar un periodo de corrección más corto")


# ---------------------------------------------------------------- shown everywhere

@pytest.mark.parametrize("doc_id, unit_id, expected", [
    ("it-laws", "70", "* (70C3, 70D1, 70D2, 70E1) Per gli scopi degli Art 70 e 71"),
    ("it-laws", "80", "* (80B2(g)(i), 80B2(h), 80B2(j))"),
    ("es-laws", "51", "1 (51B1(a), 51B1(b), 51B2(b)) Si el jugador no puede salir"),
    ("it-laws", "13", "* (13) Questo Art 13 viene applicato"),
])
def test_show_lists_every_clause_of_a_footnote(kb, doc_id, unit_id, expected):
    r = kb("show", doc_id, unit_id)
    assert r.returncode == 0
    assert expected in r.stdout


class FootnoteLinks(HTMLParser):
    """(href, text) of each link inside the footnotes section of a unit page, per footnote."""

    def __init__(self):
        super().__init__()
        self.inside, self.para, self.link = False, None, None
        self.footnotes: list[list[tuple[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and "footnotes" in (a.get("class") or "").split():
            self.inside = True
        elif self.inside and tag == "p" and (a.get("id") or "").startswith("fn-"):
            self.footnotes.append([])
        elif self.inside and tag == "a" and self.footnotes:
            self.link = [a.get("href"), ""]

    def handle_data(self, data):
        if self.link is not None:
            self.link[1] += data

    def handle_endtag(self, tag):
        if tag == "a" and self.link is not None:
            self.footnotes[-1].append(tuple(self.link))
            self.link = None
        elif tag == "section":
            self.inside = False


def footnote_links(page):
    p = FootnoteLinks()
    p.feed(page)
    return p.footnotes


@pytest.mark.parametrize("doc_id, unit_id, marker", sorted(SEVERAL))
def test_unit_page_links_every_clause_of_a_footnote(client, export, doc_id, unit_id, marker):
    r = client.get(f"/{doc_id}/{unit_id}")
    assert r.status_code == 200
    u = unit(export, doc_id, unit_id)
    k = next(i for i, f in enumerate(u["footnotes"]) if f["marker"] == marker)
    links = footnote_links(r.text)[k]
    assert [href for href, _ in links] == [f"#{cid}" for cid in SEVERAL[doc_id, unit_id, marker]]
    ids = set(re.findall(r'<section id="([^"]+)"', r.text))
    assert all(href[1:] in ids for href, _ in links)          # each link lands on its clause


def test_unit_page_link_labels_are_readable(client):
    links = footnote_links(client.get("/it-laws/80").text)
    assert [text for _, text in links[0]] == ["80B2(g)(i)", "80B2(h)", "80B2(j)"]
    [[(href, text)]] = footnote_links(client.get("/it-burraco/22").text)   # one clause: one link
    assert href == "#22-p6" and text


def test_page_view_leaves_the_api_unit_as_exported(client, export):
    """The page's link list is built on a copy: the API still returns the exported footnotes."""
    client.get("/it-laws/70")
    api = client.get("/api/units/it-laws/70").json()
    assert api["footnotes"] == unit(export, "it-laws", "70")["footnotes"]
