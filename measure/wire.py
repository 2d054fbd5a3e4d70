"""What becoming offline-ready costs on the wire, measured in Chromium: a fresh browser context
opens a page of the site and waits until the page says the whole site is kept (the worker's
copy is complete); every response the page and its worker received meanwhile is summed, its
headers and its body as they came over the network (Playwright's request sizes: the body encoded,
i.e. compressed when the server compressed it; CDP's encodedDataLength)."""
from __future__ import annotations

import time
from dataclasses import dataclass

READY = {"it": "Disponibile offline", "es": "Disponible sin conexión", "en": "Available offline"}
LOCALE = {"it": "it-IT", "es": "es-ES", "en": "en-GB"}


@dataclass(frozen=True)
class Wire:
    bytes: int       # headers and bodies, as received
    requests: int    # of the page and of its worker
    seconds: float   # from the first visit until the page said the copy is complete
    largest: tuple[tuple[str, int], ...]  # the heaviest responses: (address, bytes)

    def line(self, where: str) -> str:
        return f"{where}: {self.bytes / 1e6:.2f} MB in {self.requests} requests, {self.seconds:.1f} s"


def offline_ready(browser, url: str, lang: str = "it", timeout_s: float = 180) -> Wire:
    """Open `url` in a new context whose browser speaks `lang`; the bytes and requests until it
    is kept offline."""
    context = browser.new_context(locale=LOCALE[lang])
    finished: list = []
    context.on("requestfinished", lambda request: finished.append(request))
    try:
        page = context.new_page()
        started = time.monotonic()
        page.goto(url)
        page.wait_for_function("t => (document.getElementById('offline-state') || {}).textContent.includes(t)",
                               arg=READY[lang], timeout=timeout_s * 1000, polling=250)
        took = time.monotonic() - started
        page.wait_for_timeout(500)  # the last responses' events reach the client
        sizes = [(r.url, _received(r)) for r in finished]
    finally:
        context.close()
    largest = tuple(sorted(sizes, key=lambda s: -s[1])[:5])
    return Wire(sum(n for _, n in sizes), len(sizes), took, largest)


def _received(request) -> int:
    sizes = request.sizes()
    return sizes["responseHeadersSize"] + sizes["responseBodySize"]
