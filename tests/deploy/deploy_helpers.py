"""Helpers for the deployment tests: the shipped files with their site lines filled in, a
self-signed certificate, and nginx / gunicorn started as this user's own processes.

The files under deploy/ are used as shipped: only the lines marked `# SITE` (the host name,
the certificate, the listen ports, the backend) are replaced, by exact string replacement,
and a replacement that finds nothing fails the test (the file changed under it).
"""
from __future__ import annotations

import http.client
import importlib.util
import os
import shutil
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

# tests/ (helpers.py) and tests/faults (fault_helpers.py), also when run outside pytest.
sys.path[:0] = [str(Path(__file__).resolve().parents[1]),
                str(Path(__file__).resolve().parents[1] / "faults")]
from fault_helpers import Client, Response  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
# Debian's nginx keeps mime.types here; the test's main config includes it like Debian's does.
NGINX_MIME_TYPES = "/etc/nginx/mime.types"
SHIPPED_NAME = "club.example.org"
NAME = "club.test"      # the tests' made-up host name (a self-signed certificate for it)


def replaced(text: str, replacements: list[tuple[str, str]]) -> str:
    """`text` with each (old, new) replaced; every `old` must occur (else: AssertionError)."""
    for old, new in replacements:
        assert old in text, f"the shipped file no longer contains {old!r}"
        text = text.replace(old, new)
    return text


