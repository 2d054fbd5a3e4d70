"""The `kb` command: a thin shell over the library."""
from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

from .pipeline import build as builder
from .corpus.catalogs import LOCALES
from .study.anki import DECK_NAMES, check_base_url, site_links, write_decks
from .pipeline import generations
from .common.files import FolderError, atomic_write
from .pipeline.graph import write_graph
from .readmodel.knowledge import KnowledgeBase
from .pipeline.check import load_explained, load_sources, report
from .corpus.manifest import CorpusError
from .citations.check import CiteError
from .readmodel.render import render_cite, render_links, render_result, render_unit
from .search.analysis import LANGS
from .search.model import ModelError
from .search.query import QueryError
from .corpus.manifest import CORPUS_DIR
from .records.store import NotFound


class UsageError(Exception):
    """Bad arguments or state; printed as one line, exit 2."""


def _kb(args: argparse.Namespace) -> KnowledgeBase:
    """The knowledge base of the build, rebuilt first when stale (or read stale, with a warning,
    when the disk refuses)."""
    return KnowledgeBase(builder.ensure_build(args.build_dir, args.corpus).parent)


def cmd_build(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    path = builder.build(args.build_dir, args.corpus or CORPUS_DIR)
    export = generations.load_export(path)
    units = sum(len(d["units"]) for d in export["documents"])
    clauses = sum(len(u["clauses"]) for d in export["documents"] for u in d["units"])
    print(f"built {len(export['documents'])} documents, {units} units, {clauses} clauses "
          f"in {time.perf_counter() - t0:.2f} s → {path.parent}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    src = builder.ensure_build(args.build_dir, args.corpus)
    if args.path == "-":
        sys.stdout.write(src.read_text(encoding="utf-8"))
        return 0
    out = file_target(Path(args.path), dash=True)
    atomic_write(out, src.read_text(encoding="utf-8"))
    print(f"wrote {out}")
    return 0


def file_target(path: Path, dash: bool = False) -> Path:
    """Where to write a file named on the command line: a new or regular file (through a
    symlink, the file it names); never a directory, device, FIFO or socket (`dash`: the
    command also takes - for standard output)."""
    target = path.resolve() if path.is_symlink() else path
    if target.exists() and not target.is_file():
        kind = "a directory" if target.is_dir() else "not a regular file (a device, FIFO or socket)"
        via = f" (the link {path} names it)" if target != path else ""
        raise UsageError(f"{target} is {kind}{via}; give a file path" + (", or - for standard output" if dash else ""))
    if not target.parent.is_dir():
        raise UsageError(f"folder {target.parent} does not exist")
    return target


def cmd_anki(args: argparse.Namespace) -> int:
    out = file_target(Path(args.path))
    link = site_links(args.base_url) if args.base_url else None
    counts = write_decks(_kb(args).study_sources, out, args.lang, link)
    decks = ", ".join(f"{DECK_NAMES[d].split('::')[-1]} {n}" for d, n in counts.items())
    links = f"links to {args.base_url}" if args.base_url else "no links: give --base-url"
    print(f"wrote {out} ({sum(counts.values())} notes: {decks}; {links})")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    kb = _kb(args)
    view = kb.unit_view(args.doc, args.unit)
    if args.json:  # what /api/units/{doc}/{unit} answers
        print(json.dumps(view.to_dict(), ensure_ascii=False, indent=1))
    else:
        print(render_unit(view.doc, view.unit, store=kb.store))
        print(render_links(kb.store, args.doc, args.unit))
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    kb = _kb(args)
    store, gen = kb.store, kb.gen
    lines = report(store.export, load_explained(generations.table(gen, "unresolved.tsv")),
                   load_sources(gen / generations.CORPUS_COPY))
    try:
        builder.verify_model(gen)
    except generations.BuildError as e:
        lines.append((str(e), False))
    problems = [line for line, ok in lines if not ok]
    for line in [line for line, ok in lines if ok] + problems:
        print(line)
    docs = store.documents.values()
    units = sum(len(d.units) for d in docs)
    print(f"{len(problems)} problem(s) in {len(docs)} documents, {units} units", file=sys.stderr)
    return 1 if problems else 0


def cmd_search(args: argparse.Namespace) -> int:
    try:
        result = _kb(args).search(args.query, doc=args.doc, lang=args.lang, kind=args.kind,
                                  limit=args.limit, page=args.page, ui=args.ui)
    except QueryError as e:
        raise UsageError(str(e)) from e
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=1))
    else:
        print(render_result(result))
    return 0


