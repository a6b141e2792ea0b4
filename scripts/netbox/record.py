"""Re-record the NetBox API responses the unit tests replay (tests/imports/netbox/data/).

Needs a running NetBox 4.7 with the Hall B3 seed loaded; the simplest is

    bash scripts/netbox/install.sh
    eval "$(bash scripts/netbox/server.sh start)" && export NETBOX_URL NETBOX_TOKEN
    uv run python scripts/netbox/seed_hall_b3.py
    uv run python scripts/netbox/record.py
    bash scripts/netbox/server.sh stop

It writes one JSON file per endpoint (the objects of site hall-b3, exactly as the importer
fetched them through pynetbox), sorted and indented so that a re-recording diffs cleanly.
Timestamps are replaced by a fixed value and the server's address by 127.0.0.1:58001; the
token is never part of a response.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from facility.imports.netbox_fetch import fetch  # noqa: E402
from facility.imports.netbox_map import Snapshot  # noqa: E402

DATA = ROOT / "tests" / "imports" / "netbox" / "data" / "hall-b3"
FIXED_TIME = "2026-11-29T12:00:00.000000Z"
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def _scrub(value, base: str):
    if isinstance(value, dict):
        return {k: _scrub(v, base) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, base) for v in value]
    if isinstance(value, str):
        if TIMESTAMP.match(value):
            return FIXED_TIME
        return value.replace(base, "http://127.0.0.1:58001")
    return value


def main() -> int:
    url, token = os.environ.get("NETBOX_URL"), os.environ.get("NETBOX_TOKEN")
    if not url or not token:
        print("set NETBOX_URL and NETBOX_TOKEN (see the docstring)", file=sys.stderr)
        return 2
    snap = fetch(url, token, os.environ.get("NETBOX_SITE", "hall-b3"))
    DATA.mkdir(parents=True, exist_ok=True)
    base = url.rstrip("/")
    parts = {"status": snap.status, "site": snap.site}
    parts |= {key: sorted(getattr(snap, key), key=lambda o: o["id"]) for key in Snapshot.KEYS}
    for key, value in parts.items():
        value = _scrub(value, base)
        if isinstance(value, list):  # one object a line: small files, readable diffs
            lines = [json.dumps(o, sort_keys=True, ensure_ascii=False) for o in value]
            text = "[\n" + ",\n".join(lines) + "\n]"
        else:
            text = json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)
        if token in text:
            raise SystemExit("refusing to record: a response contains the token")
        (DATA / f"{key}.json").write_text(text + "\n", encoding="utf-8")
    print(f"recorded {len(parts)} files in {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
