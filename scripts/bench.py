"""Benchmark: build, search quality and latency beside an SQLite FTS5 peer, HTTP under load, pages.

    python scripts/bench.py [--runs N] [--json PATH]

One run, one table: the whole-corpus build (best of N, wall and CPU time); a one-shot `kb search`
and a fresh `kb serve`'s first search answer (wall and CPU time of the process); every judged
query (tests/data/queries*.tsv) searched as its user would — MRR@10 and
recall@10 per kind, in-process latency — and the same queries on an FTS5 peer
built over the same clauses (scripts/fts5_peer.py); HTTP search latency and
throughput against a real `kb serve` on loopback (1 and 2 workers; a fresh server's
first pass, then 1 and 8 clients) and the server's resident memory; the server time
of every page (the app's time from its Server-Timing header: routing, handler and
rendering, not HTTP parsing, hashing or gzip) and the largest page's weight. Prints one
table and writes the numbers as JSON (default test-artifacts/bench.json).
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any, Callable

warnings.filterwarnings("ignore", category=SyntaxWarning)
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # measure/ is not installed

from kb.pipeline import build as builder  # noqa: E402
from kb.pipeline import generations  # noqa: E402
from measure.evaluation import judged_queries, score_query, search_scores, summarize  # noqa: E402
from kb.search.engine import SearchEngine  # noqa: E402
from measure.loadgen import percentile  # noqa: E402


def kb_process(out: Path, *args: str) -> tuple[float, float]:
    """(wall, CPU) seconds of one `kb` command in a process of its own (nothing imported or cached before)."""
    import resource
    import subprocess
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "kb.cli", "--build-dir", str(out), *args], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - t0, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def bench_build(runs: int, out: Path) -> list[tuple[float, float]]:
    return [kb_process(out, "build") for _ in range(runs)]


ONE_SHOT = "il morto ha giocato una carta che il dichiarante non aveva chiamato"


def bench_one_shot(out: Path, runs: int = 3) -> dict[str, float]:
    """`kb search QUERY` as a new process each time, over a current build: best wall and CPU seconds."""
    times = [kb_process(out, "search", ONE_SHOT) for _ in range(runs)]
    return {"wall_s": min(w for w, _ in times), "cpu_s": min(c for _, c in times)}


def bench_first_answer(out: Path, runs: int = 3) -> dict[str, float]:
    """A fresh `kb serve` (one worker) asked one search as soon as it listens: seconds from the
    process's start to that answer (best of `runs`), and the CPU the server spent until then."""
    from urllib.parse import urlencode

    from measure import loadgen
    walls, cpus = [], []
    path = f"/api/search?{urlencode({'q': ONE_SHOT, 'ui': 'it'})}"
    for _ in range(runs):
        t0 = time.perf_counter()
        with loadgen.serving(out, first=path) as (_, pid):
            walls.append(time.perf_counter() - t0)
            cpus.append(loadgen.cpu_seconds(pid))
    return {"wall_s": min(walls), "cpu_s": min(cpus)}


def timed_passes(search: Callable[[Any], Any], repeat: int = 5) -> tuple[list[float], list[float]]:
    """Milliseconds per judged query: the first pass, then `repeat` more passes."""
    def one_pass() -> list[float]:
        times = []
        for q in judged_queries():
            t0 = time.perf_counter()
            search(q)
            times.append((time.perf_counter() - t0) * 1000)
        return times
    first = one_pass()
    return first, [t for _ in range(repeat) for t in one_pass()]


def bench_search(engine: SearchEngine) -> dict[str, float]:
    """Our engine warmed as a server warms it, then its first pass (query words and clause words
    not yet analysed) and five more."""
    engine.warm()
    first, samples = timed_passes(lambda q: engine.search(q.query, ui=q.lang))
    return {"queries": len(first), "p50_ms": percentile(samples, 50), "p95_ms": percentile(samples, 95),
            "max_ms": max(samples), "cold_p50_ms": percentile(first, 50), "cold_p95_ms": percentile(first, 95)}


