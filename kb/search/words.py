"""What a query's words are: known to the texts or a typo (and its likeliest correction), a near
cognate of the reader's language, of which language, of which game. The browser's engine
follows this module one to one (web/static/search.js, `words`)."""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

import numpy as np

from ..corpus.library import Library
from .analysis import ANY_STOPWORD, LANGS, first_term, light, terms
from .model import Model
from .phrasebook import Phrasebook
from .query import Plan
from .scoring import Scorer, edit_distance

UNKNOWN_CACHE = 8192


class Words:
    def __init__(self, model: Model, scorer: Scorer, phrasebook: Phrasebook, library: Library, row_doc: np.ndarray):
        """`row_doc`: each index document's document."""
        self.tuning = model.tuning
        self.langs = model.langs
        self.scorer = scorer
        self.library = library
        self.known = frozenset(model.get("known"))
        self.said_words = phrasebook.words()  # (language, stem): a word a phrase uses is no typo
        self.bridge_words = phrasebook.words(other_game=False)  # English bridge players say them too
        self.other_game_names = frozenset(model.get("other_game_names"))
        games = {d["id"]: d["other_game"] for d in model.documents}
        self.other_game_docs = np.array([games[d] for d in row_doc.tolist()])
        self.unknown = lru_cache(maxsize=UNKNOWN_CACHE)(self._is_unknown)  # words repeat; the model does not change

    def story(self, p: Plan) -> bool:
        """Does the query tell a story (enough words the texts or the phrasebook know)?"""
        return sum(1 for w in p.words if not w.isdigit() and not self.unknown(w)) >= self.tuning.story_words

    def _is_unknown(self, word: str) -> bool:
        """A word the texts know in no inflection, in no language, and no curated table knows
        (a term of art, an everyday phrase): likely a typo. ("chiede" is no typo of "chieda":
        the texts have "chiedere"; "revoke" is no typo of "revoca".)"""
        if self.scorer.doc_frequency("plain", word) or any(w in self.known for w in light(word)):
            return False
        if word in ANY_STOPWORD or self.said(word):
            return False  # "at", "dummy", "pointed": words of a language no text is in
        return not any(self.in_language(word, lang) for lang in self.langs)

    def said(self, word: str, langs: Iterable[str] = LANGS, said: set[tuple[str, str]] | None = None) -> bool:
        """A word of the phrasebook's phrases (or of `said`), in any of `langs`."""
        said = self.said_words if said is None else said
        return any((lang, s) in said for lang in langs for s in terms(lang, word))

    def in_language(self, word: str, lang: str) -> bool:
        return any(self.scorer.doc_frequency(f"body_{lang}", stem) for stem in terms(lang, word))

    def cognates(self, p: Plan, prefer: str | None) -> set[str]:
        """The words foreign to the reader's language that the other language's texts have: near
        cognates to look up ("involuntaria" → "involontaria"), not typos."""
        if not prefer:
            return set()
        df = self.scorer.doc_frequency
        return {w for w in p.words if len(w) >= self.tuning.cognate_min
                and df(f"body_{prefer}", first_term(prefer, w) or w) == 0 and df("plain", w) > 0}

    def about_other_game(self, p: Plan) -> bool:
        """Does the query speak of Burraco rather than of bridge? It does when it names the
        game, or when more of its words belong to the Burraco code (found almost only, and more
        than by chance, there: "pozzetto", "matta") than to the bridge texts (found in hardly any
        Burraco clause: "sostituto", "dichiarante", "scoperta"). A word the code happens to use a few
        times ("andare") is outvoted by a bridge word beside it. Short words ("out" of its
        "chiusura out") and the words of a language no text is in ("time" of its "time out":
        English bridge players say it too) say nothing of the game."""
        t = self.tuning
        if any(w in self.other_game_names for w in p.words):
            return True
        foreign = tuple(lang for lang in LANGS if lang not in self.langs)
        votes = 0
        for w in (w for w in p.words if len(w) >= t.game_word_min and not self.said(w, foreign, self.bridge_words)):
            docs, _ = self.scorer.postings("plain", w)
            if len(docs) >= t.game_word_docs:
                share = self.other_game_docs[docs].sum() / len(docs)
                votes += 1 if share >= t.other_game_share else -1 if share <= t.bridge_share else 0
        return votes > 0

    def reader_language(self, p: Plan, ui: str | None) -> str | None:
        """The texts' language a reader whose own no text is in (English, today) reads first:
        the query's, when its little words say it is one of the texts'; else, for a reader or
        a query of another language, the newest Laws'; else the language whose texts know
        more of the query's words."""
        if p.written_in in self.langs:
            return p.written_in
        if ui or p.written_in:
            return self.library.lang(self.library.laws_in_force or "")
        return self.language_of(p)

    def language_of(self, p: Plan) -> str | None:
        """The language the query is written in, when its little words say so; else the
        language whose texts know more of its words (None when even)."""
        if p.written_in:
            return p.written_in
        known = sorted(((sum(1 for s in p.stems[lang] if self.scorer.doc_frequency(f"body_{lang}", s)), lang)
                        for lang in self.langs), reverse=True)
        if len(known) < 2 or known[0][0] == known[1][0]:
            return None
        return known[0][1]

    def suggestion(self, p: Plan, unknown: set[str], lang: str | None) -> tuple[str | None, bool]:
        """The query with each unknown word replaced by the likeliest word of the texts in one
        language (the query's, else the one that corrects most): fewest edits, then most
        documents; and whether it may be shown. A query of no known language corrected only
        in part would splice two languages into one phrase: searched, never shown."""
        ours = lang in self.langs  # a query in English has no text of its own to be corrected to
        tries = [self.corrected(p, unknown, each) for each in ((lang,) if ours else self.langs)]
        words, changed = max(tries, key=lambda t: t[1])  # the first language wins a tie
        shown = ours or (lang is None and changed == len(unknown))
        return (" ".join(words), shown) if changed else (None, False)

    def corrected(self, p: Plan, unknown: set[str], lang: str) -> tuple[list[str], int]:
        words, changed = [], 0
        for w in p.words:
            maxdist = 2 if len(w) > self.tuning.correction_long else 1
            near = [c for c in self.scorer.near(w, maxdist) if self.in_language(c, lang)] if w in unknown else []
            if near:
                words.append(min(near, key=lambda c: (edit_distance(c, w, maxdist), -self.scorer.frequency(c), c)))
                changed += 1
            else:
                words.append(w)
        return words, changed
