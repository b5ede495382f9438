"""Fuzzing every POST under /t/<table_id> (tests/web/fuzzing.py says what is drawn and checked)."""
from __future__ import annotations

import pytest

from fuzzing import answered, route_list, run_fuzz, successes


@pytest.mark.slow
def test_fuzz_table_writes(tmp_path):
    """Every POST under /t/<table_id>: entries, undo, rematch, seats, host tools."""
    routes, stats = run_fuzz(tmp_path, "table_writes",
                             lambda app: route_list(app, methods=("POST",), table=True))
    assert successes(stats) >= 60, "the fuzz hardly got past the refusals"
    for rule, _method, endpoint in routes:
        assert answered(stats, endpoint, "POST", 4), f"{rule} never refused"
