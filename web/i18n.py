"""Interface languages: Babel catalogs and the choice of a locale per request.

The law texts are never translated; only the interface is. `web/locale/*.po`
are the sources; `kb build` compiles them to `.mo` in the build folder, and
the app reads those (compiling in memory when a build predates them).
"""
from __future__ import annotations

import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES = ("it", "es", "en")
DEFAULT = "it"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"


def po_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def compile_catalogs(out: Path) -> None:
    """Write each locale's .mo under `out/<locale>/LC_MESSAGES/`."""
    for locale in LOCALES:
        with po_path(locale).open("rb") as f:
            catalog = read_po(f, locale=locale)
        target = out / locale / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as f:
            write_mo(f, catalog)


def load_translations(compiled: Path | None = None) -> dict[str, NullTranslations]:
    out: dict[str, NullTranslations] = {}
    for locale in LOCALES:
        mo = compiled / locale / "LC_MESSAGES" / f"{DOMAIN}.mo" if compiled else None
        if mo is not None and mo.exists():
            with mo.open("rb") as f:
                out[locale] = Translations(f, domain=DOMAIN)
        else:
            with po_path(locale).open("rb") as f:
                buf = io.BytesIO()
                write_mo(buf, read_po(f, locale=locale))
            buf.seek(0)
            out[locale] = Translations(buf, domain=DOMAIN)
    return out


def accept_language(header: str | None) -> list[str]:
    """Languages of an Accept-Language header, by q-weight, highest first (q=0 excluded)."""
    ranked = []
    for i, part in enumerate((header or "").split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        q = 1.0
        for f in fields[1:]:
            name, _, value = f.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if tag and q > 0:
            ranked.append((-q, i, tag.split("-")[0]))
    return [tag for _, _, tag in sorted(ranked)]


def negotiate(ui: str | None, cookie: str | None, header: str | None) -> str:
    """?ui= first, then the cookie, then Accept-Language, then Italian."""
    for choice in (ui, cookie):
        if choice in LOCALES:
            return choice
    return next((tag for tag in accept_language(header) if tag in LOCALES), DEFAULT)
