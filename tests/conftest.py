"""Shared fixtures: the real server and Chromium "phones" for the browser tests.

Nothing here runs unless a test asks for it: the server starts only when a test
requests `live_server` (the browser tests), so tests/rules and tests/web stay fast.

The browser tests drive Debian's Chromium (ARCHITECTURE.md §8). Without it they skip
locally and FAIL when the `CI` environment variable is set: CI must run them.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import compile_once
import pytest
from helpers import free_port, in_ci

# Every test app compiles the same URL rules and templates: once per process is enough.
compile_once.install()

CHROMIUM = os.environ.get("COMPANION_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--no-first-run", "--disable-default-apps",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
SERVER_START_TIMEOUT = 30.0


@dataclass
class LiveServer:
    """A `companion serve` subprocess on 127.0.0.1."""

    url: str
    process: subprocess.Popen
    instance: Path
    log: Path

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""


def start_server(instance: Path, port: int | None = None, host: str = "127.0.0.1") -> LiveServer:
    """Start `python -m companion.cli serve` and wait until it answers.

    The server runs with `-P` and its working directory in `instance`, so it imports the
    *installed* `companion` (in CI: the wheel, with its packaged templates and static
    files), never a `companion/` folder that happens to be in the current directory.
    """
    port = port or free_port(host)
    instance.mkdir(parents=True, exist_ok=True)
    # Every browser is one address (127.0.0.1): lift the creation quotas for the suite
    # (test_web_quotas.py tests them). create_app reads the instance's config.py.
    config = instance / "config.py"
    if not config.exists():
        config.write_text("TABLE_CREATE_LIMIT = (100_000, 60.0)\n"
                          "EVENT_CREATE_LIMIT = (100_000, 60.0)\n"
                          "EVENT_TABLE_LIMIT = (1_000_000, 60.0)\n"
                          "STREAMS_PER_ADDRESS = 100_000\n"
                          'TOOL_RATE_LIMIT = "100000 per minute"\n')
    log = instance / "server.log"
    env = {**os.environ, "COMPANION_INSTANCE_PATH": str(instance), "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-P", "-m", "companion.cli", "serve",
           "--host", host, "--port", str(port), "--quiet"]
    with open(log, "wb") as out:
        process = subprocess.Popen(cmd, cwd=instance, env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    server = LiveServer(f"http://{host}:{port}", process, instance, log)
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"companion serve exited with {process.returncode}:\n"
                               f"{server.output()}")
        try:
            with urllib.request.urlopen(server.url + "/", timeout=2) as response:
                if response.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
            pass
        if time.monotonic() > deadline:
            stop_server(server)
            raise RuntimeError(f"companion serve did not answer on {server.url} within "
                               f"{SERVER_START_TIMEOUT:.0f} s:\n{server.output()}")
        time.sleep(0.1)


def stop_server(server: LiveServer) -> None:
    if server.process.poll() is None:
        server.process.terminate()
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory) -> LiveServer:
    """The real server (`companion serve`) with a temporary instance folder."""
    server = start_server(tmp_path_factory.mktemp("instance"))
    yield server
    stop_server(server)


@pytest.fixture(scope="session")
def live_url(live_server: LiveServer) -> str:
    """Base URL of the real server, e.g. http://127.0.0.1:40123."""
    return live_server.url


# ---------------------------------------------------------------- Chromium

def chromium_available() -> bool:
    return os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """pytest-playwright's launch options, pointed at Debian's Chromium (ARCHITECTURE §8)."""
    if not chromium_available():
        message = (f"Chromium not found at {CHROMIUM}: apt-get install -y chromium "
                   "(or set COMPANION_CHROMIUM)")
        if in_ci():
            pytest.fail(f"{message}. The browser tests must run in CI.", pytrace=False)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@dataclass
class Phone:
    """One phone: its own browser context (cookies), its page, and what its console said."""

    name: str
    context: object
    page: object
    console: list[str] = field(default_factory=list)

    def csp_violations(self) -> list[str]:
        return [line for line in self.console if "Content Security Policy" in line]


