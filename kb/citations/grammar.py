"""Citation grammar: find the references written in a text (step 1 of find → resolve → annotate).

Table-driven: each language has its keywords, list connectors, relative
triggers and direction words; the finders below only combine them. A finder
returns `Mention`s (a span of the text and what it names, as written); it
knows nothing of documents. `kb.citations.extract` resolves them.

Mention kinds:
- `law`      an article/clause id with an article number ("Art 20F5", "26b" → 26B);
- `relative` a clause id without article number ("vedi C2 sotto", "punto 3", "(a) e (b) sopra");
- `norm`     an integrative norm named by its Law ("Norma Integrativa all'Art. 79");
- `appendix` a norms appendix by number or name ("Appendice 5", "normativa sistemi");
- `definition` a definition named in quotes (`Vedi "Ritirata".`) or the definitions article;
- `external` a text outside the corpus (Statuto Federale, Regolamento di Giustizia, …).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..records.clauseid import CLAUSE_NUMBER, PARTS, TWO_ARTICLES, compact


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    raw: str
    kind: str
    ref: str  # the id as the text means it, compact: "26B", "C2", "2c", "a"; a name for external/appendix
    point: str | None = None     # a point named after a norm/appendix/article: "Art. 4 punto 3" → "3"
    direction: str | None = None  # "before" ("sopra", "precedente") or "after" ("seguenti", "successivo")
    scope: tuple[str, ...] = ()   # words naming the part a point belongs to: "… relativi ai sistemi blu"
    written: str = ""             # a point's marker as printed: "a)", "(a)", "2)"
    named: str | None = None      # the document's name written with it: "reglamento 64", "Law 16C (2007)"


# ---------------------------------------------------------------- shared pieces

_PAREN = r"\((?:[a-z]|i{1,3}|iv|vi{0,3}|ix|x)\)"
_ITEMS = rf"(?:\s?{_PAREN}|\([a-z](?=[,;]))*"  # "(b) (i)"; "(b" left unclosed before , or ;

# A section letter written apart from its article ("art. 16 B", "Law 16 B1"): a lone capital;
# A and E, which are also words ("Art 16 A tale scopo", "E poi"), only before their number,
# a punctuation mark, the end or a list connector.
_SPACED_SECTION = (r"\s(?=[BCDFG](?![A-Za-zà-ú'’])"
                   r"|[AE](?:\d|[,.;:)\]]|$|\s+(?:e|ed|o|y|u|and|or)\s))")

# An id with an article number. Section letters are upper case, or lower case only when
# glued and not followed by a letter ("26b"); "86.B" and "73,D2" keep the punctuation inside.
LAW_ID = re.compile(
    rf"(?P<art>\d{{1,2}})(?![\d/%°.]\d)(?![\d%°])"
    rf"(?:(?:[.,]|{_SPACED_SECTION})?(?P<sec>[A-G])(?![A-Za-zà-ú])|(?P<lsec>[a-g])(?![A-Za-zà-ú\d]))?"
    rf"(?:(?<=[A-Ga-g])(?P<num>\d{{1,2}})(?!\d))?"
    rf"(?P<items>{_ITEMS})"
    rf"(?:(?<=\d)(?P<glued>[a-z])(?![A-Za-zà-ú\d]))?"
)

# An id without article number, resolved against the enclosing clause.
REL_ID = re.compile(
    rf"(?P<sec>[A-G])(?P<num>\d{{1,2}})?(?:(?<=\d)(?P<glued>[a-z]))?(?P<items>{_ITEMS})(?![A-Za-zà-ú\d'’])"
    rf"|(?P<nnum>[1-9])(?P<nitems>(?:{_PAREN})*)(?![A-Za-zà-ú\d%/'’°]|\.\d|\s?(?:carte|cartas|prese|bazas|punti|puntos|IMP|%))"
    rf"|(?P<pitems>{_PAREN}(?:\s?{_PAREN})*)(?![A-Za-zà-ú])"
)

# "ARTICOLO 23- CHIAMATA PARAGONABILE": an article heading quoted in a text, not a citation.
_HEADING_TITLE = re.compile(r"\s*[-–]\s*[A-ZÀ-Ù]{3,}")

# Numbers that are never article numbers when they follow a list connector.
_NOT_AN_ARTICLE = re.compile(
    r"\s?(?:carte|cartas|prese|bazas|punti|puntos|board|boards|estuches|minuti|minutos|IMP|%|°|ore|volte|veces)\b|\s?%"
)


def compact_law(m: re.Match[str]) -> str:
    sec = m["sec"] or (m["lsec"] or "").upper()
    items = re.findall(r"\(([a-z]+)", m["items"] or "")
    return f"{m['art']}{sec}{m['num'] or ''}{''.join(items)}{m['glued'] or ''}"


def compact_relative(m: re.Match[str]) -> str:
    if m["sec"]:
        return m["sec"] + (m["num"] or "") + (m["glued"] or "") + "".join(re.findall(r"\(([a-z]+)", m["items"] or ""))
    if m["nnum"]:
        return m["nnum"] + "".join(re.findall(r"\(([a-z]+)", m["nitems"] or ""))
    return "(" + ")(".join(re.findall(r"\(([a-z]+)", m["pitems"])) + ")"


# ---------------------------------------------------------------- language tables

@dataclass(frozen=True)
class Language:
    keyword: str          # regex: the article keyword, singular or plural, abbreviated or not
    connector: str        # regex: what joins list members ("e", "o", "oppure", "y", "u" …)
    determiner: str       # regex: articles and prepositions that may stand before a member
    triggers: str         # regex: words that announce a relative id ("vedi", "punto" …)
    number_triggers: str  # regex: words after which a bare number is a relative id
    directions: str       # regex: words that point up or down the text ("sopra", "anterior" …)
    bare_opener: str      # regex: words after which a full id needs no keyword ("ver 12C1", "del 25B")


ITALIAN = Language(
    keyword=r"(?:[Aa]rticol[oi]|ARTICOL[OI]|ART\.|[Aa]rtt\.|[Aa]rt\.?|[Ll]egg[ei]|LEGG[EI]|[Rr]egol[ae])(?![a-zà-ú])",
    connector=r"(?:,|;)?\s*(?:\b(?:e|ed|o|od|oppure|ovvero)\b(?:\s+non\s+(?:il|l['’]))?)?",
    determiner=r"(?:\b(?:l['’]|il|gli|all['’]|agli|dall['’]|dagli|dell['’]|degli|nell['’]|negli|sull['’])\s*)?",
    triggers=r"\b(?:vedi|vedere|veda|punt[oi]|letter[ae]|sopra|in|caso|di|dai|dei|al|ai|fattispecie|criteri|requisiti)",
    number_triggers=r"\b(?:punt[oi]|precedenti\s+punti|i\s+punti|dai\s+punti)",
    directions=r"(?:sopra(?:\s+riportat[oie])?|sotto|seguent[ei]|precedent[ei]|successiv[oaie]|più\s+avanti|qui\s+di\s+seguito)\b",
    bare_opener=r"(?:\(|\b(?:vedi|in|del|dei|al|dal|comma|disposti\s+del))",
)

SPANISH = Language(
    keyword=r"(?:[Aa]rtículos?\.?|[Aa]rt\.?|[Ll]ey(?:es)?|LEY(?:ES)?|[Rr]eglas?)(?![a-zà-ú])",
    connector=r"(?:,|;)?\s*(?:\b(?:y|e|o|u)\b(?:\s+no(?:\s+el)?)?)?",
    determiner=r"(?:\b(?:el|los|del|al|la|las)\s+)?",
    triggers=r"\b(?:ver|véase|punto|puntos|apartado|apartados|número|números|en|según|aplicando|de)",
    number_triggers=r"\b(?:puntos?|números?|apartados?|dispuesto\s+en|en)",
    directions=r"(?:anterior(?:es)?|a\s+continuación|abajo|arriba|siguientes?|precedentes?)\b",
    bare_opener=r"(?:\(|\b(?:[Vv]er|en|del|de|al))",
)

ENGLISH = Language(
    keyword=r"(?:[Ll]aws?|LAWS?)(?![a-z])",
    connector=r"(?:,|;)?\s*(?:\b(?:and|or)\b(?:\s+not)?)?",
    determiner=r"(?:\b(?:the)\s+)?",
    triggers=r"\b(?:see|under|in|of|paragraphs?|subparagraphs?)",
    number_triggers=r"\b(?:paragraphs?|subparagraphs?)",
    directions=r"(?:above|below|following|preceding)\b",
    bare_opener=r"(?:\(|\b(?:see|in|of|under))",
)

LANGUAGES = {"it": ITALIAN, "es": SPANISH, "en": ENGLISH}


# ---------------------------------------------------------------- finders

def find(text: str, lang: str, labels: dict[str, str] | None = None,
         titles: dict[str, str] | None = None, names: tuple[str, ...] = (),
         reader: "Reader | None" = None) -> list[Mention]:
    """Every reference written in `text`, in order, spans never overlapping.

    `labels` and `titles` name the clauses of the unit being read (label or
    title → clause id): a label such as "X2" used in the text, or "vedi note"
    naming a titled part, is a relative mention of that clause. `names` are what
    readers call the documents ("reglamento", "norma", "2007"): an id written with
    one ("reglamento 64", "Law 16C (2007)") is a Law mention `named` so. `reader`:
    read also what readers write and the texts never do (`Reader`; kb cite only).
    """
    language = LANGUAGES[lang]
    taken: list[Mention] = find_named(text, labels or {}, titles or {})
    for finder in (find_external, find_norms, find_appendices, find_definitions, find_points):
        taken += [m for m in finder(text) if not _overlaps(m, taken)]
    if names:
        taken += [m for m in find_named_documents(text, names, language, reader) if not _overlaps(m, taken)]
    taken += [m for m in find_law_lists(text, language, reader=reader) if not _overlaps(m, taken)]
    taken += [m for m in find_law_lists(text, language, bare=True, reader=reader) if not _overlaps(m, taken)]
    if names:
        taken = named_after(text, sorted(taken, key=lambda m: m.start), names)
    taken = [_last_paragraph(text, m) if m.kind == "law" else m for m in taken]
    if reader:
        taken = [reader.paragraph(text, m) if m.kind == "appendix" and not m.point else m for m in taken]
    laws = [m for m in taken if m.kind == "law"]
    for m in find_relative(text, language):
        law = _qualified(text, m, laws)
        if law is not None:
            taken[taken.index(law)] = _narrowed(text, law, m)
        elif not _overlaps(m, taken):
            taken.append(m)
    return situate(text, sorted(taken, key=lambda m: m.start), language)


def _qualified(text: str, m: Mention, laws: list[Mention]) -> Mention | None:
    """"art. 24 punto 2": a point written right after a Law id narrows it; it is no relative."""
    return next((law for law in laws if 0 <= m.start - law.end <= 12
                 and re.fullmatch(r"[\s,]*(?:punt[oi]|lettera|comma|apartado|número)?\s*", text[law.end:m.start])),
                None)


def _narrowed(text: str, law: Mention, point: Mention) -> Mention:
    """The Law mention with the point that narrows it, when a word says so ("art. 24 punto 2")."""
    if not re.search(r"punt[oi]|lettera|comma|apartado|número", text[law.end:point.start]):
        return law
    return replace(law, end=point.end, raw=text[law.start:point.end], point=point.ref)


# points named by position: "l'ultimo comma dell'art. 28", "il punto successivo", "i punti precedenti"
LAST, NEXT, PRECEDING = "last", "next", "preceding"
_LAST_PARAGRAPH = re.compile(r"(?:l['’]\s*)?ultimo\s+(?:comma|capoverso|paragrafo)\s+(?:dell['’]\s*|del\s+)$")


def _last_paragraph(text: str, law: Mention) -> Mention:
    """"l'ultimo comma dell'art. 28": the last paragraph of the article."""
    m = _LAST_PARAGRAPH.search(text[max(0, law.start - 30):law.start])
    if m is None:
        return law
    start = law.start - (len(m.group()))
    return replace(law, start=start, raw=text[start:law.end], point=LAST)


# ---------------------------------------------------------------- where a point lies

_BEFORE_WORDS = r"sopra|precedent[ei]|anterior(?:es)?|arriba"
_AFTER_WORDS = r"sotto|seguent[ei]|successiv[oaie]|più\s+avanti|qui\s+di\s+seguito|siguientes?|a\s+continuación|abajo"
_DIRECTION_BEFORE = re.compile(rf"\b(?:(?P<b>{_BEFORE_WORDS})|(?P<a>{_AFTER_WORDS}))\s+(?:punt[oi]|apartados?|criteri|requisiti)?\s*$")
_DIRECTION_AFTER = re.compile(rf"[\s),.]*(?:(?P<b>{_BEFORE_WORDS})|(?P<a>{_AFTER_WORDS}))\b")
_SCOPE = re.compile(r"[\s),]*(?:(?:sopra|seguenti|precedenti)\s+)?"
                    r"(?:del(?:la|lo|l['’])?|dei|degli|relativ[ioae]\s+a(?:i|gli|l|lla|lle)?)\s*"
                    r"(?P<w1>[A-Za-zà-ú]+)(?:\s+(?P<w2>[A-Za-zà-ú]+))?")
_GROUP_GAP = re.compile(r"\s*(?:,|\b(?:e|ed|o|oppure|y|u)\b)\s*(?:punt[oi]\s*)?\)?\s*")
POINT_KINDS = ("relative", "point")


def situate(text: str, mentions: list[Mention], language: Language) -> list[Mention]:
    """Give each run of points ("punti 1 e 2 seguenti", "requisiti A, B, C e D relativi ai
    sistemi blu") the direction and scope words written around the run."""
    out = list(mentions)
    i = 0
    while i < len(out):
        if out[i].kind not in POINT_KINDS:
            i += 1
            continue
        j = i
        while j + 1 < len(out) and out[j + 1].kind in POINT_KINDS \
                and _GROUP_GAP.fullmatch(text[out[j].end:out[j + 1].start]):
            j += 1
        direction, scope = _surroundings(text, out[i].start, out[j].end)
        for k in range(i, j + 1):
            out[k] = replace(out[k], direction=direction, scope=scope, written=_written(text, out[k]))
        i = j + 1
    return out


def _written(text: str, m: Mention) -> str:
    """The point's marker as printed, parentheses included: "a)" in "punto a)", "(d)"."""
    ident = re.search(r"\(?[A-Za-z0-9]+\)?$", m.raw)
    mark = ident.group() if ident else ""
    if mark and not mark.endswith(")") and "(" not in mark and text[m.end:m.end + 1] == ")":
        mark += ")"
    return mark


def _surroundings(text: str, start: int, end: int) -> tuple[str | None, tuple[str, ...]]:
    before = _DIRECTION_BEFORE.search(text[max(0, start - 30):start])
    after = _DIRECTION_AFTER.match(text, end)
    found = after or before
    direction = None if found is None else "before" if found["b"] else "after"
    scope = _SCOPE.match(text, after.end() if after else end)
    words = tuple(w.lower() for w in (scope["w1"], scope["w2"]) if w) if scope else ()
    return direction, words


def find_named(text: str, labels: dict[str, str], titles: dict[str, str]) -> list[Mention]:
    out = []
    if labels:
        names = "|".join(re.escape(k) for k in sorted(labels, key=len, reverse=True))
        for m in re.finditer(rf"(?<![\w.])(?:{names})(?![\w])", text):
            out.append(Mention(m.start(), m.end(), m.group(), "named", labels[m.group()]))
    if titles:
        names = "|".join(re.escape(k) for k in sorted(titles, key=len, reverse=True))
        for m in re.finditer(rf"\b[Vv]edi\s+(?:(?:le|la|il|i)\s+)?(?P<t>{names})\b", text, re.I):
            out.append(Mention(m.start(), m.end(), m.group(), "named", titles[m["t"].lower()]))
    return sorted(out, key=lambda m: m.start)


def _overlaps(m: Mention, taken: list[Mention]) -> bool:
    return any(m.start < t.end and t.start < m.end for t in taken)


def find_law_lists(text: str, language: Language, bare: bool = False, reader: "Reader | None" = None) -> list[Mention]:
    """`KEYWORD id (connector [determiner] [KEYWORD] id)*` — one mention per id.

    `bare`: the list opens with no keyword but with a full id that has a section
    letter ("definido en 79C", "(70C2)", "I disposti del 57A e 57B").
    """
    out: list[Mention] = []
    words = language.keyword if reader is None or bare else f"(?:{language.keyword}|{reader.keywords})"
    opener = language.bare_opener if bare else words
    keyword = re.compile(r"(?<![\w])" + opener + r"\s*(?:\*\*)?\s*")
    link = re.compile(rf"\s*(?:\(\s*|{language.connector}\s*){language.determiner}(?:{words}\s*)?")
    pos = 0
    while (k := keyword.search(text, pos)) is not None:
        m = law_id(text, k.end(), reader)
        if (m is None or _NOT_AN_ARTICLE.match(text, m.end) or _HEADING_TITLE.match(text, m.end)
                or (bare and not m.lettered)):
            pos = k.end()
            continue
        start = m.start if bare else k.start()
        out.append(Mention(start, m.end, text[start:m.end], "law", m.ref))
        pos = m.end
        while True:
            c = link.match(text, pos)
            if c is None or c.end() == pos or not re.search(r"[,;(]|\w", c.group()):
                break
            n = law_id(text, c.end(), reader)
            if n is None or _NOT_AN_ARTICLE.match(text, n.end):
                break
            out.append(Mention(n.start, n.end, text[n.start:n.end], "law", n.ref))
            pos = n.end
    return out


@dataclass(frozen=True)
class LawId:
    """An id with an article number where a text writes it: `ref` compact ("27B1b")."""
    start: int
    end: int
    ref: str
    lettered: bool  # it has a section letter


def law_id(text: str, pos: int, reader: "Reader | None" = None) -> LawId | None:
    """The id written at `pos` (`LAW_ID`), or with a reader the whole of it as readers write it."""
    m = LAW_ID.match(text, pos)
    if m is None:
        return None
    found = LawId(m.start(), m.end(), compact_law(m), bool(m["sec"] or m["lsec"]))
    return reader.whole(text, found) if reader else found


# ---------------------------------------------------------------- documents named

# What joins an id and the document named after it: "del reglamento", "of the 2007 Laws", "(2007)".
# The article is tried last, so a name that starts with one ("the 2007 laws") is read whole.
_OF_DOCUMENT = r"(?:del(?:la|le|lo|l['’])?|dell['’]|dei|de(?:l)?|of(?:\s+the)??|in|en)\s*(?:(?:the|il|el|la|lo)\s+|l['’]\s*)??"
_CONNECTED = re.compile(r"[\s,;]*(?:\b(?:e|ed|o|oppure|y|u|and|or)\b)?\s*")


def _name_pattern(names: tuple[str, ...]) -> str:
    """The names as alternatives, longest first, in any case; never inside a word."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return rf"(?<![\w])(?P<name>(?i:{alternatives}))(?!\w)"


def _canonical(names: tuple[str, ...], written: str) -> str:
    return next(n for n in names if n.casefold() == written.casefold())


def find_named_documents(text: str, names: tuple[str, ...], language: Language,
                         reader: "Reader | None" = None) -> list[Mention]:
    """An id right after a document's name ("reglamento 64", "norma 40", "codice art. 12C1",
    "Reglamento 2007, Art. 12C1(e)"); a name of digits alone ("2007") only names an edition
    after the id (`named_after`)."""
    worded = tuple(n for n in names if not n.isdigit())
    if not worded:
        return []
    pattern = re.compile(_name_pattern(worded) + rf"\s*(?:,?\s*{language.keyword}\s*)?")
    out = []
    for m in pattern.finditer(text):
        law = law_id(text, m.end(), reader)
        if law is None or _NOT_AN_ARTICLE.match(text, law.end):
            continue
        mention = Mention(m.start(), law.end, text[m.start():law.end], "law", law.ref, named=_canonical(worded, m["name"]))
        out.append(reader.paragraph(text, mention) if reader else mention)
    return out


def named_after(text: str, mentions: list[Mention], names: tuple[str, ...]) -> list[Mention]:
    """A document named after a Law id ("Artículo 64 del reglamento", "Law 16C (2007)") names
    it; a name names every id of the list it closes ("Art 30, 31 o 32 del reglamento") or opens
    ("reglamento art. 64 y 65")."""
    after = re.compile(rf"(?:(?P<paren>\s*\(\s*)|,?\s+{_OF_DOCUMENT}){_name_pattern(names)}(?(paren)\s*\))")
    out = list(mentions)
    for i, m in enumerate(mentions):
        found = after.match(text, m.end) if m.kind == "law" and m.named is None else None
        if found is not None:
            out[i] = replace(m, end=found.end(), raw=text[m.start:found.end()], named=_canonical(names, found["name"]))
    return _listed_alike(text, out)


def _listed_alike(text: str, mentions: list[Mention]) -> list[Mention]:
    """Each unnamed Law id of a list takes the name written with the list: from its last id
    backwards when the name follows it, from its first id forwards when the name precedes it."""
    out = list(mentions)
    carried: str | None = None
    for i in range(len(out) - 1, -1, -1):  # "30, 31 o 32 del reglamento"
        m = out[i]
        if carried and m.named is None and _one_list(text, m, out[i + 1]):
            out[i] = replace(m, named=carried)
            continue
        carried = m.named if m.named and not _named_first(m) else None
    for i, m in enumerate(out):  # "reglamento art. 64 y 65"
        if carried and m.named is None and _one_list(text, out[i - 1], m):
            out[i] = replace(m, named=carried)
            continue
        carried = m.named if _named_first(m) else None
    return out


def _one_list(text: str, a: Mention, b: Mention) -> bool:
    """b follows a in one list: only connectors between them, and no keyword of its own (a keyword
    opens another list: "reglamento 64, art. 65", "Law 22A1 and Law 72C of the 2007 Laws")."""
    return a.kind == b.kind == "law" and b.raw[:1].isdigit() and bool(_CONNECTED.fullmatch(text[a.end:b.start]))


def _named_first(m: Mention) -> bool:
    """The document's name is written before the id ("reglamento 64"), not after it."""
    return bool(m.named) and m.raw.casefold().startswith(m.named.casefold())


