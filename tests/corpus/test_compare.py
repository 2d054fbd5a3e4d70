"""The compare view (/compare/{n}) pairs exactly what the concordance pairs.

The expected pairing is worked out here from corpus/concordance.tsv itself, read
with the csv module and the rule its header comment states — not by calling the
code under test: the most specific row whose `es` id is an ancestor-or-self of
a 2007 clause applies; `same`/`changed` rows carry sub-clauses across by
identical sub-ids when that 2017 clause exists; a row with no `it` drops it.
Read backwards, the same carrying rule says which Spanish clause holds a 2017
sub-clause the Spanish text does not number (IT 45D1 is in ES 45D). A row speaks
for the two clauses it names: what a `changed` row carries or holds is `same`.

Before this view was rebuilt on kb.editions.compare, the 93 pages showed 10 pairs the
concordance does not make and 19 Spanish clauses twice.
"""
import csv
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest


TSV = Path(__file__).resolve().parents[2] / "corpus" / "concordance.tsv"
LAWS = range(1, 94)
CLAUSE = re.compile(r"^(\d+)([A-Z]?)(\d*)([a-z]?)((?:viii|vii|vi|iv|v|ix|x|iii|ii|i)?)((?:-p\d+)?)$")


# ------------------------------------------------------------------ the concordance, read independently

def tsv_rows() -> list[dict[str, str]]:
    lines = [ln for ln in TSV.read_text(encoding="utf-8").splitlines() if ln and not ln.startswith("#")]
    return list(csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))


def lineage(cid: str) -> list[str]:
    """`20F5bii` → [20F5bii, 20F5b, 20F5, 20F, 20]; `69B-p2` → [69B-p2, 69B, 69]."""
    m = CLAUSE.match(cid)
    assert m, cid
    parts = [p for p in m.groups()[1:] if p]
    return [m[1] + "".join(parts[:k]) for k in range(len(parts), -1, -1)]


def article(cid: str) -> str:
    return CLAUSE.match(cid)[1]


def spoken_for(row: dict[str, str], named: bool) -> str:
    """The relation a row gives a pair of clauses: its own for the pair it names; `same` for a
    sub-clause a `changed` row carries or holds."""
    return row["relation"] if named or row["relation"] != "changed" else "same"


class Truth:
    """Where each 2007 clause stands in 2017, and which 2007 text holds each 2017 clause."""

    def __init__(self, export: dict):
        docs = {d["id"]: d for d in export["documents"]}
        self.it_ids = {c["id"] for u in docs["it-laws"]["units"] if u["kind"] == "article" for c in u["clauses"]}
        self.es_units = {u["id"]: u for u in docs["es-laws"]["units"] if u["kind"] == "article"}
        self.es_ids = {c["id"] for u in self.es_units.values() for c in u["clauses"]}
        self.es_read = {c["id"] for u in self.es_units.values() for c in u["clauses"] if has_text(c)}
        self.by_es: dict[str, list[dict[str, str]]] = {}
        self.by_it: dict[str, list[dict[str, str]]] = {}
        for r in tsv_rows():
            if r["older"]:
                self.by_es.setdefault(r["older"], []).append(r)
            if r["newer"]:
                self.by_it.setdefault(r["newer"], []).append(r)
        self.targets = {es: self.place(es) for es in self.es_ids}
        self.sources: dict[str, set[str]] = {}
        for es, found in self.targets.items():
            for it in found:
                self.sources.setdefault(it, set()).add(es)

    def governing(self, es: str) -> tuple[list[dict[str, str]], str]:
        """The rows of the most specific ancestor-or-self of a 2007 id, and the id below it."""
        for anc in lineage(es):
            if anc in self.by_es:
                return self.by_es[anc], es[len(anc):]
        return [], es

    def place(self, es: str) -> dict[str, str]:
        """The 2017 clauses a 2007 clause maps to, each with its row's relation."""
        rows, below = self.governing(es)
        if not rows:
            return {es: "same"} if es in self.it_ids else {}
        out = {}
        for r in rows:
            if r["newer"]:
                carried = r["newer"] + below
                it = carried if below and r["relation"] in ("same", "changed") and carried in self.it_ids else r["newer"]
                out.setdefault(it, spoken_for(r, named=not below))
        return out

    def holder(self, it: str) -> tuple[str, str] | None:
        """The same rule read backwards, for a 2017 clause no 2007 clause maps to: the
        nearest ancestor the table names on the 2017 side decides. `new-in-2017`: none.
        `same`/`changed`: the 2007 clause with the identical sub-id under the row's `es`
        or, when the Spanish text has no such clause, the nearest one above it — if that
        row governs it. Any other row: none."""
        for anc in lineage(it):
            named = self.by_it.get(anc, [])
            if any(r["relation"] == "new-in-2017" for r in named):
                return None
            if anc == it or not named:
                continue
            for r in named:
                if r["older"] and r["relation"] in ("same", "changed"):
                    es = next(e for e in lineage(r["older"] + it[len(anc):]) if e in self.es_ids)
                    if r in self.governing(es)[0]:
                        return es, spoken_for(r, named=False)
            return None
        return None

    def relation(self, it: str, es: str) -> str | None:
        """The relation of a pair, or None when the table does not pair them."""
        if it in self.targets.get(es, {}):
            return self.targets[es][it]
        if not self.sources.get(it) and (found := self.holder(it)) and found[0] == es:
            return found[1]
        return None


