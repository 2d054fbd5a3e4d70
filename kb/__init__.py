"""The bridge-laws knowledge base: `kb.open(build)` gives the KnowledgeBase of a build."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .readmodel.knowledge import KnowledgeBase

from .common.version import __version__

__all__ = ["__version__", "open"]


def open(build_dir: Path | str | None = None) -> "KnowledgeBase":  # noqa: A001 — sqlite_utils.Database's way
    """The knowledge base of a build folder (default: build/, or $KB_BUILD_DIR)."""
    from .readmodel.knowledge import KnowledgeBase
    return KnowledgeBase.open(build_dir)