def find_relative(text: str, language: Language) -> list[Mention]:
    """Ids without article number, announced by a trigger or followed by a direction word,
    or distinctive enough alone (a section letter with a number: "C2", "B1(b)")."""
    out: list[Mention] = []
    connector = re.compile(rf"\s*(?:,|\b(?:e|ed|o|oppure|y|u)\b)\s*(?:{language.number_triggers}\s*)?")
    trigger = re.compile(rf"(?:{language.triggers}|{language.number_triggers})\s*(?:\*\*)?\s*$")
    direction = re.compile(rf"\s*(?:\*\*)?\s*\(?,?\s*{language.directions}")
    pos = 0
    while (m := REL_ID.search(text, pos)) is not None:
        pos = m.end()
        if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "'’"):
            continue
        members = [m]
        while (c := connector.match(text, members[-1].end())) and (n := REL_ID.match(text, c.end())):
            members.append(n)
        before = text[max(0, m.start() - 30):m.start()]
        announced = bool(trigger.search(before))
        pointed = bool(direction.match(text, members[-1].end()))
        for member in members:
            if _relative_ok(member, announced, pointed, before, language):
                out.append(Mention(member.start(), member.end(), member.group(), "relative",
                                   compact_relative(member)))
        pos = members[-1].end()
    return out