def cmd_cite(args: argparse.Namespace) -> int:
    text = _read_text(args.text)
    try:
        result = _kb(args).cite(text, args.lang)
    except CiteError as e:
        raise UsageError(str(e)) from e
    if args.json:  # what /api/cite answers
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=1))
    elif args.html:
        print(result.html)
    else:
        print(render_cite(result))
    return 0


def _read_text(text: str) -> str:
    """The text given on the command line, or standard input's for `-`; a file's path is refused
    (its text is checked from standard input: a path's own words cite nothing)."""
    if text != "-":
        if _is_file(text):
            raise UsageError(f"{text!r} is a file's path, not a text: to check the file, give it on standard "
                             f"input (kb cite - < {text})")
        return text
    try:
        return sys.stdin.read()
    except UnicodeDecodeError as e:
        raise UsageError(f"standard input is not text in {sys.stdin.encoding}: {e.reason}") from e


def _is_file(text: str) -> bool:
    try:
        return len(text) < 4096 and "\n" not in text and Path(text).is_file()
    except (OSError, ValueError):  # not a path this system can hold
        return False


def cmd_mcp(args: argparse.Namespace) -> int:
    from .assistant import server  # the MCP SDK is loaded for this command only
    mcp = server(args.build_dir)  # the current build, read as it is: no build is a one-line error
    try:
        mcp.run("stdio")
    except KeyboardInterrupt:
        pass
    return 0


def cmd_graph(args: argparse.Namespace) -> int:
    kb = _kb(args)
    out = file_target(Path(args.path))
    g = kb.graph
    write_graph(g, str(out), args.format)
    print(f"wrote {out} ({args.format}: {g.number_of_nodes()} nodes, {g.number_of_edges()} edges)")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from web.app import create_app
    check_port_free(args.host, args.port)
    builder.ensure_build(args.build_dir, args.corpus)
    build_dir = args.build_dir or generations.default_build_dir()
    print(f"serving {build_dir} on http://{args.host}:{args.port}/ (new builds are picked up as they land)")
    if args.workers > 1:  # each worker process loads the build; the factory reads $KB_BUILD_DIR
        os.environ["KB_BUILD_DIR"] = str(build_dir)
        uvicorn.run("web.app:create_app", factory=True, workers=args.workers, **SERVER_LIMITS,
                    host=args.host, port=args.port, log_level="warning")
    else:
        uvicorn.run(create_app(build_dir), **SERVER_LIMITS, host=args.host, port=args.port, log_level="warning")
    return 0


def cmd_site(args: argparse.Namespace) -> int:
    from web.offline.sitecopy import SiteError, write_site
    t0 = time.perf_counter()
    builder.ensure_build(args.build_dir, args.corpus)
    try:
        copy = write_site(args.build_dir or generations.default_build_dir(), Path(args.path), base_url=args.base_url)
    except SiteError as e:
        raise UsageError(str(e)) from e
    print(f"wrote {copy.pages} pages in each of {copy.languages} languages, {copy.files} files, "
          f"{copy.bytes / 1e6:.1f} MB ({copy.compressed / 1e6:.1f} MB of them .gz and .br) "
          f"in {time.perf_counter() - t0:.1f} s → {copy.path}")
    print(f"serve it: python -m http.server -d {copy.path}")
    return 0


