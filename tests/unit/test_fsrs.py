"""The drills' scheduler (web/static/fsrs.js, run here in Node) against the reference FSRS-6, the
`fsrs` package (py-fsrs 6.3.2's Scheduler, default parameters, desired retention 0.9, steps 1 and
10 minutes, relearning 10 minutes), on the same review histories: a few hundred generated ones
(seeded: mixed ratings, reviews on time, early, the same day, late and long overdue) and
hand-written edge cases. After every review both hold the card in the same state and step, due at
the same millisecond (hence the same day), with the same stability and difficulty (1e-6 relative).

The reference fuzzes a Review interval with `random()`: the agreement is held without fuzz in both,
then with it, each review's draw given to both (the reference's `random` patched to return it).
The drills keep the fuzz on, drawn from the card's id and review count (`KBFsrs.draw`), so the
interval a rating button shows is the one that rating gives.
"""
import random

import fsrs.scheduler
import pytest
from fsrs import Card, Rating, Scheduler

from measure import node
from tests.fsrs_reference import (DAY, HOUR, LEITNER_DAYS, MINUTE, at, differences, fnv1a, from_js, leitner_history, ms,
                                  reference)

pytestmark = pytest.mark.skipif(node.NODE is None, reason="Node is not installed (.ci/run installs Debian's nodejs)")
T0 = 1_709_283_600_000  # 2024-03-01 09:00 UTC
W = fsrs.scheduler.DEFAULT_PARAMETERS


# ---------------------------------------------------------------- generated histories
def next_review(rng: random.Random, last: int, due: int) -> int:
    """When the student comes back: on time mostly, sometimes early, the same day, late or long after."""
    kind = rng.choices(["on time", "early", "same day", "late", "long overdue"], weights=[45, 20, 10, 15, 10])[0]
    if kind == "on time":
        return due + rng.randrange(2 * HOUR)
    if kind == "early":
        return last + rng.randrange(30_000, 20 * MINUTE)
    if kind == "same day":
        return last + rng.randrange(HOUR, 20 * HOUR)
    if kind == "late":
        return due + rng.randrange(1, 60) * DAY + rng.randrange(DAY)
    return due + rng.randrange(100, 1000) * DAY + rng.randrange(DAY)


def generated(seed: int, count: int) -> list[list[list]]:
    """`count` histories of 1 to 30 reviews, each review [rating, time, draw] (the draw for the
    fuzzed run); the times follow the reference's due dates as a student's would."""
    rng, histories = random.Random(seed), []
    for _ in range(count):
        scheduler, card = Scheduler(enable_fuzzing=False), Card(card_id=1)
        time, history = T0 + rng.randrange(365 * DAY), []
        for _ in range(rng.randint(1, 30)):
            rating = rng.choices([1, 2, 3, 4], weights=[15, 15, 55, 15])[0]
            history.append([rating, time, rng.random()])
            card, _ = scheduler.review_card(card, Rating(rating), at(time))
            time = next_review(rng, time, ms(card.due))
        histories.append(history)
    return histories


HISTORIES = generated(seed=32, count=300)


HALVES = [[[rating, time, 0.5] for rating, time, _ in h] for h in HISTORIES]  # a fuzz range of odd width: n + ½ days


@pytest.mark.parametrize("fuzz, histories", [(False, HISTORIES), (True, HISTORIES), (True, HALVES)],
                         ids=["without fuzz", "with the same fuzz draws", "fuzz draws of 0.5: halves rounded to even"])
def test_generated_histories_are_scheduled_as_the_reference_schedules_them(fuzz, histories):
    js = node.schedule([["review", {"enableFuzzing": fuzz}, None, h] for h in histories])
    report = {i: d for i, h in enumerate(histories) if (d := differences(js[i], reference(h, fuzz)))}
    assert report == {}
    reviews = [r for h in histories for r in h]
    states = {c["state"] for cards in js for c in cards}
    assert len(reviews) > 4000 and states == {1, 2, 3}  # every state reached, thousands of reviews compared


