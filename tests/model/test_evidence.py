"""Commissioning evidence with content: the single-rack thermal test's measured figures and the
monitoring layers' metrics, as written (units, the tested rack, each layer's own metrics)."""

from __future__ import annotations

import pytest

from ._site import load, one_problem

SITE = """\
    site: {name: T}
    rack_types:
      - {id: t, cooling: liquid, nominal_power: 100 kW, max_chip_temperature: 185 degF}
    racks:
      - {id: r1, type: t}
    cluster:
      commissioning:
        single_rack_thermal_test:
          date: 2026-10-01
          reference: TT-1
          rack: %s
          rack_power: 341200 BTU/h
          flow: 50 gpm
          supply_temperature: 104 degF
          return_temperature: 49.6 degC
          max_chip_temperature: 78 degC
          throttle_events: 0
          duration: 240 min
        monitoring_card:
          metrics:
            - {metric: temperature, source: DCGM_FI_DEV_GPU_TEMP}
    """


def test_a_thermal_test_loads_in_canonical_units(tmp_path):
    site = load(tmp_path, SITE % "r1")
    assert site.cluster is not None
    test = site.cluster.thermal_test
    assert test is not None and test.id == "r1" and test.rack is site.racks[0]
    record = test.record
    assert record.rack_power == pytest.approx(341200 * 0.29307107)  # 99,995.9 W
    assert record.flow == pytest.approx(50 * 3.785411784e-3 / 60)  # 3.1545e-3 m³/s
    assert record.supply_temperature == pytest.approx(40.0)  # (104 − 32) × 5/9
    assert record.duration == 4 * 3600.0
    assert site.racks[0].type.figures.max_chip_temperature == pytest.approx(85.0)
    layers = [(layer.id, layer.evidence is not None) for layer in site.cluster.monitoring]
    assert layers == [("card", True), ("link", False), ("scheduler", False), ("training", False)]


def test_the_tested_rack_must_exist(tmp_path):
    _, _, field, message = one_problem(tmp_path, SITE % "r9")
    assert field == "cluster.commissioning.single_rack_thermal_test.rack"
    assert message == "unknown rack 'r9' (known: r1)"


def test_a_throttle_count_is_a_whole_number_not_a_truth_value(tmp_path):
    text = (SITE % "r1").replace("throttle_events: 0", "throttle_events: false")
    _, _, field, _ = one_problem(tmp_path, text)
    assert field == "cluster.commissioning.single_rack_thermal_test.throttle_events"


def test_a_metric_needs_its_source(tmp_path):
    text = (SITE % "r1").replace(", source: DCGM_FI_DEV_GPU_TEMP", "")
    _, _, field, _ = one_problem(tmp_path, text)
    assert field.startswith("cluster.commissioning.monitoring_card.metrics[0]")


def test_a_metric_of_another_layer_is_refused(tmp_path):
    text = (SITE % "r1").replace("metric: temperature", "metric: retransmits")
    _, _, field, message = one_problem(tmp_path, text)
    assert field.startswith("cluster.commissioning.monitoring_card.metrics[0].metric")
    assert "retransmits" in message and "temperature" in message


def test_a_metric_is_listed_once(tmp_path):
    text = (SITE % "r1").replace(
        "- {metric: temperature, source: DCGM_FI_DEV_GPU_TEMP}",
        "- {metric: temperature, source: DCGM_FI_DEV_GPU_TEMP}\n"
        "            - {metric: temperature, source: nvidia-smi}",
    )
    _, _, _, message = one_problem(tmp_path, text)
    assert message == "metric 'temperature' is listed twice"