# ------------------------------------------------------------------ the page, as a reader sees it

class CompareRows(HTMLParser):
    """Each row of a compare page: its data- attributes, the clause each cell shows
    (`a.label`) or points to (`a.cont`), its badge, the links and words of its relation
    (`said`), its note and the note's language, the edition each cell names (`data-edition`)
    and the words each cell emphasises (`mark.change`)."""

    def __init__(self):
        super().__init__()
        self.rows: list[dict] = []
        self.depth = 0
        self.row_depth = self.cell = None
        self.marking = self.noting = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if tag == "div":
            self.depth += 1
            if "row" in classes and "head" not in classes and self.row_depth is None:
                self.row_depth = self.depth
                self.rows.append({"data": {k: v for k, v in a.items() if k.startswith("data-")},
                                  "shows": {}, "points": {}, "relation": None, "to": [], "said": "",
                                  "note": "", "note_lang": None, "edition": {}, "marks": {"it": [], "es": []}})
            elif self.row_depth is not None and "cell" in classes:
                self.cell = "it" if "it" in classes else "es"
                self.rows[-1]["edition"][self.cell] = a.get("data-edition")
            elif self.row_depth is not None and "relation" in classes:
                self.cell = "relation"
        if self.row_depth is None:
            return
        row = self.rows[-1]
        if tag == "a" and self.cell in ("it", "es"):
            row["shows" if "label" in classes else "points"][self.cell] = clause_of(a["href"])
        elif tag == "a" and self.cell == "relation":
            row["to"].append(a["href"])
        elif tag == "span" and "badge" in classes:
            row["relation"] = next(c for c in classes if c != "badge")
        elif tag == "span" and "note" in classes:
            self.noting, row["note_lang"] = True, a.get("lang")
        elif tag == "mark" and "change" in classes and self.cell in ("it", "es"):
            self.marking = True
            row["marks"][self.cell].append("")

    def handle_endtag(self, tag):
        if tag == "div":
            if self.depth == self.row_depth:
                self.row_depth = self.cell = None
            self.depth -= 1
        elif tag == "mark":
            self.marking = False
        elif tag == "span":
            self.noting = False

    def handle_data(self, data):
        if self.row_depth is None:
            return
        row = self.rows[-1]
        if self.cell == "relation":
            row["said"] += data
        if self.noting:
            row["note"] += data
        if self.marking:
            row["marks"][self.cell][-1] += data


def clause_of(href: str) -> str:
    """`/it-laws/13#13B` → 13B; `/es-laws/23` → 23; `#es-9A3` → 9A3."""
    path, _, anchor = href.partition("#")
    if not path:
        return anchor.split("-", 1)[1]
    return anchor or path.rsplit("/", 1)[1]


def page_rows(client, n: int, ui: str | None = None) -> list[dict]:
    r = client.get(f"/compare/{n}", params={"ui": ui} if ui else None)
    if ui:
        client.cookies.clear()  # the interface language the query chose stays with the client
    assert r.status_code == 200
    p = CompareRows()
    p.feed(r.text)
    return p.rows


