"""A static copy of the site (`kb site PATH`): every page the offline worker keeps, rendered by
the app itself in each interface language, written as files whose links work from any static
file server (they are relative), with the worker, the web manifest and the browser's search.

    PATH/index.html            → the home in the reader's language (the browser's; links to each)
    PATH/it/index.html         one folder per interface language, each a whole site:
    PATH/it/it-laws/27.html    a page at /it-laws/27
    PATH/it/search.html        the search page; the browser's own search answers it
    PATH/sw.js, PATH/static/…  what every language shares, once: the worker, the scripts, the
    PATH/offline/…             search data, the study cards, and each language's pages in one
    PATH/study/…               pack (offline/pages-it.pack), which the worker fetches whole

Beside every text file lie its `.gz` and `.br`, for a host that serves them as they are (nginx's
gzip_static and brotli_static, and the like).

The copy is written beside PATH (`.PATH.kb-site-<pid>.new`; a killed run's is removed by the
next) and moved into place in one step: a failed copy leaves PATH as it was. PATH must be
empty, absent, or an earlier copy holding only the files it wrote (its `COPY_MARK` lists them);
through a link, the folder it names is written. Modes follow the umask.
"""
from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from html import escape as html_escape
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import brotli

from kb.generations import DECKS_NAME
from kb.search.model import MODEL_NAME

from . import inprocess
from .decks import decks_url
from .i18n import LOCALES
from .offline import (ASSETS, ENDONYMS, SEARCH_DATA, SEARCH_PAGE, STATE, STATIC, WEB_MANIFEST, WORKER, Entry,
                      offline_state, pack, pack_url, shared_assets, site_paths)
from .study import STUDY_CARDS

COPY_MARK = ".kb-site"      # the generation the copy was made from, then each file it wrote, one a line
TEMPORARY = ".kb-site-"     # in the names of the folders a copy is written in, beside its target
LINKED = re.compile(r'(?P<attr>\b(?:href|src|action|data-worker|data-search-data|data-cards))="(?P<url>/(?!/)[^"]*)"')
HTML_TAG = re.compile(r"<html\b")
SHARED = ("/static/", "/offline/", "/study/")  # what every language links alike lies once, at the copy's top
LANGUAGE_SCRIPT = "static/language.js"  # the top page's: on to the reader's language
COMPRESSED = (".html", ".js", ".css", ".json", ".webmanifest", ".svg", ".bin")  # text, and the search model
# A file this large (the search model alone, the largest thing a phone fetches) is worth brotli's
# slowest quality: 0.76 MB against 0.87 at quality 9, for some 7 s more of `kb site`.
BROTLI_BEST = 1024 * 1024


class SiteError(Exception):
    """The copy cannot be written where asked; the message says why."""


@dataclass(frozen=True)
class Copy:
    path: Path
    pages: int    # per language
    languages: int
    files: int
    bytes: int
    compressed: int  # of them, the .gz and .br beside the text files


def file_for(path: str) -> str:
    """A site path as the copy's file: `/` → index.html, `/it-laws/27` → it-laws/27.html."""
    bare, _, query = path.partition("?")
    name = bare.strip("/") or "index"
    if query:  # another pair of editions' compare page: its query becomes part of the name
        name += "--" + re.sub(r"[^A-Za-z0-9]+", "-", query).strip("-")
    return name + ".html"


def relink(html: str, page_file: str, locale: str, files: set[str] | None = None) -> str:
    """The page's own links made relative to where its file lies; a language switch leads to
    the same page in that language's folder; what every language shares is one folder up; the
    page says where its language's top is. A link to an address only the server answers (not
    among `files`, e.g. the compare picker's redirect) stays on the page itself: its script goes
    where the server would have sent it."""
    up = "../" * page_file.count("/")

    def local(m: re.Match[str]) -> str:
        parts = urlsplit(m["url"].replace("&amp;", "&"))
        if is_shared(parts.path):
            return f'{m["attr"]}="{up}../{parts.path.lstrip("/")}"'
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


def is_shared(path: str) -> bool:
    """Whether a site path is a file every language shares (the worker, the scripts, the search
    data, the cards, the decks) rather than a page or a file of one language."""
    return path == WORKER or (path.startswith(SHARED) and path != SEARCH_PAGE)


def _target(path: str) -> str:
    """Where a page (or the web manifest, whose names are translated) lies in its language's folder."""
    return WEB_MANIFEST.lstrip("/") if path == WEB_MANIFEST else file_for(path)


