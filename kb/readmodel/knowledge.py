"""`kb.open(build) -> KnowledgeBase`: one build generation, opened — the library object the
CLI, the website and the tests read through (sqlite-utils' `Database` is the model).

It holds the build's records (`store`: frozen, kb.records.built), and opens the rest as it is first asked
for: search over the index, the cross-reference graph, the concordance and the
editions it pairs, the board's clock, the documents' library. Every
part comes from the generation itself, never from corpus/.
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from ..pipeline.generations import (CORPUS_COPY, EXPORT_NAME, GRAPH_NAME, BuildError, default_build_dir, load_export,
                          readable_generations, table)
from ..corpus.catalogs import BUILD_DIR as CATALOGS, compiled_locales
from ..citations.check import Checker, CiteResult
from ..editions.concordance import Concordance, Concordances, first_concordance, load_concordances
from ..corpus.tables import Notes, notes, read_tsv
from ..editions.chapters import chapters
from ..editions.pairs import ChangesPage, Editions, changes_pages
from ..pipeline.graph import read_graph
from ..corpus.library import Library
from ..search.engine import SearchEngine
from ..search.glossary import Glossary
from ..corpus.situations import Page, Situation, load as load_situations, page_of, pages
from .situationview import IndexView, index_view, ruled_here
from ..records.store import Store
from ..study.cards import Sources
from .unitview import (ParallelLink, UnitLinks, UnitView, compare_links, defined_terms, links_of,
                       neighbours, parallel_links)


CLOCK_COLUMNS = ("period", "topics", "laws")  # clock.tsv's header
CLOCK_KEY = CLOCK_COLUMNS[:1]  # a period names its row (its notes, kb.corpus.tables, by it)


class KnowledgeBase:
    def __init__(self, gen: Path, export: dict[str, Any] | None = None):
        """`export`: the generation's export when the caller holds it already (the build)."""
        self.gen = gen
        if export is not None:
            self.__dict__["store"] = Store(export)
        self._indexes: dict[str, IndexView] = {}  # the situation index, per reader's language

    @cached_property
    def store(self) -> Store:
        """The build's records, read from its export when first asked for (a search reads the model alone)."""
        return Store(load_export(self.gen / EXPORT_NAME))

    @classmethod
    def open(cls, build_dir: Path | str | None = None) -> "KnowledgeBase":
        """The best generation of a build folder that can be read (the current one, else the
        newest complete one); `BuildError` when there is none."""
        build_dir = Path(build_dir) if build_dir else default_build_dir()
        found = readable_generations(build_dir)
        if not found:
            raise BuildError(f"no complete build at {build_dir}: run `kb build`")
        return cls(found[0])

    @cached_property
    def engine(self) -> SearchEngine:
        return SearchEngine.open(self.gen)

    def search(self, q: str, **filters: Any) -> Any:
        return self.engine.search(q, **filters)

    @cached_property
    def locales(self) -> tuple[str, ...]:
        """The interface languages the generation has catalogs for."""
        return compiled_locales(self.gen / CATALOGS)

    @cached_property
    def glossary(self) -> Glossary:
        """glossary.tsv: the Italian and Spanish terms of art, paired."""
        return Glossary.load(table(self.gen, "glossary.tsv"))

    @cached_property
    def library(self) -> Library:
        return Library.of(self.store.export["documents"])

    @cached_property
    def concordances(self) -> Concordances:
        """The concordance of each pair of editions the manifest pairs by one."""
        return load_concordances(self.gen / CORPUS_COPY, self.library)

    @cached_property
    def concordance(self) -> Concordance:
        """The first pair's (`Library.pair`: 2007 → 2017), which the release names."""
        return first_concordance(self.concordances, self.library)

    @cached_property
    def graph(self) -> Any:
        return read_graph(self.gen / GRAPH_NAME)

    @cached_property
    def clock(self) -> list[dict[str, str]]:
        """clock.tsv: per period of a board, its time-reference topics and Law clauses."""
        return read_tsv(table(self.gen, "clock.tsv"), CLOCK_COLUMNS)

    @cached_property
    def clock_notes(self) -> dict[str, Notes]:
        """What each period of the board is, told to a reader, in each language it is told in."""
        return {key[0]: said for key, said in notes(table(self.gen, "clock.tsv"), self.clock, CLOCK_KEY).items()}

    @cached_property
    def editions(self) -> Editions:
        """The editions of the Laws the manifest pairs: compare pairings and parallel links."""
        return Editions(self.library, self.concordances, self.store.documents.values())

    @cached_property
    def study_sources(self) -> Sources:
        """What the study cards are made from, as this generation holds it."""
        return Sources(self.store, self.library, self.glossary, self.concordance, self.editions, self.situations,
                       self.gen / CORPUS_COPY, self.gen / CATALOGS)

    @cached_property
    def checker(self) -> Checker:
        return Checker(self.store, self.library, self.editions)

    def cite(self, text: str, lang: str | None = None) -> CiteResult:
        """Every citation in a text (a ruling, a decision, an answer), found, resolved and given
        a status (`kb.citations.check`); `CiteError` for a text that cannot be checked."""
        return self.checker.check(text, lang)

    @cached_property
    def changes_pages(self) -> tuple[ChangesPage, ...]:
        """What changed from one edition of the Laws to the next, on pages of whole chapters."""
        view = self.editions.changes()
        return changes_pages(view, chapters(self.store, self.library, view.pair.newer)) if view.changes else ()

    @cached_property
    def changes_page(self) -> dict[str, str]:
        """The page of the changes that holds each Law's."""
        return {c.law: page.id for page in self.changes_pages for c in page.changes}

    @cached_property
    def situations(self) -> tuple[Situation, ...]:
        """situations.tsv: what directors meet, as people say it, and the clauses that rule it."""
        return load_situations(table(self.gen, "situations.tsv"), self.library)

    @cached_property
    def situation_pages(self) -> tuple[Page, ...]:
        """The situation index's pages, in the order of the board's periods (clock.tsv's)."""
        return pages(self.situations, [row["period"] for row in self.clock])

    @cached_property
    def situation_page(self) -> dict[str, str]:
        """The index's page that holds each situation."""
        return page_of(self.situation_pages)

    def situation_index(self, lang: str) -> IndexView:
        """The situation index in a reader's language, A–Z and by period of the board (built once:
        a generation does not change)."""
        if lang not in self._indexes:
            self._indexes[lang] = index_view(self.situation_pages, lang, self.store, self.library)
        return self._indexes[lang]

    def situations_ruled_in(self, doc: str, unit: str) -> tuple[Situation, ...]:
        return ruled_here(self.situations, doc, unit)

    def parallels(self, doc: str, unit: str) -> tuple[ParallelLink, ...]:
        """The links of a Law article's clauses to the other editions."""
        return parallel_links(self.editions.of_unit(doc, unit))

    def links(self, doc: str, unit: str) -> UnitLinks:
        """A unit's references: what it cites, what cites it, the norms and time references
        that attach to its clauses, its parallels in the other editions."""
        return links_of(self.store, self.library, self.parallels(doc, unit), doc, unit)

    def unit_view(self, doc: str, unit: str) -> UnitView:
        """Everything a unit shows: its record, links, neighbours, terms, compare pages
        (`NotFound` names what exists)."""
        d, u = self.store.doc(doc), self.store.unit(doc, unit)
        prev, nxt = neighbours(self.store, doc, unit)
        return UnitView(d, u, self.links(doc, unit), prev, nxt, defined_terms(self.graph, doc, u),
                        compare_links(self.library, doc, u))
