"""The commented starter site written by ``facility init``.

Its first line points editors that use yaml-language-server (VS Code's YAML extension, Neovim,
Helix, …) at the site file's JSON Schema in a file beside it, which ``facility schema``
writes: completion, hover text and validation of every field while typing.
"""

from facility.model.document import SCHEMA_FILE

_EDITOR_LINES = (
    f"# yaml-language-server: $schema=./{SCHEMA_FILE}\n"
    f"# (editor completion and checking: run `facility schema > {SCHEMA_FILE}` in this directory)\n"
)

STARTER_SITE = (
    _EDITOR_LINES
    + """\
# A starter site for `facility check`. Every physical number carries its unit:
# "132 kW", "450000 BTU/h", "1200 L/min", "317 gpm", "2.5 bar", "36 psi", "32 degC",
# "90 degF", "1500 kg", "3100 lb", "12 kPa", "250 psf". Temperature rises are differences:
# "10 K" or "18 delta_degF". Fractions: "90 %". Run `facility schema` for every field.
schema_version: 1
site:
  name: My hall
  design_intent: Tier III

conventions:
  continuous_load_derating: 80 %     # breakers carry 80 % of their rating continuously

rooms:
  - id: hall-1
    redundant_air_units: 1           # the room must ride through the loss of one air unit

floor_zones:
  - id: zone-1
    construction: slab               # or raised_floor (then give concentrated_load_rating)
    uniform_load_rating: 25 kPa       # a filled NVL72-class rack puts ~20 kPa on its footprint
    area: 100 m**2

rack_types:
  - id: nvl72
    catalog: gb300-nvl72             # start from the catalog (`facility catalog gb300-nvl72`)
    design_coolant_rise: 10 K        # ...and set or override what your vendor states
    power_inputs_per_side: 5         # power supplies per side: one on each of the side's 5 PDUs

power:
  pdu_types:
    - id: pdu-63a
      catalog: pdu-3p-415v-63a       # 415 V line-to-line, three-phase, 63 A

cooling:
  facility_water:
    - id: fw-1
      ashrae_class: W32
      supply_temperature: 32 degC
      primary_rise: 8 K
      available_flow: 3000 L/min
      differential_pressure: 1.0 bar
  cdus:
    - {id: cdu-1, catalog: vertiv-xdu1350, facility_water: fw-1, approach: 4 K,
       pumps: {installed: 3, required: 2}, primary_pressure_drop: 0.7 bar}
    - {id: cdu-2, catalog: vertiv-xdu1350, facility_water: fw-1, approach: 4 K,
       pumps: {installed: 3, required: 2}, primary_pressure_drop: 0.7 bar}
  tcs_loops:
    - id: tcs-1
      coolant: {fluid: propylene_glycol, volume_fraction: 25 %}   # PG25
      cdus: [cdu-1, cdu-2]
      piping_pressure_drop: 0.4 bar
  air_units:
    - {id: crah, count: 3, sensible_capacity: 100 kW}             # crah-1 … crah-3

rows:
  - id: row-1
    racks: {prefix: R, count: 4}     # R01 … R04
    type: nvl72
    zone: zone-1
    loop: tcs-1
    pdus:
      A: {type: pdu-63a, count: 5}   # R01-A1 … R01-A5: 5 × 36.2 kVA ≥ 155 kW / 0.95 on one side
      B: {type: pdu-63a, count: 5}
"""
)