def cmd_release(args: argparse.Namespace) -> int:
    from .release.writer import RELEASE, write_release
    RELEASE.check(Path(args.path))  # before any build: a path that cannot be written costs nothing
    release = write_release(_kb(args), Path(args.path))
    rows = ", ".join(f"{name} {n}" for name, n in release.rows)
    print(f"wrote release {release.version} of build {release.generation} → {release.path}: {len(release.rows)} "
          f"tables ({rows}); {release.files} files, {release.bytes / 1e6:.1f} MB "
          f"(SQLite {release.database / 1e6:.1f} MB)")
    return 0


# A tournament hall's phones, not the open internet: the connection protocol caps connections
# and gives each request 10 s for its headers, 10 s for a reply nobody reads (web/http/protocol.py);
# idle keep-alives close after 5 s. Python's own event loop answers requests in the order they
# came: under uvloop, one request in ten waited for two rounds of the others (8 clients: p95
# 24 ms against 15, the same throughput); `web.http.protocol:event_loop` is that loop, saying once a
# burst that it cannot accept connections.
SERVER_LIMITS = {"http": "web.http.protocol:GuardedHttpToolsProtocol", "timeout_keep_alive": 5,
                 "loop": "web.http.protocol:event_loop"}


def check_port_free(host: str, port: int) -> None:
    """Say so before "serving on" when the address is taken (uvicorn would log and exit later)."""
    import socket
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as e:
        raise UsageError(f"cannot listen on host {host!r}: {e.strerror}; give another with --host") from e
    # the family uvicorn binds: IPv6 only for an address written with ":"
    family, _, _, _, address = next((i for i in infos if (i[0] == socket.AF_INET6) == (":" in host)), infos[0])
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            s.bind(address)
        except OSError as e:
            raise UsageError(f"cannot listen on {host}:{port}: {e.strerror}; choose another with --port") from e


def bounded(what: str, low: int, high: int):
    """An argparse type: a whole number from `low` to `high`, else "'x' is not <what> (low-high)"."""
    def parse(text: str) -> int:
        if not text.isdigit() or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what} ({low}-{high})")
        return int(text)
    return parse


port_number = bounded("a port number", 1, 65535)
worker_count = bounded("a number of workers", 1, 64)