def test_the_fuzz_moves_intervals_and_both_move_them_alike():
    """Not a vacuous check: with the draws, many Review intervals differ from the unfuzzed ones."""
    plain, fuzzed = (node.schedule([["review", {"enableFuzzing": f}, None, h] for h in HISTORIES[:100]])
                     for f in (False, True))
    moved = sum(a["due"] != b["due"] for p, f in zip(plain, fuzzed) for a, b in zip(p, f))
    assert moved > 100


# ---------------------------------------------------------------- hand-written edge cases
def reviews(*steps) -> list[list]:
    """[[rating, time, draw]] from (rating, time) pairs; no fuzz draw (these run unfuzzed)."""
    return [[rating, time, None] for rating, time in steps]


EDGES = {
    "first review Again": reviews((1, T0)),
    "first review Hard, then Hard": reviews((2, T0), (2, T0 + 330_000)),
    "first review Good, then Good": reviews((3, T0), (3, T0 + 10 * MINUTE)),
    "first review Easy": reviews((4, T0)),
    "learning: Again, Again, Good, Good the same hour": reviews((1, T0), (1, T0 + MINUTE), (3, T0 + 2 * MINUTE),
                                                                  (3, T0 + 12 * MINUTE)),
    "a learning card left for a week": reviews((3, T0), (3, T0 + 7 * DAY), (3, T0 + 20 * DAY)),
    "a lapse, Hard and Good in relearning": reviews((4, T0), (3, T0 + 8 * DAY), (1, T0 + 40 * DAY),
                                                   (2, T0 + 40 * DAY + 10 * MINUTE), (3, T0 + 40 * DAY + 25 * MINUTE)),
    "a lapse, Again again, then Easy": reviews((4, T0), (1, T0 + 8 * DAY), (1, T0 + 8 * DAY + 10 * MINUTE),
                                               (4, T0 + 8 * DAY + 20 * MINUTE), (3, T0 + 12 * DAY)),
    "a relearning card left for a month": reviews((4, T0), (1, T0 + 8 * DAY), (3, T0 + 38 * DAY)),
    "long overdue: three years, then five": reviews((3, T0), (3, T0 + 10 * MINUTE), (3, T0 + 3 * 365 * DAY),
                                                    (1, T0 + 8 * 365 * DAY), (3, T0 + 8 * 365 * DAY + 10 * MINUTE)),
    "same-day reviews of a review card": reviews((4, T0), (3, T0 + HOUR), (3, T0 + 2 * HOUR), (1, T0 + 3 * HOUR),
                                                 (3, T0 + 3 * HOUR + 10 * MINUTE)),
    "a review card reviewed early, before its due day": reviews((4, T0), (3, T0 + 3 * DAY), (4, T0 + 4 * DAY)),
    "the day's edge: 1 ms short of a day, then a day exactly": reviews((4, T0), (3, T0 + DAY - 1), (3, T0 + 2 * DAY - 1)),
    "difficulty toward its ceiling: twelve Agains": reviews(*((1, T0 + n * DAY) for n in range(12))),
    "difficulty to its floor: Easy twelve times": reviews(*((4, T0 + n * 400 * DAY) for n in range(12))),
    "the maximum interval: Easy after long absences": reviews(*((4, T0 + n * 40_000 * DAY) for n in range(6))),
}


@pytest.mark.parametrize("name", EDGES)
def test_an_edge_case_is_scheduled_as_the_reference_schedules_it(name):
    history = EDGES[name]
    assert differences(node.schedule([["review", {"enableFuzzing": False}, None, history]])[0], reference(history)) == []


