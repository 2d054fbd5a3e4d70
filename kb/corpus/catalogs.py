"""The interface catalogs: Babel `.po` sources in `kb/locale/`, compiled into each build.

The law texts are never translated; everything around them is (the website, the
CLI's few words). `kb build` compiles the catalogs into the generation, so a
reader needs nothing outside it. An interface language is its catalog: the languages
are the catalogs present (`locales`), a new one `kb/locale/<lang>/LC_MESSAGES/messages.po`
(and, if it likes, its readers' notes, `kb.corpus.tables`). A string its catalog does not
translate is shown in English, the msgids' language (`FALLBACK`).
"""
from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .languages import in_order

DEFAULT = "it"
FALLBACK = "en"  # the msgids' language: what a string no catalog translates is shown in
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DOMAIN = "messages"
BUILD_DIR = "locale"  # the catalogs' folder in a generation


def locales(root: Path = LOCALE_DIR) -> tuple[str, ...]:
    """The interface languages: one per catalog in `root`, in the languages' order (`in_order`)."""
    return in_order(p.parent.parent.name for p in root.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compiled_locales(compiled: Path) -> tuple[str, ...]:
    """The interface languages a build compiled (its `locale/` folder)."""
    return in_order(p.parent.parent.name for p in compiled.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))


LOCALES = locales()  # the catalogs shipped with kb


def marked_for_translation(message: str) -> str:
    """Imported as `_` in Python code: marks an interface string for the catalogs (which
    scripts/update_catalogs.py collects); whoever shows it translates it then."""
    return message


def po_path(locale: str, root: Path = LOCALE_DIR) -> Path:
    return root / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(compiled: Path, locale: str) -> Path:
    return compiled / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"


def compile_catalogs(out: Path, root: Path = LOCALE_DIR) -> tuple[str, ...]:
    """Write each catalog of `root` as a .mo under `out/<locale>/LC_MESSAGES/`; the locales written."""
    found = locales(root)
    for locale in found:
        with po_path(locale, root).open("rb") as f:
            catalog = read_po(f, locale=locale)
        target = mo_path(out, locale)
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as f:
            write_mo(f, catalog)
    return found


def translations(compiled: Path, locale: str):  # -> babel.support.Translations
    """A build's compiled catalog for `locale` (its `gettext` translates an interface string; one
    its catalog leaves out is English's, when the build has the English catalog)."""
    from babel.support import Translations
    with mo_path(compiled, locale).open("rb") as f:
        found = Translations(f, domain=DOMAIN)
    if locale != FALLBACK and mo_path(compiled, FALLBACK).is_file():
        found.add_fallback(translations(compiled, FALLBACK))
    return found
