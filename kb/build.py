"""`kb build`: corpus → export, written atomically into the build folder.

A build is a pure function of the corpus and the code. Its stamp (a hash of
both) tells whether the build folder is current; readers open the export only
through `load_export`, which names the problem when the build is missing or
corrupt.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from .citations import extract
from .concordance import Concordance, load_corrections
from .corpus import CORPUS_DIR, load_documents
from .export import dumps, export_dict
from .search.index import INDEX_NAME, write_index

ROOT = Path(__file__).resolve().parent.parent
EXPORT_NAME = "kb.json"
STAMP_NAME = "stamp"


class BuildError(Exception):
    """The build folder cannot be used: missing, stale on request, or corrupt."""


def default_build_dir() -> Path:
    return Path(os.environ.get("KB_BUILD_DIR", ROOT / "build"))


def source_stamp(corpus_dir: Path = CORPUS_DIR) -> str:
    """Hash of everything a build depends on: corpus files and the kb code."""
    h = hashlib.sha256()
    code_dir = Path(__file__).resolve().parent
    files = sorted(p for p in corpus_dir.rglob("*") if p.is_file())
    files += sorted(code_dir.rglob("*.py"))
    for p in files:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def build(build_dir: Path | None = None, corpus_dir: Path = CORPUS_DIR) -> Path:
    """Parse the corpus and write the export; returns the export's path."""
    build_dir = build_dir or default_build_dir()
    build_dir.mkdir(parents=True, exist_ok=True)
    documents = load_documents(corpus_dir)
    citations = extract(documents, Concordance.load(corpus_dir / "concordance.tsv"),
                        load_corrections(corpus_dir / "ref-corrections.tsv"))
    export = export_dict(documents, [c.to_dict() for c in citations])
    text = dumps(export)
    write_index(export, build_dir / INDEX_NAME)
    _compile_interface_catalogs(build_dir)
    target = build_dir / EXPORT_NAME
    atomic_write(target, text)
    atomic_write(build_dir / STAMP_NAME, source_stamp(corpus_dir) + "\n")
    return target


def _compile_interface_catalogs(build_dir: Path) -> None:
    """The website's .po catalogs → .mo in the build (the web package reads them there)."""
    try:
        from web.i18n import compile_catalogs
    except ImportError:  # a knowledge base without its website
        return
    compile_catalogs(build_dir / "locale")


def atomic_write(path: Path, text: str) -> None:
    """Write beside the target and rename over it: readers see old or new, never half."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def is_current(build_dir: Path | None = None) -> bool:
    build_dir = build_dir or default_build_dir()
    try:
        stamp = (build_dir / STAMP_NAME).read_text(encoding="utf-8").strip()
    except OSError:
        return False
    return (build_dir / EXPORT_NAME).exists() and stamp == source_stamp()


def ensure_build(build_dir: Path | None = None) -> Path:
    """Build if the build folder is missing or stale; return the export's path."""
    build_dir = build_dir or default_build_dir()
    if not is_current(build_dir):
        build(build_dir)
    return build_dir / EXPORT_NAME


def load_export(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as e:
        raise BuildError(f"no build at {path}: run `kb build`") from e
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BuildError(f"corrupt build at {path}: {e}; run `kb build`") from e
    if not isinstance(data, dict) or not isinstance(data.get("documents"), list):
        raise BuildError(f"corrupt build at {path}: no document list; run `kb build`")
    return data
