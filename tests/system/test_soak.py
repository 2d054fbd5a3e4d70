"""The soak run's short version (issue 11): a real server under mixed, hostile load, idle
sockets and rebuilds answers every well-formed request, and each hostile one without a
5xx. The full run is `python scripts/soak.py` (10 minutes; README)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "soak.py"


def test_a_short_soak_has_no_errors_and_serves_the_rebuilds():
    r = subprocess.run([sys.executable, str(SCRIPT), "--minutes", "0.3", "--rebuild-every", "2", "--idle", "30"],
                       capture_output=True, text=True, timeout=600)
    result = json.loads(r.stdout)
    assert result["errors"] == 0, result["error_samples"]
    assert result["hostile"] > 10 and result["requests"] > 200
    assert result["rebuilds"] >= 1 and result["rebuilds_failed"] == 0 and result["serves_the_latest_build"]
    assert r.returncode == 0
