"""failures, headroom and diff speak zh-CN with --lang, and English by default."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from facility.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()


def test_failures_in_chinese() -> None:
    out = runner.invoke(app, ["failures", str(EXAMPLES / "hall-b3.yaml"), "--lang", "zh-CN"])
    assert out.exit_code == 1
    assert "单点故障（20）" in out.output
    assert "CDU-B1 退出运行：LIQ-001、LIQ-009" in out.output
    assert "SINGLE POINTS OF FAILURE" not in out.output
    english = runner.invoke(app, ["failures", str(EXAMPLES / "hall-b3.yaml")])
    assert "SINGLE POINTS OF FAILURE (20)" in english.output


def test_headroom_in_chinese() -> None:
    args = [
        "headroom",
        str(EXAMPLES / "small-ready.yaml"),
        "--rack-type",
        "gb300-r1",
        "--loop",
        "TCS-1",
    ]
    out = runner.invoke(app, [*args, "--lang", "zh-CN"])
    assert out.exit_code == 0
    assert "还可增加的机柜数：1" in out.output and "机房空调" in out.output
    assert "more racks that fit" not in out.output  # (the English: test_headroom.py)


def test_diff_in_chinese() -> None:
    site = str(EXAMPLES / "hall-b3.yaml")
    out = runner.invoke(app, ["diff", site, site, "--lang", "zh-CN"])
    assert out.exit_code == 0 and "检查项无变化。" in out.output and "未就绪" in out.output
