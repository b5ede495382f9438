"""Helpers for the deployment tests: the shipped files with their site lines filled in, a
self-signed certificate, and nginx / gunicorn started as this user's own processes.

The files under deploy/ are used as shipped: only the lines marked `# SITE` (the host name,
the certificate, the listen ports, the backend) are replaced, by exact string replacement,
and a replacement that finds nothing fails the test (the file changed under it).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
CADDY = shutil.which("caddy") or "/usr/bin/caddy"
OPENSSL = shutil.which("openssl") or "/usr/bin/openssl"
SYSTEMD_ANALYZE = shutil.which("systemd-analyze") or "/usr/bin/systemd-analyze"
# Debian's nginx keeps mime.types here; the test's main config includes it like Debian's does.
NGINX_MIME_TYPES = "/etc/nginx/mime.types"
SHIPPED_NAME = "club.example.org"


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


@dataclass
class Gunicorn:
    """The real gunicorn with the config module (companion/gunicorn_conf.py)."""

    process: subprocess.Popen
    log: Path
    bind: str

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""


def gunicorn_command() -> list[str]:
    """The command deploy/companion.service and the Dockerfile run (the config module)."""
    return [sys.executable, "-P", "-m", "gunicorn", "-c", "python:companion.gunicorn_conf",
            "companion:create_app()"]


def start_gunicorn(instance: Path, port: int, env: dict[str, str], log: Path) -> Gunicorn:
    """gunicorn on 127.0.0.1:`port` (appending its output to `log`), once it answers."""
    bind = f"127.0.0.1:{port}"
    instance.mkdir(parents=True, exist_ok=True)
    full_env = {**os.environ, "COMPANION_INSTANCE_PATH": str(instance),
                "COMPANION_BIND": bind, "PYTHONUNBUFFERED": "1", **env}
    with open(log, "ab") as out:
        process = subprocess.Popen(gunicorn_command(), cwd=instance, env=full_env,
                                   stdout=out, stderr=subprocess.STDOUT)
    server = Gunicorn(process, log, bind)
    try:
        wait_for_port("127.0.0.1", port, process, timeout=60)
    except RuntimeError as exc:
        stop(process)
        raise RuntimeError(f"gunicorn did not start: {exc}\n{server.output()}") from None
    return server
