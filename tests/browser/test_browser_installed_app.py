"""The server the browser tests drive runs the *installed* package (ARCHITECTURE §2).

In CI (`.ci/run`) the package is a wheel installed into a fresh venv, and the environment
says so with COMPANION_EXPECT_INSTALLED=1: then these tests insist that `companion` comes
from site-packages and that its templates and static files are the copies the wheel carries
inside the package (hatch force-include), not the repository's top-level folders. Locally
(an editable install) they only check that the real server serves a template and a static
file. No browser needed.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXPECT_INSTALLED = os.environ.get("COMPANION_EXPECT_INSTALLED") == "1"

PROBE = """
import json, companion
print(json.dumps({"package": companion.__file__,
                  "templates": companion._asset_dir("templates"),
                  "static": companion._asset_dir("static")}))
"""


def where_companion_comes_from(tmp_path) -> dict:
    """Import `companion` exactly as the server subprocess does (`-P`, cwd outside the repo)."""
    out = subprocess.run([sys.executable, "-P", "-c", PROBE], cwd=tmp_path, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def fetch(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read()


def test_live_server_serves_a_template_and_static_files(live_url):
    status, ctype, body = fetch(live_url + "/")
    assert status == 200 and ctype.startswith("text/html")
    assert b"Table Companion" in body and b"/static/css/app.css" in body
    status, ctype, body = fetch(live_url + "/static/css/app.css")
    assert status == 200 and ctype.startswith("text/css") and b"--accent" in body
    status, ctype, body = fetch(live_url + "/static/vendor/htmx-4.0.1/htmx.min.js")
    assert status == 200 and "javascript" in ctype and len(body) > 10_000
    status, ctype, _ = fetch(live_url + "/manifest.webmanifest")
    assert status == 200 and ctype.startswith("application/manifest+json")


def test_assets_resolve_inside_the_installed_package(tmp_path):
    found = where_companion_comes_from(tmp_path)
    package = Path(found["package"]).parent
    templates, static = Path(found["templates"]), Path(found["static"])
    assert (templates / "tables" / "table.html").is_file(), found
    assert (static / "js" / "app.js").is_file(), found
    if not EXPECT_INSTALLED:
        return
    assert "site-packages" in package.parts, f"companion imported from {package}, not a wheel"
    assert package != REPO / "companion", f"companion imported from the checkout: {package}"
    assert templates == package / "templates", found
    assert static == package / "static", found


def test_this_pytest_process_imports_the_installed_package_in_ci():
    """tests/rules and tests/web import `companion` in-process: in CI that must be the wheel
    too (`.ci/run` sets PYTHONSAFEPATH=1, so `python -m pytest` doesn't put the checkout
    first on sys.path)."""
    import companion

    package = Path(companion.__file__).resolve().parent
    if EXPECT_INSTALLED:
        assert "site-packages" in package.parts, package
        assert package != REPO / "companion", package
        assert (package / "templates" / "base.html").is_file()
        assert (package / "static" / "css" / "app.css").is_file()
