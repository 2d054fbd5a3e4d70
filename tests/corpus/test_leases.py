"""A generation in use is never removed (issue 30, item 1): a reader leases the generation it
reads (a shared lock on its folder, nothing written), and pruning spares every leased one,
however many builds land meanwhile; a lease goes with its process, however it ends."""
import fcntl
import os
import signal
import subprocess
import sys

from kb.pipeline import generations


def fake_generations(build_dir, n):
    """`n` complete generations, oldest first, the newest current (pruning reads only the
    markers and the link)."""
    gens = []
    for i in range(n):
        gen = build_dir / f"gen-{i}"
        gen.mkdir()
        (gen / generations.COMPLETE).write_text(generations.COMPLETE_TEXT, encoding="utf-8")
        os.utime(gen / generations.COMPLETE, (1000 + i, 1000 + i))
        gens.append(gen)
    generations.switch(build_dir, gens[-1])
    return gens


def test_prune_keeps_a_leased_generation_and_removes_it_once_let_go(tmp_path):
    gens = fake_generations(tmp_path, 6)
    before = sorted(p.name for p in gens[0].iterdir())
    held = generations.lease(gens[0])  # a server still serving the oldest, five builds on
    assert held is not None and sorted(p.name for p in gens[0].iterdir()) == before  # nothing written
    generations.prune_locked(tmp_path)
    assert [g.exists() for g in gens] == [True, False, False, True, True, True]
    held.release()
    generations.prune_locked(tmp_path)
    assert [g.exists() for g in gens] == [False, False, False, True, True, True]


def test_a_lease_goes_with_its_process_however_it_ends(tmp_path):
    gens = fake_generations(tmp_path, 5)
    holder = subprocess.Popen([sys.executable, "-c", "import sys, time; from pathlib import Path; "
                               "from kb.pipeline import generations; held = generations.lease(Path(sys.argv[1])); "
                               "print('held' if held else 'none', flush=True); time.sleep(120)", str(gens[0])],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        generations.prune_locked(tmp_path)
        assert gens[0].exists() and not gens[1].exists()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
    generations.prune_locked(tmp_path)
    assert [g.exists() for g in gens] == [False, False, True, True, True]


def test_a_generation_removed_or_being_removed_is_not_leased(tmp_path):
    gens = fake_generations(tmp_path, 2)
    assert generations.remove_unleased(gens[0])
    assert generations.lease(gens[0]) is None
    fd = os.open(gens[1], os.O_RDONLY | os.O_DIRECTORY)  # as a prune holds one it removes
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert generations.lease(gens[1]) is None
    finally:
        os.close(fd)
    assert generations.lease(gens[1]) is not None


def test_an_incomplete_generation_is_not_leased(tmp_path):
    gen = tmp_path / "gen-half"
    gen.mkdir()
    assert generations.lease(gen) is None
    assert generations.remove_unleased(gen) and not gen.exists()
