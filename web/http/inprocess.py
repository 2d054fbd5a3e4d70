"""The app asked in process, as a server would ask it, with no HTTP client: a request's ASGI
scope is built, the app is called, and the messages it sends are gathered into an answer.
The static copy (web.offline.sitecopy) and the offline packs (web.offline.worker) render pages so; it needs
nothing outside the runtime dependencies (starlette's TestClient needs httpx, a test extra)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message

HOST = "kb.local"  # any name: no redirect of the app steers by the Host header


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case (a repeated header: its last value)
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


def scope_of(path: str, cookies: dict[str, str]) -> dict:
    """A GET of `path` (with its query) from a client holding `cookies`."""
    parts = urlsplit(path)
    headers = [(b"host", HOST.encode())]
    if cookies:
        headers.append((b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode("latin-1")))
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
            "path": parts.path, "raw_path": parts.path.encode(), "query_string": parts.query.encode(),
            "root_path": "", "headers": headers, "client": ("127.0.0.1", 0), "server": (HOST, 80)}


async def get(app: ASGIApp, path: str, cookies: dict[str, str] | None = None) -> Answer:
    """The app's answer to a GET of `path`, its body whole."""
    sent: list[Message] = []
    asked = asyncio.Event()  # the request has no body; then the client stays until the answer is whole

    async def receive() -> Message:
        if asked.is_set():
            await asyncio.Event().wait()  # never a disconnect: a streamed answer's listener is cancelled
        asked.set()
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope_of(path, cookies or {}), receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in start.get("headers", [])}
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return Answer(start["status"], headers, body)