@pytest.fixture
def phones(browser, live_url):
    """A factory of phones: `phones("A")`, `phones("B", color_scheme="dark")`.

    Each phone is a 390x844 touch context with the live server as its base URL. Console
    errors and uncaught page errors are recorded per phone; after the test, any
    Content-Security-Policy violation fails it.
    """
    made: list[Phone] = []

    def make(name: str = "phone", **options) -> Phone:
        context = browser.new_context(**{**PHONE, "base_url": live_url, **options})
        page = context.new_page()
        phone = Phone(name, context, page)

        def on_console(msg, phone=phone):
            if msg.type in ("error", "warning"):
                where = (msg.location or {}).get("url", "")
                phone.console.append(f"{msg.type}: {msg.text} [{where}]")

        page.on("console", on_console)
        page.on("pageerror", lambda exc, phone=phone: phone.console.append(f"pageerror: {exc}"))
        made.append(phone)
        return phone

    yield make
    violations = {p.name: p.csp_violations() for p in made if p.csp_violations()}
    page_errors = {p.name: [c for c in p.console if c.startswith("pageerror")] for p in made}
    page_errors = {k: v for k, v in page_errors.items() if v}
    for p in made:
        p.context.close()
    assert not violations, f"CSP violations in the browser console: {violations}"
    assert not page_errors, f"uncaught script errors: {page_errors}"


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """test-artifacts/ at the repo root (git-ignored): screenshots for people to look at."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# ---------------------------------------------------------------- the order files run in

# Seconds each of the heaviest files took in a CI run (junit.xml, three workers on two cores;
# only their order matters here).
# With `--dist loadfile` a worker takes a whole file at a time, in collection order; a heavy
# file collected last would run alone at the end while the other workers idle. Longest first
# keeps the workers busy to the end. A file not listed weighs its folder's typical file.
FILE_SECONDS = {
    "faults/test_faults_race.py": 147, "browser/test_browser_events.py": 143,
    "browser/test_browser_phone_dice.py": 142, "web/test_web_fuzz.py": 129,
    "browser/test_browser_phone_cards.py": 108, "browser/test_browser_phone_chrome.py": 103,
    "browser/test_browser_proxy_errors.py": 91, "web/test_web_fuzz_reads.py": 76,
    "web/test_web_fuzz_table_writes.py": 71, "web/test_web_event_scale.py": 62,
    "browser/test_browser_event_registration.py": 61, "browser/test_browser_offline.py": 54,
    "browser/test_browser_phone_rook.py": 46, "faults/test_faults_kill.py": 42,
    "deploy/test_deploy_files.py": 42, "browser/test_browser_event_room.py": 36,
    "web/test_web_fuzz_odd.py": 34, "events/test_pairing.py": 33,
    "browser/test_browser_rocca.py": 30, "browser/test_browser_family_g29pages.py": 28,
    "browser/test_browser_family_layout.py": 26, "faults/test_faults_backup.py": 26,
    "web/test_web_rainbow_rummy.py": 25, "web/test_web_rocca.py": 24,
    "browser/test_browser_e30cards.py": 24, "browser/test_browser_e30pairing.py": 21,
    "browser/test_browser_live_stream.py": 21, "rules/test_zocknroll.py": 21,
    "web/test_web_gunicorn.py": 21, "web/test_web_bad_inputs.py": 20,
    "browser/test_browser_family_e30screens.py": 20, "browser/test_browser_slow_network.py": 20,
    "rules/test_rockit_solver.py": 19, "deploy/test_deploy_nginx.py": 19,
    "browser/test_browser_family_entry.py": 19, "browser/test_browser_event_integrity.py": 19,
    "browser/test_browser_e30broadcast.py": 18,
}
FOLDER_SECONDS = {"browser": 17, "deploy": 15, "faults": 7, "web": 8, "rules": 3, "tables": 4,
                  "events": 1}


def pytest_collection_modifyitems(config, items):
    """Heaviest files first, each file's tests in their own order (see FILE_SECONDS)."""
    root = Path(__file__).resolve().parent

    def seconds(item) -> float:
        path = Path(str(item.path)).resolve()
        try:
            name = path.relative_to(root).as_posix()
        except ValueError:
            return 0.0
        return FILE_SECONDS.get(name, FOLDER_SECONDS.get(name.split("/")[0], 1))

    weight = {}
    for item in items:
        weight.setdefault(item.path, seconds(item))
    first_seen = {path: n for n, path in enumerate(dict.fromkeys(item.path for item in items))}
    items.sort(key=lambda item: (-weight[item.path], first_seen[item.path]))
