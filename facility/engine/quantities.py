"""The derived-quantity catalogue: named, typed quantities that rules may compare.

Each quantity belongs to a *scope* (the kind of entity a rule runs once per: rack, pdu,
tcs_loop, …), has a kind (``facility.units.KINDS``, or ``boolean``/``count``) and is computed
by a small function over the resolved site, using the physics modules. A computed
:class:`Value` carries the number, the working ("4 × √3·415 V·63 A·80 % = 144.9 kVA") and,
when an input is missing, why it could not be computed — so a rule that needs it is reported
as *not evaluated*, never as a pass.

The area modules (``facility.engine.derive_*``) register their quantities with
:func:`quantity`; :func:`catalogue` imports them on first use.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from facility.messages import Message
from facility.model.site import Site
from facility.model.source import Location
from facility.model.topology import Topology

Input = tuple[str, float, str]  # (symbol, canonical value, kind) substituted into a formula


@dataclass(frozen=True, slots=True)
class Value:
    """A derived quantity of one entity: its value and how it was obtained.

    ``formula`` is symbolic ("n · √3 · V_LL · I · DF"); ``inputs`` are the values put into it,
    which the report formats with their units. ``missing`` says why there is no value.
    """

    value: float | None
    formula: str = ""
    inputs: tuple[Input, ...] = ()
    missing: str | None = None

    @staticmethod
    def unknown(reason: str) -> Value:
        return Value(None, missing=reason)


Compute = Callable[["Context", Any], Value]


class Unknown(Exception):
    """An input of a quantity is missing. Raised where it is found (:func:`known`); the
    registry turns it into the quantity's value (unknown, with the reason), so a rule that
    needs the quantity is *not evaluated* — never a pass — and no quantity guards by hand."""

    def __init__(self, value: Value):
        super().__init__(value.missing)
        self.value = value


def guarded(func: Callable[..., Value]) -> Callable[..., Value]:
    """``func``, with an :class:`Unknown` it raises returned as its value: every registered
    quantity is guarded so, and a helper that code outside the quantities calls too."""

    @functools.wraps(func)
    def compute(*args: Any) -> Value:
        try:
            return func(*args)
        except Unknown as missing:
            return missing.value
        except OverflowError:  # figures the model accepts whose square or power is beyond floats
            return Value.unknown(_overflow(func.__name__))

    return compute


def _overflow(name: str) -> str:
    return Message(
        "%(quantity)s overflows: its figures are beyond the range of the arithmetic",
        quantity=name.strip("_"),
    )


def known(value: Value) -> float:
    """The number of ``value``; :class:`Unknown` with its reason when it has none. Only inside
    a quantity (or a helper only quantities call)."""
    if value.value is None:
        raise Unknown(value)
    return value.value


@dataclass(frozen=True, slots=True)
class QuantitySpec:
    scope: str
    name: str
    kind: str
    description: str
    compute: Callable[[Context, Any], Value]
    # What the quantity reads besides its entity's own fixed figures (facility.engine.reads):
    # an aspect of its entity's state ("pdus"), a quantity of its own ("self.liquid_heat"),
    # of related entities ("pdus_below.pdu_load"), or their state ("rack:pdus"). What a
    # failure or an added rack affects is derived from these.
    reads: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ScopeSpec:
    name: str
    title: str
    entities: Callable[[Site], Iterable[tuple[str, Any]]]


@dataclass(slots=True)
class Assumptions:
    """Audit-wide choices, set by the rule profile and printed in the report."""

    electrical_power_basis: str = "peak"  # which rack power the breakers must carry
    thermal_power_basis: str = "nominal"  # which rack power becomes heat


@dataclass(slots=True)
class Context:
    """One audit's view of a site, with a cache of every quantity computed so far.

    ``baseline`` is the normal audit's context when this one judges a failure overlay of the
    same site: a sum the loss changes little is the normal one with the changes moved."""

    site: Site
    assumptions: Assumptions
    # (scope, quantity) -> entity id -> value: every quantity computed so far
    cache: dict[tuple[str, str], dict[str, Value]] = field(default_factory=dict)
    # Values the area modules share between entities (a rack type's flow on a loop, a loop's
    # CDU shares), keyed by what they depend on: a failure scenario shares its baseline's.
    memo: dict[Any, Any] = field(default_factory=dict)
    as_of: dt.date | None = None  # the report date, for the age of evidence
    baseline: Context | None = None
    topology: Topology = field(init=False)

    def __post_init__(self) -> None:
        self.topology = self.site.topology

    def get(self, scope: str, name: str, entity: Any) -> Value:
        table = self.cache.get((scope, name))
        if table is None:
            table = self.cache[(scope, name)] = {}
        key = entity_id(entity)
        found = table.get(key)
        if found is None:
            found = table[key] = catalogue()[scope][name].compute(self, entity)
        return found

    def table(self, scope: str, name: str) -> tuple[dict[str, Value], Compute]:
        """The values of one quantity computed so far (by entity id) and how to compute one:
        what a rule run over every entity of its scope looks up, without a call per entity."""
        table = self.cache.get((scope, name))
        if table is None:
            table = self.cache[(scope, name)] = {}
        return table, catalogue()[scope][name].compute

    def location(self, scope: str, entity: Any) -> Location | None:
        return self.site.where(scope, entity_id(entity))


def entity_id(entity: Any) -> str:
    return entity.id


_QUANTITIES: dict[str, dict[str, QuantitySpec]] = {}
_LOADED = False
_SCOPES: dict[str, ScopeSpec] = {}


def scope(name: str, title: str) -> Callable[[Callable[[Site], Iterable[tuple[str, Any]]]], Any]:
    """Register a scope with the function listing its entities."""

    def register(func: Callable[[Site], Iterable[tuple[str, Any]]]) -> Any:
        _SCOPES[name] = ScopeSpec(name, title, func)
        _QUANTITIES.setdefault(name, {})
        return func

    return register


def quantity(
    scope_name: str, name: str, kind: str, description: str, *, reads: tuple[str, ...]
) -> Callable[[Callable[[Context, Any], Value]], Any]:
    """Register a derived quantity of ``scope_name``, with what it reads (required: a
    quantity that read across entities without saying so would escape the failure analysis)."""

    def register(func: Callable[[Context, Any], Value]) -> Any:
        compute = guarded(func)
        _QUANTITIES.setdefault(scope_name, {})[name] = QuantitySpec(
            scope_name, name, kind, description, compute, tuple(reads)
        )
        return compute

    return register


def catalogue() -> dict[str, dict[str, QuantitySpec]]:
    """Every derived quantity by scope and name."""
    global _LOADED
    if not _LOADED:  # importing the area modules registers their quantities
        from facility.engine import (  # noqa: F401
            derive_air,
            derive_branches,
            derive_cluster,
            derive_condensation,
            derive_coolant,
            derive_coolant_quality,
            derive_evidence,
            derive_failure,
            derive_floor,
            derive_heat_rejection,
            derive_liquid,
            derive_move_in,
            derive_power,
            derive_ride_through,
            derive_space,
        )

        _LOADED = True
    return _QUANTITIES


def scopes() -> dict[str, ScopeSpec]:
    catalogue()
    return _SCOPES
