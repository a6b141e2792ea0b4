"""The engine's and the loader's words in Chinese: not-evaluated reasons, formulas, errors.

The engine and the loader write :class:`facility.messages.Message` values: the English text
itself (so English output, JSON and every English test stay as they were) that a report or the
command line translates when it shows it. These tests fail when:

- a ``Message(...)`` is built from anything but a string literal (Babel would not extract it,
  so it could never be translated), or a template is missing from the .pot or has no Chinese
  (the .pot and .po checks of ``test_catalogs.py`` cover every extracted template);
- pydantic's own messages change wording, so that the loader's Chinese versions no longer
  match the English they replace (they would silently fall back to English);
- ``facility check --lang zh-CN`` prints a bad site file's problems in English, loses their
  file:line:column, or leaks a traceback; or the JSON result is no longer English.
"""

from __future__ import annotations

import ast
import contextlib
import json
import pickle
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from facility.analysis.diff import full_findings
from facility.cli import app
from facility.i18n import using_language
from facility.messages import Join, Message, localized, localized_all, message_of
from facility.model.errors import _PYDANTIC
from facility.units import KINDS, QuantityError, article, kind_phrase, parse_quantity

REPO = Path(__file__).resolve().parents[2]
POT = REPO / "facility" / "locale" / "facility.pot"
PO = REPO / "facility" / "locale" / "zh_CN" / "LC_MESSAGES" / "facility.po"
CJK = re.compile(r"[\u4e00-\u9fff]")


def _message_calls() -> list[tuple[str, ast.Call]]:
    calls = []
    for path in sorted((REPO / "facility").rglob("*.py")):
        if path.name == "messages.py" and path.parent.name == "facility":
            continue  # the class itself (unpickling rebuilds a message from its template)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Message"
            ):
                calls.append((f"{path.relative_to(REPO)}:{node.lineno}", node))
    return calls


def test_every_message_template_is_a_literal_in_the_catalogs() -> None:
    """A template Babel cannot see is never translated: each one is a plain string literal,
    is in the .pot, and has a Chinese translation that keeps its placeholders."""
    with POT.open("rb") as handle:
        pot = {m.id for m in read_po(handle) if m.id and m.context is None}
    with PO.open("rb") as handle:
        po = {m.id: m for m in read_po(handle, locale="zh_CN") if m.id and m.context is None}
    calls = _message_calls()
    assert len(calls) > 150  # the engine's reasons and formulas, the loader's and units' errors
    problems = []
    for where, call in calls:
        first = call.args[0] if call.args else None
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            problems.append(f"{where}: the template is not a string literal")
            continue
        template = first.value
        if template not in pot:
            problems.append(f"{where}: {template!r} is not in the .pot")
        translated = po.get(template)
        if translated is None or not translated.string or translated.fuzzy:
            problems.append(f"{where}: {template!r} has no Chinese translation")
        names = set(re.findall(r"%\((\w+)\)s", template))
        given = {k.arg for k in call.keywords}
        if None not in given and names != given:
            problems.append(f"{where}: placeholders {sorted(names)} but parameters {given}")
    assert not problems, "\n".join(problems)


def test_a_message_is_its_english_text() -> None:
    m = Message("rack type '%(type)s' has no %(field)s", type="gb300-b3", field="max_payload")
    assert m == "rack type 'gb300-b3' has no max_payload"
    assert isinstance(m, str) and str(m) == m and f"{m}" == m
    assert (
        json.dumps({"missing": [m]}) == '{"missing": ["rack type \'gb300-b3\' has no max_payload"]}'
    )
    assert sorted([m, "a"]) == ["a", m] and hash(m) == hash(str(m))
    assert m.template == "rack type '%(type)s' has no %(field)s"
    assert m.params == {"type": "gb300-b3", "field": "max_payload"}
    assert Message("25.7 %% by mass") == "25.7 % by mass"
    copy = pickle.loads(pickle.dumps(m))
    assert copy == m and copy.params == m.params and isinstance(copy, Message)


def test_a_message_speaks_the_current_language() -> None:
    m = Message("rack type '%(type)s' has no %(field)s", type="gb300-b3", field="max_payload")
    assert localized(m) == "rack type 'gb300-b3' has no max_payload"
    assert localized("plain text") == "plain text"
    with using_language("zh-CN"):
        assert localized(m) == "机柜型号 'gb300-b3' 缺少 max_payload"
        # a parameter that is a message is translated too; ids and numbers stay
        coolant = Message(
            "%(fluid)s %(percent)s %% by mass", fluid=Message("propylene glycol"), percent="25.7"
        )
        assert localized(coolant) == "25.7 % 丙二醇水溶液（质量分数）"
        reasons = [m, Message("CDU '%(cdu)s' has no %(field)s", cdu="CDU-A1", field="max_racks")]
        assert localized_all(reasons) == (
            "机柜型号 'gb300-b3' 缺少 max_payload；CDU 'CDU-A1' 缺少 max_racks"
        )
    assert localized_all(reasons) == "; ".join(reasons)
    joined = Join(reasons)
    assert pickle.loads(pickle.dumps(joined)) == joined


