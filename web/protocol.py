"""The server's HTTP connection: uvicorn's h11 protocol with the limits a hall's server needs.

uvicorn closes a keep-alive connection that stays idle after a response, but not one
that never finishes its request: a socket that connects and sends nothing, or sends its
headers a byte at a time, is held for ever, and a thousand of them exhaust the file
descriptors. Here a connection has `HEADER_TIMEOUT` seconds to send each request's
headers; past `MAX_CONNECTIONS` a new connection first evicts the oldest one still
waiting for its headers, and is refused with a 503 only when every connection is busy
answering. Every response written here (uvicorn's own 400 for a malformed request, the
503, the 408) carries the same security headers as the app's.
"""
from __future__ import annotations

import asyncio
import time

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .security import HEADERS

HEADER_TIMEOUT = 10.0   # seconds for a request line and headers (a phone on bad wifi needs < 2)
MAX_CONNECTIONS = 512   # per worker, well under a 1 024 file-descriptor limit


def plain_response(status: int, reason: bytes, text: str) -> bytes:
    """A whole HTTP/1.1 response that closes the connection, security headers included."""
    body = text.encode("ascii")
    head = [b"HTTP/1.1 %d %s" % (status, reason), b"content-type: text/plain; charset=utf-8",
            b"content-length: %d" % len(body), b"connection: close"]
    head += [f"{k}: {v}".encode("latin-1") for k, v in HEADERS.items()]
    return b"\r\n".join(head) + b"\r\n\r\n" + body


BAD_REQUEST = plain_response(400, b"Bad Request", "Invalid HTTP request received.")
TOO_SLOW = plain_response(408, b"Request Timeout", "The request headers did not arrive in time.")
BUSY = plain_response(503, b"Service Unavailable", "The server is busy; try again in a moment.")


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header deadline, a connection cap and security headers
    on its own responses (`http="web.protocol:GuardedH11Protocol"` in uvicorn's config)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS and not self._evict_one_waiting():
            self._close_with(BUSY)
            return
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the headers are in: the app has the request
            self._stop_waiting()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_headers()  # the next request on this connection gets its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        self._close_with(BAD_REQUEST)

    # the header deadline
    def _await_headers(self) -> None:
        self._stop_waiting()
        self.waiting_since = time.monotonic()
        self.header_deadline = self.loop.call_later(HEADER_TIMEOUT, self._headers_too_slow)

    def _stop_waiting(self) -> None:
        deadline = getattr(self, "header_deadline", None)
        if deadline is not None:
            deadline.cancel()
        self.header_deadline, self.waiting_since = None, None

    def _headers_too_slow(self) -> None:
        self.header_deadline = None
        if self.conn.their_state is h11.IDLE:
            started = bool(self.conn.trailing_data[0])  # part of a request came: say why it ends
            self._close_with(TOO_SLOW if started else b"")

    def _evict_one_waiting(self) -> bool:
        waiting = [c for c in self.connections if c is not self and getattr(c, "waiting_since", None) is not None]
        if not waiting:
            return False
        min(waiting, key=lambda c: c.waiting_since)._close_with(b"")
        return True

    def _close_with(self, response: bytes) -> None:
        self._stop_waiting()
        if not self.transport.is_closing():
            if response:
                self.transport.write(response)
            self.transport.close()
