"""`kb build`: corpus → export, search index and catalogs, as one generation of the build folder.

A build is a pure function of the corpus and the code. Each build writes a new
generation folder and then switches the `current` link to it, so readers (the
CLI, a running server) see a complete build, old or new. Its stamp (a hash of
corpus and code) tells whether the current generation is up to date; readers
open the export through `load_export`, which names the problem when the build
is missing or corrupt.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from .catalogs import BUILD_DIR as CATALOGS, LOCALES, compile_catalogs, mo_path
from .citations import extract
from .concordance import Concordance, load_corrections
from .corpus import CHECKOUT, CORPUS_DIR, CorpusError, load_documents, load_manifest
from .export import dumps, export_dict
from .graph import build_graph, write_graph
from .search.analysis import LANGS
from .search.index import INDEX_NAME, open_index, write_index

EXPORT_NAME = "kb.json"
GRAPH_NAME = "graph.json"
CORPUS_COPY = "corpus"          # the manifest, texts and curated tables the generation was built from
STAMP_NAME = "stamp"
CURRENT = "current"             # the link readers follow
GENERATION_PREFIX = "gen-"      # one folder per build
KEEP_GENERATIONS = 3
COMPLETE = "complete"           # written last, after the generation is verified
LAYOUT = 2                      # what a generation holds; a generation of another layout is not one to read
COMPLETE_TEXT = f"verified, layout {LAYOUT}\n"
READER_TABLES = ("manifest.toml", "concordance.tsv", "glossary.tsv", "thesaurus.tsv", "clock.tsv",
                 "unresolved.tsv")  # the corpus files readers open in a generation
LOCK = ".lock"                  # held while a build writes, switches and prunes


log = logging.getLogger("kb")


class BuildError(Exception):
    """The build folder cannot be used: missing, stale on request, or corrupt."""


def default_build_dir() -> Path:
    """$KB_BUILD_DIR (an empty value is no folder); else build/ of a checkout; else, for an
    installed kb, a folder of the user's data directory (site-packages is not ours to write)."""
    if os.environ.get("KB_BUILD_DIR"):
        return Path(os.environ["KB_BUILD_DIR"])
    if (CHECKOUT / "pyproject.toml").is_file():
        return CHECKOUT / "build"
    data_home = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data_home) / "bridge-laws-kb" / "build"


