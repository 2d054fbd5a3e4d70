"""The tables of the data release (`kb release`), each a `kb.release.schema.Table` whose records
come from one generation of the build, read through its `KnowledgeBase` (the export, the graph,
the concordance and the editions it pairs, the situation index): what the site shows, as data.

Ids are DESIGN's (§3–§4); a unit or clause is also named by its node in the graph
(`it-laws:27`, `it-laws:27#27B1b`, as graph.json names it) and by its address on the site
(`/it-laws/27#27B1b`).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from ..records.citation import EXTERNAL
from ..editions.concordance import RELATIONS
from .schema import (STRING, STRINGS, Column, Record, Reference, Table, flag, listing, mapping, number,
                         shape_of, text)
from ..pipeline.generations import CORPUS_COPY
from ..pipeline.graph import LINK_TYPES, clause_node, target_node, unit_node
from ..corpus.library import LAWS, NORMS, OTHER_GAME, TIMEREF
from ..corpus.situations import ruling_law
from ..records.built import BuiltDocument
from ..readmodel.unitview import Ref
from ..corpus.urls import law_changes_url, situation_url, url_for

if TYPE_CHECKING:
    from ..readmodel.knowledge import KnowledgeBase

DOC_ID = {"pattern": r"^[a-z][a-z0-9-]*$"}
NODE = {"pattern": r"^[a-z][a-z0-9-]*:[^#]+(#.+)?$"}
URL = {"pattern": r"^/"}
DATE = {"format": "date", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
SHA256 = {"pattern": r"^[0-9a-f]{64}$"}
NOTES = {"additionalProperties": STRING}  # a note in each language it is written in: {"en": …, "it": …}


@dataclass(frozen=True)
class SourceText:
    """A document's text as the build read it (the generation's copy of the corpus file, itself
    the source as received, byte for byte)."""
    doc: str
    title: str
    edition: str
    file: str       # in the corpus
    original: str   # the file as received
    sha256: str
    bytes: int


def source_texts(kb: KnowledgeBase) -> tuple[SourceText, ...]:
    return tuple(_source_text(kb, d) for d in kb.store.documents.values())


def _source_text(kb: KnowledgeBase, d: BuiltDocument) -> SourceText:
    data = (kb.gen / CORPUS_COPY / d.source).read_bytes()
    return SourceText(d.id, d.title, d.edition, d.source, d.original,
                      hashlib.sha256(data).hexdigest(), len(data))


def _doc(name: str, about: str, null: bool = False) -> Column:
    return text(name, about, null, **DOC_ID)


def _node(name: str, about: str, null: bool = False) -> Column:
    return text(name, about, null, **NODE)


def _url(name: str, about: str, null: bool = False) -> Column:
    return text(name, about, null, **URL)


# ---------------------------------------------------------------- documents

DOCUMENT_FIELDS = ("id", "title", "lang", "kind", "edition", "issuer", "effective", "adopted", "cites", "maps_to",
                   "source", "original")


def document_rows(kb: KnowledgeBase) -> Iterator[Record]:
    texts = {t.doc: t for t in source_texts(kb)}
    for doc in kb.store.documents.values():
        d, text = doc.meta(), texts[doc.id]
        yield {**{k: d.get(k) for k in DOCUMENT_FIELDS}, "maps_to": kb.library.maps_to(doc.id), "sha256": text.sha256,
               "bytes": text.bytes, "units": len(doc.units), "clauses": sum(len(u.clauses) for u in doc.units),
               "url": f"/{doc.id}", "extra": _rest(d, DOCUMENT_FIELDS)}


def _rest(record: dict[str, Any], taken: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in taken}


DOCUMENTS = Table(
    "documents", "Documents", "The five texts (DESIGN §3): the Laws in Italian (2017) and Spanish (2007), the FIGB "
    "integrative norms, the time-reference table and the Burraco code, with the checksum of each source text.",
    (_doc("id", "the document's id"), text("title", "its title as printed"),
     text("lang", "its language (ISO 639-1)", pattern=r"^[a-z]{2}$"),
     text("kind", "laws, norms (integrative norms), timeref (time references) or code (another game's)",
          enum=[LAWS, NORMS, TIMEREF, OTHER_GAME]),
     text("edition", "its edition (a year)"), text("issuer", "who issued it", null=True),
     text("effective", "in force from (as the text states it)", null=True, **DATE),
     text("adopted", "adopted on (as the text states it)", null=True, **DATE),
     _doc("cites", "the document its bare Law numbers refer to", null=True),
     _doc("maps_to", "the edition the concordance maps this one's clauses to", null=True),
     text("source", "its text's file in the project's corpus"),
     text("original", "the source text's file as received"),
     text("sha256", "SHA-256 of the source text (the same bytes as received)", **SHA256),
     number("bytes", "size of the source text in bytes", minimum=0),
     number("units", "how many units it has", minimum=0), number("clauses", "how many clauses it has", minimum=0),
     _url("url", "its table of contents on the site"),
     mapping("extra", "the export's other fields for it (its names in each interface language, the names readers "
             "call it by, its groups of units, dates as printed…)")),
    ("id",), document_rows)


# ---------------------------------------------------------------- units and clauses

FOOTNOTE = shape_of(("marker", "text", "clauses"), marker=STRING, text=STRING, clause=STRING, clauses=STRINGS)
TABLE = shape_of(("header", "rows"), caption=STRING, at={"type": "integer"},
                 header={"type": "array", "items": STRINGS}, rows={"type": "array", "items": STRINGS})
NOTE = shape_of(("kind", "text"), kind=STRING, text=STRING, at={"type": "integer"})
UNIT_FIELDS = ("id", "kind", "title", "group", "text")


def unit_rows(kb: KnowledgeBase) -> Iterator[Record]:
    for d in kb.store.documents.values():
        for i, unit in enumerate(d.units, 1):
            u = unit.to_dict()
            yield {"node": unit_node(d.id, unit.id), "doc": d.id, **{k: u.get(k) for k in UNIT_FIELDS},
                   "footnotes": u["footnotes"], "position": i, "clauses": len(unit.clauses),
                   "url": url_for(d.id, unit.id), "extra": _rest(u, (*UNIT_FIELDS, "footnotes", "clauses"))}


UNITS = Table(
    "units", "Units", "What a page shows (DESIGN §4): a Law article, a definition, an integrative norm, an appendix, "
    "a time-reference topic, a Burraco article; its whole text and its footnotes.",
    (_node("node", "the unit's node in the graph: doc:unit"), _doc("doc", "its document"),
     text("id", "the unit's id in its document (27, def-chiamata-artificiale, 92-93, sipari, attacco-fuori-turno)"),
     text("kind", "article, definition, norm, appendix, topic…"), text("title", "its title", null=True),
     text("group", "the part of its document it belongs to (a chapter, the definitions, the appendices)", null=True),
     text("text", "plain text of the whole unit, noise removed"),
     listing("footnotes", "its footnotes, each with the clauses whose text carries its marker", FOOTNOTE),
     number("position", "its place in its document (1 = first)", minimum=1),
     number("clauses", "how many clauses it has", minimum=0), _url("url", "its page on the site"),
     mapping("extra", "the export's other fields for it (a definition's term, the Laws a norm is keyed to, dates "
             "of a norm…)")),
    ("node",), unit_rows, (Reference(("doc",), "documents", ("id",)),), unique=(("doc", "id"),))

CLAUSE_FIELDS = ("id", "parent", "label", "title", "text", "kind", "subtopic", "ref")


def clause_rows(kb: KnowledgeBase) -> Iterator[Record]:
    for d in kb.store.documents.values():
        for u in d.units:
            for i, clause in enumerate(u.clauses, 1):
                c = clause.to_dict()
                yield {"node": clause_node(d.id, u.id, clause.id), "doc": d.id, "unit": u.id,
                       **{k: c.get(k) for k in CLAUSE_FIELDS}, "display": u.heading(clause), "lang": d.lang,
                       "position": i, "tables": c.get("tables") or [], "notes": c.get("notes") or [],
                       "url": url_for(d.id, u.id, clause.id), "extra": _rest(c, (*CLAUSE_FIELDS, "tables", "notes"))}


CLAUSES = Table(
    "clauses", "Clauses", "The addressable parts of each unit (DESIGN §4): 27, 27B, 27B1, 27B1b for the Laws, a norm's "
    "paragraphs, a time-reference topic's entries; its text, tables and notes. The SQLite table has full-text "
    "search on its text and title (clauses_fts).",
    (_node("node", "the clause's node in the graph: doc:unit#clause (doc:unit for the unit's own clause)"),
     _doc("doc", "its document"), text("unit", "its unit"),
     text("id", "the clause's id: the compact form the Laws cite (27B1b, 20F5bii), a norm paragraph's "
          "numbering (8-1a2), a time-reference entry's topic and number (appello-1); also its anchor on the page"),
     text("parent", "the clause it belongs to", null=True),
     text("label", "its own marker as the text prints it, readable: B, 1, (a), (ii)"),
     text("display", "what it is called where it is shown: 27B1(b) for a Law clause, a time reference as written; "
          "empty for a unit's own clause"),
     text("title", "its heading, when the text gives one", null=True), text("text", "its text"),
     text("lang", "the language of its text (its document's)"),
     text("kind", "entry or situation (a time reference's), definition (a code's)…", null=True),
     text("subtopic", "a time-reference entry's subtopic", null=True),
     text("ref", "a time-reference entry's Law reference as written (2007 numbering)", null=True),
     number("position", "its place in its unit (1 = first)", minimum=1),
     listing("tables", "its tables, rows of cells", TABLE), listing("notes", "notes printed inside its text", NOTE),
     _url("url", "its place on the site (the unit's page, anchored at the clause)"),
     mapping("extra", "the export's other fields for it (a label the text dropped and the structure implies, a "
             "definition's sense, the Law clause a norm paragraph is labelled with…)")),
    ("node",), clause_rows,
    (Reference(("doc",), "documents", ("id",)), Reference(("doc", "unit"), "units", ("doc", "id"))))


# ---------------------------------------------------------------- citations and the graph

CITATION_KINDS = ["internal", "relative", "cross", "external", "integrates"]


def citation_rows(kb: KnowledgeBase) -> Iterator[Record]:
    for i, c in enumerate(kb.store.citations, 1):
        (doc, unit, clause), t, t17 = c.source, c.target, c.target_2017
        span = c.span or (None, None)
        found = c.resolved and t.doc != EXTERNAL
        yield {"id": i, "source_node": clause_node(doc, unit, clause), "source_doc": doc,
               "source_unit": unit, "source_clause": clause, "raw": c.raw, "kind": c.kind,
               "resolved": c.resolved, "where": c.where, "span_start": span[0], "span_end": span[1],
               "target_node": target_node(t), "target_doc": t.doc, "target_unit": t.unit,
               "target_clause": t.clause, "target_name": t.name,
               "target_title": (kb.store.title(t.doc, t.unit or "") or None) if found else None,
               "target_url": url_for(t.doc, t.unit or "", t.clause) if found else None,
               "target_2017_node": target_node(t17) if t17 else None,
               "target_2017_doc": t17.doc if t17 else None, "target_2017_unit": t17.unit if t17 else None,
               "target_2017_clause": t17.clause if t17 else None,
               "as_written": c.as_written, "correction": c.correction}


CITATIONS = Table(
    "citations", "Citations", "Every reference in the texts (DESIGN §5), where it is written and what it names: a "
    "clause of the same document (internal), one written without its article (relative), another document (cross), "
    "a norm's label (integrates), a text outside the corpus (external). A target the edition it is read against "
    "does not hold is unresolved; a time reference (2007 numbering) also reaches the 2017 clause the concordance "
    "gives (target_2017_…).",
    (number("id", "its place in the export's list (1 = first)", minimum=1),
     _node("source_node", "the clause it is written in, as a graph node"), _doc("source_doc", "its document"),
     text("source_unit", "its unit"), text("source_clause", "its clause"), text("raw", "the words that make it"),
     text("kind", "internal, relative, cross, integrates or external", enum=CITATION_KINDS),
     flag("resolved", "whether its target exists in the edition it is read against (always, for an external text)"),
     text("where", "the part of the clause it is read in: text, title, label, note, footnote, unit-title, ref",
          null=True),
     number("span_start", "where its words start in the clause's text (a character offset)", null=True, minimum=0),
     number("span_end", "where they end", null=True, minimum=0),
     text("target_node", "what it names, as a graph node (external:<name> for a text outside the corpus)"),
     _doc("target_doc", "the document it names (external: a text outside the corpus)"),
     text("target_unit", "the unit it names", null=True), text("target_clause", "the clause it names", null=True),
     text("target_name", "the external text's name", null=True),
     text("target_title", "the title of the unit it names, when it exists", null=True),
     _url("target_url", "where the target is on the site, when it exists", null=True),
     _node("target_2017_node", "a time reference's 2017 clause, through the concordance", null=True),
     _doc("target_2017_doc", "its document", null=True), text("target_2017_unit", "its unit", null=True),
     text("target_2017_clause", "its clause", null=True),
     text("as_written", "a reference the source gets wrong, as printed", null=True),
     text("correction", "the curated note that corrects it", null=True)),
    ("id",), citation_rows, (Reference(("source_doc",), "documents", ("id",)),))


def edge_rows(kb: KnowledgeBase) -> Iterator[Record]:
    g = kb.graph
    wanted = [(a, b, d) for a, b, d in g.edges(data=True) if d["type"] in LINK_TYPES]
    for i, (a, b, d) in enumerate(wanted, 1):
        src, dst = g.nodes[a], g.nodes[b]
        yield {"id": i, "type": d["type"], "source": a, "target": b, "source_doc": src.get("doc"),
               "source_unit": src.get("unit"), "source_clause": src.get("clause"), "target_doc": dst.get("doc"),
               "target_unit": dst.get("unit"), "target_clause": dst.get("clause"),
               "target_name": dst.get("title") if dst.get("kind") == EXTERNAL else None,
               "raw": d.get("raw"), "citation": d.get("citation"), "relation": d.get("relation"),
               "note": d.get("note") or None}


EDGES = Table(
    "edges", "Graph edges", "The cross-reference graph's typed links (DESIGN §5), between units and clauses named as "
    "graph nodes: cites (a clause → what its text cites), integrates (a norm → the Law clause it supplements), "
    "annotates (a time reference → the 2017 Law clause it times), parallel (an Italian 2017 clause ↔ a Spanish 2007 "
    "clause, from the concordance, both ways), defines (a definition → the clauses that use its term).",
    (number("id", "its place in the graph's list (1 = first)", minimum=1),
     text("type", "cites, integrates, annotates, parallel or defines", enum=list(LINK_TYPES)),
     _node("source", "the node it leaves"),
     _node("target", "the node it reaches (external:<name> for a text outside the corpus)"),
     _doc("source_doc", "the source's document"), text("source_unit", "its unit"),
     text("source_clause", "its clause (none: the unit itself)", null=True),
     _doc("target_doc", "the target's document (none: an external text)", null=True),
     text("target_unit", "its unit", null=True), text("target_clause", "its clause", null=True),
     text("target_name", "an external text's name", null=True),
     text("raw", "the words that make it (cites, integrates, annotates)", null=True),
     text("citation", "the citation's kind (cites, integrates)", null=True, enum=CITATION_KINDS),
     text("relation", "how the two clauses correspond (parallel): same, moved, split, merged, changed…", null=True),
     text("note", "what moved or changed in substance (parallel), in English", null=True)),
    ("id",), edge_rows)


# ---------------------------------------------------------------- editions

def concordance_rows(kb: KnowledgeBase) -> Iterator[Record]:
    for i, r in enumerate(kb.concordance.rows, 1):
        yield {"position": i, "es": r.older or None, "it": r.newer or None, "relation": r.relation, "note": r.note,
               "notes": dict(r.notes), "marks_es": list(r.marks[0]), "marks_it": list(r.marks[1])}


CONCORDANCE = Table(
    "concordance", "Concordance 2007 → 2017", "The curated clause-level table (DESIGN §6, corpus/concordance.tsv) "
    "that says where each clause of the Spanish 2007 Laws (es-laws) stands in the Italian 2017 Laws (it-laws): the "
    "most specific row whose es id is an ancestor-or-self of a 2007 clause applies; same and changed rows carry "
    "sub-clauses across by identical sub-ids.",
    (number("position", "its row in the table (1 = first)", minimum=1),
     text("es", "the 2007 clause (es-laws); none for what is new in 2017", null=True),
     text("it", "the 2017 clause (it-laws); none for what was removed in 2017", null=True),
     text("relation", "same, moved, split, merged, changed, new-in-2017 or removed-in-2017", enum=list(RELATIONS)),
     text("note", "what moved or changed in substance, in English"),
     mapping("notes", "the note in each language it is written in (en, it, es)", **NOTES),
     listing("marks_es", "the words of the 2007 text that carry the change", STRING),
     listing("marks_it", "the words of the 2017 text that carry the change", STRING)),
    ("position",), concordance_rows)


def change_rows(kb: KnowledgeBase) -> Iterator[Record]:
    view = kb.editions.changes()
    for i, c in enumerate(view.changes, 1):
        page = kb.changes_page.get(c.law)
        yield {"position": i, **c.to_dict(), "older_doc": view.pair.older, "newer_doc": view.pair.newer,
               "page": page, "url": law_changes_url(page, c.law) if page else None}


CHANGES = Table(
    "changes", "Changes 2007 → 2017", "What changed from the Spanish 2007 Laws to the Italian 2017 Laws, Law by Law: "
    "every row of the concordance that is not `same`, as /api/changes and the /changes pages give them.",
    (number("position", "its place in the list (by Law)", minimum=1),
     number("law", "the Law it belongs to (the 2017 number; the 2007 one for what was removed)", minimum=1),
     text("relation", "changed, moved, split, merged, new-in-2017 or removed-in-2017", enum=list(RELATIONS)),
     text("older", "the 2007 clause; none for what is new", null=True),
     text("newer", "the 2017 clause; none for what was removed", null=True),
     text("note", "what changed, in English"), mapping("notes", "the note in each language it is written in", **NOTES),
     _doc("older_doc", "the older edition"), _doc("newer_doc", "the newer edition"),
     text("page", "the page of the changes that holds it (laws-17-40)", null=True),
     _url("url", "the Law's changes on that page", null=True)),
    ("position",), change_rows, (Reference(("older_doc",), "documents", ("id",)),
                                 Reference(("newer_doc",), "documents", ("id",))))


# ---------------------------------------------------------------- the situation index

def situation_rows(kb: KnowledgeBase) -> Iterator[Record]:
    for s in kb.situations:
        lead = s.lead or (None, None, None)
        page = kb.situation_page[s.id]
        yield {"id": s.id, "name": s.name(s.says[0][0]), "names": {lang: list(p) for lang, p in s.says},
               "period": s.period, "law": ruling_law(s), "actors": list(s.actors), "acts": list(s.acts),
               "note": s.note, "lead_node": clause_node(*lead) if s.lead else None, "lead_doc": lead[0],
               "lead_unit": lead[1], "lead_clause": lead[2], "page": page, "url": situation_url(s.id, page)}


SITUATIONS = Table(
    "situations", "Situations", "The situation index (corpus/situations.tsv): what directors meet at the table, as "
    "people say it in Italian, Spanish and English, the period of the board it belongs to, and the norm that fixes "
    "the ruling in Italy (lead); the clauses that rule each are in situation_rules.",
    (text("id", "the situation's id"), text("name", "its name in the index's first language (Italian)"),
     mapping("names", "how people say it, in each language: its name first, then other ways",
             additionalProperties=STRINGS),
     text("period", "the period of the board it belongs to (before-round, auction, play…)"),
     number("law", "the Law that rules it first", minimum=1),
     listing("actors", "who does the act that defines it (none: any player)", STRING),
     listing("acts", "the acts and facts that define it", STRING), text("note", "why these clauses rule it"),
     _node("lead_node", "the norm that fixes the ruling in Italy, as a graph node (none: the Law itself)", null=True),
     _doc("lead_doc", "its document", null=True), text("lead_unit", "its unit", null=True),
     text("lead_clause", "its clause", null=True),
     text("page", "the index's page that holds it"), _url("url", "its entry on the site")),
    ("id",), situation_rows)


def situation_rule_rows(kb: KnowledgeBase) -> Iterator[Record]:
    entries = {e.id: e for e in kb.situation_index("it").entries}
    for s in kb.situations:
        for i, (target, rule) in enumerate(zip(s.targets, entries[s.id].rules), 1):
            yield {"situation": s.id, "position": i, "role": "law" if i <= len(s.laws) else "also",
                   "lead": target == s.lead, "node": clause_node(*target), "doc": rule.doc, "unit": rule.unit,
                   "clause": rule.clause, "label": rule.label, "title": rule.title, "edition": rule.edition,
                   "url": rule.url}


SITUATION_RULES = Table(
    "situation_rules", "Situation rules", "The clauses that rule each situation, most important first: the Law "
    "clauses of each edition (role law), then the norms and time references that rule or time it (role also); "
    "lead marks the norm that fixes the ruling in Italy.",
    (text("situation", "the situation"), number("position", "its place among the situation's clauses", minimum=1),
     text("role", "law (a Law clause) or also (a norm or a time reference)", enum=["law", "also"]),
     flag("lead", "whether it is the situation's lead norm"),
     _node("node", "the clause (or unit) as a graph node"), _doc("doc", "its document"), text("unit", "its unit"),
     text("clause", "its clause (none: the whole unit)", null=True),
     text("label", "what it is called: 27B1(b), a norm's number and paragraph, a topic's title"),
     text("title", "its unit's title"), text("edition", "its document's edition"), _url("url", "its place on the site")),
    ("situation", "position"), situation_rule_rows,
    (Reference(("situation",), "situations", ("id",)), Reference(("doc",), "documents", ("id",))))


# ---------------------------------------------------------------- norms and time references on the Laws

def attachment_rows(kb: KnowledgeBase) -> Iterator[Record]:
    for i, (doc, unit, kind, r) in enumerate(_attached(kb), 1):
        yield {"id": i, "kind": kind, "law_node": clause_node(doc, unit, r.at), "law_doc": doc, "law_unit": unit,
               "law_clause": r.at, "node": clause_node(r.doc, r.unit, r.clause), "doc": r.doc, "unit": r.unit,
               "clause": r.clause, "raw": r.raw, "ref": r.ref, "edition": r.edition, "title": r.title or None,
               "url": r.url}


def _attached(kb: KnowledgeBase) -> Iterator[tuple[str, str, str, Ref]]:
    """(Laws, article, norm|timeref, the reference) for what each Law article's page shows beside
    its clauses (kb.readmodel.unitview.links_of)."""
    for doc in kb.library.laws:
        for unit, u in kb.store.units_of(doc).items():
            if u.kind == "article":
                links = kb.links(doc, unit)
                yield from ((doc, unit, "norm", r) for r in links.norms)
                yield from ((doc, unit, "timeref", r) for r in links.timerefs)


ATTACHMENTS = Table(
    "attachments", "Norms and time references on the Laws", "The integrative norms and the time references shown "
    "beside each Law clause, in each edition: a norm keyed to a whole Law by its heading (law_clause none) or "
    "labelled with one of its clauses; a time reference (written in 2007 numbering) on the 2007 clause it names and "
    "on the 2017 clause the concordance gives.",
    (number("id", "its place in the list (by edition, Law and kind)", minimum=1),
     text("kind", "norm (an integrative norm) or timeref (a time reference)", enum=["norm", "timeref"]),
     _node("law_node", "the Law clause (or article) it attaches to, as a graph node"),
     _doc("law_doc", "the edition of the Laws"), text("law_unit", "the Law (article)"),
     text("law_clause", "the Law clause (none: the whole Law)", null=True),
     _node("node", "the norm or time reference, as a graph node"), _doc("doc", "its document"),
     text("unit", "its unit"), text("clause", "its clause (none: the whole unit)", null=True),
     text("raw", "the words that attach it (a reference, a label, a norm's heading)"),
     text("ref", "a time reference's Law reference as written", null=True),
     text("edition", "the edition of the Laws a time reference's numbers are written in", null=True),
     text("title", "its unit's title", null=True), _url("url", "its place on the site")),
    ("id",), attachment_rows,
    (Reference(("law_doc", "law_unit"), "units", ("doc", "id")), Reference(("doc", "unit"), "units", ("doc", "id"))))


TABLES = (DOCUMENTS, UNITS, CLAUSES, CITATIONS, EDGES, CONCORDANCE, CHANGES, SITUATIONS, SITUATION_RULES,
          ATTACHMENTS)
