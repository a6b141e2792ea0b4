"""The cluster the supernodes form: scale-up domains, fabrics, storage, the training plan and
the commissioning evidence (``cluster:`` in the site file), and its resolution.

A *supernode* is one scale-up domain: the racks or cabinets whose accelerators share one
high-bandwidth fabric (one GB200/GB300 NVL72 rack; the 16 cabinets of a CloudMatrix 384). Its
accelerators and their peak rate default to its racks' rack types (facility.engine.derive_cluster).
Supernodes reach each other over the scale-out network; storage has its own network.
The optional workload plan says what the cluster is for; the rules judge whether network,
storage and supernode count can do it (facility.physics.cluster).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias

from pydantic import BeforeValidator, Field, model_validator
from pydantic_core import PydanticCustomError

from facility.messages import Message
from facility.model.base import Entity, Strict
from facility.model.fields import Flow, Id, Length, PositiveFraction, Power, Quantity, Temperature

if TYPE_CHECKING:  # pragma: no cover
    from facility.model.site import Rack

if TYPE_CHECKING:  # pragma: no cover - floats, as far as the type checker is concerned
    BitRate: TypeAlias = float
    DataRate: TypeAlias = float
    DataSize: TypeAlias = float
    Compute: TypeAlias = float
    ComputeRate: TypeAlias = float
    Duration: TypeAlias = float
else:
    BitRate = Quantity("bit_rate", gt=0)
    DataRate = Quantity("data_rate", gt=0)
    DataSize = Quantity("data_size", gt=0)
    Compute = Quantity("computation", gt=0)
    ComputeRate = Quantity("computation_rate", gt=0)
    Duration = Quantity("time", gt=0)


def _number(value: Any) -> Any:
    """A large count as written: 70e9, 7.0e10, 70_000_000_000 or the string '70e9'.

    YAML reads '70e9' (no dot) as a string; a count has no unit, so the string is a number.
    """
    if isinstance(value, str):
        try:
            number = float(value.replace("_", ""))
        except ValueError:
            return value  # pydantic reports it as not a number
        return number if math.isfinite(number) else value
    return value


Count = Annotated[float, BeforeValidator(_number), Field(gt=0, allow_inf_nan=False)]


class Supernode(Entity):
    """One scale-up domain: its racks (or cabinets) and its accelerators."""

    racks: list[Id] = Field(min_length=1, max_length=1000, description="Rack ids it is made of")
    accelerators_per_rack: int | None = Field(
        None,
        ge=1,
        le=10_000,
        description="Accelerators in each rack (72 for an NVL72 rack); default: each rack's "
        "own, from its rack type (or its catalog entry)",
    )
    accelerators: int | None = Field(
        None,
        ge=1,
        le=1_000_000,
        description="Accelerators of the whole supernode (CM384: 384); default: the sum over "
        "its racks",
    )
    accelerator_peak: ComputeRate | None = Field(
        None,
        description="Peak dense BF16 rate of one accelerator, e.g. '2.5 PFLOP/s'; default: "
        "its racks' rack types'",
    )
    product: str | None = Field(None, max_length=200, description="e.g. 'GB300 NVL72'")

    @model_validator(mode="after")
    def _one_count(self) -> Supernode:
        if self.accelerators is not None and self.accelerators_per_rack is not None:
            message = Message("give accelerators or accelerators_per_rack, not both")
            raise PydanticCustomError("supernode", "{message}", {"message": message})
        return self


class ScalableUnitFigures(Strict):
    """A catalog entry of kind ``scalable_unit``: the block of supernodes a vendor's reference
    architecture repeats (a DGX SuperPOD scalable unit: 8 GB200 NVL72 racks, each its own
    NVLink domain). It is not a rack type and not a supernode; a site declares the unit's racks
    (of ``rack_type``) and one supernode per scale-up domain, and takes their figures from that
    rack type. The entry states what one unit holds, for planning and for the reader."""

    rack_type: Id | None = Field(None, description="Catalog rack type of its compute racks")
    compute_racks: int | None = Field(None, ge=1, le=10_000, description="Compute racks per unit")
    supernodes: int | None = Field(
        None, ge=1, le=10_000, description="Scale-up domains (supernodes) per unit"
    )
    accelerators: int | None = Field(None, ge=1, le=1_000_000, description="Accelerators per unit")
    design_power: Power | None = Field(None, description="Design power (TDP) of one unit")


class RoceSettings(Strict):
    """The lossless-Ethernet settings of a RoCE fabric, as configured on the switches."""

    rdma_priority: int | None = Field(None, ge=0, le=7, description="Priority of RDMA traffic")
    pfc_priorities: list[Annotated[int, Field(ge=0, le=7)]] | None = Field(
        None, description="Priorities with PFC (802.1Qbb) enabled"
    )
    ecn_threshold: DataSize | None = Field(
        None, description="ECN marking threshold of the RDMA queue (Kmin), e.g. '150 kB'"
    )
    pfc_xoff: DataSize | None = Field(
        None, description="PFC XOFF threshold of the RDMA queue, e.g. '300 kB'"
    )
    pfc_watchdog: bool | None = Field(None, description="PFC storm watchdog enabled")


class ScaleUp(Strict):
    """The fabric inside a supernode."""

    technology: Literal["nvlink", "ub", "other"] | None = Field(
        None, description="nvlink, ub or other"
    )
    reach: Length | None = Field(
        None,
        description="Longest channel the scale-up links support, e.g. 100 m for "
        "400GBASE-SR8 optics on OM4 fibre (IEEE 802.3 clause 138): every cable route "
        "between two racks of a supernode must be within it (FLR-017)",
    )
    notes: str | None = Field(None, description="Free text about the scale-up domain")


class ScaleOut(Strict):
    """The fabric between supernodes (the compute or 'parameter' plane)."""

    technology: Literal["infiniband", "roce", "other"] | None = Field(
        None, description="infiniband, roce or other"
    )
    bandwidth_per_accelerator: BitRate | None = Field(
        None, description="NIC bandwidth per accelerator, e.g. '800 Gb/s'"
    )
    bandwidth_per_node: BitRate | None = Field(
        None, description="NIC bandwidth of a node (with accelerators_per_node)"
    )
    accelerators_per_node: int | None = Field(
        None, description="Accelerators per node", ge=1, le=1024
    )
    roce: RoceSettings | None = Field(
        None, description="RoCE settings (PFC, ECN, watchdog) when the fabric is RoCE"
    )


class StorageNetwork(Strict):
    """The network between the nodes and storage."""

    technology: Literal["infiniband", "roce", "ethernet", "other"] | None = Field(
        None, description="infiniband, roce, ethernet or other"
    )
    separate_from_scale_out: bool | None = Field(
        None, description="True when storage traffic has its own fabric (or its own NICs)"
    )


class Network(Strict):
    scale_up: ScaleUp = Field(ScaleUp(), description="The scale-up (in-rack) fabric")
    scale_out: ScaleOut = Field(ScaleOut(), description="The scale-out fabric")
    storage: StorageNetwork = Field(StorageNetwork(), description="The storage network")


class Storage(Strict):
    """The shared storage the cluster trains from and checkpoints to (aggregate figures)."""

    read_bandwidth: DataRate | None = Field(None, description="Aggregate storage read bandwidth")
    write_bandwidth: DataRate | None = Field(None, description="Aggregate storage write bandwidth")
    capacity: DataSize | None = Field(None, description="Usable storage capacity")


StateLayout = Literal["bf16_adam", "fp32_adam", "bf16_weights"]


class Parallelism(Strict):
    """How the planned run splits its model over accelerators: the groups whose collectives
    must stay on the scale-up fabric of one supernode (CLU-015)."""

    tensor_parallel: int | None = Field(
        None, ge=1, le=1_000_000, description="Accelerators in one tensor-parallel group (TP)"
    )
    expert_parallel: int | None = Field(
        None,
        ge=1,
        le=1_000_000,
        description="Accelerators in one expert-parallel group (EP), whose all-to-all "
        "exchanges tokens between experts",
    )

    @model_validator(mode="after")
    def _some_group(self) -> Parallelism:
        if self.tensor_parallel is None and self.expert_parallel is None:
            message = Message(
                "give %(field)s or %(other)s", field="tensor_parallel", other="expert_parallel"
            )
            raise PydanticCustomError("parallelism", "{message}", {"message": message})
        return self


class Workload(Strict):
    """The training run the cluster is planned for."""

    name: str | None = Field(None, description="Name of the planned run", max_length=200)
    supernodes: list[Id] | None = Field(
        None, description="The supernodes that run it (default: all of them)"
    )
    parameters: Count | None = Field(None, description="Model parameters, e.g. 70e9")
    training_tokens: Count | None = Field(None, description="Tokens to train on, e.g. 15e12")
    total_compute: Compute | None = Field(
        None, description="Training computation, e.g. '5e22 FLOP' (default 6 × parameters × tokens)"
    )
    mfu: PositiveFraction | None = Field(None, description="Expected model FLOP utilisation")
    target_duration: Duration | None = Field(None, description="Target wall time, e.g. '30 d'")
    checkpoint_interval: Duration | None = Field(None, description="e.g. '3 h'")
    state_layout: StateLayout | None = Field(
        None,
        description="What a checkpoint holds per parameter: bf16_adam (BF16 weights, FP32 "
        "master weights and Adam moments: 14 bytes), fp32_adam (12), bf16_weights (2)",
    )
    checkpoint_bytes_per_parameter: Count | None = Field(
        None, description="Overrides state_layout's checkpoint bytes per parameter"
    )
    gradient_bytes_per_parameter: Count | None = Field(
        None, description="Overrides state_layout's gradient bytes per parameter"
    )
    tokens_per_step: Count | None = Field(None, description="Global batch in tokens")
    step_time: Duration | None = Field(None, description="Time of one training step, if known")
    data_read_rate: DataRate | None = Field(
        None, description="Storage read rate the data pipeline needs"
    )
    bytes_per_token: Count | None = Field(
        None, description="Bytes of training data read per token (when data_read_rate is not given)"
    )
    parallelism: Parallelism | None = Field(
        None,
        description="Tensor- and expert-parallel group sizes, e.g. {tensor_parallel: 8, "
        "expert_parallel: 64}: each group must stay within one supernode",
    )


class Evidence(Strict):
    """One commissioning item as ticked by the commissioning team."""

    date: dt.date | None = Field(None, strict=False, description="When it was done (ISO 8601 date)")
    reference: str | None = Field(
        None, min_length=1, max_length=500, description="Test report, ticket or document"
    )
    notes: str | None = Field(None, description="Free text")


class ThermalTest(Evidence):
    """The single-rack thermal test as measured: one rack run at full load on its TCS loop
    before bulk deployment. Judged against the tested rack's limits (CLU-016 to CLU-021)."""

    rack: Id | None = Field(None, description="The rack that was tested (its type sets the limits)")
    rack_power: Power | None = Field(
        None, description="IT power the rack drew at steady state during the test"
    )
    flow: Flow | None = Field(None, description="Coolant flow measured at the rack")
    supply_temperature: Temperature | None = Field(
        None, description="Coolant temperature measured at the rack's inlet"
    )
    return_temperature: Temperature | None = Field(
        None, description="Coolant temperature measured at the rack's outlet"
    )
    max_chip_temperature: Temperature | None = Field(
        None, description="Hottest accelerator (chip) temperature recorded during the test"
    )
    throttle_events: int | None = Field(
        None,
        ge=0,
        le=1_000_000_000,
        description="Thermal or power throttling events the accelerators logged during the test",
    )
    duration: Duration | None = Field(
        None, description="Time the rack ran at full load, e.g. '4 h'"
    )


