"""`kb check`: consistency of a built knowledge base.

Each check reads the export (the stable view) and yields problems as
"doc/unit#clause: message" lines; an empty list means the corpus is sound.
The reading-order check also reads each document's source text (`kb.pipeline.source_order`).
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any, Iterator

from ..records.clauseid import ClauseId
from ..corpus.tables import read_tsv
from ..corpus.manifest import CORPUS_DIR, load_manifest
from ..records.reading import Block
from .source_order import document_order

# Residue that must never survive cleaning, whatever the document.
NOISE = [
    (re.compile(r"\*\*"), "markdown bold `**`"),
    (re.compile(r"\|"), "table pipe `|`"),
    (re.compile(r"-{3,}\s*\|?$|^\|?\s*-{3,}"), "table rule `---`"),
    (re.compile(r"\x00"), "page-header cut mark"),
    (re.compile(r"FEDERAZIONE ITALIANA GIOCO BRIDGE\s*$|NUOVA VERSIONE IN VIGORE DAL|Modificato ed approvato con delibera"), "running page header"),
    (re.compile(r"\bpag\.?\s*\d+\s*$", re.I), "table-of-contents page number"),
    (re.compile(r"^\s*-\s"), "list prefix `- `"),
    (re.compile(r"</?[a-z]+>"), "HTML tag"),
    (re.compile(r"\$|\\frac|\^"), "LaTeX or superscript residue"),
]

SEQUENCE_LEVELS = ("sec", "num", "item", "roman")
ROMANS = ["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"]


def check(export: dict[str, Any], explained: dict[tuple[str, str, str, str], str] | None = None,
          sources: dict[str, str] | None = None) -> list[str]:
    """All problems of the export; `sources` maps document ids to source texts (default: the corpus)."""
    return [line for line, ok in report(export, explained, sources) if not ok]


def report(export: dict[str, Any], explained: dict[tuple[str, str, str, str], str] | None = None,
           sources: dict[str, str] | None = None) -> list[tuple[str, bool]]:
    """Every line `kb check` prints, with whether it is fine (listed) or a problem."""
    lines = [(line, False) for doc in export["documents"] for line in check_document(doc)]
    return lines + unresolved(export, explained or {}) + reading_order(export, sources)


def unresolved(export: dict[str, Any], explained: dict[tuple[str, str, str, str], str]
               ) -> list[tuple[str, bool]]:
    """Every unresolved citation with its source location, and whether it is explained."""
    out = []
    for c in export["citations"]:
        if c["resolved"]:
            continue
        s, t = c["source"], c["target"]
        key = (s["doc"], s["unit"], s["clause"], c["raw"])
        why = explained.get(key)
        where = f"{s['doc']}/{s['unit']}#{s['clause']}"
        target = f"{t['doc']}/{t.get('unit')}#{t.get('clause')}"
        out.append((f"{where}: unresolved citation {c['raw']!r} → {target}" + (f" (explained: {why})" if why else ""),
                    why is not None))
    return out


def load_explained(path: Path = CORPUS_DIR / "unresolved.tsv") -> dict[tuple[str, str, str, str], str]:
    return {(r["doc"], r["unit"], r["clause"], r["raw"]): r["why"]
            for r in read_tsv(path, ("doc", "unit", "clause", "raw", "why"))}


def load_sources(corpus_dir: Path = CORPUS_DIR) -> dict[str, str]:
    """Each document's source text, by document id."""
    return {e.id: e.read() for e in load_manifest(corpus_dir)}


def reading_order(export: dict[str, Any], sources: dict[str, str] | None = None) -> list[tuple[str, bool]]:
    """Every unit read out of source order (not ok), and every block whose text its source does
    not hold (ok: listed, not failed; its order cannot be checked). Documents without a source
    text are skipped."""
    sources = load_sources() if sources is None else sources
    return [line for doc in export["documents"] if doc["id"] in sources
            for line in document_reading_order(doc, sources[doc["id"]])]


def document_reading_order(doc: dict[str, Any], source: str) -> Iterator[tuple[str, bool]]:
    """`reading_order` for one document and its source text."""
    for order in document_order(source, doc["units"]):
        where = f"{doc['id']}/{order.unit}"
        if order.late is not None:
            late = f"{doc['id']}/{order.late_unit}#" if order.late_unit else ""
            yield order_problem(where, order.early, order.late, late), False
        for block in order.missing:
            yield f"{where}#{block.clause}: {block.kind} {_start(block)} is not in the source text", True


