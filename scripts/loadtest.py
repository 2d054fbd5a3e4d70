"""Load test on loopback: N clients for T seconds mixing search, unit and compare pages.

    python scripts/loadtest.py [--clients 8] [--seconds 30] [--searches]

Starts `kb serve` on a free 127.0.0.1 port over the current build, reports errors
(there must be none), latency p50/p99 and throughput, and stops by itself.
"""
from __future__ import annotations

import argparse
import random
import sys
import warnings
from pathlib import Path
from urllib.parse import urlencode

warnings.filterwarnings("ignore", category=SyntaxWarning)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # measure/ is not installed

from kb.pipeline import build as builder  # noqa: E402
from kb.pipeline import generations  # noqa: E402
from measure.evaluation import judged_queries  # noqa: E402
from measure import loadgen  # noqa: E402


def mixed_paths(seed: int = 7) -> list[str]:
    """Searches, unit pages and compare pages, shuffled the same way every run."""
    export = generations.load_export(builder.ensure_build())
    searches = [f"/api/search?{urlencode({'q': q.query})}" for q in judged_queries()]
    pages = [f"/search?{urlencode({'q': q.query})}" for q in judged_queries()[:30]]
    units = [f"/{d['id']}/{u['id']}" for d in export["documents"] for u in d["units"]]
    compares = [f"/compare/{n}" for n in range(1, 94)]
    paths = searches + pages + units + compares
    random.Random(seed).shuffle(paths)
    return paths


def search_paths(seed: int = 7) -> list[str]:
    """Every judged query (the gated sets and the blind ones, situations told in sentences
    among them) as the search API is asked it, in its user's language."""
    sets = [judged_queries(), *(judged_queries(d) for d in sorted((JUDGED).glob("*/")))]
    paths = [f"/api/search?{urlencode({'q': q.query, **({'ui': q.lang} if q.lang else {})})}"
             for qs in sets for q in qs]
    random.Random(seed).shuffle(paths)
    return paths


JUDGED = Path(__file__).resolve().parent.parent / "measure" / "judged"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--searches", action="store_true", help="only searches: every judged query")
    args = ap.parse_args()
    paths = search_paths() if args.searches else mixed_paths()
    with loadgen.serving(generations.default_build_dir()) as (port, pid):
        r = loadgen.run(port, paths, clients=args.clients, seconds=args.seconds)
        rss = loadgen.resident_mb(pid)
    print(f"{args.clients} clients × {args.seconds:.0f} s: {len(r.latencies_ms)} ok, {len(r.errors)} errors, "
          f"p50 {r.percentile(50):.1f} ms, p95 {r.percentile(95):.1f} ms, p99 {r.percentile(99):.1f} ms, {r.throughput:.0f} req/s, "
          f"server {rss:.0f} MB")
    if r.errors:
        raise SystemExit(f"errors: {r.errors[:5]}")


if __name__ == "__main__":
    main()
