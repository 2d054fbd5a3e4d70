"""The phone-craft markup of the pages, in process: what a screen reader, a hyphenator or a
phone reads from the HTML itself (the browser measurements are in test_phone.py)."""
import re

import pytest


def clause_headings(page: str) -> dict[str, int]:
    """Each clause section's heading level, by clause id (clauses shown without a heading left out)."""
    return {cid: int(level) for cid, level in
            re.findall(r'<section id="([^"]+)" class="clause[^"]*">\s*<h([1-6]) class="clause-head"', page)}


@pytest.mark.parametrize("doc, unit", [("it-laws", "27"), ("it-laws", "40"), ("es-laws", "40"), ("it-norms", "8"),
                                       ("it-norms", "alert"), ("it-burraco", "33")])
def test_clause_headings_nest_as_the_clauses_do(client, doc, unit):
    """Under the page's h1, a clause's heading is one level below the nearest headed clause
    it belongs to (27B h2 > 27B1 h3 > 27B1(a) h4), so a screen reader's outline is the Law's."""
    levels = clause_headings(client.get(f"/{doc}/{unit}").text)
    parents = {c["id"]: c["parent"] for c in client.get(f"/api/units/{doc}/{unit}").json()["clauses"]}
    assert len(set(levels.values())) >= 2                  # nested, not a flat list
    for cid, level in levels.items():
        above = parents[cid]
        while above and above not in levels:
            above = parents[above]
        assert level == (levels[above] + 1 if above else 2), (cid, level, above)
