"""The search model: everything a query needs, compiled once by the build, read alike by the
server (this module) and the browser (web/static/search.js, `model`).

One file per generation, `search-model.bin`:

    b"KBSEARCH"  u32 format  u32 header length  SHA-256 of the rest  header (JSON, UTF-8)  padding  arrays

The header holds the tables (documents, units, clause cards, terms, phrasebook entries, the
number grammar, the little words and the tuning); `arrays` in it names each typed array
(dtype, byte offset from the arrays' start, length), each aligned to 8 bytes and little-endian;
so that numpy and JavaScript's typed arrays read them where they lie, without copying or
rebuilding anything. The digest covers header and arrays alike: a file whose bytes it does not
match is refused (by the browser too, where the page's context gives it a SHA-256), and so is a
model of another format, with a message saying to rebuild.

What either runtime works out at load is cheap and exact: sums of the idf values the header
gives, in a fixed order (no logarithm or power is taken at search time, where two runtimes'
libraries may round the last bit differently).
"""
from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from .tuning import Tuning

FORMAT = 2
MAGIC = b"KBSEARCH"
MODEL_NAME = "search-model.bin"   # in a generation; the browser fetches it gzipped (MODEL_NAME + ".gz")
ALIGN = 8
PREFIX = len(MAGIC) + 8 + 32  # the magic, the format and the header's length, the SHA-256 of all that follows
DTYPES = {"u1": np.uint8, "u2": np.uint16, "u4": np.uint32}  # lengths, and the narrow and wide `counts`
UNIT_LEVEL = "*"  # the clause id of a unit's whole-text document


def counts(values) -> np.ndarray:
    """Non-negative integers (numbers of documents, rows, phrases, entries…) as the narrowest array
    of `u2` or `u4` that holds them all: a larger corpus widens its arrays, never wraps them."""
    a = np.asarray(values, dtype=np.int64)
    if len(a) and a.min() < 0:
        raise ValueError("counts are never negative")
    return a.astype(np.uint16 if a.max(initial=0) < 2 ** 16 else np.uint32)


class ModelError(Exception):
    """A search model that cannot be read (missing, of another format, damaged); the message says so."""


def write(path: Path, header: dict[str, Any], arrays: dict[str, np.ndarray]) -> bytes:
    """The model's bytes, written to `path`; `arrays` must be of the DTYPES."""
    directory, chunks, offset = {}, [], 0
    codes = {np.dtype(t): code for code, t in DTYPES.items()}
    for name, a in arrays.items():
        a = np.ascontiguousarray(a)
        data = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        directory[name] = [codes[a.dtype], offset, len(a)]
        chunks.append(data + b"\0" * (-len(data) % ALIGN))
        offset += len(chunks[-1])
    text = json.dumps({**header, "arrays": directory}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    rest = text + b" " * (-(PREFIX + len(text)) % ALIGN) + b"".join(chunks)
    body = MAGIC + struct.pack("<II", FORMAT, len(text)) + hashlib.sha256(rest).digest() + rest  # damaged: refused
    path.write_bytes(body)
    return body


def read(path: Path) -> "Model":
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ModelError(f"cannot read the search model {path}: {e.strerror}; run `kb build`") from e
    return parse(data, str(path))


def parse(data: bytes, where: str = "the search model") -> "Model":
    if data[:len(MAGIC)] != MAGIC or len(data) < PREFIX:
        raise ModelError(f"{where} is not a search model; run `kb build`")
    version, size = struct.unpack_from("<II", data, len(MAGIC))
    if version != FORMAT:
        raise ModelError(f"{where} is of format {version}, this kb reads format {FORMAT}; run `kb build`")
    try:
        if hashlib.sha256(memoryview(data)[PREFIX:]).digest() != data[PREFIX - 32:PREFIX]:
            raise ValueError("its bytes are not the ones it was written with")
        header = json.loads(data[PREFIX:PREFIX + size].decode("utf-8"))
        base = PREFIX + size + (-(PREFIX + size) % ALIGN)
        arrays = {name: _array(data, base, code, offset, n) for name, (code, offset, n) in header.pop("arrays").items()}
        return Model(header, arrays, Tuning.from_dict(header["tuning"]), data)
    except (ValueError, KeyError, TypeError) as e:
        raise ModelError(f"{where} is damaged ({type(e).__name__}: {e}); run `kb build`") from e


def _array(data: bytes, base: int, code: str, offset: int, n: int) -> np.ndarray:
    dtype = np.dtype(DTYPES[code]).newbyteorder("<")
    end = base + offset + n * dtype.itemsize
    if end > len(data):
        raise ValueError("an array runs past the end of the file")
    return np.frombuffer(data, dtype=dtype, count=n, offset=base + offset)  # read-only: the bytes are


# ---------------------------------------------------------------- the parts, typed

@dataclass(frozen=True)
class Field:
    """One field of the index (`plain`, `title_it`, `body_es`…): its terms, sorted, each with its
    documents (ascending) and frequencies; its documents' lengths as whoosh keeps them; the idf
    of a term by its document frequency."""

    name: str
    terms: tuple[str, ...]
    offsets: np.ndarray
    docs: np.ndarray
    tf: np.ndarray
    lengths: np.ndarray   # per index document (nan: no words in this field)
    average: float
    idf: dict[int, float]

    @cached_property
    def number(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.terms)}


