"""A real install (issue 12, part 7): `pip install .` (not editable) into a fresh virtual
environment gives a `kb` that builds, searches and serves the built-in corpus from any
directory, writing its build to the user's data directory."""
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from measure.loadgen import free_port

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A venv (seeing this environment's dependencies) with the project installed from a wheel."""
    root = tmp_path_factory.mktemp("install")
    source = root / "source"  # a copy: setuptools writes into build/, which is the checkout's build folder
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__",
                                                                "test-artifacts", ".pytest_cache"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", str(source)],
                       capture_output=True, text=True, cwd=root)
    assert r.returncode == 0, r.stderr[-2000:]
    home = root / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("KB_BUILD_DIR", "XDG_DATA_HOME", "PYTHONPATH")}
    return venv / "bin" / "kb", dict(env, HOME=str(home)), root


def test_the_installed_kb_is_not_this_checkout(installed):
    kb, env, root = installed
    r = subprocess.run([str(kb.parent / "python"), "-c", "import kb, kb.corpus.manifest as m; print(kb.__file__, m.CORPUS_DIR)"],
                       capture_output=True, text=True, env=env, cwd=root)
    assert "site-packages" in r.stdout and str(REPO) not in r.stdout and "source" not in r.stdout


def test_build_and_search_from_another_directory(installed):
    kb, env, root = installed
    built = subprocess.run([str(kb), "build"], capture_output=True, text=True, env=env, cwd=root, timeout=300)
    assert built.returncode == 0, built.stderr
    assert (root / "home" / ".local" / "share" / "bridge-laws-kb" / "build" / "current").is_symlink()
    found = subprocess.run([str(kb), "search", "licita insufficiente"], capture_output=True, text=True,
                           env=env, cwd=root, timeout=120)
    assert found.returncode == 0 and "LICITA INSUFFICIENTE" in found.stdout


def test_serve_from_another_directory(installed):
    kb, env, root = installed
    port = free_port()
    server = subprocess.Popen([str(kb), "serve", "--port", str(port)], env=env, cwd=root,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/it-laws/27", timeout=5) as r:
                    page = r.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "kb serve did not start"
                time.sleep(0.3)
        assert "LICITA INSUFFICIENTE" in page
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/compare/6?ui=it", timeout=5) as r:
            assert '<span class="note" lang="it">Il Codice 2017 aggiunge' in r.read().decode()  # the readers' notes
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/style.css", timeout=5) as r:
            assert r.status == 200
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_a_plain_install_writes_the_static_copy(tmp_path):
    """The README's install without the test extra — a fresh venv that sees nothing of this
    environment, the runtime dependencies from the package index — then `kb site`: it renders
    through the app itself (no HTTP client: httpx is not there) and writes the pages of every
    language and the search data the browser's offline search reads."""
    source = tmp_path / "source"  # a copy: setuptools writes into build/, which is the checkout's build folder
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__",
                                                                "test-artifacts", ".pytest_cache"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    r = subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "-e", str(source)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=900)
    assert r.returncode == 0, r.stderr[-2000:]
    python = str(venv / "bin" / "python")
    bare = subprocess.run([python, "-c", "import httpx"], capture_output=True, text=True)
    assert bare.returncode != 0 and "No module named 'httpx'" in bare.stderr  # the test extra is not there
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("KB_BUILD_DIR", "XDG_DATA_HOME", "PYTHONPATH")}
    out = tmp_path / "out"
    site = subprocess.run([str(venv / "bin" / "kb"), "site", str(out)], capture_output=True, text=True,
                          env=dict(env, HOME=str(home)), cwd=tmp_path, timeout=900)
    assert site.returncode == 0 and "Traceback" not in site.stderr, site.stderr[-2000:]
    said = re.search(r"wrote (\d+) pages in each of 3 languages, (\d+) files, ([\d.]+) MB .* in ([\d.]+) s", site.stdout)
    files = [p for p in out.rglob("*") if p.is_file()]
    assert said and int(said[2]) == len(files), site.stdout
    assert abs(float(said[3]) - sum(p.stat().st_size for p in files) / 1e6) < 0.1
    for loc, word in (("it", "Cerca"), ("es", "Buscar"), ("en", "Search")):
        assert f">{word}</button>" in (out / loc / "it-laws" / "27.html").read_text(encoding="utf-8")
        assert (out / "offline" / f"pages-{loc}.pack").stat().st_size > 100_000
    assert int(said[1]) == len(list((out / "it").rglob("*.html")))
    model = (out / "offline" / "search-model.bin").read_bytes()
    built = source / "build" / "current"  # an editable install builds in its checkout's build/
    assert model == (built / "search-model.bin").read_bytes()
