"""``facility import csv`` and ``facility export csv`` on the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from facility.cli import app

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


def test_import_prints_the_site_file(tmp_path):
    result = run("import", "csv", str(EXAMPLES / "csv" / "racks.csv"))
    assert result.exit_code == 0, result.output
    assert result.stdout == (EXAMPLES / "csv" / "racks.yaml").read_text(encoding="utf-8")


def test_import_writes_the_output_file(tmp_path):
    out = tmp_path / "racks.yaml"
    result = run(
        "import", "csv", str(EXAMPLES / "csv" / "racks.csv"), "-o", str(out), "--name", "Pod"
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == f"wrote 4 racks to {out}\n"
    assert out.read_text(encoding="utf-8").splitlines()[4] == "site: {name: Pod}"


def test_import_of_bad_rows_exits_2_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("id,type,peak_power\nA01,gb300-nvl72,12 kg\nA02,,\n", encoding="utf-8")
    out = tmp_path / "racks.yaml"
    result = run("import", "csv", str(bad), "-o", str(out))
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {bad}:2:3: peak_power: expected a power like '132 kW', got '12 kg', which is "
        "a mass\n"
        f"error: {bad}:3:2: type: missing required field 'type'\n"
        "2 problems found; nothing was written.\n"
    )
    assert "Traceback" not in result.output
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [bad]


def test_import_never_writes_over_its_input(tmp_path):
    source = tmp_path / "racks.csv"
    source.write_text("id,type\nA01,gb300-nvl72\n", encoding="utf-8")
    result = run("import", "csv", str(source), "-o", str(source))
    assert result.exit_code == 2
    assert "refusing to write" in result.stderr
    assert source.read_text(encoding="utf-8") == "id,type\nA01,gb300-nvl72\n"


def test_export_prints_and_writes_the_csv(tmp_path):
    result = run("export", "csv", str(EXAMPLES / "hall-b3.yaml"))
    assert result.exit_code == 0
    assert (
        result.stdout.splitlines()[1] == "A01,gb300-b3,A,1,Z-A,TCS-A,pdu-415v-63a,4,pdu-415v-63a,4"
    )
    out = tmp_path / "racks.csv"
    assert run("export", "csv", str(EXAMPLES / "hall-b3.yaml"), "-o", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8") == result.stdout


def test_export_of_a_bad_site_exits_2(tmp_path):
    site = tmp_path / "site.yaml"
    site.write_text("site: {name: T}\nracks: [{id: R1}]\n", encoding="utf-8")
    result = run("export", "csv", str(site))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {site}:2:")
    assert "missing required field 'type'" in result.stderr


def test_the_csv_commands_import_nothing_heavy_at_start_up():
    code = (
        "import sys, facility.cli; "
        "print(sorted(m for m in sys.modules if m.startswith(('facility.imports.csv_', 'csv', "
        "'pydantic', 'yaml', 'pint'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['facility.imports.csv_cli']"
