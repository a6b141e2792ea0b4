"""The conservation account: every rack's load, heat and mass, and where each one lands.

After an audit the engine adds up, over the same partitions the checks use
(:mod:`facility.model.topology`), where each rack's figures go:

- **power** (electrical basis, kW): Σ racks = Σ power sides (each rack's share on each side in
  normal operation) + racks on no side;
- **heat** (thermal basis, kW): Σ racks = Σ TCS loops (liquid) + Σ rooms (air) + liquid heat
  on no loop + air heat in no room;
- **loop heat** (kW): Σ loops = Σ facility water loops (each CDU's share) + shares of CDUs on
  no facility water;
- **mass** (kg): Σ racks = Σ floor zones + racks in no zone.

The group sums are taken from the derived quantities the rules judge (a loop's ``liquid_heat``,
a room's ``air_heat``, a facility water loop's ``facility_heat``, each PDU's real load), and
the totals from the racks' own figures; the account must balance. A quantity that counted a
rack twice or dropped one would break the balance, which is an internal error: no report is
signed on it. What lands nowhere is also a failing finding of its own rule (PWR-009, LIQ-015,
AIR-004, FLR-005, LIQ-016). Racks whose figure is unknown are counted apart (their checks are
not evaluated).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from facility.engine.derive_liquid import cdu_heat, cdus_of_loop, rack_heat_split
from facility.engine.derive_power import pdu_real_load
from facility.engine.quantities import Context
from facility.physics.air import residual_air_heat
from facility.physics.structural import STANDARD_GRAVITY

# Σ parts may differ from the total by float rounding only.
RELATIVE_TOLERANCE = 1e-9


class AccountImbalance(RuntimeError):
    """The groups the checks judge do not add up to the racks' totals: an engine defect."""


@dataclass(slots=True)
class Ledger:
    """One quantity over the site: its total and where it lands.

    ``parts`` maps a kind of destination (``power_side``, ``tcs_loop``, ``room``,
    ``facility_water``, ``floor_zone``) to the amount on each one; ``nowhere`` maps
    (destination kind, entity id) to what lands on no destination of that kind; ``unknown``
    counts the racks (or loops) whose figure is unknown and so is in neither.
    """

    name: str  # power | heat | loop_heat | mass
    kind: str  # the quantity kind of the amounts (power, mass)
    basis: str = ""  # the rack power basis (peak, nominal) for power and heat
    total: float = 0.0
    parts: dict[str, dict[str, float]] = field(default_factory=dict)
    nowhere: dict[tuple[str, str], float] = field(default_factory=dict)
    unknown: int = 0
    partial: set[str] = field(default_factory=set)  # destinations holding a rack not counted

    def landed(self) -> float:
        return sum(sum(group.values()) for group in self.parts.values())

    def lost(self) -> float:
        return sum(self.nowhere.values())

    def add(self, destination: str, entity: str, amount: float) -> None:
        group = self.parts.setdefault(destination, {})
        group[entity] = group.get(entity, 0.0) + amount

    def check(self) -> None:
        difference = self.total - self.landed() - self.lost()
        if abs(difference) > RELATIVE_TOLERANCE * max(abs(self.total), 1.0):
            raise AccountImbalance(
                f"the {self.name} account does not balance: total {self.total!r}, landed "
                f"{self.landed()!r}, on nothing {self.lost()!r}"
            )


@dataclass(slots=True)
class Account:
    power: Ledger
    heat: Ledger
    loop_heat: Ledger
    mass: Ledger

    @property
    def ledgers(self) -> tuple[Ledger, ...]:
        return (self.power, self.heat, self.loop_heat, self.mass)


def account(ctx: Context) -> Account:
    """The site's account, from the quantities ``ctx`` computed (or computes now)."""
    result = Account(_power(ctx), _heat(ctx), _loop_heat(ctx), _mass(ctx))
    for ledger in result.ledgers:
        ledger.check()
    return result


def _power(ctx: Context) -> Ledger:
    ledger = Ledger("power", "power", ctx.assumptions.electrical_power_basis)
    for rack in ctx.site.racks:
        power = ctx.get("rack", "rack_real_power", rack)
        if power.value is None:
            ledger.unknown += 1
            continue
        ledger.total += power.value
        if rack.type.is_passive and not rack.pdus:
            continue  # a known zero load: nothing to place on a side
        if not rack.pdus:
            ledger.nowhere[("power_side", rack.id)] = power.value
            continue
        for side, pdus in rack.pdus.items():
            for pdu in pdus:
                ledger.add("power_side", side, pdu_real_load(ctx, pdu) or 0.0)
    return ledger


