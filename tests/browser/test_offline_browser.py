"""The site on a phone that loses its network (real headless Chromium, a real server): one visit
to the home page keeps the whole site; then, offline, pages open, searches answer in the same
markup, numbers jump, and the browser's search ranks as the server's does."""
import contextlib
import json
import random
import shutil
import time
import urllib.request

import pytest

from measure.evaluation import judged_queries, search_scores
from measure.offline import browser_scores, mrr
from measure.wire import offline_ready
from scripts.judged import SETS
from web.pages.render import SEARCH_DATA

pytestmark = pytest.mark.slow
READY = {"it": "Disponibile offline", "es": "Disponible sin conexión", "en": "Available offline"}
LOCALE = {"it": "it-IT", "es": "es-ES", "en": "en-GB"}


def keep_offline(page, server, locale="it"):
    """Open the home page and wait until the worker says the whole site is kept."""
    page.goto(server + f"/?ui={locale}")
    deadline = time.monotonic() + 120
    while READY[locale] not in (page.text_content("#offline-state") or ""):
        assert time.monotonic() < deadline, page.text_content("#offline-state")
        time.sleep(0.25)
    return page.text_content("#offline-state")


@pytest.fixture(scope="module")
def offline_pages(client):
    return client.get("/offline/manifest.json").json()["pages"]


def test_after_one_visit_every_kind_of_page_opens_without_a_network(server, phone, shot, offline_pages, client):
    page = phone()
    state = keep_offline(page, server)
    assert client.get("/").headers["x-build"] in state  # it says which build it holds
    page.context.set_offline(True)
    sample = random.Random(14).sample([p for p in offline_pages if p.count("/") == 2 and "graph" not in p], 8)
    for path in ["/clock", "/situations", "/glossary", "/compare/27", "/it-laws/27", *sample]:
        response = page.goto(server + path)
        assert response.status == 200 and page.locator("main h1").count() == 1, path
    page.goto(server + "/it-laws/27#27B1b")
    shot(page, "offline-unit-phone")


@pytest.mark.parametrize("q, ui, laws", [
    ("carta penalizzata", "it", ("/it-laws/50",)),
    ("carta penalizada", "es", ("/es-laws/50",)),
    ("revoke", "en", ("/it-laws/61", "/it-laws/62", "/it-laws/63", "/it-laws/64")),
    ("l'avversario ha aperto 2 cuori e io ho detto 2 fiori senza guardare", "it", ("/it-laws/27",)),  # bids read
])
def test_offline_search_answers_in_the_same_markup(server, phone, shot, q, ui, laws):
    page = phone(locale=LOCALE[ui])
    keep_offline(page, server, ui)
    page.context.set_offline(True)
    page.goto(server + "/search?q=" + q.replace(" ", "+"))
    page.wait_for_selector("ol.hits > li.hit > a.hit-title")
    hrefs = page.eval_on_selector_all("ol.hits > li.hit > a.hit-title", "els => els.map(e => e.getAttribute('href'))")
    assert len(hrefs) >= 10 and all(h.startswith("/") for h in hrefs)
    assert any(h.startswith(laws) for h in hrefs[:3]), hrefs[:3]
    assert page.input_value("#q") == q
    shot(page, f"offline-search-{ui}-phone")


def test_offline_search_reads_the_pages_filters_and_says_what_the_server_says(server, phone, client):
    """The page passes its filters and page to the browser's engine, offers its correction and
    its choice of edition, and says why it refuses a query, as the server's page does."""
    page = phone()
    keep_offline(page, server)
    page.context.set_offline(True)
    hrefs = lambda: page.eval_on_selector_all("ol.hits > li.hit > a.hit-title", "els => els.map(e => e.getAttribute('href'))")  # noqa: E731
    page.goto(server + "/search?q=carta+penalizzata&doc=es-laws")
    page.wait_for_selector("ol.hits > li.hit")
    online = client.get("/api/search", params={"q": "carta penalizzata", "doc": "es-laws", "ui": "it", "limit": 20}).json()
    assert hrefs() == [h["url"] for h in online["hits"]] and all(h.startswith("/es-laws/") for h in hrefs())
    page.goto(server + "/search?q=carta+penalizata")
    assert page.text_content("p.suggestion a") == "carta penalizzata"
    page.goto(server + "/search?q=" + "carta+" * 260)
    assert "query too long" in page.text_content("[data-search-shell] p.error")
    english = phone(locale=LOCALE["en"])  # a reader of neither edition's language chooses one
    keep_offline(english, server, "en")
    english.context.set_offline(True)
    english.goto(server + "/search?q=27B1")
    english.wait_for_selector(".choices a")
    assert english.eval_on_selector_all(".choices a", "els => els.map(e => e.getAttribute('href'))") == [
        "/it-laws/27#27B1", "/es-laws/27#27B1"]


