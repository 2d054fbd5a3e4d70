import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kb import build as builder
from web.app import create_app

warnings.filterwarnings("ignore", category=SyntaxWarning)

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def build_dir(tmp_path_factory) -> Path:
    """One real build of the whole corpus, shared by the tests that read the export."""
    d = tmp_path_factory.mktemp("build")
    builder.build(d)
    return d


@pytest.fixture(scope="session")
def export(build_dir) -> dict:
    return builder.load_export(builder.export_path(build_dir))


@pytest.fixture(scope="module")
def client(build_dir):
    """The website in process, over the shared build."""
    return TestClient(create_app(build_dir))


@pytest.fixture(scope="module")
def kb(build_dir):
    """The `kb` command as a user runs it: a real process over the shared build."""
    env = dict(os.environ, KB_BUILD_DIR=str(build_dir))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "kb.cli", *args], env=env,
                              capture_output=True, text=True, timeout=120)
    return run
