"""Profile `es_laws`: the Spanish translation of the WBF 2007 Laws, with AEB national notes.

The text is one paragraph per line (blank lines between), no markdown, no page
headers. It has three parts: a title line, the body (chapter headings `I.- TITLE`
and `Artículo N.- Title` headings with their paragraphs) and a trailing `INDICE`
that lists every chapter with its `Art. N.- title` lines. The index is never read
as articles; it gives the chapter of each article, because a body chapter heading
can be missing (chapter IV is, in the 2007 print).

Markers inside an article (flush left or NBSP-indented, often glued to the text):
`A.- Title: text` sections (also `A..-`, `B.-Text`, `C. Text`, and `C1.-` which is
section C number 1), numbers `1.Text` / `3En` / `5(a)`, items `a.Text` / `(a) Text`,
romans `(i)Text`, bullets `•`, U+F0D8, and a glued `o` (`oUna`). Clause ids follow the
logical WBF structure (DESIGN §4); where the print dropped or changed a marker the
clause keeps its logical id and records the printed marker in `extra["printed_label"]`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..clauseid import LawClauseTree
from ..model import Clause, Footnote, Note, Parsed, Table, Unit
from ..text import normalize_spaces
from .kit.footnotes import holders, placed

ARTICLE = re.compile(r"^Artículo (?P<n>\d{1,3})(?:\s*\.-\s*|\s+[–-]\s+)(?P<title>\S.*)$")
INDEX_HEADING = re.compile(r"^[IÍ]NDICE$", re.I)
INDEX_ARTICLE = re.compile(r"^Art\. (?P<n>\d{1,3})(?:\s*\.-\s*|\s+[–-]\s+)(?P<title>\S.*)$")
# Chapter headings are a roman numeral and an ALL-CAPS title: `V.- EL RENUNCIO`.
# (A bare `V.-` would otherwise look like a section marker.)
CHAPTER = re.compile(r"^(?P<id>[IVXL]+)\.-\s+(?P<title>[^a-záéíóúñü]+)$")

UPPER = "A-ZÁÉÍÓÚÑ¿“\""
SECTION = re.compile(
    rf"^(?P<sec>[A-H])(?P<num>\d)?(?:\.{{1,2}}-\s*|\.\s+(?=[{UPPER}]))(?P<rest>.*)$")
NUMBER = re.compile(rf"^(?P<n>\d{{1,2}})(?:\.\s*|(?=\()|(?=[{UPPER}]))(?P<rest>.*)$")
ITEM = re.compile(r"^(?:(?P<dot>[a-z])\.(?=\S)|\((?P<par>[a-z]{1,4})\)\s*)(?P<rest>.*)$")
BULLET = re.compile(rf"^(?:[•\uf0d8]|o(?=[{UPPER}]))\s*(?P<rest>.*)$")
# A table row: two cells separated by a run of spaces holding NBSPs (Art. 2).
ROW = re.compile(r"^(?P<a>\S.*?\S)(?P<gap>\s{2,})(?P<b>\S.*)$")

ROMANS = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")
TITLE_MAX = 80
# A heading ending in `:` whose last word opens a clause is text introducing a
# list (`B.-No se aplica … establecido si:`), not a title.
LIST_LEAD_WORDS = {"si", "que", "cuando", "entonces", "donde", "como"}
ENDS_SENTENCE = re.compile(r"[.!?)»”\"]$")

# Notes printed in the body: a parenthetical mentioning the AEB, unless it is a
# pointer to notes not in the text (`(Ver nota AEB abajo)`, `(pero ver Normas AEB …)`).
AEB = re.compile(r"\bAEB\b")
POINTER = re.compile(r"^(?:pero\s+)?ver\b", re.I)
NOTE_LABEL = re.compile(r"^Nota(?:\s+de\s+la)?(?:\s+AEB)?\s*:\s*")
# WBF footnotes: a `(Nota 1) text` or `*(text)` paragraph, or an inline `(*text)`.
FOOTNOTE_PARA = re.compile(r"^\(Nota (?P<m>\d+)\)\s*(?P<t>.+)$|^(?P<star>\*)\s*(?P<st>.+)$")


@dataclass
class Token:
    """One paragraph of an article, classified by its leading marker."""

    kind: str  # section | number | item | roman | bullet | para | row
    marker: str = ""
    text: str = ""
    sub: str | None = None  # the number of a `C1.-` section heading
    cells: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- document


def parse(text: str) -> Parsed:
    lines = text.split("\n")
    cut = next((i for i, s in enumerate(lines) if INDEX_HEADING.match(s.strip())), len(lines))
    body, index = lines[:cut], lines[cut + 1:]
    title_line, articles, body_chapters = read_body(body)
    index_chapters, index_titles = read_index(index)
    groups, chapter_of = assign_chapters(body_chapters, index_chapters, articles)
    units = []
    for number, title, paragraphs in articles:
        unit = build_article(number, title, paragraphs)
        unit.group = chapter_of.get(number)
        alt = index_titles.get(number)
        if alt and alt != title:
            unit.extra["index_title"] = alt
        units.append(unit)
    meta = {"printed_title": title_line} if title_line else {}
    return Parsed(units=units, groups=groups, meta=meta)


def read_body(lines: list[str]):
    """Title line, articles [(number, title, raw paragraphs)], chapter headings
    [(id, title, number of the article that follows)]."""
    title_line = None
    articles: list[tuple[str, str, list[str]]] = []
    chapters: list[list] = []
    for raw in lines:
        s = normalize_spaces(raw)
        if not s:
            continue
        if m := ARTICLE.match(s):
            articles.append((m["n"], m["title"], []))
            for ch in chapters:
                if ch[2] is None:
                    ch[2] = m["n"]
        elif m := CHAPTER.match(s):
            chapters.append([m["id"], m["title"], None])
        elif articles:
            articles[-1][2].append(raw)
        elif title_line is None:
            title_line = s
    return title_line, articles, [tuple(c) for c in chapters]


def read_index(lines: list[str]):
    """Index chapters [(id, title, [article numbers])] and {article: index title}."""
    chapters: list[tuple[str, str, list[str]]] = []
    titles: dict[str, str] = {}
    for raw in lines:
        s = normalize_spaces(raw)
        if m := CHAPTER.match(s):
            chapters.append((m["id"], m["title"], []))
        elif (m := INDEX_ARTICLE.match(s)) and chapters:
            chapters[-1][2].append(m["n"])
            titles[m["n"]] = m["title"]
    return chapters, titles


def assign_chapters(body_chapters, index_chapters, articles):
    """Groups in order and {article: chapter id}.

    The index lists every chapter with its articles; body headings, where
    present, must open their chapter at the article the index says.
    """
    numbers = [a[0] for a in articles]
    if not index_chapters:  # no index: the body headings alone
        index_chapters = []
        for k, (cid, title, first) in enumerate(body_chapters):
            nxt = body_chapters[k + 1][2] if k + 1 < len(body_chapters) else None
            start = numbers.index(first) if first in numbers else len(numbers)
            end = numbers.index(nxt) if nxt in numbers else len(numbers)
            index_chapters.append((cid, title, numbers[start:end]))
    by_id = {cid: (title, arts) for cid, title, arts in index_chapters}
    body_title = {}
    for cid, title, first in body_chapters:
        if cid not in by_id:
            raise ValueError(f"es_laws: body chapter {cid} is not in the index")
        arts = by_id[cid][1]
        if first is not None and arts and arts[0] != first:
            raise ValueError(f"es_laws: chapter {cid} opens at Art. {first} in the body "
                             f"but at Art. {arts[0]} in the index")
        body_title[cid] = title
    groups = [{"id": cid, "title": body_title.get(cid, title)} for cid, title, _ in index_chapters]
    chapter_of = {n: cid for cid, _, arts in index_chapters for n in arts}
    return groups, chapter_of


# ---------------------------------------------------------------- paragraphs → tokens


def tokenize(raw: str) -> list[Token]:
    s = raw.strip()
    if (m := ROW.match(s)) and "\u00a0" in m["gap"]:
        return [Token("row", cells=[normalize_spaces(m["a"]), normalize_spaces(m["b"])])]
    s = normalize_spaces(s)
    if m := SECTION.match(s):
        return [Token("section", m["sec"], m["rest"], sub=m["num"])]
    if m := NUMBER.match(s):
        return [Token("number", m["n"])] + tokenize_rest(m["rest"])
    if m := ITEM.match(s):
        letter = m["dot"] or m["par"]
        if len(letter) == 1:
            return [Token("item", letter)] + split_inline_romans(m["rest"])
        if letter in ROMANS:
            return [Token("roman", letter, m["rest"])]
    if m := BULLET.match(s):
        return [Token("bullet", text=m["rest"])]
    return [Token("para", text=s)]


def tokenize_rest(rest: str) -> list[Token]:
    """The text after a number: `1.(a) Text` carries an item on the same line."""
    m = ITEM.match(rest)
    if m and m["par"] and len(m["par"]) == 1:
        return [Token("para", text=""), Token("item", m["par"])] + split_inline_romans(m["rest"])
    return split_inline_romans(rest)


INLINE_ROMAN = re.compile(r"\s\((?P<r>i|ii|iii|iv|v|vi|vii|viii|ix|x)\)\s")


def split_inline_romans(text: str) -> list[Token]:
    """`…oponente: (i) antes…; (ii) durante…; (iii) durante…` → text + roman tokens.

    Only a run that follows a colon and counts (i), (ii), … in order is split.
    """
    padded = " " + text + " "
    marks = list(INLINE_ROMAN.finditer(padded))
    if (not marks or not padded[: marks[0].start()].rstrip().endswith(":")
            or [m["r"] for m in marks] != list(ROMANS[: len(marks)])):
        return [Token("para", text=text)]
    tokens = [Token("para", text=padded[: marks[0].start()].strip())]
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(padded)
        tokens.append(Token("roman", m["r"], padded[m.end(): end].strip()))
    return tokens


def article_tokens(paragraphs: list[str]) -> list[Token]:
    tokens: list[Token] = []
    for raw in paragraphs:
        line = tokenize(raw)
        head = line[0]
        if head.kind in ("number", "item") and len(line) > 1 and line[1].kind == "para":
            head.text = line[1].text
            line = [head] + line[2:]
        tokens.extend(line)
    return tokens


# ---------------------------------------------------------------- headings


def split_heading(rest: str) -> tuple[str | None, str]:
    """Title and text of a section heading line (the marker already removed).

    `Title: text`, `Title. Text` (a short first sentence), `Title:` / `Title.` /
    `Title` alone; a long sentence with no such break is text with no title.
    """
    rest = rest.strip()
    if not rest:
        return None, ""
    m = re.match(r"^(?P<title>[^:.]+?)\s*(?P<sep>[:.])(?:\s+(?P<text>\S.*))?$", rest)
    if m and len(m["title"]) <= TITLE_MAX:
        title, text = m["title"].strip(), (m["text"] or "")
        last_word = title.rsplit(" ", 1)[-1].lower()
        if not (m["sep"] == ":" and not text and last_word in LIST_LEAD_WORDS):
            return title, text
    if len(rest) <= TITLE_MAX and not re.search(r"[.:;]\s", rest) and not rest.endswith(":"):
        return rest.rstrip("."), ""
    return None, rest


# ---------------------------------------------------------------- notes and footnotes


def parentheticals(text: str):
    """(start, end) of each balanced top-level parenthetical; unclosed ones are skipped."""
    depth, start = 0, None
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                yield start, i + 1


def cut_span(text: str, start: int, end: int) -> str:
    """Remove text[start:end] (and the space before it) without leaving `. .` or `, ,`."""
    before, after = text[:start].rstrip(), text[end:]
    if before and after[:1] and before[-1] in ".,;" and after[:1] == before[-1]:
        after = after[1:]
    if after[:1].isalnum() or after[:1] in "(“\"":
        after = " " + after
    out = (before + after).strip()
    return out if re.search(r"\w", out) else ""


def take_notes(text: str) -> tuple[str, list[str], list[tuple[str, str]]]:
    """Text without its AEB notes and inline `(*…)` footnotes; the notes; the footnotes."""
    notes: list[str] = []
    footnotes: list[tuple[str, str]] = []
    while True:
        for start, end in parentheticals(text):
            inner = text[start + 1: end - 1].strip()
            if inner.startswith("*"):
                footnotes.append(("*", inner[1:].strip()))
            elif AEB.search(inner) and not POINTER.match(inner):
                notes.append(NOTE_LABEL.sub("", inner))
                # the 78A note is printed `-(Nota AEB: …)-`
                if start and text[start - 1] == "-" and text[end: end + 1] == "-":
                    start, end = start - 1, end + 1
            else:
                continue
            text = cut_span(text, start, end)
            break
        else:
            return text, notes, footnotes


# ---------------------------------------------------------------- articles → clauses


def build_article(number: str, title: str, paragraphs: list[str]) -> Unit:
    builder = ArticleBuilder(number, article_tokens(paragraphs))
    builder.run()
    unit = Unit(id=number, kind="article", title=title, clauses=builder.tree.clauses)
    unit.footnotes = place_footnotes(unit, builder.footnotes)
    return unit


class ArticleBuilder:
    """Walks an article's tokens in order and feeds a LawClauseTree."""

    def __init__(self, number: str, tokens: list[Token]):
        self.number = number
        self.tokens = tokens
        self.tree = LawClauseTree(number)
        self.has_sections = any(t.kind == "section" for t in tokens)
        self.items_as_numbers = False  # letters directly under a section stand for numbers
        self.footnotes: list[tuple[str, str, str]] = []  # (marker, text, clause id)
        self.prev_text = ""

    def run(self) -> None:
        for i, tok in enumerate(self.tokens):
            getattr(self, "on_" + tok.kind)(i, tok)
            if tok.kind != "row":
                self.prev_text = tok.text or self.prev_text

    # -- markers

    def on_section(self, i: int, tok: Token) -> None:
        text, notes, feet = take_notes(tok.text)
        tree = self.tree
        if tok.sub:  # `C1.-`: section C, number 1 (the print has no `C.-` line)
            if tree.level_marker("sec") != tok.marker:
                tree.section(tok.marker).extra["implied"] = True
            title, body = split_heading(text)
            clause = tree.number(tok.sub, text=body, title=title)
        else:
            title, body = split_heading(text)
            clause = tree.section(tok.marker, title=title, text=body)
        self.items_as_numbers = False
        self.attach(clause, notes, feet)

    def on_number(self, i: int, tok: Token) -> None:
        text, notes, feet = take_notes(tok.text)
        if not self.has_sections:
            # numbers straight under an article are its sections (WBF 35A–D, 71A–B)
            letter = chr(ord("A") + int(tok.marker) - 1)
            clause = self.tree.section(letter, text=text)
            clause.extra["printed_label"] = f"{tok.marker}."
        else:
            clause = self.tree.number(tok.marker, text=text)
        self.attach(clause, notes, feet)

    def on_item(self, i: int, tok: Token) -> None:
        tree = self.tree
        letter = tok.marker
        current = tree.level_marker("item")
        if letter in ROMANS and current and chr(ord(letter) - 1) != current:
            return self.on_roman(i, Token("roman", letter, tok.text))
        text, notes, feet = take_notes(tok.text)
        if tree.level_marker("sec") and tree.level_marker("num") is None:
            self.items_as_numbers = not self.closed_by_bullet(i)
            if not self.items_as_numbers:
                tree.number(1, implied=True)
        if self.items_as_numbers:
            clause = tree.number(ord(letter) - ord("a") + 1, text=text)
            clause.extra["printed_label"] = f"{letter}."
        else:
            clause = tree.item(letter, text=text)
        self.attach(clause, notes, feet)

    def on_roman(self, i: int, tok: Token) -> None:
        text, notes, feet = take_notes(tok.text)
        self.attach(self.tree.roman(tok.marker, text=text), notes, feet)

    # -- unmarked paragraphs

    def on_bullet(self, i: int, tok: Token) -> None:
        if NOTE_LABEL.match(tok.text):  # `•Nota: En España …`
            self.tree.home(self.owner()).add_note(Note("national-note", NOTE_LABEL.sub("", tok.text)))
        elif self.bullet_is_number(i):
            clause = self.tree.number(int(self.tree.level_marker("num")) + 1, text="")
            clause.extra["printed_label"] = "•"
            self.on_para(i, tok)
        else:
            self.on_para(i, tok)

    def on_para(self, i: int, tok: Token) -> None:
        if m := FOOTNOTE_PARA.match(tok.text):
            marker = m["m"] or m["star"]
            note = (m["t"] or m["st"]).strip()
            if m["star"] and note.startswith("(") and note.endswith(")"):
                note = note[1:-1].strip()
            self.footnotes.append((marker, note, self.tree.current.id))
            return
        text, notes, feet = take_notes(tok.text)
        if text:
            home = self.tree.home(self.closed_list_owner(i) or self.tree.current)
            self.tree.add_text(text, to=home)
            self.attach(home, notes, feet)
        else:  # a note standing as its own paragraph annotates the list's owner, after its items
            self.attach(self.tree.home(self.owner()), notes, feet)

    def on_row(self, i: int, tok: Token) -> None:
        clause = self.tree.current
        prev = self.tokens[i - 1] if i else None
        if prev is not None and prev.kind == "row" and clause.tables:
            clause.tables[-1].rows.append(tok.cells)
        else:
            self.tree.add_table(Table(rows=[tok.cells]), to=self.closed_list_owner(i) or clause)

    # -- helpers

    def attach(self, clause: Clause, notes: list[str], feet: list[tuple[str, str]]) -> None:
        for n in notes:
            clause.add_note(Note("national-note", n))
        self.footnotes.extend((m, t, clause.id) for m, t in feet)

    def owner(self) -> Clause:
        """The clause a free-standing note annotates: the owner of the current list item."""
        current = self.tree.current
        in_list = any(self.tree.level_marker(lv) for lv in ("num", "item", "roman"))
        if in_list and current.parent:
            return self.tree.get(current.parent) or current
        return current

    def closed_list_owner(self, i: int) -> Clause | None:
        """The clause whose list a plain paragraph closes (69B: "El estuche se vuelve a
        puntuar…" after 69B2), or None when the paragraph is the current item's own.

        It closes the list when the list was introduced by a lead-in (its owner's text
        ends in ':'), the last item ends a sentence, and no further item of the list
        follows; the paragraph is then read after the items, as its owner's.
        """
        current = self.tree.current
        owner = self.tree.get(current.parent or "")
        if owner is None or current.extra.get("paragraph") or not owner.text.rstrip().endswith(":"):
            return None
        if not ENDS_SENTENCE.search(current.text.rstrip()):
            return None
        nxt = self.next_marker(i)
        if nxt is not None and nxt.kind != "section" and self.continues_list(current, nxt):
            return None
        return owner

    def continues_list(self, current: Clause, nxt: Token) -> bool:
        """Is the next marker another item of the current clause's list (or below it)?"""
        level = {"num": "number", "item": "item", "roman": "roman"}
        order = ["section", "number", "item", "roman"]
        mine = next((lv for lv in ("roman", "item", "num") if self.tree.level_marker(lv)), None)
        if mine is None:  # numbers standing for sections (71A, 71B): a number goes on
            return nxt.kind == "number"
        return order.index(nxt.kind) >= order.index(level[mine]) if nxt.kind in order else True

    def next_marker(self, i: int) -> Token | None:
        """The next marker token after i (bullets and plain paragraphs skipped)."""
        for tok in self.tokens[i + 1:]:
            if tok.kind not in ("bullet", "para", "row"):
                return tok
        return None

    def bullet_is_number(self, i: int) -> bool:
        """A bullet that closes a run of numbers stands for the next number (12A3, 9B2).

        It must follow a complete sentence (not a lead-in ending in `:`/`entonces`)
        and be followed by a new section or the end of the article, not by the next
        number; inside items it counts only if they hang from an implied number.
        """
        tree = self.tree
        num = tree.level_marker("num")
        if num is None or not num.isdigit() or tree.level_marker("roman"):
            return False
        if tree.level_marker("item"):
            parent = tree.get(tree.current.parent or "")
            if not (parent and parent.extra.get("implied")):
                return False
        if not ENDS_SENTENCE.search(self.prev_text):
            return False
        nxt = self.next_marker(i)
        return nxt is None or nxt.kind == "section"

    def closed_by_bullet(self, i: int) -> bool:
        """Letters straight under a section: is the run closed by a numbered bullet?

        Then they are the items of an implied number 1 and the bullet is 2 (9B1a–d,
        9B2); otherwise each letter stands for a number (12B `a.`/`b.` = 12B1/12B2,
        as the text's own citations of 12B1 confirm).
        """
        prev = ""
        for k in range(i, len(self.tokens)):
            tok = self.tokens[k]
            if tok.kind == "section":
                return False
            if tok.kind == "bullet":
                nxt = self.next_marker(k)
                return bool(ENDS_SENTENCE.search(prev)) and (nxt is None or nxt.kind == "section")
            if tok.kind not in ("item", "para", "roman"):
                return False
            prev = tok.text or prev
        return False


