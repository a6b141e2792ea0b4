"""The utilisation charts say which failure their hatched bars show, and the report names the
worst single failure of the analysis (facility.report.worst_failure) with its element.

Hall B3's single-failure analysis, worked by hand from examples/hall-b3.yaml:

- side A or B of a row-A rack lost (16 scenarios): the rack's 155 kW peak at power factor
  0.95 is 155 / 0.95 = 163.2 kVA, on the other side's 4 PDUs: 40.8 kVA each. A PDU of
  3 × 415 V × 63 A carries √3 × 415 V × 63 A × 0.8 = 36.23 kVA continuously, so all 4 fail
  PWR-002 (error): 4 new failures, 4 at error severity, highest utilisation
  40.8 / 36.23 = 112.6 %;
- a row-B rack side lost: 38 kW / 0.95 = 40.0 kVA on one 80 A PDU (√3 × 415 × 80 × 0.8 =
  46.0 kVA): 87.0 %, nothing newly fails;
- CDU-A1 or CDU-A2 out: TCS-A's flow on one XDU1350 fails LIQ-003 (error): 1 new failure;
- CDU-B1 out: TCS-B has no CDU left: LIQ-001 (heat) and LIQ-009 (head) fail: 2 new failures,
  no capacity left (utilisation infinite);
- facility water FW-1 lost: every CDU (CDU-A1, CDU-A2, CDU-B1) loses its heat sink, so both
  loops fail LIQ-001 and LIQ-009: 4 new failures, 4 at error severity, no capacity left;
- a CDU pump or a CRAH lost: nothing newly fails (3 pumps for 2 required; 2 CRAHs of 100 kW
  carry the room's 165.6 kW: 82.8 %).

Most new error failures: 4, shared by the 16 row-A rack sides and FW-1; most new failures:
4 for all of them; deepest cut: FW-1 leaves no capacity (infinite) against 112.6 % for a rack
side. The worst single failure is facility water FW-1 lost.
"""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from types import SimpleNamespace
from typing import Any

from facility.analysis.failures import FailureReport, Scenario, ScenarioResult
from facility.messages import Message
from facility.report.charts import utilisation_svg
from facility.report.context import ReportInput
from facility.report.html import render_html
from facility.report.markdown import render_markdown
from facility.report.view import build_view
from facility.report.worst_failure import worst_single_failure

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def _legend(svg: ET.Element) -> list[str]:
    return [(t.text or "") for t in svg.iter(f"{SVG}text") if t.get("class") == "legend"]


def test_no_chart_calls_its_bars_the_worst_single_failure(hall_b3: ReportInput) -> None:
    html = render_html(hall_b3)
    charts = html[html.index('<section id="key-figures"') : html.index('<figure id="floor-plan"')]
    assert "worst single failure" not in charts.lower().replace(
        "worst single failure of the analysis", ""
    )
    markdown = render_markdown(hall_b3)
    assert "After the worst single failure" not in markdown
    assert "| After a single failure |" in markdown


def test_each_chart_legend_names_the_failures_its_bars_assume(hall_b3: ReportInput) -> None:
    charts = {c.key: c for c in build_view(hall_b3).key_figures.charts}
    power = _legend(_parse(str(utilisation_svg(charts["power"]))))
    cooling = _legend(_parse(str(utilisation_svg(charts["cooling"]))))
    floor = _legend(_parse(str(utilisation_svg(charts["floor"]))))
    # Hall B3 has no source or busway: only the PDU and rack-side bars, both "other side lost"
    assert power == ["normal operation", "single failure each check assumes: other side lost"]
    # LIQ-002 / LIQ-004 assume the largest CDU out, AIR-002 the room's redundant units out
    assert cooling == [
        "normal operation",
        "single failure each check assumes: largest CDU out; redundant units out",
    ]
    assert floor == ["normal operation"]  # no floor check assumes a failure: no hatch legend


def test_each_hatched_bar_tooltip_names_its_own_failure(hall_b3: ReportInput) -> None:
    cooling = next(c for c in build_view(hall_b3).key_figures.charts if c.key == "cooling")
    svg = _parse(str(utilisation_svg(cooling)))
    tips = [t.text or "" for t in svg.iter(f"{SVG}title")]
    assert any(
        t.startswith("TCS-A, heat to liquid vs CDU capacity (largest CDU out): ") for t in tips
    )
    assert any(
        t.startswith("Room B3, heat to room air vs air units (redundant units out): ") for t in tips
    )
    assert not any("worst" in t for t in tips)


def test_hall_b3_worst_single_failure_is_facility_water_fw1(hall_b3: ReportInput) -> None:
    worst = worst_single_failure(hall_b3.failures)
    assert worst is not None
    assert (worst.scenario, worst.element) == ("facility_water:FW-1", "FW-1")
    assert (worst.new_failures, worst.new_errors) == (4, 4)
    assert worst.percent == "no capacity"
    assert worst.detail == "LIQ-001 TCS-A"  # of the equal infinite cuts, the first by id
    assert worst.description == "facility water FW-1 lost"
    view = build_view(hall_b3)
    assert view.key_figures.worst_failure == worst
    html = render_html(hall_b3)
    note = html[html.index('id="worst-failure"') :]
    note = note[: note.index("</p>")]
    assert "facility water FW-1 lost (element FW-1)" in note
    assert "4 checks that pass in normal operation fail (4 at error severity)" in note


def test_no_worst_failure_without_the_analysis(hall_b3: ReportInput) -> None:
    report = dataclasses.replace(hall_b3, failures=None)
    assert worst_single_failure(None) is None
    assert build_view(report).key_figures.worst_failure is None
    assert 'id="worst-failure"' not in render_html(report)


def _result(element: str, severities: list[str], utilisation: float | None) -> ScenarioResult:
    scenario = Scenario("cdu", element, Message("%(cdu)s out of service", cdu=element))
    new: list[Any] = [SimpleNamespace(severity=s) for s in severities]
    worst: Any = (
        None if utilisation is None else SimpleNamespace(rule="LIQ-001", entity_id="TCS-" + element)
    )
    return ScenarioResult(scenario, [], new, worst, utilisation)


def test_errors_first_then_count_then_depth_then_order() -> None:
    # one new error beats three new warnings, however deep they cut
    a = _result("A", ["warning", "warning", "warning"], 9.0)
    b = _result("B", ["error"], 1.01)
    assert worst_single_failure(FailureReport([a, b])).element == "B"  # type: ignore[union-attr]
    # equal errors: more new failures win
    c = _result("C", ["error", "info"], 1.01)
    assert worst_single_failure(FailureReport([b, c])).element == "C"  # type: ignore[union-attr]
    # equal counts: the deeper cut wins (110 % over 105 %)
    d = _result("D", ["error"], 1.10)
    e = _result("E", ["error"], 1.05)
    worst = worst_single_failure(FailureReport([e, d]))
    assert worst is not None and worst.element == "D" and worst.percent == "110.0 %"
    # all equal: the first in the analysis's order
    assert worst_single_failure(FailureReport([e, _result("F", ["error"], 1.05)])).element == "E"  # type: ignore[union-attr]


def test_no_worst_failure_when_no_failure_moves_a_check() -> None:
    assert worst_single_failure(FailureReport([_result("A", [], None)])) is None
    # moved but nothing fails: still named, as the deepest cut (82.8 %)
    worst = worst_single_failure(FailureReport([_result("A", [], 0.828)]))
    assert worst is not None and worst.new_failures == 0 and worst.percent == "82.8 %"
