"""The bundled NetBox example runs without a server: examples/netbox/hall-b3-netbox.yaml is what
the import writes from the recorded Hall B3 responses, and the engineer's layer over it gives
Hall B3's verdicts (the offline twin of the real-server test)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE = ROOT / "examples" / "netbox" / "hall-b3-netbox.yaml"


def _example_base():
    sys.path.insert(0, str(ROOT / "scripts" / "netbox"))
    try:
        import example_base
    finally:
        sys.path.pop(0)
    return example_base


def test_the_shipped_base_is_what_the_import_writes_from_the_recording() -> None:
    assert BASE.read_text(encoding="utf-8") == _example_base().imported_text(), (
        "examples/netbox/hall-b3-netbox.yaml is stale: uv run python scripts/netbox/example_base.py"
    )


def test_the_layer_over_the_shipped_base_is_hall_b3() -> None:
    from facility.check import run_check
    from facility.engine.evaluate import default_profile
    from facility.engine.rules import load_rules
    from facility.model.load import load_site

    def fails(path: Path) -> tuple[str, set[tuple[str, str]]]:
        site = load_site(path)
        result = run_check(site, load_rules(profile=default_profile(site)), generated_at=None)
        failed = {(f.rule, f.entity_id) for f in result.result.findings if f.status == "fail"}
        return result.result.verdict, failed

    layered = fails(ROOT / "examples" / "netbox" / "hall-b3-cooling.yaml")
    reference = fails(ROOT / "examples" / "hall-b3.yaml")
    assert layered == reference
    assert (
        len(layered[1]) == 116
    )  # 96 in normal operation (LIQ-029 on TCS-A) + 20 single points of failure
