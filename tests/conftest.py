import warnings
from pathlib import Path

import pytest

from kb import build as builder

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
