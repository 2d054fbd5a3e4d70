"""Rebuilds under load: readers never see a half-written build; a broken build never breaks the site."""
import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from fastapi.testclient import TestClient

from kb.pipeline import build as builder
from kb.pipeline import generations
from measure.loadgen import free_port
from web.app import create_app

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier


@pytest.fixture
def own_build(tmp_path, build_dir):
    """A build folder of this test's own, starting from a copy of the session's generation."""
    gen = generations.generation(build_dir)
    shutil.copytree(gen, tmp_path / gen.name, symlinks=True)
    generations.switch(tmp_path, tmp_path / gen.name)
    return tmp_path


def get(url: str) -> tuple[int, bytes, str]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.read(), r.headers.get("x-build", "")


def test_readers_see_no_error_while_the_site_is_rebuilt(own_build):
    port = free_port()
    env = dict(os.environ, KB_BUILD_DIR=str(own_build))
    server = subprocess.Popen([sys.executable, "-m", "kb.cli", "serve", "--port", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                get(base + "/api/docs")
                break
            except OSError:
                time.sleep(0.1)
        first = get(base + "/api/docs")[2]
        failures, served, builds = [], [0], set()
        stop = threading.Event()

        def reader(path):
            while not stop.is_set():
                try:
                    status, body, build = get(base + path)
                    if path.startswith("/api/"):
                        json.loads(body)                      # a complete answer, never a torn one
                    builds.add(build)
                    served[0] += 1
                    if status != 200:
                        failures.append((path, status))
                except Exception as e:                         # noqa: BLE001 — any failure is the finding
                    failures.append((path, repr(e)))

        threads = [threading.Thread(target=reader, args=(p,)) for p in
                   ("/api/search?q=licita+insufficiente", "/it-laws/27", "/compare/12", "/api/units/es-laws/40")]
        for t in threads:
            t.start()
        new = builder.build(own_build).parent.name            # a real rebuild, switched in one step
        deadline = time.monotonic() + 60
        while get(base + "/api/docs")[2] != new and time.monotonic() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
        stop.set()
        for t in threads:
            t.join()
        assert failures == []
        assert served[0] > 20
        assert {first, new} <= builds and get(base + "/api/docs")[2] == new
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_broken_new_build_leaves_the_last_good_one_serving(own_build):
    client = TestClient(create_app(own_build))
    good = client.get("/it-laws/27")
    broken = own_build / "gen-broken"
    broken.mkdir()
    (broken / "kb.json").write_text("{not json")
    generations.switch(own_build, broken)
    for _ in range(20):
        r = client.get("/it-laws/27")
        assert r.status_code == 200 and r.headers["x-build"] == good.headers["x-build"]
        time.sleep(0.05)


@pytest.mark.parametrize("state", ["missing", "corrupt"])
def test_no_usable_build_is_a_clear_503(tmp_path, state):
    if state == "corrupt":
        gen = tmp_path / "gen-broken"
        gen.mkdir()
        (gen / "kb.json").write_text("[]")
        generations.switch(tmp_path, gen)
    client = TestClient(create_app(tmp_path))
    page = client.get("/it-laws/27")
    assert page.status_code == 503 and "kb build" in page.text
    api = client.get("/api/search", params={"q": "carta"})
    assert api.status_code == 503 and "not available" in api.json()["error"]


SLOW_LOADER = """import sys, time
import web.app as app
from kb.cli import main
load, served = app.Site.load, []

def slow_load(gen):  # a server that takes seconds to open each new build (a loaded machine)
    if served:
        time.sleep(float(sys.argv[1]))
    served.append(gen)
    return load(gen)

app.Site.load = slow_load
sys.exit(main(["serve", "--port", sys.argv[2]]))
"""


def fetch_all(base: str, paths: list[str], errors: list, stop: threading.Event) -> int:
    """Fetch each path once (or until stopped); every 5xx or failure is noted. How many answered."""
    done = 0
    for path in paths:
        if stop.is_set():
            break
        try:
            get(base + path)
            done += 1
        except urllib.error.HTTPError as e:
            if e.code >= 500:
                errors.append((path, e.code))
        except Exception as e:  # noqa: BLE001 — a dropped connection is a finding too
            errors.append((path, repr(e)))
    return done


def test_five_builds_in_a_row_remove_nothing_a_slow_server_still_serves(own_build):
    """Builds landing faster than the server opens them: each prune used to keep the newest few
    and drop the one still served, so its files (the search data) answered 500."""
    port = free_port()
    env = dict(os.environ, KB_BUILD_DIR=str(own_build))
    server = subprocess.Popen([sys.executable, "-c", SLOW_LOADER, "15", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                offline = json.loads(get(base + "/offline/manifest.json")[1])
                break
            except OSError:
                time.sleep(0.1)
        files = [*offline["pages"], *offline["assets"], offline["search"]]
        errors, answered, stop = [], [0], threading.Event()

        def client(paths):
            while not stop.is_set():
                answered[0] += fetch_all(base, ["/offline/manifest.json", *paths], errors, stop)

        # one client walks every file the offline copy lists; one the files read from the generation
        clients = [threading.Thread(target=client, args=(p,)) for p in (files, [offline["search"], *offline["assets"]])]
        for t in clients:
            t.start()
        last = [builder.build(own_build).parent.name for _ in range(5)][-1]
        deadline = time.monotonic() + 120
        while get(base + "/api/docs")[2] != last and time.monotonic() < deadline:
            time.sleep(0.5)
        fetch_all(base, files, errors, threading.Event())  # one whole pass on the last build
        stop.set()
        for t in clients:
            t.join()
        assert errors == []
        assert answered[0] > len(files) and get(base + "/api/docs")[2] == last
    finally:
        server.terminate()
        server.wait(timeout=10)
