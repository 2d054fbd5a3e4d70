"""A static copy of the site (`kb site PATH`): every page the offline worker keeps, rendered by
the app itself in each interface language, written as files whose links work from any static
file server (they are relative), with the worker, the web manifest and the browser's search.

    PATH/index.html            → the first interface language's home
    PATH/it/index.html         one folder per interface language, each a whole site:
    PATH/it/it-laws/27.html    a page at /it-laws/27
    PATH/it/search.html        the search page; the browser's own search answers it
    PATH/it/offline/…          what the worker reads (the list of files, the search data)

The copy is written beside PATH (`.PATH.kb-site-<pid>.new`; a killed run's is removed by the
next) and moved into place in one step: a failed copy leaves PATH as it was. PATH must be
empty, absent, or an earlier copy holding only the files it wrote (its `COPY_MARK` lists them);
through a link, the folder it names is written. Modes follow the umask.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urlsplit

from kb.generations import DECKS_NAME
from kb.search.model import MODEL_NAME

from .decks import decks_url
from .exam import EXAM_QUESTIONS
from .i18n import LOCALES
from .offline import ASSETS, SEARCH_DATA, SEARCH_PAGE, STATE, STATIC, WEB_MANIFEST, WORKER, manifest, site_paths
from .study import STUDY_CARDS

COPY_MARK = ".kb-site"      # the generation the copy was made from, then each file it wrote, one a line
TEMPORARY = ".kb-site-"     # in the names of the folders a copy is written in, beside its target
LINKED = re.compile(r'(?P<attr>\b(?:href|src|action|data-worker|data-search-data|data-cards|data-questions))="(?P<url>/(?!/)[^"]*)"')
HTML_TAG = re.compile(r"<html\b")


class SiteError(Exception):
    """The copy cannot be written where asked; the message says why."""


@dataclass(frozen=True)
class Copy:
    path: Path
    pages: int    # per language
    files: int
    bytes: int


def file_for(path: str) -> str:
    """A site path as the copy's file: `/` → index.html, `/it-laws/27` → it-laws/27.html."""
    bare, _, query = path.partition("?")
    name = bare.strip("/") or "index"
    if query:  # another pair of editions' compare page: its query becomes part of the name
        name += "--" + re.sub(r"[^A-Za-z0-9]+", "-", query).strip("-")
    return name + ".html"


def relink(html: str, page_file: str, locale: str, files: set[str] | None = None) -> str:
    """The page's own links made relative to where its file lies; a language switch leads to
    the same page in that language's folder; the page says where the copy's top is. A link to
    an address only the server answers (not among `files`, e.g. the compare picker's redirect)
    stays on the page itself: its script goes where the server would have sent it."""
    up = "../" * page_file.count("/")

    def local(m: re.Match[str]) -> str:
        parts = urlsplit(m["url"].replace("&amp;", "&"))
        target = _target(parts.path)
        if files is not None and target.endswith(".html") and target not in files:
            target = page_file
        query = [q for q in parts.query.split("&") if q and not q.startswith("ui=")]
        lang = next((q[3:] for q in parts.query.split("&") if q.startswith("ui=")), locale)
        if lang != locale:
            target = f"../{lang}/{target}"
        if parts.path != SEARCH_PAGE and query:  # a page with a query is its own file
            target, query = file_for(parts.path + "?" + "&".join(query)), []
        url = up + target + ("?" + "&amp;".join(query) if query else "") + (f"#{parts.fragment}" if parts.fragment else "")
        return f'{m["attr"]}="{url}"'

    html = LINKED.sub(local, html)
    return HTML_TAG.sub(f'<html data-root="{up}"', html, count=1)


def _target(path: str) -> str:
    """Where a site path lies in the copy: a page is a file; a static file, the worker, the
    manifest, the search data, the study cards and the exam's questions keep their names."""
    if path.startswith("/static/") or path.endswith(".apkg") or path in (WORKER, WEB_MANIFEST, SEARCH_DATA, STATE,
                                                                           STUDY_CARDS, EXAM_QUESTIONS):
        return path.lstrip("/")
    return file_for(path)


def write_site(build_dir: Path, target: Path, locales: tuple[str, ...] = LOCALES) -> Copy:
    """Render every page in every language into a fresh folder beside `target` (through a
    link, the folder it names), then put it in the place of `target` in one step."""
    target = target.resolve() if target.is_symlink() else target
    _check_target(target)
    import warnings
    with warnings.catch_warnings():  # starlette's TestClient warns about httpx's future
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
    from .app import create_app
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(target)
    tmp = _temporary(target, "new")
    tmp.mkdir()  # of the umask's mode, as everything written into it
    try:
        with TestClient(create_app(build_dir)) as client:
            client.get("/")
            site = client.app.state.site
            if site is None:
                raise SiteError(f"no complete build at {build_dir}: run `kb build`")
            paths = site_paths(site)
            for locale in locales:
                _write_language(client, site, paths, tmp / locale, locale)
        (tmp / "index.html").write_text(_top_page(locales), encoding="utf-8")
        _mark(tmp, site.gen.name)
        _replace_folder(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    files = [p for p in target.rglob("*") if p.is_file()]
    return Copy(target, len(paths), len(files), sum(p.stat().st_size for p in files))


def _check_target(target: Path) -> None:
    """`target` may be absent, empty or an earlier copy holding only files a copy wrote."""
    if target.exists() and not target.is_dir():
        raise SiteError(f"{target} is a file; give a folder")
    if not target.is_dir() or not any(target.iterdir()):
        return
    if not (target / COPY_MARK).is_file():
        raise SiteError(f"{target} is not empty and holds no earlier copy of the site "
                        f"({_some(_foreign(target, set()))}); give an empty folder")
    foreign = _foreign(target, _written(target))
    if foreign:
        raise SiteError(f"{target} holds files kb site did not write ({_some(foreign)}); "
                        "move them out of it or give another folder")


def _mark(copy: Path, build: str) -> None:
    """The copy's mark: the generation it was made from, then every file it holds."""
    files = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file())
    (copy / COPY_MARK).write_text("\n".join([build, *files]) + "\n", encoding="utf-8")


