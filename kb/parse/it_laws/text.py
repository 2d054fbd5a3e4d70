"""The articles' text: list dashes, bold and footnote asterisks, stray spacing taken out."""
from __future__ import annotations

import re

from ...common.text import normalize_spaces, strip_bold


DASH = re.compile(r"^(\s*)-\s+")


TRAILING_NUMBER = re.compile(r"^(?P<label>\D.*?)\s+(?P<value>\d[\d.]*)$")


def bare(s: str) -> str:
    """Text without bold and footnote asterisks, spaces normalised."""
    return normalize_spaces(s.replace("*", ""))


def clean_text(raw: str) -> str:
    """Clause text without markdown residue, footnote markers or stray spacing."""
    paragraphs = []
    for part in raw.split("\n"):
        s = bare(strip_bold(part))
        s = DASH.sub("", s)
        s = re.sub(r"\s+([,.;])", r"\1", s)
        if s:
            paragraphs.append(s)
    return "\n".join(paragraphs)