def test_offline_a_number_jumps_to_its_clause(server, phone):
    page = phone()
    keep_offline(page, server)
    page.context.set_offline(True)
    for q, landed in (("27B1b", "/it-laws/27#27B1b"), ("ley 64", "/es-laws/64"), ("norma 92", "/it-norms/92-93")):
        page.goto(server + "/search?q=" + q.replace(" ", "+"))
        page.wait_for_url("**" + landed.split("#")[0] + "*")
        assert page.url.endswith(landed)


def test_offline_search_ranks_as_the_servers_in_a_real_page(server, browser, engine):
    """Every judged set, searched by the page's own engine over the model it fetched: the same MRR@10
    as the server's on the same queries (Node holds them together query by query in the fast tier;
    this is the page itself, its scripts and its fetch)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(server + "/search")
    for name, folder in SETS:
        queries = judged_queries(folder)
        online = mrr(search_scores(engine, queries))
        offline = mrr(browser_scores(page, queries, SEARCH_DATA)[0])
        print(f"{name}: online {online:.3f}, offline {offline:.3f}")
        assert offline == online, name
    context.close()


@contextlib.contextmanager
def kept_from_a_server_of_its_own(browser, build_dir, tmp_path):
    """A server over a copy of the build folder (for `kb build` to run on) and a browser that kept
    its site: (the folder, the server's address, the page, the build kept)."""
    from measure.loadgen import HOST, serving
    folder = tmp_path / "build"
    shutil.copytree(build_dir, folder, symlinks=True)
    with serving(folder) as (port, _):
        url = f"http://{HOST}:{port}"
        context = browser.new_context(locale="it-IT")
        page = context.new_page()
        try:
            yield folder, url, page, keep_offline(page, url).rsplit(" ", 1)[1]
        finally:
            context.close()


def test_a_new_build_is_fetched_beside_the_copy_and_replaces_it_whole(browser, build_dir, tmp_path):
    """`kb build` on the server: the next visits fetch the new build into a cache of its own,
    then the page says it holds the new build and the old cache is gone."""
    from kb.pipeline import build as builder
    with kept_from_a_server_of_its_own(browser, build_dir, tmp_path) as (folder, url, page, old):
        context = page.context
        new = builder.build(folder).parent.name
        deadline = time.monotonic() + 120
        while new not in (page.text_content("#offline-state") or ""):
            assert time.monotonic() < deadline, page.text_content("#offline-state")
            page.goto(url + "/it-laws/1")  # each visit lets the worker look for a new build
            time.sleep(1)
        caches = page.evaluate("caches.keys()")
        assert any(new in name for name in caches) and not any(old in name for name in caches)
        context.set_offline(True)
        assert page.goto(url + "/it-laws/40").status == 200


class HeldCopy:
    """The worker's requests past the first `after` wait until released (Playwright routes the
    worker's own fetches): a copy slowed in its middle, for a build to land meanwhile."""

    def __init__(self, context, after: int):
        self.after, self.passed, self.held, self.holding = after, 0, [], True
        context.route("**/*", self._route)

    def _route(self, route):
        request = route.request
        if request.service_worker is None or request.url.endswith("/offline/manifest.json"):
            return route.continue_()
        if self.holding and self.passed >= self.after:
            return self.held.append(route)
        self.passed += 1
        route.continue_()

    def release(self):
        self.holding = False
        for route in self.held:
            route.continue_()


def serves(url: str, build: str) -> None:
    """Waits until the server answers from `build` (it loads a new build beside the old one)."""
    deadline = time.monotonic() + 60
    while urllib.request.urlopen(url + "/offline/manifest.json").headers["x-build"] != build:
        assert time.monotonic() < deadline, build
        time.sleep(0.2)


COMPLETE_STATES = """window.__complete = [];
navigator.serviceWorker.addEventListener('message', e => {
  if (e.data && e.data.type === 'state' && e.data.complete && !e.data.syncing) window.__complete.push(e.data.build);
})"""

CACHE_BUILDS = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    if (name === 'kb-meta') continue;
    const cache = await caches.open(name), builds = {};
    for (const request of await cache.keys()) {
      const b = (await cache.match(request)).headers.get('x-build');
      builds[b] = (builds[b] || 0) + 1;
    }
    out[name] = builds;
  }
  return out;
}"""


def test_a_build_that_lands_mid_copy_is_copied_whole_and_the_old_copy_serves_meanwhile(browser, build_dir, tmp_path):
    """A build lands and, while the worker copies it (its fetches held after the first two: the
    pack of pages and an asset), another is switched in. The worker sees answers of the third build (their X-Build) in the second's copy,
    drops that copy and copies the third; the first stays the copy in use until then, and the only
    copy ever declared complete is the third's, every entry of it the third build's."""
    from kb.pipeline import build as builder
    with kept_from_a_server_of_its_own(browser, build_dir, tmp_path) as (folder, url, page, first):
        context = page.context
        held = HeldCopy(context, after=2)
        second = builder.build(folder).parent.name
        serves(url, second)
        deadline = time.monotonic() + 60
        while not held.held:  # each visit lets the worker look for a new build; then it copies
            assert time.monotonic() < deadline, held.passed
            page.goto(url + "/it-laws/1")
            page.wait_for_timeout(500)
        third = builder.build(folder).parent.name
        serves(url, third)
        page.evaluate(COMPLETE_STATES)
        in_use = page.evaluate("caches.open('kb-meta').then(c => c.match('/state')).then(r => r.json())")
        assert in_use["build"] == first and in_use["cache"] in page.evaluate("caches.keys()")
        held.release()
        page.wait_for_function("() => window.__complete.length > 0", timeout=120_000)
        kept, declared = page.evaluate(CACHE_BUILDS), page.evaluate("window.__complete")
        print(f"builds {first} → {second} → {third}; declared complete: {declared}; the copies held: {kept}")
        assert declared == [third]
        listed = page.evaluate("fetch('/offline/manifest.json').then(r => r.json())")
        assert listed["build"] == third and list(kept) == [f"kb-{third}-it"]
        # each page and the web manifest (from the pack), each asset, the language's own files, the search data
        own = len(listed["own"]["it"])
        assert kept[f"kb-{third}-it"] == {third: len(listed["pages"]) + 1 + len(listed["assets"]) + own + 1}
        assert third in page.text_content("#offline-state")
        context.set_offline(True)  # entries kept from the old copy (the server said 304) read as fetched ones
        assert page.goto(url + "/it-laws/40").status == 200 and page.locator("main h1").count() == 1
        page.wait_for_selector("#offline-state:has-text('Disponibile offline')")


def test_the_static_copy_searches_and_jumps_from_a_plain_file_server(static_server, phone, shot):
    """`kb site` served by `python -m http.server`: the search page answers from the browser's
    index, its results and jumps lead to the copy's own files."""
    page = phone(locale="es-ES")
    page.goto(static_server + "es/search.html?q=carta+penalizada")
    page.wait_for_selector("ol.hits > li.hit > a.hit-title")
    hrefs = page.eval_on_selector_all("ol.hits > li.hit > a.hit-title", "els => els.map(e => e.getAttribute('href'))")
    assert any(h.startswith("es-laws/50.html#") for h in hrefs[:3]), hrefs[:3]  # the copy's own files
    shot(page, "static-search-es-phone")
    page.locator("ol.hits > li.hit > a.hit-title").first.click()
    page.wait_for_load_state()
    assert page.url.startswith(static_server + "es/" + hrefs[0].split("#")[0]) and page.locator("main h1").count() == 1
    page.goto(static_server + "es/search.html?q=ley+64")
    page.wait_for_url("**/es/es-laws/64.html")


