"""The command line, driven through typer's CliRunner: exit codes, stdout and stderr."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from facility import __version__, catalog
from facility.cli import app
from facility.model.load import load_site

EXAMPLES = Path(__file__).parents[1] / "examples"

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, list(args))


# --- check ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["hall-b3.yaml", "hall-b3-us.yaml"])
def test_check_hall_b3_prints_the_it_load(name):
    result = run("check", str(EXAMPLES / name))
    # Hall B3 is not ready (scenarios/hall-b3.md): findings at error level exit 1, not 2
    assert result.exit_code == 1, result.stderr
    assert "verdict: NOT READY" in result.stdout
    out = result.stdout
    assert out.startswith("Hall B3 — ")
    # IT load: 8 · 135 + 12 · 32 = 1,080 + 384 = 1,464 kW nominal;
    #          8 · 155 + 12 · 38 = 1,240 + 456 = 1,696 kW peak
    assert "IT load at peak power: 1,696.0 kW = 1,696.0 kW on power sides" in out
    assert "Heat at nominal power: 1,464.0 kW = 1,298.4 kW to TCS loops" in out
    # TCS-A: 8 · 135 · 0.90 = 972.0 kW; TCS-B: 12 · 32 · 0.85 = 326.4 kW
    assert "1,298.4 kW to TCS loops (TCS-A 972.0 kW, TCS-B 326.4 kW)" in out
    # air: 8 · 135 · 0.10 + 12 · 32 · 0.15 = 108 + 57.6 = 165.6 kW
    assert "+ 165.6 kW to room air (B3 165.6 kW)" in out
    # mass: 8 · 1,500 + 12 · 1,100 = 12,000 + 13,200 = 25,200 kg
    assert (
        "Installed mass: 25,200 kg = 25,200 kg on floor zones (Z-A 12,000 kg, Z-B 13,200 kg)" in out
    )
    assert "20 racks, 88 pdus" in out
    assert "Traceback" not in result.output


def test_check_small_ready_site():
    result = run("check", str(EXAMPLES / "small-ready.yaml"))
    assert result.exit_code == 0, result.stdout + result.stderr  # ready: every check passes
    # 4 · 135 = 540 kW nominal; 4 · 155 = 620 kW peak; 4 · 135 · 0.9 = 486 kW; 4 · 13.5 = 54 kW
    assert "IT load at peak power: 620.0 kW" in result.stdout
    assert "Heat at nominal power: 540.0 kW" in result.stdout
    assert "486.0 kW to TCS loops (TCS-1 486.0 kW)" in result.stdout
    assert "+ 54.0 kW to room air (R1 54.0 kW)" in result.stdout
    assert (
        "verdict: READY — checks: 0 failed, 275 passed, 0 not evaluated, 0 waived\n"
        "  Every check passes or is waived"
    ) in result.stdout


def test_check_bad_input_exits_2_with_every_problem_on_stderr(tmp_path):
    site = tmp_path / "bad.yaml"
    site.write_text(
        "site: {name: T}\nrack_types:\n  - {id: t1, nominal_power: 132 kg, peak_power: 150}\n",
        encoding="utf-8",
    )
    result = run("check", str(site))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: {site}:3:14: rack_types[0].nominal_power: expected a power like '132 kW', "
        "got '132 kg', which is a mass",
        f"error: {site}:3:37: rack_types[0].peak_power: missing unit: expected a power like "
        "'132 kW', got the bare number 150",
        "2 problems found; nothing was written.",
    ]
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"site:\n  name: T\n racks: [\n", ":3:2: invalid YAML"),
        (b"site: !!python/object/apply:os.system [ls]\n", ":1:7: site: YAML tag"),
        (b"site:\n  name: Caf\xe9\n", ":2:12: not UTF-8 text"),
        (b"", ":1:1: the file is empty"),
    ],
)
def test_check_hostile_input_never_leaks_a_traceback(tmp_path, content, expected):
    site = tmp_path / "site.yaml"
    site.write_bytes(content)
    result = run("check", str(site))
    assert result.exit_code == 2
    assert f"error: {site}{expected}" in result.stderr
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_check_missing_file(tmp_path):
    result = run("check", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {tmp_path / 'nope.yaml'}: file not found")


def test_check_writes_nothing_on_bad_input(tmp_path):
    site = tmp_path / "bad.yaml"
    site.write_text("site: {name: T}\nunknown: 1\n", encoding="utf-8")
    # (a JSON or SARIF output would get an error result: tests/cli/test_error_results.py)
    result = run("check", str(site), "--output", str(tmp_path / "report.html"))
    assert result.exit_code == 2
    assert "nothing was written" in result.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["bad.yaml"]


# --- schema -----------------------------------------------------------------------------------


def test_schema_is_json_describing_the_site_file():
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["required"] == ["site"]
    assert schema["additionalProperties"] is False
    assert {"site", "rack_types", "rows", "racks", "power", "cooling"} <= set(schema["properties"])


@pytest.fixture(scope="module")
def site_schema_validator():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(run("schema").stdout)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("name", ["hall-b3.yaml", "hall-b3-us.yaml", "small-ready.yaml"])
def test_schema_accepts_the_examples(name, site_schema_validator):
    data = yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))
    errors = [e.message for e in site_schema_validator.iter_errors(data)]
    assert errors == []


def test_schema_rejects_a_typo():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(run("schema").stdout)
    data = {"site": {"name": "T"}, "rack_types": [{"id": "t", "nominal_powr": "10 kW"}]}
    assert not jsonschema.Draft202012Validator(schema).is_valid(data)


# --- init -------------------------------------------------------------------------------------


def test_init_writes_a_starter_that_loads(tmp_path):
    target = tmp_path / "site.yaml"
    result = run("init", str(target))
    assert result.exit_code == 0, result.stderr
    assert str(target) in result.stdout
    site = load_site(target)
    assert len(site.racks) == 4
    check = run("check", str(target))
    assert check.exit_code in (0, 1), check.stderr  # loads; findings are allowed
    assert "Heat at nominal power: 540.0 kW" in check.stdout  # 4 · 135 kW


def test_init_refuses_to_overwrite_without_force(tmp_path):
    target = tmp_path / "site.yaml"
    target.write_text("mine\n", encoding="utf-8")
    result = run("init", str(target))
    assert result.exit_code == 2
    assert "exists; use --force" in result.stderr
    assert target.read_text(encoding="utf-8") == "mine\n"
    forced = run("init", str(target), "--force")
    assert forced.exit_code == 0
    assert load_site(target).racks


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("no-such-directory/site.yaml", "cannot write {}: No such file or directory"),
        ("x" * 300 + ".yaml", "cannot write {}: File name too long"),
        ("loop.yaml", "cannot write {}: Too many levels of symbolic links"),
        ("a-directory", "{} exists; use --force to overwrite it"),
    ],
)
def test_init_where_it_cannot_write_exits_2_naming_the_path(tmp_path, monkeypatch, name, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    (tmp_path / "a-directory").mkdir()
    result = run("init", name)
    assert result.exit_code == 2
    expected = message.format(name)
    if expected.startswith("cannot"):
        expected += "; no file was replaced"
    assert result.stderr == f"error: {expected}\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-directory", "loop.yaml"]
    forced = run("init", "a-directory", "--force")
    assert forced.exit_code == 2
    assert (
        forced.stderr == "error: cannot write a-directory: Is a directory; no file was replaced\n"
    )


def test_init_over_a_fifo_is_refused_even_with_force(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkfifo("site.yaml")  # opening it would block; replacing it would lose the pipe
    assert (
        run("init", "site.yaml").stderr == "error: site.yaml exists; use --force to overwrite it\n"
    )
    forced = run("init", "site.yaml", "--force")
    assert forced.exit_code == 2
    assert forced.stderr == (
        "error: refusing to write to site.yaml: it is a device, FIFO or socket, not a regular "
        "file (a report replaces its target, it is never written into one)\n"
    )
    assert stat.S_ISFIFO(os.stat("site.yaml").st_mode)
    assert os.listdir(".") == ["site.yaml"]


def test_init_with_a_nul_byte_in_the_name_exits_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("init", "site\x00.yaml")
    assert result.exit_code == 2
    assert "embedded null byte" in result.stderr and "Traceback" not in result.output
    assert os.listdir(".") == []


@pytest.mark.parametrize("epoch", ["99999999999999999999", "253402300800", "-5", "1e9", "soon"])
def test_a_malformed_source_date_epoch_is_a_usage_error(tmp_path, monkeypatch, epoch):
    # 253402300800 s is 10000-01-01T00:00:00Z, one second past what a date can hold.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    result = run("check", str(EXAMPLES / "small-ready.yaml"), "-o", "r.json")
    assert result.exit_code == 2, result.output
    text = " ".join(result.stderr.replace("│", " ").split())
    assert (
        f"SOURCE_DATE_EPOCH={epoch} is not a date (seconds since 1970 up to the year 9999)" in text
    )
    assert os.listdir(".") == []


def test_source_date_epoch_fixes_the_report_date(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764590400")  # 2025-12-01T12:00:00Z
    result = run("check", str(EXAMPLES / "small-ready.yaml"), "-o", "r.json")
    assert result.exit_code == 0, result.output
    assert json.loads(Path("r.json").read_text())["generated_at"] == "2025-12-01T12:00:00+00:00"


# --- catalog and version --------------------------------------------------------------------------


def test_catalog_lists_every_entry():
    result = run("catalog")
    assert result.exit_code == 0
    header, *lines = result.stdout.splitlines()
    assert header.split() == ["ID", "KIND", "NAME"]
    assert len(lines) == len(catalog.entries())
    assert any(line.startswith("gb300-nvl72 ") and "rack_type" in line for line in lines)
    assert any(line.startswith("vertiv-xdu1350 ") and "cdu" in line for line in lines)


def test_catalog_shows_one_entry_with_sources():
    result = run("catalog", "gb300-nvl72")
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith("gb300-nvl72 — GB300 NVL72-class rack (rack_type)")
    assert "  peak_power: 155 kW  (confidence M)" in out
    assert "source: Lenovo LP2357" in out
    assert "power_factor: 0.95  (confidence L)  [assumption]" in out


def test_catalog_unknown_entry_exits_2():
    result = run("catalog", "nope")
    assert result.exit_code == 2
    assert "no catalog entry 'nope'" in result.stderr


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"facility {__version__}"
