"""The server's connections (issue 11, finding 2; issue 30): a socket that never finishes its
request is closed, nor one that never reads its reply; a header that never ends is refused
at the cap; idle or stalled sockets cannot lock out readers; a crowd asking for the largest
reply leaves others answered; every response the server writes itself carries the security
headers. A real uvicorn server on a free port, with the deadlines and the cap made small so
the test runs in seconds."""
import os
import resource
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from urllib.parse import quote

import pytest
import uvicorn

from kb.cli import SERVER_LIMITS
from kb.search.query import MAX_QUERY_CHARS
from web.http import protocol
from web.app import create_app
from web.offline.worker import SLICE
from measure.hostile import ENDLESS_URL, MODEL, WINDOW, ask_unread, closed_by_server, endless_header, fetch_all, request
from measure.loadgen import HOST, free_port

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier
RUNNING: dict[int, uvicorn.Server] = {}  # the test servers by port, for a look at their connections


@pytest.fixture(scope="module", params=["GuardedHttpToolsProtocol", "GuardedH11Protocol"])
def server(build_dir, request):
    saved = protocol.HEADER_TIMEOUT, protocol.MAX_CONNECTIONS, protocol.WRITE_TIMEOUT
    protocol.HEADER_TIMEOUT, protocol.MAX_CONNECTIONS, protocol.WRITE_TIMEOUT = 2.0, 8, 2.0
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
    RUNNING[port] = srv
    yield port
    del RUNNING[port]
    srv.should_exit = True
    thread.join(timeout=10)
    protocol.HEADER_TIMEOUT, protocol.MAX_CONNECTIONS, protocol.WRITE_TIMEOUT = saved


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


def until(condition, seconds: float) -> float | None:
    """Seconds until `condition()` holds, looked at every 0.1 s; None if it did not in `seconds`."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if condition():
            return time.monotonic() - started
        time.sleep(0.1)
    return None


def slow_reader(port: int, path: str, pause: float, every: int = 256 * 1024) -> bytes:
    """The whole reply to `path`, read by a client of a phone's window that stops `pause`
    seconds after each `every` bytes."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, WINDOW)
        s.settimeout(10)
        s.connect((HOST, port))
        s.sendall(request(path, gzip=True, close=True))
        chunks, since_pause = [], 0
        while chunk := s.recv(65536):
            chunks.append(chunk)
            since_pause += len(chunk)
            if since_pause >= every:
                time.sleep(pause)
                since_pause = 0
        return b"".join(chunks)


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


def test_a_reply_its_client_never_reads_is_dropped_at_the_write_deadline(server):
    s = ask_unread(server)
    try:
        took = until(lambda: closed_by_server(s), protocol.WRITE_TIMEOUT + 4)
    finally:
        s.close()
    assert took is not None and took > protocol.WRITE_TIMEOUT - 0.5


def test_a_client_that_reads_with_pauses_shorter_than_the_deadline_gets_its_whole_reply(server):
    reply = slow_reader(server, MODEL, pause=protocol.WRITE_TIMEOUT * 0.75)
    head, _, body = reply.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    assert head.startswith(b"HTTP/1.1 200") and len(body) == length > 3 * 256 * 1024  # 3 pauses


def test_a_reply_nobody_reads_holds_a_few_slices_of_it_not_all(server):
    """The search model is 2.9 MB: the server, kernel included, holds a few hundred KB of it."""
    held = [ask_unread(server) for _ in range(4)]
    try:
        time.sleep(0.5)
        stalled = [c for c in RUNNING[server].server_state.connections if c.stalled_since is not None]
        assert len(stalled) == 4
        assert all(protocol._unsent(c.transport) < 2 * protocol.SEND_BUFFER + 3 * SLICE for c in stalled)
    finally:
        for s in held:
            s.close()


def test_replies_nobody_reads_past_the_cap_make_way_for_a_reader(server):
    held = [ask_unread(server) for _ in range(protocol.MAX_CONNECTIONS + 2)]
    try:
        time.sleep(0.5)
        assert [get(server, "/api/search?q=carta") for _ in range(3)] == [200] * 3
    finally:
        for s in held:
            s.close()


def test_a_header_that_never_ends_is_refused_at_the_cap_not_at_the_deadline(server):
    stream = endless_header(server, seconds=protocol.HEADER_TIMEOUT * 2)
    assert stream["status"] == 431 and stream["seconds"] < protocol.HEADER_TIMEOUT
    assert stream["bytes"] < 1 << 20  # before issue 30: tens of MB, until the deadline's 408


def test_a_url_that_never_ends_is_refused_with_414(server):
    stream = endless_header(server, seconds=protocol.HEADER_TIMEOUT * 2, start=ENDLESS_URL)
    assert stream["status"] == 414 and stream["seconds"] < protocol.HEADER_TIMEOUT


def test_the_longest_query_the_planner_takes_fits_in_a_url(server):
    for letter in ("é", "漢", "𝄞"):  # 2, 3 and 4 bytes: 6, 9 and 12 percent-encoded
        assert get(server, "/api/search?q=" + quote(letter * MAX_QUERY_CHARS)) == 200
    reply = raw(server, b"GET /api/search?q=" + b"x" * 30000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert reply.startswith(b"HTTP/1.1 414")


def test_a_crowd_asking_for_the_model_at_once_leaves_a_reader_answered(live_server):
    """100 clients ask for the 2.9 MB model uncompressed at once while a reader searches;
    how long the reader waited is printed (scripts/probe_connections.py measures it)."""
    crowd: dict = {}
    thread = threading.Thread(target=lambda: crowd.update(fetch_all(live_server.port, 100)))
    thread.start()
    waits, statuses = [], []
    while thread.is_alive() or not waits:
        started = time.perf_counter()
        statuses.append(get(live_server.port, "/api/search?q=licita+insufficiente"))
        waits.append((time.perf_counter() - started) * 1000)
    thread.join()
    print(f"reader: {len(waits)} searches, worst {max(waits):.0f} ms, while {crowd}")
    assert set(statuses) == {200} and crowd["answered"] == 100


def test_out_of_file_descriptors_the_server_says_so_once_and_comes_back(build_dir, tmp_path):
    """asyncio logs a traceback for each accept it tries without a descriptor: megabytes a second."""
    port, log = free_port(), tmp_path / "serve.log"
    with open(log, "wb") as err:
        proc = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve", "--host", HOST, "--port", str(port)],
                                env=dict(os.environ, KB_BUILD_DIR=str(build_dir)), stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (128, 128)))
    held = []
    try:
        assert until(lambda: _answers(port), 60) is not None, "the server did not start"
        held = [socket.create_connection((HOST, port), timeout=5) for _ in range(200)]  # more than it has descriptors
        time.sleep(4)
        said = log.read_text()
        assert said.count("cannot accept connections") == 1 and "Traceback" not in said, said[:2000]
        for s in held:
            s.close()
        assert until(lambda: _answers(port), 10) is not None  # once the sockets are gone
    finally:
        for s in held:
            s.close()
        proc.terminate()
        proc.wait(timeout=10)


def _answers(port: int) -> bool:
    try:
        return get(port) == 200
    except OSError:
        return False
