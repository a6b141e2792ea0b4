"""CoolProp's property values that the coolant tests compare against, recorded in a table.

Importing CoolProp costs about 3 s (its package init loads the whole fluid library), so the
default suite reads the values from ``data/coolprop.json``; ``-m slow`` checks the table
against a live CoolProp (tests/physics/test_coolant.py). Record it again after a CoolProp
upgrade with ``uv run python -m tests.physics.coolprop_table``.
"""

from __future__ import annotations

import json
from pathlib import Path

TABLE = Path(__file__).parent / "data" / "coolprop.json"
TEMPERATURES = range(10, 61, 5)  # [°C], every 5 K
GLYCOL_MASS_FRACTIONS = (0.2, 0.25, 0.3, 0.4)
MIXTURES = [
    ("water", 0.0, "INCOMP::Water"),
    *[("propylene_glycol", x, f"INCOMP::MPG[{x}]") for x in GLYCOL_MASS_FRACTIONS],
    *[("ethylene_glycol", x, f"INCOMP::MEG[{x}]") for x in GLYCOL_MASS_FRACTIONS],
]
FLUIDS = [name for _, _, name in MIXTURES] + ["Water"]  # "Water": IAPWS-95
KEYS = ("D", "C", "V")  # density [kg/m³], specific heat [J/(kg·K)], viscosity [Pa·s]
ATMOSPHERIC_PRESSURE = 101_325.0  # [Pa]
KELVIN_AT_ZERO_CELSIUS = 273.15


def live() -> dict[str, dict[str, list[float]]]:
    """fluid -> key -> the value at each of TEMPERATURES, from CoolProp's PropsSI."""
    from CoolProp.CoolProp import PropsSI

    return {
        fluid: {
            key: [
                PropsSI(key, "T", t + KELVIN_AT_ZERO_CELSIUS, "P", ATMOSPHERIC_PRESSURE, fluid)
                for t in TEMPERATURES
            ]
            for key in KEYS
        }
        for fluid in FLUIDS
    }


def recorded() -> dict[str, dict[str, list[float]]]:
    return json.loads(TABLE.read_text(encoding="utf-8"))["values"]


def record() -> None:
    from importlib.metadata import version

    TABLE.parent.mkdir(exist_ok=True)
    document = {
        "source": f"CoolProp {version('CoolProp')} PropsSI at 101,325 Pa",
        "temperatures_celsius": list(TEMPERATURES),
        "values": live(),
    }
    TABLE.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
