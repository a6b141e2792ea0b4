"""A figure's JSON value does not depend on what was formatted before it."""

from __future__ import annotations

from facility.report.findings_view import quantity_json


def test_an_int_and_a_float_of_one_value_give_the_same_json_whatever_came_first() -> None:
    # 8 == 8.0 and hash alike: a cache keyed on the value alone would hand back whichever type
    # it saw first ("8" in one process, "8.0" in another: --jobs 2 differed from --jobs 1)
    first, second = quantity_json(8, "count"), quantity_json(8.0, "count")
    assert first == second == {"value": 8.0, "unit": "", "text": "8"}
    assert type(first["value"]) is float and type(second["value"]) is float
    assert type(quantity_json(7, "power")["value"]) is float
