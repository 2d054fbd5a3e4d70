"""The server's HTTP connection: uvicorn's protocols with the limits a hall's server needs.

uvicorn (httptools or h11 alike) closes a keep-alive connection that stays idle after a response, but not one
that never finishes its request: a socket that connects and sends nothing, or sends its
headers a byte at a time, is held for ever, and a thousand of them exhaust the file
descriptors. Here a connection has `HEADER_TIMEOUT` seconds to send each request's
headers, and no more than `MAX_HEAD_BYTES` of them (counted as they arrive: the parser
would buffer an endless header until the deadline); past `MAX_CONNECTIONS` a new connection
first evicts the one that has held its place longest for nothing (waiting for its headers,
or stalled on a reply its client does not read), and is refused with a 503 only when every
connection is busy answering. A client that takes none of its reply for `WRITE_TIMEOUT`
seconds is dropped with what it would not read: a connection closed with output pending
otherwise lingers until the client reads it, which may be never. Every response written
here (uvicorn's own 400 for a malformed request, the 503, the 408, the 414 and 431)
carries the same security headers as the app's.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import struct
import time

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .security import HEADERS, MAX_HEAD_BYTES

try:  # the socket's own send queue, where the system tells it (Linux)
    from fcntl import ioctl
    from termios import TIOCOUTQ
except ImportError:  # pragma: no cover
    ioctl = TIOCOUTQ = None

HEADER_TIMEOUT = 10.0   # seconds for a request line and headers (a phone on bad wifi needs < 2)
WRITE_TIMEOUT = 10.0    # seconds a reply may wait with its client taking none of it
MAX_CONNECTIONS = 512   # per worker, well under a 1 024 file-descriptor limit
SEND_BUFFER = 128 * 1024  # bytes of a reply the kernel holds per connection (Linux doubles it): a hall's wifi has less in flight
ACCEPT_QUIET = 10.0     # seconds without a failed accept that end a burst of them

log = logging.getLogger("kb.web")


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
URL_TOO_LONG = plain_response(414, b"URI Too Long", "The request URL is too long.")
HEAD_TOO_LARGE = plain_response(431, b"Request Header Fields Too Large", "The request headers are too large.")


class Guarded:
    """The limits, over either of uvicorn's HTTP protocols (a mixin before the protocol class).

    After every event (connection, data, response complete) the deadline is brought in line
    with the connection's state: armed while it waits for a request's headers (once: bytes
    trickling in do not extend it), cancelled while a request is being answered. While output
    waits on the client alone (the transport has paused us, or closes with output left), the
    write watch looks every fifth of `WRITE_TIMEOUT` whether the client has taken any of it.
    """

    header_deadline: asyncio.TimerHandle | None = None
    waiting_since: float | None = None  # when the wait for the current request's headers began
    partial = False                     # bytes of that request arrived (a 408 says why it ends)
    head_bytes = 0                      # bytes received since the last request's headers were complete
    head_line = False                   # among them, the end of a request line (else a 414, not a 431)
    write_watch: asyncio.TimerHandle | None = None
    stalled_since: float | None = None  # since when the transport has asked us to stop writing
    taken = (0, 0.0)                    # the least output left unsent so far, and when it was seen

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[misc]
        _tune_socket(transport)
        if len(self.connections) > MAX_CONNECTIONS and not self._evict_one():
            self._close_with(BUSY)
            return
        self._sync_deadline()

    def data_received(self, data: bytes) -> None:
        if self.waiting_since is not None:
            self.partial = True
        self.head_bytes += len(data)
        self.head_line = self.head_line or b"\n" in data
        super().data_received(data)  # type: ignore[misc]
        if self.head_bytes > MAX_HEAD_BYTES:
            self._refuse()
        self._sync_deadline()

    def _head_complete(self) -> None:
        self.head_bytes, self.head_line = 0, False

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        self._sync_deadline()
        self._watch_writes()  # closed after its response (not keep-alive) with some of it unread

    def timeout_keep_alive_handler(self) -> None:
        super().timeout_keep_alive_handler()  # type: ignore[misc]
        self._watch_writes()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        self._unwatch_writes()
        super().connection_lost(exc)  # type: ignore[misc]

    def send_400_response(self, msg: str) -> None:
        self._refuse()

    def _refuse(self) -> None:
        if self._answering():
            self._close_with(b"")  # never a status line before or inside the response owed
        elif self.head_bytes <= MAX_HEAD_BYTES:
            self._close_with(BAD_REQUEST)
        else:
            self._close_with(HEAD_TOO_LARGE if self.head_line else URL_TOO_LONG)

    def pause_writing(self) -> None:
        super().pause_writing()  # type: ignore[misc]
        self.stalled_since = time.monotonic()
        self._watch_writes()

    def resume_writing(self) -> None:
        super().resume_writing()  # type: ignore[misc]
        self.stalled_since = None
        self._unwatch_writes()
        self._watch_writes()  # a closing connection still owes the rest

    def _owing(self) -> bool:
        """Output waits on the client alone: the transport has paused us, or is closing with it."""
        return (self.stalled_since is not None or self.transport.is_closing()) \
            and self.transport.get_write_buffer_size() > 0

    def _watch_writes(self) -> None:
        if self.write_watch is None and self._owing():
            self.taken = (_unsent(self.transport), time.monotonic())
            self._look_again()

    def _look_again(self) -> None:
        self.write_watch = self.loop.call_later(WRITE_TIMEOUT / 5, self._writes_due)

    def _writes_due(self) -> None:
        """Nothing is written while we are paused or closing: less unsent is the client reading."""
        self.write_watch = None
        if not self._owing():
            return
        least, since = self.taken
        unsent = _unsent(self.transport)
        if unsent < least:
            self.taken = (unsent, time.monotonic())
        elif time.monotonic() - since >= WRITE_TIMEOUT:
            return self._drop()
        self._look_again()

    def _drop(self) -> None:
        """Close now, with all the client would not read: asyncio's abort forgets its buffer, a
        linger of 0 the kernel's (a reset, where a close would queue its FIN behind them)."""
        sock = self.transport.get_extra_info("socket")
        with contextlib.suppress(OSError, AttributeError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.transport.abort()

    def _unwatch_writes(self) -> None:
        if self.write_watch is not None:
            self.write_watch.cancel()
            self.write_watch = None

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

    def _evict_one(self) -> bool:
        held = [(since, c) for c in self.connections if c is not self and (since := _held_since(c)) is not None]
        if not held:
            return False
        min(held, key=lambda t: t[0])[1]._evicted()
        return True

    def _evicted(self) -> None:
        if self.stalled_since is not None:
            self._drop()  # a close would wait for the client to read
        else:
            self._close_with(b"")

    def _close_with(self, response: bytes) -> None:
        self._stop_waiting()
        if not self.transport.is_closing():
            if response:
                self.transport.write(response)
            self.transport.close()
            self._watch_writes()


def _held_since(c: object) -> float | None:
    """Since when a connection holds its place for nothing: waiting for its headers, or
    stalled on a reply its client does not read."""
    return min((t for t in (getattr(c, "waiting_since", None), getattr(c, "stalled_since", None)) if t is not None),
               default=None)


def _unsent(transport: asyncio.Transport) -> int:
    """Bytes written and not yet taken by the client: the transport's buffer and the socket's
    send queue (the kernel may take a reply in while the client reads none of it)."""
    size = transport.get_write_buffer_size()
    sock = transport.get_extra_info("socket")
    if ioctl is not None and sock is not None:
        with contextlib.suppress(OSError, ValueError):  # the socket is closed, or tells no queue
            size += struct.unpack("i", ioctl(sock.fileno(), TIOCOUTQ, b"\0\0\0\0"))[0]
    return size


def _tune_socket(transport: asyncio.Transport) -> None:
    """Send each write at once (TCP_NODELAY): a response leaves in two writes, its head then its
    body, and with Nagle's algorithm the body waits for the client's delayed ACK of the head: 40
    ms. asyncio turns Nagle off only on a socket it knows as TCP, and the socket uvicorn's
    workers share (`--workers 2`) is not known as such. And let the kernel hold `SEND_BUFFER`
    of a reply, not the megabytes it grows to by itself on a fast link: the rest waits in the
    transport, where the write deadline sees a client that reads none of it."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):  # a peer gone already: the connection's limits still apply
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)


class GuardedH11Protocol(Guarded, H11Protocol):
    """uvicorn's pure-Python protocol with the limits (`http="web.http.protocol:GuardedH11Protocol"`)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.conn = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD_BYTES)  # h11's own 16 KB is less

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:
            self._head_complete()

    def _waiting_for_headers(self) -> bool:
        return self.conn.their_state is h11.IDLE and not self._answering()


class GuardedHttpToolsProtocol(Guarded, HttpToolsProtocol):
    """uvicorn's C-parser protocol with the limits (what `kb serve` runs)."""

    def on_headers_complete(self) -> None:
        self._stop_waiting()
        self._head_complete()
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        self.head_bytes = max(0, self.head_bytes - len(body))  # a body is not a head (and uvicorn bounds it)
        super().on_body(body)

    def _waiting_for_headers(self) -> bool:
        return not self._answering() and not self.pipeline


class AcceptErrors:
    """The event loop's exception handler: out of file descriptors, asyncio logs a traceback for
    every accept it tries (megabytes a second); here one line a burst, the rest as asyncio says."""

    def __init__(self) -> None:
        self.last = float("-inf")

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict) -> None:
        exc = context.get("exception")
        if not (isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)
                and "accept" in context.get("message", "")):
            return loop.default_exception_handler(context)
        now = time.monotonic()
        if now - self.last > ACCEPT_QUIET:
            log.warning("cannot accept connections: %s (said once until none fails for %g s)", exc, ACCEPT_QUIET)
        self.last = now


def event_loop() -> asyncio.AbstractEventLoop:
    """Python's own event loop (`kb.cli.SERVER_LIMITS` says why), its accept errors said once a burst."""
    loop = asyncio.SelectorEventLoop()
    loop.set_exception_handler(AcceptErrors())
    return loop