def _relative_ok(m: re.Match[str], announced: bool, pointed: bool, before: str, language: Language) -> bool:
    if m["sec"] and (m["num"] or m["items"] or m["glued"]):
        return True  # "C2", "B1(b)": distinctive on their own
    if announced or pointed:
        if m["nnum"] and not (m["nitems"] or pointed or re.search(rf"{language.number_triggers}\s*$", before)):
            return False
        return True
    return False


# ---------------------------------------------------------------- named things

# Texts outside the corpus — other regulations, a federation's, a championship's —, each a row:
# (pattern, canonical name). An article written with one ("art. 8 del Regolamento di Giustizia",
# "artículo 5 del Reglamento de Competiciones de la AEB", "Law 12 of the Bermuda Bowl Conditions
# of Contest", "Codice di Comportamento, art. 4") is part of the mention, so its number is never
# read as a Law. The Laws' own names ("del Reglamento", "of the 2007 Laws") are the manifest's:
# a row here is what those names are not.
EXTERNALS: list[tuple[str, str]] = [
    # the Italian federation's (FIGB) regulations
    (r"Statuto\s+Federale", "Statuto Federale"),
    (r"Regolamento\s+di\s+[Gg]iustizia(?:\s+FIGB)?", "Regolamento di Giustizia"),
    (r"R\.\s?G\.\s?S\.", "R.G.S."),
    (r"Regolamento\s+del\s+Settore\s+Arbitrale(?:\s+FIGB)?", "Regolamento del Settore Arbitrale"),
    (r"Regolamento\s+Campionati(?:\s+FIGB)?", "Regolamento Campionati"),
    (r"Regolamento\s+Tornei(?:\s+FIGB)?", "Regolamento Tornei"),
    (r"Regolamento\s+[Tt]ecnico(?:\s+FIGB)?", "Regolamento Tecnico"),
    (r"Regolamento\s+[Oo]rganico(?:\s+FIGB)?", "Regolamento Organico"),
    (r"Codice\s+di\s+[Cc]omportamento(?:\s+FIGB)?", "Codice di Comportamento"),
    (r"Codice\s+[Ee]tico(?:\s+FIGB)?", "Codice Etico"),
    (r"Norme\s+Integrative\s+20\d\d", "Norme Integrative 2020"),
    (r"Commentario\s+ufficiale", "Commentario ufficiale"),
    # the World Bridge Federation's, and the conditions of an event
    (r"(?:WBF\s+)?Code\s+of\s+Practice(?:\s+della\s+WBF)?", "WBF Code of Practice"),
    (r"Verbale\s+della\s+WBFLC\s+del\s+20\s+ottobre\s+2011", "WBFLC minute 2011-10-20"),
    (r"verbale\s+del\s+30\s+agosto\s+2000", "WBF Laws Committee minute 2000-08-30"),
    (r"(?:WBF\s+)?Systems?\s+Policy", "WBF Systems Policy"),
    (r"(?:[A-Z][\w.]*\s+){0,3}?Conditions\s+of\s+Contest", "Conditions of Contest"),  # "Bermuda Bowl Conditions of Contest"
    (r"(?:General\s+)?(?:Tournament\s+)?Regulations\s+of\s+the\s+(?:WBF|EBL|ACBL)", "Tournament Regulations"),
    # the Spanish association's (AEB)
    (r"Reglamento\s+sobre\s+la\s+Práctica\s+del\s+Juego", "Reglamento sobre la Práctica del Juego"),
    (r"Reglamento\s+(?:General\s+)?de\s+Competici[oó]n(?:es)?(?:\s+de\s+la\s+AEB)?", "Reglamento de Competiciones"),
    (r"Reglamento\s+(?:de\s+)?[Dd]isciplin(?:a|ario)(?:\s+de\s+la\s+AEB)?", "Reglamento de Disciplina"),
    (r"Estatutos\s+de\s+la\s+AEB", "Estatutos de la AEB"),
    (r"Normas\s+AEB", "Normas AEB"),
    (r"\banexo\b", "anexo"),
]
# Before a name: "art. 8 del", "artículo 5 del", "Law 12 of the"; after it: ", art. 4"
# (not "…, art. 12 del Codice": that article is another text's).
_EXTERNAL_KEYWORD = r"(?:[Aa]rt(?:icol[oi]|ículos?)?\.?|[Ll]aws?|[Rr]ules?|[Rr]egla)"
_EXTERNAL_ARTICLE = (rf"(?:{_EXTERNAL_KEYWORD}\s*(?P<art>\d+)(?:\s+lettera\s+\w\))?\s+"
                     r"(?:del|dello|della|de\s+la|de\s+los|de|of\s+the|of)\s+(?:(?:the|[Ll]a|[Ii]l|[Ee]l|[Ll]o)\s+)?)?")