# The metrics each monitoring layer must cover (CLU-022), in report order: the seeds' four
# layers of monitoring (docs/evidence.md).
MONITORING_METRICS: dict[str, tuple[str, ...]] = {
    "card": ("temperature", "throttling", "errors"),
    "link": ("loss", "retransmits", "downgrades"),
    "scheduler": ("queueing", "fragmentation"),
    "training": ("throughput_jitter", "communication_share"),
}


class _Metric(Strict):
    source: str = Field(
        min_length=1,
        max_length=500,
        description="Where the metric comes from: exporter, counter or dashboard, e.g. "
        "'DCGM_FI_DEV_GPU_TEMP via dcgm-exporter'",
    )


class CardMetric(_Metric):
    metric: Literal["temperature", "throttling", "errors"] = Field(
        description="temperature, throttling or errors (ECC, Xid)"
    )


class LinkMetric(_Metric):
    metric: Literal["loss", "retransmits", "downgrades"] = Field(
        description="loss (drops, symbol errors), retransmits or downgrades (link width or speed)"
    )


class SchedulerMetric(_Metric):
    metric: Literal["queueing", "fragmentation"] = Field(
        description="queueing (jobs waiting, wait time) or fragmentation (free accelerators "
        "no job can use)"
    )


class TrainingMetric(_Metric):
    metric: Literal["throughput_jitter", "communication_share"] = Field(
        description="throughput_jitter (step time or tokens/s spread) or communication_share "
        "(share of a step spent in collectives)"
    )


