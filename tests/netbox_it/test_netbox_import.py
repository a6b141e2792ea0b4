"""`facility import netbox` against a real NetBox 4.7.3 on 127.0.0.1 (``-m netbox``).

The test starts PostgreSQL, Redis and NetBox itself (scripts/netbox/server.sh, all on loopback),
loads a Hall B3 equivalent through the REST API (scripts/netbox/seed_hall_b3.py), imports it
with the command line, layers the engineer's file (examples/netbox/hall-b3-cooling.yaml) over the
import, and checks that the audit gives Hall B3's verdicts; then loads site ``shapes``
(scripts/netbox/seed_shapes.py: a dual-inlet rack PDU, a 1+1 switch with planned and offline
servers, two racks of one name, control characters in names, a passive rack) into the same
server and checks the loads the import gives them. The servers are stopped by PID.

Prerequisites: root (PostgreSQL runs as user postgres), Debian's postgresql and redis-server,
and the NetBox venv of scripts/netbox/install.sh. Without them the test is skipped with the
reason, except under CI (``CI`` set), where a missing prerequisite is a failure.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from tests.netbox_it._server import ROOT, require_prerequisites, running, summary

pytestmark = pytest.mark.netbox


@pytest.fixture(scope="module")
def netbox() -> Iterator[tuple[str, str]]:
    require_prerequisites()
    with running() as server:
        yield server


def _seed_script(name: str):
    """scripts/netbox/<name>.py as a module (its ``seed(url, token)`` loads a site)."""
    import importlib

    sys.path.insert(0, str(ROOT / "scripts" / "netbox"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def _fails(result) -> set[tuple[str, str]]:
    return {(f.rule, f.entity_id) for f in result.findings if f.status == "fail"}


def _not_evaluated(result) -> set[tuple[str, str]]:
    return {(f.rule, f.entity_id) for f in result.findings if f.status == "not_evaluated"}


def test_hall_b3_through_netbox(netbox: tuple[str, str], tmp_path: Path) -> None:
    from facility.check import run_check
    from facility.engine.evaluate import default_profile
    from facility.engine.rules import load_rules
    from facility.model.load import load_site

    def audit(site):  # as `facility check` does (single failures included)
        return run_check(site, load_rules(profile=default_profile(site)), generated_at=None).result

    url, token = netbox
    _seed_script("seed_hall_b3").seed(url, token)

    imported = tmp_path / "hall-b3-netbox.yaml"
    report = tmp_path / "mapping.md"
    started = time.monotonic()
    result = CliRunner().invoke(
        app,
        ["import", "netbox", "--url", url, "--site", "hall-b3", "-o", str(imported),
         "--report", str(report)],
        env={"NETBOX_TOKEN": token},
    )  # fmt: skip
    print(f"import took {time.monotonic() - started:.2f} s", file=sys.stderr)
    assert result.exit_code == 0, result.output
    text, mapping = imported.read_text(), report.read_text()
    assert token not in text and token not in mapping
    assert token.split(".", 1)[1] not in text + mapping

    # What NetBox knows arrived with its conventions: 88 feeds as PDUs, two rack types.
    alone = load_site(imported)
    assert len(alone.racks) == 20 and len(alone.pdus) == 88
    assert sorted(alone.rack_types) == ["atlas-b3", "gb300-b3"]
    gb300 = alone.rack_types["gb300-b3"].figures
    assert (gb300.peak_power, gb300.nominal_power) == (155_000.0, 135_000.0)
    assert gb300.empty_mass == pytest.approx(1440.0)  # 140 kg rack + 1300 kg device type
    atlas = alone.rack_types["atlas-b3"].figures
    assert atlas.empty_mass == pytest.approx(220.46 * 0.45359237 + 950, abs=0.001)  # to the gram
    assert atlas.max_payload == pytest.approx(3000 * 0.45359237)  # 1 360.78 kg
    assert [p.id for p in alone.racks[0].pdus["A"]] == ["A01-A1", "A01-A2", "A01-A3", "A01-A4"]
    assert sorted(alone.air_units) == ["CRAH-1", "CRAH-2", "CRAH-3"]
    assert "FW-1" in alone.facility_water
    # Alone, the import is an audit with gaps: floor and power checks are not evaluated.
    gaps = _not_evaluated(audit(alone))
    assert {rule for rule, _ in gaps} >= {"FLR-001", "PWR-001"}  # no zone, no power factor
    assert "177.9 L/min" in mapping  # 47 gpm (US) to A01, in the cooling feed note

    # The engineer's layer over the import is Hall B3.
    layer = tmp_path / "hall-b3-cooling.yaml"
    shutil.copy(ROOT / "examples" / "netbox" / "hall-b3-cooling.yaml", layer)
    layered = audit(load_site(layer))
    reference = audit(load_site(ROOT / "examples" / "hall-b3.yaml"))
    assert layered.profile == reference.profile == "tier-iii"
    assert layered.verdict == reference.verdict
    assert _fails(layered) == _fails(reference)
    assert (
        len(_fails(layered)) == 116
    )  # 96 in normal operation (LIQ-029 on TCS-A) + 20 single points of failure
    # NetBox adds the frames' rated payload (max_weight), so FLR-004 is evaluated, and passes.
    assert _not_evaluated(layered) == _not_evaluated(reference) - {
        (rule, rack) for rule, rack in _not_evaluated(reference) if rule == "FLR-004"
    }

    # A re-import does not touch the layer, and gives the same file.
    again = CliRunner().invoke(
        app, ["import", "netbox", "--url", url, "--site", "hall-b3", "-o", str(imported)],
        env={"NETBOX_TOKEN": token},
    )  # fmt: skip
    assert again.exit_code == 0, again.output
    assert imported.read_text() == text


def test_bad_token_and_unknown_site(netbox: tuple[str, str], tmp_path: Path) -> None:
    url, token = netbox
    out = tmp_path / "site.yaml"
    bad = CliRunner().invoke(
        app, ["import", "netbox", "--url", url, "--site", "hall-b3", "-o", str(out)],
        env={"NETBOX_TOKEN": "nbt_nosuchkey0001.0123456789012345678901234567890123456789"},
    )  # fmt: skip
    assert bad.exit_code == 2
    assert "refused the token" in bad.output and "Traceback" not in bad.output
    unknown = CliRunner().invoke(
        app, ["import", "netbox", "--url", url, "--site", "no-such-hall", "-o", str(out)],
        env={"NETBOX_TOKEN": token},
    )  # fmt: skip
    assert unknown.exit_code == 2
    assert "no site with slug" in unknown.output and "'no-such-hall'" in unknown.output
    assert not out.exists()


def test_shapes_through_netbox(netbox: tuple[str, str], tmp_path: Path) -> None:
    from facility.model.load import load_site

    url, token = netbox
    seed = _seed_script("seed_shapes")
    seed.seed(url, token)

    def imported(*options: str):
        out = tmp_path / f"shapes{'-'.join(('', *options))}.yaml"
        report = out.with_suffix(".md")
        result = CliRunner().invoke(
            app,
            ["import", "netbox", "--url", url, "--site", "shapes", "-o", str(out),
             "--report", str(report), *options],
            env={"NETBOX_TOKEN": token},
        )  # fmt: skip
        assert result.exit_code == 0, result.output
        text, mapping = out.read_text(encoding="utf-8"), report.read_text(encoding="utf-8")
        assert token.split(".", 1)[1] not in text + mapping
        print(summary(mapping), file=sys.stderr)
        site = load_site(out)
        return site, {r.id: r for r in site.racks}, text, mapping

    def power(rack) -> tuple[float | None, float | None]:  # (peak, nominal) [W]
        return rack.type.figures.peak_power, rack.type.figures.nominal_power

    site, racks, text, mapping = imported()

    # PDU-RACK: 4 servers × 400 W = 1 600 W peak, 4 × 350 W = 1 400 W nominal; each server sits
    # behind one of the PDU's two inlets (which carry no figures), so it counts once, not once
    # per inlet (3 200 / 2 800 W).
    assert power(racks["PDU-RACK"]) == (1600.0, 1400.0)
    assert [p.id for p in racks["PDU-RACK"].pdus["A"]] == ["PDU-RACK-1", "PDU-RACK-2"]
    # SW-RACK by default: the 1+1 switch draws max(side A 650 W, side B 650 W) = 650 W peak and
    # 650 W nominal; the planned and the offline server on its primary feed are no load.
    assert power(racks["SW-RACK"]) == (650.0, 650.0)

    # Two racks named R1, one in each "Row A" (Hall 1, Hall 2): two racks, and two rooms (the
    # locations' paths; our racks join a room through their floor zone, which NetBox lacks).
    by_feed = {p.id: r for r in site.racks for p in r.pdus.get("A", [])}
    hall_1, hall_2 = by_feed["H1-R1-A"], by_feed["H2-R1-A"]
    assert (hall_1.id, hall_2.id) == ("Hall 1/Row A/R1", "Hall 2/Row A/R1")
    assert {"Hall 1/Row A", "Hall 2/Row A"} <= set(site.rooms)

    # Control characters: NetBox keeps 'CTRL\x07RACK' and 'srv\x1b[31m' as given; the file
    # holds them escaped (never a raw BEL or ESC), and it loads.
    for raw in ("\x07", "\x1b"):
        assert raw not in text and raw not in mapping
    assert seed.CTRL_RACK == "CTRL\x07RACK" and "CTRL\\x07RACK" in racks  # the escape as text
    assert power(racks["CTRL\\x07RACK"]) == (500.0, 450.0)  # srv\x1b[31m: one 500 / 450 W supply

    # PATCH-RACK: two patch panels, no power ports, no feeds: present, with no power figures.
    assert power(racks["PATCH-RACK"]) == (None, None)
    assert racks["PATCH-RACK"].pdus == {} and racks["PATCH-RACK"].type.is_passive

    # --include-planned: SW-RACK adds the planned server (one supply on side A), not the
    # offline one: 650 + 500 = 1 150 W peak, 650 + 450 = 1 100 W nominal.
    _, planned, _, _ = imported("--include-planned")
    assert power(planned["SW-RACK"]) == (1150.0, 1100.0)
    assert power(planned["PDU-RACK"]) == (1600.0, 1400.0)
