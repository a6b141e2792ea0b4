"""Racks and PDUs judged once per class (facility.engine.alike) give exactly the findings of
judging each one on its own (``by_class=False``, the reference): on every example, on
generated campuses (per rack and row-declared, failing and ready, with non-IT loads, with
racks in no zone) and on generated small sites whose racks differ in one attribute at a time.
And the classes do save work: counted, not timed."""

from __future__ import annotations

import ast
import datetime as dt
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import facility.engine.evaluate as evaluate
from facility.engine.evaluate import audit_in_context, default_profile
from facility.engine.quantities import catalogue
from facility.engine.rules import load_rules
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402

EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
AS_OF = dt.date(2026, 12, 1)


def _row(f: Any) -> tuple[Any, ...]:
    return (
        f.rule,
        f.status,
        f.entity_kind,
        f.entity_id,
        f.location,
        f.kind,
        f.observed,
        f.limit,
        f.margin,
        f.relation,
        tuple(str(m) for m in f.missing),
    )


def _both(path: Path) -> tuple[Any, Any]:
    site = load_site(path)
    rules = load_rules(profile=default_profile(site))
    by_class = audit_in_context(site, rules, as_of=AS_OF)[0]
    each = audit_in_context(site, rules, as_of=AS_OF, by_class=False)[0]
    return by_class, each


def _assert_same(by_class: Any, each: Any) -> None:
    assert len(by_class.findings) == len(each.findings)
    for a, b in zip(by_class.findings, each.findings, strict=True):
        assert _row(a) == _row(b)
    assert by_class.coverage == each.coverage
    assert by_class.account == each.account
    assert by_class.power_account == each.power_account


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_every_example_is_judged_as_rack_by_rack(example: Path) -> None:
    _assert_same(*_both(example))


def _rack_or_pdu_cases() -> list[Any]:
    from tests.engine.test_rule_cases import ALL_CASES

    bundled = load_rules(profile="supernode"), load_rules(profile="tier-iii")
    scope = {r.code: r.spec.scope for rules in bundled for r in rules.rules}
    return [c for c in ALL_CASES if scope.get(c.rule) in ("rack", "pdu")]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in _rack_or_pdu_cases()])
def test_every_rack_and_pdu_rule_case_is_judged_as_rack_by_rack(case: Any, tmp_path: Path) -> None:
    """The rule cases' sites (tests/engine/cases): racks in laid-out rows at their positions,
    inputs missing rack by rack, each rule's edges."""
    path = tmp_path / "site.yaml"
    path.write_text(yaml.safe_dump(case.site, sort_keys=False), encoding="utf-8")
    site = load_site(path)
    rules = load_rules(profile=case.profile)
    as_of = case.as_of or AS_OF
    by_class = audit_in_context(site, rules, as_of=as_of)[0]
    _assert_same(by_class, audit_in_context(site, rules, as_of=as_of, by_class=False)[0])


def _no_zones(text: str) -> str:
    # Racks in no floor zone: their floor checks are not evaluated, each naming its own rack.
    return "\n".join(line for line in text.splitlines() if line.strip() != "zone: H01-Z01")


@pytest.mark.parametrize(
    ("options", "edit"),
    [
        ({}, None),
        ({"ready": True}, None),
        ({"rows_as_blocks": True}, None),
        ({"loads": True}, None),
        ({}, _no_zones),
    ],
    ids=["failing", "ready", "rows", "loads", "no-zone"],
)
def test_generated_campuses_are_judged_as_rack_by_rack(
    tmp_path: Path, options: dict[str, bool], edit: Any
) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(120, path, **options)
    if edit is not None:
        path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    by_class, each = _both(path)
    _assert_same(by_class, each)
    if edit is _no_zones:
        named = [f for f in by_class.findings if f.entity_kind == "rack" and f.missing]
        assert any("in no floor zone" in str(m) for f in named for m in f.missing)
        for f in named:  # a reason naming a rack names its own
            for reason in f.missing:
                if "rack '" in str(reason):
                    assert f"rack '{f.entity_id}'" in str(reason), (f.id, reason)


