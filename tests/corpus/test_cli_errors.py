"""Every `kb` failure is one line on stderr and a non-zero exit, never a traceback, and
`kb export` writes only regular files (issue 11: findings 5 and the CLI list)."""
import json
import os
import stat
import subprocess
import sys

import pytest


def one_line_error(r) -> bool:
    lines = r.stderr.strip().splitlines()
    return r.returncode != 0 and len(lines) == 1 and lines[0].startswith("kb: error:") and "Traceback" not in r.stderr


def test_export_refuses_a_device_and_leaves_it_alone(kb):
    before = os.stat("/dev/null")
    r = kb("export", "/dev/null")
    assert one_line_error(r) and "not a regular file" in r.stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev


def test_export_refuses_a_fifo_and_a_directory(kb, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = kb("export", str(fifo))
    assert one_line_error(r) and stat.S_ISFIFO(os.stat(fifo).st_mode)
    r = kb("export", str(tmp_path))
    assert one_line_error(r) and "a directory" in r.stderr


def test_export_through_a_symlink_writes_the_file_it_names(kb, tmp_path):
    target = tmp_path / "kb.json"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    r = kb("export", str(link))
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and json.loads(target.read_text(encoding="utf-8"))["format"] == 1


def test_export_dash_writes_standard_output(kb):
    r = kb("export", "-")
    assert r.returncode == 0 and {d["id"] for d in json.loads(r.stdout)["documents"]} >= {"it-laws", "es-laws"}


def test_a_closed_standard_output_is_one_line_not_a_traceback(build_dir):
    env = dict(os.environ, KB_BUILD_DIR=str(build_dir))
    p = subprocess.Popen([sys.executable, "-m", "kb.cli", "export", "-"], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stdout.close()  # the reader leaves at once, like `| head -0`
    err = p.stderr.read()
    assert p.wait(timeout=120) != 0
    assert err.strip().startswith("kb: error:") and "Traceback" not in err


def test_an_ascii_only_terminal_gets_text_not_a_traceback(build_dir):
    env = dict(os.environ, KB_BUILD_DIR=str(build_dir), PYTHONIOENCODING="ascii")
    r = subprocess.run([sys.executable, "-m", "kb.cli", "show", "it-laws", "27"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "LICITA INSUFFICIENTE" in r.stdout and "Traceback" not in r.stderr


@pytest.mark.parametrize("args", [
    ("graph", "/nonexistent-folder/g.graphml"),
    ("export", "/nonexistent-folder/kb.json"),
    ("show", "it-laws", "999"),
    ("show", "xx-laws", "1"),
])
def test_bad_arguments_are_one_line(kb, args):
    assert one_line_error(kb(*args))


@pytest.mark.parametrize("args", [("--workers", "0"), ("--workers", "many")])
def test_serve_refuses_a_worker_count_that_cannot_be(kb, args):
    r = kb("serve", *args)
    assert r.returncode == 2 and "number of workers" in r.stderr and "Traceback" not in r.stderr


def test_a_build_folder_that_is_a_file_is_one_line(tmp_path):
    folder = tmp_path / "build"
    folder.write_text("not a folder", encoding="utf-8")
    env = dict(os.environ, KB_BUILD_DIR=str(folder))
    r = subprocess.run([sys.executable, "-m", "kb.cli", "show", "it-laws", "27"], env=env,
                       capture_output=True, text=True, timeout=120)
    assert one_line_error(r) and "is a file" in r.stderr and folder.read_text(encoding="utf-8") == "not a folder"


@pytest.mark.parametrize("port", ["99999", "0", "http"])
def test_serve_refuses_a_port_that_cannot_be(kb, port):
    r = kb("serve", "--port", port)
    assert r.returncode == 2 and "not a port number" in r.stderr and "Traceback" not in r.stderr


def test_an_empty_build_dir_variable_is_no_folder(monkeypatch):
    from kb.pipeline import generations
    monkeypatch.setenv("KB_BUILD_DIR", "")
    assert generations.default_build_dir() == generations.CHECKOUT / "build"


def bad_byte(path, line):
    """A Latin-1 "é" at the end of the line: a byte UTF-8 cannot read."""
    lines = path.read_bytes().split(b"\n")
    lines[line - 1] += b"\xe9"
    path.write_bytes(b"\n".join(lines))


def replace(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def cut(path, at):
    text = path.read_text(encoding="utf-8")
    path.write_text(text[:text.index(at)], encoding="utf-8")


BAD_CORPORA = {  # what is done to a copy of the corpus → what the one line names
    "a text not in UTF-8": (lambda c: bad_byte(c / "it-laws-2017.txt", 100), "it-laws-2017.txt, line 100:"),
    "a bad byte in a table": (lambda c: bad_byte(c / "glossary.tsv", 6), "glossary.tsv, line 6:"),
    "a bad byte in the tuning": (lambda c: bad_byte(c / "tuning" / "thesaurus.tsv", 9), "thesaurus.tsv, line 9:"),
    "a text its parser rejects": (lambda c: (c / "it-timeref-2011.txt").write_text("", encoding="utf-8"),
                                  "it-timeref-2011.txt: does not read as it_timeref"),
    "a text read by another profile": (lambda c: replace(c / "manifest.toml", 'profile = "it_laws"',
                                                         'profile = "it_norms"'), "it-laws-2017.txt: read as it_norms"),
    "a text cut short": (lambda c: cut(c / "it-laws-2017.txt", "ARTICOLO 90"), "it-laws-2017.txt (read as it_laws)"),
}


@pytest.mark.slow
@pytest.mark.parametrize("damage", BAD_CORPORA)
def test_a_corpus_that_cannot_be_built_is_one_line_naming_the_file(tmp_path, build_dir, damage):
    import contextlib
    import io
    import shutil
    from kb import cli
    from kb.pipeline import generations
    from kb.corpus.manifest import CORPUS_DIR
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS_DIR, corpus)
    do, names = BAD_CORPORA[damage]
    do(corpus)
    folder = tmp_path / "build"
    served = folder / generations.generation(build_dir).name
    shutil.copytree(generations.generation(build_dir), served)
    generations.switch(folder, served)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(["--build-dir", str(folder), "--corpus", str(corpus), "build"])
    lines = err.getvalue().strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith("kb: error: "), err.getvalue()
    assert names in lines[0] and str(corpus) in lines[0] and "gen-" not in lines[0]
    assert generations.generation(folder) == served  # nothing switched in, nothing left behind
    assert sorted(p.name for p in folder.glob(generations.GENERATION_PREFIX + "*")) == [served.name]
