"""`facility rules explain CODE` for every rule and every kind of parameter (issue 13, defect 9:
a parameter of kind "count" crashed it with KeyError 'count')."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.engine.rules import RuleSet, load_rules

runner = CliRunner()
PROFILES = ("supernode", "tier-iii")
CODES = [rule.code for rule in load_rules().rules]


@pytest.fixture(scope="module")
def rulesets() -> dict[str, RuleSet]:
    return {profile: load_rules(profile=profile) for profile in PROFILES}


# Every rule under tier-iii; under supernode the rules whose severity it sets differently (the
# single-failure ones: the two bundled profiles differ in nothing else).
CASES = [(code, "tier-iii") for code in CODES] + [
    (rule.code, "supernode") for rule in load_rules().rules if "single-failure" in rule.spec.tags
]


@pytest.mark.parametrize(("code", "profile"), CASES)
def test_explain_every_rule(code: str, profile: str, rulesets: dict[str, RuleSet]) -> None:
    result = runner.invoke(app, ["rules", "explain", code, "--profile", profile])
    assert result.exit_code == 0, (result.output, result.exception)
    out = result.stdout
    assert out.startswith(f"{code} "), out
    assert f"(profile {profile})" in out
    rule = rulesets[profile].by_code(code)
    assert rule is not None
    shown = _parameters(out)
    assert set(shown) == set(rule.parameters)
    assert all(value.strip() and "inf" not in value for value in shown.values()), shown
    for reference in rule.spec.references:
        assert f"  - {reference}" in out


def _parameters(out: str) -> dict[str, str]:
    """The 'parameters:' block of the explanation: name -> what is shown."""
    if "\nparameters:\n" not in out:
        return {}
    block = out.split("\nparameters:\n", 1)[1].split("\n\n", 1)[0]
    return dict(line.strip().split(" = ", 1) for line in block.splitlines())


# A probe rule with a parameter of every kind, as `rules explain` shows it (worked by hand from
# the display units of facility/report/quantities.py: 2.5 bar = 250 kPa, 90 s stays in s, a
# fraction written as a plain number as written, a count as a whole number).
PARAMETERS = {
    "p_count": ("3", "3"),
    "p_plain_fraction": ("0.5", "0.5"),
    "p_percent": ("90 %", "90.0 %"),
    "p_power": ("132 kW", "132.0 kW"),
    "p_apparent_power": ("45 kVA", "45.0 kVA"),
    "p_voltage": ("415 V", "415 V"),
    "p_current": ("63 A", "63 A"),
    "p_mass": ("1500 kg", "1,500 kg"),
    "p_length": ("600 mm", "600 mm"),
    "p_area": ("60 m**2", "60.0 m²"),
    "p_volume": ("40 L", "40 L"),
    "p_pressure": ("2.5 bar", "250.0 kPa"),
    "p_force": ("4.45 kN", "4.45 kN"),
    "p_flow": ("1200 L/min", "1,200 L/min"),
    "p_temperature": ("32 degC", "32.0 °C"),
    "p_rise": ("10 K", "10.0 K"),
    "p_time": ("90 s", "90 s"),
    "p_acceleration": ("9.81 m/s**2", "9.810 m/s²"),
    "p_density": ("1000 kg/m**3", "1,000.0 kg/m³"),
    "p_data_size": ("2 TB", "2.00 TB"),
    "p_bit_rate": ("400 Gb/s", "400 Gb/s"),
    "p_computation": ("5e22 FLOP", "5.00e22 FLOP"),
    "p_computation_rate": ("2.5 PFLOP/s", "2.50 PFLOP/s"),
    "p_specific_heat": ("4180 J/(kg*K)", "4.180 kJ/(kg·K)"),
}
PROBE = (
    "code: LIQ-950\nname: liquid.probe_every_parameter_kind\n"
    "title: A probe rule with a parameter of every kind\narea: liquid\nscope: tcs_loop\n"
    "severity: warning\nparameters:\n"
    + "".join(f"  {name}: {text}\n" for name, (text, _) in PARAMETERS.items())
    + "observed: return_temperature\nlimit: p_temperature\ncondition: observed <= limit\n"
    "requirement: The probe holds.\nwhy: The explain tests need every kind.\n"
    "references:\n  - tests/test_rules_explain.py\n"
)


def test_explain_shows_a_parameter_of_every_kind(tmp_path: Path) -> None:
    (tmp_path / "liquid").mkdir()
    (tmp_path / "liquid" / "LIQ-950.yaml").write_text(PROBE, encoding="utf-8")
    result = runner.invoke(app, ["rules", "explain", "liq-950", "--rules", str(tmp_path)])
    assert result.exit_code == 0, (result.output, result.exception)
    for name, (_, shown) in PARAMETERS.items():
        assert f"\n  {name} = {shown}\n" in result.stdout, name
    assert "  - tests/test_rules_explain.py" in result.stdout
