"""The README's CI recipe runs as written: its facility.toml and the commands of its workflow,
on Hall B3 in a repository of its own (a .git directory, so no file above is read)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app

ROOT = Path(__file__).parents[2]


def _recipe() -> tuple[str, list[list[str]]]:
    """(facility.toml, the commands: the baseline run, then the workflow's; a ``mkdir -p``
    is kept as ["mkdir", "-p", DIR])."""
    readme = ROOT.joinpath("README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### In CI") :]
    toml = re.search(r"```toml\n(.*?)```", section, re.S)
    workflow = re.search(r"```yaml\n(.*?)```", section, re.S)
    assert toml and workflow
    once = re.search(r"^# (mkdir -p \S+) && (facility check .*)$", toml.group(1), re.M)
    assert once, "the recipe says how the baseline is written"
    runs = re.findall(r"- run: ((?:facility check|mkdir -p) [^#\n]*)", workflow.group(1))
    assert any(r.startswith("facility check") for r in runs), "the workflow runs facility"
    commands = [shlex.split(once.group(1)), shlex.split(once.group(2))]
    return toml.group(1), commands + [shlex.split(r) for r in runs]


def test_the_readme_ci_recipe_runs_as_written(tmp_path: Path, monkeypatch) -> None:
    toml, (mkdir, baseline_run, *job) = _recipe()
    (tmp_path / ".git").mkdir()
    (tmp_path / "facility.toml").write_text(toml, encoding="utf-8")
    (tmp_path / "halls").mkdir()
    site = tmp_path / "halls" / "b3.yaml"
    site.write_text(ROOT.joinpath("examples", "hall-b3.yaml").read_text(encoding="utf-8"))
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def run(argv: list[str]):
        if argv[:2] == ["mkdir", "-p"]:  # the recipe's own steps, done as the shell would
            Path(argv[2]).mkdir(parents=True, exist_ok=True)
            return None
        assert argv[0] == "facility"
        return runner.invoke(app, argv[1:])

    run(mkdir)
    first = run(baseline_run)
    assert first.exit_code == 1  # Hall B3 is NOT READY; the baseline is written all the same
    baseline = json.loads((tmp_path / "baseline" / "b3.json").read_text())
    assert baseline["summary"]
    known = sum(1 for f in baseline["findings"] if f["status"] == "fail")

    for argv in job:  # the pull request changes nothing: known failures do not fail the job
        result = run(argv)
        if result is None:
            continue
        assert result.exit_code == 0, result.output
        assert f"{known} failing findings are known from it (baselined)" in " ".join(
            result.output.split()
        )
    sarif = json.loads((tmp_path / "out" / "b3.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    failing = [r for r in sarif["runs"][0]["results"] if r.get("level") == "error"]
    assert len(failing) >= 100  # the pull request still shows what fails

    # A change that makes a finding worse (row A's racks draw more) fails the job
    site.write_text(site.read_text().replace("peak_power: 155 kW", "peak_power: 160 kW"))
    worse = run(job[-1])
    assert worse.exit_code == 1, worse.output
    assert "new or worse" in " ".join(worse.output.split())  # (the sentence wraps where it may)


@pytest.mark.parametrize("key", ["profile", "format", "output", "baseline"])
def test_the_recipe_uses_the_configuration_file(key: str) -> None:
    toml, _ = _recipe()
    assert re.search(rf"^{key} = ", toml, re.M)
