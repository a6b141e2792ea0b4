"""The throwaway NetBox of the integration tests (scripts/netbox/server.sh), for their fixtures."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "scripts" / "netbox" / "server.sh"
NB_WORK = Path(
    os.environ.get("NB_WORK")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "facility-netbox-it"
)


def missing() -> list[str]:
    """What this machine lacks to start the server (empty when it can)."""
    lacking = []
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        lacking.append("root (PostgreSQL is started as user postgres)")
    for tool in ("pg_config", "psql", "redis-server", "redis-cli", "runuser", "curl"):
        if shutil.which(tool) is None:
            lacking.append(tool)
    if not (NB_WORK / "venv" / "bin" / "netbox").exists():
        lacking.append(f"the NetBox venv {NB_WORK}/venv (run scripts/netbox/install.sh)")
    return lacking


def require_prerequisites() -> None:
    """Skip the test when the machine cannot start the server; under CI, fail it."""
    lacking = missing()
    if lacking:
        reason = "NetBox integration prerequisites missing: " + ", ".join(lacking)
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


@contextmanager
def running(env: dict[str, str] | None = None, timeout: float = 900) -> Iterator[tuple[str, str]]:
    """Start the server (with ``env`` added to the environment, e.g. NB_RESTORE), yield its
    (url, token), stop it whatever happens."""
    started = time.monotonic()
    try:  # a start that times out has started some servers: stop them too
        run = subprocess.run(
            ["bash", str(SERVER), "start"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, **(env or {})},
        )
        assert run.returncode == 0, f"NetBox did not start:\n{run.stdout}\n{run.stderr}"
        values = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
        url, token = values["NETBOX_URL"], values["NETBOX_TOKEN"]
        assert url.startswith("http://127.0.0.1:")
        print(f"NetBox up in {time.monotonic() - started:.1f} s", file=sys.stderr)
        yield url, token
    finally:
        subprocess.run(["bash", str(SERVER), "stop"], cwd=ROOT, timeout=120, check=False)


def summary(mapping: str) -> str:
    """The mapping report's summary line ("wrote … racks; read … NetBox objects …")."""
    return next((line for line in mapping.splitlines() if line.startswith("wrote ")), "")
