"""Where a point reference lands in a unit's own numbering (norms, appendices, Burraco).

"punto 2", "punti (d) ed (e) sopra", "requisiti A, B, C e D relativi ai sistemi blu",
"Art. 4 punto 3": the text names a point by the tail of its numbering. Every clause whose
numbering ends with those components is a candidate; the reference's own words then
choose among them, in this order:
1. scope: the words after it name a part ("… dei sistemi blu", "… del preambolo") and the
   candidate lies under a clause titled so;
2. direction: "seguenti"/"successivo" keep the candidates after the citing clause;
   "sopra"/"precedente", or no direction word, those before it (a point the text names
   without saying where is one it has already given);
3. the nearest scope: the candidate that shares the deepest ancestor with the citing clause
   ("successivo punto 2)" in 78-5a1 is 78-5a2, not 78-2); a marker printed as the reference
   writes it ("a)", not "(a)") counts as one level nearer;
4. the letter's case as written ("(d)" is item d, not criterion D), an exact number over a
   longer one, then the nearest in the text.
Each filter applies only when it leaves a candidate.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .grammar import LAST, NEXT
from ..records.model import Clause, Unit

_COMPONENT = re.compile(r"\d+|[A-Za-z]+")
_CLASH = re.compile(r"_\d+$")          # `alert-2-1_2`: the second list numbered 1) 2)
_PARAGRAPH = re.compile(r"-p\d+$")      # a paragraph clause has no numbering


@dataclass(frozen=True)
class PointRef:
    ref: str                      # as the text writes it: "2", "(d)", "a2", "B"; or LAST, NEXT
    direction: str | None = None  # "before" | "after"
    scope: tuple[str, ...] = ()
    written: str = ""             # the marker as printed, "a)" or "(a)": it tells lists apart


def point_target(unit: Unit, p: PointRef, source: str | None = None) -> str | None:
    """The clause of `unit` the point names, seen from clause `source` (None: from outside)."""
    if p.ref in (LAST, NEXT):
        return _by_position(unit, p.ref, source)
    key = _COMPONENT.findall(p.ref)
    if not key:
        return None
    order = {c.id: i for i, c in enumerate(unit.clauses)}
    chains = _chains(unit)
    found = [c for c in unit.clauses if c.id != source and _ends_with(numbering(unit, c), key)] \
        or [c for c in unit.clauses if c.id != source and _elides(numbering(unit, c), key)]
    found = _narrow(found, lambda c: _under(chains[c.id], unit, p.scope)) if p.scope else found
    if source in order:
        here = order[source]
        found = _narrow(found, lambda c: (order[c.id] < here) == (p.direction != "after"))
    if not found:
        return None
    near = chains.get(source, [])
    styled = bool(p.written) and not p.written.isalnum()
    return max(found, key=lambda c: (_shared(chains[c.id], near) + (styled and c.label == p.written),
                                     _same_case(numbering(unit, c), key),
                                     -len(_COMPONENT.findall(numbering(unit, c))),
                                     -abs(order[c.id] - order.get(source, 0)))).id


def named_once(unit: Unit, ref: str) -> str | None:
    """The one clause of `unit` a point read from outside it names ("3b2", "5.8", "B"): numbered
    so exactly, else the only one whose numbering ends so (or elides to it); None when none does,
    or several do and nothing says which ("a" in a norm with 1a, 2a and 3a)."""
    key = [k.lower() for k in _COMPONENT.findall(ref)]
    if not key:
        return None
    exact = [c.id for c in unit.clauses if [x.lower() for x in _COMPONENT.findall(numbering(unit, c))] == key]
    found = exact or [c.id for c in unit.clauses if _ends_with(numbering(unit, c), key)] \
        or [c.id for c in unit.clauses if _elides(numbering(unit, c), key)]
    return found[0] if len(found) == 1 else None


def numbering(unit: Unit, c: Clause) -> str:
    """A clause's own numbering: its id without the unit and any clash or paragraph suffix."""
    if c.id == unit.id or _PARAGRAPH.search(c.id):
        return ""
    cid = _CLASH.sub("", c.id)
    return cid[len(unit.id) + 1:] if cid.startswith(unit.id + "-") else cid


def _ends_with(numbered: str, key: list[str]) -> bool:
    parts = _COMPONENT.findall(numbered)
    return len(parts) >= len(key) and [x.lower() for x in parts[-len(key):]] == [k.lower() for k in key]


def _elides(numbered: str, key: list[str]) -> bool:
    """"7a1g" for `78-7a1-1g` (7. a) 1) 1. g.): the text skipped a level it takes as read.
    The key's first and last components must be the numbering's."""
    parts = [x.lower() for x in _COMPONENT.findall(numbered)]
    want = [k.lower() for k in key]
    if len(want) < 2 or len(parts) <= len(want) or parts[0] != want[0] or parts[-1] != want[-1]:
        return False
    rest = iter(parts[1:-1])
    return all(any(x == w for x in rest) for w in want[1:-1])


def _by_position(unit: Unit, where: str, source: str | None) -> str | None:
    """LAST: the unit's last clause (its last paragraph); NEXT: the clause after `source` in its list."""
    if where == LAST:
        return unit.clauses[-1].id if len(unit.clauses) > 1 else None
    here = unit.clause(source or "")
    if here is None:
        return None
    siblings = [c.id for c in unit.clauses if c.parent == here.parent and not c.extra.get("paragraph")]
    i = siblings.index(here.id) if here.id in siblings else -1
    return siblings[i + 1] if 0 <= i < len(siblings) - 1 else None


def preceding_points(unit: Unit, source: str) -> list[str]:
    """"i punti precedenti": the main points before the one holding `source`, main being
    the outermost numbered level above it (line-up 5a: points 1–4)."""
    top = next((c for c in map(unit.clause, _chains(unit).get(source, [])[1:]) if c and c.label), None)
    if top is None:
        return []
    main = [c.id for c in unit.clauses if c.parent == top.parent and c.label]
    return main[:main.index(top.id)]


def _same_case(numbered: str, key: list[str]) -> bool:
    return _COMPONENT.findall(numbered)[-len(key):] == key


def _chains(unit: Unit) -> dict[str, list[str]]:
    """Each clause's ancestors from the unit down to itself."""
    out: dict[str, list[str]] = {}
    for c in unit.clauses:
        out[c.id] = (out.get(c.parent or "", []) if c.parent else []) + [c.id]
    return out


def _shared(a: list[str], b: list[str]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _under(chain: list[str], unit: Unit, words: tuple[str, ...]) -> bool:
    """Does a clause lie under one titled by a scope word ("blu", "verdi" ~ "Verde")?"""
    names = [(unit.clause(cid).title or "").lower() for cid in chain if unit.clause(cid)]
    return any(_same_word(n, w) for n in names for w in words)


def _same_word(name: str, word: str) -> bool:
    stem = min(len(name), len(word)) - (1 if min(len(name), len(word)) > 4 else 0)
    return stem >= 3 and name[:stem] == word[:stem] and abs(len(name) - len(word)) <= 1


def _narrow(found: list[Clause], keep) -> list[Clause]:
    kept = [c for c in found if keep(c)]
    return kept or found