def source_stamp(corpus_dir: Path = CORPUS_DIR) -> str:
    """Hash of everything a build depends on: corpus files, the kb code and its catalogs."""
    h = hashlib.sha256()
    code_dir = Path(__file__).resolve().parent
    files = sorted(p for p in corpus_dir.rglob("*") if p.is_file())
    files += sorted(code_dir.rglob("*.py")) + sorted(code_dir.rglob("*.po"))  # code and interface catalogs
    for p in files:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def build(build_dir: Path | None = None, corpus_dir: Path = CORPUS_DIR) -> Path:
    """Parse the corpus into a new generation beside the current one, then switch to it.

    Readers follow the `current` link: they see the old generation until the
    link is replaced (one rename), then the new one — never a half-written one.
    Returns the new export's path.
    """
    build_dir = build_dir or default_build_dir()
    current_link(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    with build_lock(build_dir) as waited:
        if waited and is_current(build_dir, corpus_dir):  # the build it waited for made this very build
            return export_path(build_dir)
        return _build(build_dir, corpus_dir)


def _build(build_dir: Path, corpus_dir: Path) -> Path:
    check_languages(load_manifest(corpus_dir))
    gen = Path(tempfile.mkdtemp(dir=build_dir, prefix=GENERATION_PREFIX))
    try:
        corpus = copy_corpus(corpus_dir, gen / CORPUS_COPY)  # parsed from the copy: what it holds is what was built
        documents = load_documents(corpus)
        concordance = Concordance.load(corpus / "concordance.tsv")
        citations = extract(documents, concordance, load_corrections(corpus / "ref-corrections.tsv"))
        export = export_dict(documents, [c.to_dict() for c in citations])
        write_graph(build_graph(export, concordance), str(gen / GRAPH_NAME), "json")
        write_index(export, gen / INDEX_NAME)
        compile_catalogs(gen / CATALOGS)
        (gen / EXPORT_NAME).write_text(dumps(export), encoding="utf-8")
        (gen / STAMP_NAME).write_text(source_stamp(corpus) + "\n", encoding="utf-8")
        verify(gen)
        (gen / COMPLETE).write_text(COMPLETE_TEXT, encoding="utf-8")
        switch(build_dir, gen)
    except BaseException:
        shutil.rmtree(gen, ignore_errors=True)
        raise
    prune(build_dir)
    return gen / EXPORT_NAME


def copy_corpus(src: Path, dst: Path) -> Path:
    """The corpus's files into the generation, writable whatever their source's mode (a
    read-only checkout must not make a generation that pruning cannot remove)."""
    for path in sorted(src.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            target = dst / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return dst


def check_languages(entries: list[Any]) -> None:
    """A document in a language the knowledge base cannot analyse fails the build, naming
    what is missing, before anything is parsed or written."""
    for e in entries:
        lang = e.fields["lang"]
        if lang not in LANGS:
            raise CorpusError(f"document {e.id}: language {lang!r} is not supported: search analyses "
                              f"{', '.join(LANGS)} (kb/search/analysis.py: a stemmer, stop words and an "
                              f"index field body_{lang} are needed; citations read Italian and Spanish)")


def switch(build_dir: Path, gen: Path) -> None:
    """Point `current` at a generation in one step (a symlink renamed over the old one)."""
    tmp = build_dir / f".{CURRENT}-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(gen.name)
    os.replace(tmp, build_dir / CURRENT)


def prune(build_dir: Path, keep: int = KEEP_GENERATIONS) -> None:
    """Under the build lock: remove old complete generations, keeping the newest few (a server
    may still be reading one) and never the current one; an unfinished generation can only be
    a killed build's leftover then, and goes too."""
    current = generation(build_dir).name
    gens = {p: _completed_at(p) for p in build_dir.glob(GENERATION_PREFIX + "*") if p.is_dir() and p.name != current}
    complete = sorted((p for p, t in gens.items() if t is not None), key=gens.__getitem__)
    for old in complete[:max(0, len(complete) - (keep - 1))] + [p for p, t in gens.items() if t is None]:
        shutil.rmtree(old, ignore_errors=True)


def prune_locked(build_dir: Path, keep: int = KEEP_GENERATIONS) -> None:
    """`prune` under the build lock (what a build does after switching)."""
    with build_lock(build_dir):
        prune(build_dir, keep)


def verify(gen: Path) -> None:
    """A generation is switched in only complete: its export loads, its index opens and
    answers, its catalogs are there."""
    export = load_export(gen / EXPORT_NAME)
    if not export["documents"]:
        raise BuildError(f"incomplete build at {gen}: no documents")
    verify_index(gen)
    missing = [name for name in (GRAPH_NAME, *(f"{CORPUS_COPY}/{t}" for t in READER_TABLES))
               if not (gen / name).is_file()]
    if missing:
        raise BuildError(f"incomplete build at {gen}: no {', '.join(missing)}")
    if not all(mo_path(gen / CATALOGS, locale).exists() for locale in LOCALES):
        raise BuildError(f"incomplete build at {gen}: no interface catalogs")


def verify_index(gen: Path) -> None:
    """The generation's search index opens and answers a query, or BuildError says why."""
    try:
        from whoosh.query import Every
        with open_index(gen / INDEX_NAME).searcher() as searcher:
            answered = len(searcher.search(Every(), limit=1))
    except Exception as e:  # whatever a damaged index makes Whoosh raise
        raise BuildError(f"corrupt search index at {gen / INDEX_NAME}: {type(e).__name__}: {e}; "
                         "run `kb build`") from e
    if not answered:
        raise BuildError(f"empty search index at {gen / INDEX_NAME}; run `kb build`")


@contextmanager
def build_lock(build_dir: Path, wait: float = 600.0) -> Iterator[bool]:
    """One build at a time per build folder: a second build waits for the first (up to
    `wait` seconds, then says which process holds the lock). Yields whether it waited."""
    with open(build_dir / LOCK, "a+", encoding="utf-8") as f:
        deadline = time.monotonic() + wait
        waited = False
        while True:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                waited = True
                if time.monotonic() > deadline:
                    f.seek(0)
                    holder = f.read().strip() or "another process"
                    raise BuildError(f"another build ({holder}) holds {build_dir / LOCK}; try again when it ends")
                time.sleep(0.1)
        f.seek(0)
        f.truncate()
        f.write(f"pid {os.getpid()}\n")
        f.flush()
        try:
            yield waited
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def generation(build_dir: Path | None = None) -> Path:
    """The folder of the current generation."""
    build_dir = build_dir or default_build_dir()
    link = current_link(build_dir)
    try:
        return build_dir / os.readlink(link)
    except OSError as e:
        raise BuildError(f"no build at {build_dir}: run `kb build`") from e


def current_link(build_dir: Path) -> Path:
    """The `current` link's path; BuildError with the fix when something else took its place
    (a copy of the build folder that followed links turns it into a folder)."""
    if build_dir.exists() and not build_dir.is_dir():
        raise BuildError(f"the build folder {build_dir} is a file; give a folder with --build-dir or KB_BUILD_DIR")
    link = build_dir / CURRENT
    if not link.is_symlink() and link.exists():
        kind = "a folder" if link.is_dir() else "a file"
        raise BuildError(f"{link} is {kind}, not a link to a generation: remove it (rm -r '{link}') "
                         "and run `kb build`")
    return link


def readable_generations(build_dir: Path) -> list[Path]:
    """The complete generations a reader may open, best first: the current one, then the
    others newest first (the fallbacks when the current one is broken)."""
    try:
        current: Path | None = generation(build_dir)
    except BuildError:
        current = None
    completed = {p: _completed_at(p) for p in build_dir.glob(GENERATION_PREFIX + "*")}
    complete = {p: t for p, t in completed.items() if t is not None}
    others = sorted((p for p in complete if p != current), key=complete.__getitem__, reverse=True)
    return ([current] if current in complete else []) + others


def _completed_at(gen: Path) -> float | None:
    """When the generation was verified complete; None if it is not, is of another layout
    (an older kb's), or went meanwhile."""
    try:
        marker = gen / COMPLETE
        return marker.stat().st_mtime if marker.read_text(encoding="utf-8") == COMPLETE_TEXT else None
    except (OSError, UnicodeDecodeError):
        return None


def export_path(build_dir: Path | None = None) -> Path:
    return generation(build_dir) / EXPORT_NAME


def table(gen: Path, name: str) -> Path:
    """A curated table (`concordance.tsv`, `clock.tsv` …) as the generation was built with it:
    readers never open corpus/, so a generation is the whole of what they read."""
    return gen / CORPUS_COPY / name


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


def is_current(build_dir: Path | None = None, corpus_dir: Path = CORPUS_DIR) -> bool:
    try:
        gen = generation(build_dir)
        stamp = (gen / STAMP_NAME).read_text(encoding="utf-8").strip()
    except (BuildError, OSError):
        return False
    return _completed_at(gen) is not None and stamp == source_stamp(corpus_dir)


def ensure_build(build_dir: Path | None = None) -> Path:
    """Build if there is no current generation or it is stale; return the export's path.

    When the build cannot be made (a read-only or full disk, a build that holds the lock
    too long, a generation that fails verification) and a complete generation exists, a
    reader reads that one, with a warning that it may be stale, rather than nothing.
    """
    build_dir = build_dir or default_build_dir()
    current_link(build_dir)
    if is_current(build_dir):
        return export_path(build_dir)
    try:
        if build_dir.is_dir() and not os.access(build_dir, os.W_OK):
            raise BuildError(f"{build_dir} is not writable")
        build_dir.mkdir(parents=True, exist_ok=True)
        with build_lock(build_dir):
            if not is_current(build_dir):  # a build that held the lock may have made it current
                _build(build_dir, CORPUS_DIR)
        return export_path(build_dir)
    except (OSError, BuildError) as e:
        fallback = readable_generations(build_dir) if build_dir.is_dir() else []
        if not fallback:
            raise
        log.warning("cannot rebuild (%s); reading %s, which may be stale", _reason(e), fallback[0])
        return fallback[0] / EXPORT_NAME


def _reason(e: BaseException) -> str:
    return f"{e.strerror}: {e.filename}" if isinstance(e, OSError) and e.strerror else str(e)


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
