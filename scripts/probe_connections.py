"""What one client can cost the others (issue 30): three probes, each on a real `kb serve` of its own.

    python scripts/probe_connections.py                      # all three, on a fresh build, port 8811
    python scripts/probe_connections.py --only costly --port 8812

unread   600 clients ask for the search model uncompressed (no Accept-Encoding) and never read
         it, in 3 rounds of 200 (200 a second) held open: the server's resident memory and the
         kernel's TCP buffers after each round and once the write deadline has passed, the
         connections the server dropped, a bystander's search meanwhile.
costly   100 clients ask for it uncompressed at once and read it whole, 5 times: a
         bystander's search meanwhile.
headers  16 clients each send a header that never ends, as fast as the server takes it, and
         again each time it is cut, for 12 s: the bytes a connection got accepted, how soon it
         was stopped and what it was answered, the server's memory, a bystander's search.

The bystander asks `/api/search` on a fresh connection every 20 ms; its median, 95th
percentile and worst latency are printed. The crowds run niced in processes of their own: on
a machine of two cores, what the bystander waits for is then the server, not the clients
(the worst of a few hundred asks still measures the machine's other work).

Prints one JSON object; exits 1 when a figure is past its bound (the server's memory under
400 MB, a bystander's p95 under 100 ms, each endless header stopped within 1 MB).
"""
from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # measure/ is not installed

from kb.pipeline import build as builder  # noqa: E402
from measure.hostile import MODEL, ask_unread, closed_by_server, endless_headers, fetch_all  # noqa: E402
from measure.loadgen import HOST, percentile, resident_mb, serving  # noqa: E402

BYSTANDER = "/api/search?q=licita+insufficiente"
MAX_RSS_MB, MAX_BYSTANDER_MS, MAX_HEADER_BYTES = 400, 100, 1 << 20
PAST_DEADLINES_S = 15  # past the write deadline (10 s): what the server still holds then
ARRIVALS_S = 0.005     # between two unread clients: 200 a second (200 requests of any kind at once
                       # keep one worker busy for about 0.2 s, whatever they ask)


class Sampler:
    """Calls `sample` every `every` seconds in a thread of its own, while in a `with`."""

    every = 0.1

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()

    def _run(self) -> None:
        while not self.stop.wait(self.every):
            self.sample()

    def sample(self) -> None:
        raise NotImplementedError


class Bystander(Sampler):
    """A reader who asks one search every 20 ms on a fresh connection while a probe runs."""

    every = 0.02

    def __init__(self, port: int):
        super().__init__()
        self.port, self.ms, self.failed = port, [], []

    def sample(self) -> None:
        started = time.perf_counter()
        try:
            conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
            conn.request("GET", BYSTANDER)
            r = conn.getresponse()
            r.read()
            conn.close()
            status = r.status
        except (OSError, http.client.HTTPException) as e:
            status = type(e).__name__
        if status == 200:
            self.ms.append((time.perf_counter() - started) * 1000)
        else:
            self.failed.append(status)

    def figures(self) -> dict:
        return {"bystander_p50_ms": round(percentile(self.ms, 50), 1), "bystander_p95_ms": round(percentile(self.ms, 95), 1),
                "bystander_max_ms": round(max(self.ms, default=0), 1), "bystander_asked": len(self.ms) + len(self.failed),
                "bystander_failed": self.failed[:5] + ([f"… {len(self.failed)}"] if len(self.failed) > 5 else [])}


