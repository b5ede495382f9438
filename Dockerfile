# Table Companion in a container: gunicorn with companion/gunicorn_conf.py, as a non-root
# user, the instance folder (database, secret key) in the volume /data.
#
#   docker build -t companion .
#   docker run -d --name companion -p 127.0.0.1:8000:8000 -v companion-data:/data \
#       -e COMPANION_PUBLIC_URL=https://club.example.org -e COMPANION_TRUSTED_PROXIES=1 companion
#
# Behind a proxy on the same host or in deploy/compose.yaml (Caddy with automatic HTTPS).
# tests/deploy/dockerfile_steps.py follows these steps in a venv (no docker in CI): it knows
# each instruction used here and refuses any other, so keep to FROM/ENV/RUN/WORKDIR/COPY/
# VOLUME/USER/EXPOSE/HEALTHCHECK/STOPSIGNAL/CMD and to the commands the RUN lines use.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

RUN useradd --system --user-group --home-dir /data --shell /usr/sbin/nologin companion && mkdir -p /data && chown companion:companion /data && chmod 0700 /data

WORKDIR /src
COPY pyproject.toml README.md LICENSE babel.cfg ./
COPY companion ./companion
COPY templates ./templates
COPY static ./static
RUN pip install . && rm -rf /src

# The instance folder: companion.db, its backups and the secret key (keep them together).
ENV COMPANION_INSTANCE_PATH=/data COMPANION_BIND=0.0.0.0:8000
VOLUME /data
WORKDIR /data
USER companion
EXPOSE 8000

# /healthz: 200 while the database is writable and its migrations current. (It asks port
# 8000: change it here too if you change COMPANION_BIND.)
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=4).status != 200)"]

# gunicorn stops within a few seconds of SIGTERM (docker stop waits 10 s before SIGKILL).
STOPSIGNAL SIGTERM
CMD ["gunicorn", "-c", "python:companion.gunicorn_conf", "companion:create_app()"]