def _metrics_once(metrics: list[Any]) -> None:
    seen: set[str] = set()
    for m in metrics:
        if m.metric in seen:
            raise ValueError(Message("metric '%(metric)s' is listed twice", metric=m.metric))
        seen.add(m.metric)


class CardMonitoring(Evidence):
    metrics: list[CardMetric] = Field(
        [], description="Card-level metrics collected, each with its source"
    )

    @model_validator(mode="after")
    def _once(self) -> CardMonitoring:
        _metrics_once(self.metrics)
        return self


class LinkMonitoring(Evidence):
    metrics: list[LinkMetric] = Field(
        [], description="Link-level metrics collected, each with its source"
    )

    @model_validator(mode="after")
    def _once(self) -> LinkMonitoring:
        _metrics_once(self.metrics)
        return self


class SchedulerMonitoring(Evidence):
    metrics: list[SchedulerMetric] = Field(
        [], description="Scheduler-level metrics collected, each with its source"
    )

    @model_validator(mode="after")
    def _once(self) -> SchedulerMonitoring:
        _metrics_once(self.metrics)
        return self


class TrainingMonitoring(Evidence):
    metrics: list[TrainingMetric] = Field(
        [], description="Training-level metrics collected, each with its source"
    )

    @model_validator(mode="after")
    def _once(self) -> TrainingMonitoring:
        _metrics_once(self.metrics)
        return self


