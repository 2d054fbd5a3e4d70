"""Concurrent builds (issue 11, finding 3): one at a time, a generation switched in only
verified complete, pruning that never removes the current or a building generation."""
import os
import subprocess
import sys

import pytest

from kb.pipeline import build as builder
from kb.pipeline import generations

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier


def test_concurrent_builds_all_succeed_and_current_is_always_complete(tmp_path):
    env = dict(os.environ, KB_BUILD_DIR=str(tmp_path))
    runs = [subprocess.Popen([sys.executable, "-m", "kb.cli", "build"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    results = [(p.wait(timeout=600), p.stderr.read()) for p in runs]
    assert [code for code, _ in results] == [0, 0, 0], [err for _, err in results]
    current = generations.generation(tmp_path)
    assert (current / generations.COMPLETE).exists()
    builder.verify(current)
    gens = list(tmp_path.glob(generations.GENERATION_PREFIX + "*"))
    assert len(gens) <= generations.KEEP_GENERATIONS and all((g / generations.COMPLETE).exists() for g in gens)


def test_a_generation_without_its_search_model_is_never_switched_in(tmp_path, build_dir):
    gen = tmp_path / "gen-broken"
    gen.mkdir()
    (gen / generations.EXPORT_NAME).write_text(generations.export_path(build_dir).read_text(encoding="utf-8"),
                                           encoding="utf-8")
    with pytest.raises(Exception):
        builder.verify(gen)


def test_a_killed_builds_leftover_goes_and_the_current_stays(tmp_path):
    builder.build(tmp_path)
    first = generations.generation(tmp_path)
    leftover = tmp_path / "gen-killed"
    leftover.mkdir()
    (leftover / "kb.json").write_text("{", encoding="utf-8")
    generations.prune_locked(tmp_path)
    assert not leftover.exists() and first.exists() and generations.generation(tmp_path) == first


def test_a_second_build_waits_then_names_the_holder(tmp_path):
    with generations.build_lock(tmp_path):
        with pytest.raises(generations.BuildError, match="holds"):
            with generations.build_lock(tmp_path, wait=0.3):
                pass


def test_kb_check_opens_the_search_model_and_fails_on_a_damaged_one(tmp_path, build_dir):
    from kb.search.model import MODEL_NAME
    import shutil
    shutil.copytree(generations.generation(build_dir), tmp_path / "gen-copy")
    generations.switch(tmp_path, tmp_path / "gen-copy")
    env = dict(os.environ, KB_BUILD_DIR=str(tmp_path))
    run = lambda: subprocess.run([sys.executable, "-m", "kb.cli", "check"], env=env,  # noqa: E731
                                 capture_output=True, text=True, timeout=120)
    assert run().returncode == 0
    damage(tmp_path / "gen-copy" / MODEL_NAME)
    r = run()
    assert r.returncode == 1 and "search-model.bin is damaged" in r.stdout and "Traceback" not in r.stderr


def damage(path):
    """64 bytes of the file's second half zeroed, as a failing disk might."""
    with path.open("r+b") as f:
        f.seek(path.stat().st_size * 3 // 4)
        f.write(b"\0" * 64)
