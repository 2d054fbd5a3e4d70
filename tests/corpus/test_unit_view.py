"""One view per unit (`KnowledgeBase.unit_view`): the page and /api/units/{doc}/{unit} show the
same links, neighbours, defined terms and compare pages, because they come from one record."""
import re
from urllib.parse import unquote

import pytest


def panel_links(page: str, heading: str) -> list[str]:
    """The hrefs listed under a panel heading of the unit page."""
    m = re.search(rf"<h2>{heading}</h2>(.*?)</section>", page, re.S)
    return [unquote(h) for h in re.findall(r'href="([^"]+)"', m.group(1))] if m else []


@pytest.mark.parametrize("doc, unit", [("it-laws", "27"), ("es-laws", "12"), ("it-norms", "40"),
                                       ("it-laws", "def-alert"), ("it-timeref", "la-renonce")])
def test_the_page_shows_what_the_api_answers(client, doc, unit):
    api = client.get(f"/api/units/{doc}/{unit}").json()
    page = client.get(f"/{doc}/{unit}?ui=en").text
    assert panel_links(page, "Cited by") == [unquote(c["url"]) for c in api["cited_by"]]
    assert panel_links(page, "Defined terms used here") == [t["url"] for t in api["terms"]]
    assert panel_links(page, "Other edition") == [unquote(c["url"]) for c in api["compare"]]
    for rel in ("prev", "next"):
        found = re.search(rf'rel="{rel}" href="([^"]+)"', page)
        assert (found.group(1) if found else None) == (api[rel]["url"] if api[rel] else None)


def test_a_law_knows_its_neighbours_its_terms_and_its_other_edition(client):
    api = client.get("/api/units/it-laws/27").json()
    assert (api["prev"]["unit"], api["next"]["unit"]) == ("26", "28")
    assert "/it-laws/def-licita" in {t["url"] for t in api["terms"]}   # 27 speaks of "licita"
    assert [(c["language"], c["edition"]) for c in api["compare"]] == [("Spanish", "2007")]
    assert "it-norms" in {c["doc"] for c in api["norms"] + api["cited_by"]}   # norm 27 on Law 27


def test_the_first_and_last_laws_have_one_neighbour(client):
    first, last = client.get("/api/units/es-laws/1").json(), client.get("/api/units/es-laws/93").json()
    assert first["prev"] is None and first["next"]["unit"] == "2"
    assert last["next"] is None and last["prev"]["unit"] == "92"
