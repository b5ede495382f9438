"""Fuzzing every GET route (tests/web/fuzzing.py says what is drawn and checked)."""
from __future__ import annotations

import pytest

from fuzzing import TABLE, answered, route_list, run_fuzz, successes


@pytest.mark.slow
def test_fuzz_get_routes(tmp_path):
    """Every GET route (and HEAD): path parameters, query strings, headers, cookies."""
    routes, stats = run_fuzz(tmp_path, "get_routes", lambda app: route_list(app, methods=("GET",)))
    assert successes(stats) >= 200, "the fuzz hardly got past the refusals"
    for rule, _method, endpoint in routes:
        if rule.startswith(TABLE):
            assert answered(stats, endpoint, "GET", 4), f"{rule} never refused"
