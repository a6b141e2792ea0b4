"""Rule titles that read as requirements on a pass (issue 17).

Every bundled rule has a failure title ('One power side cannot carry the whole rack') and a
requirement title ('Each power side carries the whole rack'), in English and zh-CN; the passed
checks of the HTML and Markdown reports list the requirement titles; a count check that passes
with margin 0 shows no 'margin 0' (in every format, as they share one formatter), a failing one
keeps its margin.
"""

from __future__ import annotations

import html
import re
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from facility.engine.findings import Finding
from facility.engine.quantities import Value
from facility.engine.rules import RuleFile, bundled_rules_dir, load_rules
from facility.model.source import InputError
from facility.report.context import ReportInput
from facility.report.findings_view import (
    margin_says_nothing,
    margin_text,
    message,
    rule_title,
    status_label,
)
from facility.report.html import render_html
from facility.report.i18n import using_language
from facility.report.markdown import render_markdown
from facility.report.view import build_view
from tests.i18n.test_rule_translations import ASCII_PUNCTUATION, CJK, FOLDED_SPACE, TERMS
from tests.report.conftest import report_for

LANG = "zh-CN"
MAX_EN = 70  # characters: a title fits a table cell and a terminal heading
MAX_ZH = 40

# Words that make a title a failure ('cannot carry', 'is overloaded', 'exceeds', 'too little',
# 'no redundant pump', 'fewer supernodes', 'warmer than' …): none may be in a requirement title.
NEGATIVE_EN = {
    "cannot", "can't", "not", "no", "none", "never", "without", "too", "exceeds", "exceed",
    "overloaded", "overloads", "over", "fewer", "more", "denser", "warmer", "colder", "taller",
    "older", "closer", "further", "shares", "single", "fail", "fails", "violates", "lacks",
}  # fmt: skip
# The Chinese of the failure titles: 无法 (cannot), 不足 (not enough), 过载 (overloaded), 过低 /
# 过大 / 过长 (too low / large / long), 没有 / 未 / 已无 (no, not), 跟不上 (cannot keep up),
# 少于 (fewer than), 导致 (makes … fail), 仅由单路 (from a single side), 跨越 (spans).
NEGATIVE_ZH = (
    "无法", "不足", "过载", "过低", "过大", "过长", "没有", "未", "已无", "跟不上", "少于", "导致",
    "仅由单路", "跨越",
)  # fmt: skip


def _rule_paths() -> list[Path]:
    root = bundled_rules_dir()
    return sorted(p for p in root.rglob("*.yaml") if "profiles" not in p.relative_to(root).parts)


RULES: dict[str, RuleFile] = {
    p.stem: RuleFile.model_validate(yaml.safe_load(p.read_text(encoding="utf-8")))
    for p in _rule_paths()
}
CODES = sorted(RULES)


def test_every_rule_file_is_checked() -> None:
    assert len(CODES) >= 58, CODES  # 58 bundled rules on 2026-12-01; more may come, never fewer
    assert {r.code for r in load_rules().rules} <= set(CODES)


# ── the titles ───────────────────────────────────────────────────────────────────


@pytest.mark.parametrize("code", CODES)
def test_rule_has_a_requirement_title_in_english_and_chinese(code: str) -> None:
    rule = RULES[code]
    assert rule.requirement_title, f"{code}: no requirement_title"
    zh = rule.translations[LANG]
    assert zh.requirement_title, f"{code}: no {LANG} requirement_title"
    # the spec's text() gives them as it gives the titles, the translation itself in zh-CN
    assert rule.text().requirement_title == rule.requirement_title
    assert rule.text(LANG) is zh
    assert rule.text(LANG).requirement_title == zh.requirement_title


@pytest.mark.parametrize("code", CODES)
def test_requirement_title_is_short_and_differs_from_the_failure_title(code: str) -> None:
    rule = RULES[code]
    zh = rule.translations[LANG]
    en_title, zh_title = rule.requirement_title or "", zh.requirement_title
    assert en_title.strip().lower() != rule.title.strip().lower()
    assert zh_title.strip() != zh.title.strip()
    assert len(en_title) <= MAX_EN, f"{code}: {len(en_title)} characters: {en_title!r}"
    assert len(zh_title) <= MAX_ZH, f"{code}: {len(zh_title)} characters: {zh_title!r}"
    assert "\n" not in en_title and "\n" not in zh_title
    assert not en_title.endswith("."), "a title, not a sentence"
    assert en_title[0].isupper(), en_title


