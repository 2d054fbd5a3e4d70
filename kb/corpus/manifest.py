"""The corpus: manifest.toml, the source texts, and the parsing profile of each."""
from __future__ import annotations

import importlib
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..records.model import Document

CHECKOUT = Path(__file__).resolve().parents[2]  # the repository, when kb runs from a checkout
CORPUS_PACKAGE = "kb_corpus"  # corpus/ as installed package data (pyproject maps the folder)


def built_in_corpus() -> Path:
    """The built-in corpus: `corpus/` of a checkout (an editable install too), else the copy
    installed beside the kb package."""
    if (CHECKOUT / "corpus" / "manifest.toml").is_file():
        return CHECKOUT / "corpus"
    from importlib.util import find_spec
    spec = find_spec(CORPUS_PACKAGE)  # a folder of data, no __init__: a namespace package
    locations = list(spec.submodule_search_locations or []) if spec else []
    return Path(locations[0]) if locations else CHECKOUT / "corpus"  # (the latter: a clear error later)


CORPUS_DIR = built_in_corpus()

# Manifest keys that become document metadata in the export (beyond id/title/lang/kind/edition).
META_KEYS = ("issuer", "effective", "effective_text", "adopted", "adopted_text",
             "cites", "cites_edition", "gaps", "source", "original", "short",
             "concordances", "edition_of", "names", "label")


class CorpusError(Exception):
    """The corpus cannot be read: a missing file, a bad manifest, an unknown profile."""


@dataclass(frozen=True)
class Entry:
    """One document of the manifest."""

    id: str
    fields: dict[str, Any]
    corpus_dir: Path

    @property
    def path(self) -> Path:
        return self.corpus_dir / self.fields["source"]

    def read(self) -> str:
        return read_text(self.path)

    def parse(self) -> Document:
        profile = self.fields["profile"]
        try:
            module = importlib.import_module(f"kb.parse.{profile}")
        except ModuleNotFoundError as e:
            raise CorpusError(f"{self.id}: unknown parsing profile {profile!r}") from e
        text = self.read()
        try:
            parsed = module.parse(text)
        except Exception as e:  # whatever a text its profile does not fit makes the parser raise
            raise CorpusError(f"{self.path}: does not read as {profile}: {str(e) or type(e).__name__}") from e
        self.check_units([u.id for u in parsed.units])
        f = self.fields
        meta = {k: f[k] for k in META_KEYS if k in f}
        meta.update(parsed.meta)
        return Document(id=self.id, title=f["title"], lang=f["lang"], kind=f["kind"],
                        edition=str(f["edition"]), units=parsed.units, meta=meta,
                        groups=parsed.groups)

    def check_units(self, ids: list[str]) -> None:
        """A text its profile misreads shows here first: no units, or a unit twice (everything
        downstream addresses units by id)."""
        twice = next((i for i, n in Counter(ids).items() if n > 1), None)
        if not ids or twice is not None:
            found = f"unit {twice!r} twice" if ids else "no units"
            raise CorpusError(f"{self.path}: read as {self.fields['profile']}, it gives {found}: "
                              "does the text fit its profile?")


TEXT_SUFFIXES = (".txt", ".tsv", ".toml")  # a corpus's texts, tables and manifest: UTF-8 all


def read_text(path: Path) -> str:
    """A corpus file's text (newlines as `Path.read_text` gives them); CorpusError naming the
    file, and for a byte that is not UTF-8 its line, when it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as e:
        raise CorpusError(f"cannot read {path}: {e.strerror}") from e
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - data.rfind(b"\n", 0, e.start)
        raise CorpusError(f"{path}, line {line}: byte 0x{data[e.start]:02x} at column {column} is not UTF-8; "
                          "save the file as UTF-8") from e
    return text.replace("\r\n", "\n").replace("\r", "\n")


REQUIRED = ("id", "title", "lang", "kind", "edition", "source", "profile")


def load_manifest(corpus_dir: Path = CORPUS_DIR) -> list[Entry]:
    path = corpus_dir / "manifest.toml"
    try:
        data = tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as e:
        raise CorpusError(f"{path}: {e}") from e
    entries = []
    for i, doc in enumerate(data.get("document", [])):
        missing = [k for k in REQUIRED if k not in doc]
        if missing:
            raise CorpusError(f"{path}: document #{i + 1} lacks {', '.join(missing)}")
        entries.append(Entry(doc["id"], doc, corpus_dir))
    ids = [e.id for e in entries]
    if len(set(ids)) != len(ids):
        raise CorpusError(f"{path}: duplicate document ids")
    why = next((w for e in entries if (w := pairing_problem(e, {x.id: x for x in entries}))), None)
    if why:
        raise CorpusError(f"{path}: {why}")
    return entries


def pairing_problem(e: Entry, by_id: dict[str, Entry]) -> str | None:
    """What is wrong with how an entry says which editions it is read beside, if anything."""
    return _concordances_problem(e, by_id) or _edition_of_problem(e, by_id)


def _concordances_problem(e: Entry, by_id: dict[str, Entry]) -> str | None:
    """Each concordance names another edition of the Laws in the manifest and a file of the corpus."""
    tables = e.fields.get("concordances", {})
    if not isinstance(tables, dict) or not all(isinstance(t, str) for t in tables.values()):
        return f"{e.id}: concordances must be a table of older edition = concordance file"
    for older, name in tables.items():
        if older == e.id or by_id.get(older) is None or by_id[older].fields["kind"] != e.fields["kind"]:
            return f"{e.id}: concordances names {older!r}, which is no other edition of the Laws in the manifest"
        if not (e.corpus_dir / name).is_file():
            return f"{e.id}: concordance {name!r} (with {older}) is no file of {e.corpus_dir}"
    return None


def _edition_of_problem(e: Entry, by_id: dict[str, Entry]) -> str | None:
    """Identical ids pair two editions of one language only: a translation is renumbered by its concordance."""
    if "edition_of" not in e.fields:
        return None
    other = by_id.get(e.fields["edition_of"])
    if other is None:
        return f"{e.id}: edition_of names {e.fields['edition_of']!r}, which is not in the manifest"
    if other.fields["lang"] != e.fields["lang"]:
        return (f"{e.id}: edition_of pairs clauses by identical ids, in one language only ({other.id} is "
                f"{other.fields['lang']!r}, {e.id} {e.fields['lang']!r}): give it concordances = "
                f"{{ \"{other.id}\" = \"FILE.tsv\" }} instead")
    return None


def load_documents(corpus_dir: Path = CORPUS_DIR) -> list[Document]:
    """Parse every document of the manifest, in manifest order."""
    return [e.parse() for e in load_manifest(corpus_dir)]
