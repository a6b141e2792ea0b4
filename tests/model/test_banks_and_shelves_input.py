"""Bad outlet-bank and power-shelf input is a clear message at file:line, exit 2, nothing written.

And the figures a site declares reach the checks: a bank's supplies change the split, a PDU
type's ``banks: []`` leaves the bank check out, catalog shelves can be overridden.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from facility.cli import app
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.load import load_site

RULES = load_rules(profile="supernode")


def _site(**pdu: object) -> dict:
    return {
        "site": {"name": "banks"},
        "rack_types": [{"id": "srv", "peak_power": "5 kW", "power_factor": 1.0}],
        "power": {
            "pdu_types": [
                {"id": "p", "voltage": "230 V", "phases": 1, "breaker_rating": "32 A", **pdu}
            ]
        },
        "racks": [{"id": "r", "type": "srv", "pdus": {"A": {"type": "p"}, "B": {"type": "p"}}}],
    }


def _check(tmp_path: Path, data: dict) -> tuple[int, str, Path]:
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    out = tmp_path / "report.md"
    result = CliRunner().invoke(app, ["check", str(path), "--format", "markdown", "-o", str(out)])
    return result.exit_code, result.output, out


def _line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


@pytest.mark.parametrize(
    ("banks", "words", "at"),
    [
        # supplies on one bank only: the split would be a guess
        (
            [
                {"id": "B1", "phase": "L1", "breaker_rating": "16 A", "supplies": 3},
                {"id": "B2", "phase": "L1", "breaker_rating": "16 A"},
            ],
            "give supplies for every bank or for none",
            "- id: p",
        ),
        # the same bank twice
        (
            [
                {"id": "B1", "phase": "L1", "breaker_rating": "16 A"},
                {"id": "B1", "phase": "L1", "breaker_rating": "16 A"},
            ],
            "banks names bank 'B1' twice",
            "- id: p",
        ),
        # every bank with 0 supplies: the PDU's load would go nowhere
        (
            [
                {"id": "B1", "phase": "L1", "breaker_rating": "16 A", "supplies": 0},
                {"id": "B2", "phase": "L1", "breaker_rating": "16 A", "supplies": 0},
            ],
            "no bank has supplies",
            "- id: p",
        ),
        # a phase that does not exist: named at the bank's own line
        ([{"id": "B1", "phase": "L4", "breaker_rating": "16 A"}], "must be 'L1'", "phase: L4"),
    ],
)
def test_bad_banks_are_named_at_their_line(
    tmp_path: Path, banks: list, words: str, at: str
) -> None:
    code, output, out = _check(tmp_path, _site(banks=banks))
    assert code == 2, output
    assert words in output
    assert "power.pdu_types[0]" in output
    assert f"site.yaml:{_line_of(tmp_path / 'site.yaml', at)}:" in output
    assert "Traceback" not in output
    assert not out.exists()


def test_redundant_shelves_must_be_fewer_than_shelves(tmp_path: Path) -> None:
    data = _site()
    data["rack_types"][0] |= {
        "cooling": "liquid",
        "power_shelves": 4,
        "power_shelf_rating": "3 kW",
        "redundant_power_shelves": 4,
    }
    code, output, out = _check(tmp_path, data)
    assert code == 2, output
    assert "redundant_power_shelves is not below power_shelves" in output
    assert "rack_types[0]" in output and not out.exists()


def _statuses(tmp_path: Path, data: dict, rule: str) -> dict[str, str]:
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    result = audit(load_site(path), RULES)
    return {f.entity_id: f.status for f in result.findings if f.rule == rule}


def test_supplies_move_the_load_between_banks(tmp_path: Path) -> None:
    # 5 kW, PF 1, after the other side is lost on one 230 V PDU with two 16 A banks
    # (limit 0.8 · 16 = 12.8 A): 1 : 1 → 2,500 / 230 = 10.9 A pass; 3 : 1 → 3,750 / 230
    # = 16.3 A fail
    bank = {"phase": "L1", "breaker_rating": "16 A"}
    even = _site(banks=[{"id": "B1", **bank, "supplies": 1}, {"id": "B2", **bank, "supplies": 1}])
    skew = _site(banks=[{"id": "B1", **bank, "supplies": 3}, {"id": "B2", **bank, "supplies": 1}])
    assert _statuses(tmp_path, even, "PWR-015") == {"r-A1": "pass", "r-B1": "pass"}
    assert _statuses(tmp_path, skew, "PWR-015") == {"r-A1": "fail", "r-B1": "fail"}


def test_no_banks_declared_is_not_evaluated_but_an_empty_list_is_left_out(tmp_path: Path) -> None:
    assert _statuses(tmp_path, _site(), "PWR-015") == {
        "r-A1": "not_evaluated",
        "r-B1": "not_evaluated",
    }
    assert _statuses(tmp_path, _site(banks=[]), "PWR-015") == {}


def test_a_site_overrides_the_catalog_shelves(tmp_path: Path) -> None:
    # Catalog GB300: 155 kW > (8 − 4) · 33 = 132 kW → fail; declared N+1 instead:
    # 155 ≤ (8 − 1) · 33 = 231 kW → pass
    data = {
        "site": {"name": "shelves"},
        "rack_types": [
            {"id": "nn", "catalog": "gb300-nvl72"},
            {"id": "n1", "catalog": "gb300-nvl72", "redundant_power_shelves": 1},
        ],
        "power": {"pdu_types": [{"id": "p", "catalog": "pdu-3p-415v-63a"}]},
        "racks": [
            {"id": "X", "type": "nn", "pdus": {"A": {"type": "p", "count": 5}}},
            {"id": "Y", "type": "n1", "pdus": {"A": {"type": "p", "count": 5}}},
        ],
    }
    assert _statuses(tmp_path, data, "PWR-021") == {"X": "fail", "Y": "pass"}
