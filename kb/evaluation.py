"""Citation extraction measured against the labelled reference set (tests/data/references).

The set was written by reading the texts. A reference is compared on
(source doc, source unit, target doc, target): the target is the clause id
for the Laws, the unit id for norms, definitions, topics and Burraco
articles, and the text's name (without an article number) for an external
text. Multisets: a line citing 12C1 twice counts twice.
"""
from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

REFERENCES_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "references"
LAW_DOCS = {"it-laws", "es-laws"}
COLUMNS = ["unit", "clause", "raw", "target_doc", "target", "kind", "line", "note"]

Key = tuple[str, str, str, str]


def gold_rows(directory: Path = REFERENCES_DIR) -> dict[str, list[dict[str, str]]]:
    """Labelled rows per source document (files `<doc>.tsv` or `<doc>-<part>.tsv`)."""
    out: dict[str, list[dict[str, str]]] = {}
    for path in sorted(directory.glob("*.tsv")):
        doc = path.stem if path.stem in LAW_DOCS or not path.stem[-1].isdigit() else path.stem.rsplit("-", 1)[0]
        with path.open(encoding="utf-8") as f:
            rows = list(csv.DictReader((ln for ln in f if not ln.startswith("#")), delimiter="\t",
                                       quoting=csv.QUOTE_NONE))
        out.setdefault(doc, []).extend(rows)
    return out


def target_key(target_doc: str, target: str) -> str:
    if target_doc == "external":
        return target.split(" art. ")[0].lower()
    return target


def gold_key(doc: str, row: dict[str, str]) -> Key:
    return (doc, row["unit"], row["target_doc"], target_key(row["target_doc"], row["target"]))


def citation_key(c: dict[str, Any]) -> Key:
    """The same key for an exported citation (DESIGN §7)."""
    s, t = c["source"], c["target"]
    if t["doc"] == "external":
        return (s["doc"], s["unit"], "external", target_key("external", t["name"]))
    target = t["clause"] if t["doc"] in LAW_DOCS and t.get("clause") else t["unit"]
    target = c.get("as_written", target)  # a curated correction is not the extractor's doing
    return (s["doc"], s["unit"], t["doc"], target)


@dataclass
class Score:
    doc: str
    gold: int
    found: int
    matched: int
    missed: list[Key]
    extra: list[Key]

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.gold if self.gold else 1.0


def score(citations: Iterable[dict[str, Any]], gold: dict[str, list[dict[str, str]]]) -> list[Score]:
    found_by_doc: dict[str, Counter[Key]] = {}
    for c in citations:
        found_by_doc.setdefault(c["source"]["doc"], Counter())[citation_key(c)] += 1
    out = []
    for doc, rows in gold.items():
        want = Counter(gold_key(doc, r) for r in rows)
        got = found_by_doc.get(doc, Counter())
        both = want & got
        out.append(Score(doc, sum(want.values()), sum(got.values()), sum(both.values()),
                         sorted((want - got).elements()), sorted((got - want).elements())))
    return out
