"""Derived quantities of the coolant itself: where each loop's liquid starts to freeze.

The freezing point comes from :func:`facility.physics.coolant.freezing_point` (0 °C for water,
Melinder's polynomial for the glycols) at the coolant's mass fraction, a volume fraction being
converted at 20 °C first. The loader has already refused concentrations outside the
correlation, so every coolant has one. Rules LIQ-017 and LIQ-018 compare it with the supply.
"""

from __future__ import annotations

from typing import Any

from facility.engine.derive_liquid import mass_fraction
from facility.engine.quantities import Context, Input, Value, quantity
from facility.messages import Message
from facility.model.cooling import CORRELATIONS, FLUID_NAMES, Coolant
from facility.physics import coolant as fluid

# Formulas in words (the symbols are not translated; the words around them are).
_ICE_POINT_OF_WATER = Message("ice point of water at 101.325 kPa")


def coolant_freezing_point(coolant: Coolant) -> Value:
    """The freezing point [°C] of a coolant, with its working (fluid, mass fraction)."""
    w = mass_fraction(coolant)
    t_f = fluid.freezing_point(coolant.fluid, w)
    if coolant.fluid == "water":
        return Value(t_f, _ICE_POINT_OF_WATER, ())
    inputs: tuple[Input, ...] = (("w", w, "fraction"),)
    if coolant.volume_fraction is not None:
        formula = Message(
            "freezing point t_f(w) of %(fluid)s (%(source)s), w from φ at 20 °C",
            fluid=FLUID_NAMES[coolant.fluid],
            source=CORRELATIONS[coolant.fluid],
        )
        inputs = (("φ", coolant.volume_fraction, "fraction"), *inputs)
    else:
        formula = Message(
            "freezing point t_f(w) of %(fluid)s (%(source)s)",
            fluid=FLUID_NAMES[coolant.fluid],
            source=CORRELATIONS[coolant.fluid],
        )
    return Value(t_f, formula, inputs)


@quantity(
    "tcs_loop",
    "coolant_freezing_point",
    "temperature",
    "Freezing point (onset of ice) of the loop's coolant",
    reads=(),
)
def tcs_coolant_freezing_point(ctx: Context, loop: Any) -> Value:
    return coolant_freezing_point(loop.coolant)


@quantity(
    "facility_water",
    "coolant_freezing_point",
    "temperature",
    "Freezing point (onset of ice) of the facility water loop's coolant",
    reads=(),
)
def facility_coolant_freezing_point(ctx: Context, water: Any) -> Value:
    return coolant_freezing_point(water.coolant)