_EXTERNAL_AFTER = (r"(?:\s*,?\s*(?:[Aa]rt(?:icol[oi]|ículos?)?\.?)\s*(?P<after>\d+)(?![\d.,]\d)(?!\d)"
                   r"(?!\s+(?:del|dello|della|de|of)\b))?")  # ", art. 4" (", Law 12" is the Laws')


# The table as one pattern (one pass over a text, not one a row): at one place, the first row that reads it.
_EXTERNAL = re.compile(_EXTERNAL_ARTICLE + "(?:" + "|".join(f"(?P<x{i}>{pattern})" for i, (pattern, _) in enumerate(EXTERNALS))
                       + ")" + _EXTERNAL_AFTER)


def find_external(text: str) -> list[Mention]:
    out = []
    for m in _EXTERNAL.finditer(text):
        name = next(EXTERNALS[i][1] for i in range(len(EXTERNALS)) if m[f"x{i}"] is not None)
        art = m["art"] or m["after"]
        out.append(Mention(m.start(), m.end(), m.group(), "external", f"{name} art. {art}" if art else name))
    return out


_NORM = re.compile(
    r"[Nn]orm[ae]\s+(?:[Ii]ntegrativ[ae]|Int\.)\s+(?:(?:all['’]|agli\s+)?[Aa]rt(?:icol[oi])?\.?\s*)"
    r"(?P<n>\d{1,2})(?:\s+e\s+(?P<n2>\d{1,2}))?(?:\.(?P<pt>\d+)|\s+punto\s+(?P<pt2>\d+))?"
    r"|(?:punti\s+)?(?P<p1>\d+[a-z]\d[a-z])(?:\s+e\s+(?P<p2>\d+[a-z]\d[a-z]))?"
    r"\s+delle\s+[Nn]orme\s+[Ii]ntegrative\s+all['’][Aa]rticolo\s+(?P<n3>\d{1,2})"
)


