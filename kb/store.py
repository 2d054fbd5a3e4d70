"""The built knowledge base, read-only: look documents and units up by id."""
from __future__ import annotations

from typing import Any


class NotFound(LookupError):
    """An unknown document or unit; the message names what exists."""


def _names(ids: list[str], limit: int = 12) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f", … ({len(ids)} in all)" if len(ids) > limit else "")


class Store:
    def __init__(self, export: dict[str, Any]):
        self.export = export
        self.documents: dict[str, dict[str, Any]] = {d["id"]: d for d in export["documents"]}
        self._units = {
            d["id"]: {u["id"]: u for u in d["units"]} for d in export["documents"]
        }

    def doc(self, doc_id: str) -> dict[str, Any]:
        try:
            return self.documents[doc_id]
        except KeyError:
            raise NotFound(f"unknown document {doc_id!r}; documents: {_names(list(self.documents))}") from None

    def unit(self, doc_id: str, unit_id: str) -> dict[str, Any]:
        units = self._units[self.doc(doc_id)["id"]]
        try:
            return units[unit_id]
        except KeyError:
            raise NotFound(f"unknown unit {unit_id!r} in {doc_id}; units: {_names(list(units))}") from None