@pytest.mark.parametrize("q, ui", [("el muerto miró las cartas de un defensor", "es"),
                                   ("una squadra non si è presentata all'incontro", "it"),
                                   ("declarer led from the wrong hand", "en")])
def test_offline_the_answer_card_is_the_servers(server, phone, shot, client, q, ui):
    """The card drawn by the page from its own engine: the same situation, ruling clause and older
    edition, in the same markup, before the hits; the same facets folded under the count."""
    result = client.get("/api/search", params={"q": q, "ui": ui}).json()
    online = result["answer"]
    page = phone(locale=LOCALE[ui])
    keep_offline(page, server, ui)
    page.context.set_offline(True)
    page.goto(server + f"/search?q={q.replace(' ', '+')}&ui={ui}")
    page.wait_for_selector("section.answer h2 a")
    links = page.eval_on_selector_all("section.answer a", "els => els.map(e => e.getAttribute('href'))")
    assert links[:2] == [online["situation"]["url"], online["ruling"]["url"]]
    assert (online["older"] is None) == (page.locator("section.answer .older").count() == 0)
    assert page.evaluate("document.querySelector('section.answer').compareDocumentPosition(document.querySelector('ol.hits'))") & 4
    facets = page.eval_on_selector_all("details.summary-line nav.facets a", "els => els.map(e => e.textContent)")
    assert [f.split(" (")[1] for f in facets] == [f"{n})" for kind in ("doc", "lang") for n in result["facets"][kind].values()]
    shot(page, f"offline-answer-{ui}-phone")


