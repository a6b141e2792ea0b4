"""Derived quantities of the cluster plan: supernodes, the cluster and its commissioning items.

Three scopes, all empty for a site without ``cluster:``: ``supernode`` (one scale-up domain),
``cluster`` (network, storage and the workload plan; one entity) and ``commissioning_item``
(each item of facility.model.cluster.COMMISSIONING_ITEMS, declared or not). A workload figure
that is not in the plan makes its quantities unknown, naming the field — never a pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from facility.engine.quantities import Context, Value, known, quantity, scope
from facility.messages import Join, Message
from facility.model.cluster import (
    CommissioningItem,
    ResolvedCluster,
    ResolvedSupernode,
    Workload,
)
from facility.model.site import Site
from facility.physics import cluster as plan


@scope("supernode", "Supernode")
def _supernodes(site: Site) -> Iterable[tuple[str, Any]]:
    return site.cluster.supernodes.items() if site.cluster is not None else ()


@scope("cluster", "Cluster")
def _clusters(site: Site) -> Iterable[tuple[str, Any]]:
    return [(site.cluster.id, site.cluster)] if site.cluster is not None else []


@scope("commissioning_item", "Commissioning item")
def _items(site: Site) -> Iterable[tuple[str, Any]]:
    return [(item.id, item) for item in site.cluster.items] if site.cluster is not None else []


# --- supernodes --------------------------------------------------------------------------


@quantity(
    "supernode",
    "domains_spanned",
    "count",
    "Most rows, TCS loop designs or power classes the supernode's racks span",
    reads=(),
)
def domains_spanned(ctx: Context, node: ResolvedSupernode) -> Value:
    rows: set[Any] = set()
    designs: set[Any] = set()
    classes: set[Any] = set()
    for rack in node.racks:
        rows.add(rack.row if rack.row is not None else ("room", rack.room))
        if rack.loop is None:
            return Value.unknown(Message("rack '%(rack)s' is on no TCS loop", rack=rack.id))
        loop = ctx.site.loops[rack.loop]
        c = loop.coolant
        designs.add((c.fluid, c.mass_fraction, c.volume_fraction, loop.supply_setpoint))
        if not rack.pdus:
            return Value.unknown(Message("rack '%(rack)s' declares no PDUs", rack=rack.id))
        circuits = frozenset(
            (pdu.figures.voltage, pdu.figures.phases) for side in rack.pdus.values() for pdu in side
        )
        classes.add((len(rack.pdus), circuits))
    return Value(
        float(max(len(rows), len(designs), len(classes))),
        "max(n_rows, n_loop_designs, n_power_classes)",
        (
            ("n_rows", float(len(rows)), "count"),
            ("n_loop_designs", float(len(designs)), "count"),
            ("n_power_classes", float(len(classes)), "count"),
        ),
    )


@quantity(
    "supernode",
    "accelerators",
    "count",
    "Accelerators of the supernode: as the supernode states them, or from its racks' types",
    reads=(),
)
def accelerators(ctx: Context, node: ResolvedSupernode) -> Value:
    spec = node.spec
    if spec.accelerators is not None:
        n = float(spec.accelerators)
        return Value(n, "n", (("n", n, "count"),))
    k = float(len(node.racks))
    if spec.accelerators_per_rack is not None:
        per_rack = float(spec.accelerators_per_rack)
        return Value(per_rack * k, "n_rack · k", (("n_rack", per_rack, "count"), ("k", k, "count")))
    counts = []
    for rack in node.racks:  # the rack type's figure (from the catalog, or the site's own)
        count = rack.type.figures.accelerators_per_rack
        if count is None:
            return Value.unknown(
                Message(
                    "supernode '%(node)s' states no %(field)s (or %(other)s), and rack type "
                    "'%(type)s' of rack '%(rack)s' has no %(field)s",
                    node=node.id,
                    field="accelerators_per_rack",
                    other="accelerators",
                    type=rack.type.id,
                    rack=rack.id,
                )
            )
        counts.append(float(count))
    total = sum(counts)
    if not total:
        return Value.unknown(
            Message(
                "the racks of supernode '%(node)s' hold no accelerators (%(field)s 0)",
                node=node.id,
                field="accelerators_per_rack",
            )
        )
    if len(set(counts)) == 1:
        return Value(total, "n_rack · k", (("n_rack", counts[0], "count"), ("k", k, "count")))
    return Value(total, "Σ n_rack over k racks", (("k", k, "count"),))


def _accelerator_peak(node: ResolvedSupernode) -> Value:
    """The peak rate of one of the supernode's accelerators: its own, else its racks' types'
    (racks that hold none, a bus cabinet, are left out; they must agree) [FLOP/s]."""
    if node.spec.accelerator_peak is not None:
        return Value(node.spec.accelerator_peak)
    peaks: set[float] = set()
    for rack in node.racks:
        f = rack.type.figures
        if f.accelerators_per_rack == 0 and node.spec.accelerators_per_rack is None:
            continue
        if f.accelerator_peak is None:
            return Value.unknown(
                Message(
                    "supernode '%(node)s' states no %(field)s, and rack type '%(type)s' of "
                    "rack '%(rack)s' has none",
                    node=node.id,
                    field="accelerator_peak",
                    type=rack.type.id,
                    rack=rack.id,
                )
            )
        peaks.add(f.accelerator_peak)
    if len(peaks) != 1:
        return Value.unknown(
            Message(
                "the rack types of supernode '%(node)s' differ in %(field)s: state it on the "
                "supernode",
                node=node.id,
                field="accelerator_peak",
            )
        )
    return Value(peaks.pop())


@quantity(
    "supernode",
    "peak_rate",
    "computation_rate",
    "Peak dense BF16 rate of the supernode: its accelerators × the peak of one",
    reads=(),
)
def peak_rate(ctx: Context, node: ResolvedSupernode) -> Value:
    n = known(ctx.get("supernode", "accelerators", node))
    p = known(_accelerator_peak(node))
    return Value(n * p, "n · P", (("n", n, "count"), ("P", p, "computation_rate")))


@quantity(
    "supernode",
    "runs_workload",
    "boolean",
    "True when the supernode is one of those that run the planned workload",
    reads=(),
)
def runs_workload(ctx: Context, node: ResolvedSupernode) -> Value:
    cluster = ctx.site.cluster
    if cluster is None or cluster.spec.workload is None:
        return _no_plan()
    return Value(float(any(n is node for n in cluster.workload_supernodes)))


@quantity(
    "supernode",
    "parallel_groups_split",
    "count",
    "Declared tensor- and expert-parallel groups that cannot stay within the supernode",
    reads=(),
)
def parallel_groups_split(ctx: Context, node: ResolvedSupernode) -> Value:
    cluster = ctx.site.cluster
    w = cluster.spec.workload if cluster is not None else None
    if w is None:
        return _no_plan()
    if w.parallelism is None:
        return _plan_lacks("parallelism")
    n = known(ctx.get("supernode", "accelerators", node))
    groups = [
        (name, float(size))
        for name, size in (
            ("g_TP", w.parallelism.tensor_parallel),
            ("g_EP", w.parallelism.expert_parallel),
        )
        if size is not None
    ]
    split = [name for name, size in groups if plan.group_straddles(size, n)]
    names = ", ".join(name for name, _ in groups)
    formula = (
        Message("count of g in {%(groups)s} with g > n or n mod g ≠ 0: %(split)s",
                groups=names, split=Join(split))
        if split
        else Message("count of g in {%(groups)s} with g > n or n mod g ≠ 0", groups=names)
    )  # fmt: skip
    return Value(
        float(len(split)),
        formula,
        (("n", n, "count"), *((name, size, "count") for name, size in groups)),
    )


# --- the cluster: network and storage ----------------------------------------------------


@quantity(
    "cluster",
    "scale_out_bandwidth_per_accelerator",
    "bit_rate",
    "Scale-out (between supernodes) NIC bandwidth per accelerator",
    reads=(),
)
def scale_out_bandwidth(ctx: Context, cluster: ResolvedCluster) -> Value:
    so = cluster.spec.network.scale_out
    if so.bandwidth_per_accelerator is not None:
        b = so.bandwidth_per_accelerator
        return Value(b, "B_acc", (("B_acc", b, "bit_rate"),))
    if so.bandwidth_per_node is not None and so.accelerators_per_node is not None:
        n = float(so.accelerators_per_node)
        return Value(
            so.bandwidth_per_node / n,
            "B_node / n_node",
            (("B_node", so.bandwidth_per_node, "bit_rate"), ("n_node", n, "count")),
        )
    return Value.unknown(
        Message(
            "the scale-out network states no %(field)s (or %(other)s with %(count)s)",
            field="bandwidth_per_accelerator",
            other="bandwidth_per_node",
            count="accelerators_per_node",
        )
    )


@quantity("cluster", "uses_roce", "boolean", "True when the scale-out fabric is RoCE", reads=())
def uses_roce(ctx: Context, cluster: ResolvedCluster) -> Value:
    technology = cluster.spec.network.scale_out.technology
    if technology is None:
        return Value.unknown(
            Message("the scale-out network states no %(field)s", field="technology")
        )
    return Value(float(technology == "roce"))


@quantity(
    "cluster",
    "roce_misconfigurations",
    "count",
    "Lossless RoCE settings not met: PFC on the RDMA priority, ECN below XOFF, PFC watchdog",
    reads=(),
)
def roce_misconfigurations(ctx: Context, cluster: ResolvedCluster) -> Value:
    roce = cluster.spec.network.scale_out.roce
    if roce is None:
        return Value.unknown(
            Message("the RoCE fabric declares no settings (%(field)s)", field="scale_out.roce")
        )
    absent = [
        name
        for name in ("rdma_priority", "pfc_priorities", "ecn_threshold", "pfc_xoff", "pfc_watchdog")
        if getattr(roce, name) is None
    ]
    if absent:
        return Value.unknown(Message("the RoCE settings have no %(fields)s", fields=Join(absent)))
    assert roce.ecn_threshold is not None and roce.pfc_xoff is not None
    problems = []
    if roce.rdma_priority not in (roce.pfc_priorities or []):
        problems.append(Message("PFC is off on the RDMA priority"))
    if not roce.ecn_threshold < roce.pfc_xoff:
        problems.append(Message("ECN marks at or above PFC XOFF"))
    if not roce.pfc_watchdog:
        problems.append(Message("no PFC watchdog"))
    formula = (
        Message(
            "settings not met (PFC on prio_RDMA, K_ECN < XOFF, PFC watchdog on): %(problems)s",
            problems=Join(problems),
        )
        if problems
        else Message("PFC on prio_RDMA, K_ECN < XOFF, PFC watchdog on")
    )
    return Value(
        float(len(problems)),
        formula,
        (
            ("K_ECN", roce.ecn_threshold, "data_size"),
            ("XOFF", roce.pfc_xoff, "data_size"),
            ("prio_RDMA", float(roce.rdma_priority or 0), "count"),
        ),
    )


@quantity(
    "cluster",
    "storage_network_separate",
    "count",
    "1 when storage traffic has its own fabric, 0 when it shares the scale-out fabric",
    reads=(),
)
def storage_network_separate(ctx: Context, cluster: ResolvedCluster) -> Value:
    separate = cluster.spec.network.storage.separate_from_scale_out
    if separate is None:
        return Value.unknown(
            Message(
                "the storage network does not say whether it is %(field)s",
                field="separate_from_scale_out",
            )
        )
    return Value(float(separate))


@quantity(
    "cluster", "storage_read_bandwidth", "data_rate", "Aggregate storage read bandwidth", reads=()
)
def storage_read_bandwidth(ctx: Context, cluster: ResolvedCluster) -> Value:
    b = cluster.spec.storage.read_bandwidth
    if b is None:
        return Value.unknown(_no_storage("read_bandwidth"))
    return Value(b, "B_read", (("B_read", b, "data_rate"),))


@quantity("cluster", "storage_capacity", "data_size", "Usable storage capacity", reads=())
def storage_capacity(ctx: Context, cluster: ResolvedCluster) -> Value:
    c = cluster.spec.storage.capacity
    if c is None:
        return Value.unknown(_no_storage("capacity"))
    return Value(c, "C_storage", (("C_storage", c, "data_size"),))


def _no_storage(name: str) -> Message:
    return Message("the cluster's storage states no %(field)s", field=name)


# --- the cluster: the workload plan ------------------------------------------------------


def _no_plan() -> Value:
    return Value.unknown(
        Message("the cluster has no workload plan (%(field)s)", field="cluster.workload")
    )


def _plan_lacks(name: str, other: str | None = None) -> Value:
    if other is None:
        return Value.unknown(Message("the workload plan has no %(field)s", field=name))
    return Value.unknown(
        Message("the workload plan has no %(field)s (or %(other)s)", field=name, other=other)
    )


def _workload(cluster: ResolvedCluster) -> Workload | None:
    return cluster.spec.workload


def _peak_rate(ctx: Context, cluster: ResolvedCluster) -> Value:
    """Σ accelerators × peak rate of the workload's supernodes [FLOP/s]."""
    nodes = cluster.workload_supernodes
    if not nodes:
        return Value.unknown(Message("the cluster declares no supernodes"))
    return Value(sum(known(ctx.get("supernode", "peak_rate", node)) for node in nodes))