# The commissioning items an auditor wants ticked, in report order.
COMMISSIONING_ITEMS = (
    "single_rack_thermal_test",
    "loop_flushing",
    "leak_detection_test",
    "pfc_ecn_verification",
    "monitoring_card",
    "monitoring_link",
    "monitoring_scheduler",
    "monitoring_training",
    "failover_drill",
)


class Commissioning(Strict):
    """Commissioning evidence; an item that is not here is a finding, not silence."""

    single_rack_thermal_test: ThermalTest | None = Field(
        None,
        description="One rack run at full load on the loop before bulk deployment, with what "
        "was measured",
    )
    loop_flushing: Evidence | None = Field(
        None, description="TCS loops flushed to their cleanliness criterion before first fill"
    )
    leak_detection_test: Evidence | None = Field(
        None, description="Leak detection wired to the BMS/DCIM and tested (rack and tray level)"
    )
    pfc_ecn_verification: Evidence | None = Field(
        None, description="PFC and ECN verified on the RDMA fabric under load"
    )
    monitoring_card: CardMonitoring | None = Field(
        None, description="Accelerator (card) monitoring, with the metrics it collects"
    )
    monitoring_link: LinkMonitoring | None = Field(
        None, description="Link and fabric monitoring, with the metrics it collects"
    )
    monitoring_scheduler: SchedulerMonitoring | None = Field(
        None, description="Scheduler/job monitoring, with the metrics it collects"
    )
    monitoring_training: TrainingMonitoring | None = Field(
        None, description="Training-level monitoring, with the metrics it collects"
    )
    failover_drill: Evidence | None = Field(
        None, description="A failover drill (node, link or CDU loss) with the job restarting"
    )


class Cluster(Strict):
    """The cluster the supernodes form (optional: a hall audit without it is unchanged)."""

    id: Id = Field("cluster", description="Id findings about the cluster point at")
    supernodes: list[Supernode] = Field([], description="The supernodes, each a set of racks")
    network: Network = Field(Network(), description="Scale-up, scale-out and storage networks")
    storage: Storage = Field(Storage(), description="Storage bandwidth and capacity")
    workload: Workload | None = Field(None, description="The planned training run")
    commissioning: Commissioning = Field(
        Commissioning(), description="Evidence of commissioning tests and monitoring"
    )


# --- resolution --------------------------------------------------------------------------


@dataclass(slots=True)
class ResolvedSupernode:
    id: str
    spec: Supernode
    racks: list[Rack]


@dataclass(frozen=True, slots=True)
class CommissioningItem:
    id: str
    evidence: Evidence | None


@dataclass(frozen=True, slots=True)
class ResolvedThermalTest:
    """The single-rack thermal test; ``id`` is the tested rack's (or the item's name when the
    record names none, or a rack the site does not have)."""

    id: str
    record: ThermalTest
    rack: Rack | None


