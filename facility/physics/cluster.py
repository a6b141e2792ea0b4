"""What a cluster of supernodes can do: training time, checkpoints, gradient synchronisation.

Pure functions on canonical SI floats (facility.units): computation in FLOP, rates in FLOP/s,
data in bytes (B), bandwidths in B/s, times in s. They are first-order planning estimates —
bandwidth-bound transfers, no latency or overlap terms — as an auditor would check a plan on
paper; the docstrings say what each leaves out.

References:
  [K20] Kaplan et al., "Scaling Laws for Neural Language Models", arXiv:2001.08361 (2020), §2.1:
        training computation C ≈ 6·N·D (2·N·D forward, 4·N·D backward).
  [C22] Chowdhery et al., "PaLM", arXiv:2204.02311 (2022), §4.1 and App. B: model FLOP
        utilisation (MFU) = observed tokens/s × 6·N / peak FLOP/s.
  [Z20] Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter
        Models", SC20, §3.1: mixed-precision Adam keeps 2 + 2 + 12 = 16 bytes per parameter
        (FP16/BF16 weights and gradients, FP32 master weights, momentum and variance).
  [N21] Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters Using
        Megatron-LM", SC21, arXiv:2104.04473, §3.3 (takeaway #1): tensor model parallelism up
        to the degree g of a g-GPU server, its all-reduces on the fast in-server links.
  [PY09] Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
        workstations", J. Parallel Distrib. Comput. 69 (2009): the ring all-reduce sends
        2·(p−1)/p of the data from each of p participants, which is optimal in bandwidth.
"""

from __future__ import annotations

import math

SECONDS_PER_DAY = 86_400.0

# [K20] §2.1: forward pass 2·N FLOP per token, backward pass twice that.
TRAINING_FLOP_PER_PARAMETER_TOKEN = 6.0

# Bytes a checkpoint holds per parameter, by what it saves. Gradients are not saved: they are
# recomputed after a restart, which is why these are ZeRO's [Z20] 16 bytes less the 2 of the
# BF16 gradients for 'bf16_adam'.
CHECKPOINT_BYTES_PER_PARAMETER = {
    "bf16_adam": 14.0,  # BF16 weights 2 + FP32 master weights 4 + Adam momentum 4 + variance 4
    "fp32_adam": 12.0,  # FP32 weights 4 + Adam momentum 4 + variance 4
    "bf16_weights": 2.0,  # weights only (inference or a weights-only save)
}
# Bytes of gradient per parameter that the data-parallel all-reduce moves.
GRADIENT_BYTES_PER_PARAMETER = {"bf16_adam": 2.0, "fp32_adam": 4.0, "bf16_weights": 2.0}

# Whole counts within this relative distance of an integer are that integer (1.0000000002 → 1):
# float noise in a ratio must not ask for one more supernode.
_WHOLE = 1e-9


def training_compute(parameters: float, tokens: float) -> float:
    """Computation to train a dense transformer [FLOP]: C = 6 · N · D.

    N [-] parameters, D [-] training tokens. Valid for dense decoder models where the
    parameter-matmul FLOPs dominate (attention over long contexts adds to it) [K20].
    """
    return TRAINING_FLOP_PER_PARAMETER_TOKEN * parameters * tokens


def sustained_compute_rate(peak_rate: float, mfu: float) -> float:
    """Useful computation rate [FLOP/s]: R = Σ(n · P) · MFU.

    peak_rate [FLOP/s] Σ of accelerators × peak dense BF16 rate per accelerator;
    mfu [-] model FLOP utilisation, the share of peak that does model FLOPs [C22].
    """
    return peak_rate * mfu


def training_time(total_compute: float, peak_rate: float, mfu: float) -> float:
    """Wall time of a training run [s]: t = C / (Σ(n · P) · MFU).

    total_compute [FLOP], peak_rate [FLOP/s] of the accelerators that run it, mfu [-].
    Assumes the run keeps that utilisation throughout (restarts and checkpoint stalls are
    in the MFU or on top of t).
    """
    return total_compute / sustained_compute_rate(peak_rate, mfu)


def supernodes_needed(
    total_compute: float, supernode_peak_rate: float, mfu: float, target_time: float
) -> int:
    """Supernodes that finish a training run within a target time [-]:
    k = ⌈C / (P_sn · MFU · T)⌉.

    total_compute [FLOP]; supernode_peak_rate [FLOP/s] peak of one supernode (accelerators ×
    peak per accelerator); mfu [-]; target_time [s]. Assumes MFU holds as supernodes are added
    (weak scaling; in practice it falls slowly with scale).
    """
    exact = total_compute / (supernode_peak_rate * mfu * target_time)
    nearest = round(exact)
    if nearest >= 1 and abs(exact - nearest) <= _WHOLE * nearest:
        return int(nearest)
    return max(1, math.ceil(exact))


def checkpoint_size(parameters: float, bytes_per_parameter: float) -> float:
    """Size of a full training checkpoint [B]: S = N · b (b from CHECKPOINT_BYTES_PER_PARAMETER)."""
    return parameters * bytes_per_parameter


def transfer_time(size: float, bandwidth: float) -> float:
    """Time to move ``size`` [B] at ``bandwidth`` [B/s] [s]: t = S / B (bandwidth-bound)."""
    return size / bandwidth


def ring_allreduce_bytes(data: float, participants: int) -> float:
    """Bytes each participant sends in a ring all-reduce [B]: 2 · (p − 1) / p · G [PY09].

    data [B] G, the buffer reduced (the gradients); participants [-] p ≥ 1. The ring sends
    (p − 1)/p · G in its reduce-scatter and the same again in its all-gather; p = 1 sends
    nothing.
    """
    return 2.0 * (participants - 1) / participants * data


def allreduce_time(data: float, participants: int, bandwidth: float) -> float:
    """Bandwidth term of a ring all-reduce [s]: t = 2 · (p − 1) / p · G / B [PY09].

    data [B] G; participants [-] p; bandwidth [B/s] B of each participant's link. Leaves out
    the latency term (2·(p − 1)·α) and any overlap with computation, so it is the time the
    gradients need on the wire, not the exposed stall.
    """
    return ring_allreduce_bytes(data, participants) / bandwidth


def step_time(tokens_per_step: float, parameters: float, sustained_rate: float) -> float:
    """Time of one training step [s]: t = 6 · N · B_tok / R.

    tokens_per_step [-] B_tok global batch in tokens; parameters [-] N; sustained_rate
    [FLOP/s] R = Σ(n · P) · MFU of the accelerators running the step [K20, C22].
    """
    return TRAINING_FLOP_PER_PARAMETER_TOKEN * parameters * tokens_per_step / sustained_rate


def token_rate(parameters: float, sustained_rate: float) -> float:
    """Training throughput [tokens/s]: R / (6 · N) [C22]."""
    return sustained_rate / (TRAINING_FLOP_PER_PARAMETER_TOKEN * parameters)


def group_straddles(group_size: float, accelerators: float) -> bool:
    """Whether a parallel group would cross a supernode's boundary [-].

    group_size [-] accelerators of one tensor- or expert-parallel group, g; accelerators [-] of
    the supernode, n. The supernode's accelerators are cut into consecutive groups (ranks in
    order, as Megatron-style launchers place them): every group stays within the supernode
    only when g ≤ n and n is a whole multiple of g (n mod g = 0); otherwise a group is larger
    than the supernode or one straddles two supernodes and its collectives cross the
    scale-out network, an order of magnitude slower than the scale-up fabric [N21].
    """
    if group_size > accelerators:
        return True
    return accelerators % group_size != 0
