"""Query understanding: what the user typed → a plan → the term queries scoring sums.

Nothing the user types is handed to a query parser: words are analysed with the texts' own
chains and the term queries are built here, so operators, wildcards and quotes are just
characters. `plan()` and `word_queries()` are pure functions, testable without a model; the
browser's engine follows them one to one (web/static/search.js, `query`).
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from ..records.clauseid import CLAUSE_NUMBER, TWO_ARTICLES, compact
from ..corpus.library import LAWS, NORMS
from ..corpus.languages import LANGS, REGISTRY
from .analysis import LISTED_STOPWORDS, PLAIN, WORD, first_term, fold, is_control, light, terms
from .tuning import TUNING, Tuning

MAX_QUERY_CHARS = 1500  # a story of 120 words or more, with its auction and hands


class QueryError(ValueError):
    """A query that cannot be searched; the message says why."""


# ---------------------------------------------------------------- number queries

_LAW_WORDS = "|".join(rf"(?P<{lang.code}>{lang.law_words})" for lang in REGISTRY)  # the registry's order
_APPENDIX_WORDS = "|".join(lang.appendix_words for lang in REGISTRY if lang.appendix_words)
# A law word or an appendix word, then a clause number (kb.records.clauseid.CLAUSE_NUMBER: one reader of
# clause numbers for the planner, the browser and kb cite), and nothing else.
NUMBER = re.compile(
    rf"^\s*(?:(?:(?P<appendix>{_APPENDIX_WORDS})|{_LAW_WORDS})\s*)?(?:\.\s*)?{CLAUSE_NUMBER}$",
    re.I,
)


@dataclass(frozen=True)
class NumberQuery:
    """`27B1`, `27 b 1 a`, `art. 50`, `L16`, `legge 27`, `Artículo 64`, `norma 40`, `reglamento 64`."""

    article: str
    clause: str        # compact id, section upper case: "27B1a"
    wants: tuple[tuple[str, str | None], ...]  # (kind, language) of the documents meant, preferred first
    doc: str | None = None  # the document the query names ("burraco art. 24")
    appendix: bool = False  # "appendice 4": the appendix numbered so, not an article


def number_query(text: str, names: dict[str, str] | None = None) -> NumberQuery | None:
    """A clause number, after a document's name (`names`: lower case name → document) or a
    language's word for a Law."""
    doc, text = named_document(text, names or {})
    m = NUMBER.match(text)
    if not m or int(m["art"]) == 0:
        return None
    if TWO_ARTICLES.search(text):
        return None  # "27 e 28" is two articles, not 27E28
    clause = compact(m["art"], m.groupdict())
    if m["appendix"]:
        return NumberQuery(m["art"], m["art"], () if doc else ((NORMS, None),), doc, appendix=True)
    said = next((code for code in LANGS if m[code]), None)
    # "articolo": the Italian edition; "Law", in a corpus with no English Laws: any
    wants = ((LAWS, said), (LAWS, None)) if said else ((LAWS, None),)
    return NumberQuery(m["art"], clause, () if doc else wants, doc)


def named_document(text: str, names: dict[str, str]) -> tuple[str | None, str]:
    """("reglamento", "art. 64") from "Reglamento art. 64" or "art. 64 del reglamento": the
    document a query names before or after its number (its longest name that fits) and the
    rest; (None, text) when it names none."""
    if not names:
        return None, text
    before, after, by_key = name_patterns(tuple(names))
    folded = fold(text)
    m = before.match(folded)
    if m:
        return names[by_key[m["name"]]], LINK.sub("", text[m.end():].lstrip(" .,:"))
    m = after.search(folded)
    if m and m.start() > 0:  # "art. 16 del codice", "appendice 4 norme integrative"
        return names[by_key[m["name"]]], LINK.sub("", text[:m.start()])
    return None, text