def kernel_tcp_mb() -> float:
    """The memory the kernel holds in TCP buffers, machine-wide (Linux), the probe's own sockets
    included: a reply the server has handed to its socket but no client has read lives there,
    out of the server's RSS."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1]) * 4096 / 1e6
    return 0.0


class Memory(Sampler):
    """The server's resident memory and the kernel's TCP buffers, every 100 ms: the highest of each."""

    def __init__(self, pid: int):
        super().__init__()
        self.pid, self.top, self.tcp_top = pid, resident_mb(pid), kernel_tcp_mb()

    def sample(self) -> None:
        self.top = max(self.top, resident_mb(self.pid))
        self.tcp_top = max(self.tcp_top, kernel_tcp_mb())


def unread(port: int, pid: int, rounds: int = 3, per_round: int = 200) -> dict:
    held, after_round = [], []
    start = round(resident_mb(pid))
    with Bystander(port) as b, Memory(pid) as m:
        for _ in range(rounds):
            for _ in range(per_round):
                held.append(ask_unread(port))
                time.sleep(ARRIVALS_S)
            time.sleep(1)
            after_round.append(round(resident_mb(pid)))
        time.sleep(PAST_DEADLINES_S)
        later, tcp_later = round(resident_mb(pid)), kernel_tcp_mb()
    dropped = sum(closed_by_server(s) for s in held)
    for s in held:
        s.close()
    return {"clients": len(held), "rss_start_mb": start, "rss_after_each_round_mb": after_round,
            "rss_max_mb": round(m.top), f"rss_{PAST_DEADLINES_S}s_later_mb": later,
            "kernel_tcp_max_mb": round(m.tcp_top), f"kernel_tcp_{PAST_DEADLINES_S}s_later_mb": round(tcp_later),
            "dropped_by_server": dropped, **b.figures()}


def costly(port: int, pid: int, clients: int = 100, rounds: int = 5) -> dict:
    with multiprocessing.Pool(1, os.nice, (10,)) as pool, Bystander(port) as b, Memory(pid) as m:
        crowds = []
        for _ in range(rounds):
            time.sleep(0.3)
            crowds.append(pool.apply(fetch_all, (port, clients, MODEL)))
    return {"clients": clients, "rounds": rounds, "answered": [c["answered"] for c in crowds],
            "seconds_each": [c["seconds"] for c in crowds], "mb_each": crowds[0]["mb_each"],
            "rss_max_mb": round(m.top), **b.figures()}


def headers(port: int, pid: int, clients: int = 16, seconds: float = 12) -> dict:
    start = round(resident_mb(pid))
    with multiprocessing.Pool(clients, os.nice, (10,)) as pool, Bystander(port) as b, Memory(pid) as m:
        streams = [s for each in pool.starmap(endless_headers, [(port, seconds)] * clients) for s in each]
    return {"clients": clients, "seconds": seconds, "connections": len(streams),
            "bytes_accepted_max": max(s["bytes"] for s in streams),
            "stopped_after_s_max": max(s["seconds"] for s in streams),
            "answers": sorted({s["status"] for s in streams}), "ended": sorted({s["ended"] for s in streams}),
            "rss_start_mb": start, "rss_max_mb": round(m.top), **b.figures()}


PROBES = {"unread": unread, "costly": costly, "headers": headers}


def past_bounds(name: str, figures: dict) -> list[str]:
    bad = []
    if figures.get("rss_max_mb", 0) >= MAX_RSS_MB:
        bad.append(f"{name}: the server held {figures['rss_max_mb']} MB")
    if figures["bystander_p95_ms"] >= MAX_BYSTANDER_MS or figures["bystander_failed"]:
        bad.append(f"{name}: a bystander waited {figures['bystander_p95_ms']} ms (p95) or failed")
    if figures.get("bytes_accepted_max", 0) >= MAX_HEADER_BYTES:
        bad.append(f"{name}: a header stream got {figures['bytes_accepted_max']} bytes in")
    return bad


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--port", type=int, default=8811)
    p.add_argument("--only", choices=sorted(PROBES), action="append", help="run only this probe (repeatable)")
    args = p.parse_args()
    results, bad = {}, []
    with tempfile.TemporaryDirectory(prefix="kb-probe-") as tmp:
        builder.build(Path(tmp))
        for name in args.only or list(PROBES):
            with serving(Path(tmp), port=args.port) as (port, pid):
                results[name] = PROBES[name](port, pid)
            bad += past_bounds(name, results[name])
    print(json.dumps({**results, "past_bounds": bad}, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
