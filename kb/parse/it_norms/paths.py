"""Marker values in sequence (`a` then `b`, `1.1` then `1.2`) and the id path they make."""
from __future__ import annotations

import re


def is_next(a: str, b: str) -> bool:
    ma, mb = re.match(r"^(.*?)(\d+)$", a), re.match(r"^(.*?)(\d+)$", b)
    if ma and mb:
        return ma[1] == mb[1] and int(mb[2]) == int(ma[2]) + 1
    if len(a) == 1 and len(b) == 1 and a.isalpha() and b.isalpha():
        return ord(b) == ord(a) + 1
    return False


def next_value(a: str) -> str:
    m = re.match(r"^(.*?)(\d+)$", a)
    if m:
        return f"{m[1]}{int(m[2]) + 1}"
    return chr(ord(a) + 1) if len(a) == 1 else a


def is_start(v: str) -> bool:
    return v in ("a", "A") or bool(re.match(r"^(.*\D)?1$", v))


def join_path(components: list[tuple[str, str]]) -> str:
    """(kind, text) components → the path part of a clause id (see module doc)."""
    parts: list[tuple[str, str]] = []           # (kind, text)
    for kind, text in components:
        if parts and kind == "dec" and text.startswith(parts[-1][1] + "."):
            parts[-1] = (kind, text)               # 5 then 5.8 → 5.8
        else:
            parts.append((kind, text))
    out = ""
    prev_kind = ""
    for kind, text in parts:
        if out and ("slug" in (kind, prev_kind) or (out[-1].isdigit() and text[0].isdigit())):
            out += "-"
        out += text
        prev_kind = kind
    return out
