"""Every weight, boost and threshold of search, in one frozen record saved inside the search model.

These are tuning, not domain data: each was set by measuring the judged sets (measure/judged),
and a change to one is a change to how search ranks, to be measured the same way. The build
writes them into the model (`kb.search.model`), and the server and the browser read them from
there, never from here: a model answers by the tuning it was compiled with (bm25s saves its
parameters with its index the same way), and a name the model lacks is an error, not a guess.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any


def _kind_weight() -> dict[str, float]:
    # A FIGB norm or appendix that matches about as well comes before the Law it integrates: in
    # Italy it gives the ruling (penalties, procedures the Law leaves to the federation).
    return {"topic": 0.4, "front": 0.5, "norm": 1.3, "appendix": 1.4, "definition": 0.6}


def _intent_boost() -> dict[str, tuple[tuple[str, ...], float]]:
    return {"definition": (("definition",), 2.0), "timing": (("topic",), 1.6),
            "federation": (("norm", "appendix"), 1.4)}  # the federation named: its rules first


def _intent_demote() -> dict[str, tuple[tuple[str, ...], float]]:
    return {"definition": (("norm", "appendix"), 0.8)}  # what a term means: the Laws' wording first


@dataclass(frozen=True)
class Tuning:
    # ---- term scores (BM25F, as whoosh scores a field) and the term queries of a word
    b: float = 0.75
    k1: float = 1.2
    title_boost: float = 4.0       # a heading naming the query's words says what the unit is about
    expansion_boost: float = 0.7   # glossary translations and other names
    plain_boost: float = 0.3       # the unstemmed word itself
    acronym_max: int = 4           # a word this short is also searched with a plural "s" ("IMP" → "IMPs")
    prefix_boost: float = 1.0      # a word's family ("spiegato" → "spiegazione"): its best member's score
    prefix_min: int = 5            # letters a word needs to have a family…
    prefix_share: float = 0.6      # …whose common prefix is this share of the word (at least prefix_min)
    fuzzy_boost: float = 2.0       # constant score for an approximate match of an unknown word
    fuzzy_long: int = 6            # a longer word may be two edits away, a shorter one one edit
    cognate_boost: float = 4.0     # constant score for a near cognate in the other language
    cognate_min: int = 6           # shorter foreign words are not looked up as cognates
    cognate_long: int = 7          # a longer cognate may be two edits away
    correction_long: int = 5       # "did you mean": a longer word may be corrected by two edits
    max_expansions: int = 64       # terms a prefix or an approximate word may stand for
    max_words: int = 16            # query words read; the rest are ignored
    # ---- coordination and the fallbacks
    coord_base: float = 0.1        # a clause matching half the words scores about half: all the words count
    expansion_coord: float = 0.8   # a glossary translation matched counts as this share of the words
    weak_score: float = 6.0        # below this best score, words also match approximately
    rounding: float = 1e-9         # scores closer than this share are equal (the same matches summed otherwise)
    ui_preference: float = 3.0     # texts in the user's own language rank first…
    query_preference: float = 1.4  # …or, not knowing it, texts in the language the query is written in
    # ---- which game a query is about
    other_game_share: float = 0.8  # a query word is Burraco's when at least this share of its clauses are…
    bridge_share: float = 0.05     # …and bridge's when at most this share ("scoperta": 0.04; "meno", 0.08, no one's)
    game_word_min: int = 4         # letters, and
    game_word_docs: int = 5        # clauses: a rarer word ("restare", "arrivata", "andare") says nothing of the game
    # ---- the phrasebook (what a query says)
    min_match: float = 0.45        # below this a phrase shares too little with the query to be evidence
    verbatim: float = 0.99         # a phrase said word for word
    candidates: int = 200          # only the strongest phrases can hold the strongest entries
    story_size: int = 5            # a query of this many words (stop words aside) is matched against whole entries…
    phrase_share: float = 0.5      # …a phrase's strength at least this share of its own plus the rest of its entry's
    # ---- what a query tells, lent to the clauses that rule it
    entries: int = 4               # the phrasebook entries a query's words may say at once
    name_weight: float = 1.3       # a ruling unit of a name the query says gains this share of the best score…
    story_words: int = 4           # …a query of this many known words tells a story…
    story_weight: float = 4.0      # …and the ruling clauses of its situation gain this share
    name_min: float = 0.7          # a shorter query must say a phrase at least this closely
    not_lead: float = 0.6          # a target that does not rule first (not the Laws', not the lead's unit) gains less
    decay: float = 0.9             # each further clause of the same document a little less
    rank_decay: float = 0.8        # the second and third entries said, each this much less
    shown: float = 0.7             # a situation said this closely is named above the hits
    answer_strength: float = 0.6   # a situation said this closely, most closely of all, answers the query
    answer_hits: int = 1           # …when it rules one of this many first hits (scripts/answers.py: what
                                   # its cards rule). 0.6 chosen on sets D, E, F, G, S on 2026-12-02 (0.7:
                                   # 365 cards, 87% ruling a grade-3 unit; 0.6: 471, 85%; the cards it
                                   # adds 75% right; 0.55 adds 41 more, 59% right)…
    answer_see: int = 3            # …its answer naming this many of its other ruling units ("see also")…
    answer_items: int = 8          # …and showing at most this many items of a list its ruling clause opens
    # ---- a story's structure (kb.search.story): who acted, when, what was done. Measured on story
    # set S and question sets A+B, D, E, F, G on 2026-12-02: a situation's strength moved by 0.15 of
    # its actor's fit (named: ×1.15, another seat named: ×0.8) gained on E and G (+0.004, +0.011),
    # lost 0.003 on D and kept S; the acts' and the period's fit (as a factor, or added; with the
    # vocabulary's over-reaching words taken out) moved S by -0.03 to +0.01 and lost up to 0.04 on
    # F: those are held neutral (factors of 1) until who did what, and when, is read more closely.
    # Pinning the best-fitting situation's ruling clause first gained nothing on S and cost F 0.004:
    # not built.
    fit_floor: float = 1.0         # a situation none of whose acts the story tells keeps this share of its strength…
    fit_some: float = 1.0          # …one some of whose acts it tells at least this share, all of them the whole…
    fit_actor: float = 1.15        # …one whose actor the story names gains this much…
    fit_other_actor: float = 0.8   # …one done by another seat than the story names loses this much…
    fit_period: float = 1.0        # …and the same for the period the story tells…
    fit_other_period: float = 1.0  # …or another period
    fit_scale: float = 0.15        # a match's strength moves by this share of its fit's factor above or below 1
    fit_pool: int = 12             # the entries said most strongly, refitted to a story's structure before the best are kept
    window_story: int = 25         # a query of this many words is also matched against the phrasebook window by window…
    window: int = 16               # …of this many words, each half over the next…
    window_share: float = 0.7      # …a window's matches worth this share of their strength (S: 0.318 → 0.564 MRR)…
    window_repeat: float = 0.1     # …and a situation said in several windows this much more for each after the first (S: 0.607)
    aside_words: int = 12          # a query of this many words is a story: its holdings, scores and table numbers set aside
                                   # (S: 0.318 MRR against 0.309 with nothing set aside)
    # ---- units ranked from clause scores
    kind_weight: dict[str, float] = field(default_factory=_kind_weight)
    other_game_weight: float = 0.2     # a different game (the manifest's kind `code`): first only when asked about
    second_clause_weight: float = 0.1  # the next two clauses of a unit, beside its best
    unit_weight: float = 0.5           # the whole unit's score, beside its best clause's
    parallel_lift: float = 0.3         # share of a Law's score given to the same Law in the other edition
    link_lift: float = 1.0             # share of an annotating entry's score given to its Law unit
    intent_boost: dict[str, tuple[tuple[str, ...], float]] = field(default_factory=_intent_boost)
    intent_demote: dict[str, tuple[tuple[str, ...], float]] = field(default_factory=_intent_demote)
    # ---- what a hit shows
    snippet_chars: int = 180       # an excerpt's length…
    snippet_lead: int = 60         # …starting this far before the first word found

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, saved: dict[str, Any]) -> "Tuning":
        """The tuning a model was saved with; ValueError when it names other constants than
        these (a model of another version of the code)."""
        names = {f.name for f in fields(cls)}
        if set(saved) != names:
            extra, missing = sorted(set(saved) - names), sorted(names - set(saved))
            raise ValueError(f"the model's tuning does not match the code's (unknown: {extra}, missing: {missing})")
        values = dict(saved)
        for name in ("intent_boost", "intent_demote"):  # JSON made the tuples lists
            values[name] = {k: (tuple(kinds), w) for k, (kinds, w) in values[name].items()}
        return cls(**values)


TUNING = Tuning()