def self_signed_cert(folder: Path, name: str) -> tuple[Path, Path]:
    """A self-signed certificate for `name` (and its key), written to `folder`."""
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run([OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name}",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    return cert, key


def nginx_site(name: str, cert: Path, key: Path, http_port: int, https_port: int,
               backend: str) -> str:
    """deploy/nginx.conf with its `# SITE` lines filled in for a test on 127.0.0.1."""
    text = (DEPLOY / "nginx.conf").read_text()
    return replaced(text, [
        ("server 127.0.0.1:8000;", f"server {backend};"),
        ("    listen [::]:80;", "    # listen [::]:80;"),
        ("    listen [::]:443 ssl http2;", "    # listen [::]:443 ssl http2;"),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        (f"/etc/letsencrypt/live/{SHIPPED_NAME}/fullchain.pem", str(cert)),
        (f"/etc/letsencrypt/live/{SHIPPED_NAME}/privkey.pem", str(key)),
        (f"server_name {SHIPPED_NAME};", f"server_name {name};"),
    ])


def nginx_main_conf(prefix: Path, site: Path, access_log: Path) -> Path:
    """A minimal main nginx.conf around `site` (what Debian's /etc/nginx/nginx.conf does)."""
    for sub in ("logs", "tmp"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    main = prefix / "nginx.conf"
    user = "user root;\n" if os.geteuid() == 0 else ""
    main.write_text(
        f"{user}worker_processes 1;\n"
        f"pid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'logs' / 'error.log'} info;\n"
        "events { worker_connections 1024; }\n"
        "http {\n"
        f"    include {NGINX_MIME_TYPES};\n"
        "    default_type application/octet-stream;\n"
        f"    access_log {access_log};\n"
        f"    client_body_temp_path {prefix / 'tmp' / 'body'};\n"
        f"    proxy_temp_path {prefix / 'tmp' / 'proxy'};\n"
        f"    fastcgi_temp_path {prefix / 'tmp' / 'fastcgi'};\n"
        f"    uwsgi_temp_path {prefix / 'tmp' / 'uwsgi'};\n"
        f"    scgi_temp_path {prefix / 'tmp' / 'scgi'};\n"
        f"    include {site};\n"
        "}\n")
    return main


def nginx_test(prefix: Path, main: Path) -> subprocess.CompletedProcess:
    """`nginx -t` on the test's main config."""
    return subprocess.run([NGINX, "-t", "-p", str(prefix), "-c", str(main)],
                          capture_output=True, text=True, timeout=60)


def start_nginx(prefix: Path, main: Path) -> subprocess.Popen:
    """nginx in the foreground (`daemon off`) as this user's own process."""
    log = open(prefix / "logs" / "nginx.out", "wb")
    return subprocess.Popen([NGINX, "-p", str(prefix), "-c", str(main), "-g", "daemon off;"],
                            stdout=log, stderr=subprocess.STDOUT)


def stop(process: subprocess.Popen, timeout: float = 15.0) -> int | None:
    """SIGTERM, then SIGKILL after `timeout`; the exit code."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    return process.returncode


def wait_for_port(host: str, port: int, process: subprocess.Popen | None = None,
                  timeout: float = 30.0) -> None:
    """Wait until something accepts TCP connections on host:port."""
    deadline = time.monotonic() + timeout
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the process exited with {process.returncode}")
        try:
            with socket.create_connection((host, port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing listens on {host}:{port} after {timeout:.0f} s")
            time.sleep(0.1)


def scripts_dir() -> Path:
    """The folder of this Python's console scripts (gunicorn, companion): the venv's bin."""
    return Path(sys.executable).parent


def gunicorn_command() -> list[str]:
    """The command deploy/companion.service and the Dockerfile run (the config module)."""
    return [sys.executable, "-P", "-m", "gunicorn", "-c", "python:companion.gunicorn_conf",
            "companion:create_app()"]


class Backend:
    """gunicorn as deploy/companion.service runs it, restartable on the same port and folder."""

    def __init__(self, instance: Path, port: int, public_url: str, log: Path):
        self.instance, self.port, self.log = instance, port, log
        self.env = {"COMPANION_INSTANCE_PATH": str(instance),
                    "COMPANION_BIND": f"127.0.0.1:{port}",
                    "COMPANION_TRUSTED_PROXIES": "1", "COMPANION_PUBLIC_URL": public_url,
                    "COMPANION_WORKERS": "2", "PYTHONUNBUFFERED": "1"}
        self.process: subprocess.Popen | None = None
        instance.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def has_config_module() -> bool:
        return importlib.util.find_spec("companion.gunicorn_conf") is not None

    def command(self) -> list[str]:
        if self.has_config_module():
            return gunicorn_command()
        # Without companion/gunicorn_conf.py (reported as a failure below): the README's
        # command with a request log, so the rest of the evening can still be checked.
        return [sys.executable, "-P", "-m", "gunicorn", "-k", "gevent", "-w", "2",
                "--worker-connections", "4000", "-b", self.env["COMPANION_BIND"],
                "--access-logfile", "-", "companion:create_app()"]

    def start(self) -> None:
        env = {**os.environ, **self.env}
        env.pop("PYTHONSAFEPATH", None)
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(self.command(), cwd=self.instance, env=env,
                                            stdout=out, stderr=subprocess.STDOUT)
        try:
            wait_for_port("127.0.0.1", self.port, self.process, timeout=90)
        except RuntimeError as exc:
            raise RuntimeError(f"gunicorn did not start: {exc}\n{self.output()}") from None

    def terminate(self) -> float:
        """SIGTERM; the seconds until gunicorn exited (killed after 40 s)."""
        assert self.process is not None
        started = time.monotonic()
        self.process.terminate()
        try:
            self.process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)
        return time.monotonic() - started

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


# ---------------------------------------------------------------- a phone over TLS

class TLSConnection(http.client.HTTPSConnection):
    """HTTPS to club.test at 127.0.0.1, from a chosen client address."""

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout,
                                        self.source_address)
        self.sock = self._context.wrap_socket(sock, server_hostname=NAME)


class TLSClient(Client):
    """fault_helpers.Client (cookies, CSRF, the flows) over https://club.test, from `source`."""

    def __init__(self, base: str, name: str, source: str, cafile: Path):
        super().__init__(base, name)
        self.source = source
        self.context = ssl.create_default_context(cafile=str(cafile))
        self.statuses: list[int] = []

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        return TLSConnection(NAME, urlsplit(self.base).port, timeout=max(timeout, 30.0),
                             context=self.context, source_address=(self.source, 0))

    def answered(self, raw: http.client.HTTPResponse) -> None:
        self.statuses.append(raw.status)
        self.last_headers = raw.headers     # all of them, repeated ones too

    def follow(self, response: Response, limit: int = 5) -> Response:
        """Follow redirects (same site) with GETs."""
        while response.status in (301, 302, 303, 307) and limit:
            response = self.get(urlsplit(response.headers["location"]).path or "/")
            limit -= 1
        return response
