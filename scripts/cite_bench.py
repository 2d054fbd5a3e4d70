"""What a citation check of a long text costs: the reply's bytes and time, six at once with a
bystander searching, and the same text through the MCP server.

    KB_TEST_PORTS=9250-9299 python scripts/cite_bench.py [--copies 2857]

The text is "Law 40 " repeated (20 000 characters at 2857 copies: the longest text checked, each
word a citation of one Law). Starts `kb serve` on a free 127.0.0.1 port over the current build and
stops it by itself.
"""
from __future__ import annotations

import argparse
import http.client
import json
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # measure/ is not installed

from kb.pipeline import generations  # noqa: E402
from measure import loadgen  # noqa: E402

BYSTANDER = "/api/search?" + urlencode({"q": "licita insufficiente"})


def post(port: int, text: str) -> tuple[int, int, float]:
    """(status, bytes, seconds) of one POST /api/cite."""
    body = json.dumps({"text": text}).encode()
    conn = http.client.HTTPConnection(loadgen.HOST, port, timeout=120)
    start = time.perf_counter()
    conn.request("POST", "/api/cite", body=body, headers={"content-type": "application/json"})
    r = conn.getresponse()
    data = r.read()
    return r.status, len(data), time.perf_counter() - start


def searched(port: int, stop: threading.Event, times: list[float]) -> None:
    """A bystander's searches, one after another, until `stop`."""
    conn = http.client.HTTPConnection(loadgen.HOST, port, timeout=120)
    while not stop.is_set():
        start = time.perf_counter()
        conn.request("GET", BYSTANDER)
        conn.getresponse().read()
        times.append(time.perf_counter() - start)


def six_at_once(port: int, text: str) -> tuple[list[float], list[float]]:
    """The seconds each of six concurrent checks took, and a bystander's searches meanwhile."""
    checks: list[float] = []
    searches: list[float] = []
    stop = threading.Event()
    bystander = threading.Thread(target=searched, args=(port, stop, searches))
    workers = [threading.Thread(target=lambda: checks.append(post(port, text)[2])) for _ in range(6)]
    bystander.start()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    stop.set()
    bystander.join()
    return checks, searches


def mcp_check(build_dir: Path, text: str) -> tuple[int, float]:
    """(bytes of the structured content, seconds) of the MCP `cite` tool, in process."""
    import anyio
    from mcp import Client

    from kb.assistant import server

    mcp = server(build_dir)

    async def go():
        async with Client(mcp) as client:
            start = time.perf_counter()
            r = await client.call_tool("cite", {"text": text})
            return r, time.perf_counter() - start

    r, seconds = anyio.run(go)
    return len(json.dumps(r.structured_content, ensure_ascii=False).encode()), seconds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=2857)
    args = ap.parse_args()
    text = "Law 40 " * args.copies
    build_dir = generations.default_build_dir()
    with loadgen.serving(build_dir) as (port, _pid):
        post(port, "Law 40")  # warm
        status, size, seconds = post(port, text)
        print(f"one check of {len(text)} characters: {status}, {size / 1e6:.2f} MB in {seconds:.2f} s")
        checks, searches = six_at_once(port, text)
        print(f"six at once: each {min(checks):.2f}-{max(checks):.2f} s; a bystander's {len(searches)} searches "
              f"meanwhile: worst {max(searches):.2f} s, median {sorted(searches)[len(searches) // 2]:.3f} s")
    size, seconds = mcp_check(build_dir, text)
    print(f"MCP cite: {size / 1e6:.2f} MB of structured content in {seconds:.2f} s")


if __name__ == "__main__":
    main()