def order_problem(where: str, early: Block | None, late: Block, late_where: str = "") -> str:
    """`early` is read before `late`, which the source prints first (no `early`: `late` is read
    after lines the source prints after it, in its unit or the units before it)."""
    if early is None:
        return f"{where}#{late.clause}: {_start(late)} is read after lines that follow it in the source"
    return (f"{where}#{early.clause}: {_start(early)} is read before a line that precedes it "
            f"in the source ({late_where}{late.clause} {late.kind}: {_start(late)})")


def _start(block: Block, n: int = 40) -> str:
    """The start of a block's first line, quoted."""
    line = block.text.split("\n")[0]
    return f'"{line[:n]}…"' if len(line) > n else f'"{line}"'


def check_document(doc: dict[str, Any]) -> Iterator[str]:
    d = doc["id"]
    if not doc["units"]:
        yield f"{d}: no units"
    for uid, n in Counter(u["id"] for u in doc["units"]).items():
        if n > 1:
            yield f"{d}/{uid}: unit id used {n} times"
    yield from article_gaps(doc)
    for unit in doc["units"]:
        where = f"{d}/{unit['id']}"
        yield from clause_ids(where, unit)
        if not unit_has_content(unit):
            yield f"{where}: empty unit"
        for field, text in unit_strings(unit):
            for pattern, what in NOISE:
                if any(pattern.search(line) for line in text.split("\n")):
                    yield f"{where}{field}: leftover {what}: {text[:60]!r}"
        if doc["kind"] == "laws" and unit["kind"] == "article":
            yield from clause_gaps(where, unit)


def unit_has_content(unit: dict[str, Any]) -> bool:
    return any(c["text"].strip() or c.get("tables") for c in unit["clauses"])


def unit_strings(unit: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """Every human-readable string of a unit, with where it sits."""
    if unit.get("title"):
        yield " title", unit["title"]
    for c in unit["clauses"]:
        at = f"#{c['id']}"
        yield at, c["text"]
        if c.get("title"):
            yield at + " title", c["title"]
        for t in c.get("tables", []):
            for row in t["header"] + t["rows"]:
                for cell in row:
                    yield at + " table", cell
            if t.get("caption"):
                yield at + " caption", t["caption"]
        for n in c.get("notes", []):
            yield at + " note", n["text"]
    for f in unit["footnotes"]:
        yield " footnote", f["text"]


def clause_ids(where: str, unit: dict[str, Any]) -> Iterator[str]:
    ids = [c["id"] for c in unit["clauses"]]
    for cid, n in Counter(ids).items():
        if n > 1:
            yield f"{where}#{cid}: clause id used {n} times"
    known = set(ids)
    for c in unit["clauses"]:
        if c["parent"] is not None and c["parent"] not in known:
            yield f"{where}#{c['id']}: parent {c['parent']} does not exist"
    for f in unit["footnotes"]:
        for cid in f.get("clauses") or ([f["clause"]] if f.get("clause") else []):
            if cid not in known:
                yield f"{where}: footnote {f['marker']} on unknown clause {cid}"


def article_gaps(doc: dict[str, Any]) -> Iterator[str]:
    """Articles numbered 1..n with no gap, except gaps the manifest declares."""
    numbers = [int(u["id"]) for u in doc["units"] if u["kind"] == "article" and u["id"].isdigit()]
    if not numbers:
        return
    declared = {int(g) for g in doc.get("gaps", {})}
    missing = sorted(set(range(1, max(numbers) + 1)) - set(numbers) - declared)
    if missing:
        yield f"{doc['id']}: articles missing: {', '.join(map(str, missing))}"
    if numbers != sorted(numbers):
        yield f"{doc['id']}: articles out of order"


def clause_gaps(where: str, unit: dict[str, Any]) -> Iterator[str]:
    """Siblings of one level run A, B, C … / 1, 2, 3 … / a, b, c … / i, ii, iii …"""
    children: dict[tuple[str | None, str], list[str]] = {}
    for c in unit["clauses"]:
        cid = ClauseId.parse(c["id"])
        if cid is None:
            yield f"{where}#{c['id']}: not a Law clause id"
            continue
        level = next((lv for lv in reversed(SEQUENCE_LEVELS) if getattr(cid, lv)), None)
        if level and not cid.para:
            children.setdefault((c["parent"], level), []).append(getattr(cid, level))
    for (parent, level), markers in children.items():
        expected = _sequence(level, len(markers))
        if markers != expected:
            yield f"{where}#{parent}: {level} markers {' '.join(markers)} (expected {' '.join(expected)})"


def _sequence(level: str, n: int) -> list[str]:
    if level == "sec":
        return [chr(ord("A") + i) for i in range(n)]
    if level == "num":
        return [str(i + 1) for i in range(n)]
    if level == "item":
        return [chr(ord("a") + i) for i in range(n)]
    return ROMANS[:n]
