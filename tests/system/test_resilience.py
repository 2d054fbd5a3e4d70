"""A broken build never takes the knowledge base away (issue 11, finding 4): the server and
the CLI fall back to the newest complete generation, retry a failed load and log it, read
a stale build when the disk refuses a rebuild, and say in one line how to fix a `current`
that is not a link."""
import logging
import os
import shutil
import socket
import subprocess
import sys
import time

import pytest
from fastapi.testclient import TestClient

from kb.pipeline import generations
from web import app as webapp
from web.app import create_app

from kb.search.model import MODEL_NAME
from tests.system.test_build_lock import damage

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier


@pytest.fixture
def two_generations(tmp_path, build_dir):
    """A build folder holding a good complete generation and, newer and current, a copy of
    it whose search model has been damaged on disk."""
    good = tmp_path / "gen-good"
    shutil.copytree(generations.generation(build_dir), good)
    time.sleep(0.01)
    bad = tmp_path / "gen-newer"
    shutil.copytree(good, bad)
    os.utime(bad / generations.COMPLETE)
    damage(bad / MODEL_NAME)
    generations.switch(tmp_path, bad)
    return tmp_path, good, bad


def run_kb(build_dir, *args):
    env = dict(os.environ, KB_BUILD_DIR=str(build_dir))
    return subprocess.run([sys.executable, "-m", "kb.cli", *args], env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_server_falls_back_to_the_newest_complete_generation(two_generations, caplog):
    folder, good, bad = two_generations
    with caplog.at_level(logging.WARNING, logger="kb"):
        client = TestClient(create_app(folder))
        r = client.get("/api/search", params={"q": "licita insufficiente"})
    assert r.status_code == 200 and r.headers["x-build"] == good.name
    assert any(bad.name in m and "cannot load" in m for m in caplog.messages)


def test_a_failed_load_is_retried_with_backoff(tmp_path, build_dir, monkeypatch, caplog):
    monkeypatch.setattr(webapp, "RETRY_FIRST", 0.2)
    monkeypatch.setattr(webapp, "LOOK_EVERY", 0.0)
    gen = tmp_path / "gen-only"
    shutil.copytree(generations.generation(build_dir), gen)
    saved = tmp_path / "model-saved"
    shutil.move(gen / MODEL_NAME, saved)  # as if the disk had not yet given the model back
    generations.switch(tmp_path, gen)
    with caplog.at_level(logging.WARNING, logger="kb"):
        client = TestClient(create_app(tmp_path))
        assert client.get("/it-laws/27").status_code == 503
        time.sleep(0.25)
        assert client.get("/it-laws/27").status_code == 503  # retried once: still failing
    waits = [m.rsplit("trying again in ", 1)[1] for m in caplog.messages if "cannot load" in m]
    assert waits == ["0.2 s", "0.4 s"]  # each failure doubles the wait before the next try
    shutil.move(saved, gen / MODEL_NAME)
    time.sleep(0.45)
    client.get("/it-laws/27")  # the retry is due: this request loads it
    assert client.get("/it-laws/27").status_code == 200


def test_the_503_page_names_no_path_of_the_server(tmp_path):
    client = TestClient(create_app(tmp_path / "nothing-here"))
    for path in ("/it-laws/27", "/api/docs"):
        r = client.get(path)
        assert r.status_code == 503 and "no complete build" in r.text
        assert str(tmp_path) not in r.text and "/tmp" not in r.text


def test_a_current_that_is_a_folder_is_one_line_with_the_fix(tmp_path, build_dir):
    shutil.copytree(generations.generation(build_dir), tmp_path / "current")  # a copy that followed links
    r = run_kb(tmp_path, "show", "it-laws", "27")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "not a link" in lines[0] and "rm -r" in lines[0]


def test_the_cli_reads_the_newest_complete_generation_when_current_is_gone(two_generations):
    folder, good, bad = two_generations
    shutil.rmtree(bad)  # `current` now names nothing
    (folder / generations.LOCK).mkdir()  # and the folder refuses the rebuild's first write
    r = run_kb(folder, "show", "it-laws", "27")
    assert r.returncode == 0 and "LICITA INSUFFICIENTE" in r.stdout
    assert "kb: warning: cannot rebuild" in r.stderr and good.name in r.stderr and "Traceback" not in r.stderr


def test_a_stale_build_on_a_disk_that_refuses_writes_is_read_not_rebuilt(tmp_path, build_dir):
    gen = tmp_path / "gen-old"
    shutil.copytree(generations.generation(build_dir), gen)
    (gen / generations.STAMP_NAME).write_text("an older corpus\n", encoding="utf-8")
    generations.switch(tmp_path, gen)
    (tmp_path / generations.LOCK).mkdir()
    r = run_kb(tmp_path, "search", "licita insufficiente")
    assert r.returncode == 0 and "27" in r.stdout and "may be stale" in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [generations.LOCK, "current", "gen-old"]


def test_serve_on_a_busy_port_says_so_before_serving(build_dir):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        r = run_kb(build_dir, "serve", "--port", str(taken.getsockname()[1]))
    assert r.returncode == 2 and "--port" in r.stderr and "serving" not in r.stdout
    assert len(r.stderr.strip().splitlines()) == 1