def test_an_exception_keeps_its_message() -> None:
    with pytest.raises(QuantityError) as caught:
        parse_quantity("132 kg", "power")
    message = message_of(caught.value)
    assert isinstance(message, Message)
    assert (
        message
        == str(caught.value)
        == ("expected a power like '132 kW', got '132 kg', which is a mass")
    )
    with using_language("zh-CN"):
        assert localized(message) == "应为功率，如 '132 kW'，实际为 '132 kg'，这是质量"
    assert message_of(ValueError("plain")) == "plain"


def test_the_kinds_as_messages_say_what_article_says() -> None:
    for kind in KINDS.values():
        assert kind_phrase(kind) == article(kind)
        with using_language("zh-CN"):
            assert CJK.search(localized(kind_phrase(kind))), kind.name


SAMPLE_CONTEXTS = {
    "model_type": {"class_name": "Rack"},
    "date_parsing": {"error": "input is too short"},
    "date_from_datetime_parsing": {"error": "invalid character in year"},
    "greater_than": {"gt": 0},
    "greater_than_equal": {"ge": 1},
    "less_than": {"lt": 10},
    "less_than_equal": {"le": 16},
    "string_pattern_mismatch": {"pattern": "^[a-z]+$"},
    "literal_error": {"expected": "'liquid' or 'air'"},
    "enum": {"expected": "'a', 'b' or 'c'"},
}
LENGTHS = {
    "string_too_short": [{"min_length": 1}, {"min_length": 2}],
    "string_too_long": [{"max_length": 1}, {"max_length": 200}],
    "too_short": [
        {"field_type": "List", "min_length": 1, "actual_length": 0},
        {"field_type": "List", "min_length": 2, "actual_length": 1},
    ],
    "too_long": [
        {"field_type": "Dictionary", "max_length": 1, "actual_length": 2},
        {"field_type": "List", "max_length": 3, "actual_length": 4},
    ],
}


@pytest.mark.parametrize("kind", sorted(_PYDANTIC))
def test_each_pydantic_error_is_said_in_chinese_too(kind: str) -> None:
    """The loader says each pydantic error in its own words (tests/model/test_error_messages.py
    holds the English to pydantic's types); each of them has its Chinese."""
    contexts = LENGTHS.get(kind, [SAMPLE_CONTEXTS.get(kind)])
    for ctx in contexts:
        rebuilt = _PYDANTIC[kind](ctx or {}, [1])  # (the error's context, the value found)
        english = localized(rebuilt)
        with using_language("zh-CN"):
            chinese = localized(rebuilt)
        assert CJK.search(chinese) and chinese != english, (kind, chinese)


# ── the command line ─────────────────────────────────────────────────────────────

BAD_SITE = """\
site: {name: T}
rack_types:
  - {id: t1, nominal_power: 132 kg, peak_power: 150, cooling: water}
"""
BAD_REFERENCES = """\
site: {name: T}
rack_types:
  - {id: t1, nominal_power: 132 kW, peak_power: 150 kW, catalog: gb300-nvl72}
racks:
  - {id: R1, type: nope, zone: Z9}
  - {id: R1, type: t1}
"""


def _check(site: Path, *options: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["check", str(site), *options])
    return result.exit_code, result.stdout, result.stderr


def test_a_bad_site_file_in_chinese_keeps_file_line_and_column(tmp_path: Path) -> None:
    site = tmp_path / "bad.yaml"
    site.write_text(BAD_SITE, encoding="utf-8")
    code, out, err = _check(site, "--lang", "zh-CN")
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"错误：{site}:3:14: rack_types[0].nominal_power: 应为功率，如 '132 kW'，"
        "实际为 '132 kg'，这是质量",
        f"错误：{site}:3:37: rack_types[0].peak_power: 缺少单位：应为功率，如 '132 kW'，"
        "实际为不带单位的数 150",
        f"错误：{site}:3:54: rack_types[0].cooling: 必须为 'liquid' 或 'air'，实际为 'water'",
        "发现 3 个问题；未写出任何文件。",
    ]
    assert "Traceback" not in err
    # English, as it always was
    code, out, err = _check(site)
    assert code == 2
    assert err.splitlines()[-2:] == [
        f"error: {site}:3:54: rack_types[0].cooling: must be 'liquid' or 'air', got 'water'",
        "3 problems found; nothing was written.",
    ]


