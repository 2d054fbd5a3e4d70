"""A concordance: the clause-level table pairing an older edition of the Laws with a newer one
(corpus/concordance.tsv pairs Spanish 2007 with Italian 2017; any pair the manifest names,
`concordances` on the newer edition's entry), and reference corrections.

A row maps an older clause (`older`) to a newer one (`newer`) with a relation. The most
specific row whose `older` id is an ancestor-or-self of an older id applies; `same` and
`changed` rows carry sub-clauses across by identical sub-ids (ES 20F5b → IT 20F5b) when that
clause exists in the newer edition. What a row says to a reader (its note, in each interface
language) is in the readers' tables beside it (`kb.corpus.tables`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..records.clauseid import ClauseId
from ..corpus.manifest import CORPUS_DIR, CorpusError
from ..corpus.library import Library
from ..corpus.tables import NOTES_LANG, Notes, note_in, notes, read_tsv  # noqa: F401 — read_tsv, note_in: their old home

KINDS = ("same", "moved", "split", "merged", "changed")  # then what is new in the newer edition, and what it removed
CARRY_SUB_IDS = ("same", "changed")
NEW_OR_REMOVED = re.compile(r"(?:new|removed)-in-(?P<edition>\w+)")


def relations(edition: str) -> tuple[str, ...]:
    """The relations of a concordance whose newer edition is `edition`, in their order."""
    return (*KINDS, f"new-in-{edition}", f"removed-in-{edition}")


RELATIONS = relations("2017")  # the first concordance's (2007 → 2017): the release's vocabulary


def relation_rank(relation: str) -> int:
    """Where a relation comes in `relations`' order, whatever the edition it names."""
    if relation in KINDS:
        return KINDS.index(relation)
    if NEW_OR_REMOVED.fullmatch(relation):
        return len(KINDS) + relation.startswith("removed-")
    return len(KINDS) + 2


OLDER, NEWER = "older", "newer"
KEY = (OLDER, NEWER)  # a row is named by the two clauses it pairs (its notes, kb.corpus.tables, by them)
COLUMNS = (OLDER, NEWER, "relation", f"marks_{OLDER}", f"marks_{NEWER}")  # the table's header


@dataclass(frozen=True)
class Row:
    older: str
    newer: str
    relation: str
    notes: Notes = ()  # what it says to a reader, in each language it is said in (English first)
    marks: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # (older, newer): the words that carry a change

    @property
    def note(self) -> str:
        """Its note in English."""
        return note_in(self.notes, NOTES_LANG)[1]


def ancestors(cid: str) -> list[str]:
    """`40B2ci` → [40B2ci, 40B2c, 40B2, 40B, 40]: most specific first. A closing
    paragraph descends from its clause: `69B-p2` → [69B-p2, 69B, 69]."""
    parsed = ClauseId.parse(cid)
    if parsed is None:
        return [cid]
    parts = [p for p in (parsed.sec, parsed.num, parsed.item, parsed.roman) if p]
    lineage = [parsed.art + "".join(parts[:k]) for k in range(len(parts), -1, -1)]
    return [cid, *lineage] if parsed.para else lineage


def carry(row: Row, below: str, exists: Callable[[str], bool]) -> str:
    """The newer clause an older id `row.older + below` stands at under `row`: `same` and
    `changed` rows carry the sub-id across when that newer clause exists; else `row.newer`."""
    if below and row.relation in CARRY_SUB_IDS and exists(row.newer + below):
        return row.newer + below
    return row.newer


class Concordance:
    def __init__(self, rows: list[Row], edition: str = ""):
        """`edition`: the newer edition's, which its `new-in-…` and `removed-in-…` rows name."""
        self.rows, self.edition = rows, edition
        self.by_older: dict[str, list[Row]] = {}
        self.by_newer: dict[str, list[Row]] = {}
        for r in rows:
            if r.older:
                self.by_older.setdefault(r.older, []).append(r)
            if r.newer:
                self.by_newer.setdefault(r.newer, []).append(r)

    @property
    def added(self) -> str:
        """The relation of what is new in the newer edition."""
        return relations(self.edition)[-2]

    @property
    def dropped(self) -> str:
        """The relation of what the newer edition removed."""
        return relations(self.edition)[-1]

    @classmethod
    def load(cls, path: Path = CORPUS_DIR / "concordance.tsv", edition: str | None = None) -> "Concordance":
        """A concordance table and its readers' notes; `edition`, the newer edition's (by default
        the one its `new-in-…` rows name): a relation naming another is a `CorpusError`."""
        table = read_tsv(path, COLUMNS)
        edition = edition or _edition_named(table)
        said = notes(path, table, KEY)
        rows = []
        for r in table:
            if r["relation"] not in relations(edition):
                raise CorpusError(f"{path}: unknown relation {r['relation']!r} for {r[OLDER]}→{r[NEWER]} "
                                  f"(relations: {', '.join(relations(edition))})")
            marks = tuple(tuple(m.strip() for m in r[f"marks_{side}"].split("|") if m.strip()) for side in KEY)
            rows.append(Row(r[OLDER], r[NEWER], r["relation"], said.get((r[OLDER], r[NEWER]), ()), marks))
        return cls(rows, edition)

    def rows_for(self, cid: str) -> tuple[list[Row], str] | None:
        """The rows that govern an older id (those of its most specific ancestor-or-self
        named in the table; several when it was split), and the part of the id below them."""
        for anc in ancestors(cid):
            if anc in self.by_older:
                return self.by_older[anc], cid[len(anc):]
        return None

    def row_for(self, cid: str) -> tuple[Row, str] | None:
        """The row that governs an older id (the first, when it was split), and the part of
        the id below the row's `older`."""
        found = self.rows_for(cid)
        return (found[0][0], found[1]) if found else None

    def parallels(self, cid: str) -> list[Row]:
        """Rows naming a newer clause or, failing that, its nearest ancestor."""
        for anc in ancestors(cid):
            if anc in self.by_newer:
                return self.by_newer[anc]
        return []


def _edition_named(table: list[dict[str, str]]) -> str:
    """The edition a table's `new-in-…`/`removed-in-…` rows name (the first of them)."""
    named = (NEW_OR_REMOVED.fullmatch(r["relation"]) for r in table)
    return next((m["edition"] for m in named if m), "")


Concordances = dict[tuple[str, str], Concordance]  # (older, newer) → the table pairing them


def first_concordance(concordances: Concordances, library: Library) -> Concordance:
    """The first pair's (`Library.pair`: 2007 → 2017), which the release and the cards name."""
    return concordances.get(library.pair or ("", ""), Concordance([]))


def load_concordances(corpus: Path, library: Library) -> Concordances:
    """Every concordance the manifest names, each read against its newer edition."""
    return {(p.older, p.newer): Concordance.load(corpus / p.table, library.edition(p.newer))
            for p in library.pairs if p.by_table}


@dataclass(frozen=True)
class Correction:
    doc: str
    ref: str
    reads_2007: str
    reads_2017: str
    note: str


def load_corrections(path: Path = CORPUS_DIR / "ref-corrections.tsv") -> dict[tuple[str, str], Correction]:
    """References the source itself gets wrong, keyed by (doc, ref as written)."""
    out = {}
    for r in read_tsv(path, ("doc", "ref", "reads_2007", "reads_2017", "note")):
        out[(r["doc"], r["ref"])] = Correction(r["doc"], r["ref"], r["reads_2007"], r["reads_2017"], r["note"])
    return out
