"""The deployment files under deploy/ and the Dockerfile, checked by the tools that read them.

- the three systemd units pass `systemd-analyze verify` (with no warning at all), their
  ExecStart pointing at this machine's real gunicorn and companion scripts;
- deploy/nginx.conf, as shipped with only its `# SITE` lines filled in, passes `nginx -t`
  inside a minimal main config like Debian's;
- deploy/Caddyfile passes `caddy validate`;
- the Dockerfile's steps, followed in a venv as a non-root user (tests/deploy/dockerfile_steps.py),
  give a server whose HEALTHCHECK passes and which exits within 10 s of its STOPSIGNAL with
  a live phone connected.

A missing tool skips its test locally and fails it in CI (.ci/run installs them).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import in_ci

sys.path.insert(0, str(Path(__file__).resolve().parent))
import dockerfile_steps  # noqa: E402
from deploy_helpers import (  # noqa: E402
    CADDY, DEPLOY, NGINX, ROOT, SYSTEMD_ANALYZE, nginx_main_conf, nginx_site, nginx_test,
    scripts_dir, self_signed_cert)

UNITS = ["companion.service", "companion-prune.service", "companion-prune.timer"]
SHIPPED_BIN = "/opt/companion/venv/bin/"


def need(tool: str) -> None:
    if not (os.path.isfile(tool) and os.access(tool, os.X_OK)):
        message = f"{tool} is not installed (apt-get install -y nginx caddy systemd)"
        if in_ci():
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


def script(name: str, tmp_path: Path) -> Path:
    """This Python's console script `name` (the venv's bin, as /opt/companion/venv/bin on a
    server); where pytest runs from a checkout without it installed, a wrapper that runs
    the same module with this Python."""
    found = scripts_dir() / name
    if found.exists():
        return found
    module = {"gunicorn": "gunicorn", "companion": "companion.cli"}[name]
    wrapper = tmp_path / "bin" / name
    wrapper.parent.mkdir(exist_ok=True)
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} -m {module} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


# ---------------------------------------------------------------- systemd

def test_systemd_units_verify(tmp_path):
    need(SYSTEMD_ANALYZE)
    units = tmp_path / "units"
    units.mkdir()
    for name in UNITS:
        text = (DEPLOY / name).read_text()
        for command in ("gunicorn", "companion"):
            text = text.replace(SHIPPED_BIN + command, str(script(command, tmp_path)))
        (units / name).write_text(text)
    done = subprocess.run([SYSTEMD_ANALYZE, "verify", "--man=no",
                           *(f"./{name}" for name in UNITS)],
                          cwd=units, capture_output=True, text=True, timeout=120)
    # Unknown keys and bad values are only warnings: any line about our files fails too.
    ours = [line for line in (done.stdout + done.stderr).splitlines()
            if any(name in line for name in UNITS)]
    assert done.returncode == 0 and not ours, done.stdout + done.stderr


def unit_settings(name: str) -> dict[str, list[str]]:
    settings: dict[str, list[str]] = {}
    for line in (DEPLOY / name).read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_service_runs_the_config_module_behind_a_proxy():
    service = unit_settings("companion.service")
    assert service["ExecStart"] == [SHIPPED_BIN + "gunicorn -c python:companion.gunicorn_conf "
                                    "companion:create_app()"]
    env = dict(v.split("=", 1) for v in service["Environment"])
    assert env["COMPANION_BIND"].startswith("127.0.0.1:")
    assert env["COMPANION_TRUSTED_PROXIES"] == "1"
    assert env["COMPANION_PUBLIC_URL"].startswith("https://")
    assert env["COMPANION_INSTANCE_PATH"] == "/var/lib/companion"
    for key, value in [("Type", "notify"), ("User", "companion"), ("StateDirectory", "companion"),
                       ("LimitNOFILE", "65536"), ("UMask", "0077"), ("KillSignal", "SIGTERM"),
                       ("TimeoutStopSec", "10"), ("NoNewPrivileges", "yes"),
                       ("ProtectSystem", "strict")]:
        assert service[key] == [value], key
    prune = unit_settings("companion-prune.service")
    assert prune["ExecStart"] == [SHIPPED_BIN + "companion prune --instance /var/lib/companion "
                                  "--older-than 90d"]
    assert unit_settings("companion-prune.timer")["Persistent"] == ["true"]


# ---------------------------------------------------------------- nginx and Caddy

def test_nginx_site_as_shipped_passes_nginx_t(tmp_path):
    need(NGINX)
    cert, key = self_signed_cert(tmp_path, "club.test")
    site = tmp_path / "companion.conf"
    site.write_text(nginx_site("club.test", cert, key, 18080, 18443, "127.0.0.1:18000"))
    main = nginx_main_conf(tmp_path / "nginx", site, tmp_path / "access.log")
    done = nginx_test(tmp_path / "nginx", main)
    assert done.returncode == 0, done.stderr
    assert "[warn]" not in done.stderr, done.stderr


def test_nginx_site_says_what_the_app_needs():
    text = (DEPLOY / "nginx.conf").read_text()
    code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    for needed in ["proxy_set_header Host $http_host;",
                   "proxy_set_header X-Forwarded-For $remote_addr;",
                   "proxy_set_header X-Forwarded-Proto $scheme;",
                   "proxy_set_header X-Forwarded-Host $http_host;",
                   'add_header Strict-Transport-Security "max-age=31536000" always;',
                   "proxy_hide_header Strict-Transport-Security;",
                   "client_header_timeout 10s;", "client_body_timeout 10s;",
                   "error_page 502 503 504", "proxy_buffering off;", "keepalive 16;",
                   "return 301 https://"]:
        assert needed in code, needed
    assert re.search(r"location ~ \^/t/\[\^/\]\+/stream\$ \{", code)
    # No location sets its own proxy headers (that would silently drop Host and X-Forwarded-*).
    assert code.count("proxy_set_header Host") == 1


def test_caddyfile_validates(tmp_path):
    need(CADDY)
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data"),
           "XDG_CONFIG_HOME": str(tmp_path / "config")}
    done = subprocess.run([CADDY, "validate", "--adapter", "caddyfile",
                           "--config", str(DEPLOY / "Caddyfile")],
                          capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0 and "Valid configuration" in done.stdout + done.stderr, \
        done.stdout + done.stderr
    adapted = subprocess.run([CADDY, "adapt", "--config", str(DEPLOY / "Caddyfile")],
                             capture_output=True, text=True, timeout=120, env=env).stdout
    assert '"flush_interval":-1' in adapted
    assert '"Strict-Transport-Security":["max-age=31536000"]' in adapted
    assert '"read_header_timeout":10000000000' in adapted     # 10 s, in nanoseconds
    assert '"read_timeout":10000000000' in adapted            # read_body


def test_compose_runs_the_image_behind_caddy():
    text = (DEPLOY / "compose.yaml").read_text()
    for needed in ["build: ..", "COMPANION_TRUSTED_PROXIES: \"1\"",
                   "COMPANION_PUBLIC_URL: https://", "companion-data:/data",
                   "./Caddyfile:/etc/caddy/Caddyfile:ro", "COMPANION_BACKEND: companion:8000",
                   "stop_grace_period: 10s"]:
        assert needed in text, needed
    # Only Caddy is published on the host; the app is reached over the compose network.
    app = text.split("\n  caddy:")[0]
    assert "ports:" not in app


# ---------------------------------------------------------------- Dockerfile

def test_dockerfile_parses_to_known_steps():
    steps = dockerfile_steps.parse((ROOT / "Dockerfile").read_text())
    keywords = [s.keyword for s in steps]
    assert keywords[0] == "FROM" and steps[0].args == "python:3.11-slim"
    assert keywords.index("USER") < keywords.index("CMD")
    args = {s.keyword: s.args for s in steps}
    assert dockerfile_steps.exec_form(args["CMD"]) == [
        "gunicorn", "-c", "python:companion.gunicorn_conf", "companion:create_app()"]
    assert args["STOPSIGNAL"] == "SIGTERM" and args["VOLUME"] == "/data"
    assert args["USER"] != "root"
    assert "/healthz" in args["HEALTHCHECK"]


@pytest.mark.slow
def test_dockerfile_steps_followed_as_a_non_root_user():
    outcome = dockerfile_steps.follow()
    report = (f"user {outcome.user} (uid {outcome.uid}), healthy {outcome.healthy} "
              f"({outcome.health_output}), stopped in {outcome.stop_seconds} s\n"
              f"{outcome.log[-3000:]}")
    assert outcome.uid not in (None, 0), report
    assert outcome.healthy, report
    assert outcome.stop_seconds is not None and outcome.stop_seconds < 10, report
    assert outcome.exit_code == 0, report
