"""Readable terminal rendering of a unit for `kb show`."""
from __future__ import annotations

import shutil
import textwrap
from typing import Any

from ..citations.annotate import Segment, annotate, in_text_of, plain
from ..records.built import BuiltClause, BuiltDocument, BuiltTable, BuiltUnit
from ..records.citation import EXTERNAL, Citation
from ..records.clauseid import readable
from ..records.reading import clause_blocks
from ..records.store import Store


def render_unit(doc: BuiltDocument, unit: BuiltUnit, width: int | None = None, store: Store | None = None) -> str:
    """The unit for the terminal; with the store, each citation annotated with where it leads."""
    width = width or min(shutil.get_terminal_size((100, 24)).columns, 100)
    title = unit.title or "(senza titolo)"
    out = [f"{doc.id} {unit.id} — {title}", "=" * min(width, 72)]
    depth = unit.depths()
    hangs: dict[str, str] = {}
    citations = store.outgoing(doc.id, unit.id) if store else ()
    for c in unit.clauses:
        indent = hangs[c.parent or ""] if c.paragraph else "  " * depth[c.id]
        paragraphs = annotate(c.text, in_text_of(citations, c.id), store) if store else None
        lines, hangs[c.id] = _render_clause(unit, c, indent, width, paragraphs)
        out += lines
    if unit.footnotes:
        out.append("")
        for f in unit.footnotes:
            where = f.clauses or ((f.clause,) if f.clause else ())
            at = f" ({', '.join(readable(c) for c in where)})" if where else ""
            out += textwrap.wrap(f"{f.marker}{at} {f.text}", width, subsequent_indent="   ")
    return "\n".join(out)


def _render_clause(unit: BuiltUnit, c: BuiltClause, indent: str, width: int,
                   paragraphs: list[list[Segment]] | None = None) -> tuple[list[str], str]:
    """The clause's blocks in reading order: label (and title) first, then each paragraph and
    table hanging under it, then its notes; also the indent its paragraphs hang at."""
    label = unit.heading(c)
    if label and (c.ref is not None or c.kind == "entry"):
        label = f"[{label}]"
    hang = indent + " " * (2 if c.title else len(label) + 1 if label else 0)
    out: list[str] = []
    lead = f"{label} " if label else ""
    for block in clause_blocks(c):
        if block.kind == "title":
            out += textwrap.wrap(f"{lead}{block.text}".strip(), width, initial_indent=indent,
                                 subsequent_indent=indent + "  ")
        elif block.kind == "table":
            out += _indented(render_table(c.tables[block.index]), hang)
        elif block.kind == "note":
            note = c.notes[block.index]
            out += textwrap.wrap(f"[{note.kind}] {note.text}", width, initial_indent=hang, subsequent_indent=hang)
        else:
            text = plain(paragraphs[block.index]) if paragraphs and block.index < len(paragraphs) else block.text
            out += textwrap.wrap(lead + text, width, initial_indent=indent if lead else hang,
                                 subsequent_indent=hang)
        if block.kind in ("title", "paragraph"):
            lead = ""
    if lead:
        out.append(indent + label)
    return out, hang


def _indented(lines: list[str], indent: str) -> list[str]:
    return [indent + line for line in lines]


def render_table(table: BuiltTable) -> list[str]:
    rows = table.header + table.rows
    if not rows:
        return []
    ncol = max(len(r) for r in rows)
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(ncol)]

    def line(r: tuple[str, ...]) -> str:
        cells = [(r[i] if i < len(r) else "").ljust(widths[i]) for i in range(ncol)]
        return "│ " + " │ ".join(cells) + " │"

    rule = "├" + "┼".join("─" * (w + 2) for w in widths) + "┤"
    out = [table.caption] if table.caption else []
    out += [line(r) for r in table.header]
    if table.header:
        out.append(rule)
    out += [line(r) for r in table.rows]
    return out


def render_links(store: Store, doc_id: str, unit_id: str, width: int = 100) -> str:
    """The unit's outgoing citations and the citations that reach it."""
    out = []
    outgoing = store.outgoing(doc_id, unit_id)
    if outgoing:
        out += ["", f"Cites ({len(outgoing)}):"]
        out += [f"  {_where(c.source)} → {_target(store, c)}" for c in outgoing]
    incoming = store.incoming(doc_id, unit_id)
    if incoming:
        out += ["", f"Cited by ({len(incoming)}):"]
        out += [f"  {_target_of(c, doc_id, unit_id)} ← {c.source[0]} {_where(c.source)}"
                f" [{c.kind}] {c.raw!r}" for c in incoming]
    return "\n".join(out)