@dataclass(frozen=True)
class Target:
    doc: str
    unit: str
    clause: str | None
    row: int        # the index document a story lends to (-1: none)
    unit_row: int   # the unit's whole-text document a name lends to (-1: none)
    leads: bool     # does it rule first (the Laws', or the lead norm's unit)?


@dataclass(frozen=True)
class Entry:
    """A phrasebook entry: a situation, a Law's English title, a term of art, a heading."""

    id: str
    targets: tuple[Target, ...]
    title: bool
    names: tuple[tuple[str, str], ...]
    url: str
    other_game: bool
    period: str = ""              # a situation's structure: when, who acts, what is done
    actors: tuple[str, ...] = ()
    acts: tuple[str, ...] = ()

    def name(self, lang: str | None) -> str:
        return dict(self.names).get(lang or "", self.names[0][1] if self.names else self.id)


@dataclass(frozen=True)
class Book:
    """One game's phrases in one language: each stem (sorted) with the phrases that say it
    (ascending, numbered within the book), each phrase's entry, and a stem's idf by how many
    phrases say it."""

    lang: str
    other_game: bool
    start: int          # its first phrase's number among all books'
    stems: tuple[str, ...]
    offsets: np.ndarray
    phrases: np.ndarray
    entry_of: np.ndarray
    idf_by_df: dict[int, float]

    @cached_property
    def number(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(self.stems)}

    @cached_property
    def idf(self) -> np.ndarray:
        """Per stem."""
        return np.array([self.idf_by_df[int(n)] for n in np.diff(self.offsets)], dtype=np.float64)

    @cached_property
    def unknown_idf(self) -> float:
        """What a stem no phrase of the book says weighs in a query: the rarest stem's idf."""
        return float(self.idf.max()) if len(self.idf) else 1.0

    @cached_property
    def stem_of(self) -> np.ndarray:
        """The stem of each place of `phrases`."""
        return np.repeat(np.arange(len(self.stems)), np.diff(self.offsets))

    @cached_property
    def weights(self) -> np.ndarray:
        """Per phrase, the idf of its stems, added in the stems' order."""
        return np.bincount(self.phrases, weights=self.idf[self.stem_of], minlength=len(self.entry_of))

    @cached_property
    def entries_using(self) -> tuple[np.ndarray, np.ndarray]:
        """Per stem, the entries some phrase of which says it: (offsets, entries)."""
        entries, stem_of = self.entry_of[self.phrases], self.stem_of
        keep = np.ones(len(entries), dtype=bool)
        keep[1:] = (entries[1:] != entries[:-1]) | (stem_of[1:] != stem_of[:-1])  # entries ascend within a stem
        counts = np.bincount(stem_of[keep], minlength=len(self.stems))
        return np.concatenate([[0], np.cumsum(counts)]), entries[keep]


