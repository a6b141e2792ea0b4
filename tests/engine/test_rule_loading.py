"""Loading rules and profiles: every mistake is an InputError at its file, line and field.

Bad rules are written into a rule tree under tmp_path, next to copies of the bundled profiles,
and loaded with ``load_rules(directories=[tree], profile=...)``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from facility.engine.rules import AREAS, RuleSet, bundled_rules_dir, load_rules
from facility.model.source import InputError, Problem

PROBE = """\
code: LIQ-900
name: liquid.probe_rule
title: A probe rule for the loader tests
area: liquid
scope: tcs_loop
severity: error
parameters:
  max_return_temperature: 60 degC
observed: return_temperature
limit: max_return_temperature
condition: observed <= limit
requirement: The probe holds.
why: The loader tests need a rule.
references:
  - tests/engine/test_rule_loading.py
"""


def tree(tmp_path: Path, files: dict[str, str], profiles: dict[str, str] | None = None) -> Path:
    """A rule directory with the bundled profiles copied in, plus ``files`` and ``profiles``."""
    root = tmp_path / "rules"
    (root / "profiles").mkdir(parents=True)
    for name in ("supernode.yaml", "tier-iii.yaml"):
        shutil.copy(bundled_rules_dir() / "profiles" / name, root / "profiles" / name)
    written = {**files, **{f"profiles/{name}": text for name, text in (profiles or {}).items()}}
    for relative, text in written.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def problems(root: Path, profile: str = "supernode") -> list[Problem]:
    with pytest.raises(InputError) as info:
        load_rules(directories=[root], profile=profile)
    assert info.value.problems, "an InputError carries at least one problem"
    return info.value.problems


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` that starts (after indent) with ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.lstrip().startswith(text))


def only(found: list[Problem], field: str) -> Problem:
    matching = [p for p in found if p.field == field]
    assert len(matching) == 1, [str(p) for p in found]
    return matching[0]


# --- a probe rule that is fine --------------------------------------------------------------


def test_probe_rule_loads(tmp_path: Path) -> None:
    ruleset = load_rules(directories=[tree(tmp_path, {"liquid/LIQ-900.yaml": PROBE})])
    rule = ruleset.by_code("LIQ-900")
    assert rule is not None
    assert rule.parameters["max_return_temperature"].value == 60.0  # °C
    assert rule.kind == "temperature"


def test_profile_overrides_a_parameter_with_the_same_dimension(tmp_path: Path) -> None:
    # 131 degF = (131 − 32) × 5/9 = 55 °C
    root = tree(
        tmp_path,
        {"liquid/LIQ-900.yaml": PROBE},
        {
            "cool.yaml": (
                "name: cool\ndescription: a cooler return limit\nextends: supernode\n"
                "parameters:\n  LIQ-900:\n    max_return_temperature: 131 degF\n"
            )
        },
    )
    rule = load_rules(directories=[root], profile="cool").by_code("LIQ-900")
    assert rule is not None
    assert rule.parameters["max_return_temperature"].value == pytest.approx(55.0, rel=1e-12)


# --- errors in a rule file -------------------------------------------------------------------


def test_rule_comparing_a_temperature_with_a_power(tmp_path: Path) -> None:
    bad = PROBE.replace("limit: max_return_temperature", "limit: liquid_heat")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    path = root / "liquid" / "LIQ-900.yaml"
    problem = only(problems(root), "limit")
    assert problem.location.file == str(path)
    assert problem.location.line == line_of(path, "limit:")
    assert "observed is an absolute temperature but limit is power" in problem.message


def test_condition_comparing_a_temperature_with_a_power(tmp_path: Path) -> None:
    bad = PROBE.replace("condition: observed <= limit", "condition: observed <= liquid_heat")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    path = root / "liquid" / "LIQ-900.yaml"
    problem = only(problems(root), "condition")
    assert (problem.location.file, problem.location.line) == (
        str(path),
        line_of(path, "condition:"),
    )
    assert "cannot compare an absolute temperature with power" in problem.message


def test_unknown_quantity_name(tmp_path: Path) -> None:
    bad = PROBE.replace("observed: return_temperature", "observed: return_temprature")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    path = root / "liquid" / "LIQ-900.yaml"
    problem = only(problems(root), "observed")
    assert (problem.location.file, problem.location.line) == (str(path), line_of(path, "observed:"))
    assert "unknown name 'return_temprature'" in problem.message
    assert "return_temperature" in problem.message  # the known names are listed


def test_quantity_of_another_scope_is_unknown(tmp_path: Path) -> None:
    # caster_load is a rack quantity; a tcs_loop rule cannot use it
    bad = PROBE.replace("observed: return_temperature", "observed: caster_load")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    assert "unknown name 'caster_load'" in only(problems(root), "observed").message


def test_unknown_scope(tmp_path: Path) -> None:
    bad = PROBE.replace("scope: tcs_loop", "scope: tcs_lop")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    path = root / "liquid" / "LIQ-900.yaml"
    problem = only(problems(root), "scope")
    assert (problem.location.file, problem.location.line) == (str(path), line_of(path, "scope:"))
    assert "unknown scope 'tcs_lop'" in problem.message
    assert "tcs_loop" in problem.message  # the known scopes are listed


def test_duplicate_code(tmp_path: Path) -> None:
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": PROBE, "power/LIQ-900-again.yaml": PROBE})
    first = root / "liquid" / "LIQ-900.yaml"
    second = root / "power" / "LIQ-900-again.yaml"
    problem = only(problems(root), "code")
    assert (problem.location.file, problem.location.line) == (str(second), line_of(second, "code:"))
    assert "duplicate rule code LIQ-900" in problem.message
    assert str(first) in problem.message  # where the first one is


def test_yaml_syntax_error(tmp_path: Path) -> None:
    # line 3 opens a flow mapping that never closes
    bad = PROBE.replace("title: A probe rule for the loader tests", "title: {unclosed")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    path = root / "liquid" / "LIQ-900.yaml"
    found = problems(root)
    assert len(found) == 1, [str(p) for p in found]
    assert found[0].location.file == str(path)
    assert found[0].location.line >= line_of(path, "title:")
    assert "invalid YAML" in found[0].message


def test_unknown_field_in_a_rule(tmp_path: Path) -> None:
    bad = PROBE.replace("severity: error", "severity: error\nseverty: warning")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    path = root / "liquid" / "LIQ-900.yaml"
    problem = only(problems(root), "severty")
    assert (problem.location.file, problem.location.line) == (str(path), line_of(path, "severty:"))
    assert "unknown field 'severty'" in problem.message


def test_parameter_of_the_wrong_dimension_for_its_comparison(tmp_path: Path) -> None:
    # "60 L" is a volume: the limit is then a volume, the observed value a temperature
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": PROBE.replace("60 degC", "60 L")})
    path = root / "liquid" / "LIQ-900.yaml"
    problem = only(problems(root), "limit")
    assert (problem.location.file, problem.location.line) == (str(path), line_of(path, "limit:"))
    assert "observed is an absolute temperature but limit is volume" in problem.message


def test_when_must_be_a_truth_value(tmp_path: Path) -> None:
    bad = PROBE.replace(
        "observed: return_temperature", "when: racks_on_loop\nobserved: return_temperature"
    )
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    assert "'when' must be a condition" in only(problems(root), "when").message


def test_condition_must_be_a_truth_value(tmp_path: Path) -> None:
    bad = PROBE.replace("condition: observed <= limit", "condition: observed - limit")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    assert "the condition must be a comparison" in only(problems(root), "condition").message


def test_every_problem_is_reported_not_the_first(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {
            "liquid/LIQ-900.yaml": PROBE.replace("scope: tcs_loop", "scope: nowhere"),
            "liquid/LIQ-901.yaml": PROBE.replace("LIQ-900", "LIQ-901").replace(
                "observed: return_temperature", "observed: nothing"
            ),
        },
    )
    files = {Path(p.location.file).name for p in problems(root)}
    assert files == {"LIQ-900.yaml", "LIQ-901.yaml"}


# --- errors in a profile -------------------------------------------------------------------


def test_profile_overriding_a_parameter_with_the_wrong_dimension(tmp_path: Path) -> None:
    # a return limit of "10 K" is a rise, not a temperature
    root = tree(
        tmp_path,
        {"liquid/LIQ-900.yaml": PROBE},
        {
            "bad.yaml": (
                "name: bad\ndescription: a rise where a temperature belongs\nextends: supernode\n"
                "parameters:\n  LIQ-900:\n    max_return_temperature: 10 K\n"
            )
        },
    )
    profile_file = root / "profiles" / "bad.yaml"
    problem = only(problems(root, "bad"), "parameters.LIQ-900.max_return_temperature")
    # reported where the profile sets it, naming both kinds
    assert (problem.location.file, problem.location.line) == (
        str(profile_file),
        line_of(profile_file, "max_return_temperature:"),
    )
    assert "sets LIQ-900's 'max_return_temperature' to '10 K' (temperature difference)" in (
        problem.message
    )
    assert "the rule declares temperature" in problem.message


def test_profile_overriding_a_real_power_with_an_apparent_power(tmp_path: Path) -> None:
    # AIR-003's limit is real power (kW); kVA would silently drop the power factor
    root = tree(
        tmp_path,
        {},
        {
            "bad.yaml": (
                "name: bad\ndescription: VA for W\nextends: supernode\n"
                "parameters:\n  AIR-003:\n    max_air_cooled_power: 12 kVA\n"
            )
        },
    )
    shutil.copytree(bundled_rules_dir() / "air", root / "air")
    problem = only(problems(root, "bad"), "parameters.AIR-003.max_air_cooled_power")
    assert problem.location.file == str(root / "profiles" / "bad.yaml")
    assert "(apparent power), but the rule declares power" in problem.message


def test_profile_setting_an_unknown_parameter(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {"liquid/LIQ-900.yaml": PROBE},
        {
            "bad.yaml": (
                "name: bad\ndescription: a typo\nextends: supernode\n"
                "parameters:\n  LIQ-900:\n    max_return_temprature: 55 degC\n"
            )
        },
    )
    problem = only(problems(root, "bad"), "parameters.LIQ-900.max_return_temprature")
    assert problem.location.file == str(root / "profiles" / "bad.yaml")
    assert "LIQ-900 has no parameter 'max_return_temprature'" in problem.message


def test_unknown_profile(tmp_path: Path) -> None:
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": PROBE})
    found = problems(root, "tier-3")
    assert len(found) == 1
    assert "unknown profile 'tier-3'" in found[0].message
    assert "supernode" in found[0].message and "tier-iii" in found[0].message  # the choices


def test_unknown_bundled_profile() -> None:
    with pytest.raises(InputError) as info:
        load_rules(profile="no-such-profile")
    assert "unknown profile 'no-such-profile'" in str(info.value)


@pytest.mark.parametrize(
    "body",
    [
        "select: [LIQ-900, PWR-999]\n",
        "ignore: [PWR-999]\n",
        "severity:\n  PWR-999: error\n",
        "parameters:\n  PWR-999:\n    required_sides: 3\n",
    ],
    ids=["select", "ignore", "severity", "parameters"],
)
def test_profile_naming_an_unknown_rule(tmp_path: Path, body: str) -> None:
    root = tree(
        tmp_path,
        {"liquid/LIQ-900.yaml": PROBE},
        {"bad.yaml": "name: bad\ndescription: names a rule that is not there\n" + body},
    )
    found = problems(root, "bad")
    assert len(found) == 1, [str(p) for p in found]
    assert found[0].location.file == str(root / "profiles" / "bad.yaml")
    assert "profile 'bad' names unknown rule PWR-999" in found[0].message


def test_unknown_field_in_a_profile(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {"liquid/LIQ-900.yaml": PROBE},
        {"bad.yaml": "name: bad\ndescription: typo\nseverity_by_tags:\n  single-failure: error\n"},
    )
    problem = only(problems(root, "bad"), "severity_by_tags")
    assert problem.location.file == str(root / "profiles" / "bad.yaml")
    assert problem.location.line == 3
    assert "unknown field 'severity_by_tags'" in problem.message


def test_profiles_extending_each_other_in_a_loop(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {"liquid/LIQ-900.yaml": PROBE},
        {
            "a.yaml": "name: a\ndescription: a\nextends: b\n",
            "b.yaml": "name: b\ndescription: b\nextends: a\n",
        },
    )
    assert "profiles extend each other in a loop" in problems(root, "a")[0].message


# --- the bundled rules and profiles ----------------------------------------------------------


@pytest.fixture(scope="module")
def supernode() -> RuleSet:
    return load_rules(profile="supernode")


@pytest.fixture(scope="module")
def tier_iii() -> RuleSet:
    return load_rules(profile="tier-iii")


def test_bundled_rules_load_with_their_file_names_and_areas(supernode: RuleSet) -> None:
    # every rule file loads, and every area has rules (no count here: a new rule changes its
    # own file, its case file and the Hall B3 expectation only)
    files = {p.stem for p in bundled_rules_dir().rglob("*.yaml") if p.parent.name != "profiles"}
    assert {rule.code for rule in supernode.rules} == files
    assert {rule.spec.area for rule in supernode.rules} == set(AREAS)
    for rule in supernode.rules:
        path = Path(rule.file)
        assert path.stem == rule.code
        assert path.parent.name == rule.spec.area


def test_tier_iii_raises_single_failure_rules_to_error(
    supernode: RuleSet, tier_iii: RuleSet
) -> None:
    single = {r.code for r in supernode.rules if "single-failure" in r.spec.tags}
    assert {"PWR-001", "PWR-003", "LIQ-002", "LIQ-004", "LIQ-010", "AIR-002"} <= single
    for rule in tier_iii.rules:
        if rule.code in single:
            assert rule.severity == "error", rule.code
        else:  # everything else keeps the severity written in its file
            assert rule.severity == rule.spec.severity, rule.code


def test_supernode_keeps_single_failure_rules_as_warnings(supernode: RuleSet) -> None:
    for rule in supernode.rules:
        assert rule.severity == rule.spec.severity, rule.code
        if "single-failure" in rule.spec.tags:
            assert rule.severity == "warning", rule.code


def test_tier_iii_keeps_the_supernode_assumptions(supernode: RuleSet, tier_iii: RuleSet) -> None:
    assert tier_iii.profile == "tier-iii"
    assert tier_iii.assumptions == supernode.assumptions
    assert supernode.assumptions.electrical_power_basis == "peak"
    assert supernode.assumptions.thermal_power_basis == "nominal"
    assert [r.code for r in tier_iii.rules] == [r.code for r in supernode.rules]


def test_profile_severity_by_code_and_ignore(tmp_path: Path) -> None:
    root = tree(
        tmp_path,
        {},
        {
            "quiet.yaml": (
                "name: quiet\ndescription: c\nextends: tier-iii\n"
                "severity:\n  PWR-001: info\nignore: [PWR-004]\n"
            )
        },
    )
    shutil.copytree(bundled_rules_dir() / "power", root / "power")
    ruleset = load_rules(directories=[root], profile="quiet")
    pwr_001, pwr_003 = ruleset.by_code("PWR-001"), ruleset.by_code("PWR-003")
    assert pwr_001 is not None and pwr_001.severity == "info"  # by code beats by tag
    assert pwr_003 is not None and pwr_003.severity == "error"  # by tag, from tier-iii
    assert ruleset.by_code("PWR-004") is None


# --- non-finite numbers (issue 13, defect 8) -------------------------------------------------

NON_FINITE = ["1e999", "-1e999", "1.0e+999", ".inf", "-.inf", ".nan", "1e999 degC", "1" + "0" * 400]


@pytest.mark.parametrize("value", NON_FINITE)
def test_a_non_finite_parameter_is_refused(tmp_path: Path, value: str) -> None:
    # YAML reads .inf, .nan and 1.0e+999 as floats, 1e999 as text, 1000…0 as a whole number
    bad = PROBE.replace("parameters:\n", f"parameters:\n  max_x: {value}\n")
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    path = root / "liquid" / "LIQ-900.yaml"
    problem = only(problems(root), "parameters.max_x")
    assert (problem.location.file, problem.location.line) == (str(path), line_of(path, "max_x:"))
    assert "finite" in problem.message or "too large" in problem.message


@pytest.mark.parametrize(
    ("field", "text"),
    [
        ("condition", "observed <= limit and 0 < 1e999"),
        ("condition", "observed <= limit and 0 > -1e999"),
        ("when", "racks_on_loop < 1" + "0" * 400),
    ],
)
def test_a_non_finite_number_in_an_expression_is_refused(
    tmp_path: Path, field: str, text: str
) -> None:
    bad = PROBE.replace("condition: observed <= limit\n", "") + f"{field}: {text}\n"
    if field == "when":
        bad += "condition: observed <= limit\n"
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": bad})
    path = root / "liquid" / "LIQ-900.yaml"
    problem = only(problems(root), field)
    assert (problem.location.file, problem.location.line) == (str(path), line_of(path, field))
    assert "is not a finite number in" in problem.message


def test_a_profile_setting_a_non_finite_parameter_is_refused(tmp_path: Path) -> None:
    probe = PROBE.replace("parameters:\n", "parameters:\n  max_share: 0.5\n")
    profile = "name: loose\ndescription: d\nextends: supernode\nparameters:\n"
    profile += "  LIQ-900:\n    max_share: .inf\n"
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": probe}, {"loose.yaml": profile})
    path = root / "profiles" / "loose.yaml"
    problem = only(problems(root, "loose"), "parameters.LIQ-900.max_share")
    assert (problem.location.file, problem.location.line) == (str(path), 6)
    assert "finite" in problem.message


@pytest.mark.parametrize("value", ["1e999", ".inf", ".nan"])
def test_check_with_a_non_finite_rule_parameter_exits_2(tmp_path: Path, value: str) -> None:
    from typer.testing import CliRunner

    from facility.cli import app

    bundled = (bundled_rules_dir() / "liquid" / "LIQ-008.yaml").read_text(encoding="utf-8")
    copy = bundled.replace("LIQ-008", "LIQ-908").replace("name: liquid.", "name: liquid.copy_")
    copy = copy.replace("parameters:\n", f"parameters:\n  max_x: {value}\n")
    rule = tmp_path / "mine" / "LIQ-908.yaml"
    rule.parent.mkdir()
    rule.write_text(copy, encoding="utf-8")
    site = Path(__file__).parents[2] / "examples" / "small-ready.yaml"
    out = tmp_path / "report.html"
    result = CliRunner().invoke(
        app, ["check", str(site), "--rules", str(rule.parent), "-o", str(out)]
    )
    assert result.exit_code == 2, result.output
    assert f"{rule}:{line_of(rule, 'max_x:')}:" in result.stderr
    assert "parameters.max_x" in result.stderr and "finite" in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists()  # a report for people is never written from bad input


def test_the_version_hashes_the_profiles_and_the_rules_in_effect(tmp_path: Path) -> None:
    # A rule file the profile leaves out does not change the version; one it selects does.
    extra = tmp_path / "extra"
    (extra / "profiles").mkdir(parents=True)
    probe = (bundled_rules_dir() / "air" / "AIR-003.yaml").read_text(encoding="utf-8")
    probe = probe.replace("code: AIR-003", "code: AIR-097").replace(
        "name: air.air_cooled_rack_too_dense", "name: air.version_probe"
    )
    (extra / "AIR-097.yaml").write_text(probe, encoding="utf-8")
    (extra / "profiles" / "without-probe.yaml").write_text(
        "name: without-probe\ndescription: supernode without the probe\nextends: supernode\n"
        "ignore: [AIR-097]\n",
        encoding="utf-8",
    )
    plain = load_rules(profile="supernode")
    without = load_rules([bundled_rules_dir(), extra], "without-probe")
    with_probe = load_rules([bundled_rules_dir(), extra], "supernode")
    assert {r.code for r in without.rules} == {r.code for r in plain.rules}
    assert without.version != plain.version  # its own profile file is in effect
    assert with_probe.version not in (plain.version, without.version)
    (extra / "AIR-097.yaml").write_text(probe + "\n", encoding="utf-8")
    assert load_rules([bundled_rules_dir(), extra], "without-probe").version == without.version
    assert load_rules([bundled_rules_dir(), extra], "supernode").version != with_probe.version


# --- a rules directory the system refuses (found by testing from outside: internal errors) ---


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: (d / "loop").symlink_to("loop"), "cannot read the rules directory: Too many levels of symbolic links"),
        (lambda d: None, "cannot read the rules directory: File name too long"),
        (lambda d: (d / "loop").write_text("x"), "not a directory of rule files"),
    ],
    ids=["symlink-loop", "name-too-long", "a-file"],
)  # fmt: skip
def test_a_rules_path_the_system_refuses_is_bad_input(tmp_path, make, message) -> None:
    from typer.testing import CliRunner

    from facility.cli import app

    make(tmp_path)
    too_long = message.endswith("File name too long")
    target = tmp_path / ("x" * 300 if too_long else "loop")
    site = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"
    for option in (["--rules", str(target)],):
        run = CliRunner().invoke(app, ["check", str(site), *option])
        assert run.exit_code == 2, run.output
        assert run.stderr.splitlines()[0] == f"error: {target}: {message}"
        assert "internal error" not in run.stderr
    # the same path from a configuration file
    (tmp_path / "facility.toml").write_text(f'rules = ["{target}"]\n', encoding="utf-8")
    run = CliRunner().invoke(app, ["check", "--config", str(tmp_path / "facility.toml"), str(site)])
    assert run.exit_code == 2, run.output
    assert f"{target}: {message}" in run.stderr and "internal error" not in run.stderr


def test_a_profile_path_the_system_refuses_is_bad_input(tmp_path) -> None:
    from typer.testing import CliRunner

    from facility.cli import app

    site = Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml"
    for profile in (str(tmp_path / ("p" * 300 + ".yaml")), "p" * 300):
        run = CliRunner().invoke(app, ["check", str(site), "--profile", profile])
        assert run.exit_code == 2, run.output
        assert "internal error" not in run.stderr and run.stderr.startswith("error: ")


@pytest.mark.parametrize(
    "limit", ["weakest_side_capacity * 1e308 * 10", "weakest_side_capacity * 1e308 * 1e308"]
)
def test_an_expression_that_overflows_is_never_a_pass(tmp_path, limit) -> None:
    # Found by testing from outside: the limit overflowed to infinity ("no upper limit") and
    # the check passed; finite figures that give no finite figure are not evaluated
    from facility.engine.evaluate import audit
    from facility.model.load import load_site

    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "XYZ-001.yaml").write_text(
        "code: XYZ-001\nname: custom.overflow\ntitle: A custom rule\narea: power\nscope: rack\n"
        "severity: error\nrequirement: r\nwhy: w\nreferences: [x]\n"
        f"observed: rack_apparent_power\nlimit: {limit}\ncondition: observed <= limit\n",
        encoding="utf-8",
    )
    site = load_site(Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml")
    result = audit(site, load_rules([bundled_rules_dir(), rules]))
    (finding, *_) = [f for f in result.findings if f.rule == "XYZ-001"]
    assert finding.status == "not_evaluated"
    assert "XYZ-001's expressions give a figure beyond any float" in str(finding.missing[0])


def test_a_parameter_that_is_no_figure_is_one_problem_in_our_words(tmp_path) -> None:
    # Found by testing from outside: a list gave three problems named after pydantic's union
    # members ('parameters.margin.str', '.float', '.int')
    from facility.model.source import InputError

    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "XYZ-001.yaml").write_text(
        "code: XYZ-001\nname: custom.parameters\ntitle: A custom rule\narea: power\n"
        "scope: rack\nseverity: error\nrequirement: r\nwhy: w\nreferences: [x]\n"
        "parameters:\n  margin: [1, 2]\n  other: yes\n  none: null\n"
        "observed: rack_apparent_power\nlimit: weakest_side_capacity\n"
        "condition: observed <= limit\n",
        encoding="utf-8",
    )
    with pytest.raises(InputError) as caught:
        load_rules([bundled_rules_dir(), rules])
    shown = [(p.field, str(p.message)) for p in caught.value.problems]
    expected = "expected a number or a figure with its unit, like '10 %' or '5 kW', got "
    assert shown == [
        ("parameters.margin", expected + "a list"),
        ("parameters.other", expected + "true"),
        ("parameters.none", expected + "null"),
    ]


# --- loaded once per process ------------------------------------------------------------------


def test_the_bundled_rules_are_loaded_once_from_any_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_rules(profile="tier-iii")
    monkeypatch.chdir(tmp_path)
    assert load_rules(profile="tier-iii") is first  # their names do not depend on it


def test_rules_of_the_users_are_named_from_each_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tree(tmp_path, {"liquid/LIQ-900.yaml": PROBE})
    monkeypatch.chdir(tmp_path)
    here = load_rules(directories=[root])
    monkeypatch.chdir(root)
    there = load_rules(directories=[root])
    assert here is not there
    named = [{r.file for r in loaded.files if r.role == "rule"} for loaded in (here, there)]
    assert "rules/liquid/LIQ-900.yaml" in named[0] and "liquid/LIQ-900.yaml" in named[1]