OF = r"(?:del(?:la|le|lo|l')?|dei|degli|de(?:l)?|of(?:\s+the)?|in)\s+"  # "art. 16 del codice"
# What joins a document's name and its number ("testo spagnolo dell'articolo 16", "the Spanish text
# of Law 25", "el artículo 16 del reglamento"): a preposition (OF's, "en", an elided "dell'"), an article.
LINK = re.compile(rf"^\s*(?:{OF}|en\s+|dell['’]\s*)?(?:(?:the|il|el|la|lo)\s+|l['’]\s*)?", re.I)


@lru_cache(maxsize=8)
def name_patterns(names: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str], dict[str, str]]:
    """A document's names, folded, longest first: as a query's start and as its end."""
    by_key = {fold(name): name for name in sorted(names, key=len, reverse=True)}
    alternatives = "|".join(re.escape(key) for key in by_key)
    # the end: searched from the start of a run of spaces only (else from each space of it, each
    # trying every length of the run: cubic in it)
    return (re.compile(rf"(?P<name>{alternatives})(?=[\s.,:]|[0-9]|$)"),
            re.compile(rf"(?<!\s)\s+(?:{OF})?(?P<name>{alternatives})\s*$"), by_key)


# ---------------------------------------------------------------- intent

_DEFINITION_CUES = re.compile(
    r"\b(?:cos['’]?\s*[eè]|che\s+cos['’]?\s*[eè]|chi\s+[eè]|cosa\s+(?:significa|vuol\s+dire|si\s+intende\s+per)|"
    r"definizione(?:\s+di)?|significato(?:\s+di)?|qu[eé]\s+es|qu[eé]\s+significa|definici[oó]n(?:\s+de)?|"
    r"differenza\s+(?:c['’]?\s*[eè]\s+)?tra|diferencia\s+(?:hay\s+)?entre|difference\s+between|"
    r"what\s+is\s+an?\s|what\s+does(?=\s+\w+(?:\s+\w+)?\s+mean\b)|(?<=\s)mean(?=\s*(?:\?+\s*)?$)|"
    r"meaning\s+of|definition\s+of|how\s+(?:do|does)\s+(?:the\s+)?\w+\s+define|how\s+is\s+\w+(?:\s+\w+){0,2}\s+defined|"
    r"what\s+is\s+meant\s+by|come\s+si\s+definisce|c[oó]mo\s+se\s+define|qu[eé]\s+se\s+entiende\s+por|"
    r"qu[eé]\s+quiere\s+decir)\b",
    re.I,
)
_TIMING_CUES = re.compile(
    r"\b(?:fino\s+a\s+quando|entro\s+quando|quando\s+(?:si\s+)?pu[oò]|fino\s+a\s+che|termine|scadenza|"
    r"hasta\s+cu[aá]ndo|cu[aá]ndo\s+se\s+puede|plazo)\b",
    re.I,
)


# A query that names the federation or the country asks after the rules it sets there ("under
# FIGB rules", "in an Italian team event", "nei tornei federali"): its norms and appendices.
# "Italian" naming a language ("Law 12 in Italian", "en italiano") asks for a translation, not the
# federation's rules: an adjective after "in"/"en" counts only before a noun ("in Italian events").
_ITALIAN = r"ital(?:ian|ians|iano|iana|iani|iane|ianos|ianas)"
_FEDERATION_CUES = re.compile(
    rf"\b(?:figb|federa(?:l|le|li|les|zione|zioni|ci[oó]n|ciones|tion|tions)|ital(?:y|ia)|"
    rf"(?<!\bin\s)(?<!\ben\s){_ITALIAN}|{_ITALIAN}(?=\s+\w))\b",
    re.I,
)


