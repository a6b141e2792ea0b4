"""An air unit names the facility water its coil rejects into; an unknown one is bad input."""

from ._site import problems


def test_an_air_unit_on_an_unknown_facility_water_is_reported_with_its_position(tmp_path):
    text = """\
        site: {name: T}
        rooms: [{id: R1}]
        cooling:
          facility_water: [{id: FW-1}]
          air_units:
            - {id: CRAH, room: R1, sensible_capacity: 70 kW, facility_water: FW-9}
        """
    [(line, column, field, message)] = problems(tmp_path, text)
    assert (line, column, field) == (6, 54, "cooling.air_units[0].facility_water")
    assert message == "unknown facility water loop 'FW-9' (known: FW-1); did you mean 'FW-1'?"
