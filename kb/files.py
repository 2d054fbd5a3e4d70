"""Files written for others to read: generations, packages, exports, static copies.

Their modes come from the umask (0755 folders and 0644 files under umask 022), so a web
server or a service running as another user reads them; a file written over an existing one
keeps that file's mode. tempfile's mkstemp and mkdtemp make 0600 files and 0700 folders
whatever the umask, so what is written through them is given its mode before it is renamed
into place.
"""
from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def umask() -> int:
    """The process's umask (read by setting it and setting it back: the only portable way)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def file_mode(existing: Path | None = None) -> int:
    """The mode of a file written at `existing`: that file's own when there is one, else what
    the umask leaves of 0666."""
    try:
        return stat.S_IMODE(existing.stat().st_mode) if existing is not None else 0o666 & ~umask()
    except FileNotFoundError:
        return 0o666 & ~umask()


def folder_mode() -> int:
    """What the umask leaves of 0777."""
    return 0o777 & ~umask()


def new_folder(parent: Path, prefix: str) -> Path:
    """A folder of a name of its own under `parent`, of the umask's mode."""
    folder = Path(tempfile.mkdtemp(dir=parent, prefix=prefix))
    os.chmod(folder, folder_mode())
    return folder


@contextmanager
def written_beside(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` to write the new file at; once written, it gets `path`'s
    mode (or the umask's) and is renamed over it in one step: readers see the old file or the
    new one, never half."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    try:
        yield Path(tmp)
        os.chmod(tmp, file_mode(path))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write(path: Path, text: str) -> None:
    with written_beside(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
