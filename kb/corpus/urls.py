"""Where things live on the site: a unit (and clause anchor), a Law's compare page, a situation."""
from __future__ import annotations

from urllib.parse import urlencode

from .library import EditionPair, Library


def url_for(doc: str, unit: str, clause: str | None = None) -> str:
    anchor = f"#{clause}" if clause and clause != unit else ""
    return f"/{doc}/{unit}{anchor}"


def compare_url(library: Library, pair: EditionPair, n: str) -> str:
    """Law n's compare page for a pair of editions (the first pair needs no query)."""
    query = "" if pair == library.pairs[0] else "?" + urlencode({"older": pair.older, "newer": pair.newer})
    return f"/compare/{n}{query}"


SITUATIONS = "/situations"
CHANGES = "/changes"  # what changed from one edition of the Laws to the next


def changes_page_url(page: str) -> str:
    """A page of the changes: a run of chapters of the Laws (`laws-17-40`)."""
    return f"{CHANGES}/{page}"


def law_changes_url(page: str, law: str) -> str:
    """Law n's changes, folded on the page of the changes that holds them."""
    return f"{changes_page_url(page)}#law-{law}"


def situations_page_url(page: str) -> str:
    """A page of the situation index: a period of the board (`auction`), or a run of its Laws
    when the period holds more than a page (`auction-2`)."""
    return f"{SITUATIONS}/{page}"


def situation_url(situation: str, page: str) -> str:
    """A situation's entry, on the index's page that holds it (`kb.corpus.situations.page_of`)."""
    return f"{situations_page_url(page)}#{situation}"

