"""Files written for others to read: generations, packages, exports, static copies, releases.

Their modes come from the umask (0755 folders and 0644 files under umask 022), so a web
server or a service running as another user reads them; a file written over an existing one
keeps that file's mode. tempfile's mkstemp and mkdtemp make 0600 files and 0700 folders
whatever the umask, so what is written through them is given its mode before it is renamed
into place. A folder a command writes whole (`kb site`, `kb release`) is an `OwnFolder`.
"""
from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Callable, Iterator


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


class FolderError(Exception):
    """A folder cannot be written where asked; the message (one line) says why."""


@dataclass(frozen=True)
class OwnFolder:
    """A folder one command writes whole and replaces whole (`kb site`, `kb release`).

    It is written beside its target (`.NAME<mark>-<pid>.new`; a killed run's is removed by the
    next run) and put in the target's place in one step: a failed run leaves the target as it
    was. Its mark, a file in it, holds what it was made from, then every file it wrote, one a
    line: a later run replaces a folder holding only those, and refuses one holding anything
    else. The target may be empty, absent or such a folder; through a link, the folder it names."""

    mark: str      # the mark's file name (".kb-site")
    what: str      # what the folder is, in errors ("copy of the site")
    command: str   # the command that writes it, in errors ("kb site")

    def check(self, target: Path, written: Callable[[Path], set[str]] | None = None) -> None:
        """FolderError unless `target` may be written (`written`: the files an earlier run wrote)."""
        if target.name == "-":  # standard output, as `kb export -` writes: a folder of files cannot go there
            raise FolderError(f"{self.command} writes a folder of files, not standard output: give a folder's path")
        if target.exists() and not target.is_dir():
            kind = "a file" if target.is_file() else "not a folder (a device, FIFO or socket)"
            raise FolderError(f"{target} is {kind}; give a folder")
        if not target.is_dir() or not any(target.iterdir()):
            return
        if not (target / self.mark).is_file():
            raise FolderError(f"{target} is not empty and holds no earlier {self.what} "
                              f"({some(foreign(target, set()))}); give an empty folder")
        found = foreign(target, (written or self.written)(target))
        if found:
            raise FolderError(f"{target} holds files {self.command} did not write ({some(found)}); "
                              "move them out of it or give another folder")

    def listed(self, folder: Path) -> set[str]:
        """The files the folder's mark lists."""
        return set((folder / self.mark).read_text(encoding="utf-8").splitlines()[1:])

    def written(self, folder: Path) -> set[str]:
        return self.listed(folder) | {self.mark}

    def sign(self, folder: Path, made_from: str) -> None:
        """Write the mark: what the folder was made from, then every file it holds."""
        files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
        (folder / self.mark).write_text("\n".join([made_from, *files]) + "\n", encoding="utf-8")

    def temporary(self, target: Path, kind: str) -> Path:
        """A folder beside `target` named for it and for this process: `.site.kb-site-4242.new`
        (being written), `….old` (the earlier folder on its way out)."""
        return target.with_name(f".{target.name}{self.mark}-{os.getpid()}.{kind}")

    def remove_stale(self, target: Path) -> None:
        """The temporaries of a run into `target` that was killed: its process is gone."""
        pattern = re.compile(rf"\.{re.escape(target.name)}{re.escape(self.mark)}-(\d+)\.(?:new|old)")
        for path in target.parent.iterdir():
            m = pattern.fullmatch(path.name)
            if m and not running(int(m[1])):
                shutil.rmtree(path, ignore_errors=True)

    @contextmanager
    def writing(self, target: Path, made_from: str) -> Iterator[Path]:
        """A fresh folder beside `target` (through a link, the folder it names) to write into;
        once written it is marked and put in the target's place; on failure it is removed."""
        target = target.resolve() if target.is_symlink() else target
        self.check(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        self.remove_stale(target)
        tmp = self.temporary(target, "new")
        tmp.mkdir()  # of the umask's mode, as everything written into it
        try:
            yield tmp
            self.sign(tmp, made_from)
            replace_folder(tmp, target, self.temporary(target, "old"))
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise


def replace_folder(new: Path, target: Path, old: Path) -> None:
    """A folder written beside `target` put in its place in one step (the earlier one moved to
    `old`, then removed): readers see the old folder or the new one, never a mix."""
    if target.exists():
        os.replace(target, old)
        os.replace(new, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(new, target)


def foreign(folder: Path, written: set[str]) -> list[str]:
    """What the folder holds that is not among `written`: files, and folders (with a `/`)
    holding nothing written, without what they hold."""
    folders = {str(parent) for f in written for parent in PurePosixPath(f).parents}
    found = []
    for top, dirs, files in os.walk(folder):
        rel = Path(top).relative_to(folder).as_posix()
        prefix = "" if rel == "." else rel + "/"
        found += [prefix + d + "/" for d in dirs if prefix + d not in folders]
        dirs[:] = [d for d in dirs if prefix + d in folders]
        found += [prefix + f for f in files if prefix + f not in written]
    return sorted(found)


def some(names: list[str], most: int = 5) -> str:
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(names[:most]) + more


def running(pid: int) -> bool:
    """Whether another process of that id runs (this one has no temporary yet)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        pass
    return True