def _written(copy: Path) -> set[str]:
    """The files an earlier copy wrote, as its mark lists them (a copy marked before marks
    listed files: as each language's offline list names them)."""
    listed = set((copy / COPY_MARK).read_text(encoding="utf-8").splitlines()[1:])
    return (listed or _offline_listed(copy)) | {COPY_MARK}


def _offline_listed(copy: Path) -> set[str]:
    files = {"index.html"}
    for state_file in copy.glob("*/" + STATE.lstrip("/")):
        lang = state_file.parent.parent.name
        try:
            state = json.loads(state_file.read_text(encoding="utf-8"))
            own = [*state["pages"], *state["assets"], state["search"]]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        own += [WORKER.lstrip("/"), STATE.lstrip("/"), decks_url(lang).lstrip("/")]
        files |= {f"{lang}/{f}" for f in own}
    return files


def _foreign(copy: Path, written: set[str]) -> list[str]:
    """What the folder holds that is not among `written`: files, and folders (with a `/`)
    holding nothing written, without what they hold."""
    folders = {str(parent) for f in written for parent in PurePosixPath(f).parents}
    found = []
    for top, dirs, files in os.walk(copy):
        rel = Path(top).relative_to(copy).as_posix()
        prefix = "" if rel == "." else rel + "/"
        found += [prefix + d + "/" for d in dirs if prefix + d not in folders]
        dirs[:] = [d for d in dirs if prefix + d in folders]
        found += [prefix + f for f in files if prefix + f not in written]
    return sorted(found)


def _some(names: list[str], most: int = 5) -> str:
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(names[:most]) + more


def _temporary(target: Path, kind: str) -> Path:
    """A folder beside `target` named for it and for this process: `.site.kb-site-4242.new`
    (the copy being written), `….old` (the earlier copy on its way out)."""
    return target.with_name(f".{target.name}{TEMPORARY}{os.getpid()}.{kind}")


def _remove_stale(target: Path) -> None:
    """The temporaries of a `kb site` into `target` that was killed: its process is gone."""
    pattern = re.compile(rf"\.{re.escape(target.name)}{re.escape(TEMPORARY)}(\d+)\.(?:new|old)")
    for path in target.parent.iterdir():
        m = pattern.fullmatch(path.name)
        if m and not _running(int(m[1])):
            shutil.rmtree(path, ignore_errors=True)


def _running(pid: int) -> bool:
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


def _replace_folder(new: Path, target: Path) -> None:
    """A folder written beside `target` put in its place in one step (the old one removed after):
    readers see the old folder or the new one, never a mix."""
    if target.exists():
        old = _temporary(target, "old")
        os.replace(target, old)
        os.replace(new, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(new, target)


def _write_language(client, site, paths: list[str], out: Path, locale: str) -> None:
    client.cookies.set("ui", locale)
    files = {file_for(p) for p in paths}
    for path in paths:
        response = client.get(path)
        if response.status_code != 200:
            raise SiteError(f"{path} answered {response.status_code}")
        page = file_for(path)
        _write(out / page, relink(response.text, page, locale, files))
    for asset in ASSETS:
        if asset.startswith("/static/"):
            _write(out / asset.lstrip("/"), (STATIC / asset.rsplit("/", 1)[1]).read_bytes())
    _write(out / WORKER.lstrip("/"), (STATIC / "sw.js").read_bytes())
    _ = site.translations[locale].gettext
    _write(out / WEB_MANIFEST.lstrip("/"), json.dumps(_local_manifest(manifest(_)), ensure_ascii=False))
    _write(out / SEARCH_DATA.lstrip("/"), (site.gen / MODEL_NAME).read_bytes())
    _write(out / decks_url(locale).lstrip("/"), (site.gen / DECKS_NAME.format(lang=locale)).read_bytes())
    for data in (STUDY_CARDS, EXAM_QUESTIONS):
        _write(out / data.lstrip("/"), client.get(data).content)
    state = {"build": site.gen.name, "pages": [file_for(p) for p in paths],
             "assets": [_target(a) for a in ASSETS], "search": SEARCH_DATA.lstrip("/")}
    _write(out / STATE.lstrip("/"), json.dumps(state))


def _local_manifest(data: dict) -> dict:
    """The web manifest with its addresses relative to the language's folder."""
    return {**data, "start_url": "index.html", "scope": "./",
            "icons": [{**icon, "src": icon["src"].lstrip("/")} for icon in data["icons"]]}


def _top_page(locales: tuple[str, ...]) -> str:
    """The copy's top: it goes to the first language's home; the others are linked."""
    links = "".join(f'<li><a href="{loc}/index.html" hreflang="{loc}">{loc.upper()}</a></li>' for loc in locales)
    return ("<!doctype html><html><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"refresh\" content=\"0; url={locales[0]}/index.html\">"
            f"<link rel=\"icon\" href=\"{locales[0]}/static/icon.svg\" type=\"image/svg+xml\">"
            "<title>Bridge Laws</title></head>"
            f"<body><ul>{links}</ul></body></html>")


def _write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