def _heat(ctx: Context) -> Ledger:
    ledger = Ledger("heat", "power", ctx.assumptions.thermal_power_basis)
    splits: dict[str, tuple[float, float]] = {}  # rack id -> (heat, liquid share), when known
    for rack in ctx.site.racks:
        split = rack_heat_split(ctx, rack)
        if isinstance(split, tuple):
            splits[rack.id] = split
        else:
            ledger.unknown += 1
    ledger.total = sum(power for power, _ in splits.values())
    for loop_id, racks in ctx.topology.racks_by_loop.items():
        liquid = sum(splits[r.id][0] * splits[r.id][1] for r in racks if r.id in splits)
        if loop_id is None:
            for rack in racks:
                if rack.id in splits and splits[rack.id][1]:
                    ledger.nowhere[("tcs_loop", rack.id)] = splits[rack.id][0] * splits[rack.id][1]
            continue
        heat = ctx.get("tcs_loop", "liquid_heat", ctx.site.loops[loop_id])
        # The loop's own quantity where it is known (a rack of unknown figures makes it unknown).
        ledger.add("tcs_loop", loop_id, liquid if heat.value is None else heat.value)
        if heat.value is None:
            ledger.partial.add(loop_id)
    for room_id, racks in ctx.topology.racks_by_room.items():
        air = {r.id: residual_air_heat(*splits[r.id]) for r in racks if r.id in splits}
        if room_id is None:
            for rack_id, lost in air.items():
                ledger.nowhere[("room", rack_id)] = lost
            continue
        _agrees(ctx.get("room", "air_heat", ctx.site.rooms[room_id]).value, sum(air.values()),
                f"room {room_id!r}: air_heat")  # fmt: skip
        ledger.add("room", room_id, sum(air.values()))
    return ledger


def _agrees(quantity: float | None, landed: float, what: str) -> None:
    """A group's quantity (when known) is the Σ of what the account lands on it."""
    if quantity is not None and not math.isclose(
        quantity, landed, rel_tol=RELATIVE_TOLERANCE, abs_tol=1e-6
    ):
        raise AccountImbalance(f"{what} {quantity!r} is not the Σ of its parts {landed!r}")


def _loop_heat(ctx: Context) -> Ledger:
    ledger = Ledger("loop_heat", "power", ctx.assumptions.thermal_power_basis)
    for loop in ctx.site.loops.values():
        heat = ctx.get("tcs_loop", "liquid_heat", loop)
        if heat.value is None:
            ledger.unknown += 1
            continue
        cdus = cdus_of_loop(ctx, loop)
        if not cdus:  # a failure took every CDU of the loop out: its heat reaches nothing
            ledger.total += heat.value
            if heat.value:
                ledger.nowhere[("cdu", loop.id)] = heat.value
            continue
        waters = {cdu.spec.facility_water for cdu in cdus}
        if len(waters) == 1 and None not in waters:  # all of it on one facility water loop
            ledger.total += heat.value
            ledger.add("facility_water", cdus[0].spec.facility_water, heat.value)  # type: ignore[arg-type]
            continue
        shares = [cdu_heat(ctx, cdu).value for cdu in cdus]
        if any(share is None for share in shares):  # the split is unknown (a capacity is)
            ledger.unknown += 1
            continue
        ledger.total += heat.value
        for cdu, share in zip(cdus, shares, strict=True):
            if cdu.spec.facility_water is None:
                if share:
                    ledger.nowhere[("facility_water", cdu.id)] = share  # type: ignore[assignment]
            else:
                ledger.add("facility_water", cdu.spec.facility_water, share or 0.0)
    for water_id, landed in ledger.parts.get("facility_water", {}).items():
        water = ctx.site.facility_water[water_id]
        _agrees(ctx.get("facility_water", "facility_heat", water).value, landed,
                f"facility water {water_id!r}: facility_heat")  # fmt: skip
    return ledger


def _mass(ctx: Context) -> Ledger:
    ledger = Ledger("mass", "mass")
    for zone_id, racks in ctx.topology.racks_by_zone.items():
        for rack in racks:
            mass = ctx.get("rack", "installed_mass", rack)
            if mass.value is None:
                ledger.unknown += 1
                continue
            ledger.total += mass.value
            if zone_id is None:
                ledger.nowhere[("floor_zone", rack.id)] = mass.value
            else:
                ledger.add("floor_zone", zone_id, mass.value)
    for zone_id, landed in ledger.parts.get("floor_zone", {}).items():
        zone = ctx.site.zones[zone_id]
        pressure = ctx.get("floor_zone", "zone_load", zone).value
        if pressure is not None and zone.area:
            _agrees(pressure * zone.area / STANDARD_GRAVITY, landed,
                    f"floor zone {zone_id!r}: zone_load · A / g")  # fmt: skip
    return ledger
