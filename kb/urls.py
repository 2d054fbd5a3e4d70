"""Where things live on the site: a unit (and clause anchor), a Law's compare page, a situation."""
from __future__ import annotations

from urllib.parse import urlencode

from .library import EditionPair, Library
from .search.model import MODEL_NAME


def url_for(doc: str, unit: str, clause: str | None = None) -> str:
    anchor = f"#{clause}" if clause and clause != unit else ""
    return f"/{doc}/{unit}{anchor}"


def compare_url(library: Library, pair: EditionPair, n: str) -> str:
    """Law n's compare page for a pair of editions (the first pair needs no query)."""
    query = "" if pair == library.pairs[0] else "?" + urlencode({"older": pair.older, "newer": pair.newer})
    return f"/compare/{n}{query}"


SITUATIONS = "/situations"
CHANGES = "/changes"  # what changed from one edition of the Laws to the next
SEARCH_DATA = f"/offline/{MODEL_NAME}"  # the search model as the browser's engine fetches it


def situation_url(situation: str) -> str:
    """A situation's entry in the index."""
    return f"{SITUATIONS}#{situation}"

