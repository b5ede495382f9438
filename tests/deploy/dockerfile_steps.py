"""Follow the top-level Dockerfile's steps without docker: in a venv, as a non-root user.

    python tests/deploy/dockerfile_steps.py [--keep]

`docker build` is not available on the CI machine, so this reads the Dockerfile and does what
each instruction says, with the container's file system as a folder (`root`: /data is
root/data, /src is root/src):

- FROM python:X.Y-slim: a venv from a Python X.Y or newer (Debian's /usr/bin/python3 when it
  is new enough: a non-root user can run it, unlike a Python under /root);
- ENV, WORKDIR, COPY (from the repository, the build context), VOLUME, EXPOSE: as written;
- RUN: each `&&`-joined command, of the few this knows (useradd, mkdir, chown, chmod,
  pip install, rm -rf); any other command fails the run, so the Dockerfile can't grow a
  step this would skip;
- USER: the CMD and the HEALTHCHECK run as that user (created by the RUN's useradd when this
  runs as root; as root with no such user, or as another user, this fails or uses the
  current non-root user);
- CMD (exec form) is started; the HEALTHCHECK's command is run until it succeeds; then the
  STOPSIGNAL is sent with one live phone connected, and the seconds until the CMD exited
  are measured.

The container's port (8000 in ENV, HEALTHCHECK and EXPOSE) becomes a free port here, as a
container's own network namespace would keep it apart from anything else on the machine.
"""
from __future__ import annotations

import json
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DOCKERFILE = REPO / "Dockerfile"
CONTAINER_PORT = "8000"


@dataclass
class Instruction:
    keyword: str
    args: str
    line: int


def parse(text: str) -> list[Instruction]:
    """The Dockerfile's instructions: comments dropped, continued lines joined."""
    out: list[Instruction] = []
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if pending and line.startswith("#"):
            continue
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        keyword, _, args = whole.partition(" ")
        out.append(Instruction(keyword.upper(), args.strip(), start))
    return out


def env_pairs(args: str) -> dict[str, str]:
    """ENV KEY=VALUE KEY2="VALUE 2" (the KEY VALUE form too)."""
    words = shlex.split(args)
    if len(words) >= 2 and "=" not in words[0]:
        return {words[0]: " ".join(words[1:])}
    pairs = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq:
            raise ValueError(f"ENV: can't read {word!r}")
        pairs[key] = value
    return pairs


def exec_form(args: str) -> list[str]:
    """A JSON array (exec form): the only form allowed for CMD and HEALTHCHECK CMD here,
    because a shell form would not receive the stop signal itself."""
    value = json.loads(args)
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise ValueError(f"not an exec-form command: {args}")
    return value


def duration(text: str) -> float:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m|h)", text)
    if not match:
        raise ValueError(f"can't read the duration {text!r}")
    scale = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[match.group(2)]
    return float(match.group(1)) * scale


@dataclass
class Healthcheck:
    command: list[str]
    interval: float = 30.0
    timeout: float = 30.0
    start_period: float = 0.0
    retries: int = 3


def healthcheck_of(args: str) -> Healthcheck:
    options, _, rest = args.partition("CMD ")
    if not rest:
        raise ValueError("HEALTHCHECK without CMD")
    check = Healthcheck(exec_form(rest))
    for option in options.split():
        name, _, value = option.lstrip("-").partition("=")
        if name == "retries":
            check.retries = int(value)
        elif name in ("interval", "timeout", "start-period"):
            setattr(check, name.replace("-", "_"), duration(value))
        else:
            raise ValueError(f"HEALTHCHECK option {option} is not known here")
    return check


def python_for(tag: str) -> str:
    """A Python at least as new as the FROM image's (python:3.11-slim -> 3.11)."""
    match = re.match(r"python:(\d+)\.(\d+)", tag)
    if not match:
        raise ValueError(f"FROM {tag}: this script follows python:X.Y images only")
    wanted = (int(match.group(1)), int(match.group(2)))
    candidates = ["/usr/bin/python3", sys.executable]
    for candidate in candidates:
        if not os.path.exists(candidate):
            continue
        version = subprocess.run(
            [candidate, "-c", "import sys; print(*sys.version_info[:2])"],
            capture_output=True, text=True, check=True).stdout.split()
        if tuple(map(int, version)) >= wanted and subprocess.run(
                [candidate, "-c", "import venv, ensurepip"], capture_output=True).returncode == 0:
            return candidate
    raise RuntimeError(f"no Python {wanted[0]}.{wanted[1]}+ with venv among {candidates}")


