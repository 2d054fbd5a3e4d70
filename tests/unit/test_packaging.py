"""What a real install ships: every package of the source is in pyproject's list (the slow
tests/system/test_install.py proves an install works; this says which package it would have missed)."""
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_every_source_package_is_shipped():
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(REPO).parts) for top in ("kb", "web") for p in (REPO / top).rglob("*.py")
             if "__pycache__" not in p.parts}
    assert found - listed == set()
