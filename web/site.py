"""The site a request reads: one build's knowledge base, opened, with the interface's catalogs
and the search model's compressed copies (`request.app.state.site`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from kb.corpus.catalogs import BUILD_DIR as CATALOGS
from kb.readmodel.knowledge import KnowledgeBase
from kb.search.model import MODEL_NAME

from .i18n import load_translations


class Site(KnowledgeBase):
    """Everything a request reads: the build's knowledge base, and the interface catalogs."""

    model_gz = b""  # the search model gzipped, as browsers fetch it
    model_br = b""  # and in brotli, as most do
    packs: dict[str, bytes]  # each interface language's pages for the offline worker, once asked (web.offline.worker)
    packs_pending: dict[str, Any]

    @classmethod
    def load(cls, gen: Path) -> "Site":
        """Everything from one build generation, opened before it serves: a generation that
        cannot be read fails here, not in a request."""
        site = cls(gen)
        site.translations = load_translations(gen / CATALOGS)
        site.engine.warm()  # no request reads the search model from disk
        site.model_gz = (gen / (MODEL_NAME + ".gz")).read_bytes()  # nor its compressed copies, which browsers fetch
        site.model_br = (gen / (MODEL_NAME + ".br")).read_bytes()
        site.packs, site.packs_pending = {}, {}
        site.store, site.graph, site.clock, site.concordance, site.library  # noqa: B018 — opened now
        return site