@dataclass
class Container:
    """What the steps built: where, with which environment, run as whom, started how."""

    root: Path
    venv: Path
    port: int
    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    user: str | None = None
    volumes: list[str] = field(default_factory=list)
    cmd: list[str] = field(default_factory=list)
    healthcheck: Healthcheck | None = None
    stopsignal: int = signal.SIGTERM
    log: list[str] = field(default_factory=list)

    def path(self, inside: str) -> Path:
        """The folder here for an absolute path inside the container."""
        inside = inside if inside.startswith("/") else f"{self.workdir.rstrip('/')}/{inside}"
        return self.root / os.path.normpath(inside).lstrip("/")

    def runtime_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
        env.update(self.env)
        env["PATH"] = f"{self.venv / 'bin'}:/usr/local/bin:/usr/bin:/bin"
        env.pop("PYTHONPATH", None)
        env.pop("PYTHONSAFEPATH", None)
        if self.user:
            info = pwd.getpwnam(self.user)
            env.update(HOME=info.pw_dir, USER=self.user, LOGNAME=self.user)
        return env

    def as_user(self) -> dict:
        """Popen arguments that run a process as the Dockerfile's USER (when root)."""
        if os.geteuid() != 0:
            return {}
        if not self.user:
            raise RuntimeError("the Dockerfile has no USER: the app would run as root")
        info = pwd.getpwnam(self.user)
        return {"user": info.pw_uid, "group": info.pw_gid, "extra_groups": []}


