"""Benchmark: build time of the whole corpus (best and median of N runs).

    python scripts/bench.py [--runs N]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from kb import build as builder


def bench_build(runs: int) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as d:
        for _ in range(runs):
            t0 = time.perf_counter()
            builder.build(Path(d))
            times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    t = bench_build(args.runs)
    print(f"build (5 documents, parse + export): best {min(t):.3f} s, "
          f"median {statistics.median(t):.3f} s over {len(t)} runs")


if __name__ == "__main__":
    main()
