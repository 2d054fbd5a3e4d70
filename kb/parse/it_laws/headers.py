"""What both halves of the Italian Laws profile share: the running page header."""
from __future__ import annotations

import re

from ...common.text import remove_blocks

# The running header of the FIGB 2017 print, in its 4-line form; the 3-line
# variant is the same block without its first line (remove_blocks handles
# suffixes). Dates and deliberation numbers are left open so a reprint matches.
HEADER_BLOCK = [
    re.compile(r"^\**FEDERAZIONE ITALIANA GIOCO BRIDGE\**$"),
    re.compile(r"^\**CODICE INTERNAZIONALE DEL BRIDGE DUPLICATO\**$"),
    re.compile(r"^\**NUOVA VERSIONE IN VIGORE DAL .+\d{4}\**$"),
    re.compile(r"^\**\(Modificato ed approvato con delibera .+\)\**$"),
]

CUT = "\x00"  # stands where a header block was removed


def lines_without_headers(text: str) -> list[tuple[int, str]]:
    """The text's lines with every running header block replaced by one CUT line.

    Each item is (0-based source line, line). Blank lines around a header are
    kept, so callers decide how to re-join what the header split.
    """
    return remove_blocks(text.split("\n"), HEADER_BLOCK)
