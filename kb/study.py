"""Study cards for arbiter students, made from the knowledge base itself: the Laws' definitions
(term → definition), the time references (situation → time limit and clause), the Laws' numbers
and titles (in each edition), and the situation index (situation → the clause that rules it).

One read model feeds the Anki decks (`kb anki`) and the site's drills (`/study`): each card has
a stable id (the same card in the next build keeps it: its deck, document, unit and clause, or
its situation), a question, an answer, the language its text is in, and the page that answers it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from .catalogs import marked_for_translation as _  # scripts/update_catalogs.py reads this file too
from .clauseid import readable
from .library import LAWS, TIMEREF
from .urls import url_for

DECKS = ("definitions", "timerefs", "titles", "situations")


SUITE = _("Bridge Laws")  # what the decks are filed under
DECK_NAMES = {"definitions": _("Definitions"), "timerefs": _("Time limits"), "titles": _("Law titles"),
              "situations": _("Situations")}


@dataclass(frozen=True)
class Card:
    deck: str       # one of DECKS
    id: str         # stable across builds: "definitions:it-laws:def-alert"
    question: str
    answer: str
    lang: str       # the language of its text (a situation's question: the reader's language it is said in)
    url: str        # the page that answers it
    ref: str = ""   # the clause that answers it, as readers write it ("27B1(b)")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "question": self.question, "answer": self.answer, "lang": self.lang,
                "url": self.url, "ref": self.ref}


def cards(kb: Any) -> tuple[Card, ...]:
    """Every card of every deck, in deck order, then in the texts' order."""
    return (*definitions(kb), *timerefs(kb), *titles(kb), *situations(kb))


def definitions(kb: Any) -> Iterator[Card]:
    """Each defined term of the Laws in force → its definition."""
    doc = kb.library.laws_in_force
    for u in kb.store.doc(doc)["units"]:
        if u["kind"] == "definition":
            text = " ".join(c["text"] for c in u["clauses"] if c["text"])
            yield Card("definitions", f"definitions:{doc}:{u['id']}", u["title"], text,
                       kb.library.lang(doc) or "", url_for(doc, u["id"]))


def timerefs(kb: Any) -> Iterator[Card]:
    """Each entry of the time-reference table: its situation → its time limit, and the clause."""
    for doc in kb.library.ids(TIMEREF):
        for u in kb.store.doc(doc)["units"]:
            for c in u["clauses"]:
                if c.get("kind") == "entry" and c.get("subtopic") and c["text"]:
                    ref = readable(c["ref"]) if c.get("ref") else ""
                    yield Card("timerefs", f"timerefs:{doc}:{u['id']}:{c['id']}", f"{u['title']}: {c['subtopic']}",
                               c["text"], kb.library.lang(doc) or "", url_for(doc, u["id"], c["id"]), ref)


def titles(kb: Any) -> Iterator[Card]:
    """Each Law of each edition: its number, marked with its edition ("IT 27", "ES 27") → its title."""
    for doc in kb.library.ids(LAWS):
        for u in kb.store.doc(doc)["units"]:
            if u["kind"] == "article" and u.get("title"):
                yield Card("titles", f"titles:{doc}:{u['id']}", f"{kb.library.short(doc)} {u['id']}", u["title"],
                           kb.library.lang(doc) or "", url_for(doc, u["id"]), u["id"])


def situations(kb: Any) -> Iterator[Card]:
    """Each situation, as said in each language → the clause of the Laws in force that rules it:
    its Law's title and the clause itself (an implied clause, 27B1, by its first sub-clause's text)."""
    laws = kb.library.laws_in_force
    for s in kb.situations:
        ruling = next(((d, unit, clause) for d, unit, clause in s.laws if d == laws), None)
        if ruling is None:
            continue
        d, unit, clause = ruling
        u = kb.store.unit(d, unit)
        text = next((c["text"] for c in u["clauses"] if c["text"] and c["id"].startswith(clause or unit)), "")
        answer = f"{u.get('title') or ''}: {text}" if text else u.get("title") or ""
        for lang, _phrases in s.says:
            yield Card("situations", f"situations:{s.id}:{lang}", s.name(lang), answer, lang,
                       url_for(d, unit, clause), readable(clause or unit))
