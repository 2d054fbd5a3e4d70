"""The reference FSRS-6 (the `fsrs` package) in the drills' terms, for tests/unit/test_fsrs.py and
tests/browser/test_study_browser.py: cards as web/static/fsrs.js holds them (times in ms since the epoch),
a review history replayed by the reference, the fields compared, the drills' fuzz draw computed
apart, and what a Leitner box of the drills before FSRS records."""
import math
from datetime import datetime, timedelta, timezone
from unittest import mock

import fsrs.scheduler
from fsrs import Card, Rating, Scheduler, State

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
MINUTE, HOUR = 60_000, 3_600_000
DAY = 24 * HOUR


def at(ms: int) -> datetime:
    return EPOCH + timedelta(milliseconds=ms)


def ms(t: datetime) -> int:
    return (t - EPOCH) // timedelta(milliseconds=1)


def as_js(card: Card) -> dict:
    """A reference card in fsrs.js's terms: times in ms since the epoch, the state's number."""
    return {"state": card.state.value, "step": card.step, "stability": card.stability, "difficulty": card.difficulty,
            "due": ms(card.due), "last_review": ms(card.last_review) if card.last_review else None}


def from_js(card: dict) -> Card:
    return Card(card_id=1, state=State(card["state"]), step=card["step"], stability=card["stability"],
                difficulty=card["difficulty"], due=at(card["due"]),
                last_review=at(card["last_review"]) if card["last_review"] is not None else None)


def reference(history, fuzz: bool = False, start: Card | None = None) -> list[dict]:
    """The reference's card after each review of `history` ([rating, time ms, draw], ...)."""
    scheduler, card, cards = Scheduler(enable_fuzzing=fuzz), start or Card(card_id=1), []
    for rating, time, draw in history:
        with mock.patch.object(fsrs.scheduler, "random", lambda: draw):
            card, _ = scheduler.review_card(card, Rating(rating), at(time))
        cards.append(as_js(card))
    return cards


def differences(ours: list[dict], theirs: list[dict]) -> list[str]:
    """What differs after each review: state, step or due exactly; stability, difficulty beyond 1e-6."""
    found = []
    for n, (a, b) in enumerate(zip(ours, theirs, strict=True), 1):
        for field in ("state", "step", "due", "last_review"):
            if a[field] != b[field]:
                found.append(f"review {n}: {field} {a[field]} (js) != {b[field]} (reference)")
        for field in ("stability", "difficulty"):
            if not math.isclose(a[field], b[field], rel_tol=1e-6):
                found.append(f"review {n}: {field} {a[field]} (js) != {b[field]} (reference)")
    return found


def fnv1a(text: str) -> float:
    """FNV-1a, 32 bits, of the text's UTF-16 code units (its ASCII bytes: card ids are ASCII), over 2³²."""
    h = 0x811C9DC5
    for unit in text.encode("utf-16-le")[::2]:
        h = ((h ^ unit) * 0x01000193) % 2**32
    return h / 2**32


LEITNER_DAYS = {1: 0, 2: 1, 3: 2, 4: 4, 5: 8}  # issue 16's study.js: DAYS[box], the days a box brings a card back in


def leitner_history(box: int, due: int) -> list[list]:
    """What a Leitner box records: box 1, a "did not know" (Again) when it was put there (due at
    once); box n, n - 1 "knew" (Good), the first answered when the box before brought the card back,
    each after the interval of the box it was in, the last LEITNER_DAYS[n] before `due`."""
    if box == 1:
        return [[1, due, None]]
    first = due - sum(LEITNER_DAYS[b] for b in range(2, box + 1)) * DAY
    times = [first + sum(LEITNER_DAYS[b] for b in range(2, k + 1)) * DAY for k in range(1, box)]
    return [[3, t, None] for t in times]
