"""facility check's configuration file: discovery, precedence, --config, --isolated, errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.config import discover, read_config
from facility.model.source import InputError

EXAMPLES = Path(__file__).parents[2] / "examples"
runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def hall(tmp_path: Path) -> Path:
    """Hall B3 (not ready: 107 error-severity failures) in tmp/repo/halls/, under a .git."""
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "repo" / "halls").mkdir()
    site = tmp_path / "repo" / "halls" / "hall-b3.yaml"
    shutil.copy(EXAMPLES / "hall-b3.yaml", site)
    return site


# --- discovery --------------------------------------------------------------------------------


def test_discovery_takes_the_nearest_file_and_facility_toml_first(hall):
    repo = hall.parents[1]
    assert discover(hall) is None
    (repo / "facility.toml").write_text('profile = "supernode"\n')
    assert discover(hall) == repo / "facility.toml"
    (hall.parent / "pyproject.toml").write_text('[project]\nname = "x"\n')  # no table: passed
    assert discover(hall) == repo / "facility.toml"
    (hall.parent / "pyproject.toml").write_text('[tool.facility]\nprofile = "tier-iii"\n')
    assert discover(hall) == hall.parent / "pyproject.toml"
    (hall.parent / "facility.toml").write_text('profile = "supernode"\n')
    assert discover(hall) == hall.parent / "facility.toml"  # wins in the same directory


def test_discovery_stops_at_the_repository_root(hall):
    outside = hall.parents[2] / "facility.toml"  # above the directory holding .git
    outside.write_text('fail-on = "never"\n')
    assert discover(hall) is None
    assert run("check", hall).exit_code == 1  # not read: Hall B3 still fails the run


# --- precedence -------------------------------------------------------------------------------


def test_the_file_overrides_the_defaults_and_the_command_line_the_file(hall):
    assert run("check", hall).exit_code == 1  # default: fail on error
    (hall.parent / "facility.toml").write_text('fail-on = "never"\nlang = "zh-CN"\n')
    result = run("check", hall)
    assert result.exit_code == 0, result.output
    assert "verdict: NOT READY" not in result.stdout  # the file's language
    result = run("check", hall, "--fail-on", "error", "--lang", "en")
    assert result.exit_code == 1
    assert "verdict: NOT READY" in result.stdout


def test_paths_in_the_file_are_relative_to_the_file(hall, tmp_path, monkeypatch):
    repo = hall.parents[1]
    (repo / "facility.toml").write_text(
        'format = ["json"]\noutput = ["reports/b3.json"]\nfail-on = "never"\n'
    )
    (repo / "reports").mkdir()
    monkeypatch.chdir(tmp_path)  # not the file's directory
    result = run("check", hall)
    assert result.exit_code == 0, result.output
    assert (repo / "reports" / "b3.json").read_text().startswith("{")
    # an --output on the command line replaces the file's format and output
    result = run("check", hall, "-o", tmp_path / "b3.md")
    assert (tmp_path / "b3.md").exists()


def test_config_names_the_file_and_isolated_reads_none(hall, tmp_path):
    elsewhere = tmp_path / "ci.toml"
    elsewhere.write_text('fail-on = "never"\n')
    assert run("check", hall, "--config", elsewhere).exit_code == 0
    (hall.parent / "facility.toml").write_text('fail-on = "never"\n')
    assert run("check", hall).exit_code == 0
    assert run("check", hall, "--isolated").exit_code == 1
    (hall.parent / "facility.toml").write_text("fail_on = 3\n")  # bad, and not read
    assert run("check", hall, "--isolated").exit_code == 1
    result = run("check", hall, "--isolated", "--config", elsewhere)
    assert result.exit_code == 2
    assert "--config and --isolated" in result.stderr


def test_a_pyproject_named_by_config_needs_its_table(hall, tmp_path):
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n')
    result = run("check", hall, "--config", pyproject)
    assert result.exit_code == 2
    assert f"{pyproject}:1:1: no [tool.facility] table" in result.stderr


# --- bad input --------------------------------------------------------------------------------


def test_unknown_keys_and_wrong_types_name_file_line_and_key(hall, tmp_path):
    pyproject = hall.parent / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "x"\n\n[tool.facility]\nprofile = "supernode"\n'
        'fail_on = "warning"\nlang = 3\n  waivers = [1, 2]\n\n[tool.other]\nlang = 3\n'
    )
    report = tmp_path / "out.html"  # (a JSON output would get an error result)
    result = run("check", hall, "-o", report)
    assert result.exit_code == 2, result.output
    err = result.stderr
    assert (
        f"{pyproject}:6:1: tool.facility.fail_on: unknown key 'fail_on' "
        "(did you mean 'fail-on'?)" in err
    )
    assert f"{pyproject}:7:1: tool.facility.lang: must be one of 'en', 'zh-CN'" in err
    assert f"{pyproject}:8:3: tool.facility.waivers: must be a path or a list of paths" in err
    assert "3 problems found; nothing was written." in err
    assert not report.exists()
    assert result.stdout == ""


def test_a_sub_table_is_a_wrong_type_at_its_header(tmp_path):
    config = tmp_path / "facility.toml"
    config.write_text('profile = "supernode"\n\n[select]\ncodes = ["PWR"]\n')
    with pytest.raises(InputError) as caught:
        read_config(config)
    (problem,) = caught.value.problems
    assert (problem.location.line, problem.field) == (3, "select")


def test_invalid_toml_is_named_at_its_line(hall):
    config = hall.parent / "facility.toml"
    config.write_text('profile = "supernode"\nfail-on = warning\n')
    result = run("check", hall)
    assert result.exit_code == 2
    assert f"{config}:2:11: invalid TOML: Invalid value" in result.stderr


def test_the_file_reads_every_key(tmp_path):
    config = tmp_path / "facility.toml"
    config.write_text(
        'profile = "tier-iii"\nfail-on = "warning"\nfail-on-incomplete = false\nlang = "en"\n'
        'waivers = "w.yaml"\nrules = ["more"]\nselect = "PWR"\nignore = ["PWR-003"]\n'
        'format = ["json"]\noutput = ["r.json"]\nshow-passed = true\nbaseline = "b.json"\n'
    )
    read = read_config(config)
    assert (read.profile, read.fail_on, read.fail_on_incomplete) == ("tier-iii", "warning", False)
    assert read.waivers == [tmp_path / "w.yaml"] and read.rules == [tmp_path / "more"]
    assert (read.select, read.ignore) == (["PWR"], ["PWR-003"])
    assert (read.format, read.output) == (["json"], [tmp_path / "r.json"])
    assert read.show_passed is True and read.baseline == tmp_path / "b.json"
    assert read.where("ignore") == f"{config}:8"


def test_a_site_path_the_os_refuses_is_bad_input_not_an_internal_error(tmp_path) -> None:
    from typer.testing import CliRunner

    from facility.cli import app

    site = tmp_path / ("x" * 300) / "site.yaml"  # a directory name longer than NAME_MAX
    result = CliRunner().invoke(app, ["check", str(site)])
    assert result.exit_code == 2, result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
