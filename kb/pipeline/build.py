"""`kb build`: corpus → one generation of the build folder (kb.pipeline.generations).

A build is a pure function of the corpus and the code. It copies the corpus into
a new generation, parses the copy into the export, compiles the search model, writes the
graph and the compiled catalogs beside it, verifies the whole and only then
switches it in. Its stamp (a hash of corpus and code) tells whether the current
generation is up to date; `ensure_build` rebuilds a stale one, or reads the newest
complete generation when the disk refuses a rebuild.
"""
from __future__ import annotations

import hashlib
import logging
import os
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from ..study.anki import write_decks
from ..study.cards import Sources
from ..corpus.catalogs import BUILD_DIR as CATALOGS, DEFAULT, LOCALE_DIR, compile_catalogs, compiled_locales
from ..citations.extract import extract
from ..editions.concordance import load_concordances, load_corrections
from ..corpus.manifest import CORPUS_DIR, TEXT_SUFFIXES, CorpusError, Entry, load_documents, load_manifest, read_text
from .export import dumps, export_dict
from ..common.files import new_folder
from .generations import (COMPLETE, COMPLETE_TEXT, CORPUS_COPY, DECKS_NAME, EXPORT_NAME,
                          BUILT_IN, GENERATION_PREFIX, GRAPH_NAME, READER_TABLES, SOURCE_NAME, STAMP_NAME, BuildError, build_lock,
                          completed_at, current_link, default_build_dir, export_path, generation, load_export,
                          prune, readable_generations, switch, unreadable)
from .graph import build_graph, write_graph
from ..citations.grammar import LANGUAGES as CITATION_GRAMMARS  # the citation vocabulary, per language
from ..corpus.languages import BY_CODE, LANGS
from ..editions.pairs import Editions
from ..corpus.library import Library
from ..search import compiler
from ..search.engine import SearchEngine
from ..search.model import MODEL_NAME, ModelError
from ..records.store import NotFound, Store

log = logging.getLogger("kb")


def source_stamp(corpus_dir: Path = CORPUS_DIR, catalogs: Path = LOCALE_DIR) -> str:
    """Hash of everything a build depends on: corpus files, the kb code and the interface catalogs."""
    h = hashlib.sha256()
    code_dir = Path(__file__).resolve().parents[1]  # the whole kb package
    files = sorted(p for p in corpus_dir.rglob("*") if p.is_file())
    files += sorted(code_dir.rglob("*.py")) + sorted(catalogs.rglob("*.po"))
    for p in files:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def build(build_dir: Path | None = None, corpus_dir: Path = CORPUS_DIR, catalogs: Path = LOCALE_DIR) -> Path:
    """Parse the corpus into a new generation beside the current one, then switch to it.

    Readers follow the `current` link: they see the old generation until the
    link is replaced (one rename), then the new one — never a half-written one.
    `catalogs`: the interface catalogs' folder (kb/locale; each catalog in it is an
    interface language of the build). Returns the new export's path.
    """
    build_dir = build_dir or default_build_dir()
    current_link(build_dir)
    build_dir.mkdir(parents=True, exist_ok=True)
    with build_lock(build_dir) as waited:
        if waited and is_current(build_dir, corpus_dir, catalogs):  # the build it waited for made this very build
            return export_path(build_dir)
        return _build(build_dir, corpus_dir, catalogs)


def _build(build_dir: Path, corpus_dir: Path, catalogs: Path = LOCALE_DIR) -> Path:
    entries = load_manifest(corpus_dir)
    check_languages(entries)
    gen = new_folder(build_dir, GENERATION_PREFIX)
    try:
        with named_in_the_source(gen / CORPUS_COPY, corpus_dir, entries):
            _write_generation(gen, corpus_dir, catalogs)
        verify(gen)
        (gen / COMPLETE).write_text(COMPLETE_TEXT, encoding="utf-8")
        switch(build_dir, gen)
    except BaseException:
        shutil.rmtree(gen, ignore_errors=True)
        raise
    prune(build_dir)
    return gen / EXPORT_NAME