def find_norms(text: str) -> list[Mention]:
    """A norm named by its Law; a list names several ("agli articoli 23 e 27")."""
    out = []
    for m in _NORM.finditer(text):
        if m["n3"]:  # "punti 7a1g e 7a2g delle norme integrative all'Articolo 78": two points of one norm
            points = [g for g in ("p1", "p2") if m[g]]
            for g in points:  # the last mention runs to the end, so "Articolo 78" is not read again
                end = m.end() if g == points[-1] else m.end(g)
                out.append(Mention(m.start(g), end, text[m.start(g):end], "norm", m["n3"], point=m[g]))
            continue
        end = m.end("n") if m["n2"] else m.end()
        point = None if m["n2"] else m["pt"] or m["pt2"]
        out.append(Mention(m.start(), end, text[m.start():end], "norm", m["n"], point=point))
        if m["n2"]:
            out.append(Mention(m.start("n2"), m.end(), text[m.start("n2"):m.end()], "norm", m["n2"]))
    return out


_POINT_ID = r"(?:[a-z]\d[a-z\d]*|\d[a-z][a-z\d]*|(?<!\()[a-z]\))"
_POINT = re.compile(rf"\bpunt[oi]\s+(?P<p>{_POINT_ID})(?P<more>(?:\s*(?:,|\be\b|\bo\b)\s*{_POINT_ID})*)")
_POINT_ITEM = re.compile(_POINT_ID)


