"""The hall's power account: IT, cooling, other loads and losses, per source, and pPUE.

At the electrical basis (peak rack power by default) and in normal operation, from the same
quantities the source checks judge:

- **IT**: every rack's real power, by the rack type's ``category`` (compute, network,
  storage);
- **cooling** and **other**: the non-IT loads of ``power.loads`` (count · power, at their
  design conditions), by kind;
- **losses**: for each source with an ``efficiency`` η, the real power it delivers ×
  (1/η − 1) (the input it draws less its output);
- **per source**: the real and apparent power each source delivers (``source_real_load``,
  ``source_load``);
- **critical / facility**: the power whose path reaches a UPS, the power whose path reaches a
  utility, transformer or generator only, and the power whose path reaches no source (the
  upstream is not modelled);
- **pPUE**, the hall's partial PUE: (IT + cooling + other + losses) / IT. An estimate at
  design load: it rests on the racks' power at the basis, the loads' design power and the
  sources' efficiencies; what is missing is named, never taken as zero.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from facility.engine.derive_power import pdu_real_load
from facility.engine.quantities import Context
from facility.model.power import LOAD_CATEGORY


@dataclass(frozen=True, slots=True)
class SourceLine:
    """What one source delivers in normal operation."""

    id: str
    kind: str  # ups, generator, utility, transformer
    real: float | None  # W
    apparent: float | None  # VA
    loss: float | None  # W; None without an efficiency
    efficiency: float | None


@dataclass(slots=True)
class PowerAccount:
    basis: str  # the rack power basis (peak, nominal)
    it: dict[str, float] = field(default_factory=dict)  # rack category → W
    cooling: dict[str, float] = field(default_factory=dict)  # load kind → W
    other: dict[str, float] = field(default_factory=dict)  # load kind → W
    sources: list[SourceLine] = field(default_factory=list)
    critical: float = 0.0  # W on a path to a UPS
    facility: float = 0.0  # W on a path to a utility, transformer or generator only
    unmodelled: float = 0.0  # W on a path to no source
    unknown_racks: int = 0  # racks whose power is unknown: in no line

    @property
    def it_total(self) -> float:
        return sum(self.it.values())

    @property
    def cooling_total(self) -> float:
        return sum(self.cooling.values())

    @property
    def other_total(self) -> float:
        return sum(self.other.values())

    @property
    def losses(self) -> float:
        return sum(s.loss for s in self.sources if s.loss is not None)

    @property
    def losses_unknown(self) -> list[str]:
        """Sources that deliver power but state no efficiency: their losses are not known."""
        return [s.id for s in self.sources if s.loss is None and (s.real is None or s.real > 0.0)]

    @property
    def total(self) -> float:
        return self.it_total + self.cooling_total + self.other_total + self.losses

    @property
    def ppue(self) -> float | None:
        """(IT + cooling + other + losses) / IT; None when no cooling load is modelled (a
        ratio of 1 would claim cooling costs nothing) or the IT power is zero or unknown."""
        if not self.cooling or self.it_total <= 0.0 or self.unknown_racks:
            return None
        return self.total / self.it_total


def power_account(ctx: Context) -> PowerAccount:
    """The hall's power account, from the quantities ``ctx`` computed (or computes now)."""
    site, topology = ctx.site, ctx.topology
    result = PowerAccount(ctx.assumptions.electrical_power_basis)

    def path(element_id: str | None, amount: float) -> None:
        chain = topology.chain.get(element_id, ()) if element_id is not None else ()
        top = chain[-1] if chain else None
        kind = site.sources[top.id].kind if top is not None and top.id in site.sources else None
        if kind is None:
            result.unmodelled += amount
        elif kind == "ups":
            result.critical += amount
        else:
            result.facility += amount

    for rack in site.racks:
        power = ctx.get("rack", "rack_real_power", rack).value
        if power is None:
            result.unknown_racks += 1
            continue
        category = rack.type.figures.category or "compute"
        result.it[category] = result.it.get(category, 0.0) + power
        if not rack.pdus:
            result.unmodelled += power
        for pdus in rack.pdus.values():
            for pdu in pdus:
                path(pdu.fed_by, pdu_real_load(ctx, pdu) or 0.0)
    for load in site.loads.values():
        power = load.power * load.count
        group = result.cooling if LOAD_CATEGORY[load.kind] == "cooling" else result.other
        group[load.kind] = group.get(load.kind, 0.0) + power
        for element in load.fed_by.values():
            path(element, power / len(load.fed_by))
    for source in site.sources.values():
        real = ctx.get("power_source", "source_real_load", source).value
        apparent = ctx.get("power_source", "source_load", source).value
        eta = source.efficiency
        loss = real * (1.0 / eta - 1.0) if real is not None and eta is not None else None
        result.sources.append(SourceLine(source.id, source.kind, real, apparent, loss, eta))
    return result