def _write_generation(gen: Path, corpus_dir: Path, catalogs: Path) -> None:
    """Everything a reader opens, made from a copy of the corpus in the generation."""
    corpus = copy_corpus(corpus_dir, gen / CORPUS_COPY)  # parsed from the copy: what it holds is what was built
    documents = load_documents(corpus)
    concordances = load_concordances(corpus, Library.of(documents))
    citations = extract(documents, concordances, load_corrections(corpus / "ref-corrections.tsv"))
    export = export_dict(documents, [c.to_dict() for c in citations])
    library, store = Library.of(export["documents"]), Store(export)
    editions = Editions(library, concordances, store.documents.values())
    write_graph(build_graph(store, editions), str(gen / GRAPH_NAME), "json")
    compiler.write(gen, store, editions, corpus)
    locales = compile_catalogs(gen / CATALOGS, catalogs)
    (gen / EXPORT_NAME).write_text(dumps(export), encoding="utf-8")
    (gen / STAMP_NAME).write_text(source_stamp(corpus, catalogs) + "\n", encoding="utf-8")
    (gen / SOURCE_NAME).write_text(_source_name(corpus_dir) + "\n", encoding="utf-8")
    # Anki opens a card's link outside the site, so it must be absolute, and a build cannot know
    # where it will be served: its packages carry no links (a server hands out its own, linking
    # to itself; `kb anki --base-url` and `kb site --base-url` write them for an address given);
    # one package per interface language
    sources = Sources.of(store, library, concordances, editions, gen / CORPUS_COPY, gen / CATALOGS)
    for locale in locales:
        write_decks(sources, gen / DECKS_NAME.format(lang=locale), locale)