def place_footnotes(unit: Unit, found: list[tuple[str, str, str]]) -> list[Footnote]:
    """Footnotes of a unit, each on every clause holding its marker (removed there).

    Markers are glued to a word: `obliga1`, `normal*`. A footnote whose marker is
    on several clauses (`normal*` in 70C3, D1, D2, E1) lists them all, in order.
    A `*` left with no marked footnote had its footnote printed unmarked: see
    `unmarked_footnotes`.
    """
    result = []
    for marker, text, where in found:
        glued = re.compile(rf"(?<=[a-záéíóúñü]{{2}}){re.escape(marker)}(?![\w*])")
        where_marked = holders(unit.clauses, lambda c: bool(glued.search(c.text)))
        for clause in unit.clauses:
            clause.text = glued.sub("", clause.text)
        result.append(placed(marker, text, where_marked, printed_at=where))
    return result + unmarked_footnotes(unit)


ORPHAN_STAR = re.compile(r"(?<=[a-záéíóúñü]{2})\*(?![\w*])")


def unmarked_footnotes(unit: Unit) -> list[Footnote]:
    """Footnotes printed as the closing parenthetical of their marker's paragraph, the
    `*` that should open them dropped: 79C1 `…más largo*, este periodo … (Se puede
    especificar un periodo de corrección más corto, …)` (WBF 79C1's footnote). The
    marker and the parenthetical leave the text; a `*` with no such parenthetical stays.
    """
    result = []
    for clause in unit.clauses:
        lines = clause.text.split("\n")
        for k, line in enumerate(lines):
            star = ORPHAN_STAR.search(line)
            if not star:
                continue
            rest = line[:star.start()] + line[star.end():]
            closing = [(a, b) for a, b in parentheticals(rest)
                       if a >= star.start() and rest[b:].strip() in ("", ".")]
            if not closing:
                continue
            a, b = closing[-1]
            result.append(placed("*", normalize_spaces(rest[a + 1: b - 1]), [clause.id]))
            lines[k] = cut_span(rest, a, b)
        clause.text = "\n".join(lines)
    return result
