"""Rebuilds under load: readers never see a half-written build; a broken build never breaks the site."""
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from fastapi.testclient import TestClient

from kb import build as builder
from kb import generations
from web.app import create_app

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