def bench_pages(build_dir: Path) -> dict[str, Any]:
    """Server time of every unit page, every compare page and the other pages, read from
    the app's Server-Timing header on a real `kb serve` (second visit), and the weight of the
    largest page with its CSS and JS, raw and gzipped."""
    import gzip
    import http.client

    from measure import loadgen
    export = generations.load_export(generations.export_path(build_dir))
    groups = {"unit": [f"/{d['id']}/{u['id']}" for d in export["documents"] for u in d["units"]],
              "compare": [f"/compare/{n}" for n in range(1, 94)],
              "other": ["/", "/clock", "/glossary", "/it-laws", "/es-laws", "/search?q=carta+esposta",
                        "/graph/it-laws/12"]}
    out: dict[str, Any] = {}
    sizes: dict[str, int] = {}
    with loadgen.serving(build_dir) as (port, _):
        conn = http.client.HTTPConnection(loadgen.HOST, port, timeout=30)

        def get(path: str) -> tuple[bytes, float | None]:
            conn.request("GET", path)
            r = conn.getresponse()
            return r.read(), loadgen.server_ms(r)

        for group, paths in groups.items():
            times = []
            for path in paths:
                get(path)  # first visit: templates and caches warm up
                body, took = get(path)
                sizes[path] = len(body)
                if took is None:
                    raise RuntimeError(f"{path}: no Server-Timing header")
                times.append(took)
            out[group] = {"pages": len(paths), "p50_ms": percentile(times, 50), "p95_ms": percentile(times, 95),
                          "max_ms": max(times), "slowest": paths[times.index(max(times))]}
        largest = max(sizes, key=sizes.get)
        html = get(largest)[0]
        assets = [get(a)[0] for a in ("/static/style.css", "/static/app.js")]
    out["largest_page"] = largest
    out["page_kb"] = (len(html) + sum(map(len, assets))) / 1024
    out["page_gzip_kb"] = sum(len(gzip.compress(b)) for b in [html, *assets]) / 1024
    return out


def bench_peer(export: dict) -> dict[str, float]:
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from fts5_peer import Fts5Peer, evaluate
    t0 = time.perf_counter()
    peer = Fts5Peer(export)
    built = time.perf_counter() - t0
    quality, _ = evaluate(peer)
    first, samples = timed_passes(lambda q: peer.search(q.query))  # timed as ours is
    return {"build_s": built, "mrr": quality["all"]["mrr"], "recall": quality["all"]["recall"],
            "p50_ms": percentile(samples, 50), "p95_ms": percentile(samples, 95),
            "cold_p50_ms": percentile(first, 50), "cold_p95_ms": percentile(first, 95)}


def recall_hits_only(engine: SearchEngine) -> float:
    """Recall@10 counting only the hits themselves (as the peer is counted)."""
    scores = [score_query(q, [(h.doc, h.unit) for h in engine.search(q.query, ui=q.lang).hits])
              for q in judged_queries()]
    return sum(s.recall for s in scores) / len(scores)


def bench_http(build_dir: Path, workers: int) -> dict[str, float]:
    """Search over HTTP on loopback against a fresh `kb serve --workers N`: every judged query
    once as the server's first queries, then (after a warm-up) 1 client and 8 clients, each
    through the whole set twice."""
    from urllib.parse import urlencode

    from measure import loadgen
    paths = [f"/api/search?{urlencode({'q': q.query, 'ui': q.lang or ''})}" for q in judged_queries()]
    out: dict[str, float] = {}
    with loadgen.serving(build_dir, workers=workers) as (port, pid):
        runs = {"cold": loadgen.run(port, paths, clients=1, requests_per_client=len(paths)),
                # warm-up, not reported but for its errors: every worker sees every query
                "warm": loadgen.run(port, paths, clients=8, requests_per_client=2 * len(paths))}
        for clients in (1, 8):
            runs[f"c{clients}"] = loadgen.run(port, paths, clients=clients, requests_per_client=2 * len(paths))
        for name, r in runs.items():
            out |= {f"{name}_p50_ms": r.percentile(50), f"{name}_p95_ms": r.percentile(95),
                    f"{name}_p99_ms": r.percentile(99), f"{name}_rps": r.throughput, f"{name}_errors": len(r.errors),
                    f"{name}_server_p50_ms": r.percentile(50, server=True)}
        out["rss_mb"] = loadgen.resident_mb(pid)
    return out


def table(rows: list[tuple[str, str, str, str]]) -> str:
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def ms(*values: float) -> str:
    return " / ".join(f"{v:.1f}" for v in values) + " ms"