def pair(row: dict, side: str) -> str | None:
    """The clause of one edition a row stands for: what its cell shows or points to
    (a cell shown once for several rows), as its data- attribute says."""
    return row["data"].get(f"data-{side}") or row["shows"].get(side) or row["points"].get(side)


def beside(row: dict) -> str | None:
    return pair(row, "it")


def has_text(c: dict) -> bool:
    return bool(c["text"].strip() or c.get("title"))


KINDS = ("outside", "wrong-relation", "es-twice", "it-twice", "es-missing", "es-row-but-here", "es-row-target",
         "new-but-mapped", "unmapped-not-new", "source-unnamed", "same-half-empty", "data-mismatch")


def page_problems(n: int, rows: list[dict], truth: Truth) -> dict[str, list]:
    """Every way page n departs from the concordance, by kind."""
    law = str(n)
    found: dict[str, list] = {k: [] for k in KINDS}
    es_count = Counter(r["shows"]["es"] for r in rows if "es" in r["shows"])
    it_count = Counter(r["shows"]["it"] for r in rows if "it" in r["shows"])
    found["es-twice"] = [(n, es) for es, k in es_count.items() if k > 1]
    found["it-twice"] = [(n, it) for it, k in it_count.items() if k > 1]
    found["es-missing"] = [(n, c["id"]) for c in truth.es_units[law]["clauses"]
                           if has_text(c) and c["id"] not in es_count]
    named: dict[str, set[str]] = {}
    for r in rows:
        it, es, rel = pair(r, "it"), pair(r, "es"), r["relation"]
        found["data-mismatch"] += [(n, side, r) for side in ("it", "es") if r["data"] and pair(r, side)
                                   and (r["shows"].get(side) or r["points"].get(side)) not in (None, pair(r, side))]
        if rel == "same" and not (it and es):
            found["same-half-empty"].append((n, it, es))
        if it:
            named.setdefault(it, set()).update({es} if es else set(), {clause_of(h) for h in r["to"]})
        if it and es:
            expected = truth.relation(it, es)
            if expected is None:
                found["outside"].append((n, it, es, sorted(truth.targets.get(es, {}))))
            elif expected != rel:
                found["wrong-relation"].append((n, it, es, rel, expected))
        elif es:
            targets = truth.targets.get(es, {})
            if any(article(t) == law for t in targets):
                found["es-row-but-here"].append((n, es, sorted(targets)))
            if {clause_of(h) for h in r["to"]} != set(targets) or (not targets and rel != "removed-in-2017"):
                found["es-row-target"].append((n, es, sorted(targets), r["to"], rel))
        elif it:
            mapped = truth.sources.get(it, set()) or truth.holder(it)
            if rel == "new-in-2017" and mapped:
                found["new-but-mapped"].append((n, it, mapped))
            if rel != "new-in-2017" and not mapped:
                found["unmapped-not-new"].append((n, it, rel))
    found["source-unnamed"] = [(n, it, sorted(unnamed)) for it, said in named.items()
                               if (unnamed := (truth.sources.get(it, set()) & truth.es_read) - said)]
    return found


def all_problems(client, export) -> dict[str, list]:
    truth, total = Truth(export), {}
    for n in LAWS:
        for kind, items in page_problems(n, page_rows(client, n), truth).items():
            total.setdefault(kind, []).extend(items)
    return total


# ------------------------------------------------------------------ the tests

def test_every_compare_page_pairs_exactly_what_the_concordance_pairs(client, export):
    problems = {k: v for k, v in all_problems(client, export).items() if v}
    assert problems == {}


