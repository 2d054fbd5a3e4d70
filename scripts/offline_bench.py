"""Benchmark: the browser's own search, as a phone without a network runs it.

    PYTHONPATH=. python scripts/offline_bench.py [--throttle 4]

Against a real `kb serve` on loopback, Debian's Chromium (Playwright) loads the search page,
slows its CPU by --throttle (Chrome DevTools' CPU throttling: 4× is a mid-range phone), then
times loading the search model (fetch included; then, the data in hand, until the engine is ready
and until its first answer) and every judged query of every set, and scores them beside the
server's own search of the same queries: MRR@10 and success@1 per set, the offline share of the
online MRR, query median and p95 in milliseconds, the model's gzipped size.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure/ is not installed

from kb.pipeline import build as builder  # noqa: E402
from kb.search.model import MODEL_NAME  # noqa: E402
from kb.readmodel.knowledge import KnowledgeBase  # noqa: E402
from measure.evaluation import judged_queries, search_scores  # noqa: E402
from measure.loadgen import HOST, percentile, serving  # noqa: E402
from measure.offline import browser_scores, load_time, mrr, ready_time  # noqa: E402
from scripts.judged import SETS  # noqa: E402
from web.pages.render import SEARCH_DATA  # noqa: E402

CHROMIUM = "/usr/bin/chromium"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--throttle", type=float, default=4.0)
    args = ap.parse_args()
    gen = builder.ensure_build().parent
    engine = KnowledgeBase(gen).engine
    print(f"search model: {(gen / (MODEL_NAME + '.gz')).stat().st_size / 1e6:.2f} MB gzipped, "
          f"{(gen / MODEL_NAME).stat().st_size / 1e6:.2f} MB as read")
    from playwright.sync_api import sync_playwright
    with serving(gen.parent) as (port, _), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(f"http://{HOST}:{port}/search")
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": args.throttle})
        loads = [load_time(page, SEARCH_DATA) for _ in range(3)]
        ready = [ready_time(page, SEARCH_DATA) for _ in range(5)]
        print(f"CPU throttled {args.throttle:g}×: fetch and open the model, median of 3: {statistics.median(loads):.0f} ms")
        print(f"  the data in hand → engine ready, median of 5: {statistics.median(r for r, _ in ready):.0f} ms; "
              f"→ first answer: {statistics.median(f for _, f in ready):.0f} ms")
        print(f"\n  {'set':22} {'n':>4} {'online':>7} {'offline':>8} {'share':>6} {'s@1 on/off':>11} {'median ms':>10} {'p95 ms':>7}")
        times = []
        for name, folder in SETS:
            queries = judged_queries(folder)
            online = search_scores(engine, queries)
            offline, ms = browser_scores(page, queries, SEARCH_DATA)
            times += ms
            s1 = lambda xs: sum(x.rr == 1 for x in xs) / len(xs)  # noqa: E731
            print(f"  {name:22} {len(queries):4} {mrr(online):7.3f} {mrr(offline):8.3f} {mrr(offline) / mrr(online):6.2f} "
                  f"{s1(online):5.2f}/{s1(offline):4.2f} {statistics.median(ms):10.1f} {percentile(ms, 95):7.1f}")
        print(f"\n  all queries: median {statistics.median(times):.1f} ms, p95 {percentile(times, 95):.1f} ms, "
              f"max {max(times):.1f} ms")
        browser.close()


if __name__ == "__main__":
    main()
