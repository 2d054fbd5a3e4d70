"""The corpus: manifest.toml, the source texts, and the parsing profile of each."""
from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .model import Document

CHECKOUT = Path(__file__).resolve().parent.parent  # the repository, when kb runs from a checkout
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
             "maps_to", "edition_of", "names", "label")


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
        try:
            return self.path.read_text(encoding="utf-8")
        except OSError as e:
            raise CorpusError(f"{self.id}: cannot read {self.path}: {e.strerror}") from e

    def parse(self) -> Document:
        profile = self.fields["profile"]
        try:
            module = importlib.import_module(f"kb.parse.{profile}")
        except ModuleNotFoundError as e:
            raise CorpusError(f"{self.id}: unknown parsing profile {profile!r}") from e
        parsed = module.parse(self.read())
        f = self.fields
        meta = {k: f[k] for k in META_KEYS if k in f}
        meta.update(parsed.meta)
        return Document(id=self.id, title=f["title"], lang=f["lang"], kind=f["kind"],
                        edition=str(f["edition"]), units=parsed.units, meta=meta,
                        groups=parsed.groups)


REQUIRED = ("id", "title", "lang", "kind", "edition", "source", "profile")


def load_manifest(corpus_dir: Path = CORPUS_DIR) -> list[Entry]:
    path = corpus_dir / "manifest.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise CorpusError(f"cannot read {path}: {e.strerror}") from e
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
    return entries


def load_documents(corpus_dir: Path = CORPUS_DIR) -> list[Document]:
    """Parse every document of the manifest, in manifest order."""
    return [e.parse() for e in load_manifest(corpus_dir)]
