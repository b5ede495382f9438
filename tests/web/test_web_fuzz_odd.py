"""Fuzzing every route with odd bodies and methods (tests/web/fuzzing.py says what is drawn
and checked)."""
from __future__ import annotations

from fuzzing import route_list, run_fuzz


def test_fuzz_odd_bodies_and_methods(tmp_path):
    """Every route with JSON, multipart and raw bodies, wrong content types and wrong methods."""
    _routes, stats = run_fuzz(tmp_path, "odd_bodies_and_methods", lambda app: route_list(app),
                              seeds=False,
                     methods=["GET", "POST", "POST", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
                     bodies=("multipart", "json", "json", "raw", "raw", "form", "none"))
    assert sum(n for (_e, m, k), n in stats.items() if m in ("PUT", "PATCH", "DELETE") and k == 4)
