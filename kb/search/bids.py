"""The bids a story tells, in the order they were made: a bid right after another at the same level
and in a lower denomination is an insufficient bid, though the story never says so
("sull'apertura di 1 picche ho detto 1 cuori", "el de mi derecha abrió 1 corazón y yo dije 1 trébol").

A bid is a level and a denomination in the words of any registry language ("1 cuori", "2
tréboles", "3 no trump", "1NT"); "X over Y" ("1 cuori sopra l'1 picche", "1 heart over my 1
spade", "2 fiori dopo 1 senza") puts Y first. Only two bids of one level count: numbers of other
levels in a story are mostly not an auction ("avevo 5 picche e 4 cuori", "contract 4 spades",
"board 3"). A story of a call meant otherwise ("volevo 2 quadri ma ho tirato fuori 2 fiori") tells
of a mistaken call (Law 25), not of an insufficient bid: it says nothing here.
"""
from __future__ import annotations

import re

from ..corpus.languages import BY_CODE, REGISTRY

DENOMINATIONS = "cdhsn"  # clubs, diamonds, hearts, spades, no trump: the order of their rank


def _either(words: list[str]) -> str:
    return "|".join(w for w in words if w)


BID = re.compile(r"\b([1-7])\s*(?:" + "|".join(
    f"(?P<{d}>{_either([lang.denominations[i] for lang in REGISTRY if lang.denominations])})"
    for i, d in enumerate(DENOMINATIONS)) + r")\b", re.I)
# what stands between "1 cuori" and "1 picche" in "1 cuori sopra l'1 picche": the over word right
# after the bid, then little words (spelt out, not \W: the browser's \W knows only ASCII letters)
OVER = re.compile(r"^\s+(?:" + _either([lang.over for lang in REGISTRY]) + r")(?:[\s'’]+(?:"
                  + _either([lang.over_little for lang in REGISTRY]) + r"))*[\s'’]*$", re.I)
MEANT = re.compile(r"\b(?:" + _either([lang.meant for lang in REGISTRY]) + r")\b", re.I)


def ranks(text: str) -> list[int]:
    """The bids a text names, as ranks (1♣ lowest, 7NT highest), in the order they were made."""
    found = [(m.start(), m.end(), int(m[1]) * len(DENOMINATIONS) + DENOMINATIONS.index(m.lastgroup))
             for m in BID.finditer(text)]  # the denomination's group is the last a bid matches
    order = [rank for _, _, rank in found]
    for i in range(len(found) - 1):
        if OVER.match(text[found[i][1]:found[i + 1][0]]):
            order[i], order[i + 1] = order[i + 1], order[i]
    return order


def insufficient(text: str) -> bool:
    """Does the text tell of a bid right after another of its level, in a lower denomination?"""
    if MEANT.search(text):
        return False
    order, size = ranks(text), len(DENOMINATIONS)
    return any(later < earlier and later // size == earlier // size for earlier, later in zip(order, order[1:]))


def told(text: str, lang: str | None) -> str:
    """What a story's bids tell, named in `lang` (the query's language): "" when nothing."""
    return BY_CODE[lang].insufficient_bid if lang in BY_CODE and insufficient(text) else ""
