"""The norms (`ARTICOLO N – TITLE`) and appendices (`APPENDICE N`) the text divides into."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...records.model import Unit
from .body import build_body, build_forms
from .builder import ClauseBuilder
from .lines import body_lines
from .text import clean_inline, is_caps, iso_date


NORM_HEADING = re.compile(r"^(?:ARTICOLO|Art\.)\s+(\d{1,3})\s*[-–]\s*(.+)$")
RANGE_TITLE = re.compile(r"^ARTICOLO\s+(\d{1,3})$")
APPENDIX_HEADING = re.compile(r"^APPENDICE\s+(\d{1,2})$")

# DESIGN §4 fixes the appendix ids; a keyword of the printed title picks one.
APPENDIX_IDS = [
    ("SISTEMI", "sistemi"), ("PSICHICHE", "psichiche"), ("ALERT", "alert"),
    ("SIPARI", "sipari"), ("LINE-UP", "line-up"), ("VP", "tabelle-vp-imp"),
]
APPENDIX_IDS_BY_NUMBER = {1: "sistemi", 2: "psichiche", 3: "alert", 4: "sipari",
                          5: "line-up", 6: "moduli-cs", 7: "tabelle-vp-imp"}


@dataclass
class UnitSpec:
    kind: str                        # "norm" | "appendix"
    number: str                      # first Law number / appendix number
    title: str | None
    laws: list[str] = field(default_factory=list)
    statement: str | None = None     # `(Adottata il …)` as printed, without parentheses
    body: list[str] = field(default_factory=list)


def split_units(lines: list[str]) -> tuple[list[str], list[UnitSpec]]:
    front: list[str] = []
    units: list[UnitSpec] = []
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        norm, app = NORM_HEADING.match(s), APPENDIX_HEADING.match(s)
        if norm:
            title, laws = norm[2].strip(), [norm[1]]
            rng = RANGE_TITLE.match(title)
            if rng:                               # `ARTICOLO 92 – ARTICOLO 93`, title below
                laws = [str(n) for n in range(int(norm[1]), int(rng[1]) + 1)]
                j = next_text_line(lines, i)
                title, i = (lines[j].strip(), j) if j is not None else (None, i)
            units.append(UnitSpec("norm", norm[1], title, laws))
        elif app:
            spec = UnitSpec("appendix", app[1], None)
            j = next_text_line(lines, i)
            if j is not None and is_caps(lines[j]) and not lines[j].strip().startswith("("):
                spec.title, i = lines[j].strip(), j
                j = next_text_line(lines, i)
            if j is not None and re.match(r"^\(.+\)$", lines[j].strip()):
                spec.statement, i = lines[j].strip()[1:-1].strip(), j
            units.append(spec)
        elif units:
            units[-1].body.append(lines[i])
        else:
            front.append(lines[i])
        i += 1
    return front, units


def next_text_line(lines: list[str], i: int) -> int | None:
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    return j if j < len(lines) else None


def appendix_id(spec: UnitSpec) -> str:
    title = (spec.title or "").upper()
    for keyword, uid in APPENDIX_IDS:
        if re.search(rf"\b{re.escape(keyword)}\b", title):
            return uid
    return APPENDIX_IDS_BY_NUMBER.get(int(spec.number), f"appendice-{spec.number}")


def build_unit(spec: UnitSpec) -> Unit:
    if spec.kind == "norm":
        uid = spec.laws[0] if len(spec.laws) == 1 else f"{spec.laws[0]}-{spec.laws[-1]}"
        title = clean_inline(spec.title) if spec.title else None
        unit = Unit(id=uid, kind="norm", title=title, group="norme", extra={"law": spec.laws})
        builder = ClauseBuilder(uid, uid)
    else:
        uid = appendix_id(spec)
        unit = Unit(id=uid, kind="appendix", title=clean_inline(spec.title) if spec.title else None,
                    group="appendici", extra=appendix_extra(spec))
        builder = ClauseBuilder(uid, "")
    items = body_lines(spec.body, spec.laws)
    if any(it.kind == "row" and "<i>" in it.raw for it in items):
        build_forms(builder, items)
    else:
        build_body(builder, items)
    unit.clauses = builder.clauses
    return unit


def appendix_extra(spec: UnitSpec) -> dict:
    extra: dict = {"appendix": int(spec.number)}
    stated = spec.statement or ""
    adopted = iso_date(stated) if re.search(r"adottat", stated, re.I) else None
    extra["adopted"] = adopted
    extra["adopted_text"] = stated or None
    if adopted is None:
        # App. 7: no date, only "Conformi alla Normativa WBF"; its text says since when
        for line in spec.body:
            m = re.search(r"\bdal (\d{4})\b", line)
            if m:
                extra["since"] = m[1]
                extra["since_text"] = clean_inline(line)
                break
    return extra