_PRECEDING_POINTS = re.compile(r"\bpunti\s+precedenti\b(?!\s*(?:\(?[a-z]\)|\d))")
_NEXT_POINT = re.compile(r"\bpunto\s+(?:successivo|seguente)\b(?!\s*(?:\(?[a-z]\)|\d))")


def find_points(text: str) -> list[Mention]:
    """Points of a norm or article in their own lower-case numbering: "punto a2", "punti a) e b)";
    "il punto successivo" (the next point of the same list), "i punti precedenti" (all before)."""
    out = [Mention(m.start(), m.end(), m.group(), "point", NEXT) for m in _NEXT_POINT.finditer(text)]
    out += [Mention(m.start(), m.end(), m.group(), "point", PRECEDING) for m in _PRECEDING_POINTS.finditer(text)]
    for m in _POINT.finditer(text):
        out.append(Mention(m.start(), m.end("p"), text[m.start():m.end("p")], "point", m["p"].strip("()")))
        for n in _POINT_ITEM.finditer(text, m.start("more"), m.end("more")):
            out.append(Mention(n.start(), n.end(), n.group(), "point", n.group().strip("()")))
    return out


# Appendices of the integrative norms, named by number or by their subject.
APPENDIX_NAMES = {
    "sistemi": "sistemi", "alert": "alert", "pre alert": "alert", "sipari": "sipari",
}
_APPENDIX = re.compile(
    r"Appendice\s+(?P<n>\d)(?:\.(?P<pt>\d))?(?:\s+\(Normativa\s+di\s+Alert\))?"
    r"|\bnormativa\s+(?:di\s+|per\s+i\s+)?(?P<name>pre\s+alert|alert|sistemi|sipari)\b",
    re.I,
)