BASE = yaml.safe_load((ROOT / "examples" / "small-ready.yaml").read_text(encoding="utf-8"))


@st.composite
def racks_alike_but_one_attribute(draw: Any) -> dict[str, Any]:
    """The small example's site with racks added one by one like its row's, each changed in
    at most one of what a class key holds (zone, loop, row, position, a side's PDU count or
    feed, or nothing)."""
    document = yaml.safe_load(yaml.safe_dump(BASE))
    row = document["rows"][0]
    racks = []
    for n in range(draw(st.integers(2, 6))):
        rack = {
            "id": f"X{n:02d}",
            "type": row["type"],
            "zone": row["zone"],
            "loop": row["loop"],
            "pdus": yaml.safe_load(yaml.safe_dump(row["pdus"])),
        }
        change = draw(st.sampled_from(["none", "zone", "loop", "position", "row", "pdus", "feed"]))
        side = draw(st.sampled_from(sorted(rack["pdus"])))
        if change in ("zone", "loop"):
            del rack[change]
        elif change == "position":
            rack["position"] = draw(st.integers(1, 6))
        elif change == "row":
            rack["row"] = row["id"]
        elif change == "pdus":
            rack["pdus"][side]["count"] = draw(st.integers(1, 6))
        elif change == "feed":
            del rack["pdus"][side]["fed_by"]
        racks.append(rack)
    document["racks"] = racks
    return document


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=racks_alike_but_one_attribute())
def test_racks_differing_in_one_attribute_are_judged_as_rack_by_rack(
    tmp_path_factory: Any, document: dict[str, Any]
) -> None:
    path = tmp_path_factory.mktemp("alike") / "site.yaml"
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    _assert_same(*_both(path))


def test_a_campus_is_judged_once_per_class(tmp_path: Path, monkeypatch: Any) -> None:
    path = tmp_path / "campus.yaml"
    write_campus(120, path)
    site = load_site(path)
    rules = load_rules(profile=default_profile(site))
    calls: list[int] = []
    real = evaluate._apply

    def counted(ctx: Any, rule: Any, *rest: Any) -> Any:
        if rule.spec.scope in ("rack", "pdu"):
            calls[-1] += 1
        return real(ctx, rule, *rest)

    monkeypatch.setattr(evaluate, "_apply", counted)
    for by_class in (True, False):
        calls.append(0)
        audit_in_context(site, rules, as_of=AS_OF, by_class=by_class)
    judged, pairs = calls  # each: every rack and PDU rule on every rack and PDU
    assert pairs > 5_000
    assert judged * 4 < pairs  # rows of 8-16 racks alike: one judged of each


def test_only_the_row_layout_quantities_read_where_a_rack_stands_in_its_row() -> None:
    """The class key leaves a rack's position out but for rules reading these quantities
    (facility.engine.alike): a reader of ``.position`` anywhere else in the engine would be
    judged wrong for the others of its class."""
    readers = []
    for path in sorted((ROOT / "facility" / "engine").glob("*.py")):
        if path.name == "alike.py":
            continue  # the key itself
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == "position":
                readers.append(path.name)
    assert readers and set(readers) == {"derive_space.py"}
    # ... and no quantity elsewhere reads one of them (a rule's key follows its own quantities)
    placed = {
        name for name, q in catalogue()["rack"].items() if q.compute.__module__.endswith("space")
    }
    assert placed
    for path in sorted((ROOT / "facility" / "engine").glob("*.py")):
        if path.name in ("derive_space.py", "alike.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                assert node.value not in placed, (path.name, node.value)


def test_no_quantity_reads_where_an_entity_is_written() -> None:
    """A shared finding takes its place in the site file from its own entity: a quantity that
    read a rack's or PDU's ``location`` would show the first one's for the whole class."""
    readers = []
    for path in sorted((ROOT / "facility" / "engine").glob("derive_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "location":
                readers.append(path.name)
    assert readers == []
