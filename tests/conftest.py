import contextlib
import io
import os
import shutil
import subprocess
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kb.pipeline import build as builder
from kb.pipeline import generations
from kb import cli
from web.app import create_app

warnings.filterwarnings("ignore", category=SyntaxWarning)

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

# The tiers, one folder each. The fast tier (`-m "not slow"`) is unit/ and corpus/ less the few tests
# there marked slow (a scratch build, a process of their own); the other folders are slow by where
# they live, and a fast-tier test that asks for a browser or a server is refused at collection.
TIERS = ("unit", "corpus", "browser", "system", "acceptance")
SLOW_TIERS = {"browser", "system", "acceptance"}
NOT_IN_THE_FAST_TIER = {"browser", "page", "phone", "shot", "live_server", "server", "static_server",
                        "static_subpath_server"}  # this file's fixtures that start a browser or a server


def pytest_collection_modifyitems(config, items):
    for item in items:
        tier = next((part for part in item.path.relative_to(Path(__file__).parent).parts if part in TIERS), None)
        if tier is None:
            raise pytest.UsageError(f"{item.nodeid}: a test lives in one of tests/{{{','.join(TIERS)}}}/")
        item.add_marker(getattr(pytest.mark, tier))
        if tier in SLOW_TIERS:
            item.add_marker(pytest.mark.slow)
        elif not item.get_closest_marker("slow") and (asked := _process_fixtures(item)):
            raise pytest.UsageError(f"{item.nodeid} is in the fast tier (tests/{tier}/) but asks for {sorted(asked)}")


def _process_fixtures(item) -> set[str]:
    defs = getattr(item, "_fixtureinfo", None)
    if defs is None:
        return set()
    return {name for name, fds in defs.name2fixturedefs.items()
            if name in NOT_IN_THE_FAST_TIER and fds[-1].func.__module__ == __name__}  # the one in force


@pytest.fixture(scope="session")
def build_dir(tmp_path_factory) -> Path:
    """One real build of the whole corpus, shared by the tests that read the export."""
    d = tmp_path_factory.mktemp("build")
    builder.build(d)
    return d


@pytest.fixture
def umask():
    """Sets the process's umask for the test (`umask(0o027)`); the old one back after."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


@pytest.fixture(scope="session")
def export(build_dir) -> dict:
    return generations.load_export(generations.export_path(build_dir))


@pytest.fixture(scope="session")
def app(build_dir):
    """The website over the shared build, loaded once (loading a build takes about a second)."""
    return create_app(build_dir)


@pytest.fixture(scope="module")
def client(app):
    """The website in process: a client of its own per module (cookies such as the interface
    language do not leak between modules), one app for all."""
    return TestClient(app)


@pytest.fixture(scope="session")
def engine(build_dir):
    """The build's search engine as `kb.open` gives it (editions and phrasebook included); a
    test module may define its own."""
    import kb as library
    return library.open(build_dir).engine


@pytest.fixture(scope="module")
def kb(build_dir):
    """The `kb` command in process (sqlite-utils' way: the CLI is a thin shell over one call),
    over the shared build: its exit code, standard output and standard error. Tests of what
    only a real process shows (a closed pipe, the terminal's encoding, a server) run one."""
    def run(*args: str) -> subprocess.CompletedProcess:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(["--build-dir", str(build_dir), *args])
            except SystemExit as e:  # argparse's own errors
                code = e.code if isinstance(e.code, int) else 2
        return subprocess.CompletedProcess(["kb", *args], code, out.getvalue(), err.getvalue())
    return run


@dataclass(frozen=True)
class LiveServer:
    url: str
    port: int
    pid: int


@pytest.fixture(scope="session")
def live_server(build_dir):
    """`kb serve` over the shared build on a free loopback port: the one real server the browser
    and load tests share (tests that need a server of their own, over another build folder or
    with other limits, start it with measure.loadgen.serving)."""
    from measure.loadgen import HOST, serving
    with serving(build_dir) as (port, pid):
        yield LiveServer(f"http://{HOST}:{port}", port, pid)


CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(live_server):
    return live_server.url


@pytest.fixture(scope="module")
def browser():
    """Real headless Chromium (Debian's, driven by Playwright); the test is skipped without it."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    """A desktop-sized page under the Italian interface."""
    context = browser.new_context(viewport={"width": 1200, "height": 900}, locale="it-IT")
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser):
    """Opens a page on a phone, 390×844 unless `viewport` says otherwise (touch, 2× pixels):
    `phone()`, `phone(locale="es-ES")`, `phone(color_scheme="dark")`; closed after the test."""
    contexts = []

    def open_page(locale: str = "it-IT", **options):
        context = browser.new_context(**{"viewport": PHONE, **options}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, locale=locale)
        contexts.append(context)
        return context.new_page()
    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def shot():
    """Saves what a page shows (its viewport) as test-artifacts/NAME.png, to be looked at."""
    def take(page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=False)
        return path
    return take


@pytest.fixture(scope="session")
def copy(tmp_path_factory, build_dir):
    """`kb site` over the shared build, run in process: the static copy, written once."""
    target = tmp_path_factory.mktemp("copy") / "site"
    started = time.perf_counter()
    assert cli.main(["--build-dir", str(build_dir), "site", str(target)]) == 0
    files = [p for p in target.rglob("*") if p.is_file()]
    print(f"kb site: {len(files)} files, {sum(p.stat().st_size for p in files) / 1e6:.1f} MB "
          f"in {time.perf_counter() - started:.1f} s")
    return target


@pytest.fixture(scope="session")
def static_server(copy):
    """The copy at a host's root, `python -m http.server` (a plain static file server, nothing of ours)."""
    from measure.static_host import plain_hosting
    with plain_hosting(copy) as url:
        yield url


@pytest.fixture(scope="session")
def static_subpath_server(copy):
    """The copy under a sub-path of its host (`…/site/`), as a federation's site would hold it."""
    from measure.static_host import plain_hosting
    with plain_hosting(copy.parent) as url:
        yield url + copy.name + "/"
