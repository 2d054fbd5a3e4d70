"""Cleaning: markdown emphasis, HTML paragraphs and superscripts out, footnote markers kept."""
from __future__ import annotations

import re

from ...common.text import normalize_spaces, strip_bold


ORDINAL = re.compile(r"(\d)\s*\^([a-zo])(?![A-Za-z])")
STRAY_SUPERSCRIPT = re.compile(r"\^(?!\[)[A-Za-z]+")
HTML_TAG = re.compile(r"</?p>")


def clean(s: str) -> str:
    """Markdown emphasis, HTML paragraphs and superscripts out; footnote markers kept."""
    s = strip_bold(s).replace("*", "")
    s = HTML_TAG.sub(" ", s)
    s = ORDINAL.sub(r"\1\2", s)
    s = STRAY_SUPERSCRIPT.sub("", s)
    return normalize_spaces(s)