def write_site(build_dir: Path, target: Path, locales: tuple[str, ...] = LOCALES) -> Copy:
    """Render every page in every language into a fresh folder beside `target` (through a
    link, the folder it names), then put it in the place of `target` in one step."""
    target = target.resolve() if target.is_symlink() else target
    _check_target(target)
    from .app import create_app
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(target)
    tmp = _temporary(target, "new")
    tmp.mkdir()  # of the umask's mode, as everything written into it
    try:
        app = create_app(build_dir)
        site = app.state.site
        if site is None:
            raise SiteError(f"no complete build at {build_dir}: run `kb build`")
        paths = site_paths(site)
        with ThreadPoolExecutor(1) as thread:  # an event loop of its own, whatever loop the caller runs in
            thread.submit(asyncio.run, _write_copy(app, site, paths, tmp, locales)).result()
        _mark(tmp, site.gen.name)
        _replace_folder(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    files = [p for p in target.rglob("*") if p.is_file()]
    compressed = [p for p in files if p.suffix in (".gz", ".br")]
    return Copy(target, len(paths), len(locales), len(files), sum(p.stat().st_size for p in files),
                sum(p.stat().st_size for p in compressed))


async def _write_copy(app: Any, site: Any, paths: list[str], out: Path, locales: tuple[str, ...]) -> None:
    """Each language's pages and pack, what they share, the top page, then each text file compressed."""
    for locale in locales:
        _write(out / pack_url(locale).lstrip("/"), pack(await _write_language(app, paths, out, locale)))
    await _write_shared(app, site, paths, out, locales)
    _write(out / "index.html", _top_page(site, locales))
    _compress(out)


async def _write_language(app: Any, paths: list[str], out: Path, locale: str) -> list[Entry]:
    """A language's pages and web manifest, written in its folder: the entries of its pack."""
    files, entries = {file_for(p) for p in paths}, []
    for path in paths:
        answer = await inprocess.get(app, path, {"ui": locale})
        if answer.status != 200:
            raise SiteError(f"{path} answered {answer.status}")
        page = file_for(path)
        entries.append(_written_entry(out, f"{locale}/{page}", answer.headers["content-type"],
                                      relink(answer.text, page, locale, files)))
    answer = await inprocess.get(app, WEB_MANIFEST, {"ui": locale})
    entries.append(_written_entry(out, f"{locale}/{_target(WEB_MANIFEST)}", answer.headers["content-type"],
                                  json.dumps(_local_manifest(json.loads(answer.body)), ensure_ascii=False)))
    return entries


def _written_entry(out: Path, name: str, content_type: str, text: str) -> Entry:
    body = text.encode("utf-8")
    _write(out / name, body)
    return Entry(name, content_type, body)


async def _write_shared(app: Any, site: Any, paths: list[str], out: Path, locales: tuple[str, ...]) -> None:
    """Once for every language: the worker, the scripts and styles, the search data, the study
    cards and decks, and the list of what the worker keeps."""
    for asset in [*ASSETS, "/" + LANGUAGE_SCRIPT]:
        if asset.startswith("/static/"):
            _write(out / asset.lstrip("/"), (STATIC / asset.rsplit("/", 1)[1]).read_bytes())
    _write(out / WORKER.lstrip("/"), (STATIC / "sw.js").read_bytes())
    _write(out / SEARCH_DATA.lstrip("/"), (site.gen / MODEL_NAME).read_bytes())
    _write(out / STUDY_CARDS.lstrip("/"), (await inprocess.get(app, STUDY_CARDS)).body)
    for locale in locales:
        decks = DECKS_NAME.format(lang=locale)
        _write(out / "study" / decks, (site.gen / decks).read_bytes())
    _write(out / STATE.lstrip("/"), json.dumps(_copy_state(site, paths, locales)))


def _copy_state(site: Any, paths: list[str], locales: tuple[str, ...]) -> dict[str, Any]:
    """The worker's list, its addresses relative to the copy's top: the pages as each language's
    folder holds them, the shared files, the packs, and the folder of each language."""
    assets = [a.lstrip("/") for a in shared_assets()] + [LANGUAGE_SCRIPT, "index.html"]
    state = offline_state(site, [file_for(p) for p in paths], assets, SEARCH_DATA.lstrip("/"),
                          {loc: pack_url(loc).lstrip("/") for loc in locales})
    return {**state, "default": locales[0], "folders": {loc: f"{loc}/" for loc in locales}}


def _compress(copy: Path) -> None:
    """A `.gz` and a `.br` beside every text file (and the search model), as hosts that serve
    precompressed files read them."""
    for path in sorted(p for p in copy.rglob("*") if p.is_file() and p.suffix in COMPRESSED):
        data = path.read_bytes()
        _write(path.with_name(path.name + ".gz"), gzip.compress(data, 9, mtime=0))
        quality = 11 if len(data) >= BROTLI_BEST else 5  # 5: within 10 % of 11 on a page, 50 times faster
        _write(path.with_name(path.name + ".br"), brotli.compress(data, quality=quality))


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


def _local_manifest(data: dict) -> dict:
    """The web manifest with its addresses relative to the language's folder."""
    return {**data, "start_url": "index.html", "scope": "./",
            "icons": [{**icon, "src": "../" + icon["src"].lstrip("/")} for icon in data["icons"]]}


def _top_page(site: Any, locales: tuple[str, ...]) -> str:
    """The copy's top: its script goes on to the reader's language (the one last read here, else
    the browser's first that the copy has); without script, each language is a link."""
    names = {loc: html_escape(site.translations[loc].gettext("Bridge Laws")) for loc in locales}
    title = " · ".join(dict.fromkeys(names.values()))
    links = "".join(f'<li><a href="{loc}/index.html" hreflang="{loc}" lang="{loc}">{names[loc]} · {ENDONYMS[loc]}</a></li>'
                    for loc in locales)
    return (f'<!doctype html>\n<html lang="{locales[0]}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{title}</title><link rel="stylesheet" href="static/style.css">'
            '<link rel="icon" href="static/icon.svg" type="image/svg+xml">'
            f'<script src="{LANGUAGE_SCRIPT}" data-languages="{" ".join(locales)}"></script></head>'
            f'<body><main id="main"><h1>{title}</h1><ul class="languages">{links}</ul></main></body></html>\n')


def _write(path: Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)
