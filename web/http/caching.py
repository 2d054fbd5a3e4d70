"""HTTP caching: an ETag on every successful GET, and 304 when the client has it.

The content of a page depends only on the build and the request, so a hash of
the body is a valid validator; phones on poor connections revalidate cheaply.
The tag is weak (`W/`): the gzip layer outside may compress the body, and the
compressed and plain bodies are the same page, not the same bytes.
Pure ASGI: the body is gathered from the app's messages, hashed, then sent on
(or replaced by a 304) — no extra task per request.
"""
from __future__ import annotations

import hashlib

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

KEPT_ON_304 = ("etag", "cache-control", "vary", "x-build")  # the offline worker reads which build confirmed it


def etag_of(body: bytes) -> str:
    return 'W/"' + hashlib.sha256(body).hexdigest()[:32] + '"'


def _vary(headers: MutableHeaders) -> None:
    """The 200 may be sent compressed, and the gzip layer says `Vary: Accept-Encoding` on
    it; the 304, which that layer leaves alone, must say the same."""
    present = [v.strip() for v in headers.get("vary", "").split(",") if v.strip()]
    if "accept-encoding" not in {v.lower() for v in present}:
        headers["vary"] = ", ".join(present + ["Accept-Encoding"])


class ETagMiddleware:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # HEAD responses carry no body to hash: they pass as they are
        if scope["type"] != "http" or scope["method"] != "GET":
            return await self.app(scope, receive, send)
        start: Message | None = None
        passing = False
        chunks: list[bytes] = []

        async def gather(message: Message) -> None:
            nonlocal start, passing
            if message["type"] == "http.response.start":
                passing = message["status"] != 200 or "etag" in Headers(scope=message)
                if message["status"] == 304:  # the static files' own revalidation
                    _vary(MutableHeaders(scope=message))
                if passing:
                    await send(message)
                else:
                    start = message
                return
            if passing or message["type"] != "http.response.body":
                return await send(message)
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                await _finish(scope, send, start, b"".join(chunks))

        await self.app(scope, receive, gather)


async def _finish(scope: Scope, send: Send, start: Message, body: bytes) -> None:
    etag = etag_of(body)
    headers = MutableHeaders(scope=start)
    headers["etag"] = etag
    headers.setdefault("cache-control", "no-cache")  # always revalidate: the build may change
    if etag in Headers(scope=scope).get("if-none-match", ""):
        _vary(headers)
        kept = [(k, v) for k, v in start["headers"] if k.decode("latin-1") in KEPT_ON_304]
        await send({"type": "http.response.start", "status": 304, "headers": kept})
        await send({"type": "http.response.body", "body": b""})
        return
    headers["content-length"] = str(len(body))
    await send(start)
    await send({"type": "http.response.body", "body": body})
