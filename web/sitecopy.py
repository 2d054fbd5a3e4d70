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
import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from kb.anki import check_base_url, decks_bytes
from kb.files import FolderError, OwnFolder, replace_folder
from kb.generations import DECKS_NAME
from kb.search.model import MODEL_NAME

from .decks import decks_url
from .exam import EXAM_QUESTIONS
from .i18n import LOCALES
from .offline import (ASSETS, SEARCH_DATA, SEARCH_PAGE, STATE, STATIC, WEB_MANIFEST, WORKER, manifest, offline_assets,
                      site_paths)
from .study import STUDY_CARDS

COPY_MARK = ".kb-site"      # the generation the copy was made from, then each file it wrote, one a line
SITE = OwnFolder(COPY_MARK, "copy of the site", "kb site")
LINKED = re.compile(r'(?P<attr>\b(?:href|src|action|data-worker|data-search-data|data-cards|data-questions))="(?P<url>/(?!/)[^"]*)"')
HTML_TAG = re.compile(r"<html\b")


class SiteError(FolderError):
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


def write_site(build_dir: Path, target: Path, locales: tuple[str, ...] = LOCALES, base_url: str | None = None) -> Copy:
    """Render every page in every language into a fresh folder beside `target` (through a
    link, the folder it names), then put it in the place of `target` in one step. `base_url`:
    where the copy will be published; its Anki packages link to its pages there (None: the
    build's packages, which carry no links)."""
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
                _write_language(client, site, paths, tmp / locale, locale, base_url)
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


def _write_language(client, site, paths: list[str], out: Path, locale: str, base_url: str | None = None) -> None:
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
    _write(out / decks_url(locale).lstrip("/"), _decks(site, locale, base_url))
    for data in (STUDY_CARDS, EXAM_QUESTIONS):
        _write(out / data.lstrip("/"), client.get(data).content)
    state = {"build": site.gen.name, "pages": [file_for(p) for p in paths],
             "assets": [_target(a) for a in offline_assets(locale)], "search": SEARCH_DATA.lstrip("/")}
    _write(out / STATE.lstrip("/"), json.dumps(state))


def _decks(site, locale: str, base_url: str | None) -> bytes:
    """The language's Anki package: linking to the copy's files as published at `base_url`
    (`URL/it/it-laws/27.html#27B1b`), or the build's, with no links."""
    if base_url is None:
        return (site.gen / DECKS_NAME.format(lang=locale)).read_bytes()
    top = f"{check_base_url(base_url)}/{locale}/"

    def link(path: str) -> str:
        page, mark, anchor = path.partition("#")
        return top + _target(page) + mark + anchor
    return decks_bytes(site, locale, link)


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
