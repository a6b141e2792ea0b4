"""The headroom search's normal audit of the site with n copies (what its single-failure
domain compares each loss with) is the site's own audit with only what the copies change
judged again; it must be the whole audit of that site, finding for finding."""

from __future__ import annotations

import datetime as dt
import sys
from itertools import product
from pathlib import Path

import pytest

from facility.analysis.headroom import _Grower
from facility.engine.evaluate import audit, default_profile
from facility.engine.rules import load_rules
from facility.model import overlay
from facility.model.load import load_site

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402

SITES = [*sorted((ROOT / "examples").glob("*.yaml"))]
TODAY = dt.date(2026, 12, 2)  # the age of evidence judged (fluid analyses, records) or not


def _judged(findings):
    return sorted(
        (f.id, f.status, f.observed, f.limit, f.margin, f.relation, f.missing) for f in findings
    )


@pytest.fixture(scope="module")
def campus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("campus") / "campus.yaml"
    write_campus(60, out)
    return out


@pytest.mark.parametrize("n", [1, 3])
@pytest.mark.parametrize("path", SITES, ids=lambda p: p.stem)
def test_the_normal_audit_with_copies_is_the_whole_audit(path: Path, n: int) -> None:
    _compare(path, n)


def test_the_normal_audit_with_copies_on_a_generated_campus(campus: Path) -> None:
    _compare(campus, 2)


def _compare(path: Path, n: int) -> None:
    site = load_site(path)
    ruleset = load_rules(profile=default_profile(site))
    judged = 0
    own = {day: audit(site, ruleset, as_of=day) for day in (None, TODAY)}
    for template, day in product([r for r in site.racks if r.pdus][:3], own):
        # given the site's audit as headroom() is (the CLI's: with the report date)
        grower = _Grower(site, ruleset, template, template.type, own[day])
        added = grower.new_racks(n)
        grown = overlay.with_racks(site, added)
        changed = grower.affected(grown, added)
        touching = {(scope, i) for scope, items in changed.items() for i, _ in items}
        incremental = grower.audit_with(grown, changed, touching)
        whole = audit(grown, ruleset, as_of=day)
        assert _judged(incremental.findings) == _judged(whole.findings)
        judged += len(whole.findings)
    assert judged > 0


def test_the_search_makes_no_whole_audit(monkeypatch) -> None:
    """small-ready, TCS-1: the single-failure domain is searched at 0, 1 and 2 more racks
    (one fits); each n > 0 judges again only what the copies change, and n = 0 is the audit
    headroom is given."""
    import facility.engine.evaluate as evaluate_module
    from facility.analysis.headroom import headroom

    site = load_site(ROOT / "examples" / "small-ready.yaml")
    ruleset = load_rules(profile="tier-iii")
    given = audit(site, ruleset, as_of=TODAY)
    whole: list[int] = []
    whole_audit = evaluate_module._audit

    def counted(site, *args, **kwargs):
        whole.append(len(site.racks))
        return whole_audit(site, *args, **kwargs)

    monkeypatch.setattr(evaluate_module, "_audit", counted)
    report = headroom(site, ruleset, given, "gb300-r1", loop="TCS-1")
    assert next(d.racks for d in report.domains if d.domain == "single failures") == 1
    assert whole == []  # 3 whole audits (4, 5 and 6 racks) before
