"""The build folder: its generations, the `current` link readers follow, and the lock builds take.

Each build writes a new generation folder (`gen-…`) holding everything a reader
opens, marks it `complete` once verified, then switches `current` to it in one
rename, so readers (the CLI, a running server) see a complete build, old or new.
Readers find the generation to open here (the current one, else the newest
complete one) and open its export through `load_export`, which names the problem
when the build is missing or corrupt. A reader that keeps a generation open (a server)
leases it (`lease`), and pruning removes no leased generation. Making a build is `kb.pipeline.build`.
"""
from __future__ import annotations

import fcntl
import json
import logging
import os
import shutil
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from ..corpus.manifest import CHECKOUT

EXPORT_NAME = "kb.json"
GRAPH_NAME = "graph.json"
DECKS_NAME = "bridge-laws-{lang}.apkg"  # the study cards as Anki decks (kb.study.anki), one per interface language
CORPUS_COPY = "corpus"          # the manifest, texts and curated tables the generation was built from
STAMP_NAME = "stamp"
SOURCE_NAME = "source"          # the corpus folder it was built from: BUILT_IN, or an absolute path
BUILT_IN = "built-in"
CURRENT = "current"             # the link readers follow
GENERATION_PREFIX = "gen-"      # one folder per build
KEEP_GENERATIONS = 3
COMPLETE = "complete"           # written last, after the generation is verified
LAYOUT = 8                      # what a generation holds; a generation of another layout is not one to read
                                # (8: a concordance per pair of editions, the readers' notes beside the tables)
COMPLETE_TEXT = f"verified, layout {LAYOUT}\n"
READER_TABLES = ("manifest.toml", "glossary.tsv", "clock.tsv",
                 "unresolved.tsv")  # the corpus files readers open in a generation (and the manifest's concordances)
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


def switch(build_dir: Path, gen: Path) -> None:
    """Point `current` at a generation in one step (a symlink renamed over the old one)."""
    tmp = build_dir / f".{CURRENT}-{os.getpid()}"
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(gen.name)
    os.replace(tmp, build_dir / CURRENT)


def prune(build_dir: Path, keep: int = KEEP_GENERATIONS) -> None:
    """Under the build lock: remove old complete generations, keeping the current one, the
    newest few and every one a reader holds (`lease`: a server still serving it, however many
    builds landed meanwhile); an unfinished generation can only be a killed build's leftover
    then, and goes too."""
    current = generation(build_dir).name
    gens = {p: completed_at(p) for p in build_dir.glob(GENERATION_PREFIX + "*") if p.is_dir() and p.name != current}
    complete = sorted((p for p, t in gens.items() if t is not None), key=gens.__getitem__)
    for old in complete[:max(0, len(complete) - (keep - 1))] + [p for p, t in gens.items() if t is None]:
        remove_unleased(old)


def remove_unleased(gen: Path) -> bool:
    """Remove a generation unless a reader holds it; whether it went. The exclusive lock taken
    keeps readers from leasing it meanwhile, and its `complete` marker goes first, so a reader
    that opened the folder meanwhile finds it incomplete and lets go."""
    fd = _open_folder(gen)
    if fd is not None and not _held_alone(fd):
        os.close(fd)
        return False
    try:
        (gen / COMPLETE).unlink(missing_ok=True)
        shutil.rmtree(gen, ignore_errors=True)
    finally:
        if fd is not None:
            os.close(fd)
    return True


def _held_alone(fd: int) -> bool:
    """Take the folder's exclusive lock: False when a reader holds it."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # a filesystem without flock: no reader can hold anything there
        pass
    return True


class Lease:
    """A reader's hold on a generation: a shared flock on the generation's folder, which
    `prune` will not remove while any is held. Nothing is written (a read-only build is held
    alike) and the kernel lets go when the process ends, however it ends."""

    def __init__(self, gen: Path, fd: int | None):
        self.gen, self._fd = gen, fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:
        self.release()


def lease(gen: Path) -> Lease | None:
    """Hold a complete generation while it is read; None when it is gone or going (a prune
    holds it). Where the filesystem cannot lock, it is read unheld, with a warning."""
    try:
        fd = os.open(gen, os.O_RDONLY | os.O_DIRECTORY)
    except FileNotFoundError:
        return None
    except OSError as e:
        return _unheld(gen, e)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    except OSError as e:
        os.close(fd)
        return _unheld(gen, e)
    return _if_complete(Lease(gen, fd))


def _unheld(gen: Path, e: OSError) -> Lease | None:
    log.warning("cannot hold the build %s (%s): a build may remove it while it is read", gen, e.strerror)
    return _if_complete(Lease(gen, None))


def _if_complete(held: Lease) -> Lease | None:
    """The lease, if its generation is still complete (a prune may have removed it between
    the open and the lock)."""
    if completed_at(held.gen) is None:
        held.release()
        return None
    return held


def _open_folder(gen: Path) -> int | None:
    try:
        return os.open(gen, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return None


def prune_locked(build_dir: Path, keep: int = KEEP_GENERATIONS) -> None:
    """`prune` under the build lock (what a build does after switching)."""
    with build_lock(build_dir):
        prune(build_dir, keep)


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
    completed = {p: completed_at(p) for p in build_dir.glob(GENERATION_PREFIX + "*")}
    complete = {p: t for p, t in completed.items() if t is not None}
    others = sorted((p for p in complete if p != current), key=complete.__getitem__, reverse=True)
    return ([current] if current in complete else []) + others


def unreadable(build_dir: Path) -> BuildError | None:
    """Why the current generation cannot be read when it is there but refuses this reader (a
    build made by another user with modes that keep others out); None otherwise."""
    where = build_dir
    try:
        gen = where = build_dir / os.readlink(build_dir / CURRENT)
        for name in (COMPLETE, EXPORT_NAME):
            (gen / name).open("rb").close()
    except PermissionError as e:
        return BuildError(f"cannot read the build {where}: {e.strerror}; its owner can let others read it "
                          f"(chmod -R a+rX '{build_dir}')")
    except OSError:
        return None
    return None


def completed_at(gen: Path) -> float | None:
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
