"""The Italian ↔ Spanish glossary (corpus/glossary.tsv), for cross-language search."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from ..concordance import NOTE_COLUMNS, Notes, notes_of, read_tsv
from ..corpus import CORPUS_DIR
from .analysis import LANGS, PLAIN, terms

COLUMNS = ("it", "es", "also", "note", *NOTE_COLUMNS)  # glossary.tsv's header
SIDES = COLUMNS[:2]  # the languages it pairs
OTHER = dict(zip(SIDES, reversed(SIDES)))


@dataclass(frozen=True)
class Pair:
    it: str
    es: str
    also: tuple[str, ...]
    note: str
    notes: Notes = ()  # the note in each language it is written in

    def side(self, lang: str) -> str:
        return self.it if lang == "it" else self.es


Words = tuple[str, ...]


def light(text: str) -> Words:
    """Words folded and lightly stemmed: plural and final vowel off ("bazas" → "baz", "carte
    esposte" → "cart espost"). Lighter than Snowball, which makes "declarante" and
    "declaración" one stem and so would confuse declarer with bid."""
    out = []
    for w in terms(PLAIN, text):
        if len(w) > 4 and w.endswith("s"):
            w = w[:-1]
        if len(w) > 4 and w[-1] in "aeiou":
            w = w[:-1]
        out.append(w)
    return tuple(out)


def _contains(words: list[str], seq: Words) -> bool:
    n = len(seq)
    return bool(seq) and seq[0] in words and any(tuple(words[i:i + n]) == seq for i in range(len(words) - n + 1))


def _first_words(entries: list[list[Words]]) -> dict[str, list[int]]:
    """First word of any of an entry's forms → the entries' positions: only entries whose
    first word the query has can match it."""
    out: dict[str, list[int]] = {}
    for i, forms in enumerate(entries):
        for first in {form[0] for form in forms if form}:
            out.setdefault(first, []).append(i)
    return out


def _candidates(starting: dict[str, list[int]], words: Iterable[str]) -> list[int]:
    """Positions of the entries that may match, in table order (the order of the output)."""
    return sorted({i for w in set(words) for i in starting.get(w, ())})


class Glossary:
    def __init__(self, pairs: list[Pair], curated: int | None = None):
        """`pairs`, the first `curated` of them glossary.tsv's own (the glossary page shows those)."""
        self.pairs = pairs
        self.curated = pairs[:len(pairs) if curated is None else curated]
        self._sides = [{lang: light(p.side(lang)) for lang in SIDES} for p in pairs]
        self._also = [[light(a) for a in p.also] for p in pairs]
        self._starting = _first_words([[*sides.values(), *also] for sides, also in zip(self._sides, self._also)])

    @classmethod
    def load(cls, path: Path = CORPUS_DIR / "glossary.tsv") -> "Glossary":
        rows = read_tsv(path, COLUMNS)
        return cls([Pair(r["it"], r["es"], tuple(a.strip() for a in r["also"].split(",") if a.strip()), r["note"],
                         notes_of(r)) for r in rows])

    def joined(self, pairs: list[Pair]) -> "Glossary":
        """This glossary with more pairs (the English terms of art, `phrasebook.term_pairs`)."""
        return Glossary(self.pairs + pairs, len(self.curated))

    def words(self) -> set[str]:
        """Every word of its terms and other names, lightly stemmed: words the search knows."""
        return {w for sides, also in zip(self._sides, self._also) for form in (*sides.values(), *also) for w in form}

    def translate(self, text: str, lang: str) -> list[str]:
        """Other-language terms for the glossary terms of `lang` found in `text`."""
        words = list(light(text))
        return [self.pairs[i].side(OTHER[lang]) for i in _candidates(self._starting, words)
                if _contains(words, self._sides[i][lang])]

    def expand(self, text: str) -> dict[str, list[str]]:
        """Terms to search per language: translations of the terms found, and both
        sides' terms for an `also` name ("claim", "dummy", "carta scoperta")."""
        words = list(light(text))
        out: dict[str, list[str]] = {lang: [] for lang in SIDES}
        for i in _candidates(self._starting, words):
            pair, sides, also = self.pairs[i], self._sides[i], self._also[i]
            for lang in SIDES:
                if _contains(words, sides[lang]):
                    out[OTHER[lang]].append(pair.side(OTHER[lang]))
            if any(_contains(words, form) for form in also):
                for lang in SIDES:
                    out[lang].append(pair.side(lang))
        return {lang: list(dict.fromkeys(v)) for lang, v in out.items()}


class Thesaurus:
    """Everyday phrases → the words the texts use, per language (corpus/thesaurus.tsv).

    "il resto è mio" → "richiesta"; "se me cayó" → "expuesta". Matched on lightly
    stemmed words, in any order, so "caduta una carta" counts as "carta caduta".
    """

    def __init__(self, rows: list[tuple[str, str, tuple[str, ...]]]):
        self.rows = rows
        self._phrases = [(lang, light(phrase), terms_) for lang, phrase, terms_ in rows]
        self._starting = _first_words([[phrase] for _, phrase, _ in self._phrases])

    @classmethod
    def load(cls, path: Path = CORPUS_DIR / "thesaurus.tsv") -> "Thesaurus":
        if not path.exists():
            return cls([])
        rows = read_tsv(path, ("lang", "phrase", "terms", "note"))
        return cls([(r["lang"], r["phrase"], tuple(t.strip() for t in r["terms"].split(",") if t.strip()))
                    for r in rows])

    def words(self) -> set[str]:
        """Every word of its phrases, lightly stemmed."""
        return {w for _, phrase, _ in self._phrases for w in phrase}

    def expand(self, text: str) -> dict[str, list[str]]:
        words = set(light(text))
        out: dict[str, list[str]] = {lang: [] for lang in LANGS}
        for i in _candidates(self._starting, words):
            lang, phrase, terms_ = self._phrases[i]
            if words.issuperset(phrase):  # everyday words, in any order
                out[lang].extend(terms_)
        return {lang: list(dict.fromkeys(v)) for lang, v in out.items()}
