"""What a site holds, in numbers: IT load, heat per loop, residual air heat."""

from __future__ import annotations

from dataclasses import dataclass

from facility.model.site import Site
from facility.physics.air import residual_air_heat
from facility.report.i18n import _
from facility.report.quantities import format_quantity
from facility.report.words import loaded_counts


@dataclass(frozen=True, slots=True)
class LoopHeat:
    loop: str
    racks: int
    liquid_heat: float  # W, at nominal power
    complete: bool  # False when a rack lacks nominal power or liquid fraction


@dataclass(frozen=True, slots=True)
class Inventory:
    nominal_power: float  # W, racks with a nominal power
    peak_power: float  # W, racks with a peak power
    racks_without_nominal: int
    racks_without_peak: int
    loops: list[LoopHeat]
    residual_air_heat: float  # W, liquid racks' air share plus air-only racks


def inventory(site: Site) -> Inventory:
    """Totals over the racks of ``site`` (nominal heat basis for loops and air)."""
    nominal = peak = air = 0.0
    missing_nominal = missing_peak = 0
    per_loop: dict[str, list[float | None]] = {loop: [] for loop in site.loops}
    for rack in site.racks:
        f = rack.type.figures
        if f.nominal_power is None:
            missing_nominal += 1
        else:
            nominal += f.nominal_power
        if f.peak_power is None:
            missing_peak += 1
        else:
            peak += f.peak_power
        liquid = f.liquid_heat_fraction if rack.type.is_liquid else 0.0
        if f.nominal_power is not None and liquid is not None:
            air += residual_air_heat(f.nominal_power, liquid)
        if rack.loop is not None:
            known = f.nominal_power is not None and liquid is not None
            per_loop[rack.loop].append(f.nominal_power * liquid if known else None)  # type: ignore[operator]
    loops = [
        LoopHeat(loop, len(heats), sum(h for h in heats if h is not None), None not in heats)
        for loop, heats in sorted(per_loop.items())
    ]
    return Inventory(nominal, peak, missing_nominal, missing_peak, loops, air)


def inventory_text(site: Site) -> str:
    """A short, plain-text summary of what was loaded."""
    return "\n".join([f"{site.info.name} — {site.file}", "", *key_figures(site)])


def key_figures(site: Site) -> list[str]:
    """Counts, IT load, heat per loop and to room air, as lines of text (current language)."""
    inv = inventory(site)
    lines = []
    lines.append(_("loaded: %(counts)s") % {"counts": loaded_counts(site.summary())})
    lines.append(
        _("IT load: %(nominal)s nominal, %(peak)s peak")
        % {
            "nominal": format_quantity(inv.nominal_power, "power"),
            "peak": format_quantity(inv.peak_power, "power"),
        }
    )
    if inv.racks_without_nominal or inv.racks_without_peak:
        lines.append(
            "  "
            + _(
                "(not counted: %(nominal)s racks without nominal power, %(peak)s without peak "
                "power)"
            )
            % {"nominal": inv.racks_without_nominal, "peak": inv.racks_without_peak}
        )
    for loop in inv.loops:
        note = (
            ""
            if loop.complete
            else "  " + _("(incomplete: some racks lack power or liquid fraction)")
        )
        lines.append(
            _("loop %(loop)s: %(racks)s racks, %(heat)s to liquid")
            % {
                "loop": loop.loop,
                "racks": loop.racks,
                "heat": format_quantity(loop.liquid_heat, "power"),
            }
            + note
        )
    lines.append(
        _("residual heat to room air: %(heat)s")
        % {"heat": format_quantity(inv.residual_air_heat, "power")}
    )
    return lines
