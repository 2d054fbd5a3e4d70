"""The server's HTTP connection: uvicorn's protocols with the limits a hall's server needs.

uvicorn (httptools or h11 alike) closes a keep-alive connection that stays idle after a response, but not one
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
import contextlib
import socket
import time

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

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


class Guarded:
    """The limits, over either of uvicorn's HTTP protocols (a mixin before the protocol class).

    After every event (connection, data, response complete) the deadline is brought in line
    with the connection's state: armed while it waits for a request's headers (once: bytes
    trickling in do not extend it), cancelled while a request is being answered.
    """

    header_deadline: asyncio.TimerHandle | None = None
    waiting_since: float | None = None  # when the wait for the current request's headers began
    partial = False                     # bytes of that request arrived (a 408 says why it ends)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[misc]
        _no_delay(transport)
        if len(self.connections) > MAX_CONNECTIONS and not self._evict_one_waiting():
            self._close_with(BUSY)
            return
        self._sync_deadline()

    def data_received(self, data: bytes) -> None:
        if self.waiting_since is not None:
            self.partial = True
        super().data_received(data)  # type: ignore[misc]
        self._sync_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        self._sync_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)  # type: ignore[misc]

    def send_400_response(self, msg: str) -> None:
        started = self.cycle is not None and self.cycle.response_started
        self._close_with(b"" if started else BAD_REQUEST)  # never a second status line mid-response

    def _answering(self) -> bool:
        """A request's headers are in and its response is not finished (pipelining included)."""
        return self.cycle is not None and not self.cycle.response_complete

    def _sync_deadline(self) -> None:
        if self.transport.is_closing() or not self._waiting_for_headers():
            self._stop_waiting()
        elif self.header_deadline is None:
            self.waiting_since, self.partial = time.monotonic(), False
            self.header_deadline = self.loop.call_later(HEADER_TIMEOUT, self._headers_too_slow)

    def _stop_waiting(self) -> None:
        if self.header_deadline is not None:
            self.header_deadline.cancel()
        self.header_deadline, self.waiting_since = None, None

    def _headers_too_slow(self) -> None:
        self.header_deadline = None
        if self._waiting_for_headers():
            self._close_with(TOO_SLOW if self.partial else b"")
        else:
            self._stop_waiting()

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


def _no_delay(transport: asyncio.Transport) -> None:
    """Send each write at once (TCP_NODELAY). A response leaves in two writes, its head then its
    body, and with Nagle's algorithm the body waits for the client's delayed ACK of the head: 40
    ms. asyncio turns Nagle off only on a socket it knows as TCP, and the socket uvicorn's
    workers share (`--workers 2`) is not known as such."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # a peer gone already: the connection's limits still apply
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class GuardedH11Protocol(Guarded, H11Protocol):
    """uvicorn's pure-Python protocol with the limits (`http="web.protocol:GuardedH11Protocol"`)."""

    def _waiting_for_headers(self) -> bool:
        return self.conn.their_state is h11.IDLE and not self._answering()


class GuardedHttpToolsProtocol(Guarded, HttpToolsProtocol):
    """uvicorn's C-parser protocol with the limits (what `kb serve` runs)."""

    def on_headers_complete(self) -> None:
        self._stop_waiting()
        super().on_headers_complete()

    def _waiting_for_headers(self) -> bool:
        return not self._answering() and not self.pipeline
