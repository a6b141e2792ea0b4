"""Re-record the NetBox API responses the unit tests replay (tests/imports/netbox/data/).

    uv run python scripts/netbox/record.py [--out DIR]

Records the site whose slug NETBOX_SITE names (default ``hall-b3``) into DIR (default
tests/imports/netbox/data/<slug>/). Needs a running NetBox 4.7 with that site's seed loaded
into an otherwise empty server (the ids in the recording are the server's); the simplest is

    bash scripts/netbox/install.sh
    eval "$(bash scripts/netbox/server.sh start)" && export NETBOX_URL NETBOX_TOKEN
    uv run python scripts/netbox/seed_hall_b3.py
    uv run python scripts/netbox/record.py
    bash scripts/netbox/server.sh stop

and, for the second recorded site, on a fresh server (stop, start again):

    uv run python scripts/netbox/seed_shapes.py
    NETBOX_SITE=shapes uv run python scripts/netbox/record.py

It writes one JSON file per endpoint (the objects of the site, exactly as the importer
fetched them through pynetbox), sorted and indented so that a re-recording diffs cleanly;
``unavailable.json`` only when the server could not give an endpoint. Timestamps are replaced
by a fixed value and the server's address by 127.0.0.1:58001; the token is never part of a
response.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from facility.imports.netbox_fetch import fetch  # noqa: E402
from facility.imports.netbox_snapshot import Snapshot  # noqa: E402

DATA = ROOT / "tests" / "imports" / "netbox" / "data"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record one NetBox site's API responses.")
    parser.add_argument(
        "--out", type=Path, help="directory to write (default tests/imports/netbox/data/<slug>)"
    )
    args = parser.parse_args(argv)
    url, token = os.environ.get("NETBOX_URL"), os.environ.get("NETBOX_TOKEN")
    if not url or not token:
        print("set NETBOX_URL and NETBOX_TOKEN (see the docstring)", file=sys.stderr)
        return 2
    slug = os.environ.get("NETBOX_SITE", "hall-b3")
    out = (args.out or DATA / slug).resolve()
    snap = fetch(url, token, slug)
    out.mkdir(parents=True, exist_ok=True)
    base = url.rstrip("/")
    parts = {"status": snap.status, "site": snap.site}
    parts |= {key: sorted(getattr(snap, key), key=lambda o: o["id"]) for key in Snapshot.KEYS}
    if snap.unavailable:
        parts["unavailable"] = dict(sorted(snap.unavailable.items()))
    for key, value in parts.items():
        value = _scrub(value, base)
        if isinstance(value, list):  # one object a line: small files, readable diffs
            lines = [json.dumps(o, sort_keys=True, ensure_ascii=False) for o in value]
            text = "[\n" + ",\n".join(lines) + "\n]" if lines else "[]"
        else:
            text = json.dumps(value, indent=1, sort_keys=True, ensure_ascii=False)
        if token in text:
            raise SystemExit("refusing to record: a response contains the token")
        (out / f"{key}.json").write_text(text + "\n", encoding="utf-8")
    shown = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    print(f"recorded {len(parts)} files of site {slug} in {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
