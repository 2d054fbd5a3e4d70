"""The export (DESIGN §7): the stable machine-readable view of the knowledge base."""
from __future__ import annotations

import json
from typing import Any

from ..records.model import Document

FORMAT_VERSION = 1


def export_dict(documents: list[Document], citations: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "documents": [d.to_dict() for d in documents],
        "citations": citations or [],
    }


def dumps(export: dict[str, Any]) -> str:
    """Serialise deterministically: same knowledge base, same bytes."""
    return json.dumps(export, ensure_ascii=False, indent=1) + "\n"