@quantity(
    "cluster",
    "training_compute",
    "computation",
    "Computation of the planned training run",
    reads=(),
)
def training_compute(ctx: Context, cluster: ResolvedCluster) -> Value:
    w = _workload(cluster)
    if w is None:
        return _no_plan()
    if w.total_compute is not None:
        return Value(w.total_compute, "C", (("C", w.total_compute, "computation"),))
    if w.parameters is None or w.training_tokens is None:
        return _plan_lacks("total_compute", "parameters and training_tokens")
    return Value(
        plan.training_compute(w.parameters, w.training_tokens),
        "6 · N · D",
        (("N", w.parameters, "count"), ("D", w.training_tokens, "count")),
    )


def _mfu(cluster: ResolvedCluster) -> float | None:
    w = _workload(cluster)
    return None if w is None else w.mfu


@quantity(
    "cluster", "training_time", "time", "Wall time of the planned run on its supernodes", reads=()
)
def training_time(ctx: Context, cluster: ResolvedCluster) -> Value:
    c = known(ctx.get("cluster", "training_compute", cluster))
    peak = known(_peak_rate(ctx, cluster))
    mfu = _mfu(cluster)
    if mfu is None:
        return _plan_lacks("mfu")
    return Value(
        plan.training_time(c, peak, mfu),
        "C / (Σ n · P · MFU)",
        (
            ("C", c, "computation"),
            ("Σ n · P", peak, "computation_rate"),
            ("MFU", mfu, "fraction"),
        ),
    )


