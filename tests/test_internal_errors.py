"""A crash is never a verdict (issue 14): an internal error exits 2 with one line, not 1.

Faults are injected into the library the commands call; the input is valid throughout.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility import __version__
from facility.cli import app

EXAMPLE = str(Path(__file__).resolve().parents[1] / "examples" / "hall-b3.yaml")


def _boom(*_args: object, **_kwargs: object) -> None:
    raise RuntimeError("injected fault <b>\x1b[2J")


@pytest.mark.parametrize(
    ("target", "args"),
    [
        ("facility.check.audit_in_context", ["check", EXAMPLE]),
        ("facility.report.json_report.iter_report_json", ["check", EXAMPLE, "-f", "json"]),
        ("facility.analysis.failures.analyse_failures", ["failures", EXAMPLE]),
        ("facility.model.load.load_site", ["inventory", EXAMPLE]),
        ("facility.engine.rules.load_rules", ["rules", "list"]),
    ],
)
def test_an_internal_error_exits_2_with_one_line(monkeypatch, target, args) -> None:
    module, name = target.rsplit(".", 1)
    monkeypatch.setattr(__import__(module, fromlist=[name]), name, _boom)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines == [
        f"internal error in facility {__version__}: RuntimeError: injected fault <b>\\x1b[2J; "
        "please report it with the input (FACILITY_DEBUG=1 shows the traceback)"
    ]
    assert "Traceback" not in result.output
    assert "\x1b" not in result.stderr  # the message is shown inert


def test_debug_shows_the_traceback(monkeypatch) -> None:
    monkeypatch.setattr("facility.check.audit_in_context", _boom)
    assert isinstance(
        CliRunner().invoke(app, ["--debug", "check", EXAMPLE]).exception, RuntimeError
    )
    monkeypatch.setenv("FACILITY_DEBUG", "1")
    assert isinstance(CliRunner().invoke(app, ["check", EXAMPLE]).exception, RuntimeError)


# The child writes the HTML report slowly: one piece, then it says so and waits, so the signal
# arrives while a temporary file is half written.
SLOW_WRITER = """
import pathlib, sys, time
import facility.report.outputs as outputs
from facility.cli import main
MARK = pathlib.Path(sys.argv.pop())
real = outputs.render_pieces
def slow(fmt, report, made=None):
    if fmt != "html":
        return real(fmt, report, made)
    def pieces():
        yield "<!DOCTYPE html> half"
        MARK.write_text("writing")
        time.sleep(120)
        yield "the rest"
    return pieces()
outputs.render_pieces = slow
main()
"""


# SIGHUP is handled as SIGTERM is (one handler for both): it runs with the slow tests.
_SIGHUP = pytest.param(signal.SIGHUP, marks=pytest.mark.slow, id="SIGHUP")


@pytest.mark.parametrize("signum", [signal.SIGTERM, _SIGHUP])
def test_a_signal_while_writing_exits_128_plus_it_and_keeps_the_old_report(
    tmp_path: Path, signum: int
) -> None:
    report, data = tmp_path / "report.html", tmp_path / "result.json"
    report.write_text("an earlier report\n", encoding="utf-8")
    marker = tmp_path / "writing"
    child = subprocess.Popen(
        [sys.executable, "-c", SLOW_WRITER, "check", EXAMPLE, "-o", str(data), "-o", str(report),
         str(marker)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    for _ in range(600):  # wait (by polls, not by a clock) until it is mid-write
        if marker.exists() or child.poll() is not None:
            break
        time.sleep(0.05)
    assert marker.exists(), child.stderr.read() if child.stderr else ""
    child.send_signal(signum)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 128 + signum, stderr
    assert b"Traceback" not in stderr
    assert report.read_text(encoding="utf-8") == "an earlier report\n"
    # no temporary file left, and the JSON staged before it was not renamed into place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html", "writing"]


# The child signals itself right after the first report is renamed into place: the moment
# between a rename and its bookkeeping, where an interrupted run once left a target replaced
# and never restored, and backup files behind (found by testing from outside).
SIGNAL_MID_REPLACE = """
import os, sys
import facility.report.write as write
from facility.cli import main
SIGNUM = int(sys.argv.pop())
real = os.replace
renamed = []
def replace(src, dst):
    real(src, dst)
    if str(src).endswith(".tmp"):
        renamed.append(dst)
        if len(renamed) == 1:
            os.kill(os.getpid(), SIGNUM)
write.os.replace = replace
main()
"""


@pytest.mark.parametrize("signum", [signal.SIGTERM, _SIGHUP, signal.SIGINT])
def test_a_signal_between_the_renames_puts_every_report_back(tmp_path: Path, signum: int) -> None:
    reports = [tmp_path / name for name in ("r.html", "r.json", "r.md")]
    for report in reports:
        report.write_text(f"an earlier {report.suffix}\n", encoding="utf-8")
    args = ["check", EXAMPLE]
    for report in reports:
        args += ["-o", str(report)]
    done = subprocess.run(
        [sys.executable, "-c", SIGNAL_MID_REPLACE, *args, str(int(signum))],
        capture_output=True, timeout=120,
    )  # fmt: skip
    expected = 130 if signum == signal.SIGINT else 128 + signum
    assert done.returncode == expected, done.stderr
    assert b"Traceback" not in done.stderr
    for report in reports:  # all put back, the first one too
        assert report.read_text(encoding="utf-8") == f"an earlier {report.suffix}\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "r.json", "r.md"]
