"""Display units (``--units si|us``): every figure in the system asked for, machine formats in SI.

Expected values are worked by hand from the exact definitions (NIST SP 811 appendix B):
1 lb = 0.45359237 kg, 1 in = 25.4 mm, 1 US gal = 3.785411784 L, 1 lbf = 4.4482216 N,
1 psi = 6.894757 kPa, 1 psf = 47.880259 Pa, g = 9.80665 m/s², °F = °C × 9/5 + 32, 1 K = 1.8 Δ°F.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.analysis.diff import full_findings
from facility.cli import app
from facility.report.quantities import format_quantity, using_units

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

CASES = [
    # 1,100 kg / 0.45359237 = 2,425.1 lb
    (1100.0, "mass", "1,100 kg", "2,425 lb"),
    # 600 mm / 25.4 = 23.62 in (600 mm is 0.6 m canonical)
    (0.6, "length", "600 mm", "23.6 in"),
    # 1,457 L/min / 3.785411784 = 384.9 gpm (0.024283 m³/s canonical = 1,457.0 L/min)
    (1457.0 / 60_000, "volumetric_flow", "1,457 L/min", "384.9 gpm"),
    # 45 °C × 9/5 + 32 = 113.0 °F
    (45.0, "temperature", "45.0 °C", "113.0 °F"),
    # 10 K × 1.8 = 18.0 Δ°F
    (10.0, "temperature_difference", "10.0 K", "18.0 Δ°F"),
    # 150 kPa / 6.894757 = 21.76 psi (a pump head)
    (150_000.0, "pressure", "150.0 kPa", "21.8 psi"),
    # 13.3 kN / 4.4482216 N = 2,990 lbf
    (13_300.0, "force", "13.30 kN", "2,990 lbf"),
    # 1,200 L / 3.785411784 = 317.0 gal
    (1.2, "volume", "1,200 L", "317.0 gal"),
    # 4.171 kJ/(kg·K) / 4.1868 = 0.996 Btu/(lb·°F)
    (4171.0, "specific_heat", "4.171 kJ/(kg·K)", "0.996 Btu/(lb·°F)"),
    # electrical figures are kW/kVA/V/A in both systems
    (155_000.0, "power", "155.0 kW", "155.0 kW"),
    (415.0, "voltage", "415 V", "415 V"),
]


@pytest.mark.parametrize(("value", "kind", "si", "us"), CASES)
def test_each_kind_in_both_systems(value: float, kind: str, si: str, us: str) -> None:
    assert format_quantity(value, kind) == si
    with using_units("us"):
        assert format_quantity(value, kind) == us
    assert format_quantity(value, kind) == si  # the context ends with the block


def test_a_floor_load_is_psf_and_a_pump_head_psi() -> None:
    # 12 kPa / 47.880259 Pa = 250.6 psf; the same pressure as a pump head is psi:
    # 12 kPa / 6.894757 = 1.74 psi
    with using_units("us"):
        assert format_quantity(12_000.0, "floor_load") == "250.6 psf"
        assert format_quantity(12_000.0, "pressure") == "1.7 psi"
    assert format_quantity(12_000.0, "floor_load") == "12.0 kPa"


def test_hall_b3_in_us_units(tmp_path: Path) -> None:
    # FLR-001 on B01: 1,100 kg on 600 mm × 1,200 mm = 1,100 × 9.80665 / 0.72 = 14,982 Pa
    # = 14,982 / 47.880259 = 312.9 psf, against 12 kPa = 250.6 psf. LIQ-004 on TCS-A:
    # 1,457 L/min = 384.9 gpm (the SI report's figure / 3.785411784).
    result = CliRunner().invoke(
        app, ["check", str(EXAMPLES / "hall-b3.yaml"), "--units", "us", "-v"]
    )
    assert result.exit_code == 1, result.output
    text = result.stdout
    assert "312.9 psf violates the limit: must be ≤ 250.6 psf" in text
    assert "gpm" in text and "L/min" not in text and "kPa" not in text and " kg" not in text
    # the JSON result stays SI whatever the display units
    out = tmp_path / "r.json"
    CliRunner().invoke(
        app, ["check", str(EXAMPLES / "hall-b3.yaml"), "--units", "us", "-o", str(out)]
    )
    floor = [f for f in full_findings(json.loads(out.read_text())) if f["rule"] == "FLR-001"]
    assert floor and all(f["observed"]["unit"] == "kPa" for f in floor)


def test_a_site_asks_for_its_units_and_the_command_line_wins(tmp_path: Path) -> None:
    text = (EXAMPLES / "hall-b3.yaml").read_text(encoding="utf-8")
    site = tmp_path / "hall-b3.yaml"
    site.write_text(text.replace("  name: Hall B3\n", "  name: Hall B3\n  display_units: us\n", 1))
    us = CliRunner().invoke(app, ["check", str(site)]).stdout
    si = CliRunner().invoke(app, ["check", str(site), "--units", "si"]).stdout
    assert "psf" in us and "kPa" not in us
    assert "kPa" in si and "psf" not in si


def test_the_cache_keeps_the_systems_apart() -> None:
    # the same (value, kind) formatted in one system must not be served in the other
    for _ in range(2):
        assert format_quantity(2_000.0, "mass") == "2,000 kg"
        with using_units("us"):
            assert format_quantity(2_000.0, "mass") == "4,409 lb"  # 2,000 / 0.45359237


def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(ValueError, match="display units"), using_units("imperial"):
        pass
