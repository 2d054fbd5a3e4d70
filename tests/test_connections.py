"""The server's connections (issue 11, finding 2): a socket that never finishes its request
is closed, idle sockets cannot lock out readers, and every response the server writes
itself carries the security headers. A real uvicorn server on a free port, with the
deadline and the cap made small so the test runs in seconds."""
import socket
import threading
import time
import urllib.request

import pytest
import uvicorn

from web import protocol
from web.app import create_app
from web.loadgen import HOST, free_port


@pytest.fixture(scope="module")
def server(build_dir):
    saved = protocol.HEADER_TIMEOUT, protocol.MAX_CONNECTIONS
    protocol.HEADER_TIMEOUT, protocol.MAX_CONNECTIONS = 1.0, 8
    port = free_port()
    config = uvicorn.Config(create_app(build_dir), host=HOST, port=port, log_level="error",
                            http=protocol.GuardedH11Protocol, timeout_keep_alive=5)
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.05)
    yield port
    srv.should_exit = True
    thread.join(timeout=10)
    protocol.HEADER_TIMEOUT, protocol.MAX_CONNECTIONS = saved


def raw(port: int, data: bytes, wait: float = 5.0) -> bytes:
    """Send bytes, read until the server closes the connection (or `wait` passes)."""
    with socket.create_connection((HOST, port), timeout=wait) as s:
        s.sendall(data)
        chunks = []
        try:
            while chunk := s.recv(65536):
                chunks.append(chunk)
        except TimeoutError:
            chunks.append(b"<still open>")
        return b"".join(chunks)


def get(port: int, path: str = "/api/docs") -> int:
    with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=5) as r:
        return r.status


def test_a_socket_that_sends_nothing_is_closed_after_the_header_deadline(server):
    started = time.monotonic()
    assert raw(server, b"", wait=5) == b""  # closed by the server, not by our timeout
    assert time.monotonic() - started < 4


def test_headers_sent_too_slowly_get_a_408_with_the_security_headers(server):
    with socket.create_connection((HOST, server), timeout=5) as s:
        s.sendall(b"GET /api/docs HTTP/1.1\r\nHost: x\r\n")
        for _ in range(3):  # a byte now and then: each resets nothing
            time.sleep(0.4)
            s.sendall(b"X")
        reply = s.recv(65536)
    assert reply.startswith(b"HTTP/1.1 408") and b"content-security-policy:" in reply


def test_a_malformed_request_gets_a_400_with_the_security_headers(server):
    reply = raw(server, b"GARBAGE\x00 / HTTP/1.1\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 400") and b"x-frame-options: DENY" in reply


def test_idle_sockets_beyond_the_cap_do_not_lock_readers_out(server):
    idle = [socket.create_connection((HOST, server)) for _ in range(3 * protocol.MAX_CONNECTIONS)]
    try:
        assert [get(server) for _ in range(5)] == [200] * 5
    finally:
        for s in idle:
            s.close()


def test_a_keep_alive_connection_serves_request_after_request(server):
    import http.client
    conn = http.client.HTTPConnection(HOST, server, timeout=5)
    for _ in range(3):
        conn.request("GET", "/api/docs")
        r = conn.getresponse()
        r.read()
        assert r.status == 200
        time.sleep(0.6)  # each request has its own header deadline; the pauses add up past it
    conn.close()
