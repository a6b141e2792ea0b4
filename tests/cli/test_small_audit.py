"""A small audit does only the work it needs (issue 21: Hall B3's check in a fraction of a
second), bounded by counts, never by time: the modules it imports, the files it reads with
positions."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from facility.engine import rules
from facility.engine.rules import bundled_rules_dir, load_rules
from facility.model import yaml_reader
from facility.model.source import InputError

ROOT = Path(__file__).resolve().parents[2]

# What `facility check SITE` with the terminal report does not use: the other report writers
# and their templates, the analyses it does not run, the imports, the unit library (quantities
# are parsed by facility.units' own table) and the property libraries of the tests.
NOT_NEEDED = (
    "jinja2",
    "markupsafe",
    "facility.report.view",  # the view model of the HTML and Markdown reports
    "facility.report.portfolio_view",
    "facility.report.html",
    "facility.report.markdown",
    "facility.report.pdf",
    "facility.report.sarif",
    "facility.report.junit",
    "facility.report.json_report",
    "facility.report.templating",
    "facility.report.charts",
    "facility.report.plan_svg",
    "facility.report.floor_plan",
    "facility.report.diff_report",
    "facility.report.headroom_report",
    "facility.report.failures_report",
    "facility.analysis.fixes",
    "facility.analysis.diff",
    "facility.analysis.headroom",
    "facility.commands.check_many",
    "facility.imports.netbox",
    "facility.imports.netbox_fetch",
    "facility.imports.netbox_map",
    "facility.imports.csv_racks",
    "facility.imports.csv_export",
    "pynetbox",
    "requests",
    "pint",
    "numpy",
    "CoolProp",
    "hypothesis",
    "pickle",  # the fix search's memo (--fixes)
)

_RUN = """
import json, sys
sys.argv = ["facility", "check", "examples/hall-b3.yaml"]
from facility.cli import main
try:
    main()
except SystemExit as exit:
    code = exit.code
sys.stdout.flush()
print(json.dumps({"exit": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def test_a_terminal_check_imports_nothing_it_does_not_use() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _RUN],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    found = json.loads(run.stderr.strip().splitlines()[-1])
    assert found["exit"] == 1, run.stderr  # Hall B3 is not ready: the check ran to its verdict
    assert "verdict: NOT READY" in run.stdout
    modules = set(found["modules"])
    assert "facility.report.terminal" in modules and "facility.analysis.failures" in modules
    assert sorted(name for name in NOT_NEEDED if name in modules) == []


@pytest.fixture
def positional_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts read by the positional reader from now on; the rule caches emptied."""
    texts: list[str] = []
    read = yaml_reader.Reader.read

    def counted(self: yaml_reader.Reader, text: str) -> object:
        texts.append(text)
        return read(self, text)

    monkeypatch.setattr(yaml_reader.Reader, "read", counted)
    monkeypatch.setattr(rules, "_READ", {})
    monkeypatch.setattr(rules, "_LOADED", {})
    return texts


def test_the_bundled_rules_load_without_the_positional_reader(
    positional_reads: list[str],
) -> None:
    for profile in ("supernode", "tier-iii"):
        ruleset = load_rules([bundled_rules_dir()], profile)
        assert len(ruleset.rules) >= 100
    assert len(positional_reads) == 0


def test_only_the_file_with_a_problem_is_read_for_its_positions(
    positional_reads: list[str], tmp_path: Path
) -> None:
    tree = tmp_path / "rules"
    (tree / "profiles").mkdir(parents=True)
    (tree / "profiles" / "probe.yaml").write_text(
        "name: probe\ndescription: every rule as written\n", encoding="utf-8"
    )
    good = (bundled_rules_dir() / "liquid" / "LIQ-001.yaml").read_text(encoding="utf-8")
    (tree / "liquid").mkdir()
    (tree / "liquid" / "LIQ-001.yaml").write_text(good, encoding="utf-8")
    bad = "\n".join(
        line.replace("LIQ-001", "LIQ-901") if line.startswith("code:") else line
        for line in good.splitlines()
    )
    bad = bad.replace("\nobserved: ", "\nobserved: no_such_quantity + ", 1)
    assert "no_such_quantity" in bad
    (tree / "liquid" / "LIQ-901.yaml").write_text(bad + "\n", encoding="utf-8")
    with pytest.raises(InputError) as error:
        load_rules([tree], "probe")
    (problem,) = error.value.problems
    line = next(i for i, text in enumerate(bad.splitlines(), 1) if text.startswith("observed:"))
    assert (Path(problem.location.file).name, problem.location.line) == ("LIQ-901.yaml", line)
    assert positional_reads == [bad + "\n"]