@quantity("cluster", "target_duration", "time", "Target wall time of the planned run", reads=())
def target_duration(ctx: Context, cluster: ResolvedCluster) -> Value:
    w = _workload(cluster)
    if w is None:
        return _no_plan()
    if w.target_duration is None:
        return _plan_lacks("target_duration")
    return Value(w.target_duration, "T", (("T", w.target_duration, "time"),))


@quantity("cluster", "supernodes", "count", "Supernodes that run the planned workload", reads=())
def supernodes(ctx: Context, cluster: ResolvedCluster) -> Value:
    if _workload(cluster) is None:
        return _no_plan()
    return Value(float(len(cluster.workload_supernodes)))


@quantity(
    "cluster",
    "supernodes_needed",
    "count",
    "Supernodes needed to finish within the target time",
    reads=(),
)
def supernodes_needed(ctx: Context, cluster: ResolvedCluster) -> Value:
    c = known(ctx.get("cluster", "training_compute", cluster))
    peak = known(_peak_rate(ctx, cluster))
    mfu = _mfu(cluster)
    if mfu is None:
        return _plan_lacks("mfu")
    t = known(ctx.get("cluster", "target_duration", cluster))
    per_node = peak / len(cluster.workload_supernodes)
    return Value(
        float(plan.supernodes_needed(c, per_node, mfu, t)),
        "⌈C / (P_sn · MFU · T)⌉",
        (
            ("C", c, "computation"),
            ("P_sn", per_node, "computation_rate"),
            ("MFU", mfu, "fraction"),
            ("T", t, "time"),
        ),
    )


