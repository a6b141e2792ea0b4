"""`-o report.html -o report.pdf`: the PDF prints the HTML report, made once for both."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.report import html, pdf

SITE = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"


def _fake_chromium(tmp_path: Path) -> Path:
    """A 'Chromium' that prints the page it is given to the --print-to-pdf file as is."""
    fake = tmp_path / "chromium"
    fake.write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do case "$a" in --print-to-pdf=*) out="${a#--print-to-pdf=}";; esac;'
        ' page="$a"; done\n'
        'cat "${page#file://}" > "$out"\n',
        encoding="utf-8",
    )
    fake.chmod(0o755)
    return fake


@pytest.mark.parametrize("order", [("html", "pdf"), ("pdf", "html")])
def test_html_and_pdf_render_the_html_once(
    order: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[int] = []
    render = html.render_html

    def counted(report: object) -> str:
        made.append(1)
        return render(report)  # type: ignore[arg-type]

    monkeypatch.setattr(html, "render_html", counted)
    monkeypatch.setattr(pdf, "render_html", counted)
    monkeypatch.setenv("FACILITY_CHROMIUM", str(_fake_chromium(tmp_path)))
    outputs = [arg for fmt in order for arg in ("-o", str(tmp_path / f"report.{fmt}"))]
    done = CliRunner().invoke(app, ["check", str(SITE), *outputs, "--generated-at", "2026-12-02"])
    assert done.exit_code == 0, done.output
    assert len(made) == 1
    page = (tmp_path / "report.html").read_bytes()
    assert page.startswith(b"<!DOCTYPE html>") and (tmp_path / "report.pdf").read_bytes() == page