@pytest.mark.parametrize("code", CODES)
def test_requirement_title_states_what_holds_not_the_failure(code: str) -> None:
    rule = RULES[code]
    en_title = rule.requirement_title or ""
    words = set(re.findall(r"[a-z']+", en_title.lower()))
    assert not words & NEGATIVE_EN, f"{code}: {en_title!r} says {sorted(words & NEGATIVE_EN)}"
    zh_title = rule.translations[LANG].requirement_title
    said = [w for w in NEGATIVE_ZH if w in zh_title]
    assert not said, f"{code}: {zh_title!r} says {said}"


def test_the_negative_checks_catch_failure_titles() -> None:
    # The lists above are not empty words: every failure title of these rules trips one.
    for code in ("PWR-001", "PWR-002", "AIR-001", "LIQ-010", "CLU-004", "AIR-003", "LIQ-005"):
        words = set(re.findall(r"[a-z']+", RULES[code].title.lower()))
        assert words & NEGATIVE_EN, code
    for code in ("PWR-001", "PWR-002", "LIQ-001", "LIQ-010", "CLU-004", "RED-001"):
        assert any(w in RULES[code].translations[LANG].title for w in NEGATIVE_ZH), code


@pytest.mark.parametrize("code", CODES)
def test_chinese_requirement_title_follows_the_glossary_and_punctuation(code: str) -> None:
    rule = RULES[code]
    en_title, zh_title = rule.requirement_title or "", rule.translations[LANG].requirement_title
    problems = []
    if not CJK.search(zh_title):
        problems.append("no Chinese characters")
    problems += [f"English punctuation {m.group()!r}" for m in ASCII_PUNCTUATION.finditer(zh_title)]
    problems += [f"space between Chinese {m.group()!r}" for m in FOLDED_SPACE.finditer(zh_title)]
    for term in TERMS:
        problems += [
            f"{variant!r}: the glossary says {term['zh']!r}"
            for variant in term.get("avoid", [])
            if variant in zh_title
        ]
        forms = term.get("en_forms", [])
        hit = next(
            (f for f in forms if re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", en_title, re.I)),
            None,
        )
        wanted = term.get("zh_forms", [term["zh"]])
        if hit is not None and not any(w in zh_title for w in wanted):
            problems.append(f"English says {hit!r}, Chinese lacks {' / '.join(wanted)}")
    assert not problems, f"{code}: {zh_title!r}\n" + "\n".join(problems)


# ── user rule files ──────────────────────────────────────────────────────────────

PROBE = """\
code: LIQ-901
name: liquid.probe_rule
title: The probe's return is too warm
area: liquid
scope: tcs_loop
severity: error
parameters:
  max_return_temperature: 60 degC
observed: return_temperature
limit: max_return_temperature
condition: observed <= limit
requirement: >
  The probe's return
  stays cool.
why: The tests need a rule.
references:
  - a public reference
translations:
  zh-CN:
    title: 探针回液温度过高
    requirement: 探针回液温度不高于限值。
    why: 测试需要一条规则。
"""


def _user_rules(tmp_path: Path, text: str) -> Path:
    root = tmp_path / "my-rules"
    (root / "profiles").mkdir(parents=True)
    (root / "liquid").mkdir()
    (root / "liquid" / "LIQ-901.yaml").write_text(text, encoding="utf-8")
    (root / "profiles" / "probe.yaml").write_text(
        "name: probe\ndescription: the probe alone\nselect: [LIQ-901]\n", encoding="utf-8"
    )
    return root


def test_a_user_rule_without_a_requirement_title_loads_with_its_requirement(
    tmp_path: Path,
) -> None:
    # Old rule files keep loading: the requirement sentence (folded onto one line) stands in.
    ruleset = load_rules([_user_rules(tmp_path, PROBE)], "probe")
    spec = ruleset.rules[0].spec
    assert spec.requirement_title is None
    assert spec.text().requirement_title == "The probe's return stays cool."
    assert spec.text(LANG).requirement_title == "探针回液温度不高于限值。"
    assert spec.text(LANG).title == "探针回液温度过高"


def test_a_user_rule_with_requirement_titles_uses_them(tmp_path: Path) -> None:
    text = PROBE.replace(
        "title: The probe's return is too warm\n",
        "title: The probe's return is too warm\nrequirement_title: The probe's return is cool\n",
    ).replace(
        "    title: 探针回液温度过高\n",
        "    title: 探针回液温度过高\n    requirement_title: 探针回液温度正常\n",
    )
    spec = load_rules([_user_rules(tmp_path, text)], "probe").rules[0].spec
    assert spec.text().requirement_title == "The probe's return is cool"
    assert spec.text(LANG).requirement_title == "探针回液温度正常"


def test_an_empty_requirement_title_is_a_load_error_at_its_line(tmp_path: Path) -> None:
    text = PROBE.replace(
        "title: The probe's return is too warm\n",
        "title: The probe's return is too warm\nrequirement_title: ''\n",
    )
    with pytest.raises(InputError) as caught:
        load_rules([_user_rules(tmp_path, text)], "probe")
    (problem,) = caught.value.problems
    assert problem.field == "requirement_title"
    assert problem.location.file.endswith("LIQ-901.yaml")
    assert problem.location.line == 4  # the line after 'title:'


# ── the margin ───────────────────────────────────────────────────────────────────


def _finding(
    status: str, kind: str, observed: float, limit: float, margin: float, relation: str = "≤"
) -> Finding:
    return Finding(
        "RED-001", "redundancy.probe", "One element out of service makes a check fail",
        "redundancy", "error", status, "single_failure", "cdu:CDU-A1", None, kind,  # type: ignore[arg-type]
        observed=Value(observed), limit=Value(limit), margin=margin, relation=relation,
    )  # fmt: skip


def test_a_passing_count_at_its_limit_shows_no_margin() -> None:
    # 0 new failures, must be ≤ 0: margin = limit − observed = 0 − 0 = 0, which says nothing
    new_failures = _finding("pass", "count", 0, 0, 0)
    assert margin_says_nothing(new_failures)
    assert margin_text(new_failures) is None
    assert message(new_failures) == "0 within the limit: must be ≤ 0"
    # 2 power sides, must be ≥ 2: margin = observed − limit = 2 − 2 = 0
    sides = _finding("pass", "count", 2, 2, 0, "≥")
    assert message(sides) == "2 within the limit: must be ≥ 2"


def test_a_passing_count_below_its_limit_keeps_its_margin() -> None:
    # 8 racks on a loop whose CDUs support 10: margin = 10 − 8 = 2 racks more would fit
    racks = _finding("pass", "count", 8, 10, 2)
    assert margin_text(racks) == "2"
    assert message(racks) == "8 within the limit: must be ≤ 10, margin 2"


def test_a_failing_count_keeps_its_margin() -> None:
    # 2 new failures, must be ≤ 0: margin = 0 − 2 = −2 (two over the limit)
    failing = _finding("fail", "count", 2, 0, -2)
    assert not margin_says_nothing(failing)
    assert message(failing) == "2 violates the limit: must be ≤ 0, margin -2"
    waived = _finding("waived", "count", 2, 0, -2)
    assert message(waived).endswith(", margin -2")


def test_a_passing_presence_check_of_nothing_shows_no_margin() -> None:
    # 0.0 kW of liquid heat on no loop, must be ≤ 0.0 kW: margin 0.0 kW says nothing
    presence = _finding("pass", "power", 0, 0, 0)
    assert margin_text(presence) is None
    assert "margin" not in message(presence)


def test_a_measured_limit_met_exactly_keeps_margin_zero() -> None:
    # 32.0 °C supply, class limit 32.0 °C: margin = 32 − 32 = 0.0 K: no headroom left, worth saying
    at_limit = _finding("pass", "temperature", 32.0, 32.0, 0.0)
    assert margin_text(at_limit) == "0.0 K"
    assert message(at_limit).endswith(", margin 0.0 K")
    # 40 kW on a 40 kW rating: margin 40 − 40 = 0.0 kW (a power, not a count)
    power = _finding("pass", "power", 40_000.0, 40_000.0, 0.0)
    assert margin_text(power) == "0.0 kW"


# ── the reports ──────────────────────────────────────────────────────────────────


@pytest.fixture(scope="module")
def b3() -> ReportInput:
    return report_for("examples/hall-b3.yaml")


def _passed_rules(report: ReportInput) -> list[str]:
    return sorted({f.rule for f in report.result.findings if f.status == "pass"})


def _section(page: str, start: str, end: str) -> str:
    begin = page.index(start)
    return page[begin : page.index(end, begin)]


def test_html_passed_section_lists_requirement_titles(b3: ReportInput) -> None:
    passed = _passed_rules(b3)
    assert {"PWR-001", "PWR-004", "LIQ-010", "RED-001"} <= set(passed)
    section = html.unescape(_section(render_html(b3), '<section id="passed"', "</section>"))
    for code in passed:
        spec = RULES[code]
        assert spec.requirement_title in section, code
        assert spec.title not in section, code  # PWR-001 also fails on A01 … A08: not here
    assert "Each power side carries the whole rack" in section


def test_markdown_passed_section_lists_requirement_titles(b3: ReportInput) -> None:
    section = _section(render_markdown(b3), "## Passed checks", "\n## ")
    for code in _passed_rules(b3):
        row = next(line for line in section.splitlines() if line.startswith(f"| {code} |"))
        assert RULES[code].requirement_title in row.replace("\\", ""), row
        assert RULES[code].title not in row.replace("\\", "")


def test_chinese_passed_section_lists_chinese_requirement_titles(b3: ReportInput) -> None:
    zh = replace(b3, lang=LANG)
    section = html.unescape(_section(render_html(zh), '<section id="passed"', "</section>"))
    for code in _passed_rules(b3):
        assert RULES[code].translations[LANG].requirement_title in section, code
        assert RULES[code].translations[LANG].title not in section, code


def test_passed_count_rules_show_no_smallest_margin_but_measured_ones_do(b3: ReportInput) -> None:
    rows = {row.rule: row for row in build_view(b3).passed}
    # PWR-004: 2 sides on every rack, must be ≥ 2 → margin 0 on all 20: no margin to show
    # LIQ-010: each CDU has exactly pumps_required + 1 pumps → margin 0: none shown
    # RED-001: 0 new failures for 30 single failures, must be ≤ 0 → none shown
    for code in ("PWR-004", "LIQ-010", "RED-001", "LIQ-015", "FLR-005"):
        assert rows[code].detail == "", (code, rows[code].detail)
    # PWR-009: 2 sides in service, must be ≥ 1 → margin 2 − 1 = 1 (A01 first in natural order)
    assert rows["PWR-009"].detail == "1 (A01)"
    # LIQ-013: FW-1 supply 32.0 °C, class W32 max 32.0 °C → margin 0.0 K, at the limit: shown
    assert rows["LIQ-013"].detail == "0.0 K (FW-1)"


def test_terminal_helpers_label_status_and_choose_the_title() -> None:
    spec = RULES["PWR-001"]
    passing = replace(_finding("pass", "count", 0, 0, 0), rule="PWR-001", severity="warning")
    failing = replace(passing, status="fail")
    with using_language("en"):
        assert status_label(passing) == "PASS"
        assert status_label(failing) == "WARNING"
        assert status_label(replace(passing, status="waived")) == "WAIVED"
        assert status_label(replace(passing, status="not_evaluated")) == "NOT EVALUATED"
    assert rule_title(passing, spec.text()) == "Each power side carries the whole rack"
    assert rule_title(failing, spec.text()) == "One power side cannot carry the whole rack"
    assert rule_title(passing, spec.text(LANG)) == spec.translations[LANG].requirement_title
    assert rule_title(passing, None) == passing.title  # an unknown rule: the finding's own
