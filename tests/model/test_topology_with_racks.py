"""A site with racks appended (headroom's copies) has the relations build_topology would build
for it: the site's with the racks appended, mapping by mapping and in the same order."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest

from facility.analysis.headroom import _Grower
from facility.engine.evaluate import audit
from facility.engine.rules import load_rules
from facility.model import overlay
from facility.model.load import load_site
from facility.model.site import Site
from facility.model.topology import Topology, build_topology

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
from generate_campus import write_campus  # noqa: E402


def _ordered(value: Any) -> Any:
    """A mapping as its items in order (dict equality ignores the order)."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    return value


def _same(a: Topology, b: Topology) -> None:
    for field in dataclasses.fields(Topology):
        assert _ordered(getattr(a, field.name)) == _ordered(getattr(b, field.name)), field.name


def _site(name: str, tmp_path: Path) -> Site:
    if name == "campus":
        path = tmp_path / "campus.yaml"
        write_campus(120, path, loads=True)
        return load_site(path)
    return load_site(ROOT / name)


@pytest.mark.parametrize(
    "name",
    ["campus", "examples/hall-b3.yaml", "examples/hall-b3-power.yaml", "examples/small-ready.yaml"],
)
@pytest.mark.parametrize("n", [1, 3, 17])
def test_appended_racks_have_the_relations_a_build_gives(name: str, n: int, tmp_path: Path) -> None:
    site = _site(name, tmp_path)
    ruleset = load_rules(profile="tier-iii")
    for template in (site.racks[0], site.racks[-1]):
        grower = _Grower(site, ruleset, template, template.type, audit(site, ruleset))
        added = grower.new_racks(n)
        grown = overlay.with_racks(site, added)
        assert grown._topology is not None  # appended, not built on first use
        plain = dataclasses.replace(grown)  # the same site, its relations not yet built
        assert plain._topology is None
        _same(grown.topology, build_topology(plain))


def test_a_rack_on_a_row_or_side_the_site_has_not_is_built_anew(tmp_path: Path) -> None:
    site = _site("examples/hall-b3.yaml", tmp_path)
    template = site.racks[0]
    row = dataclasses.replace(template, id="new-1", row="ROW-NEW", pdus={})
    side_pdu = dataclasses.replace(template.pdus["A"][0], id="new-2-C1", rack="new-2", side="C")
    side = dataclasses.replace(template, id="new-2", pdus={"C": [side_pdu]})
    taken = dataclasses.replace(template, pdus={})  # an id the site has
    for added in ([row], [side], [taken]):
        grown = overlay.with_racks(site, added)
        assert grown._topology is None
        assert site.topology.with_racks(grown, added) is None
