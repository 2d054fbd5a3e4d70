"""Footnote markers glued to words (`normale*`, `richiedere**`), told from markdown bold."""
from __future__ import annotations

import re


# A footnote number printed in place of `*` (`avversario45)`): a long word with
# digits glued on. Only looked for when an article's footnote has no `*` marker.
GLUED_NUMBER = re.compile(r"(?<=[a-zà-ù]{4})(\d{1,3})(?=[).,;:]|\s|$)")
STAR_RUN = re.compile(r"\*+")


def footnote_markers(raw: str, strict: bool = False) -> list[str]:
    """Footnote markers glued to words in a raw line, in order: `*`, `**`, `***`.

    `**` is also markdown bold: a `**` glued after a word closes a bold span if
    one is open, and is a footnote marker otherwise (`richiedere**,`). `strict`
    keeps only markers glued to a word of two letters or more: the unbalanced
    bold of 50E (`e** la conoscenza`, `dichiarante.**`) is not taken for marks.
    """
    markers: list[str] = []
    bold_open = False
    for m in STAR_RUN.finditer(raw):
        run = m.group(0)
        before = raw[m.start() - 1] if m.start() else " "
        after = raw[m.end()] if m.end() < len(raw) else " "
        glued_after_word = not before.isspace()
        opens = not after.isspace() and (before.isspace() or before in "([")
        mark = not strict or (m.start() >= 2 and raw[m.start() - 2:m.start()].isalpha())
        if len(run) == 2:
            if opens and not bold_open:
                bold_open = True
            elif bold_open and not before.isspace():
                bold_open = False
            elif glued_after_word:
                if mark:
                    markers.append(run)
            elif not bold_open:
                bold_open = True
        elif glued_after_word and mark:
            markers.append(run)
    return markers
