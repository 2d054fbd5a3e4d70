"""Every FIGB norm on its Law's page: a norm keyed to a Law by its heading's number stands at
the top of that Law (`/it-laws/8` opens with norm 8), a norm paragraph labelled with a Law
clause ("40A1(b)", "Procedura incorretta (20G3)") beside that clause.

Which Law a norm is keyed to is read here off the source text's headings and the export's
`integrates` citations, not from what the page code places."""
from __future__ import annotations

import re

import pytest

from kb.corpus.manifest import load_manifest

HEADING = re.compile(r"^(?:ARTICOLO|Art\.)\s+(\d+)\b(.*)$", re.M)
SECOND_LAW = re.compile(r"^\W*ARTICOLO\s+(\d+)\s*$")   # `ARTICOLO 92 – ARTICOLO 93`: a range


def keyed_by_heading() -> dict[str, list[str]]:
    """Norm id → the Laws its heading keys it to (DESIGN §4: the Law number, `92-93` for two)."""
    text = next(e for e in load_manifest() if e.id == "it-norms").read()
    out: dict[str, list[str]] = {}
    for first, rest in HEADING.findall(text):
        last = SECOND_LAW.match(rest)
        laws = [str(n) for n in range(int(first), int(last[1]) + 1)] if last else [first]
        out[f"{laws[0]}-{laws[-1]}" if len(laws) > 1 else first] = laws
    return out


KEYED = keyed_by_heading()
PAIRS = [(norm, law) for norm, laws in KEYED.items() for law in laws]


def section(page: str, anchor: str) -> str:
    """A clause's section of the unit page, up to the next clause (the Law's own clause, `8`,
    is the top of the page, before its first section 8A)."""
    parts = page.split(f'<section id="{anchor}"')
    assert len(parts) == 2, f"no section {anchor}"
    return parts[1].split("<section")[0]


def norm_links(html: str, norm: str) -> set[str]:
    return set(re.findall(rf'href="(/it-norms/{re.escape(norm)}(?:#[^"]*)?)"', html))


def test_the_headings_read_are_all_the_norms_of_the_export(export):
    norms = next(d for d in export["documents"] if d["id"] == "it-norms")
    assert set(KEYED) == {u["id"] for u in norms["units"] if u["kind"] == "norm"}
    assert KEYED["92-93"] == ["92", "93"]


@pytest.mark.parametrize("norm, law", PAIRS)
def test_a_norm_keyed_by_its_number_stands_at_the_top_of_its_law(client, norm, law):
    top = section(client.get(f"/it-laws/{law}", params={"ui": "en"}).text, law)
    assert f"/it-norms/{norm}" in norm_links(top, norm)
    assert re.search(rf'<details class="norm"[^>]*>\s*<summary>FIGB integrative norm {re.escape(norm)} · ', top)


def test_a_norm_paragraph_labelled_with_a_clause_stands_beside_that_clause(client, export):
    labelled = [c for c in export["citations"] if c["source"]["doc"] == "it-norms"
                and c["kind"] == "integrates" and c["resolved"]]
    assert {c["source"]["unit"] for c in labelled} >= {"40", "20", "73"}
    pages: dict[str, str] = {}
    missing = []
    for c in labelled:
        law, norm, t = c["target"]["unit"], c["source"]["unit"], c["target"]
        page = pages.setdefault(law, client.get(f"/it-laws/{law}").text)
        if f'/it-norms/{norm}#{c["source"]["clause"]}' not in norm_links(section(page, t["clause"] or law), norm):
            missing.append((c["source"]["clause"], t["clause"]))
    assert missing == []


@pytest.mark.parametrize("law, norm, title, point", [
    ("8", "8", "SEQUENZA DEI ROUND", "1. Tempo disponibile per ogni smazzata"),
    ("18", "18", "LICITE", "3. Licite a salto"),
    ("4", "4", "ACCOPPIAMENTI", "1. Sostituti"),
    ("74", "74", "CONDOTTA ED ETICHETTA", "Referti Arbitrali"),
    ("91", "91", "Penalizzare o sospendere", "2. Diritto di squalificare"),
    ("92", "92-93", "DIRITTO DI APPELLARSI e RICORSO", "1. Diritto alla Revisione"),
    ("93", "92-93", "DIRITTO DI APPELLARSI e RICORSO", "7. Accettazione della decisione"),
])
def test_the_top_of_a_law_names_its_norm_and_leads_to_its_points(client, law, norm, title, point):
    top = section(client.get(f"/it-laws/{law}", params={"ui": "en"}).text, law)
    summary = top.split("<summary>")[1].split("</summary>")[0]
    assert f"FIGB integrative norm {norm} · {title}" in summary
    assert re.search(rf'<a href="/it-norms/{re.escape(norm)}#[^"]+"[^>]*>{re.escape(point)}</a>', top)
    api = client.get(f"/api/units/it-laws/{law}").json()["norms"]
    assert any({"unit": norm, "clause": None, "at": None, "kind": "integrates"}.items() <= n.items() for n in api)


def test_a_norm_that_opens_with_its_own_words_shows_them_at_the_top(client):
    """Norm 23 has no points: its words themselves, with their links to the Law, stand above Law 23."""
    top = section(client.get("/it-laws/23").text, "23")
    assert "ogni chiamata legale sostitutiva" in top and 'href="/it-laws/23#23A3"' in top


@pytest.mark.parametrize("doc, law", [("it-laws", "9"), ("es-laws", "8"), ("es-laws", "40")])
def test_a_law_no_norm_integrates_shows_none(client, doc, law):
    """Law 9 has no norm; the Spanish 2007 Laws are not the Laws the FIGB norms integrate."""
    page = client.get(f"/{doc}/{law}").text
    assert 'class="norm"' not in page and 'id="panel-norms"' not in page
    assert client.get(f"/api/units/{doc}/{law}").json()["norms"] == []
