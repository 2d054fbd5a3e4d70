"""Citation extraction measured against the labelled reference set (tests/data/references).

The set was written by reading the texts. A reference is compared on
(source doc, source unit, target doc, target): the target is the clause id
when the reference names one (a Law clause, a norm's "punto 3", Burraco's
"art. 24 punto 2"), else the unit id (a whole norm, a definition, a topic),
and the text's name (without an article number) for an external text.
Multisets: a line citing 12C1 twice counts twice.
"""
from __future__ import annotations

import csv
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

REFERENCES_DIR = Path(__file__).resolve().parent.parent / "tests" / "data" / "references"
COLUMNS = ["unit", "clause", "raw", "target_doc", "target", "kind", "line", "note"]

Key = tuple[str, str, str, str]


def gold_rows(directory: Path = REFERENCES_DIR) -> dict[str, list[dict[str, str]]]:
    """Labelled rows per source document (files `<doc>.tsv` or `<doc>-<part>.tsv`)."""
    out: dict[str, list[dict[str, str]]] = {}
    for path in sorted(directory.glob("*.tsv")):
        doc = re.sub(r"-\d+$", "", path.stem)  # it-laws-1.tsv and it-laws-2.tsv are parts of it-laws
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
    target = t.get("clause") or t["unit"]
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


# ---------------------------------------------------------------- search

QUERIES_DIR = REFERENCES_DIR.parent


@dataclass(frozen=True)
class JudgedQuery:
    query: str
    lang: str | None
    kind: str
    relevant: dict[tuple[str, str], int]  # (doc, unit) → grade 1..3


def judged_queries(directory: Path = QUERIES_DIR) -> list[JudgedQuery]:
    out = []
    for path in sorted(directory.glob("queries*.tsv")):
        with path.open(encoding="utf-8") as f:
            for r in csv.DictReader((ln for ln in f if not ln.startswith("#")), delimiter="\t",
                                    quoting=csv.QUOTE_NONE):
                rel = {}
                for item in r["relevant"].split(","):
                    ref, grade = item.strip().rsplit("=", 1)
                    doc, unit = ref.split(":", 1)
                    rel[(doc, unit)] = int(grade)
                out.append(JudgedQuery(r["query"], None if r["lang"] == "-" else r["lang"], r["kind"], rel))
    return out


@dataclass
class QueryScore:
    query: JudgedQuery
    rr: float       # 1/rank of the first unit graded 3 in the top 10, else 0
    recall: float   # share of the units graded 2 or 3 found in the top 10
    ranked: list[tuple[str, str]]


def score_query(q: JudgedQuery, ranked: list[tuple[str, str]], k: int = 10,
                shown: Iterable[tuple[str, str]] = ()) -> QueryScore:
    """MRR counts only the hits themselves; recall also counts the parallel Law shown
    beside a hit (the other edition's article, linked on the result)."""
    top = ranked[:k]
    best = {u for u, g in q.relevant.items() if g == 3}
    rr = next((1.0 / (i + 1) for i, u in enumerate(top) if u in best), 0.0)
    wanted = {u for u, g in q.relevant.items() if g >= 2}
    recall = len(wanted & (set(top) | set(shown))) / len(wanted) if wanted else 1.0
    return QueryScore(q, rr, recall, top)


def search_scores(engine: Any, queries: list[JudgedQuery], k: int = 10) -> list[QueryScore]:
    """Run every judged query (in its user's language) and score the top k."""
    out = []
    for q in queries:
        hits = engine.search(q.query, ui=q.lang, limit=k).hits
        shown = [(p["doc"], p["unit"]) for h in hits for p in h.parallel]
        out.append(score_query(q, [(h.doc, h.unit) for h in hits], k, shown))
    return out


def summarize(scores: list[QueryScore]) -> dict[str, dict[str, float]]:
    """MRR@10 and recall@10 overall and per query kind."""
    groups: dict[str, list[QueryScore]] = {"all": scores}
    for s in scores:
        groups.setdefault(s.query.kind, []).append(s)
    return {k: {"n": len(v), "mrr": sum(s.rr for s in v) / len(v), "recall": sum(s.recall for s in v) / len(v)}
            for k, v in groups.items()}
