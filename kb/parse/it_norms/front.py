"""The front matter: the title block (meta), the PREMESSA with its change log and definitions."""
from __future__ import annotations

import re

from ...records.model import Clause, Unit
from ..kit.paragraphs import add_paragraph, joined, runs
from .text import clean_inline, ends_statement, heading_slug, is_caps, iso_date
from .units import APPENDIX_IDS_BY_NUMBER


def build_front(lines: list[str]) -> tuple[Unit | None, dict]:
    """Title block → meta; PREMESSA (+ DEFINIZIONI) → the `premessa` front unit."""
    bold = [i for i, l in enumerate(lines) if l.strip().startswith("**") or l.strip().endswith("**")]
    if bold:
        head, rest = lines[: bold[0]], lines[bold[-1] + 1:]
    else:
        k = next((i for i, l in enumerate(lines) if is_caps(l) and l.strip().startswith("PREMESSA")), 0)
        head, rest = lines[:k], lines[k:]
    meta = title_block_meta(paragraphs(head))
    paras = paragraphs(rest)
    if not paras:
        return None, meta
    unit = Unit(id="premessa", kind="front", title=paras[0], group="front")
    root = Clause(id="premessa", parent=None, label="", text="")
    unit.clauses.append(root)
    section, term = root, None
    changes = []
    for k, p in enumerate(paras[1:], 1):
        nxt = paras[k + 1] if k + 1 < len(paras) else None
        if is_caps(p):
            section = Clause(id=f"premessa-{heading_slug(p)}", parent="premessa", label="", text="", title=p)
            unit.clauses.append(section)
            term = None
            continue
        m = re.match(r"^(\d{1,2}/\d{1,2}/\d{4}):\s*(.+)$", p)
        if m:
            changes.append({"date": iso_date(m[1]), "date_text": m[1], "text": m[2]})
        if section.title and section.title.upper().startswith("DEFINIZION") \
                and not ends_statement(p) and len(p.split()) <= 6 and nxt and not is_caps(nxt):
            term = Clause(id=f"premessa-def-{heading_slug(p)}", parent=section.id, label="",
                          text="", title=p, extra={"term": p})
            unit.clauses.append(term)
            continue
        target = term or section
        target.text = add_paragraph(target.text, p)
    meta["changes"] = changes
    return unit, meta


def paragraphs(lines: list[str]) -> list[str]:
    return [clean_inline(joined(block)) for block in runs(lines)]


def title_block_meta(paras: list[str]) -> dict:
    meta: dict = {"title_block": paras}
    edition = next((p for p in paras if p.startswith("Edizione")), None)
    if edition:
        meta["edition_text"] = edition
    text = " ".join(paras)
    meta["deliberations"] = [
        {"number": m[1], "date": iso_date(m[2]), "text": m[0]}
        for m in re.finditer(r"Delibera(?: CF)? n\. (\d+/\d{4}) del (\d{1,2}/\d{1,2}/\d{4}|\d{1,2} [a-z]+ \d{4})", text)]
    return meta


def link_changes(changes: list[dict], units: list[Unit]) -> None:
    """Name the units each change-log entry concerns; give norms their stated date."""
    by_id = {u.id: u for u in units}
    for entry in changes:
        ids: list[str] = []
        m = re.search(r"articol[oi]\s+(\d+(?:\s*(?:,|e)\s*\d+)*)", entry["text"])
        if m:
            ids += [n for n in re.findall(r"\d+", m[1]) if n in by_id]
        ids += [uid for uid in APPENDIX_IDS_BY_NUMBER.values()
                if uid in by_id and re.search(rf"\b{re.escape(uid)}\b", entry["text"], re.I)]
        entry["units"] = ids
        for uid in ids:
            unit = by_id[uid]
            if unit.kind == "norm":
                unit.extra["effective"] = entry["date"]
                unit.extra["effective_text"] = f"{entry['date_text']}: {entry['text']}"
