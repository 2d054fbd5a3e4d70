"""Benchmark: build, search quality and latency beside an SQLite FTS5 peer, HTTP under load, pages.

    python scripts/bench.py [--runs N] [--json PATH]

One run, one table: the whole-corpus build (best and median of N); every judged
query (tests/data/queries*.tsv) searched as its user would — MRR@10 and
recall@10 per kind, in-process latency — and the same queries on an FTS5 peer
built over the same clauses (scripts/fts5_peer.py); HTTP search latency and
throughput against a real `kb serve` on loopback with 1 and 8 clients, and the
server's resident memory; page server time and weight.
"""
from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore", category=SyntaxWarning)
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")

from kb import build as builder  # noqa: E402
from kb.evaluation import judged_queries, score_query, search_scores, summarize  # noqa: E402
from kb.search.engine import SearchEngine  # noqa: E402
from kb.store import Store  # noqa: E402


def bench_build(runs: int, out: Path) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        builder.build(out)
        times.append(time.perf_counter() - t0)
    return times


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def bench_search(engine: SearchEngine, repeat: int = 5) -> dict[str, float]:
    """First pass on a fresh engine (cold caches), then `repeat` warm passes."""
    queries = judged_queries()
    cold = []
    for q in queries:
        t0 = time.perf_counter()
        engine.search(q.query, ui=q.lang)
        cold.append((time.perf_counter() - t0) * 1000)
    samples = []
    for _ in range(repeat):
        for q in queries:
            t0 = time.perf_counter()
            engine.search(q.query, ui=q.lang)
            samples.append((time.perf_counter() - t0) * 1000)
    return {"queries": len(queries), "p50_ms": percentile(samples, 50), "p95_ms": percentile(samples, 95),
            "max_ms": max(samples), "cold_p50_ms": percentile(cold, 50), "cold_p95_ms": percentile(cold, 95)}