def _layout_figure(
    w: Workload, override: float | None, table: dict[str, float], name: str
) -> Value:
    if override is not None:
        return Value(override)
    if w.state_layout is None:
        return _plan_lacks("state_layout", name)
    return Value(table[w.state_layout])


@quantity(
    "cluster", "checkpoint_size", "data_size", "Size of one full training checkpoint", reads=()
)
def checkpoint_size(ctx: Context, cluster: ResolvedCluster) -> Value:
    w = _workload(cluster)
    if w is None:
        return _no_plan()
    if w.parameters is None:
        return _plan_lacks("parameters")
    b = _layout_figure(
        w,
        w.checkpoint_bytes_per_parameter,
        plan.CHECKPOINT_BYTES_PER_PARAMETER,
        "checkpoint_bytes_per_parameter",
    )
    if b.value is None:
        return b
    return Value(
        plan.checkpoint_size(w.parameters, b.value),
        "N · b",
        (("N", w.parameters, "count"), ("b", b.value, "count")),
    )


@quantity("cluster", "checkpoint_interval", "time", "Planned time between checkpoints", reads=())
def checkpoint_interval(ctx: Context, cluster: ResolvedCluster) -> Value:
    w = _workload(cluster)
    if w is None:
        return _no_plan()
    if w.checkpoint_interval is None:
        return _plan_lacks("checkpoint_interval")
    t = w.checkpoint_interval
    return Value(t, "t_interval", (("t_interval", t, "time"),))


