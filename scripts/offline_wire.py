"""What becoming offline-ready costs a phone: bytes and requests, from `kb serve` and from the
static copy behind a compressing static host, measured in Chromium.

    PYTHONPATH=. python scripts/offline_wire.py [--lang it] [--copy DIR]

Builds if needed, writes the static copy (`kb site`, into a temporary folder unless --copy names
one already written), serves the build with `kb serve` and the copy under /pub/kb/ with
measure.static_host (it sends each file's .br or .gz as nginx's brotli_static/gzip_static do),
then opens each in a fresh Chromium context and sums what the page and its worker received until
the page says the site is kept offline (measure.wire); then the copy once more behind `python -m
http.server`, which compresses nothing. Also prints the copy's size on disk.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # measure/ is not installed

from kb.pipeline import build as builder  # noqa: E402
from measure.loadgen import HOST, free_port, serving  # noqa: E402
from measure.static_host import hosting, plain_hosting  # noqa: E402
from measure.wire import LOCALE, offline_ready  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PREFIX = "/pub/kb/"


def write_copy(folder: Path) -> Path:
    """`kb site` as a reader runs it (its own summary printed)."""
    target = folder / "site"
    subprocess.run([sys.executable, "-m", "kb.cli", "site", str(target)], check=True, cwd=ROOT)
    return target


def on_disk(copy: Path) -> str:
    files = [p for p in copy.rglob("*") if p.is_file()]
    squeezed = sum(p.stat().st_size for p in files if p.suffix in (".gz", ".br"))
    return f"the copy on disk: {sum(p.stat().st_size for p in files) / 1e6:.1f} MB in {len(files)} files " \
           f"({squeezed / 1e6:.1f} MB of them .gz and .br)"


def report(where: str, wire) -> None:
    print(wire.line(where))
    for url, size in wire.largest:
        print(f"    {size / 1e6:6.3f} MB  {url}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lang", choices=sorted(LOCALE), default="it")
    ap.add_argument("--copy", type=Path, help="a copy `kb site` wrote already")
    args = ap.parse_args()
    gen = builder.ensure_build().parent
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory(prefix="offline-wire-") as tmp:
        copy = args.copy or write_copy(Path(tmp))
        print(on_disk(copy))
        with serving(gen.parent) as (port, _), hosting(copy, PREFIX, free_port()) as static, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-quic"])
            report(f"kb serve ({args.lang})", offline_ready(browser, f"http://{HOST}:{port}/?ui={args.lang}", args.lang))
            report(f"static copy at {PREFIX}, compressing host ({args.lang})", offline_ready(browser, static, args.lang))
            with plain_hosting(copy) as plain:
                report(f"static copy, python -m http.server ({args.lang})", offline_ready(browser, plain, args.lang))
            browser.close()


if __name__ == "__main__":
    main()
