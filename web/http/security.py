"""Security headers on every response, and a cap on what a request may send.

Pure ASGI (no BaseHTTPMiddleware): it only touches the response's first message,
so it adds no task or stream per request.
"""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kb.citations.check import MAX_TEXT_CHARS
from kb.search.query import MAX_QUERY_CHARS

# Any query the planner takes fits, each of its characters percent-encoded (4 UTF-8 bytes, 3
# for each): 18 000 bytes, with 2 KB for the path and the other parameters.
MAX_URL_BYTES = 12 * MAX_QUERY_CHARS + 2048
MAX_BODY_BYTES = 0     # every route but one is GET: no request carries a body…
# …but POST /api/cite, a text to check: its longest, each character a JSON escape (12 bytes for one
# outside the Basic Multilingual Plane), and the rest of the object.
BODY_ROUTES = {("POST", "/api/cite"): 12 * MAX_TEXT_CHARS + 1024}
BODY_PATHS = {path: limit for (_method, path), limit in BODY_ROUTES.items()}
URL_HINTS = {"/api/cite": '; send a long text by POST /api/cite, as the JSON body {"text": "…"}'}
MAX_HEADER_BYTES = 16384  # a browser sends 1-2 KB; an 8 MB Accept-Language must not reach the app
MAX_HEADERS = 100
# The whole head as it arrives (request line, each header's ": " and CRLF, some slack): past
# this the connection itself answers 431 (or 414), before a parser holds more of it.
MAX_HEAD_BYTES = MAX_URL_BYTES + MAX_HEADER_BYTES + 4 * MAX_HEADERS + 1024

HEADERS = {
    # only our own scripts, styles and images; no inline script, no framing, no plugins
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "x-frame-options": "DENY",
}


def refusal(scope: Scope) -> tuple[int, str] | None:
    """(status, reason) when a request asks for more than any route needs."""
    if len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string", b"")) > MAX_URL_BYTES:
        return 414, f"request URL too long: at most {MAX_URL_BYTES} bytes" + URL_HINTS.get(scope["path"], "")
    raw = scope.get("headers") or []
    if len(raw) > MAX_HEADERS or sum(len(k) + len(v) for k, v in raw) > MAX_HEADER_BYTES:
        return 431, "request header fields too large"
    headers = Headers(scope=scope)
    length = headers.get("content-length") or "0"
    # another method at a path that takes a body (PUT /api/cite) is held to the same limit and
    # reaches the router, whose 405 names the methods the path takes
    limit = BODY_PATHS.get(scope["path"], MAX_BODY_BYTES)
    if not length.isdigit() or int(length) > limit or "transfer-encoding" in headers:
        return 413, (f"request body too large: at most {limit} bytes, sent with its Content-Length" if limit
                     else "request body not accepted")
    return None


class SecurityMiddleware:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
            await send(message)

        refused = refusal(scope)
        if refused:
            status, reason = refused
            return await JSONResponse({"error": reason, "status": status}, status_code=status)(scope, receive, with_headers)
        await self.app(scope, receive, with_headers)


class HeadAndSlashes:
    """HEAD is answered wherever GET is (the same headers, no body), and a path with a
    trailing slash, or a number written otherwise than in ASCII digits (`/compare/２７`, as
    search reads it: NFKC), is redirected to its plain form by a relative `Location`: the
    request's Host header never steers where a redirect goes."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        path = scope["path"]
        plain = plain_path(path)
        if plain != path and scope["method"] in ("GET", "HEAD"):
            query = quote(scope.get("query_string", b"").decode("latin-1"), safe=_URL_SAFE)
            location = quote(plain, safe=_URL_SAFE) + (f"?{query}" if query else "")
            return await send_redirect(location, send)
        if scope["method"] != "HEAD":
            return await self.app(scope, receive, send)

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body"):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app(dict(scope, method="GET"), receive, without_body)


_URL_SAFE = "/:@!$&'()*+,;=-._~%"  # a Location is percent-encoded ASCII, whatever the request held
NUMBER_SEGMENT = re.compile(r"[0-9]{1,3}(?:-[0-9]{1,3})?")  # a Law's or a norm's number: 27, 92-93


def plain_path(path: str) -> str:
    """The path without a trailing slash, each segment of decimal digits (of any script) in ASCII digits."""
    if len(path) > 1 and path.endswith("/"):
        path = "/" + path.strip("/")
    return path if path.isascii() else "/".join(map(plain_number, path.split("/")))


def plain_number(segment: str) -> str:
    """A segment of decimal digits in another script ("２７") in ASCII; a superscript or a fraction
    ("²", "½") is not a number a reader types for a Law, and stays as it is (a 404)."""
    if not all(ch.isascii() or ch.isdecimal() or ch == "－" for ch in segment):
        return segment
    folded = unicodedata.normalize("NFKC", segment)
    return folded if NUMBER_SEGMENT.fullmatch(folded) else segment


async def send_redirect(location: str, send: Send) -> None:
    await send({"type": "http.response.start", "status": 308,
                "headers": [(b"location", location.encode("ascii")), (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})