@quantity(
    "cluster",
    "checkpoint_write_share",
    "fraction",
    "Checkpoint write time as a share of the checkpoint interval",
    reads=(),
)
def checkpoint_write_share(ctx: Context, cluster: ResolvedCluster) -> Value:
    size = known(ctx.get("cluster", "checkpoint_size", cluster))
    interval = known(ctx.get("cluster", "checkpoint_interval", cluster))
    bw = cluster.spec.storage.write_bandwidth
    if bw is None:
        return Value.unknown(_no_storage("write_bandwidth"))
    return Value(
        plan.transfer_time(size, bw) / interval,
        "t_write / t_interval, t_write = S / B_write",
        (
            ("S", size, "data_size"),
            ("B_write", bw, "data_rate"),
            ("t_write", plan.transfer_time(size, bw), "time"),
            ("t_interval", interval, "time"),
        ),
    )


@quantity(
    "cluster",
    "checkpoint_restore_time",
    "time",
    "Time to read one checkpoint back from storage",
    reads=(),
)
def checkpoint_restore_time(ctx: Context, cluster: ResolvedCluster) -> Value:
    size = known(ctx.get("cluster", "checkpoint_size", cluster))
    bw = cluster.spec.storage.read_bandwidth
    if bw is None:
        return Value.unknown(_no_storage("read_bandwidth"))
    return Value(
        plan.transfer_time(size, bw),
        "S / B_read",
        (("S", size, "data_size"), ("B_read", bw, "data_rate")),
    )


def _sustained(ctx: Context, cluster: ResolvedCluster) -> Value:
    peak = known(_peak_rate(ctx, cluster))
    mfu = _mfu(cluster)
    if mfu is None:
        return _plan_lacks("mfu")
    return Value(plan.sustained_compute_rate(peak, mfu))


def _step_time(ctx: Context, cluster: ResolvedCluster, w: Workload) -> Value:
    if w.step_time is not None:
        return Value(w.step_time, "t_step", (("t_step", w.step_time, "time"),))
    if w.tokens_per_step is None:
        return _plan_lacks("step_time", "tokens_per_step")
    if w.parameters is None:
        return _plan_lacks("parameters")
    rate = known(_sustained(ctx, cluster))
    return Value(plan.step_time(w.tokens_per_step, w.parameters, rate))


