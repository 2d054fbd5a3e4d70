"""The whoosh index: one document per clause, built from the export.

Fields: identity (`key`, `doc`, `unit`, `clause`, `kind`, `lang`), per-language
stemmed `title_*` (unit and clause headings, boosted) and `body_*` (clause text,
notes and footnotes), and `plain`, the same words unstemmed with accents
folded, for fuzzy and prefix matching and spelling suggestions.
"""
from __future__ import annotations

import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any, Iterator

with warnings.catch_warnings():
    warnings.simplefilter("ignore", SyntaxWarning)
    from whoosh import index as windex
    from whoosh.fields import ID, STORED, TEXT, Schema

from ..generations import replace_folder
from .analysis import ANALYZERS, LANGS, PLAIN

INDEX_NAME = "index"  # the index's folder inside a build
UNIT_LEVEL = "*"  # the clause id of a unit's whole-text document


def languages_of(export: dict[str, Any]) -> tuple[str, ...]:
    """The languages of an export's documents, in the registry's order: one pair of stemmed
    fields each."""
    present = {d["lang"] for d in export["documents"]}
    return tuple(lang for lang in LANGS if lang in present)


def schema(langs: tuple[str, ...] = LANGS) -> Schema:
    fields: dict[str, Any] = {
        "key": ID(stored=True, unique=True),
        "doc": ID(stored=True),
        "unit": ID(stored=True),
        "clause": ID(stored=True),
        "kind": ID(stored=True),
        "lang": ID(stored=True),
        "text": STORED(),
        "heading": STORED(),
        "plain": TEXT(analyzer=PLAIN, spelling=True, phrase=False),
    }
    for lang in langs:
        fields[f"title_{lang}"] = TEXT(analyzer=ANALYZERS[lang], phrase=False)
        fields[f"body_{lang}"] = TEXT(analyzer=ANALYZERS[lang], phrase=False)
    return Schema(**fields)


def clause_documents(export: dict[str, Any]) -> Iterator[dict[str, str]]:
    """What is indexed for each clause of each unit."""
    for d in export["documents"]:
        lang = d["lang"]
        for u in d["units"]:
            footnotes: dict[str, list[str]] = {}
            for f in u["footnotes"]:
                footnotes.setdefault(f.get("clause") or u["clauses"][0]["id"], []).append(f["text"])
            yield {  # the whole unit, so words spread over its clauses are found together
                "key": f"{d['id']}|{u['id']}|{UNIT_LEVEL}", "doc": d["id"], "unit": u["id"], "clause": UNIT_LEVEL,
                "kind": u["kind"], "lang": lang, "text": "", "heading": u.get("title") or "",
                f"title_{lang}": u.get("title") or "", f"body_{lang}": u["text"],
                "plain": (u.get("title") or "") + "\n" + u["text"],
            }
            for c in u["clauses"]:
                heading = " ".join(p for p in (u.get("title"), c.get("title"), c.get("subtopic"), c.get("term")) if p)
                body = "\n".join([c["text"], *(n["text"] for n in c.get("notes", [])),
                                  *_table_text(c), *footnotes.get(c["id"], [])])
                yield {
                    "key": f"{d['id']}|{u['id']}|{c['id']}",
                    "doc": d["id"], "unit": u["id"], "clause": c["id"], "kind": u["kind"], "lang": lang,
                    "text": c["text"], "heading": heading,
                    f"title_{lang}": heading, f"body_{lang}": body, "plain": heading + "\n" + body,
                }


def _table_text(c: dict[str, Any]) -> list[str]:
    return [" ".join(row) for t in c.get("tables", []) for row in t["header"] + t["rows"]]


def write_index(export: dict[str, Any], target: Path) -> None:
    """Build the index beside `target` and move it into place in one step."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=target.parent, prefix=".index-"))
    try:
        ix = windex.create_in(str(tmp), schema(languages_of(export)))
        writer = ix.writer(procs=1, limitmb=128)
        for doc in clause_documents(export):
            writer.add_document(**doc)
        writer.commit(optimize=True)
        ix.close()
        replace_folder(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def open_index(path: Path):  # -> whoosh.index.Index
    return windex.open_dir(str(path), readonly=True)
