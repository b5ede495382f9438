"""Fuzzing every route (tests/web/fuzzing.py says what is drawn and checked): every route has
a fuzz description and a seed; the home page's writes.
The GET routes, the table writes and odd bodies and methods are fuzzed in
test_web_fuzz_reads.py, test_web_fuzz_table_writes.py and test_web_fuzz_odd.py (files of their
own, so the test workers run them side by side)."""
from __future__ import annotations

from fuzzing import (EXAMPLES, MIN_REQUESTS, PATH_PARAMETERS, ROUTES, SEEDS, answered,
                     route_list, run_fuzz, successes)


def test_fuzz_covers_every_route(app):
    """Every rule but `static` has a fuzz description: a new route can't escape the fuzzing."""
    seen = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        for argument in rule.arguments:
            assert argument in PATH_PARAMETERS, f"no fuzz strategy for <{argument}> in {rule.rule}"
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            seen.add((rule.rule, method))
    assert seen == set(ROUTES), (f"routes without a fuzz description: {seen - set(ROUTES)}; "
                                 f"described but gone: {set(ROUTES) - seen}")
    seeded = {(req.rule, req.method) for req in SEEDS}
    assert seeded == set(ROUTES), f"routes without a seed request: {set(ROUTES) - seeded}"
    # Each fuzz test sends its EXAMPLES[name] requests (run_fuzz asserts it), so together they
    # send at least MIN_REQUESTS: they run in four files, on whichever workers are free.
    assert sum(EXAMPLES.values()) >= MIN_REQUESTS


def test_fuzz_home_writes(tmp_path):
    """POST /new/<slug>, /join and /j: names, settings, codes, tokens."""
    _routes, stats = run_fuzz(tmp_path, "home_writes",
                     lambda app: route_list(app, methods=("POST",), table=False))
    assert successes(stats) >= 30, "the fuzz hardly got past the refusals"
    for endpoint in ("home.create_table", "home.join_by_code", "home.join_by_token"):
        assert answered(stats, endpoint, "POST", 4), f"{endpoint} never refused"
