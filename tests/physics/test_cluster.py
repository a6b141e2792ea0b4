"""Cluster planning arithmetic, worked by hand (facility.physics.cluster).

Published figures used: GB200/GB300 NVL72 = 72 GPUs per NVLink domain; NVIDIA quotes 360 PFLOPS
FP16/BF16 per GB200 NVL72 with sparsity, i.e. 180 PFLOPS dense = 2.5 PFLOP/s per GPU;
ConnectX-7 400 Gb/s and ConnectX-8 800 Gb/s per GPU (docs/references.md#nvidia-dgx-gb200-user-guide,
docs/references.md#nvidia-nvl72-enterprise-ra).
"""

from __future__ import annotations

import pytest

from facility.physics import cluster as plan

DAY = 86_400.0


def test_seed_example_two_supernodes_for_thirty_days() -> None:
    # Issue 7 seed: C = 5×10²² FLOP; a supernode of 32 accelerators at 1 PFLOP/s dense BF16;
    # MFU 50 %.
    #   per supernode: 32 × 1e15 FLOP/s × 0.5 = 1.6e16 FLOP/s
    #   per supernode-day: 1.6e16 × 86,400 s = 1.3824e21 FLOP
    #   supernode-days: 5e22 / 1.3824e21 = 36.17
    #   for 30 days: 36.17 / 30 = 1.206 → ⌈1.206⌉ = 2 supernodes
    assert plan.sustained_compute_rate(32 * 1e15, 0.5) * DAY == pytest.approx(1.3824e21)
    assert plan.training_time(5e22, 32 * 1e15, 0.5) / DAY == pytest.approx(36.169, abs=1e-3)
    assert plan.supernodes_needed(5e22, 32 * 1e15, 0.5, 30 * DAY) == 2
    #   on 2 supernodes: 5e22 / (2 × 1.6e16) = 1.5625e6 s = 18.08 d ≤ 30 d
    assert plan.training_time(5e22, 2 * 32 * 1e15, 0.5) / DAY == pytest.approx(18.084, abs=1e-3)


def test_an_exact_fit_does_not_ask_for_one_more_supernode() -> None:
    # 4.1472e22 FLOP is exactly 30 supernode-days of 1.3824e21: 1 supernode, not 2
    assert plan.supernodes_needed(4.1472e22, 32e15, 0.5, 30 * DAY) == 1


def test_training_compute_is_six_n_d() -> None:
    # Kaplan et al. 2020 §2.1: C = 6 · N · D; 70e9 parameters on 2e12 tokens:
    #   6 × 70e9 × 2e12 = 8.4e23 FLOP
    assert plan.training_compute(70e9, 2e12) == pytest.approx(8.4e23)


def test_nvl72_rack_peak_and_a_70b_run() -> None:
    # 8 GB300 NVL72 racks: 8 × 72 × 2.5e15 = 1.44e18 FLOP/s peak; MFU 40 % → 5.76e17 FLOP/s;
    #   8.4e23 / 5.76e17 = 1.4583e6 s = 16.88 d
    assert plan.training_time(8.4e23, 8 * 72 * 2.5e15, 0.4) / DAY == pytest.approx(16.879, abs=1e-3)
    #   for 14 days, one rack at 72 × 2.5e15 = 1.8e17: 8.4e23 / (1.8e17 × 0.4 × 1.2096e6 s)
    #   = 8.4e23 / 8.709e22 = 9.645 → 10 racks
    assert plan.supernodes_needed(8.4e23, 72 * 2.5e15, 0.4, 14 * DAY) == 10


def test_checkpoint_of_a_70b_model_with_mixed_precision_adam() -> None:
    # BF16 weights 2 + FP32 master 4 + Adam m 4 + v 4 = 14 B per parameter (ZeRO's 16 less the
    # 2 B of BF16 gradients, which a checkpoint does not hold): 70e9 × 14 = 9.8e11 B = 980 GB
    b = plan.CHECKPOINT_BYTES_PER_PARAMETER["bf16_adam"]
    assert b == 14.0
    size = plan.checkpoint_size(70e9, b)
    assert size == pytest.approx(9.8e11)
    # written at 50 GB/s: 9.8e11 / 5e10 = 19.6 s; of a 3 h interval: 19.6 / 10,800 = 0.18 %
    assert plan.transfer_time(size, 50e9) == pytest.approx(19.6)
    assert plan.transfer_time(size, 50e9) / (3 * 3600) == pytest.approx(0.0018148, rel=1e-4)


def test_ring_allreduce_sends_two_n_minus_one_over_n() -> None:
    # Patarasuk and Yuan 2009: 2 · (p − 1) / p · G per participant
    #   p = 8, G = 140 GB: 2 × 7 / 8 × 1.4e11 = 2.45e11 B; p = 1: nothing; p = 2: G
    assert plan.ring_allreduce_bytes(1.4e11, 8) == pytest.approx(2.45e11)
    assert plan.ring_allreduce_bytes(1.4e11, 1) == 0.0
    assert plan.ring_allreduce_bytes(1.4e11, 2) == pytest.approx(1.4e11)


def test_gradient_allreduce_across_eight_nvl72_racks() -> None:
    # G = 70e9 × 2 B (BF16 gradients) = 1.4e11 B; k = 8 racks; each rack's 72 ConnectX-8 at
    # 800 Gb/s = 57.6 Tb/s = 7.2e12 B/s: 2.45e11 / 7.2e12 = 0.03403 s
    assert plan.allreduce_time(1.4e11, 8, 72 * 800e9 / 8) == pytest.approx(0.034028, rel=1e-4)


def test_step_time_and_token_rate() -> None:
    # 70e9 parameters, 16e6 tokens per step, 5.76e17 FLOP/s sustained:
    #   t = 6 × 70e9 × 16e6 / 5.76e17 = 6.72e18 / 5.76e17 = 11.667 s
    #   tokens/s = 5.76e17 / (6 × 70e9) = 1.3714e6
    assert plan.step_time(16e6, 70e9, 5.76e17) == pytest.approx(11.6667, rel=1e-4)
    assert plan.token_rate(70e9, 5.76e17) == pytest.approx(1.37143e6, rel=1e-4)


def test_a_parallel_group_stays_within_its_supernode_only_when_it_divides_it() -> None:
    # A group of g accelerators in a supernode of n: whole when g ≤ n and n mod g = 0.
    #   NVL72, TP 8:   72 mod 8 = 0                    → within
    #   NVL72, TP 16:  72 mod 16 = 8 (4 groups + 8 left, the 5th straddles two racks) → split
    #   NVL72, TP 72:  72 mod 72 = 0                   → within
    #   NVL72, EP 96:  96 > 72                         → split
    #   CM384, EP 48:  384 mod 48 = 0 (8 groups)       → within
    #   CM384, EP 320: 384 mod 320 = 64                → split
    assert plan.group_straddles(8, 72) is False
    assert plan.group_straddles(16, 72) is True
    assert plan.group_straddles(72, 72) is False
    assert plan.group_straddles(96, 72) is True
    assert plan.group_straddles(48, 384) is False
    assert plan.group_straddles(320, 384) is True
