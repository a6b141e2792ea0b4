"""`facility check -o report.pdf`: the HTML report printed by headless Chromium.

The tests marked ``browser`` run Chromium (``uv run pytest -m browser``); the others check what
happens without it, and run in the default suite.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.report.outputs import format_for
from tests.browser.test_html_in_chromium import EXAMPLES, GENERATED_AT, chromium

SITE = str(EXAMPLES / "small-ready.yaml")


def check(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(app, ["check", SITE, "--generated-at", GENERATED_AT, *args], env=env)


def test_the_pdf_suffix_asks_for_pdf() -> None:
    assert format_for(Path("report.pdf")) == "pdf" and format_for(Path("R.PDF")) == "pdf"


def test_no_chromium_is_exit_2_with_how_to_get_it_and_nothing_written(tmp_path: Path) -> None:
    out = tmp_path / "report.pdf"
    html = tmp_path / "report.html"
    empty = tmp_path / "bin"
    empty.mkdir()
    result = check(
        "-o", str(html), "-o", str(out), env={"PATH": str(empty), "FACILITY_CHROMIUM": ""}
    )
    assert result.exit_code == 2, result.output
    assert "PDF output needs Chromium: install it or set FACILITY_CHROMIUM" in result.output
    assert "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin"]  # not even the HTML


def test_facility_chromium_that_is_not_a_program_is_named(tmp_path: Path) -> None:
    out = tmp_path / "report.pdf"
    result = check("-o", str(out), env={"FACILITY_CHROMIUM": str(tmp_path / "no-such-chromium")})
    assert result.exit_code == 2, result.output
    assert "no-such-chromium, which is not an executable program" in result.output
    assert not out.exists()


def test_a_chromium_that_fails_is_exit_2_and_nothing_written(tmp_path: Path) -> None:
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n", encoding="utf-8")
    fake.chmod(0o755)
    out = tmp_path / "report.pdf"
    out.write_bytes(b"the previous report")
    result = check("-o", str(out), env={"FACILITY_CHROMIUM": str(fake)})
    assert result.exit_code == 2, result.output
    assert "could not print the PDF report (exit status 3): cannot open display" in result.output
    assert out.read_bytes() == b"the previous report"  # untouched
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chromium", "report.pdf"]


def test_a_chromium_that_hangs_is_stopped(tmp_path: Path, monkeypatch) -> None:
    import facility.report.pdf as pdf

    monkeypatch.setattr(pdf, "TIMEOUT_BASE", 0.2)
    monkeypatch.setattr(pdf, "TIMEOUT_PER_MB", 0.0)
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\nexec sleep 30\n", encoding="utf-8")  # exec: killed itself
    fake.chmod(0o755)
    out = tmp_path / "report.pdf"
    result = check("-o", str(out), env={"FACILITY_CHROMIUM": str(fake)})
    assert result.exit_code == 2, result.output
    assert "did not print the PDF report within 0 s" in result.output  # (0.2 s, whole seconds)
    assert not out.exists()


def test_the_timeout_grows_with_the_report() -> None:
    from facility.report.pdf import timeout

    # 60 s + 60 s per MB: 0.5 MB of HTML → 60 + 30 = 90 s; 2.3 MB → 60 + 138 = 198 s
    assert timeout(500_000) == 90.0 and timeout(2_300_000) == 198.0


def test_pdf_on_stdout_is_refused() -> None:
    result = check("-f", "pdf")
    assert result.exit_code == 2
    assert "a PDF report is written to a file: add --output report.pdf" in result.output


@pytest.mark.browser
def test_a_pdf_report_opens_with_the_verdict_and_reproduces(tmp_path: Path) -> None:
    chromium()
    one, two = tmp_path / "one.pdf", tmp_path / "two.pdf"
    for out in (one, two):
        result = check("-o", str(out), "--paper", "letter")
        assert result.exit_code == 0, result.output  # the pod is ready
    info = subprocess.run(["pdfinfo", str(one)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"Page size:\s+612 x 792 pts \(letter\)", info), info
    assert "CreationDate:    Sun Nov 29 12:00:00 2026 UTC" in info  # --generated-at, not now
    assert "Title:           Readiness report: Small pod R1" in info
    text = subprocess.run(
        ["pdftotext", str(one), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "Ready" in text and "By signing, each of us confirms" in text
    assert one.read_bytes() == two.read_bytes()  # same Chromium, same fonts: the same bytes
    assert os.stat(one).st_mode & 0o777 == 0o666 & ~_umask()


@pytest.mark.browser
def test_format_pdf_with_any_file_name(tmp_path: Path) -> None:
    chromium()
    out = tmp_path / "report.bin"
    result = check("-f", "pdf", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"%PDF-")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
