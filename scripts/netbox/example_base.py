"""Write examples/netbox/hall-b3-netbox.yaml: what `facility import netbox` writes for Hall B3,
made offline from the responses recorded from a real NetBox 4.7.3
(tests/imports/netbox/data/hall-b3/, scripts/netbox/record.py).

    uv run python scripts/netbox/example_base.py

examples/netbox/hall-b3-cooling.yaml extends that file, so the bundled example runs without a
NetBox server; tests/imports/netbox/test_example_base.py fails when the file is stale.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from facility.imports.netbox import render  # noqa: E402
from facility.imports.netbox_map import Snapshot, map_site  # noqa: E402

RECORDING = ROOT / "tests" / "imports" / "netbox" / "data" / "hall-b3"
OUTPUT = ROOT / "examples" / "netbox" / "hall-b3-netbox.yaml"
SOURCE = "NetBox 4.7.3 at http://127.0.0.1:58001, site hall-b3 (recorded responses)"


def imported_text() -> str:
    """The site file the import writes from the recording."""
    parts = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in RECORDING.glob("*.json")}
    document, report = map_site(Snapshot(**parts), SOURCE)
    return render(document, report)


def main() -> int:
    OUTPUT.write_text(imported_text(), encoding="utf-8")
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
