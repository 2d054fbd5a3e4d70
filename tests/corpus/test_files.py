"""Files as an operator expects (issue 30, item 2): generations, packages and exports readable by
others as the umask says (0755 folders, 0644 files under umask 022), an existing file's mode kept
when it is written over; a server serves a build it cannot write, and says "cannot read" only
when it cannot."""
import os
import shutil
import stat
import subprocess
import sys
import time
import urllib.request

import pytest

from kb.pipeline import build as builder
from kb.pipeline import generations
from measure.loadgen import free_port

# Root ignores permission bits. In a user namespace that maps root to an ordinary user, a process
# owns the files root made but has no power over their modes: a build made read-only (chmod -R
# a-w) is read-only to it, as to a server run by another user.
AS_ORDINARY_OWNER = ["unshare", "--user", "--map-user=65534", "--map-group=65534"]


def mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask, files", [(0o022, 0o644), (0o027, 0o640)], ids=["umask 022", "umask 027"])
def test_an_export_follows_the_umask(kb, tmp_path, umask, mask, files):
    umask(mask)
    r = kb("export", str(tmp_path / "kb.json"))
    assert r.returncode == 0, r.stderr
    assert mode(tmp_path / "kb.json") == files


@pytest.mark.parametrize("before", [0o644, 0o600, 0o664], ids=oct)
def test_an_export_over_a_file_keeps_its_mode(kb, tmp_path, umask, before):
    umask(0o027)
    out = tmp_path / "kb.json"
    out.write_text("old", encoding="utf-8")
    out.chmod(before)
    assert kb("export", str(out)).returncode == 0
    assert mode(out) == before and out.read_text(encoding="utf-8") != "old"


@pytest.mark.slow
def test_a_package_follows_the_umask_or_the_file_it_replaces(kb, tmp_path, umask):
    umask(0o027)
    assert kb("anki", str(tmp_path / "new.apkg"), "--lang", "it").returncode == 0
    kept = tmp_path / "kept.apkg"
    kept.write_bytes(b"")
    kept.chmod(0o644)
    assert kb("anki", str(kept), "--lang", "it").returncode == 0
    assert mode(tmp_path / "new.apkg") == 0o640 and mode(kept) == 0o644 and kept.stat().st_size > 0


@pytest.mark.slow
@pytest.mark.parametrize("mask, folders, files", [(0o022, 0o755, 0o644), (0o027, 0o750, 0o640)],
                         ids=["umask 022", "umask 027"])
def test_a_generation_follows_the_umask(tmp_path, umask, mask, folders, files):
    umask(mask)
    gen = builder.build(tmp_path).parent
    inside = [gen, *gen.rglob("*")]
    assert {p.name: mode(p) for p in inside if p.is_dir() and mode(p) != folders} == {}
    assert {p.name: mode(p) for p in inside if p.is_file() and mode(p) != files} == {}
    assert any(p.suffix == ".apkg" for p in inside)  # once 0600, as tempfile makes them


@pytest.fixture
def read_only_build(tmp_path, build_dir):
    """A build folder holding a copy of the session's generation, made read-only (its stamp
    says an older corpus, so a reader would rebuild it if it could); writable again after."""
    if subprocess.run([*AS_ORDINARY_OWNER, "true"], capture_output=True).returncode != 0:
        pytest.skip("user namespaces are not available here (unshare --user)")
    folder = tmp_path / "build"
    gen = folder / generations.generation(build_dir).name
    shutil.copytree(generations.generation(build_dir), gen)
    generations.switch(folder, gen)
    (gen / generations.STAMP_NAME).write_text("an older corpus\n", encoding="utf-8")
    subprocess.run(["chmod", "-R", "a-w", str(folder)], check=True)
    yield folder, gen
    subprocess.run(["chmod", "-R", "u+rwX", str(folder)], check=True)


def serve(folder, port):
    env = dict(os.environ, KB_BUILD_DIR=str(folder))
    return subprocess.Popen([*AS_ORDINARY_OWNER, sys.executable, "-m", "kb.cli", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


@pytest.mark.slow
def test_a_server_serves_a_build_it_cannot_write(read_only_build):
    folder, gen = read_only_build
    before = sorted(str(p) for p in folder.rglob("*"))
    port = free_port()
    server = serve(folder, port)
    try:
        answers = {}
        for _ in range(300):
            try:
                for path in ("/api/docs", "/it-laws/27", "/offline/search-model.bin"):
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
                        answers[path] = (r.status, r.headers["x-build"])
                break
            except OSError:
                assert server.poll() is None, server.stderr.read()
                time.sleep(0.2)
        assert set(answers.values()) == {(200, gen.name)}
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert "may be stale" in server.stderr.read()
    assert sorted(str(p) for p in folder.rglob("*")) == before  # nothing written: no lock, no lease


@pytest.mark.slow
def test_a_server_that_cannot_read_the_build_says_so(read_only_build):
    folder, gen = read_only_build
    gen.chmod(0)
    server = serve(folder, free_port())
    assert server.wait(timeout=120) == 2
    err = server.stderr.read().strip()
    assert err.startswith("kb: error: cannot read the build") and gen.name in err and "\n" not in err
    assert "not writable" not in err
