"""Soak: a real `kb serve` under a tournament's worst day, then the table for the note.

    python scripts/soak.py                          # the full run: 10 minutes, 8 clients
    python scripts/soak.py --minutes 0.4 --rebuild-every 8 --idle 40   # CI's short version
    python scripts/soak.py --build-storm            # 6 concurrent `kb build`s, 10 rounds

Soak: `clients` threads on keep-alive connections ask for pages and searches: words of
the corpus, random strings and the words that once broke the Spanish stemmer. One in
ten requests is hostile (oversized or too many headers, a malformed request line, a
header sent and never finished, a header that never ends, the search model asked for
uncompressed and abandoned). Meanwhile `idle` sockets are held open and `unread` more ask
for the search model and never read it (each re-opened as the server closes it), and the
site is rebuilt every `rebuild-every` seconds. An error is a well-formed request answered
other than 200 (400 for a random string the planner refuses), a hostile one answered 5xx
(a header that never ends anything but 431), or any connection dropped without an answer.

Build storm: `builds` concurrent `kb build`s, `rounds` times, while a reader polls the
server: every build succeeds or says the lock is held, `current` is complete after each
round, and the server never answers 503.

Everything runs on a fresh build folder under a temporary directory, on loopback.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kb.pipeline import build as builder  # noqa: E402
from kb.pipeline import generations  # noqa: E402
from kb.cli import SERVER_LIMITS  # noqa: E402
from measure.hostile import MODEL, ask_unread, closed_by_server, endless_header, request  # noqa: E402
from measure.loadgen import HOST, percentile, resident_mb, serving  # noqa: E402

KEEP_ALIVE_S = SERVER_LIMITS["timeout_keep_alive"]
POISON = ["ague", "ngue", "igue", "águe", "ungue", "averigüe", "santigüe", "pague"]
PAGES = ["/", "/it-laws/27", "/es-laws/40", "/compare/12", "/it-norms", "/clock", "/glossary", "/api/docs",
         "/api/units/it-laws/16"]


def vocabulary(build_dir: Path) -> list[str]:
    text = generations.export_path(build_dir).read_text(encoding="utf-8")
    return sorted(set(re.findall(r"[^\W\d_]{3,}", text)))


def random_word(rng: random.Random) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzàèéìòùáíóúñü0123456789２７*?()\"'-+:~%&<>\u200b\u00a0"
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))


def well_formed(rng: random.Random, words: list[str]) -> tuple[str, set[int]]:
    """(path, statuses that are right for it)."""
    roll = rng.random()
    if roll < 0.3:
        return rng.choice(PAGES), {200}
    if roll < 0.8:
        q = " ".join(rng.choice(words + POISON) for _ in range(rng.randint(1, 3)))
        return rng.choice(["/api/search?q=", "/search?q="]) + quote(q), {200}
    return "/api/search?q=" + quote(random_word(rng)), {200, 400}


HOSTILE = [
    b"GET /api/docs HTTP/1.1\r\nHost: x\r\nAccept-Language: " + b"a" * 20000 + b"\r\n\r\n",
    b"GET /api/docs HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(150)) + b"\r\n",
    b"GARBAGE\x00\x01 / HTTP/1.1\r\n\r\n",
    b"GET /it-laws/27/ HTTP/1.1\r\nHost: evil.example\r\n\r\n",
    b"HEAD /api/docs HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /api/docs HTTP/1.1\r\nHost: x\r\nX-Half: ",   # never finished: the header deadline ends it
    request(MODEL),  # the largest reply, uncompressed: its first bytes read, the rest abandoned
]


def hostile(port: int, rng: random.Random) -> str | None:
    """Send one hostile request; the problem, or None when the server answered as it should."""
    if rng.random() < 1 / (len(HOSTILE) + 1):
        return endless(port)
    data = rng.choice(HOSTILE)
    try:
        with socket.create_connection((HOST, port), timeout=15) as s:
            s.sendall(data)
            reply = s.recv(64)
    except OSError as e:
        return f"hostile {data[:20]!r}: {e!r}"
    if not reply.startswith(b"HTTP/1.1 "):
        return f"hostile {data[:20]!r}: no answer"
    status = int(reply[9:12])
    return f"hostile {data[:20]!r}: {status}" if status >= 500 else None


def endless(port: int) -> str | None:
    """A header that never ends: refused at the cap (431), long before the header deadline."""
    stream = endless_header(port, seconds=5)
    return None if stream["status"] == 431 else f"endless header: {stream}"


class Soak:
    def __init__(self, port: int, words: list[str], seed: int):
        self.port, self.words, self.seed = port, words, seed
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.hostile = 0
        self.builds_seen: set[str] = set()
        self.lock = threading.Lock()

    def client(self, n: int, stop: threading.Event) -> None:
        rng = random.Random(self.seed + n)
        conn, used = http.client.HTTPConnection(HOST, self.port, timeout=30), time.monotonic()
        while not stop.is_set():
            if time.monotonic() - used > KEEP_ALIVE_S - 1:  # as a browser does: not past the server's
                conn.close()                                  # keep-alive, a race no server can win
                conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            if rng.random() < 0.1:
                problem = hostile(self.port, rng)
                with self.lock:
                    self.hostile += 1
                    if problem:
                        self.errors.append(problem)
                continue
            path, right = well_formed(rng, self.words)
            t0 = time.perf_counter()
            try:
                conn.request("GET", path)
                r = conn.getresponse()
                r.read()
                problem = None if r.status in right else f"{path}: {r.status}"
                build = r.getheader("x-build") or ""
            except (OSError, http.client.HTTPException) as e:
                problem, build = f"{path}: {e!r}", ""
                conn.close()
                conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            used = time.monotonic()
            with self.lock:
                self.latencies.append((time.perf_counter() - t0) * 1000)
                self.builds_seen.add(build)
                if problem:
                    self.errors.append(problem)
        conn.close()


def hold_idle(port: int, count: int, stop: threading.Event) -> None:
    """Keep `count` sockets open that send nothing, re-opening those the server closed."""
    held: list[socket.socket] = []
    while not stop.is_set():
        alive = []
        for s in held:
            try:
                closed = s.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b""
            except BlockingIOError:
                closed = False
            except OSError:
                closed = True
            (s.close() if closed else alive.append(s))
        held = alive
        while len(held) < count:
            try:
                held.append(socket.create_connection((HOST, port), timeout=5))
            except OSError:
                break
        stop.wait(1.0)
    for s in held:
        s.close()


def hold_unread(port: int, count: int, stop: threading.Event, dropped: list[int]) -> None:
    """Keep `count` connections that asked for the search model and never read it, re-opening
    those the server dropped (its write deadline): how many it dropped is counted."""
    held: list[socket.socket] = []
    while not stop.is_set():
        alive = [s for s in held if not closed_by_server(s)]
        dropped[0] += len(held) - len(alive)
        for s in set(held) - set(alive):
            s.close()
        held = alive
        while len(held) < count:
            try:
                held.append(ask_unread(port))
            except OSError:
                break
        stop.wait(1.0)
    for s in held:
        s.close()


def kb_build(build_dir: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, KB_BUILD_DIR=str(build_dir))
    return subprocess.run([sys.executable, "-m", "kb.cli", "build"], env=env, capture_output=True, text=True)


def rebuild_every(build_dir: Path, seconds: float, stop: threading.Event, codes: list[int]) -> None:
    """A rebuild `seconds` after the start, then `seconds` after each one ends."""
    while not stop.wait(seconds):
        codes.append(kb_build(build_dir).returncode)


def sample_memory(pid: int, every: float, stop: threading.Event, samples: list[int]) -> None:
    while not stop.wait(every):
        samples.append(round(resident_mb(pid)))


def serves_the_latest_build(port: int, build_dir: Path, wait: float = 120) -> bool:
    """After the run: does the server come to serve the last build (loading takes a while on a
    busy machine; a build may land just before the end)?"""
    latest, deadline = generations.generation(build_dir).name, time.monotonic() + wait
    while time.monotonic() < deadline:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        conn.request("GET", "/api/docs")
        r = conn.getresponse()
        r.read()
        conn.close()
        if r.getheader("x-build") == latest:
            return True
        time.sleep(0.5)
    return False


def soak(args: argparse.Namespace, build_dir: Path) -> dict:
    words = vocabulary(build_dir)
    with serving(build_dir, port=args.port) as (port, pid):
        run = Soak(port, words, args.seed)
        rss_start = resident_mb(pid)
        stop, rebuilds, memory, dropped = threading.Event(), [], [], [0]
        threads = [threading.Thread(target=run.client, args=(i, stop)) for i in range(args.clients)]
        threads += [threading.Thread(target=hold_idle, args=(port, args.idle, stop)),
                    threading.Thread(target=hold_unread, args=(port, args.unread, stop, dropped)),
                    threading.Thread(target=rebuild_every, args=(build_dir, args.rebuild_every, stop, rebuilds)),
                    threading.Thread(target=sample_memory, args=(pid, args.minutes * 6, stop, memory))]
        for t in threads:
            t.start()
        time.sleep(args.minutes * 60)
        stop.set()
        for t in threads:
            t.join()
        latest = serves_the_latest_build(port, build_dir)
        rss_end = resident_mb(pid)
    return {"minutes": args.minutes, "clients": args.clients, "idle_sockets": args.idle,
            "unread_sockets": args.unread, "unread_dropped_by_server": dropped[0],
            "requests": len(run.latencies) + run.hostile, "hostile": run.hostile, "errors": len(run.errors),
            "error_samples": run.errors[:5], "p50_ms": round(percentile(run.latencies, 50), 1),
            "p99_ms": round(percentile(run.latencies, 99), 1), "rss_start_mb": round(rss_start),
            "rss_end_mb": round(rss_end), "rss_every_tenth_mb": memory, "rebuilds": len(rebuilds), "rebuilds_failed": sum(c != 0 for c in rebuilds),
            "builds_served": len(run.builds_seen - {""}), "serves_the_latest_build": latest}


def build_storm(args: argparse.Namespace, build_dir: Path) -> dict:
    with serving(build_dir, port=args.port) as (port, _):
        stop, statuses = threading.Event(), []

        def reader() -> None:
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            while not stop.is_set():
                conn.request("GET", "/api/search?q=licita+insufficiente")
                r = conn.getresponse()
                r.read()
                statuses.append(r.status)
        poll = threading.Thread(target=reader)
        poll.start()
        outcomes, incomplete = {"built": 0, "lock held": 0, "failed": 0}, 0
        try:
            for _ in range(args.rounds):
                env = dict(os.environ, KB_BUILD_DIR=str(build_dir))
                procs = [subprocess.Popen([sys.executable, "-m", "kb.cli", "build"], env=env, stdout=subprocess.PIPE,
                                          stderr=subprocess.PIPE, text=True) for _ in range(args.builds)]
                for p in procs:
                    _, err = p.communicate()
                    kind = "built" if p.returncode == 0 else "lock held" if "holds" in err else "failed"
                    outcomes[kind] += 1
                try:
                    current = generations.generation(build_dir)
                    builder.verify(current)
                    incomplete += generations.completed_at(current) is None
                except generations.BuildError:
                    incomplete += 1
        finally:
            stop.set()
            poll.join()
    return {"rounds": args.rounds, "builds_per_round": args.builds, **outcomes,
            "current_incomplete_after_a_round": incomplete, "reads": len(statuses),
            "reads_503": statuses.count(503), "reads_not_200": sum(s != 200 for s in statuses)}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=10)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--idle", type=int, default=200, help="idle sockets held open")
    p.add_argument("--unread", type=int, default=50, help="sockets asking for the search model, never reading it")
    p.add_argument("--port", type=int, help="the server's port (else a free one)")
    p.add_argument("--rebuild-every", type=float, default=60, help="seconds between rebuilds")
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--build-storm", action="store_true")
    p.add_argument("--rounds", type=int, default=10)
    p.add_argument("--builds", type=int, default=6)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="kb-soak-") as tmp:
        build_dir = Path(tmp)
        builder.build(build_dir)
        result = (build_storm if args.build_storm else soak)(args, build_dir)
    print(json.dumps(result, indent=1, ensure_ascii=False))
    bad = result.get("errors", 0) or result.get("rebuilds_failed", 0) or result.get("failed", 0) \
        or result.get("serves_the_latest_build") is False \
        or result.get("reads_not_200", 0) or result.get("current_incomplete_after_a_round", 0)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
