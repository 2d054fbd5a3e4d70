"""Cleaning the norms' text: markup residue, sentence ends, dates, heading slugs."""
from __future__ import annotations

import re

from ...common.text import italian_date, normalize_spaces, slugify


SUITS = {"♣": " fiori ", "♦": " quadri ", "♥": " cuori ", "♠": " picche "}


def clean_inline(s: str) -> str:
    """Markup residue out: LaTeX, `^h` superscripts, `<i>`, italic/bold asterisks."""
    s = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"\1/\2", s)
    s = re.sub(r"(?<!\\)\$([^$]*)\$", r"\1", s)          # $…$ inline maths
    s = s.replace("\\$", "$")
    s = re.sub(r"\s*\^\s*([A-Za-z]+)", r"\1", s)          # 1 ^h 00 ^m → 1h 00m
    s = re.sub(r"</?i>", "", s)
    s = re.sub(r"\*+(?=\()", " ", s)                      # Multi *(vedi note)
    s = re.sub(r"\(\*\)|\*+", lambda m: m.group(0) if m.group(0) == "(*)" else "", s)
    return normalize_spaces(s)


def ends_statement(s: str) -> bool:
    return bool(re.search(r"[.;:!?…,][\"'»”]?$", s.rstrip()))


def ends_like_sentence(s: str) -> bool:
    """`ends_statement`, except for a closing abbreviation (`Incontri a K.O.`)."""
    if re.search(r"(?:\b[A-Z]\.){2,}$", s.rstrip()):
        return False
    return ends_statement(s)


def iso_date(text: str) -> str | None:
    m = re.search(r"(\d{1,2})/(\d{1,2})/(\d{4})", text)
    if m:
        return f"{m[3]}-{int(m[2]):02d}-{int(m[1]):02d}"
    m = re.search(r"(\d{1,2}) ([a-z]+) (\d{4})", text.lower())
    return italian_date(m[1], m[2], m[3]) if m else None


def heading_slug(title: str) -> str:
    t = re.sub(r"\([^)]*\)", " ", title)
    for sym, word in SUITS.items():
        t = t.replace(sym, word)
    return slugify(t) or "sezione"


def ends_with_colon(s: str) -> bool:
    return s.rstrip().endswith(":")


def is_caps(s: str) -> bool:
    letters = [c for c in s if c.isalpha()]
    return len(letters) >= 3 and all(c.isupper() for c in letters)