def test_unresolved_references_in_chinese(tmp_path: Path) -> None:
    site = tmp_path / "refs.yaml"
    site.write_text(BAD_REFERENCES, encoding="utf-8")
    code, _, err = _check(site, "--lang", "zh-CN")
    assert code == 2
    lines = err.splitlines()
    assert lines[0].startswith(f"错误：{site}:5:14: racks[0].type: 未知的机柜型号 'nope'（已有：")
    assert lines[1] == f"错误：{site}:5:26: racks[0].zone: 未知的楼面分区 'Z9'（已有：无）"
    assert lines[2] == f"错误：{site}:6:6: racks[1].id: 机柜编号 'R1' 重复（首次定义在第 5 行）"
    assert not [line for line in lines if re.search(r"[a-z]{3,} [a-z]{3,} [a-z]{3,}", line)]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"site:\n  name: T\n racks: [\n", ":3:2: YAML 格式错误："),
        (b"site: !!python/object/apply:os.system [ls]\n", ":1:7: site: 不允许使用 YAML 标签"),
        (b"site:\n  name: Caf\xe9\n", ":2:12: 不是 UTF-8 文本（字节 0xe9）"),
        (b"", ":1:1: 文件为空"),
        (b"site: {name: T}\nsite: {name: U}\n", ":2:1: site: 键 'site' 重复"),
    ],
)
def test_hostile_input_in_chinese(tmp_path: Path, content: bytes, expected: str) -> None:
    site = tmp_path / "site.yaml"
    site.write_bytes(content)
    code, _, err = _check(site, "--lang", "zh-CN")
    assert code == 2
    assert f"错误：{site}{expected}" in err
    assert "Traceback" not in err


def test_the_command_lines_own_errors_in_chinese(tmp_path: Path) -> None:
    with contextlib.chdir(REPO):
        code, _, err = _check(
            Path("examples/hall-b3.yaml"), "--lang", "zh-CN", "-o", str(tmp_path / "x.foo")
        )
        assert code == 2
        assert err == f"错误：{tmp_path / 'x.foo'}：无法从后缀 '.foo' 判断格式，请加 --format\n"
        code, _, err = _check(Path("examples/hall-b3.yaml"), "--lang", "zh-CN", "-o", "examples/hall-b3.yaml", "-f", "text")  # fmt: skip
        assert code == 2
        assert err == "错误：拒绝用报告覆盖输入文件 examples/hall-b3.yaml\n"
        code, _, err = _check(Path("missing.yaml"), "--lang", "zh-CN")
        assert code == 2
        assert err == "错误：missing.yaml: 找不到文件\n发现 1 个问题；未写出任何文件。\n"


def test_the_json_result_stays_english_in_a_chinese_run() -> None:
    with contextlib.chdir(REPO):
        runs = [
            CliRunner().invoke(
                app,
                [
                    "check",
                    "examples/hall-b3.yaml",
                    "-f",
                    "json",
                    "--generated-at",
                    "2026-11-29T12:00:00Z",
                    *lang,
                ],
            )
            for lang in ([], ["--lang", "zh-CN"])
        ]
    assert runs[0].stdout == runs[1].stdout
    data = json.loads(runs[1].stdout)
    missing = [m for f in full_findings(data) for m in f["missing"]]
    assert "rack type 'gb300-b3' has no max_payload" in missing
    assert not CJK.search(runs[1].stdout.replace(data["site"]["name"], ""))


def test_inventory_speaks_the_language_asked_for(tmp_path: Path) -> None:
    with contextlib.chdir(REPO):
        chinese = CliRunner().invoke(app, ["inventory", "examples/hall-b3.yaml", "--lang", "zh-CN"])
        english = CliRunner().invoke(app, ["inventory", "examples/hall-b3.yaml"])
    assert chinese.exit_code == english.exit_code == 0
    assert "IT 负载（按峰值功率）：1,696.0 kW" in chinese.stdout
    assert "IT load at peak power: 1,696.0 kW" in english.stdout
    site = tmp_path / "empty.yaml"
    site.write_text("", encoding="utf-8")
    bad = CliRunner().invoke(app, ["inventory", str(site), "--lang", "zh-CN"])
    assert bad.exit_code == 2
    assert bad.stderr.splitlines()[0] == f"错误：{site}:1:1: 文件为空"
