"""Bounded load on loopback: a real `kb serve` and N keep-alive clients, for the bench and tests.

Only 127.0.0.1 is ever addressed; every run stops by itself after its time or
request budget.
"""
from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

HOST = "127.0.0.1"


def free_port() -> int:
    """A free loopback port: any, or the first free one of $KB_TEST_PORTS (`8820-8829`) on a
    machine whose ports are shared out."""
    low, _, high = os.environ.get("KB_TEST_PORTS", "").partition("-")
    for port in range(int(low), int(high or low) + 1) if low else [0]:
        with socket.socket() as s:
            try:
                s.bind((HOST, port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise RuntimeError(f"no free port in KB_TEST_PORTS={low}-{high}")


@contextmanager
def serving(build_dir: Path, startup_s: float = 60, workers: int = 1, first: str = "/api/docs",
            port: int | None = None) -> Iterator[tuple[int, int]]:
    """`kb serve` on `port` (else a free loopback port), once `first` answers 200; yields (port,
    server pid); stopped on exit."""
    port = port or free_port()
    env = dict(os.environ, KB_BUILD_DIR=str(build_dir))
    proc = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve", "--host", HOST, "--port", str(port),
                             "--workers", str(workers)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + startup_s
        while True:
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=2)
                conn.request("GET", first)
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("kb serve did not start")
            time.sleep(0.2)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process and its children have spent, from Linux /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for p in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def children(pid: int) -> list[int]:
    """A process's direct children (the workers), from each of its threads' lists in Linux /proc."""
    try:
        return [int(c) for task in os.listdir(f"/proc/{pid}/task")
                for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    except OSError:
        return []


def resident_mb(pid: int) -> float:
    """Resident memory of a process and its children (the workers), from Linux /proc, in MB."""
    total = 0.0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total + sum(resident_mb(child) for child in children(pid))


def server_ms(response: http.client.HTTPResponse) -> float | None:
    """The app's own time for a response, from its `Server-Timing: app;dur=…` header."""
    timing = response.getheader("server-timing") or ""
    _, _, dur = timing.partition("dur=")
    try:
        return float(dur)
    except ValueError:
        return None


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


@dataclass
class LoadResult:
    latencies_ms: list[float] = field(default_factory=list)
    server_ms: list[float] = field(default_factory=list)  # the app's own time, from Server-Timing
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def percentile(self, p: float, server: bool = False) -> float:
        return percentile(self.server_ms if server else self.latencies_ms, p)

    @property
    def throughput(self) -> float:
        return len(self.latencies_ms) / self.seconds if self.seconds else 0.0


def run(port: int, paths: list[str], clients: int, seconds: float | None = None,
        requests_per_client: int | None = None) -> LoadResult:
    """`clients` threads, each on its own keep-alive connection, cycling through `paths`
    until the time or request budget runs out."""
    result = LoadResult()
    lock = threading.Lock()
    start = time.monotonic()
    stop_at = start + seconds if seconds else None

    def client(offset: int) -> None:
        conn = http.client.HTTPConnection(HOST, port, timeout=30)
        n = 0
        while (stop_at is None or time.monotonic() < stop_at) and (requests_per_client is None or n < requests_per_client):
            path = paths[(offset + n) % len(paths)]
            t0 = time.perf_counter()
            try:
                conn.request("GET", path)
                r = conn.getresponse()
                r.read()
                ok = r.status == 200
                took = server_ms(r)
            except (OSError, http.client.HTTPException) as e:
                ok = False
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=30)
                path = f"{path} ({e!r})"
            ms = (time.perf_counter() - t0) * 1000
            with lock:
                if ok:
                    result.latencies_ms.append(ms)
                    if took is not None:
                        result.server_ms.append(took)
                else:
                    result.errors.append(path)
            n += 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i * 7,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    result.seconds = time.monotonic() - start
    return result
