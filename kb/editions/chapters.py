"""The chapters of the Laws: which Laws each chapter holds, in order, as an edition prints them.

The Spanish 2007 text prints its chapters (`I.- PRELIMINARES`, and its index lists every
chapter's Laws: `kb.parse.es_laws` records them as the document's groups); the Italian 2017
text prints none. The Laws keep their numbers from edition to edition, so an edition without
chapters takes them, Law by Law, from another edition that has them: that edition's numbers and
titles, in its language. Read by a Laws document's contents page, the changes from one edition
to the next and the study page's reading plan.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..corpus.library import LAWS, Library
from ..records.built import BuiltDocument
from ..records.store import Store


@dataclass(frozen=True)
class Chapter:
    id: str                # as the edition that prints it numbers it ("III"); "" for Laws no chapter holds
    title: str             # in that edition's words and language
    doc: str               # the edition that prints it
    lang: str
    laws: tuple[str, ...]  # its Laws' numbers, in order


def anchors(found: list[Chapter]) -> list[str]:
    """A page's anchor for each chapter, unique on it: "chapter-III"; a run no chapter holds by its place."""
    return [f"chapter-{c.id}" if c.id else f"chapter-none-{i}" for i, c in enumerate(found)]


def chapters(store: Store, library: Library, doc: str) -> list[Chapter]:
    """The articles of a Laws document by chapter, in the document's order: its own chapters,
    else another edition's (the first in the manifest that has chapters for its Laws); all in
    one chapter without a number when no edition has any."""
    articles = [u.id for u in store.doc(doc).units if u.kind == "article"]
    for source in [doc, *(d for d in library.ids(LAWS) if d != doc)]:
        chapter_of = _chapter_of(store.doc(source))
        if any(n in chapter_of for n in articles):
            return _runs(articles, chapter_of, source, store.doc(source).lang)
    return [Chapter("", "", doc, store.doc(doc).lang, tuple(articles))] if articles else []


def _chapter_of(d: BuiltDocument) -> dict[str, tuple[str, str]]:
    """Each article's chapter (its id and title) as this document records it."""
    titles = {g.id: g.title for g in d.groups if g.title}
    return {u.id: (u.group, titles[u.group]) for u in d.units if u.kind == "article" and u.group in titles}


def _runs(articles: list[str], chapter_of: dict[str, tuple[str, str]], doc: str, lang: str) -> list[Chapter]:
    """The articles in runs of one chapter each (an article no chapter holds: a run of its own kind)."""
    runs: list[tuple[tuple[str, str], list[str]]] = []
    for n in articles:
        key = chapter_of.get(n, ("", ""))
        if not runs or runs[-1][0] != key:
            runs.append((key, []))
        runs[-1][1].append(n)
    return [Chapter(cid, title, doc, lang, tuple(laws)) for (cid, title), laws in runs]