def with_port(text: str, port: int) -> str:
    return text.replace(f":{CONTAINER_PORT}", f":{port}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- RUN's commands

def run_command(box: Container, words: list[str]) -> None:
    """One command of a RUN line, done here the way it would be done in the image."""
    name, args = words[0], words[1:]
    cwd = box.path(box.workdir)
    if name == "useradd":
        user = args[-1]
        if os.geteuid() == 0:
            try:
                pwd.getpwnam(user)
            except KeyError:
                # The home folder is the container's (the volume); here: no home made.
                subprocess.run(["useradd", "--system", "--user-group", "--no-create-home",
                                "--home-dir", str(box.path("/data")),
                                "--shell", "/usr/sbin/nologin", user], check=True)
        box.log.append(f"user {user}")
    elif name == "mkdir":
        for target in (a for a in args if not a.startswith("-")):
            box.path(target).mkdir(parents=True, exist_ok=True)
    elif name == "chown":
        owner, *targets = args
        user, _, group = owner.partition(":")
        if os.geteuid() == 0:
            for target in targets:
                shutil.chown(box.path(target), user, group or None)
    elif name == "chmod":
        mode, *targets = args
        for target in targets:
            box.path(target).chmod(int(mode, 8))
    elif name == "pip" and args[:1] == ["install"]:
        targets = [str(cwd / a) if a == "." else a for a in args[1:]]
        subprocess.run([str(box.venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        *targets], cwd=cwd, env=box.runtime_env(), check=True, timeout=600)
    elif name == "rm" and args[:1] == ["-rf"]:
        for target in args[1:]:
            shutil.rmtree(box.path(target), ignore_errors=True)
    else:
        raise RuntimeError(f"RUN: the command {name!r} is not one this script knows; "
                           "teach tests/deploy/dockerfile_steps.py what it does here")


def build(dockerfile: Path, root: Path) -> Container:
    """Follow every instruction up to (not including) starting the CMD."""
    instructions = parse(dockerfile.read_text())
    if not instructions or instructions[0].keyword != "FROM":
        raise RuntimeError("the Dockerfile must start with FROM")
    root.chmod(0o755)
    venv = root / "usr" / "local"      # python:*-slim keeps its Python (and pip's) here
    python = python_for(instructions[0].args)
    subprocess.run([python, "-m", "venv", str(venv)], check=True, timeout=300)
    box = Container(root=root, venv=venv, port=free_port())
    for ins in instructions[1:]:
        args = ins.args
        if ins.keyword == "ENV":
            for key, value in env_pairs(args).items():
                value = with_port(value, box.port)
                # A container path in a setting means the folder here.
                box.env[key] = str(box.path(value)) if value.startswith("/") else value
        elif ins.keyword == "WORKDIR":
            box.workdir = args
            box.path(args).mkdir(parents=True, exist_ok=True)
        elif ins.keyword == "COPY":
            *sources, dest = shlex.split(args)
            if any(s.startswith("--") for s in sources):
                raise RuntimeError(f"line {ins.line}: COPY options are not followed here")
            target = box.path(dest)
            for source in sources:
                src = REPO / source
                if src.is_dir():
                    shutil.copytree(src, target if not dest.endswith("/") else target / src.name,
                                    dirs_exist_ok=True,
                                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
                else:
                    target.mkdir(parents=True, exist_ok=True) if dest.endswith("/") else None
                    shutil.copy2(src, target / src.name if dest.endswith("/") else target)
        elif ins.keyword == "RUN":
            if args.startswith("["):
                raise RuntimeError(f"line {ins.line}: exec-form RUN is not followed here")
            for part in args.split("&&"):
                run_command(box, shlex.split(part))
        elif ins.keyword == "VOLUME":
            box.volumes += json.loads(args) if args.startswith("[") else args.split()
            for volume in box.volumes:
                box.path(volume).mkdir(parents=True, exist_ok=True)
        elif ins.keyword == "USER":
            box.user = args.split(":")[0]
            if os.geteuid() != 0:
                box.user = pwd.getpwuid(os.geteuid()).pw_name
        elif ins.keyword == "EXPOSE":
            pass
        elif ins.keyword == "HEALTHCHECK":
            box.healthcheck = healthcheck_of(with_port(args, box.port))
        elif ins.keyword == "STOPSIGNAL":
            box.stopsignal = int(getattr(signal, args)) if not args.isdigit() else int(args)
        elif ins.keyword == "CMD":
            box.cmd = exec_form(args)
        else:
            raise RuntimeError(f"line {ins.line}: {ins.keyword} is not followed here")
    return box


# ---------------------------------------------------------------- running it

def healthy(box: Container, deadline: float) -> tuple[bool, str]:
    """Run the HEALTHCHECK command until it exits 0 (True) or `deadline` passes (False)."""
    assert box.healthcheck is not None, "the Dockerfile has no HEALTHCHECK"
    last = ""
    while time.monotonic() < deadline:
        done = subprocess.run(box.healthcheck.command, env=box.runtime_env(),
                              cwd=box.path(box.workdir), capture_output=True, text=True,
                              timeout=box.healthcheck.timeout + 5, **box.as_user())
        if done.returncode == 0:
            return True, ""
        last = (done.stdout + done.stderr).strip()[-500:]
        time.sleep(0.5)
    return False, last


def start(box: Container, log: Path) -> subprocess.Popen:
    with open(log, "wb") as out:
        return subprocess.Popen(box.cmd, env=box.runtime_env(), cwd=box.path(box.workdir),
                                stdout=out, stderr=subprocess.STDOUT, **box.as_user())


def open_live_phone(port: int) -> socket.socket | None:
    """A phone at a table with its live stream open (so the stop must end a stream)."""
    sys.path.insert(0, str(HERE.parent))
    sys.path.insert(0, str(HERE.parent / "faults"))
    from fault_helpers import Client

    client = Client(f"http://127.0.0.1:{port}", "Ann")
    table_id = client.create_table(["Ann", "Bob"])
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    sock.sendall(f"GET /t/{table_id}/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 f"Accept: text/event-stream\r\nCookie: {cookie}\r\n\r\n".encode())
    first = sock.recv(4096)
    assert b" 200 " in first.split(b"\r\n")[0], first[:200]
    return sock


@dataclass
class Outcome:
    user: str | None
    uid: int | None
    healthy: bool
    health_output: str
    stop_seconds: float | None
    exit_code: int | None
    log: str


def follow(dockerfile: Path = DOCKERFILE, keep: bool = False,
           health_timeout: float = 90.0) -> Outcome:
    """Build, start, wait for health, stop with a phone connected; what happened."""
    root = Path(tempfile.mkdtemp(prefix="companion-docker-"))
    process = None
    try:
        box = build(dockerfile, root)
        log = root / "cmd.log"
        process = start(box, log)
        ok, said = healthy(box, time.monotonic() + health_timeout)
        uid = None
        try:
            status = Path(f"/proc/{process.pid}/status").read_text()
            uid = int(re.search(r"^Uid:\s+(\d+)", status, re.M).group(1))
        except (OSError, AttributeError):
            pass
        seconds = None
        if ok and process.poll() is None:
            phone = open_live_phone(box.port)
            started = time.monotonic()
            process.send_signal(box.stopsignal)
            try:
                process.wait(timeout=30)
                seconds = time.monotonic() - started
            except subprocess.TimeoutExpired:
                pass
            phone.close()
        return Outcome(box.user, uid, ok, said, seconds, process.poll(),
                       log.read_text(errors="replace"))
    finally:
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    outcome = follow(keep="--keep" in sys.argv)
    print(f"user {outcome.user} (uid {outcome.uid}); healthy: {outcome.healthy} "
          f"{outcome.health_output}; stopped in {outcome.stop_seconds} s, "
          f"exit {outcome.exit_code}")
    print(outcome.log[-3000:])
    ok = outcome.healthy and outcome.stop_seconds is not None and outcome.stop_seconds < 10
    sys.exit(0 if ok else 1)
