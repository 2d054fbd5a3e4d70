"""Whole-site crawls through the app in process: every link from the home page reaches a page that
answers, with its anchors; every address the offline worker would keep answers too (a worker that
meets one failing address keeps nothing)."""
from collections import deque
from urllib.parse import urldefrag, urljoin, urlparse

from tests.corpus.test_offline import state  # noqa: F401 — the worker's state, a fixture
from tests.corpus.test_pages import parse


def test_crawl_reaches_every_unit_and_compare_page_without_errors(client, export):
    seen, anchors_wanted, ids_by_page = set(), [], {}
    queue = deque(["/"])
    while queue:
        path = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        r = client.get(path)
        assert r.status_code == 200, path
        if "text/html" not in r.headers["content-type"]:
            continue
        page = parse(r.text)
        ids_by_page[path] = page.ids
        for href in page.hrefs:
            url = urljoin(path, href)
            parts = urlparse(url)
            if parts.netloc or parts.path.startswith(("/api", "/static", "/search")) or parts.query:
                continue
            target, anchor = urldefrag(parts.path + ("#" + parts.fragment if parts.fragment else ""))
            if anchor:
                anchors_wanted.append((path, target, anchor))
            queue.append(target)
    units = {f"/{d['id']}/{u['id']}" for d in export["documents"] for u in d["units"]}
    assert units - seen == set()
    assert {f"/compare/{n}" for n in range(1, 94)} - seen == set()
    missing = [(src, t, a) for src, t, a in anchors_wanted if a not in ids_by_page.get(t, set())]
    assert missing == []


def test_every_page_and_file_it_lists_answers(client, state):
    """A worker that meets one failing address keeps nothing: every one must answer 200."""
    own = [url for urls in state["own"].values() for url in urls]  # each language's Anki package
    for url in [*state["pages"], *state["assets"], *own, state["search"]]:
        assert client.get(url).status_code == 200, url