def test_the_edge_cases_reach_what_they_name():
    """Facts of the published parameters, so that each edge case tests what it says."""
    got = dict(zip(EDGES, node.schedule([["review", {"enableFuzzing": False}, None, h] for h in EDGES.values()])))
    again, easy = got["first review Again"][0], got["first review Easy"][0]
    assert (again["state"], again["step"], again["due"] - T0, again["stability"]) == (1, 0, MINUTE, W[0])
    assert (easy["state"], easy["due"] - T0, easy["stability"]) == (2, round(W[3]) * DAY, W[3])  # 8.2956: 8 days
    assert got["first review Hard, then Hard"][0]["due"] - T0 == 330_000  # halfway between the steps: 5.5 minutes
    relearning = got["a lapse, Hard and Good in relearning"]
    assert [c["state"] for c in relearning] == [2, 2, 3, 3, 2] and relearning[3]["due"] - relearning[3]["last_review"] == 15 * MINUTE
    assert got["difficulty toward its ceiling: twelve Agains"][-1]["difficulty"] > 9.9  # 10 less the mean reversion
    assert got["difficulty to its floor: Easy twelve times"][-1]["difficulty"] == 1
    ceiling = got["the maximum interval: Easy after long absences"][-1]
    assert ceiling["due"] - ceiling["last_review"] == 36500 * DAY


def test_a_card_stored_mid_way_is_scheduled_on_as_the_reference_schedules_it():
    """A card read back from the store (a JSON round trip), reviewed on: the same as the reference's
    Card built from the same fields."""
    start = node.schedule([["review", {"enableFuzzing": False}, None, EDGES["a lapse, Hard and Good in relearning"][:3]]])[0][-1]
    later = reviews((3, start["due"] + HOUR), (2, start["due"] + 20 * DAY), (1, start["due"] + 200 * DAY))
    js = node.schedule([["review", {"enableFuzzing": False}, start, later]])[0]
    assert start["state"] == 3 and differences(js, reference(later, start=from_js(start))) == []


# ---------------------------------------------------------------- the drills' fuzz draw
def test_the_fuzz_draw_is_fnv1a_of_the_card_and_its_review_and_spreads_evenly():
    keys = [(f"definitions:it-laws:def-{i}", n) for i in range(500) for n in range(1, 11)]
    draws = node.schedule([["draw", card, n] for card, n in keys])
    assert draws == [fnv1a(f"{card}#{n}") for card, n in keys]
    assert all(0 <= d < 1 for d in draws) and abs(sum(draws) / len(draws) - 0.5) < 0.02
    assert sum(d < 0.1 for d in draws) / len(draws) == pytest.approx(0.1, abs=0.02)


# ---------------------------------------------------------------- the Leitner boxes read as FSRS state
def test_a_leitner_box_becomes_the_fsrs_state_of_the_answers_it_records_due_date_kept():
    due = T0 + 5 * HOUR + 17
    js = node.schedule([["leitner", box, due] for box in LEITNER_DAYS])
    for box, card in zip(LEITNER_DAYS, js):
        replayed = reference(leitner_history(box, due))[-1]
        assert differences([card], [{**replayed, "due": due}]) == [], box  # the reference's state; Leitner's due kept
        assert card["last_review"] == due - LEITNER_DAYS[box] * DAY
    states = [(c["state"], c["step"]) for c in js]
    assert states == [(1, 0), (1, 1), (2, None), (2, None), (2, None)]  # box 2: one Good, a learning step to go
    learnt = [c["stability"] >= 21 for c in js]
    assert learnt == [False, False, False, False, True]  # box 5, the Leitner drills' "learnt", learnt still


def test_a_migrated_card_is_scheduled_on_as_the_reference_schedules_it():
    due = T0 + 3 * DAY
    migrated = node.schedule([["leitner", box, due] for box in LEITNER_DAYS])
    cases = [(card, reviews((r, due + HOUR), (3, due + 30 * DAY))) for card in migrated for r in (1, 2, 3, 4)]
    js = node.schedule([["review", {"enableFuzzing": False}, card, h] for card, h in cases])
    assert [differences(a, reference(h, start=from_js(card))) for a, (card, h) in zip(js, cases)] == [[]] * 20
