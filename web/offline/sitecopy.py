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
import re
import shutil
from concurrent.futures import ThreadPoolExecutor
from html import escape as html_escape
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import brotli

from kb.study.anki import check_base_url, decks_bytes
from kb.common.files import FolderError, OwnFolder, replace_folder
from kb.pipeline.generations import DECKS_NAME
from kb.search.model import MODEL_NAME

from ..site import Site
from ..http import inprocess
from ..study.decks import decks_url
from ..study.exam import EXAM_QUESTIONS
from ..i18n import LOCALES
from .worker import (ASSETS, ENDONYMS, SEARCH_DATA, SEARCH_PAGE, STATE, STATIC, WEB_MANIFEST, WORKER, Entry,
                      offline_state, pack, pack_url, shared_assets, site_paths)
from ..study.drills import STUDY_CARDS

COPY_MARK = ".kb-site"      # the generation the copy was made from, then each file it wrote, one a line
SITE = OwnFolder(COPY_MARK, "copy of the site", "kb site")
LINKED = re.compile(r'(?P<attr>\b(?:href|src|action|data-worker|data-search-data|data-cards|data-questions))="(?P<url>/(?!/)[^"]*)"')
HTML_TAG = re.compile(r"<html\b")
SHARED = ("/static/", "/offline/", "/study/")  # what every language links alike lies once, at the copy's top
LANGUAGE_SCRIPT = "static/language.js"  # the top page's: on to the reader's language
COMPRESSED = (".html", ".js", ".css", ".json", ".webmanifest", ".svg", ".bin")  # text, and the search model
# A file this large (the search model alone, the largest thing a phone fetches) is worth brotli's
# slowest quality: 0.76 MB against 0.87 at quality 9, for some 7 s more of `kb site`.
BROTLI_BEST = 1024 * 1024


class SiteError(FolderError):
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
    return path == WORKER or (path.startswith(SHARED) and "." in path.rsplit("/", 1)[1])  # a file, not a page (/study/exam)


def _target(path: str) -> str:
    """Where a page (or the web manifest, whose names are translated) lies in its language's folder."""
    return WEB_MANIFEST.lstrip("/") if path == WEB_MANIFEST else file_for(path)


def write_site(build_dir: Path, target: Path, locales: tuple[str, ...] = LOCALES, base_url: str | None = None) -> Copy:
    """Render every page in every language into a fresh folder beside `target` (through a
    link, the folder it names), then put it in the place of `target` in one step. `base_url`:
    where the copy will be published; its Anki packages link to its pages there (None: the
    build's packages, which carry no links)."""
    target = target.resolve() if target.is_symlink() else target
    _check_target(target)
    from ..app import create_app
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
            thread.submit(asyncio.run, _write_copy(app, site, paths, tmp, locales, base_url)).result()
        _mark(tmp, site.gen.name)
        _replace_folder(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    files = [p for p in target.rglob("*") if p.is_file()]
    compressed = [p for p in files if p.suffix in (".gz", ".br")]
    return Copy(target, len(paths), len(locales), len(files), sum(p.stat().st_size for p in files),
                sum(p.stat().st_size for p in compressed))


async def _write_copy(app: Any, site: Site, paths: list[str], out: Path, locales: tuple[str, ...],
                      base_url: str | None) -> None:
    """Each language's pages and pack, what they share, the top page, then each text file compressed."""
    for locale in locales:
        _write(out / pack_url(locale).lstrip("/"), pack(await _write_language(app, paths, out, locale)))
    await _write_shared(app, site, paths, out, locales, base_url)
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


async def _write_shared(app: Any, site: Site, paths: list[str], out: Path, locales: tuple[str, ...],
                        base_url: str | None) -> None:
    """Once for every language: the worker, the scripts and styles, the search data, the study
    cards and decks, and the list of what the worker keeps."""
    for asset in [*ASSETS, "/" + LANGUAGE_SCRIPT]:
        if asset.startswith("/static/"):
            _write(out / asset.lstrip("/"), (STATIC / asset.rsplit("/", 1)[1]).read_bytes())
    _write(out / WORKER.lstrip("/"), (STATIC / "sw.js").read_bytes())
    _write(out / SEARCH_DATA.lstrip("/"), (site.gen / MODEL_NAME).read_bytes())
    for data in (STUDY_CARDS, EXAM_QUESTIONS):
        _write(out / data.lstrip("/"), (await inprocess.get(app, data)).body)
    for locale in locales:
        _write(out / decks_url(locale).lstrip("/"), _decks(site, locale, base_url))
    _write(out / STATE.lstrip("/"), json.dumps(_copy_state(site, paths, locales)))


def _copy_state(site: Site, paths: list[str], locales: tuple[str, ...]) -> dict[str, Any]:
    """The worker's list, its addresses relative to the copy's top: the pages as each language's
    folder holds them, the shared files, the packs, and the folder of each language."""
    assets = [a.lstrip("/") for a in shared_assets()] + [LANGUAGE_SCRIPT, "index.html"]
    state = offline_state(site, [file_for(p) for p in paths], assets, SEARCH_DATA.lstrip("/"),
                          {loc: pack_url(loc).lstrip("/") for loc in locales})
    return {**state, "default": locales[0], "folders": {loc: f"{loc}/" for loc in locales},
            "own": {loc: [decks_url(loc).lstrip("/")] for loc in locales}}


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
    SITE.check(target, _written)


def _mark(copy: Path, build: str) -> None:
    """The copy's mark: the generation it was made from, then every file it holds."""
    SITE.sign(copy, build)


def _written(copy: Path) -> set[str]:
    """The files an earlier copy wrote, as its mark lists them (a copy marked before marks
    listed files: as each language's offline list names them)."""
    return (SITE.listed(copy) or _offline_listed(copy)) | {COPY_MARK}


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


_temporary = SITE.temporary        # `.site.kb-site-4242.new`, `….old`: beside the target, named for it and this process
_remove_stale = SITE.remove_stale  # a killed run's temporaries


def _replace_folder(new: Path, target: Path) -> None:
    replace_folder(new, target, _temporary(target, "old"))


def _decks(site, locale: str, base_url: str | None) -> bytes:
    """The language's Anki package: linking to the copy's files as published at `base_url`
    (`URL/it/it-laws/27.html#27B1b`), or the build's, with no links."""
    if base_url is None:
        return (site.gen / DECKS_NAME.format(lang=locale)).read_bytes()
    top = f"{check_base_url(base_url)}/{locale}/"

    def link(path: str) -> str:
        page, mark, anchor = path.partition("#")
        return top + _target(page) + mark + anchor
    return decks_bytes(site.study_sources, locale, link)


def _local_manifest(data: dict) -> dict:
    """The web manifest with its addresses relative to the language's folder."""
    return {**data, "start_url": "index.html", "scope": "./",
            "icons": [{**icon, "src": "../" + icon["src"].lstrip("/")} for icon in data["icons"]]}


def _top_page(site: Site, locales: tuple[str, ...]) -> str:
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