def find_appendices(text: str) -> list[Mention]:
    out = []
    for m in _APPENDIX.finditer(text):
        ref = m["n"] or APPENDIX_NAMES[m["name"].lower()]
        out.append(Mention(m.start(), m.end(), m.group(), "appendix", ref, point=m["pt"]))
    return out


_DEFINITION = re.compile(r"\b[Vv]edi(?:\s+anche)?\s+[\"“](?P<term>[^\"”]+)[\"”]"
                         r"|\b[Vv]ede(?:re)?\s+(?:le\s+)?Definizioni\b|\b[Vv]edi\s+(?:le\s+)?[Dd]efinizioni\b")


def find_definitions(text: str) -> list[Mention]:
    return [Mention(m.start(), m.end(), m.group(), "definition", m["term"] or "")
            for m in _DEFINITION.finditer(text)]


# ---------------------------------------------------------------- what readers write (kb cite only)

ABBREVIATIONS = r"leg|lg|arts"  # "Leg. 16B1", "arts. 16 y 73": a Law abbreviated as the registry's words are not
_CLAUSE_NUMBER = re.compile(CLAUSE_NUMBER, re.I)
_LETTER = re.compile(r"[^\W\d_]")
_WORD_LETTERS = "aeiouy"   # a lone letter that is a word ("a", "e", "o", "y", "u", "i"): an item apart only at the end
_SPACED_LOWER_SECTIONS = "bcdfg"  # "art. 27 b 1 a": a section apart in lower case, before its number
_ENDING = re.compile(r"\s*(?:[.,;:)\]]|$)")
_SECTION_APART = re.compile(_SPACED_SECTION)
_CLOSING = re.compile(r"\s*\)")
_GLUED = re.compile(r"[0-9A-Za-z]+")  # what runs on glued to an id: "40Z9", "16bis" name no clause
_PARAGRAPH_SIGN = re.compile(r"\s*§\s*(?P<p>[0-9A-Za-z(](?:[0-9A-Za-z.()-]*[0-9A-Za-z)])?)")