@dataclass(frozen=True, slots=True)
class MonitoringLayer:
    """One of the four monitoring layers (card, link, scheduler, training), declared or not."""

    id: str
    evidence: CardMonitoring | LinkMonitoring | SchedulerMonitoring | TrainingMonitoring | None


@dataclass(slots=True)
class ResolvedCluster:
    id: str
    spec: Cluster
    supernodes: dict[str, ResolvedSupernode]
    workload_supernodes: list[ResolvedSupernode] = field(default_factory=list)
    items: list[CommissioningItem] = field(default_factory=list)
    thermal_test: ResolvedThermalTest | None = None
    monitoring: list[MonitoringLayer] = field(default_factory=list)


def resolve_cluster(
    resolver: Any, cluster: Cluster | None, racks: list[Rack]
) -> ResolvedCluster | None:
    """Follow the cluster's references (rack ids, supernode ids); problems go to ``resolver``."""
    if cluster is None:
        return None
    base = ("cluster",)
    resolver.locations[("cluster", cluster.id)] = resolver.source.locate(base)
    by_id = {r.id: r for r in racks}
    specs = resolver.index("supernode", cluster.supernodes, (*base, "supernodes"))
    supernodes: dict[str, ResolvedSupernode] = {}
    owner: dict[str, str] = {}
    for i, spec in enumerate(cluster.supernodes):
        if specs.get(spec.id) is not spec:
            continue
        members = []
        for j, rack_id in enumerate(spec.racks):
            path = (*base, "supernodes", i, "racks", j)
            if rack_id not in by_id:
                known = ", ".join(sorted(by_id)[:8]) or Message("none are defined")
                resolver.problem(
                    path,
                    Message("unknown rack '%(ref)s' (known: %(known)s)", ref=rack_id, known=known),
                )
            elif rack_id in owner:
                resolver.problem(
                    path,
                    Message(
                        "rack '%(rack)s' is already in supernode '%(supernode)s'",
                        rack=rack_id,
                        supernode=owner[rack_id],
                    ),
                )
            else:
                owner[rack_id] = spec.id
                members.append(by_id[rack_id])
        supernodes[spec.id] = ResolvedSupernode(spec.id, spec, members)
    chosen = list(supernodes.values())
    workload = cluster.workload
    if workload is not None and workload.supernodes is not None:
        chosen = []
        for j, ref in enumerate(workload.supernodes):
            if ref in supernodes:
                chosen.append(supernodes[ref])
            else:
                known = ", ".join(sorted(supernodes)[:8]) or Message("none are defined")
                resolver.problem(
                    (*base, "workload", "supernodes", j),
                    Message("unknown supernode '%(ref)s' (known: %(known)s)", ref=ref, known=known),
                )
    items = []
    for name in COMMISSIONING_ITEMS:
        evidence = getattr(cluster.commissioning, name)
        resolver.locations[("commissioning_item", name)] = resolver.source.locate(
            (*base, "commissioning", name)
        )
        items.append(CommissioningItem(name, evidence))
    test = _thermal_test(resolver, cluster.commissioning.single_rack_thermal_test, by_id)
    layers = []
    for layer in MONITORING_METRICS:
        resolver.locations[("monitoring_layer", layer)] = resolver.source.locate(
            (*base, "commissioning", f"monitoring_{layer}")
        )
        layers.append(MonitoringLayer(layer, getattr(cluster.commissioning, f"monitoring_{layer}")))
    return ResolvedCluster(cluster.id, cluster, supernodes, chosen, items, test, layers)


def _thermal_test(
    resolver: Any, record: ThermalTest | None, by_id: dict[str, Rack]
) -> ResolvedThermalTest | None:
    if record is None:
        return None
    path = ("cluster", "commissioning", "single_rack_thermal_test")
    rack = None
    if record.rack is not None:
        rack = by_id.get(record.rack)
        if rack is None:
            known = ", ".join(sorted(by_id)[:8]) or Message("none are defined")
            resolver.problem(
                (*path, "rack"),
                Message("unknown rack '%(ref)s' (known: %(known)s)", ref=record.rack, known=known),
            )
    test_id = rack.id if rack is not None else "single_rack_thermal_test"
    resolver.locations[("thermal_test", test_id)] = resolver.source.locate(path)
    return ResolvedThermalTest(test_id, record, rack)
