"""Layered site files (``extends:``): merging, where each value was written, and bad layers."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model.layers import MAX_DEPTH
from facility.model.load import load_site
from facility.model.source import InputError

from ._site import write

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

BASE = """\
site: {name: Base hall}
rack_types:
  - id: t1
    nominal_power: 100 kW
    peak_power: 120 kW
    filled_mass: 1400 kg
  - id: t2
    nominal_power: 30 kW
cooling:
  cdus:
    - id: CDU-1
      capacity: 600 kW
      rated_flow: 900 L/min
    - id: CDU-2
      capacity: 600 kW
  tcs_loops:
    - {id: L1, coolant: {fluid: water}, cdus: [CDU-1, CDU-2]}
racks:
  - {id: R1, type: t1, loop: L1}
  - {id: R2, type: t2}
waivers:
  - {rule: PWR-001, entity: R1, reason: base, owner: me, expires: 2030-01-01}
"""


def problems_of(path: Path) -> list[str]:
    with pytest.raises(InputError) as info:
        load_site(path)
    return [str(p) for p in info.value.problems]


# --- merging ------------------------------------------------------------------------------------


def test_overlay_merges_mappings_by_key_and_lists_by_id(tmp_path):
    write(tmp_path, BASE, "base.yaml")
    overlay = write(
        tmp_path,
        """\
        extends: base.yaml
        site: {location: Building C}
        rack_types:
          - id: t1
            peak_power: 130 kW      # changes one figure of t1
          - id: t3                  # a new type, appended
            nominal_power: 10 kW
        cooling:
          cdus:
            - {id: CDU-2, capacity: 800 kW}
        racks:
          - {id: R3, type: t3}
          - {id: R1, zone: null}
        waivers: []                 # a list without ids: replaced
        """,
        "site.yaml",
    )
    site = load_site(overlay)
    assert (site.info.name, site.info.location) == ("Base hall", "Building C")
    assert list(site.rack_types) == ["t1", "t2", "t3"]
    t1 = site.rack_types["t1"].figures
    assert (t1.nominal_power, t1.peak_power, t1.filled_mass) == (100_000, 130_000, 1400)
    assert site.cdus["CDU-1"].figures.capacity == 600_000
    assert site.cdus["CDU-2"].figures.capacity == 800_000
    assert [r.id for r in site.racks] == ["R1", "R2", "R3"]
    assert site.racks[0].loop == "L1"  # kept from the base
    assert site.waivers == []


def test_each_value_keeps_the_file_and_line_it_was_written_in(tmp_path):
    base = write(tmp_path, BASE, "base.yaml")
    overlay = write(
        tmp_path,
        "extends: base.yaml\nrack_types:\n  - id: t1\n    peak_power: 130 kW\n",
        "site.yaml",
    )
    site = load_site(overlay)
    t1 = site.rack_types["t1"]
    assert str(t1.location) == f"{base}:3:5"  # the type is defined in the base
    assert str(t1.provenance["nominal_power"].location) == f"{base}:4:5"
    assert str(t1.provenance["peak_power"].location) == f"{overlay}:4:5"
    assert str(site.where("rack", "R2")) == f"{base}:20:6"
    assert site.file == str(overlay)


def test_an_error_in_a_base_value_names_the_base_file_and_line(tmp_path):
    base = write(
        tmp_path, BASE.replace("filled_mass: 1400 kg", "filled_mass: 1400 kW"), "base.yaml"
    )
    overlay = write(tmp_path, "extends: base.yaml\nsite: {name: Hall}\n", "site.yaml")
    assert problems_of(overlay) == [
        f"{base}:6:5: rack_types[0].filled_mass: expected a mass like '1500 kg', got "
        "'1400 kW', which is a power"
    ]


def test_an_error_in_an_overlay_value_names_the_overlay_file_and_line(tmp_path):
    write(tmp_path, BASE, "base.yaml")
    overlay = write(
        tmp_path,
        "extends: base.yaml\ncooling:\n  cdus:\n    - {id: CDU-1, capacity: 600 kg}\n",
        "site.yaml",
    )
    assert problems_of(overlay) == [
        f"{overlay}:4:19: cooling.cdus[0].capacity: expected a power like '132 kW', got "
        "'600 kg', which is a mass"
    ]


def test_an_unknown_reference_in_the_overlay_is_located_in_the_overlay(tmp_path):
    write(tmp_path, BASE, "base.yaml")
    overlay = write(tmp_path, "extends: base.yaml\nracks:\n  - {id: R2, loop: L9}\n", "site.yaml")
    assert problems_of(overlay) == [
        f"{overlay}:3:14: racks[1].loop: unknown TCS loop 'L9' (known: L1); did you mean 'L1'?"
    ]


def test_a_duplicate_id_in_the_overlay_is_reported_where_the_overlay_repeats_it(tmp_path):
    base = write(tmp_path, BASE, "base.yaml")
    overlay = write(
        tmp_path,
        "extends: base.yaml\nracks:\n  - {id: R1, type: t2}\n  - {id: R1, type: t2}\n",
        "site.yaml",
    )
    assert problems_of(overlay) == [
        f"{overlay}:4:6: racks[2].id: duplicate id 'R1' (first defined at {base}:19:6)"
    ]


def test_several_bases_apply_in_order_then_the_file(tmp_path):
    write(tmp_path, "site: {name: One}\nconventions: {continuous_load_derating: 90 %}\n", "a.yaml")
    write(tmp_path, "site: {name: Two, location: Here}\n", "b.yaml")
    top = write(tmp_path, "extends: [a.yaml, b.yaml]\nsite: {notes: top}\n", "site.yaml")
    site = load_site(top)
    assert (site.info.name, site.info.location, site.info.notes) == ("Two", "Here", "top")
    assert site.conventions.continuous_load_derating == 0.9
    assert [Path(layer.file).name for layer in site.layers] == ["a.yaml", "b.yaml", "site.yaml"]


def test_bases_of_bases_and_paths_relative_to_the_extending_file(tmp_path):
    (tmp_path / "common").mkdir()
    write(tmp_path, "site: {name: Campus}\nrooms: [{id: R}]\n", "common/campus.yaml")
    write(tmp_path, "extends: campus.yaml\nrooms: [{id: R, name: Room}]\n", "common/hall.yaml")
    top = write(tmp_path, "extends: common/hall.yaml\n", "site.yaml")
    site = load_site(top)
    assert site.rooms["R"].name == "Room"
    assert [Path(layer.file).name for layer in site.layers] == [
        "campus.yaml",
        "hall.yaml",
        "site.yaml",
    ]


def test_layers_carry_the_sha256_of_every_file(tmp_path):
    base = write(tmp_path, BASE, "base.yaml")
    overlay = write(tmp_path, "extends: base.yaml\n", "site.yaml")
    site = load_site(overlay)
    digest = {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in (base, overlay)}
    assert [(layer.file, layer.sha256) for layer in site.layers] == [
        (str(base), digest[str(base)]),
        (str(overlay), digest[str(overlay)]),
    ]
    assert site.sha256 == digest[str(overlay)]  # the file given


def test_a_single_file_is_its_only_layer(tmp_path):
    path = write(tmp_path, "site: {name: T}\n")
    site = load_site(path)
    assert [(layer.file, layer.sha256) for layer in site.layers] == [(str(path), site.sha256)]


# --- bad layers -----------------------------------------------------------------------------------


def test_a_missing_base_is_reported_at_the_extends_line(tmp_path):
    top = write(tmp_path, "site: {name: T}\nextends: nowhere.yaml\n", "site.yaml")
    assert problems_of(top) == [
        f"{top}:2:1: extends: base file 'nowhere.yaml' not found ({tmp_path / 'nowhere.yaml'})"
    ]


def test_a_missing_base_in_a_list_is_reported_at_its_item(tmp_path):
    write(tmp_path, "site: {name: T}\n", "a.yaml")
    top = write(tmp_path, "extends:\n  - a.yaml\n  - b.yaml\n", "site.yaml")
    assert problems_of(top) == [
        f"{top}:3:5: extends[1]: base file 'b.yaml' not found ({tmp_path / 'b.yaml'})"
    ]


def test_a_cycle_is_reported_where_it_closes(tmp_path):
    a = write(tmp_path, "extends: b.yaml\nsite: {name: A}\n", "a.yaml")
    b = write(tmp_path, "site: {name: B}\nextends: a.yaml\n", "b.yaml")
    assert problems_of(a) == [
        f"{b}:2:1: extends: extending 'a.yaml' makes a cycle: a.yaml → b.yaml → a.yaml"
    ]


def test_a_file_extending_itself_is_a_cycle(tmp_path):
    a = write(tmp_path, "extends: ./a.yaml\nsite: {name: A}\n", "a.yaml")
    assert problems_of(a) == [
        f"{a}:1:1: extends: extending './a.yaml' makes a cycle: a.yaml → a.yaml"
    ]


def test_bases_nest_at_most_eight_deep(tmp_path):
    for n in range(MAX_DEPTH + 1):
        write(tmp_path, f"extends: b{n + 1}.yaml\n", f"b{n}.yaml")
    write(tmp_path, "site: {name: Deep}\n", f"b{MAX_DEPTH + 1}.yaml")
    # b0 is the file given; b1 … b8 are eight bases; b8 extending b9 is one too many.
    assert problems_of(tmp_path / "b0.yaml") == [
        f"{tmp_path / 'b8.yaml'}:1:1: extends: bases nest more than 8 files deep (at 'b9.yaml')"
    ]
    write(tmp_path, "site: {name: Deep enough}\n", f"b{MAX_DEPTH}.yaml")
    assert load_site(tmp_path / "b0.yaml").info.name == "Deep enough"


@pytest.mark.parametrize(
    ("value", "where", "message"),
    [
        ("42", "1:1: extends", "must be the path of a base file, or a list of paths"),
        ("[]", "1:1: extends", "must be the path of a base file, or a list of paths"),
        ("''", "1:1: extends", "must be the path of a base file, or a list of paths"),
        ("[a.yaml, {x: 1}]", "1:19: extends[1]", "must be the path of a base file"),
    ],
)
def test_an_extends_that_is_not_paths(tmp_path, value, where, message):
    write(tmp_path, "site: {name: A}\n", "a.yaml")
    top = write(tmp_path, f"extends: {value}\nsite: {{name: T}}\n", "site.yaml")
    assert problems_of(top) == [f"{top}:{where}: {message}"]


def test_a_base_with_bad_yaml_is_reported_in_the_base(tmp_path):
    base = write(tmp_path, "site: {name: B\n", "base.yaml")
    top = write(tmp_path, "extends: base.yaml\n", "site.yaml")
    found = problems_of(top)
    assert len(found) == 1 and found[0].startswith(f"{base}:2:1: invalid YAML:")


def test_a_base_that_is_not_a_mapping(tmp_path):
    base = write(tmp_path, "- just\n- a list\n", "base.yaml")
    top = write(tmp_path, "extends: base.yaml\n", "site.yaml")
    assert problems_of(top) == [f"{base}:1:1: a base file is a mapping, like a site file"]


# --- the bundled layered example ------------------------------------------------------------------


def test_hall_b3_split_into_base_and_cooling_overlay_gives_the_same_verdicts():
    rules = load_rules(profile="tier-iii")
    whole = audit(load_site(EXAMPLES / "hall-b3.yaml"), rules)
    layered_site = load_site(EXAMPLES / "layered" / "cooling.yaml")
    layered = audit(layered_site, rules)

    def verdicts(result):
        return sorted(
            (f.rule, f.entity_id, f.status, f.severity, str(f.observed), str(f.limit))
            for f in result.findings
        )

    assert layered.verdict == whole.verdict == "not-ready"
    assert verdicts(layered) == verdicts(whole)
    assert [Path(layer.file).name for layer in layered_site.layers] == [
        "hall-b3-base.yaml",
        "cooling.yaml",
    ]
    # Loops come from the overlay, racks from the base.
    assert layered_site.where("tcs_loop", "TCS-A").file.endswith("cooling.yaml")
    assert layered_site.where("rack", "A01").file.endswith("hall-b3-base.yaml")


def test_the_json_schema_accepts_extends():
    jsonschema = pytest.importorskip("jsonschema")
    from facility.model.document import json_schema

    schema = json_schema()
    validator = jsonschema.Draft202012Validator(schema)
    for value in ("base.yaml", ["a.yaml", "b.yaml"]):
        assert list(validator.iter_errors({"extends": value, "site": {"name": "T"}})) == []
    assert list(validator.iter_errors({"extends": 3, "site": {"name": "T"}}))
    json.dumps(schema)


def test_reports_sign_off_every_layer_with_its_sha256(tmp_path):
    from typer.testing import CliRunner

    from facility.cli import app

    site = EXAMPLES / "layered" / "cooling.yaml"
    out = tmp_path / "report.md"
    html = tmp_path / "report.html"
    args = ["check", str(site), "-o", str(out), "-o", str(html), "--generated-at", "2026-01-01"]
    assert CliRunner().invoke(app, args).exit_code == 1
    layers = load_site(site).layers
    lines = out.read_text(encoding="utf-8").splitlines()
    at = lines.index(
        "That file extends other files. Every file of the site, in the order applied, with its "
        "SHA-256:"
    )  # in the sign-off
    assert lines[at + 1 : at + 2 + len(layers)] == [
        "",
        *(f"- {layer.file}: `{layer.sha256}`" for layer in layers),
    ]
    text = html.read_text(encoding="utf-8")
    for layer in layers:
        assert f'<tr><td>{layer.file}</td><td class="signoff-hash">{layer.sha256}</td></tr>' in text


# --- what extends: may read (issue 14) ---------------------------------------------------------


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_base_outside_the_site_directory_is_refused_unless_allowed(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from facility.cli import app

    _write(tmp_path / "shared.yaml", "site: {name: shared}\n")
    site = _write(tmp_path / "halls" / "b3.yaml", "extends: ../shared.yaml\nsite: {name: B3}\n")
    refused = CliRunner().invoke(app, ["inventory", str(site)])
    assert refused.exit_code == 2
    assert "base '../shared.yaml' is outside the site file's directory" in refused.stderr
    allowed = CliRunner().invoke(app, ["--allow-outside-bases", "inventory", str(site)])
    assert allowed.exit_code == 0, allowed.output
    assert load_site(site, allow_outside_bases=True).info.name == "B3"


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_base_that_is_not_a_regular_file_is_refused_before_reading(tmp_path: Path, kind) -> None:
    import os

    base = tmp_path / "base.yaml"
    if kind == "fifo":
        os.mkfifo(base)  # reading it would block for ever
    else:
        base.mkdir()
    site = _write(tmp_path / "site.yaml", "extends: base.yaml\nsite: {name: S}\n")
    with pytest.raises(InputError) as error:
        load_site(site)
    word = "a FIFO" if kind == "fifo" else "a directory"
    assert f"base 'base.yaml' is {word}, not a file" in str(error.value)


def test_bases_that_extend_the_same_files_twice_over_are_read_once(
    tmp_path: Path, monkeypatch
) -> None:
    # f1 … f7 each extend the next file twice: 2^7 = 128 ways down to f8, which used to be
    # 128 reads and merges of it; each file is read once.
    import facility.model.layers as layers

    for n in range(1, 8):
        _write(tmp_path / f"f{n}.yaml", f"extends: [f{n + 1}.yaml, f{n + 1}.yaml]\nnotes{n}: x\n")
    _write(tmp_path / "f8.yaml", "site: {name: deep}\n")
    site = _write(tmp_path / "site.yaml", "extends: f1.yaml\nsite: {name: top}\n")
    reads: list[str] = []
    real = layers.read_document
    monkeypatch.setattr(layers, "read_document", lambda p: reads.append(str(p)) or real(p))
    data, _source, found = layers.apply_extends(
        site, {"extends": "f1.yaml", "site": {"name": "top"}}, layers.SourceMap(str(site)), ""
    )
    assert data["site"] == {"name": "top"} and all(f"notes{n}" in data for n in range(1, 8))
    assert sorted(Path(p).name for p in reads) == [f"f{n}.yaml" for n in range(1, 9)]
    assert len(found) == 9  # f8 … f1, then the site: each once