def copy_corpus(src: Path, dst: Path) -> Path:
    """The corpus's files into the generation, writable whatever their source's mode (a
    read-only checkout must not make a generation that pruning cannot remove); a text that is
    not UTF-8 is refused here, naming the file and line, before anything reads it."""
    for path in sorted(src.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            if path.suffix in TEXT_SUFFIXES:
                read_text(path)
            target = dst / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
    return dst


@contextmanager
def named_in_the_source(copy: Path, corpus_dir: Path, entries: list[Entry]) -> Iterator[None]:
    """A corpus problem met while building names the user's file, not its copy in the
    generation (removed with the failed build); a curated table naming a unit that a text does
    not hold once parsed names that text."""
    try:
        yield
    except CorpusError as e:
        raise CorpusError(str(e).replace(str(copy), str(corpus_dir))) from e
    except NotFound as e:
        entry = next((x for x in entries if x.id == e.doc), None)
        where = f"{entry.path} (read as {entry.fields['profile']})" if entry else str(corpus_dir)
        raise CorpusError(f"{where}: {e}; a curated table names it: does the text parse as it should?") from e


def missing(code: str) -> str | None:
    """Why a language cannot be read, or None when it can."""
    if code in BY_CODE and code in CITATION_GRAMMARS:
        return None
    return (f"language {code!r} is not supported: kb/corpus/languages.py lists {', '.join(LANGS)}; a language needs "
            f"a Snowball stemmer and stop words, its words for a Law, a name in the catalogs, and its "
            f"citation vocabulary in kb/citations/grammar.py")


def check_languages(entries: list[Any]) -> None:
    """A document in a language the knowledge base cannot read fails the build, naming
    what is missing, before anything is parsed or written."""
    for e in entries:
        why = missing(e.fields["lang"])
        if why:
            raise CorpusError(f"document {e.id}: {why}")


def verify(gen: Path) -> None:
    """A generation is switched in only complete: its export loads, its search model opens and
    answers, its catalogs, graph, decks and corpus tables are there."""
    export = load_export(gen / EXPORT_NAME)
    if not export["documents"]:
        raise BuildError(f"incomplete build at {gen}: no documents")
    verify_model(gen)
    locales = compiled_locales(gen / CATALOGS)
    if DEFAULT not in locales:
        raise BuildError(f"incomplete build at {gen}: no interface catalogs")
    tables = (*READER_TABLES, *(p.table for p in Library.of(export["documents"]).pairs if p.by_table))
    expected = (GRAPH_NAME, MODEL_NAME + ".gz", MODEL_NAME + ".br", *(DECKS_NAME.format(lang=loc) for loc in locales),
                *(f"{CORPUS_COPY}/{t}" for t in tables))
    missing = [name for name in expected if not (gen / name).is_file()]
    if missing:
        raise BuildError(f"incomplete build at {gen}: no {', '.join(missing)}")


def verify_model(gen: Path) -> None:
    """The generation's search model opens and answers a query, or BuildError says why."""
    try:
        engine = SearchEngine.open(gen)
        answered = engine.search(engine.model.unit_title[0] or engine.model.units[0][1]).total
    except ModelError as e:
        raise BuildError(str(e)) from e
    except Exception as e:  # whatever a damaged model makes the engine raise
        raise BuildError(f"corrupt search model at {gen / MODEL_NAME}: {type(e).__name__}: {e}; run `kb build`") from e
    if not answered:
        raise BuildError(f"the search model at {gen / MODEL_NAME} answers nothing; run `kb build`")


def is_current(build_dir: Path | None = None, corpus_dir: Path = CORPUS_DIR, catalogs: Path = LOCALE_DIR) -> bool:
    try:
        gen = generation(build_dir)
        stamp = (gen / STAMP_NAME).read_text(encoding="utf-8").strip()
    except (BuildError, OSError):
        return False
    return completed_at(gen) is not None and stamp == source_stamp(corpus_dir, catalogs)


def _source_name(corpus_dir: Path) -> str:
    return BUILT_IN if corpus_dir.resolve() == CORPUS_DIR.resolve() else str(corpus_dir.resolve())


def built_from(build_dir: Path | None = None) -> Path:
    """The corpus the current generation was built from (the built-in one when there is none)."""
    try:
        name = (generation(build_dir) / SOURCE_NAME).read_text(encoding="utf-8").strip()
    except (BuildError, OSError):
        return CORPUS_DIR
    return CORPUS_DIR if name == BUILT_IN else Path(name)


def ensure_build(build_dir: Path | None = None, corpus_dir: Path | None = None) -> Path:
    """Build if there is no current generation or it is stale; return the export's path.

    Stale means against the corpus asked for, or else the one the build was made from: a reader
    never replaces a build of another corpus with the built-in one. A build whose corpus is gone
    is read as built, with a warning naming the command that rebuilds it.

    When the build cannot be made (a read-only or full disk, a build that holds the lock
    too long, a generation that fails verification) and a complete generation exists, a
    reader reads that one, with a warning that it may be stale, rather than nothing.
    """
    build_dir = build_dir or default_build_dir()
    current_link(build_dir)
    asked, corpus_dir = corpus_dir, corpus_dir or built_from(build_dir)
    if is_current(build_dir, corpus_dir):
        return export_path(build_dir)
    if asked is None and not (corpus_dir / "manifest.toml").is_file():  # the build's own corpus, gone
        log.warning("%s was built from %s, which is gone; reading it as built (`kb --build-dir %s --corpus DIR "
                    "build` rebuilds it)", generation(build_dir).name, corpus_dir, build_dir)
        return export_path(build_dir)
    try:
        if build_dir.is_dir() and not os.access(build_dir, os.W_OK):
            raise BuildError(f"{build_dir} is not writable")
        build_dir.mkdir(parents=True, exist_ok=True)
        with build_lock(build_dir):
            if not is_current(build_dir, corpus_dir):  # a build that held the lock may have made it current
                _build(build_dir, corpus_dir)
        return export_path(build_dir)
    except (OSError, BuildError) as e:
        fallback = readable_generations(build_dir)
        if not fallback:
            raise unreadable(build_dir) or e
        log.warning("cannot rebuild (%s); reading %s, which may be stale", _reason(e), fallback[0])
        return fallback[0] / EXPORT_NAME


def _reason(e: BaseException) -> str:
    return f"{e.strerror}: {e.filename}" if isinstance(e, OSError) and e.strerror else str(e)
