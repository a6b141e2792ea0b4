"""A reader that leaves early (`facility check … -f json | head -c 10`) is not an internal
error: exit 141 (128 + SIGPIPE, as a shell's tools), nothing on stderr."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FACILITY = Path(sys.executable).parent / ("facility.exe" if os.name == "nt" else "facility")


def test_a_closed_pipe_exits_141_quietly() -> None:
    # Hall B3's JSON result is ~0.5 MB: far beyond a pipe's 64 kB buffer, so the writer meets
    # the closed pipe whatever the timing.
    process = subprocess.Popen(
        [str(FACILITY), "check", str(EXAMPLES / "hall-b3.yaml"), "-f", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    assert process.stdout.read(10).startswith(b"{")  # the start of the document
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == 141
    assert "internal error" not in stderr and "BrokenPipeError" not in stderr
    assert stderr == ""
