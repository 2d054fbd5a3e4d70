"""Collect the interface strings (`_("…")` in templates, web/**/*.py and the kb modules that speak to readers)
into kb/locale/*/LC_MESSAGES/messages.po.

    python scripts/update_catalogs.py [LANG…]

Existing translations are kept; new strings arrive untranslated (English gets the
string itself). A LANG with no catalog yet starts one: a new interface language (the
interface languages are the catalogs present, kb/corpus/catalogs.py). Babel reads and writes the catalogs.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
CALL = re.compile(r"""\b_\(\s*(["'])(.+?)\1\s*\)""")


def messages() -> list[str]:
    found: dict[str, None] = {}
    for path in sorted([*WEB.glob("templates/*.html"), *WEB.rglob("*.py")]) + [ROOT / "kb" / "study" / "cards.py", ROOT / "kb" / "citations" / "style.py"]:
        for m in CALL.finditer(path.read_text(encoding="utf-8")):
            found[m.group(2)] = None
    return list(found)


def main(new: list[str]) -> None:
    from kb.corpus.catalogs import LOCALES, po_path
    ids = messages()
    for locale in dict.fromkeys([*LOCALES, *new]):
        path = po_path(locale)
        old = read_po(path.open("rb"), locale=locale) if path.exists() else Catalog(locale=locale)
        new = Catalog(locale=locale, project="bridge-laws-kb", domain="messages")
        for msgid in ids:
            prev = old.get(msgid)
            new.add(msgid, prev.string if prev and prev.string else (msgid if locale == "en" else ""))
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_po(f, new, width=100, omit_header=False)
        missing = [m.id for m in new if m.id and not m.string]
        print(f"{locale}: {len(ids)} messages, {len(missing)} untranslated")


if __name__ == "__main__":
    main(sys.argv[1:])
