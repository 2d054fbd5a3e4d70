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

from kb.cli import SERVER_LIMITS
from web import protocol
from web.app import create_app
from measure.loadgen import HOST, free_port

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier


@pytest.fixture(scope="module", params=["GuardedHttpToolsProtocol", "GuardedH11Protocol"])
def server(build_dir, request):
    saved = protocol.HEADER_TIMEOUT, protocol.MAX_CONNECTIONS
    protocol.HEADER_TIMEOUT, protocol.MAX_CONNECTIONS = 2.0, 8
    port = free_port()
    config = uvicorn.Config(create_app(build_dir), host=HOST, port=port, log_level="error",
                            http=getattr(protocol, request.param), timeout_keep_alive=5, loop=SERVER_LIMITS["loop"])
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the test server did not start"
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
    assert raw(server, b"", wait=10) == b""  # closed by the server, not by our timeout
    assert protocol.HEADER_TIMEOUT - 0.2 < time.monotonic() - started < protocol.HEADER_TIMEOUT + 3


def test_headers_trickled_past_the_deadline_get_a_408_at_the_deadline(server):
    with socket.create_connection((HOST, server), timeout=10) as s:
        started = time.monotonic()
        s.sendall(b"GET /api/docs HTTP/1.1\r\nHost: x\r\n")
        reply = b""
        while not reply and time.monotonic() - started < 3 * protocol.HEADER_TIMEOUT:
            time.sleep(0.3)  # a byte now and then never extends the deadline
            try:
                s.sendall(b"X")
                s.settimeout(0.01)
                reply = s.recv(65536)
            except (TimeoutError, BlockingIOError):
                pass
            except OSError:
                break
        took = time.monotonic() - started
    assert reply.startswith(b"HTTP/1.1 408") and b"content-security-policy:" in reply
    assert took < protocol.HEADER_TIMEOUT + 4  # at the deadline, not at the end of the trickle (3 deadlines)


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


def test_past_the_cap_the_oldest_waiting_connection_is_the_one_closed(server):
    time.sleep(1.0)  # the sockets of earlier tests are gone
    oldest = socket.create_connection((HOST, server))
    time.sleep(0.05)
    others = [socket.create_connection((HOST, server)) for _ in range(protocol.MAX_CONNECTIONS)]
    try:
        assert get(server) == 200  # the cap is passed: someone waiting had to go
        oldest.settimeout(1.0)
        assert oldest.recv(1) == b""  # closed by the server: the oldest
        others[-1].setblocking(False)
        try:
            still_open = others[-1].recv(1) != b""
        except BlockingIOError:
            still_open = True
        assert still_open  # the newest is untouched
    finally:
        for s in [oldest, *others]:
            s.close()


def test_a_keep_alive_connection_serves_request_after_request(server):
    import http.client
    conn = http.client.HTTPConnection(HOST, server, timeout=5)
    for _ in range(3):
        conn.request("GET", "/api/docs")
        r = conn.getresponse()
        r.read()
        assert r.status == 200
        time.sleep(0.8)  # each request has its own header deadline; the pauses add up past it
    conn.close()


def test_a_workers_connection_sends_without_waiting_for_acks(build_dir):
    """`kb serve --workers 2` hands its workers one socket bound by uvicorn, which asyncio does
    not know as TCP: without TCP_NODELAY set by the protocol, each response's body waited for
    the client's delayed ACK of its head, 40 ms a request."""
    import http.client

    config = uvicorn.Config(create_app(build_dir), host=HOST, port=free_port(), log_level="error", **SERVER_LIMITS)
    srv = uvicorn.Server(config)
    sock = config.bind_socket()  # as uvicorn's supervisor binds the socket it shares with workers
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not srv.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the test server did not start"
            time.sleep(0.05)
        conn = http.client.HTTPConnection(HOST, config.port, timeout=5)
        conn.request("GET", "/api/docs")
        assert conn.getresponse().status == 200
        (served,) = srv.server_state.connections
        accepted = served.transport.get_extra_info("socket")
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        conn.close()
    finally:
        srv.should_exit = True
        thread.join(timeout=10)
        sock.close()