def site_address(text: str) -> str:
    """An argparse type: http(s)://host[:port], else why not."""
    try:
        return check_base_url(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from e


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="kb", description="The bridge-laws knowledge base.")
    p.add_argument("--build-dir", type=Path, default=None, help="build folder (default: build/ or $KB_BUILD_DIR)")
    p.add_argument("--corpus", type=Path,
                   help="the corpus to build: a folder with manifest.toml (`build`: default the built-in corpus; "
                        "the others: the corpus the build was made from)")
    sub = p.add_subparsers(dest="command", required=True)
    sub.add_parser("build", help="parse the corpus and write the build").set_defaults(func=cmd_build)
    e = sub.add_parser("export", help="write the export JSON (DESIGN §7) to PATH (- for standard output)")
    e.add_argument("path")
    e.set_defaults(func=cmd_export)
    a = sub.add_parser("anki", help="write the study decks (definitions, time references, Law titles, "
                       "situations) to PATH as an Anki package (.apkg)")
    a.add_argument("path")
    a.add_argument("--base-url", type=site_address,
                   help="the site the cards link to, http(s)://host[:port][/path] (default: no links)")
    a.add_argument("--lang", choices=LOCALES, help="the decks named in this interface language, the situations "
                   "said in it (default: every card, named in English)")
    a.set_defaults(func=cmd_anki)
    s = sub.add_parser("show", help="show one unit")
    s.add_argument("doc")
    s.add_argument("unit")
    s.add_argument("--json", action="store_true", help="print the unit as in the export")
    s.set_defaults(func=cmd_show)
    sub.add_parser("check", help="report numbering gaps, empty units, noise, duplicate ids, text read out of "
                   "source order").set_defaults(func=cmd_check)
    q = sub.add_parser("search", help="search the texts (words, typos, numbers like 27B1, either language)")
    q.add_argument("query")
    q.add_argument("--json", action="store_true", help="print the result as the API returns it")
    q.add_argument("--doc", help="only this document")
    q.add_argument("--lang", choices=LANGS, help="only texts in this language")
    q.add_argument("--kind", help="only units of this kind (article, definition, norm, appendix, topic)")
    q.add_argument("--ui", choices=LANGS, help="your language: picks the edition a number jumps to")
    q.add_argument("--limit", type=int, default=10)
    q.add_argument("--page", type=int, default=1)
    q.set_defaults(func=cmd_search)
    c = sub.add_parser("cite", help="every citation in a text (a ruling, a decision, an answer), found, resolved "
                       "and given a status: exists, not in this edition, numbered otherwise, no such clause")
    c.add_argument("text", help="the text, or - to read it from standard input")
    shown = c.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the result as /api/cite returns it")
    shown.add_argument("--html", action="store_true", help="print the text as HTML, each citation a link classed "
                       "by its status")
    c.add_argument("--lang", choices=LANGS, help="the language the text is written in: its grammar's reading comes "
                   "first where two differ (all three are read); it does not choose the edition")
    c.set_defaults(func=cmd_cite)
    sub.add_parser("mcp", help="serve the knowledge base to an assistant as an MCP server on standard input/output "
                   "(search, clause, compare, situations, cite), over the current build").set_defaults(func=cmd_mcp)
    gr = sub.add_parser("graph", help="write the cross-reference graph to PATH")
    gr.add_argument("path")
    gr.add_argument("--format", choices=("graphml", "json"), default="graphml")
    gr.set_defaults(func=cmd_graph)
    v = sub.add_parser("serve", help="build if stale, then serve the site")
    v.add_argument("--host", default="127.0.0.1")
    v.add_argument("--port", type=port_number, default=8000)
    v.add_argument("--workers", type=worker_count, default=1, help="server processes (each holds the whole build)")
    v.set_defaults(func=cmd_serve)
    w = sub.add_parser("site", help="write a static copy of the site to PATH (any static file server serves it)")
    w.add_argument("path")
    w.add_argument("--base-url", type=site_address, help="where the copy will be published, http(s)://host[/path]: "
                   "its Anki decks link to its pages there (default: no links)")
    w.set_defaults(func=cmd_site)
    r = sub.add_parser("release", help="write the texts as a versioned data release to PATH: JSON Lines with JSON "
                       "Schemas, a Frictionless datapackage.json, an SQLite database with full-text search")
    r.add_argument("path")
    r.set_defaults(func=cmd_release)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    _log_to_stderr()
    if hasattr(sys.stdout, "reconfigure"):  # an ASCII-only terminal gets "?" for "è", not a traceback
        sys.stdout.reconfigure(errors="replace")
    try:
        return args.func(args)
    except (UsageError, NotFound, CorpusError, generations.BuildError, ModelError, FolderError) as e:
        return _fail(str(e))
    except BrokenPipeError:  # `kb search … | head`: the reader left
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _fail("output closed before the end")
    except OSError as e:
        return _fail(f"{e.strerror or e}: {e.filename}" if e.filename else str(e.strerror or e))


def _log_to_stderr() -> None:
    """The library's warnings (a stale build read, a build the server could not load), one line each."""
    log = logging.getLogger("kb")
    if not any(isinstance(h, _Stderr) for h in log.handlers):
        handler = _Stderr()
        handler.setFormatter(logging.Formatter("kb: warning: %(message)s"))
        log.addHandler(handler)


class _Stderr(logging.StreamHandler):
    """Writes to whatever `sys.stderr` is when a record comes (in-process runs swap it)."""

    @property
    def stream(self):  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, _value) -> None:
        pass


def _fail(message: str) -> int:
    print(f"kb: error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