def test_the_truth_reads_the_table_as_its_header_says(export):
    truth = Truth(export)
    assert truth.targets["23"] == {"72C": "moved"}
    assert truth.targets["16C2"] == {"16D2": "moved"}                 # its own row
    assert truth.place("20F5bii") == {"20F5bii": "same"}   # a 2007 id ES prints inline, carried by the 20F5b row
    assert truth.targets["9A3"] == {"9A4": "split", "9A3": "split"}
    assert truth.targets["12C1e"] == {} and truth.targets["12C1e-p2"] == {}
    assert "23A1" not in truth.sources and truth.sources["15A"] == {"17D"}
    assert truth.holder("20F5bii") == ("20F5b", "same") and truth.holder("45D1") == ("45D", "same")
    assert truth.holder("68D1") == ("68D", "same")         # held by ES 68D, whose `changed` row speaks for 68D
    assert truth.holder("23A1") is None                    # under the new-in-2017 row of 23A
    assert truth.holder("13B") is None                     # ES 13B has a row of its own (→ IT 13B2)


def row_of(rows: list[dict], it: str | None, es: str | None) -> dict:
    found = [r for r in rows if pair(r, "it") == it and pair(r, "es") == es]
    assert len(found) == 1, (it, es, found)
    return found[0]


@pytest.mark.parametrize("n, it, es, relation, shown, link", [
    (86, "86B", "86D", "moved", "it", None),               # no longer beside ES 86B: the heading of ES 86D …
    (86, None, "86B", "merged", "es", "/it-laws/12#12C4"),  # … which went to IT 12C4
    (86, "86B1", "86D", "moved", "it es", None),
    (86, "86B2a", None, "new-in-2017", "it", None),
    (23, "23A1", None, "new-in-2017", "it", None),         # comparable call: new, empty Spanish cell
    (23, None, "23", "moved", "es", "/it-laws/72#72C"),     # ES Law 23 is IT 72C …
    (72, "72C", None, "moved", "it", "/es-laws/23"),        # … and IT 72C names where it came from
    (13, "13B2", "13B", "moved", "it es", None),
    (12, None, "12C1e", "removed-in-2017", "es", None),
    (16, "16D2", "16C2", "moved", "it es", None),
    (9, "9A4", "9A3", "split", "it es", None),              # a split ES clause is shown once, at its first row …
    (9, "9A3", "9A3", "split", "it", None),                 # … and its other half points to it
    (41, "41B", "41B1", "merged", "es", None),              # the Italian cell shown once for its group
    (45, "45D1", "45D", "same", "it", None),                # ES prints inline what IT numbers: it points up
    (64, "64B1", "64B1", "same", "it es", None),            # a section row speaks for its heading, not for each
    (64, "64B8", None, "new-in-2017", "it", None),          # sub-clause: 2017 adds B8 and B1 says the same
    (20, "20F5bi", "20F5b", "same", "it", None),
])
def test_known_rows(client, n, it, es, relation, shown, link):
    r = row_of(page_rows(client, n), it, es)
    assert r["relation"] == relation
    assert set(r["shows"]) == set(shown.split())
    for side, cid in (("it", it), ("es", es)):
        if cid and side not in r["shows"]:
            assert r["points"][side] == cid
    if link:
        assert link in r["to"]


@pytest.mark.parametrize("n, cid", [(13, "13B"), (15, "15A2"), (32, "32B1"), (32, "32B2"), (40, "40B3"),
                                    (86, "86B"), (20, "20F4"), (80, "80B2g"), (1, "1"), (23, "23")])
def test_no_clause_sits_beside_a_namesake_the_concordance_sends_elsewhere(client, n, cid):
    rows = page_rows(client, n)
    assert [r for r in rows if pair(r, "it") == cid and pair(r, "es") == cid] == []
    assert [r["shows"].get("es") for r in rows].count(cid) == 1


def test_a_spanish_row_says_where_its_clause_went(client):
    r = row_of(page_rows(client, 23), None, "23")
    assert "→ IT 72C" in " ".join(r["said"].split())
    assert r["shows"] == {"es": "23"}


def test_several_spanish_clauses_share_one_italian_cell(client):
    rows = page_rows(client, 41)
    group = [r for r in rows if pair(r, "it") == "41B"]
    assert [pair(r, "es") for r in group] == ["41B", "41B1", "41B2", "41B3"]
    assert [r["shows"].get("it") for r in group] == ["41B", None, None, None]   # the Italian cell once
    assert rows.index(group[-1]) - rows.index(group[0]) == 3                    # in consecutive rows


