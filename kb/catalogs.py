"""The interface catalogs: Babel `.po` sources in `kb/locale/`, compiled into each build.

The law texts are never translated; everything around them is (the website, the
CLI's few words). `kb build` compiles the catalogs into the generation, so a
reader needs nothing outside it.
"""
from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES = ("it", "es", "en")
DEFAULT = "it"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
BUILD_DIR = "locale"  # the catalogs' folder in a generation


def marked_for_translation(message: str) -> str:
    """Imported as `_` in Python code: marks an interface string for the catalogs (which
    scripts/update_catalogs.py collects); whoever shows it translates it then."""
    return message


def po_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(compiled: Path, locale: str) -> Path:
    return compiled / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"


def compile_catalogs(out: Path) -> None:
    """Write each locale's .mo under `out/<locale>/LC_MESSAGES/`."""
    for locale in LOCALES:
        with po_path(locale).open("rb") as f:
            catalog = read_po(f, locale=locale)
        target = mo_path(out, locale)
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as f:
            write_mo(f, catalog)


def translations(compiled: Path, locale: str):  # -> babel.support.Translations
    """A build's compiled catalog for `locale` (its `gettext` translates an interface string)."""
    from babel.support import Translations
    with mo_path(compiled, locale).open("rb") as f:
        return Translations(f, domain=DOMAIN)
