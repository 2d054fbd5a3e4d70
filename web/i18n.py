"""Interface languages: the build's compiled catalogs and the choice of a locale per request.

The law texts are never translated; only the interface is. `kb/locale/*.po` are the
sources (kb.corpus.catalogs); `kb build` compiles them into the generation, and the app
reads them there.
"""
from __future__ import annotations

from pathlib import Path

from babel.support import NullTranslations

from kb.corpus.catalogs import DEFAULT, LOCALES, compiled_locales, marked_for_translation, translations

__all__ = ["DEFAULT", "LOCALES", "load_translations", "marked_for_translation", "negotiate"]


def load_translations(compiled: Path) -> dict[str, NullTranslations]:
    """A build's catalogs, one per interface language it compiled."""
    return {locale: translations(compiled, locale) for locale in compiled_locales(compiled)}


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


def negotiate(ui: str | None, cookie: str | None, header: str | None, locales: tuple[str, ...] = LOCALES) -> str:
    """?ui= first, then the cookie, then Accept-Language, then Italian: the first that is one of
    `locales` (the build's interface languages)."""
    for choice in (ui, cookie):
        if choice in locales:
            return choice
    return next((tag for tag in accept_language(header) if tag in locales), DEFAULT)
