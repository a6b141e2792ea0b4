"""Any input, through the command line: exit 0, 1 or 2, never a traceback, never half a report.

The site file is Hall B3 with its bytes edited at random (characters inserted, lines dropped or
doubled, values replaced by hostile ones), written as YAML or JSON; ``facility check`` asks for
every report format with an earlier report already in place. Then:

- the exit code is 0, 1 or 2 (2 never reads as "a check failed");
- nothing on stdout or stderr is a traceback or an internal error;
- exit 2 writes no report and leaves the earlier one byte for byte; exit 0 or 1 writes them all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from facility.cli import app

BASE = (Path(__file__).resolve().parents[2] / "examples" / "hall-b3.yaml").read_text(
    encoding="utf-8"
)
LINES = BASE.splitlines(keepends=True)
OUTPUTS = ("r.txt", "r.json", "r.html", "r.md", "r.sarif", "r.xml")
EARLIER = "an earlier report\n"
HOSTILE = st.sampled_from(
    [
        "\x00", "\x1b[2J", "\u202e", "{", "}", "[", "]", ":", "&a", "*a", "!!python/object",
        "<<: *a", "~", "yes", "1e999 kW", "nan", "1 kW/0", "1 kW**9**9", "9" * 400, "'", '"',
        "\t", "\r", "..", "/etc/passwd", "extends: /etc/hostname\n", "- ", "# ", "%YAML 1.1\n",
        "---\n", "...\n", "\ufeff", "é", "名",
    ]
)  # fmt: skip


@st.composite
def edited(draw) -> str:
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["insert", "drop", "double", "replace"]))
        at = draw(st.integers(0, len(lines) - 1))
        if kind == "insert":
            line = lines[at]
            cut = draw(st.integers(0, len(line)))
            lines[at] = line[:cut] + draw(HOSTILE) + line[cut:]
        elif kind == "drop" and len(lines) > 1:
            del lines[at]
        elif kind == "double":
            lines.insert(at, lines[at])
        else:
            head, _, _ = lines[at].partition(":")
            lines[at] = f"{head}: {draw(HOSTILE)}\n" if head.strip() else lines[at]
    return "".join(lines)


def _run(tmp: Path, name: str, text: str) -> None:
    site = tmp / name
    site.write_text(text, encoding="utf-8", errors="surrogatepass")
    (tmp / "r.html").write_text(EARLIER, encoding="utf-8")
    args = ["check", str(site), "--generated-at", "2026-11-29T12:00:00Z"]
    for out in OUTPUTS:
        args += ["-o", str(tmp / out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream and "internal error" not in stream, stream
    written = sorted(p.name for p in tmp.iterdir() if p.name != name)
    if result.exit_code == 2:  # bad input: only the JSON and SARIF error results are written
        assert written == ["r.html", "r.json", "r.sarif"], result.stderr
        assert json.loads((tmp / "r.json").read_text(encoding="utf-8"))["verdict"] == "error"
        assert (tmp / "r.html").read_text(encoding="utf-8") == EARLIER
    else:
        assert written == sorted(OUTPUTS)


FAST = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FAST
@given(text=edited())
def test_any_edited_yaml_file_exits_0_1_or_2_and_never_half_writes(tmp_path_factory, text) -> None:
    _run(tmp_path_factory.mktemp("cli"), "site.yaml", text)


@FAST
@given(text=edited())
def test_any_edited_file_as_json_exits_0_1_or_2(tmp_path_factory, text) -> None:
    # the edited YAML, read by YAML's own rules and written as JSON when it can be
    import yaml

    try:
        data = yaml.safe_load(text)
        body = json.dumps(data, default=str)
    except (yaml.YAMLError, ValueError, RecursionError):
        body = text  # not YAML: give it as .json anyway
    _run(tmp_path_factory.mktemp("cli"), "site.json", body)


@pytest.mark.slow
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(text=edited())
def test_many_edited_files_exit_0_1_or_2_and_never_half_write(tmp_path_factory, text) -> None:
    _run(tmp_path_factory.mktemp("cli"), "site.yaml", text)
