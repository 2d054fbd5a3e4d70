"""Bodies compressed once per build: what every phone downloads to go offline (the drills'
cards, the exam's questions) is kept raw, gzipped and in brotli, and each client gets the
smallest it takes. The gzip layer outside passes an encoded body as it is."""
from __future__ import annotations

import gzip
import re
from dataclasses import dataclass
from typing import Any, Callable

import brotli
from fastapi import Request
from fastapi.responses import Response

GZIP_LEVEL, BROTLI_LEVEL = 6, 9  # brotli 9: a fifth smaller than gzip for a quarter of a second a build
REFUSED = re.compile(r"\s*q\s*=\s*0(?:\.0*)?\s*")


def accepted_codings(header: str) -> set[str]:
    """The content codings an Accept-Encoding header takes ("gzip, br;q=0.5" → gzip and br; q=0 refuses)."""
    taken = set()
    for part in header.lower().split(","):
        coding, _, params = part.strip().partition(";")
        if coding and not REFUSED.fullmatch(params):
            taken.add(coding.strip())
    return taken


@dataclass(frozen=True)
class Encoded:
    raw: bytes
    gzip: bytes
    br: bytes

    @classmethod
    def of(cls, raw: bytes) -> "Encoded":
        return cls(raw, gzip.compress(raw, GZIP_LEVEL, mtime=0), brotli.compress(raw, quality=BROTLI_LEVEL))

    def chosen(self, accept_encoding: str) -> tuple[bytes, dict[str, str]]:
        """The body for a client's Accept-Encoding, with its content-encoding header if any."""
        taken = accepted_codings(accept_encoding)
        if "br" in taken:
            return self.br, {"content-encoding": "br"}
        if "gzip" in taken:
            return self.gzip, {"content-encoding": "gzip"}
        return self.raw, {}


def once_per_build(site: Any, name: str, make: Callable[[], bytes]) -> Encoded:
    """`make()`'s bytes for this build, made and compressed on first need, then kept with the build."""
    kept = site.__dict__.get(name)
    if kept is None:
        kept = site.__dict__[name] = Encoded.of(make())
    return kept


def encoded_response(request: Request, body: Encoded, media_type: str, headers: dict[str, str]) -> Response:
    chosen, encoding = body.chosen(request.headers.get("accept-encoding", ""))
    return Response(chosen, media_type=media_type, headers={**headers, **encoding, "vary": "Accept-Encoding"})
