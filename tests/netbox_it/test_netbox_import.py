"""`facility import netbox` against a real NetBox 4.7.3 on 127.0.0.1 (``-m netbox``).

The test starts PostgreSQL, Redis and NetBox itself (scripts/netbox/server.sh, all on loopback),
loads a Hall B3 equivalent through the REST API (scripts/netbox/seed_hall_b3.py), imports it
with the command line, layers the engineer's file (examples/netbox/hall-b3-cooling.yaml) over the
import, and checks that the audit gives Hall B3's verdicts; the servers are stopped by PID.

Prerequisites: root (PostgreSQL runs as user postgres), Debian's postgresql and redis-server,
and the NetBox venv of scripts/netbox/install.sh. Without them the test is skipped with the
reason, except under CI (``CI`` set), where a missing prerequisite is a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app

pytestmark = pytest.mark.netbox

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "scripts" / "netbox" / "server.sh"
NB_WORK = Path(
    os.environ.get("NB_WORK")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "facility-netbox-it"
)


def _missing() -> list[str]:
    missing = []
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        missing.append("root (PostgreSQL is started as user postgres)")
    for tool in ("pg_config", "psql", "redis-server", "redis-cli", "runuser", "curl"):
        if shutil.which(tool) is None:
            missing.append(tool)
    if not (NB_WORK / "venv" / "bin" / "netbox").exists():
        missing.append(f"the NetBox venv {NB_WORK}/venv (run scripts/netbox/install.sh)")
    return missing


@pytest.fixture(scope="module")
def netbox() -> Iterator[tuple[str, str]]:
    missing = _missing()
    if missing:
        reason = "NetBox integration prerequisites missing: " + ", ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    started = time.monotonic()
    run = subprocess.run(
        ["bash", str(SERVER), "start"], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    try:
        assert run.returncode == 0, f"NetBox did not start:\n{run.stdout}\n{run.stderr}"
        env = dict(line.split("=", 1) for line in run.stdout.splitlines() if "=" in line)
        url, token = env["NETBOX_URL"], env["NETBOX_TOKEN"]
        assert url.startswith("http://127.0.0.1:")
        print(f"NetBox up in {time.monotonic() - started:.1f} s", file=sys.stderr)
        yield url, token
    finally:
        subprocess.run(["bash", str(SERVER), "stop"], cwd=ROOT, timeout=120, check=False)


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

    sys.path.insert(0, str(ROOT / "scripts" / "netbox"))
    try:
        import seed_hall_b3
    finally:
        sys.path.pop(0)

    url, token = netbox
    seed_hall_b3.seed(url, token)

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
    assert len(_fails(layered)) == 107  # 87 in normal operation + 20 single points of failure
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
    assert "no site with slug 'no-such-hall'" in unknown.output
    assert not out.exists()