def test_spanish_only_rows_follow_the_spanish_clause_before_them(client):
    order = [pair(r, "es") for r in page_rows(client, 12) if "es" in r["shows"]]
    i = order.index("12C1d")
    assert order[i:i + 5] == ["12C1d", "12C1e", "12C1ei", "12C1eii", "12C1e-p2"]


# ------------------------------------------------------------------ kb.editions.compare on plain data

def test_a_closing_paragraph_descends_from_its_clause():
    from kb.editions.concordance import ancestors
    assert ancestors("69B-p2") == ["69B-p2", "69B", "69"]
    assert ancestors("71-p2") == ["71-p2", "71"]


def test_law_rows_from_plain_data():
    from kb.editions.compare import Pairing
    from kb.editions.concordance import Concordance, Row
    from kb.records.built import BuiltClause
    said = [("5", "5", "changed", "reorganised"), ("5A", "5B", "moved", "A is now B"),
            ("5B", "5A", "split", "first half"), ("5B", "5C", "split", "second half"),
            ("5C", "5A", "merged", "joins B"), ("5D", "", "removed-in-2017", "gone"),
            ("5E", "9A", "moved", "to Law 9"), ("", "5D", "new-in-2017", "new rule")]
    rows = [Row(older, newer, relation, (("en", note),)) for older, newer, relation, note in said]
    it = [BuiltClause("5", None, "5", "")] + [BuiltClause(i, "5", "", f"it {i}") for i in ("5A", "5B", "5C", "5D", "5D1", "5G", "5G1")]
    es = [BuiltClause("5", None, "5", "")] + [BuiltClause(i, "5", "", f"es {i}") for i in ("5A", "5B", "5C", "5D", "5E", "5G")]
    pairing = Pairing(Concordance(rows, "2017"), [c.id for c in it] + ["9A"], [c.id for c in es])
    got = [(r.new, r.old, r.relation, r.show_new, r.show_old, r.elsewhere, r.note)
           for r in pairing.law_rows("5", it, es)]
    assert got == [
        ("5A", "5B", "split", True, True, (), "first half"),      # the split ES 5B, shown at its first row
        ("5A", "5C", "merged", False, True, (), "joins B"),       # merged: the Italian cell shown once
        (None, "5D", "removed-in-2017", True, True, (), "gone"),  # right after the row of ES 5C
        (None, "5E", "moved", True, True, ("9A",), "to Law 9"),   # sent to another article
        ("5B", "5A", "moved", True, True, (), "A is now B"),
        ("5C", "5B", "split", True, False, (), "second half"),    # the split's other half points to ES 5B
        ("5D", None, "new-in-2017", True, True, (), "new rule"),
        ("5D1", None, "new-in-2017", True, True, (), "new rule"), # under a new-in-2017 row
        ("5G", "5G", "same", True, True, (), ""),                 # carried by the article row, which speaks
        ("5G1", "5G", "same", True, False, (), ""),               # for 5 only; ES has no 5G1: ES 5G holds it
    ]                                                              # the empty article clauses are left out


def test_a_cell_shows_the_clauses_notes_and_tables(client):
    """ES 80A's AEB note is a clause of its own (80A ¶2, after 80A1–3): its cell shows the note."""
    page = client.get("/compare/80").text
    assert "En España la Autoridad Reguladora es la Asociación Española de Bridge" in page


@pytest.mark.parametrize("n", [12, 16, 27, 45])
def test_the_api_answers_the_rows_the_page_shows(client, n):
    """One compare view feeds the page and /api/compare: the same rows, in the same order."""
    page = re.findall(r'data-it="([^"]*)" data-es="([^"]*)" data-relation="([^"]*)"', client.get(f"/compare/{n}").text)
    api = client.get(f"/api/compare/{n}").json()
    assert (api["newer"], api["older"]) == ("it-laws", "es-laws")
    assert [(r["newer"] or "", r["older"] or "", r["relation"]) for r in api["rows"]] == page


def test_the_api_names_the_pairs_when_asked_for_another(client):
    r = client.get("/api/compare/12", params={"older": "it-laws", "newer": "es-laws"})
    assert r.status_code == 404 and "older=es-laws&newer=it-laws" in r.json()["error"]
