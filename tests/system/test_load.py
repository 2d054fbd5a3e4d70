"""Bounded load on loopback: a short mixed run in CI, a long one behind KB_LONG_LOAD=1."""
import os
import random
from urllib.parse import urlencode

import pytest

from measure.evaluation import judged_queries
from measure import loadgen

pytestmark = pytest.mark.slow  # a build, a server, a process or an install: not the fast tier

LONG = os.environ.get("KB_LONG_LOAD") == "1"


def test_mixed_load_gives_no_errors(live_server, export):
    searches = [f"/api/search?{urlencode({'q': q.query})}" for q in judged_queries()]
    units = [f"/{d['id']}/{u['id']}" for d in export["documents"] for u in d["units"]]
    paths = searches + units + [f"/compare/{n}" for n in range(1, 94)]
    random.Random(3).shuffle(paths)
    r = loadgen.run(live_server.port, paths, clients=8 if LONG else 4, seconds=60 if LONG else 3)
    assert r.errors == []
    assert len(r.latencies_ms) > 20