def bench_pages(build_dir: Path, repeat: int = 30) -> dict[str, float]:
    """Server time (in-process, no network) of the largest unit page and /compare/12, and the
    weight of the largest page with its CSS and JS, raw and gzipped."""
    import gzip

    from fastapi.testclient import TestClient

    from web.app import create_app
    client = TestClient(create_app(build_dir))
    export = builder.load_export(builder.export_path(build_dir))
    paths = [f"/{d['id']}/{u['id']}" for d in export["documents"] for u in d["units"]]
    sizes = {p: len(client.get(p).content) for p in paths}
    largest_unit = max(sizes, key=sizes.get)
    pages = {p: len(client.get(p).content) for p in ("/", "/clock", "/glossary", "/compare/12", "/it-laws")}
    pages.update(sizes)
    largest = max(pages, key=pages.get)
    assets = sum(len(client.get(a).content) for a in ("/static/style.css", "/static/app.js"))
    html = client.get(largest).content
    out: dict[str, float] = {"largest_unit": largest_unit, "largest_page": largest,
                             "page_kb": (len(html) + assets) / 1024,
                             "page_gzip_kb": (len(gzip.compress(html)) + assets // 3) / 1024}
    for name, path in (("unit", largest_unit), ("compare", "/compare/12")):
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            client.get(path)
            times.append((time.perf_counter() - t0) * 1000)
        out[f"{name}_p50_ms"] = percentile(times, 50)
    return out


def bench_peer(export: dict) -> dict[str, float]:
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fts5_peer import Fts5Peer, evaluate
    t0 = time.perf_counter()
    peer = Fts5Peer(export)
    built = time.perf_counter() - t0
    quality, times = evaluate(peer)
    return {"build_s": built, "mrr": quality["all"]["mrr"], "recall": quality["all"]["recall"],
            "p50_ms": percentile(times, 50), "p95_ms": percentile(times, 95)}


def recall_hits_only(engine: SearchEngine) -> float:
    """Recall@10 counting only the hits themselves (as the peer is counted)."""
    scores = [score_query(q, [(h.doc, h.unit) for h in engine.search(q.query, ui=q.lang).hits])
              for q in judged_queries()]
    return sum(s.recall for s in scores) / len(scores)


def bench_http(build_dir: Path) -> dict[str, float]:
    """Search over HTTP on loopback: 1 client through the judged queries, then 8 at once."""
    from urllib.parse import urlencode

    from web import loadgen
    paths = [f"/api/search?{urlencode({'q': q.query, 'ui': q.lang or ''})}" for q in judged_queries()]
    out: dict[str, float] = {}
    with loadgen.serving(build_dir) as (port, pid):
        loadgen.run(port, paths, clients=1, requests_per_client=len(paths))  # warm the caches
        for clients in (1, 8):
            r = loadgen.run(port, paths, clients=clients, requests_per_client=len(paths))
            out[f"c{clients}_p50_ms"], out[f"c{clients}_p95_ms"] = r.percentile(50), r.percentile(95)
            out[f"c{clients}_p99_ms"], out[f"c{clients}_rps"] = r.percentile(99), r.throughput
            out[f"c{clients}_errors"] = len(r.errors)
        out["rss_mb"] = loadgen.resident_mb(pid)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", type=Path, help="also write the numbers here")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = Path(d)
        build = bench_build(args.runs, out)
        store = Store(builder.load_export(builder.export_path(out)))
        gen = builder.generation(out)
        latency = bench_search(SearchEngine.open(gen, store))
        pages = bench_pages(out)
        engine = SearchEngine.open(gen, store)
        quality = summarize(search_scores(engine, judged_queries()))
        hits_recall = recall_hits_only(engine)
        peer = bench_peer(store.export)
        http = bench_http(out)
    print(f"build (parse, citations, index): best {min(build):.2f} s, median {statistics.median(build):.2f} s "
          f"over {len(build)} runs")
    print(f"search latency in-process over {latency['queries']} judged queries: p50 {latency['p50_ms']:.1f} ms, "
          f"p95 {latency['p95_ms']:.1f} ms, max {latency['max_ms']:.1f} ms; first time (cold caches): "
          f"p50 {latency['cold_p50_ms']:.1f} ms, p95 {latency['cold_p95_ms']:.1f} ms")
    print(f"pages, server time in-process: largest unit page {pages['largest_unit']} p50 {pages['unit_p50_ms']:.1f} ms, "
          f"/compare/12 p50 {pages['compare_p50_ms']:.1f} ms; largest page {pages['largest_page']} with CSS+JS "
          f"{pages['page_kb']:.0f} KB raw, about {pages['page_gzip_kb']:.0f} KB gzipped")
    print(f"search quality, ours vs SQLite FTS5 peer: MRR@10 {quality['all']['mrr']:.3f} vs {peer['mrr']:.3f}; "
          f"recall@10 {quality['all']['recall']:.3f} (hits only {hits_recall:.3f}) vs {peer['recall']:.3f}")
    print(f"search latency in-process, ours vs FTS5: p50 {latency['p50_ms']:.1f} vs {peer['p50_ms']:.1f} ms, "
          f"p95 {latency['p95_ms']:.1f} vs {peer['p95_ms']:.1f} ms (ratio p95 {latency['p95_ms'] / peer['p95_ms']:.1f}x)")
    for c in (1, 8):
        print(f"HTTP search, {c} client(s) on loopback: p50 {http[f'c{c}_p50_ms']:.1f} ms, "
              f"p95 {http[f'c{c}_p95_ms']:.1f} ms, p99 {http[f'c{c}_p99_ms']:.1f} ms, "
              f"{http[f'c{c}_rps']:.0f} req/s, {http[f'c{c}_errors']:.0f} errors")
    print(f"server resident memory after the runs: {http['rss_mb']:.0f} MB")
    print(f"{'kind':15} {'n':>4} {'MRR@10':>7} {'recall@10':>9}")
    for kind, s in sorted(quality.items(), key=lambda kv: (kv[0] != "all", kv[0])):
        print(f"{kind:15} {s['n']:4} {s['mrr']:7.3f} {s['recall']:9.3f}")
    if args.json:
        args.json.write_text(json.dumps({"build_s": build, "latency": latency, "pages": pages, "quality": quality,
                                         "recall_hits_only": hits_recall, "fts5": peer, "http": http}, indent=1))


if __name__ == "__main__":
    main()