class Model:
    def __init__(self, header: dict[str, Any], arrays: dict[str, np.ndarray], tuning: Tuning, data: bytes = b""):
        self.header = header
        self.arrays = arrays
        self.tuning = tuning
        self.data = data  # the bytes it was read from (the arrays are views of them): what a browser is sent
        h = header
        self.build: str = h["build"]
        self.langs: tuple[str, ...] = tuple(h["langs"])
        self.documents: list[dict[str, Any]] = h["docs"]
        self.units: list[tuple[str, str]] = [(self.documents[d]["id"], u) for d, u, _, _ in h["units"]]
        self.unit_kind: list[str] = [k for _, _, k, _ in h["units"]]
        self.unit_title: list[str] = [t for _, _, _, t in h["units"]]
        self.clause_names: list[str] = h["clause_names"]
        self.row_unit, self.row_clause = arrays["row_unit"], arrays["row_clause"]
        self.doc_count = len(self.row_unit)

    @cached_property
    def fields(self) -> dict[str, Field]:
        table = self.header["length_table"]
        out = {}
        for f in self.header["fields"]:
            name = f["name"]
            codes = self.arrays[f"{name}.lengths"]
            lengths = np.array(table, dtype=np.float64)[codes]
            lengths[codes == 0] = np.nan  # no words in this field: never scored
            out[name] = Field(name, tuple(f["terms"]), self.arrays[f"{name}.offsets"], self.arrays[f"{name}.docs"],
                              self.arrays[f"{name}.tf"], lengths, f["average"],
                              {int(k): v for k, v in f["idf"].items()})
        return out

    @cached_property
    def entries(self) -> list[Entry]:
        return entries_of(self.header["phrasebook"]["entries"], [d["id"] for d in self.documents])

    @cached_property
    def books(self) -> list[Book]:
        return books_of(self.header["phrasebook"]["books"], self.arrays)

    @cached_property
    def cards(self) -> dict[tuple[int, str], tuple[int, str, str, tuple]]:
        """(unit number, clause id) → (row, label, text, parallel links) of every clause a hit may show."""
        out = {}
        for row, (label, text, parallel) in enumerate(self.header["cards"]):
            if label is not None:
                out[(int(self.row_unit[row]), self.clause_names[self.row_clause[row]])] = (row, label, text, tuple(parallel))
        return out

    @cached_property
    def unit_clauses(self) -> dict[int, list[str]]:
        """Per unit number, its clauses that have a card, in order (the browser's `cardsOf`)."""
        out: dict[int, list[str]] = {}
        for unit, clause in self.cards:  # in row order
            out.setdefault(unit, []).append(clause)
        return out

    def get(self, name: str) -> Any:
        return self.header[name]


def entries_of(saved: list[dict[str, Any]], docs: list[str]) -> list[Entry]:
    return [Entry(e["id"], tuple(Target(docs[t[0]], t[1], t[2], t[3], t[4], bool(t[5])) for t in e["targets"]),
                  e["title"], tuple(e["names"].items()), e["url"], e["other_game"], e["period"], tuple(e["actors"]),
                  tuple(e["acts"])) for e in saved]


def books_of(saved: list[dict[str, Any]], arrays: dict[str, np.ndarray]) -> list[Book]:
    return [Book(b["lang"], b["other_game"], b["start"], tuple(b["stems"]), arrays[f"book{i}.offsets"],
                 arrays[f"book{i}.phrases"], arrays[f"book{i}.entry_of"], {int(k): v for k, v in b["idf"].items()})
            for i, b in enumerate(saved)]