@dataclass(frozen=True)
class Reader:
    """What readers write and the texts never do — a ruling, an appeal decision, an assistant's
    answer —, read for kb cite only: the corpus's own citations are read without it, so the
    extraction's labelled precision and recall (tests/corpus/test_citations.py) never see these forms.

    - `keywords`: the words readers abbreviate a Law with ("L. 12C1(e)", "L 16B1", "Leg. 16B1",
      "arts. 16 y 73"), case-insensitive (kb.citations.check builds them from the language registry's law
      words, the search planner's);
    - a clause number read whole as the search planner reads one (`kb.records.clauseid.CLAUSE_NUMBER`):
      spaced, dotted, bracketed, in either case ("art. 27 B 1 b", "Law 16.B.1.a",
      "Law 16(B)(1)(a)", "legge 12c1e", "LAW 12C1E", "Law 27B1 b"), keeping only the parts a
      running text really writes (`_kept`: "art. 16 a tale scopo" is 16, "Art 12 e 13" two Laws);
    - letters or digits glued on past a clause number ("norma 40Z9", "art. 16bis") are part of
      the id as written: it names no clause, never its ancestor;
    - a range of articles ("norma 92-93": a norm on two Laws) and a norm's paragraph after "§"
      ("Norma 40 §40B2(a)(v)", as kb.citations.style writes it).
    """
    keywords: str  # a regular expression

    @classmethod
    def of(cls, law_words: tuple[str, ...]) -> "Reader":
        """The reader of texts whose Laws are named by `law_words` (regular expressions: the
        registry's, as the search planner reads them) or abbreviated as `ABBREVIATIONS`."""
        words = "|".join((*law_words, ABBREVIATIONS))
        return cls(rf"(?i:(?:{words})(?:\.|(?![^\W\d_])))")

    def whole(self, text: str, found: LawId) -> LawId:
        """The id at `found` as far as a reader writes it (never shorter than the grammar's)."""
        m = _CLAUSE_NUMBER.match(text, found.start)
        read = _whole_number(text, m) if m else None
        if read is not None and read.end > found.end:
            found = read
        glued = _GLUED.match(text, found.end)
        if glued:
            return LawId(found.start, glued.end(), found.ref + glued.group(), found.lettered)
        return found

    def paragraph(self, text: str, m: Mention) -> Mention:
        """A named document's id or an appendix with the paragraph number written after "§"
        ("Norma 8 §3b2", "Appendice 4 §5.8"); a title after it ("§Carta giocata") is no number."""
        sign = _PARAGRAPH_SIGN.match(text, m.end)
        if sign is None or re.search(r"[A-Za-z]{3}", sign["p"]):
            return m
        return replace(m, end=sign.end(), raw=text[m.start:sign.end()], point=sign["p"])


def _whole_number(text: str, m: re.Match[str]) -> LawId | None:
    """The clause number `_CLAUSE_NUMBER` read at m, less the parts a text does not write so."""
    kept = _kept(text, m)
    if m["last"] and kept:
        return None  # "92-93 B": no id
    parts = {p: m[p] for p in kept}
    last = kept[-1] if kept else ("last" if m["last"] else "art")
    end = m.end(last)
    if kept and "(" in text[_before(m, last):m.start(last)] and (close := _CLOSING.match(text, end)):
        end = close.end()
    ref = compact(m["art"], parts) + (f"-{m['last']}" if m["last"] else "")
    return LawId(m.start(), end, ref, "sec" in kept)


def _kept(text: str, m: re.Match[str]) -> list[str]:
    """The parts of a clause number a running text writes, outermost first: each must fit
    (`_fits`) and be followed by no letter but its own next part's."""
    kept: list[str] = []
    for part in (p for p in PARTS if m[p]):
        if not _fits(text, m, part):
            break
        kept.append(part)
    while kept and _LETTER.match(text, m.end(kept[-1])):
        kept.pop()  # "16 B regola", "12C1fin": a part running into a word is no part
    return kept


def _fits(text: str, m: re.Match[str], part: str) -> bool:
    gap = text[_before(m, part):m.start(part)]
    written = m[part]
    if gap in ("", ".") or re.sub(r"\s+", "", gap) in ("(", ")("):  # glued, dotted, bracketed: "12c1e", "16.B", "16(B)(1)"
        return True
    if gap.strip():
        return False            # "Art 12C2) o …", "70D3). Si": a bracket closed, a sentence ended
    if part == "sec":
        if written.islower():   # "27 b 1 a"; "16 a tale", "12 e 13" are words
            return written in _SPACED_LOWER_SECTIONS and bool(m["num"]) and not _two_articles(text, m)
        return bool(_SECTION_APART.match(text, m.start(part) - 1)) and not _two_articles(text, m)
    if part == "num":
        return True             # "27 B 1": a number apart after its section
    if part == "item":          # "Law 27B1 b", a lone letter ("12C1 si" is a word); "Legge 16 B 1 a" at the end only
        return (written.islower() and not _LETTER.match(text, m.end(part))
                and (written not in _WORD_LETTERS or bool(_ENDING.match(text, m.end(part)))))
    return False                # a roman numeral apart is a word ("i", "v", "x")


def _two_articles(text: str, m: re.Match[str]) -> bool:
    return bool(m["num"]) and bool(TWO_ARTICLES.fullmatch(text[m.end("art") - 1:m.end("num")]))


def _before(m: re.Match[str], part: str) -> int:
    """Where the part before `part` ends (the article's number for a section)."""
    order = ("art", "last", *PARTS)
    return max(m.end(p) for p in order[:order.index(part)] if m[p])