# Words of a question that say nothing about its subject: question words, modal and auxiliary
# verbs, first and second person ("fino a quando posso…", "¿hasta cuándo puedo…?"). The
# Snowball stop lists keep them; a query is better without them (and "posso" is no typo of "passo").
QUESTION_WORDS = frozenset("""
quando quanto entro fino dove perche perché come cosa chi posso puoi puo può possiamo potete devo
deve devi dobbiamo dovete sono sei siamo siete ho hai abbiamo avete fare faccio fa fatto mio mia
miei mie tuo tua ancora sempre ora adesso poi
cuando cuándo hasta donde dónde porque por qué que cómo como quien quién puedo puede puedes podemos
debo debe debes tengo tiene hay hacer hago hace hecho mio mía mis tus ahora
""".split())

INTENTS = (("definition", _DEFINITION_CUES), ("timing", _TIMING_CUES), ("federation", _FEDERATION_CUES))  # first wins


@dataclass
class Plan:
    """What a query means: its words, stems per language, glossary expansions, intent."""

    text: str
    words: list[str]                                  # folded, unstemmed, stop words removed
    stems: dict[str, list[str]]                       # per language
    expansions: dict[str, list[str]] = field(default_factory=dict)  # per language: stems from the glossary
    number: NumberQuery | None = None
    intent: str | None = None                          # "definition" | "timing" | "federation" | None
    written_in: str | None = None                      # the language its little words say, if one does


def clean(text: str) -> str:
    """Compatibility forms folded (full-width "２７Ｂ１" is 27B1), control characters out,
    whitespace collapsed; refuse what cannot be a query."""
    if len(text) <= MAX_QUERY_CHARS:
        text = unicodedata.normalize("NFKC", text)
    if len(text) > MAX_QUERY_CHARS:
        raise QueryError(f"query too long ({len(text)} characters; at most {MAX_QUERY_CHARS})")
    text = "".join(" " if is_control(ch) else ch for ch in text)
    return re.sub(r"\s+", " ", text).strip()


ExpansionRow = tuple[tuple[str, ...], bool, dict[str, list[str]]]  # (light words, in any order?, stems per language)


class Expansions:
    """The glossary's and the thesaurus's rows (`glossary.expansion_rows`): what a query's words
    say of them, the stems each adds per language, in row order."""

    def __init__(self, rows: Iterable[ExpansionRow] = ()):
        self.rows = [(tuple(words), any_order, adds) for words, any_order, adds in rows]
        self.starting: dict[str, list[int]] = {}  # a row can match only a query holding its first word
        for i, (words, _, _) in enumerate(self.rows):
            self.starting.setdefault(words[0], []).append(i)

    def added(self, text: str) -> dict[str, list[str]]:
        words = list(light(text))
        present = set(words)
        out: dict[str, list[str]] = {}
        for i in sorted({i for w in present for i in self.starting.get(w, ())}):
            seq, any_order, adds = self.rows[i]
            if present.issuperset(seq) if any_order else _contains(words, seq):
                for lang, stems in adds.items():
                    out.setdefault(lang, []).extend(stems)
        return out


def _contains(words: list[str], seq: tuple[str, ...]) -> bool:
    n = len(seq)
    return any(tuple(words[i:i + n]) == seq for i in range(len(words) - n + 1))


NO_EXPANSIONS = Expansions()


def plan(text: str, langs: tuple[str, ...] = LANGS, names: dict[str, str] | None = None,
         expansions: Expansions = NO_EXPANSIONS, tuning: Tuning = TUNING) -> Plan:
    """What a query asks, read in each of `langs` (the languages of the texts searched);
    `names` are the documents' names a number may follow."""
    text = clean(text)
    intent = next((name for name, cues in INTENTS if cues.search(text)), None)
    body = _DEFINITION_CUES.sub(" ", text) if intent == "definition" else text
    words = [w for w in _dedupe(terms(PLAIN, body)) if w not in QUESTION_WORDS][:tuning.max_words]
    stems = {lang: _dedupe(terms(lang, " ".join(words))) for lang in langs}
    p = Plan(text, words, stems, number=number_query(text, names), intent=intent, written_in=written_in(text))
    added = expansions.added(body)
    for lang in langs:
        p.expansions[lang] = _dedupe([s for s in added.get(lang, ()) if s not in p.stems[lang]])
    return p


