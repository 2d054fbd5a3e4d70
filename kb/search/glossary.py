"""The Italian ↔ Spanish glossary (corpus/glossary.tsv) and the thesaurus of everyday phrases, and the
expansions the compiler makes of them: a query's words that say a term also search its other names.

The glossary is a domain table (the /glossary page lists it); the thesaurus ("il resto è mio" →
"richiesta", "se me cayó" → "expuesta") is search tuning. Both become one list of expansion rows
in the search model, matched in a query on lightly stemmed words (`analysis.light`): a glossary
term as a run of words, a thesaurus phrase in any order ("caduta una carta" says "carta caduta").
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..corpus.tables import Notes, notes, read_tsv
from ..corpus.manifest import CORPUS_DIR
from .analysis import light, terms
from .query import ExpansionRow

COLUMNS = ("it", "es", "also")  # glossary.tsv's header
SIDES = COLUMNS[:2]  # the languages it pairs: a pair of terms names its row (its notes, kb.corpus.tables, by them)
OTHER = dict(zip(SIDES, reversed(SIDES)))
THESAURUS_COLUMNS = ("lang", "phrase", "terms", "note")
THESAURUS_TABLE = "tuning/thesaurus.tsv"  # in a corpus folder: search tuning


@dataclass(frozen=True)
class Pair:
    it: str
    es: str
    also: tuple[str, ...]
    notes: Notes = ()  # what it says to a reader, in each language it is said in (English first)

    def side(self, lang: str) -> str:
        return self.it if lang == "it" else self.es


class Glossary:
    def __init__(self, pairs: list[Pair], curated: int | None = None):
        """`pairs`, the first `curated` of them glossary.tsv's own (the glossary page shows those)."""
        self.pairs = pairs
        self.curated = pairs[:len(pairs) if curated is None else curated]

    @classmethod
    def load(cls, path: Path = CORPUS_DIR / "glossary.tsv") -> "Glossary":
        rows = read_tsv(path, COLUMNS)
        said = notes(path, rows, SIDES)
        return cls([Pair(r["it"], r["es"], tuple(a.strip() for a in r["also"].split(",") if a.strip()),
                         said.get((r["it"], r["es"]), ())) for r in rows])

    def joined(self, pairs: list[Pair]) -> "Glossary":
        """This glossary with more pairs (the English terms of art, `entries.term_pairs`)."""
        return Glossary(self.pairs + pairs, len(self.curated))

    def words(self) -> set[str]:
        """Every word of its terms and other names, lightly stemmed: words the search knows."""
        return {w for p in self.pairs for name in (p.it, p.es, *p.also) for w in light(name)}


Thesaurus = list[tuple[str, str, tuple[str, ...]]]  # (language, everyday phrase, the texts' words it means)


def load_thesaurus(path: Path) -> Thesaurus:
    if not path.exists():
        return []
    return [(r["lang"], r["phrase"], tuple(t.strip() for t in r["terms"].split(",") if t.strip()))
            for r in read_tsv(path, THESAURUS_COLUMNS)]


def expansion_rows(glossary: Glossary | None, thesaurus: Thesaurus, langs: tuple[str, ...]) -> list[ExpansionRow]:
    """The rows a query is matched against, in the order their stems are added: per glossary
    pair, its Italian term (adding the Spanish one), its Spanish term (adding the Italian) and
    each other name (adding both); then each thesaurus phrase (adding its terms)."""
    out: list[ExpansionRow] = []
    for pair in glossary.pairs if glossary else ():
        stems = {lang: terms(lang, pair.side(lang)) for lang in SIDES if lang in langs}
        for lang in SIDES:
            out.append((light(pair.side(lang)), False, {k: v for k, v in stems.items() if k != lang}))
        out += [(light(name), False, stems) for name in pair.also]
    for lang, phrase, targets in thesaurus:
        if lang in langs:
            out.append((light(phrase), True, {lang: [s for t in targets for s in terms(lang, t)]}))
    return [row for row in out if row[0]]


def known_words(glossary: Glossary | None, thesaurus: Thesaurus) -> set[str]:
    """The lightly stemmed words of every term, other name and everyday phrase: words the search
    knows even where no text has them."""
    return (glossary.words() if glossary else set()) | {w for _, phrase, _ in thesaurus for w in light(phrase)}