def _where(source: tuple[str, str, str]) -> str:
    _, unit, clause = source
    return readable(clause) if clause else unit


def _target(store: Store, c: Citation) -> str:
    t = c.target
    if t.doc == EXTERNAL:
        return f"{t.name} (external) {c.raw!r}"
    where = readable(t.clause) if t.clause else t.unit
    doc = "" if t.doc == c.source[0] else f"{t.doc} "
    title = store.title(t.doc, t.unit or "")
    state = "" if c.resolved else " UNRESOLVED"
    via = "".join(f" → {store.documents[t.doc].edition} {readable(t.clause or t.unit or '')}"
                  for t in c.onward())  # where a replaced edition's clause stands now
    return f"{doc}{where} {title}{state}{via} [{c.kind}] {c.raw!r}"


def _target_of(c: Citation, doc_id: str, unit_id: str) -> str:
    for t in (c.target, *c.onward()):
        if (t.doc, t.unit) == (doc_id, unit_id):
            return readable(t.clause) if t.clause else unit_id
    return unit_id


def render_result(result: Any) -> str:
    """Search results for the terminal: jump, suggestion, the situations told, then hits with snippets."""
    out = []
    if result.jump:
        out.append(f"→ {result.jump['doc']} {result.jump['label']} {result.jump['title']}  {result.jump['url']}")
    for c in result.choices:
        out.append(f"? {c['doc']} {c['label']} {c['title']}  {c['url']}")
    if result.suggestion:
        out.append(f"Forse cercavi / Quizás quiso decir: {result.suggestion}")
    for s in result.said:  # the situations the query tells, from the situation index
        out.append(f"≈ {s['name']}  {s['url']}")
    out.append(f"{result.total} unit(s)")
    for i, h in enumerate(result.hits, start=result.first):
        out.append(f"{i:2}. {h.doc} {h.label} — {h.title}  {h.url}")
        out.append("    " + _plain_snippet(h.snippet))
        for p in h.parallel:
            out.append(f"    ↔ {p['doc']} {p['label']} ({p['relation']})  {p['url']}")
    return "\n".join(out)


def _plain_snippet(snippet: str) -> str:
    import html
    return html.unescape(snippet.replace("<mark>", "«").replace("</mark>", "»")).replace("\n", " ")


def render_cite(result: Any) -> str:
    """A citation check for the terminal: each citation as written, its status and where it
    leads, with the start of its clause's text; then how many of each status."""
    out = []
    for i, c in enumerate(result.citations, start=1):
        out.append(f"{i:2}. {c.written}  [{c.start}-{c.end}]  {_said(c)}" + (f"  {c.target.url}" if c.target else ""))
        if c.target and c.target.text:
            out.append("    " + textwrap.shorten(c.target.text.replace("\n", " "), 110, placeholder=" …"))
    counts = ", ".join(f"{n} {status}" for status, n in result.summary.items())
    out.append(f"{len(result.citations)} citation(s)" + (f": {counts}" if counts else ""))
    return "\n".join(out)


def _said(c: Any) -> str:
    """A checked citation's status in words: "exists: it-laws 27B1(b) (2017) — LICITA INSUFFICIENTE"."""
    t = c.target
    if c.status == "external":
        return f"external: {c.id} (a text outside the corpus)"
    if t is None:
        other = " (nor has its other edition)" if c.kind == "law" else ""
        return f"no such clause: {c.checked} {readable(c.id)}{_nearest(c)}{other}"
    where = f"{_named(t)}" + (f" — {t.title}" if t.title else "")
    if c.status == "numbered-otherwise" and c.pair:
        return f"numbered otherwise: {where}; {_row(c.pair)}"
    if c.status == "not-in-edition":
        return f"not in {c.checked}: only in {where}" + (f"; {_row(c.pair)}" if c.pair else "")
    return f"exists: {where}" + (f"; {_row(c.pair)}" if c.pair else "")


def _named(clause: Any) -> str:
    return f"{clause.doc} {clause.label} ({clause.edition})"


def _row(pair: Any) -> str:
    """The concordance's row: "es-laws 13F (2007) ↔ it-laws 13C (2017), moved"; one side alone
    for a clause removed or added."""
    sides = " ↔ ".join(_named(side) for side in (pair.older, pair.newer) if side)
    return f"{sides}, {pair.relation}"


def _nearest(c: Any) -> str:
    """ — 27B has no 9: the nearest clause there is, and what it lacks."""
    near = c.nearest
    if near is None:
        return ""
    lacks = readable(c.id)[len(near.label):] if readable(c.id).startswith(near.label) else readable(c.id)
    return f" — {near.label} has no {lacks.strip() or readable(c.id)}"