OWN_STOPWORDS = {lang: own - frozenset().union(*(s for other, s in LISTED_STOPWORDS.items() if other != lang))
                 for lang, own in LISTED_STOPWORDS.items()}  # the little words only one language has, as spelt


def written_in(text: str) -> str | None:
    """The registry language whose own stop words the text uses most ("the", "was" → en;
    "il", "che" → it; "el", "que" → es); None when none or two tie."""
    words = WORD.findall(text.lower())
    votes = sorted(((sum(w in own for w in words), lang) for lang, own in OWN_STOPWORDS.items()), reverse=True)
    return votes[0][1] if votes[0][0] > (votes[1][0] if len(votes) > 1 else 0) else None


def _dedupe(items: list[str]) -> list[str]:
    return list(dict.fromkeys(items))


# ---------------------------------------------------------------- the term queries

@dataclass(frozen=True)
class TermQuery:
    """One term query of a query word: a term of a field ("term": its BM25), the words of a
    field beginning with `text` ("prefix": each document scores its best one's BM25), or the
    words within `maxdist` edits sharing its first `prefix` letters ("near": a constant)."""

    field: str
    text: str
    boost: float = 1.0
    kind: str = "term"
    maxdist: int = 0
    prefix: int = 0


EXPANDED = "~"  # the word a glossary translation's terms stand for


def word_queries(word: str, langs: tuple[str, ...], tuning: Tuning = TUNING, fuzzy: bool = False,
                 cognate: bool = False) -> list[TermQuery]:
    """One query word's term queries: in every field where it can match, stemmed for each
    of `langs`; approximately too when `fuzzy`, or as a near cognate in another language."""
    t = tuning
    out = [TermQuery("plain", word, t.plain_boost)]
    if len(word) <= t.acronym_max and word.isalpha():  # acronyms written with a plural: "IMP" → "IMPs"
        out.append(TermQuery("plain", word + "s", t.plain_boost))
    for lang in langs:
        stem = first_term(lang, word)
        if stem:
            out += [TermQuery(f"title_{lang}", stem, t.title_boost), TermQuery(f"body_{lang}", stem)]
    if len(word) >= t.prefix_min and not word.isdigit():
        family = max(t.prefix_min, math.floor(len(word) * t.prefix_share + 0.5))  # half up, as the browser rounds
        out.append(TermQuery("plain", word[:family], t.prefix_boost, "prefix"))
    if fuzzy:
        out.append(TermQuery("plain", word, t.fuzzy_boost, "near", 2 if len(word) > t.fuzzy_long else 1, 1))
    elif cognate:  # "involuntaria" ~ "involontaria", "insuficiente" ~ "insufficiente"
        out.append(TermQuery("plain", word, t.cognate_boost, "near", 2 if len(word) > t.cognate_long else 1, 2))
    return out


def expansion_queries(expansions: dict[str, list[str]], tuning: Tuning = TUNING) -> list[TermQuery]:
    """The term queries of a glossary translation's stems, per language."""
    t = tuning
    return [q for lang, stems in expansions.items() for stem in stems
            for q in (TermQuery(f"title_{lang}", stem, t.expansion_boost * t.title_boost),
                      TermQuery(f"body_{lang}", stem, t.expansion_boost))]


def term_queries(p: Plan, tuning: Tuning = TUNING) -> list[TermQuery]:
    """Every term query a plan sums (its words', then its glossary translation's): nothing the
    user typed is more than a term to look up (for inspection and tests)."""
    langs = tuple(p.stems)
    return [q for w in p.words for q in word_queries(w, langs, tuning)] + expansion_queries(p.expansions, tuning)