HIT_LINES = """[...document.querySelectorAll('ol.hits > li.hit')].map(li => [
    li.querySelector('a.hit-title').getAttribute('href'),
    (li.querySelector('.badge.replaced') || {}).textContent || '',
    [...li.querySelectorAll('p.parallel')].map(p => p.textContent.replace(/\\s+/g, ' ').trim())])"""


def test_offline_a_spanish_readers_hits_name_the_clause_in_force_as_the_server_does(server, phone):
    page = phone(locale="es-ES")
    page.goto(server + "/search?q=carta+penalizada&ui=es")
    online = page.evaluate(HIT_LINES)
    assert any(badge for _, badge, _ in online)
    keep_offline(page, server, "es")
    page.context.set_offline(True)
    page.goto(server + "/search?q=carta+penalizada")
    page.wait_for_selector("ol.hits > li.hit > a.hit-title")
    assert page.evaluate(HIT_LINES)[:len(online)] == online


def test_offline_a_search_that_finds_nothing_says_what_to_try_as_the_server_does(server, phone, client):
    page = phone()
    keep_offline(page, server)
    page.context.set_offline(True)
    page.goto(server + "/search?q=xqzwv+kjhgfd")
    page.wait_for_selector("p.nothing")
    online = client.get("/search", params={"q": "xqzwv kjhgfd", "ui": "it"}).text
    assert page.text_content("p.nothing") in online



BUDGET = 2.5e6  # bytes on the wire to keep the whole site in one interface language (issue 31)


@pytest.fixture(scope="module")
def hosted_copy(copy):
    """The copy under a sub-path of a host that serves each file's .br or .gz (nginx's
    brotli_static/gzip_static), as a federation's site would publish it."""
    from measure.loadgen import free_port
    from measure.static_host import hosting
    with hosting(copy, "/pub/kb/", free_port()) as url:
        yield url


def test_becoming_offline_ready_costs_at_most_its_budget_on_the_wire(browser, server, hosted_copy):
    """From a first visit until the page says the whole site is kept: every byte the page and its
    worker received (headers and bodies as they came), from `kb serve` and from the copy."""
    for where, url in (("kb serve", server + "/?ui=it"), ("static copy", hosted_copy)):
        wire = offline_ready(browser, url, "it")
        print(wire.line(where), wire.largest[:2])
        assert wire.bytes <= BUDGET, wire.line(where)


def words_of(copy):
    return json.loads((copy / "offline" / "manifest.json").read_text(encoding="utf-8"))["unkept"]


