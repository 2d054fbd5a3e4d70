"""The Italian ↔ Spanish glossary (corpus/glossary.tsv), for cross-language search."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..concordance import read_tsv
from ..corpus import CORPUS_DIR
from .analysis import ANALYZERS, terms

OTHER = {"it": "es", "es": "it"}


@dataclass(frozen=True)
class Pair:
    it: str
    es: str
    note: str

    def side(self, lang: str) -> str:
        return self.it if lang == "it" else self.es


class Glossary:
    def __init__(self, pairs: list[Pair]):
        self.pairs = pairs
        # each side as its stemmed words, so "renonces" or "bazas" still match
        self._stems = [{lang: tuple(terms(ANALYZERS[lang], p.side(lang))) for lang in OTHER} for p in pairs]

    @classmethod
    def load(cls, path: Path = CORPUS_DIR / "glossary.tsv") -> "Glossary":
        return cls([Pair(r["it"], r["es"], r["note"]) for r in read_tsv(path, ("it", "es", "note"))])

    def translate(self, text: str, lang: str) -> list[str]:
        """Other-language terms for the glossary terms of `lang` found in `text`."""
        words = terms(ANALYZERS[lang], text)
        out = []
        for pair, stems in zip(self.pairs, self._stems):
            seq = stems[lang]
            if seq and any(tuple(words[i:i + len(seq)]) == seq for i in range(len(words) - len(seq) + 1)):
                out.append(pair.side(OTHER[lang]))
        return out
