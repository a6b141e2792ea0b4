"""The HTML report in a real headless Chromium: no console errors, no network, prints well.

Run with ``uv run pytest -m browser`` (``.ci/run`` installs Debian's chromium, poppler-utils
and fonts-noto-cjk first). Chromium runs with no network: every request it makes is recorded
in a net log and must stay on the page's own file.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GENERATED_AT = "2026-11-29T12:00:00+00:00"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-extensions",
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--enable-logging=stderr",
    "--v=0",
]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail("chromium is not installed (apt-get install chromium); see .ci/run")
    return found


def render(tmp_path: Path, site: str, *extra: str) -> Path:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        app, ["check", str(EXAMPLES / site), "-o", str(out), "--generated-at", GENERATED_AT, *extra]
    )
    assert result.exit_code in (0, 1), result.output
    return out


def run_chromium(tmp_path: Path, page: Path, *action: str) -> tuple[str, list[str]]:
    """Run one headless action on ``page``; return stderr and every URL the page requested.

    Chromium's own background requests (time, updates, accounts) carry the initiator "not an
    origin" in the net log and are not the page's; they are refused by the resolver rules anyway.
    """
    net_log = tmp_path / f"net-{len(list(tmp_path.iterdir()))}.json"
    profile = tmp_path / "profile"
    command = [
        chromium(),
        *FLAGS,
        f"--user-data-dir={profile}",
        f"--log-net-log={net_log}",
        *action,
        page.as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    log = json.loads(net_log.read_text(encoding="utf-8", errors="replace"))
    start_job = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    urls = []
    for event in log["events"]:
        params = event.get("params", {})
        page_made_it = params.get("initiator") != "not an origin"
        if event["type"] == start_job and "url" in params and page_made_it:
            urls.append(params["url"])
    return done.stderr, urls


def assert_offline(stderr: str, urls: list[str]) -> None:
    console = [line for line in stderr.splitlines() if "CONSOLE" in line]
    assert not [c for c in console if "error" in c.lower() or "uncaught" in c.lower()], console
    leaving = {u for u in urls if not u.startswith(("file:", "data:", "about:", "chrome:"))}
    assert not leaving, f"requests left the page: {sorted(leaving)[:10]}"


@pytest.fixture(scope="module")
def hall_b3(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return render(tmp_path_factory.mktemp("b3"), "hall-b3.yaml")


def test_screenshot_without_console_errors_or_network(hall_b3: Path, tmp_path: Path) -> None:
    shot = tmp_path / "hall-b3.png"
    stderr, urls = run_chromium(
        tmp_path, hall_b3, f"--screenshot={shot}", "--window-size=1280,2400"
    )
    assert_offline(stderr, urls)
    assert shot.stat().st_size > 20_000  # a real page, not a blank one
    keep = Path("/tmp/facility-screenshots")
    keep.mkdir(exist_ok=True)
    shutil.copy(shot, keep / "hall-b3.png")  # for a person to look at


def test_prints_to_a_pdf_with_the_verdict_and_the_sign_off(hall_b3: Path, tmp_path: Path) -> None:
    pdf = tmp_path / "hall-b3.pdf"
    stderr, urls = run_chromium(
        tmp_path, hall_b3, f"--print-to-pdf={pdf}", "--no-pdf-header-footer"
    )
    assert_offline(stderr, urls)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    assert 3 <= pages <= 60, info
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "NOT READY" in text.upper()
    for failing in ("A01", "B12", "TCS-A", "TCS-B"):
        assert failing in text
    import hashlib

    signed = hashlib.sha256((EXAMPLES / "hall-b3.yaml").read_bytes()).hexdigest()[:12]
    assert signed in text, "the signed input hash is printed"
    shutil.copy(pdf, Path("/tmp/facility-screenshots") / "hall-b3.pdf")


def test_dom_has_no_external_references(hall_b3: Path, tmp_path: Path) -> None:
    stderr, urls = run_chromium(tmp_path, hall_b3, "--dump-dom")
    assert_offline(stderr, urls)


def test_net_log_is_really_recorded(tmp_path: Path) -> None:
    """Guard against a vacuous check: a page that does fetch something shows up in the log."""
    page = tmp_path / "leaky.html"
    page.write_text('<img src="http://example.invalid/x.png">', encoding="utf-8")
    _, urls = run_chromium(tmp_path, page, "--dump-dom")
    assert any(u.startswith("http://example.invalid") for u in urls), json.dumps(urls[:20])


def test_the_single_failures_section_prints_whole(tmp_path: Path) -> None:
    """`check --failures`: the matrix of Hall B3 prints on one page, with its words."""
    page = render(tmp_path, "hall-b3.yaml", "--failures")
    pdf = tmp_path / "hall-b3-failures.pdf"
    stderr, urls = run_chromium(tmp_path, page, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert_offline(stderr, urls)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))
    texts = [
        subprocess.run(
            ["pdftotext", "-layout", "-f", str(n), "-l", str(n), str(pdf), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for n in range(1, pages + 1)
    ]
    assert any("4 Single failures" in t for t in texts)
    matrix = [t for t in texts if "Status and utilisation of the affected entities" in t]
    assert len(matrix) == 1, "the matrix of Hall B3 is kept on one page"
    for row in ("CDU-A1, CDU-A2", "CDU-B1", "FW-1", "CRAH-1, CRAH-2, CRAH-3"):
        assert row in matrix[0]
    assert "121.4 %" in matrix[0] and "82.8 %" in matrix[0] and "fail" in matrix[0].lower()
    assert any("9 Sign-off" in t for t in texts)
    shutil.copy(pdf, Path("/tmp/facility-screenshots") / "hall-b3-failures.pdf")


def _pages(pdf: Path) -> list[str]:
    pages = int(
        re.search(
            r"Pages:\s+(\d+)",
            subprocess.run(
                ["pdfinfo", str(pdf)], capture_output=True, text=True, check=True
            ).stdout,
        ).group(1)
    )
    return [
        subprocess.run(
            ["pdftotext", "-layout", "-f", str(n), "-l", str(n), str(pdf), "-"],
            capture_output=True, text=True, check=True,
        ).stdout
        for n in range(1, pages + 1)
    ]  # fmt: skip


def assert_running_header_and_footer(pdf: Path, header: str, sha: str) -> int:
    """Every printed page carries the header, the input hash and 'n / N'; returns N."""
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "(A4)" in info  # A4 by default (@page size)
    pages = _pages(pdf)
    for n, text in enumerate(pages, start=1):
        lines = [line for line in text.splitlines() if line.strip()]
        assert header in lines[0] and f"SHA-256 {sha[:16]}" in lines[0], (n, lines[0])
        assert lines[-1].rstrip().endswith(f"{n} / {len(pages)}"), (n, lines[-1])
    return len(pages)


def test_every_printed_page_has_the_running_header_footer_and_page_number(
    hall_b3: Path, tmp_path: Path
) -> None:
    import hashlib

    pdf = tmp_path / "hall-b3.pdf"
    stderr, urls = run_chromium(
        tmp_path, hall_b3, f"--print-to-pdf={pdf}", "--no-pdf-header-footer"
    )
    assert_offline(stderr, urls)
    sha = hashlib.sha256((EXAMPLES / "hall-b3.yaml").read_bytes()).hexdigest()
    assert assert_running_header_and_footer(pdf, "Hall B3", sha) > 5