def test_the_copy_under_a_sub_path_is_kept_searched_and_switched_offline(hosted_copy, copy, phone, shot):
    """The top page goes to the browser's language; kept offline in it, the copy searches and
    suggests from the browser's engine; offline, another language's page says it is not kept (in
    that language) and leads to the same page in the language kept; online, switching keeps the
    new language instead, and the copy's top then goes to it."""
    page = phone(locale="es-ES")
    page.goto(hosted_copy)
    page.wait_for_url("**/pub/kb/es/index.html")
    page.wait_for_selector("#offline-state:has-text('Disponible sin conexión')", timeout=120_000)
    page.context.set_offline(True)
    page.goto(hosted_copy + "es/search.html?q=carta+penalizada")
    page.wait_for_selector("ol.hits > li.hit > a.hit-title")
    hrefs = page.eval_on_selector_all("ol.hits > li.hit > a.hit-title", "els => els.map(e => e.getAttribute('href'))")
    assert any(h.startswith("es-laws/50.html#") for h in hrefs[:3]), hrefs[:3]
    page.goto(hosted_copy + "es/es-laws/64.html")
    page.fill("#q", "carta penalizada")
    page.wait_for_selector("#q-suggestions [role=option]")
    options = page.eval_on_selector_all("#q-suggestions [role=option] a", "els => els.map(e => e.href)")
    assert any("/pub/kb/es/es-laws/50.html" in o for o in options), options
    words = words_of(copy)
    page.click("nav.langs a[hreflang=it]")
    page.wait_for_selector("main.unkept")
    assert page.text_content("h1") == words["it"]["title"] and page.get_attribute("html", "lang") == "it"
    shot(page, "static-copy-language-not-kept-phone")
    page.click("main.unkept a[hreflang=es]")
    page.wait_for_url("**/pub/kb/es/es-laws/64.html")
    assert page.locator("main.unkept").count() == 0 and page.text_content("main h1").startswith("Art. 64")
    page.context.set_offline(False)
    page.click("nav.langs a[hreflang=it]")
    page.wait_for_url("**/pub/kb/it/es-laws/64.html")
    page.wait_for_selector("#offline-state:has-text('Disponibile offline')", timeout=120_000)
    page.context.set_offline(True)
    assert page.goto(hosted_copy + "it/it-laws/27.html").status == 200 and page.locator("main h1").count() == 1
    page.goto(hosted_copy + "es/it-laws/27.html")
    assert page.text_content("h1") == words["es"]["title"]
    page.goto(hosted_copy)
    page.wait_for_url("**/pub/kb/it/index.html")


def test_the_copys_top_page_without_script_links_each_language(browser, hosted_copy):
    context = browser.new_context(java_script_enabled=False, locale="es-ES")
    page = context.new_page()
    page.goto(hosted_copy)
    links = page.locator("ul.languages a")
    assert page.url == hosted_copy and links.count() == 3 and all(links.nth(i).is_visible() for i in range(3))
    links.nth(2).click()
    page.wait_for_url("**/pub/kb/en/index.html")
    context.close()


def test_offline_a_language_switch_on_the_server_says_that_language_is_not_kept(server, phone, client):
    """Kept in Italian, offline: the switch to Spanish is a page saying, in Spanish, that Spanish is
    not kept, leading to the same page in Italian — not the Italian page passed off as Spanish."""
    words = client.get("/offline/manifest.json").json()["unkept"]
    page = phone()
    keep_offline(page, server)
    page.context.set_offline(True)
    page.goto(server + "/it-laws/27")
    page.click("nav.langs a[hreflang=es]")
    page.wait_for_selector("main.unkept")
    assert page.get_attribute("html", "lang") == "es" and page.text_content("h1") == words["es"]["title"]
    page.click("main.unkept a[hreflang=it]")
    page.wait_for_selector("main h1 .label")
    assert page.get_attribute("html", "lang") == "it" and page.text_content("main h1 .label") == "Art. 27"


def test_online_pages_follow_the_language_the_reader_chose_even_with_a_copy_in_another(server, phone):
    """Kept in Italian, online: once the reader's language is Spanish (the server's cookie, as a
    switch sets it), the next page without `?ui=` is Spanish, from the server — never the Italian
    copy's page, whatever the page had time to tell the worker (CI once caught that race)."""
    page = phone()
    keep_offline(page, server)
    page.context.add_cookies([{"name": "ui", "value": "es", "url": server}])
    page.goto(server + "/it-laws/28")
    assert page.get_attribute("html", "lang") == "es" and page.get_attribute("#q", "placeholder").startswith("Buscar")
    page.goto(server + "/it-laws/27?ui=it")   # and back: the Italian copy answers again
    page.goto(server + "/it-laws/29")
    assert page.get_attribute("html", "lang") == "it"
