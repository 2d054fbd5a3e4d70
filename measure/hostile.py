"""Clients that cost a server more than their share, for the connection probes, the soak run and
the tests (issue 30): one that asks for a large reply and never reads it, one whose header never
ends, a crowd asking for the costly reply at once. Only loopback is addressed.
"""
from __future__ import annotations

import asyncio
import socket
import time

from .loadgen import HOST

MODEL = "/offline/search-model.bin"   # the largest reply: the search model, 2.9 MB uncompressed
TCP_ESTABLISHED = 1


def request(path: str, gzip: bool = False, close: bool = False) -> bytes:
    head = [b"GET %s HTTP/1.1" % path.encode(), b"Host: probe"]
    head += [b"Accept-Encoding: gzip"] if gzip else []
    head += [b"Connection: close"] if close else []
    return b"\r\n".join(head) + b"\r\n\r\n"


WINDOW = 65536  # a phone's socket buffers, more or less: loopback's own grow to megabytes


def ask_unread(port: int, path: str = MODEL, gzip: bool = False) -> socket.socket:
    """A connection that has asked for `path` and will never read the reply. Its receive buffer
    is a remote client's, not loopback's (which would hold most of the reply in the kernel)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, WINDOW)  # before connecting: the window it offers
    s.settimeout(5)
    s.connect((HOST, port))
    s.sendall(request(path, gzip))
    return s


def closed_by_server(s: socket.socket) -> bool:
    """The server has closed or reset the connection (Linux: the socket left ESTABLISHED), even
    with its reply still unread in our buffer."""
    return s.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0] != TCP_ESTABLISHED


ENDLESS_HEADER = b"GET / HTTP/1.1\r\nHost: probe\r\nX-Endless: "
ENDLESS_URL = b"GET /search?q="


def endless_header(port: int, seconds: float = 15.0, chunk: int = 65536, start: bytes = ENDLESS_HEADER) -> dict:
    """Send a header that never ends (or, from `ENDLESS_URL`, a URL), as fast as the server
    takes it, for at most `seconds`: the bytes the connection accepted, how long until it would
    take no more, and the status the server answered (0 for none, as when it resets the connection)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, WINDOW)  # what it sends waits at the server, not here
    s.settimeout(5)
    s.connect((HOST, port))
    s.settimeout(0.5)
    data, sent, started = b"a" * chunk, 0, time.monotonic()
    s.sendall(start)
    ended = "still open"
    while time.monotonic() - started < seconds:
        try:
            sent += s.send(data)
        except TimeoutError:
            continue  # the server reads no more for now
        except OSError as e:
            ended = type(e).__name__
            break
    took = time.monotonic() - started
    return {"bytes": sent, "seconds": round(took, 2), "ended": ended, "status": _status(s)}


def endless_headers(port: int, seconds: float) -> list[dict]:
    """`endless_header` again each time the server cuts it, for `seconds`."""
    streams, stop = [], time.monotonic() + seconds
    while time.monotonic() < stop:
        streams.append(endless_header(port, stop - time.monotonic()))
    return streams


def _status(s: socket.socket) -> int:
    try:
        s.settimeout(1.0)
        reply = s.recv(64)
    except OSError:
        reply = b""
    finally:
        s.close()
    return int(reply[9:12]) if reply.startswith(b"HTTP/1.1 ") else 0


def fetch_all(port: int, clients: int, path: str = MODEL) -> dict:
    """`clients` connections ask for `path` at once (uncompressed) and read their replies whole."""
    async def one() -> int:
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(request(path, close=True))
        size = 0
        while chunk := await reader.read(1 << 18):
            size += len(chunk)
        writer.close()
        return size

    async def crowd() -> list:
        return await asyncio.gather(*(one() for _ in range(clients)), return_exceptions=True)

    started = time.monotonic()
    sizes = asyncio.run(crowd())
    whole = [n for n in sizes if isinstance(n, int) and n > 0]
    return {"clients": clients, "answered": len(whole), "seconds": round(time.monotonic() - started, 2),
            "mb_each": round(max(whole, default=0) / 1e6, 2)}
