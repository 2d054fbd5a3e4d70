"""Text helpers every parsing profile shares: folding, slugs, markdown residue, tables."""
from __future__ import annotations

import re
import unicodedata
from typing import Callable, TypeVar

T = TypeVar("T")

_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def fold_accents(s: str) -> str:
    """`Perché è` → `Perche e` (NFKD, combining marks dropped)."""
    if s.isascii():  # most words: nothing to fold (NFKD leaves ASCII as it is)
        return s
    nfkd = unicodedata.normalize("NFKD", s)
    return "".join(ch for ch in nfkd if not unicodedata.combining(ch))


def slugify(s: str) -> str:
    """DESIGN §4 slugs: lower case, accents folded, runs of non-alphanumerics → `-`."""
    return _NON_ALNUM.sub("-", fold_accents(s).lower()).strip("-")


def normalize_spaces(s: str) -> str:
    """Collapse runs of whitespace (NBSP included) to one space and trim."""
    return re.sub(r"\s+", " ", s.replace("\u00a0", " ")).strip()


def strip_bold(s: str) -> str:
    """Remove markdown `**` / `__` emphasis markers (never semantic in these texts)."""
    return s.replace("**", "").replace("__", "")


_PIPE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")


def is_pipe_separator(line: str) -> bool:
    """`|---|---|` markdown table separator rows."""
    return bool(_PIPE_SEP.match(line))


def is_pipe_row(line: str) -> bool:
    s = line.strip()
    return s.startswith("|") and s.endswith("|") and len(s) > 1


def pipe_cells(line: str) -> list[str]:
    """Cells of a markdown pipe row, markdown residue removed, spaces normalised."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|"):
        s = s[:-1]
    return [normalize_spaces(strip_bold(c)) for c in s.split("|")]


def ends_sentence(s: str) -> bool:
    """Does this line end a sentence (so a following line is a new paragraph)?"""
    return bool(re.search(r"[.:;!?)\]»”\"]\s*\**\s*$", s.rstrip()))


def remove_blocks(lines: list[str], block: list[re.Pattern[str]]) -> list[tuple[int, str]]:
    """Drop every occurrence of a fixed multi-line block (blank lines between its lines ignored).

    `block` is the block's non-blank lines as patterns; a suffix of it may
    stand alone (a running header printed without its first line). Returns the
    surviving lines with their 0-based source positions, so callers can tell
    where a block was cut (and re-join a sentence or table row across it).
    """
    out: list[tuple[int, str]] = []
    i = 0
    n = len(lines)
    while i < n:
        end = _match_block(lines, i, block)
        if end is None:
            out.append((i, lines[i]))
            i += 1
        else:
            out.append((i, "\x00"))  # marks where a block was cut
            i = end
    return out


def _match_block(lines: list[str], i: int, block: list[re.Pattern[str]]) -> int | None:
    for start in range(len(block)):
        j = i
        ok = True
        for k, pat in enumerate(block[start:]):
            if k:
                while j < len(lines) and not lines[j].strip():
                    j += 1
            if j >= len(lines) or not pat.match(lines[j].strip()):
                ok = False
                break
            j += 1
        if ok and len(block) - start >= 2:
            return j
    return None


ROMAN = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "x": 10}


def roman_value(s: str) -> int | None:
    return ROMAN.get(s.lower())


ITALIAN_MONTHS = {m: i for i, m in enumerate(
    "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre "
    "novembre dicembre".split(), 1)}


def italian_date(day: str | int, month: str, year: str | int) -> str | None:
    """`7`, `Gennaio`, `2011` → `2011-01-07`; None for a word that is no Italian month."""
    m = ITALIAN_MONTHS.get(month.lower())
    return f"{int(year):04d}-{m:02d}-{int(day):02d}" if m else None


def runs(items: list[T], filled: Callable[[T], bool] = lambda s: bool(s.strip())) -> list[list[T]]:
    """Runs of adjacent non-blank items (lines, or line records): a text's paragraphs."""
    out: list[list[T]] = []
    current: list[T] = []
    for item in items:
        if filled(item):
            current.append(item)
        elif current:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out