@quantity(
    "cluster",
    "gradient_sync_share",
    "fraction",
    "Ring all-reduce of the gradients across supernodes as a share of the step time",
    reads=(),
)
def gradient_sync_share(ctx: Context, cluster: ResolvedCluster) -> Value:
    w = _workload(cluster)
    if w is None:
        return _no_plan()
    if w.parameters is None:
        return _plan_lacks("parameters")
    g = _layout_figure(
        w, w.gradient_bytes_per_parameter, plan.GRADIENT_BYTES_PER_PARAMETER,
        "gradient_bytes_per_parameter",
    )  # fmt: skip
    if g.value is None:
        return g
    nodes = cluster.workload_supernodes
    if not nodes:
        return Value.unknown(Message("the cluster declares no supernodes"))
    per_acc = known(ctx.get("cluster", "scale_out_bandwidth_per_accelerator", cluster))
    counts = [known(ctx.get("supernode", "accelerators", node)) for node in nodes]
    step = known(_step_time(ctx, cluster, w))
    gradient = w.parameters * g.value
    k = len(nodes)
    # Each supernode's share of the all-reduce leaves through all of its NICs at once
    # (hierarchical: reduce-scatter inside the supernode, ring across supernodes per shard).
    link = min(counts) * per_acc
    sync = plan.allreduce_time(gradient, k, link)
    return Value(
        sync / step,
        "t_sync / t_step, t_sync = 2 · (k − 1) / k · G / B_sn",
        (
            ("k", float(k), "count"),
            ("G", gradient, "data_size"),
            ("B_sn", link, "bit_rate"),
            ("t_sync", sync, "time"),
            ("t_step", step, "time"),
        ),
    )


@quantity(
    "cluster",
    "data_read_rate",
    "data_rate",
    "Storage read rate the training data pipeline needs",
    reads=(),
)
def data_read_rate(ctx: Context, cluster: ResolvedCluster) -> Value:
    w = _workload(cluster)
    if w is None:
        return _no_plan()
    if w.data_read_rate is not None:
        return Value(w.data_read_rate, "R_data", (("R_data", w.data_read_rate, "data_rate"),))
    if w.bytes_per_token is None:
        return _plan_lacks("data_read_rate", "bytes_per_token")
    if w.parameters is None:
        return _plan_lacks("parameters")
    rate = known(_sustained(ctx, cluster))
    tokens = plan.token_rate(w.parameters, rate)
    return Value(
        tokens * w.bytes_per_token,
        "Σ n · P · MFU / (6 · N) · b_token",
        (
            ("Σ n · P · MFU", rate, "computation_rate"),
            ("N", w.parameters, "count"),
            ("b_token", w.bytes_per_token, "count"),
        ),
    )


# --- commissioning -----------------------------------------------------------------------


@quantity(
    "commissioning_item",
    "missing_evidence",
    "count",
    "Parts of the item's record missing: the record itself, or its date and reference",
    reads=(),
)
def missing_evidence(ctx: Context, item: CommissioningItem) -> Value:
    e = item.evidence
    if e is None:
        return Value(1.0, Message("no record of this item"))
    absent = [name for name in ("date", "reference") if getattr(e, name) is None]
    if not absent:
        return Value(0.0, Message("dated and referenced"))
    return Value(float(len(absent)), Message("record without %(fields)s", fields=Join(absent)))


@quantity(
    "commissioning_item", "has_date", "boolean", "True when the item's record has a date", reads=()
)
def has_date(ctx: Context, item: CommissioningItem) -> Value:
    return Value(float(item.evidence is not None and item.evidence.date is not None))


@quantity(
    "commissioning_item",
    "evidence_age",
    "time",
    "Age of the item's record on the report date",
    reads=(),
)
def evidence_age(ctx: Context, item: CommissioningItem) -> Value:
    if item.evidence is None or item.evidence.date is None:
        return Value.unknown(Message("the item has no dated record"))
    if ctx.as_of is None:
        return Value.unknown(Message("the report date is unknown (give --generated-at)"))
    days = (ctx.as_of - item.evidence.date).days
    return Value(
        days * plan.SECONDS_PER_DAY,
        f"{ctx.as_of.isoformat()} − {item.evidence.date.isoformat()}",
    )