def report(build: list[tuple[float, float]], one_shot: dict, first: dict, latency: dict, peer: dict, quality: dict,
           hits_recall: float, http: dict[int, dict], pages: dict) -> str:
    one, two = http[1], http[2]
    wall, cpu = min(w for w, _ in build), min(c for _, c in build)
    rows = [("measure", "ours", "FTS5 peer", "target"),
            (f"build, whole corpus (best of {len(build)}): wall / CPU", f"{wall:.2f} / {cpu:.2f} s",
             f"{peer['build_s']:.2f} s (index only)", "CPU ≤ 5 s"),
            ("`kb search QUERY`, one shot: wall / CPU", f"{one_shot['wall_s']:.2f} / {one_shot['cpu_s']:.2f} s", "",
             "wall ≤ 1.5 s"),
            ("fresh `kb serve`, first search answer: wall / CPU", f"{first['wall_s']:.2f} / {first['cpu_s']:.2f} s", "",
             "wall ≤ 1.5 s"),
            (f"search MRR@10, {latency['queries']} judged queries", f"{quality['all']['mrr']:.3f}",
             f"{peer['mrr']:.3f}", "ahead of the peer"),
            ("search recall@10 (hits only)", f"{quality['all']['recall']:.3f} ({hits_recall:.3f})",
             f"{peer['recall']:.3f}", "ahead of the peer"),
            ("in-process search p50 / p95", ms(latency["p50_ms"], latency["p95_ms"]), ms(peer["p50_ms"], peer["p95_ms"]),
             f"same class (p95 ratio {latency['p95_ms'] / peer['p95_ms']:.2f}x)"),
            ("in-process search, first pass p50 / p95", ms(latency["cold_p50_ms"], latency["cold_p95_ms"]),
             ms(peer["cold_p50_ms"], peer["cold_p95_ms"]), "")]
    for workers, h in ((1, one), (2, two)):
        label = f"{workers} worker{'s' if workers > 1 else ''}"
        rows += [(f"HTTP search, fresh server, 1 client, {label}: p50 / p95",
                  ms(h["cold_p50_ms"], h["cold_p95_ms"]), "", ""),
                 (f"HTTP search, 1 client, {label}: p50 / p95 / p99",
                  ms(h["c1_p50_ms"], h["c1_p95_ms"], h["c1_p99_ms"]) + f", {h['c1_rps']:.0f} req/s", "", ""),
                 (f"HTTP search, 8 clients, {label}: p50 / p95 / p99",
                  ms(h["c8_p50_ms"], h["c8_p95_ms"], h["c8_p99_ms"]) + f", {h['c8_rps']:.0f} req/s", "",
                  "p95 < 25 ms"),
                 (f"HTTP errors, {label}, all runs", f"{sum(h[f'{r}_errors'] for r in ('cold', 'warm', 'c1', 'c8')):.0f}",
                  "", "0"),
                 (f"server resident memory, {label}", f"{h['rss_mb']:.0f} MB", "", "")]
    for group in ("unit", "compare", "other"):
        g = pages[group]
        rows.append((f"page app time (Server-Timing), {g['pages']} {group} pages: p50 / p95 / max",
                     ms(g["p50_ms"], g["p95_ms"], g["max_ms"]) + f" ({g['slowest']})", "", "< 10 ms"))
    rows.append((f"largest page {pages['largest_page']} with CSS + JS", f"{pages['page_kb']:.0f} KB raw, "
                 f"{pages['page_gzip_kb']:.0f} KB gzipped", "", ""))
    kinds = [("kind", "n", "MRR@10", "recall@10")] + [
        (kind, str(s["n"]), f"{s['mrr']:.3f}", f"{s['recall']:.3f}")
        for kind, s in sorted(quality.items(), key=lambda kv: (kv[0] != "all", kv[0]))]
    return table(rows) + "\n\n" + table(kinds)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3, help="builds to time (best and median reported)")
    ap.add_argument("--json", type=Path, default=Path("test-artifacts/bench.json"), help="the numbers, as JSON")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        out = Path(d)
        build = bench_build(args.runs, out)
        one_shot, first = bench_one_shot(out), bench_first_answer(out)
        gen = generations.generation(out)
        latency = bench_search(SearchEngine.open(gen))
        engine = SearchEngine.open(gen)
        quality = summarize(search_scores(engine, judged_queries()))
        hits_recall = recall_hits_only(engine)
        peer = bench_peer(generations.load_export(generations.export_path(out)))
        http = {workers: bench_http(out, workers) for workers in (1, 2)}
        pages = bench_pages(out)
    print(report(build, one_shot, first, latency, peer, quality, hits_recall, http, pages))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"build_s": build, "one_shot": one_shot, "first_answer": first, "latency": latency,
                                     "pages": pages, "quality": quality, "recall_hits_only": hits_recall, "fts5": peer,
                                     "http": http}, indent=1))
    print(f"\nnumbers written to {args.json}")


if __name__ == "__main__":
    main()
