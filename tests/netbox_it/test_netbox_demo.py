"""`facility import netbox` on the NetBox community's demo data (``-m netbox_demo``, opt-in).

The demo data (github.com/netbox-community/netbox-demo-data) is a pg_dump per NetBox minor
version of a made-up network: sites, racks, devices, power panels and feeds entered by hand,
as a NetBox user would. The test restores the dump into the test server
(``NB_RESTORE=<dump> scripts/netbox/server.sh start``), migrates it to NetBox 4.7.3 (minutes,
from an older dump), imports every site that has racks through the command line, and asserts
that each import exits 0 and writes a file that loads; it prints each site's mapping summary.

Which dump: the file FACILITY_NETBOX_DEMO names; else the newest ``netbox-demo-v*.sql`` in
``$NB_WORK/netbox-demo-data/sql/`` (a clone of the repository there:
``git clone --depth 1 https://github.com/netbox-community/netbox-demo-data
~/.cache/facility-netbox-it/netbox-demo-data``). Without either the test is skipped. The
repository's v4.2 dump (2024-12-16) comes from a 4.2 pre-release and does not migrate
(``relation "circuits_virtualcircuittype" does not exist``); its v4.1 dump does (about 8 min
to restore and migrate here, 17 sites with 42 racks).
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from tests.netbox_it._server import NB_WORK, require_prerequisites, running, summary

pytestmark = pytest.mark.netbox_demo

DEMO_DIR = NB_WORK / "netbox-demo-data" / "sql"
_VERSION = re.compile(r"netbox-demo-v(\d+)\.(\d+)\.sql(\.gz)?$")
# Migrating an old dump runs every migration since its version, on one core: a few minutes.
START_TIMEOUT = 3600.0


def demo_dump() -> Path | None:
    """The dump FACILITY_NETBOX_DEMO names, else the newest one in DEMO_DIR, else None."""
    named = os.environ.get("FACILITY_NETBOX_DEMO")
    if named:
        return Path(named)
    found = [
        (tuple(int(n) for n in m.groups()[:2]), p)
        for p in (DEMO_DIR.iterdir() if DEMO_DIR.is_dir() else ())
        if (m := _VERSION.search(p.name))
    ]
    return max(found)[1] if found else None


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[str, str]]:
    dump = demo_dump()
    if dump is None:
        pytest.skip(
            f"no NetBox demo dump: set FACILITY_NETBOX_DEMO to one, or clone "
            f"netbox-community/netbox-demo-data into {DEMO_DIR.parent}"
        )
    if not dump.is_file():
        pytest.fail(f"FACILITY_NETBOX_DEMO names no file: {dump}")
    require_prerequisites()
    print(f"restoring {dump}", file=sys.stderr)
    with running({"NB_RESTORE": str(dump.resolve())}, timeout=START_TIMEOUT) as server:
        yield server


def test_every_demo_site_with_racks_imports(demo: tuple[str, str], tmp_path: Path) -> None:
    import pynetbox

    from facility.model.load import load_site

    url, token = demo
    nb = pynetbox.api(url, token=token)
    racks_per_site: dict[int, int] = {}
    for rack in nb.dcim.racks.all():
        racks_per_site[rack.site.id] = racks_per_site.get(rack.site.id, 0) + 1
    sites = sorted((s for s in nb.dcim.sites.all() if s.id in racks_per_site), key=lambda s: s.slug)
    assert sites, "the demo data has no site with racks"
    print(
        f"{len(sites)} sites with {sum(racks_per_site.values())} racks in NetBox "
        f"{nb.status()['netbox-version']}",
        file=sys.stderr,
    )

    failed: dict[str, str] = {}
    for site in sites:
        out, report = tmp_path / f"{site.slug}.yaml", tmp_path / f"{site.slug}.md"
        started = time.monotonic()
        result = CliRunner().invoke(
            app,
            ["import", "netbox", "--url", url, "--site", site.slug, "-o", str(out),
             "--report", str(report)],
            env={"NETBOX_TOKEN": token},
        )  # fmt: skip
        took = time.monotonic() - started
        if result.exit_code != 0:
            failed[site.slug] = f"exit {result.exit_code}: {result.output.strip()}"
            print(f"{site.slug}: exit {result.exit_code} ({took:.1f} s)", file=sys.stderr)
            continue
        try:
            loaded = load_site(out)
        except Exception as exc:  # every site is tried; all failures are listed at the end
            failed[site.slug] = f"the file does not load: {type(exc).__name__}: {exc}"
            continue
        line = summary(report.read_text(encoding="utf-8"))
        print(
            f"{site.slug} ({racks_per_site[site.id]} racks in NetBox, {len(loaded.racks)} in "
            f"the file, {took:.1f} s): {line}",
            file=sys.stderr,
        )
    assert not failed, "\n".join(f"{slug}: {why}" for slug, why in sorted(failed.items()))
