"""Choosing what to import: sites by slug, name or id, several sites or a region's (one
directory of files), and within a site only one location's or one tenant's racks. Played by a
campus of two halls on 127.0.0.1 (``_servers.campus``); every error is one `error:` line,
exit 2, nothing written and no token shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.imports import netbox as netbox_import
from facility.imports.netbox_fetch import FetchError, fetch

from ._servers import FakeNetBox, Server, campus, serve

pytestmark = pytest.mark.fake_netbox  # a NetBox played over HTTP on 127.0.0.1

TOKEN = "nbt_testkey00005.secretSecretSecret0123456789abcdefghijklm"
runner = CliRunner()


@pytest.fixture(scope="module")
def hall() -> FakeNetBox:
    return campus(page=1000)


@pytest.fixture
def netbox(hall: FakeNetBox):
    with serve(hall) as box:
        yield box


def _invoke(box: Server, *args: str):
    return runner.invoke(
        app, ["import", "netbox", "--url", box.url, *args], env={"NETBOX_TOKEN": TOKEN}
    )


def _bad_input(result, *unwritten: Path) -> str:
    """The one error line of a refused import (exit 2, nothing written, no token shown)."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert TOKEN not in result.output and "secretSecret" not in result.output
    assert [line for line in result.output.splitlines() if line.startswith("error:")]
    for path in unwritten:
        assert not path.exists(), path
    return " ".join(result.output.split())


def _names(objects: list) -> list[str]:
    return sorted(o["name"] for o in objects)


# --- a site by slug, name or id ------------------------------------------------------------


@pytest.mark.parametrize("text", ["hall-b4", "Hall B4", "2"])
def test_a_site_by_slug_name_or_id(netbox: Server, text: str) -> None:
    snap = fetch(netbox.url, TOKEN, text)
    assert snap.site["slug"] == "hall-b4" and len(snap.racks) == 20
    assert {r["site"]["id"] for r in snap.racks} == {2}


def test_the_slug_is_tried_first_then_the_name_then_the_id(netbox: Server) -> None:
    fetch(netbox.url, TOKEN, "2")
    lookups = [p for p, _ in netbox.requests if p.startswith("/api/dcim/sites/")]
    assert [p.split("?")[1].split("&")[0] for p in lookups] == ["slug=2", "name=2", "id=2"]


def test_the_source_names_the_site_by_its_slug(netbox: Server, tmp_path: Path) -> None:
    out = tmp_path / "b4.yaml"
    result = _invoke(netbox, "--site", "Hall B4", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert f"NetBox 4.7.3 at {netbox.url}, site hall-b4." in out.read_text()


def test_an_unknown_site_lists_at_most_20_sites(tmp_path: Path) -> None:
    answers = FakeNetBox(page=1000)
    site = answers.lists["sites"][0]
    answers.lists["sites"] += [
        {**site, "id": 100 + i, "slug": f"s{i:02}", "name": f"Site {i}"} for i in range(24)
    ]
    out = tmp_path / "s.yaml"
    with serve(answers) as box:
        text = _bad_input(_invoke(box, "--site", "hall-x", "-o", str(out)), out)
    listed = ", ".join(["hall-b3 (Hall B3)"] + [f"s{i:02} (Site {i})" for i in range(19)])
    assert (
        f"error: NetBox at {box.url} has no site with slug, name or id 'hall-x' "
        f"(sites: {listed} and 5 more)"
    ) in text
    assert "nothing was written" in text


def test_a_slug_that_cannot_name_a_file_is_refused(tmp_path: Path) -> None:
    answers = FakeNetBox(page=1000)
    answers.lists["sites"][0]["name"] = "Hall"
    answers.lists["sites"][0]["slug"] = "../hall\nb3"
    out = tmp_path / "s.yaml"
    with serve(answers) as box:
        text = _bad_input(_invoke(box, "--site", "Hall", "-o", str(out)), out)
    assert (
        "answered /api/dcim/sites/ with something that is not NetBox's API (a slug that is not "
        "a NetBox slug: '../hall\\nb3')"
    ) in text


def test_no_site_and_no_region(netbox: Server, tmp_path: Path) -> None:
    out = tmp_path / "s.yaml"
    text = _bad_input(_invoke(netbox, "-o", str(out)), out)
    assert "error: give --site or --region: which NetBox sites to import" in text
    assert netbox.requests == []


# --- several sites: one directory ----------------------------------------------------------


def test_two_sites_are_written_to_a_directory(netbox: Server, tmp_path: Path) -> None:
    out = tmp_path / "sites" / "campus"  # made, with its parent
    result = _invoke(netbox, "--site", "hall-b3", "--site", "Hall B4", "-o", str(out))
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in out.iterdir())
    assert files == ["hall-b3.mapping.md", "hall-b3.yaml", "hall-b4.mapping.md", "hall-b4.yaml"]
    assert f"at {netbox.url}, site hall-b4." in (out / "hall-b4.yaml").read_text()
    assert "# NetBox import: " in (out / "hall-b3.mapping.md").read_text()
    assert f"wrote {out / 'hall-b3.yaml'}; " in result.output
    assert f"(mapping report: {out / 'hall-b4.mapping.md'})" in result.output
    for path in out.iterdir():
        assert TOKEN not in path.read_text()


def test_the_same_site_twice_is_one_site(netbox: Server, tmp_path: Path) -> None:
    out = tmp_path / "b3.yaml"
    result = _invoke(netbox, "--site", "hall-b3", "--site", "1", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.is_file()  # one site: -o is the file, as always


def test_one_site_into_an_existing_directory(netbox: Server, tmp_path: Path) -> None:
    result = _invoke(netbox, "--site", "hall-b3", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hall-b3.mapping.md", "hall-b3.yaml"]


def test_two_sites_need_a_directory(netbox: Server, tmp_path: Path) -> None:
    text = _bad_input(_invoke(netbox, "--site", "hall-b3", "--site", "hall-b4"))
    assert (
        "error: 2 sites are selected (hall-b3, hall-b4): give -o a directory for their files"
    ) in text
    existing = tmp_path / "campus.yaml"
    existing.write_text("mine\n")
    result = _invoke(netbox, "--site", "hall-b3", "--site", "hall-b4", "-o", str(existing))
    text = _bad_input(result)
    assert (
        f"2 sites are selected (hall-b3, hall-b4): -o {existing} must name a directory for "
        "their files, and it is not one"
    ) in text
    assert existing.read_text() == "mine\n"


def test_report_is_refused_with_a_directory(netbox: Server, tmp_path: Path) -> None:
    out, report = tmp_path / "campus", tmp_path / "mapping.md"
    args = ("--site", "hall-b3", "--site", "hall-b4", "-o", str(out), "--report", str(report))
    text = _bad_input(_invoke(netbox, *args), out, report)
    assert (
        f"error: --report names one file, and -o {out} is a directory: each site's mapping "
        "report is written there, as <site-slug>.mapping.md"
    ) in text


def test_a_site_that_fails_writes_nothing(tmp_path: Path) -> None:
    # Hall B4's first feed has a voltage NetBox never returns: found before anything is
    # written, so not even Hall B3's files or the directory exist.
    answers = campus(page=1000)
    feed = next(f for f in answers.lists["power-feeds"] if f["id"] > 1000)
    feed["voltage"] = "four hundred"
    out = tmp_path / "campus"
    with serve(answers) as box:
        result = _invoke(box, "--site", "hall-b3", "--site", "hall-b4", "-o", str(out))
    text = _bad_input(result, out)
    assert "error: NetBox returned a value the importer cannot read (site hall-b4): " in text


def test_a_file_that_cannot_be_written_writes_none(netbox: Server, tmp_path: Path) -> None:
    (tmp_path / "hall-b4.yaml").mkdir()  # in the way of Hall B4's site file
    result = _invoke(netbox, "--site", "hall-b3", "--site", "hall-b4", "-o", str(tmp_path))
    text = _bad_input(result, tmp_path / "hall-b3.yaml", tmp_path / "hall-b3.mapping.md")
    assert f"error: cannot write {tmp_path / 'hall-b4.yaml'}: " in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hall-b4.yaml"]


def test_a_directory_that_cannot_be_made(netbox: Server, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" / "campus"
    result = _invoke(netbox, "--site", "hall-b3", "--site", "hall-b4", "-o", str(out))
    assert f"error: cannot create the directory {out}: Not a directory" in _bad_input(result)


def test_slugs_that_differ_only_in_case_are_refused(tmp_path: Path) -> None:
    # NetBox's slugs are unique as written: Hall-B3 and hall-b3 would share a file where the
    # file system ignores case.
    answers = campus(page=1000)
    answers.lists["sites"][1]["slug"] = "Hall-B3"
    out = tmp_path / "campus"
    with serve(answers) as box:
        result = _invoke(box, "--site", "hall-b3", "--site", "2", "-o", str(out))
    assert (
        f"error: the sites hall-b3 and Hall-B3 would be written to the same files in {out} "
        "(their slugs differ only in case)"
    ) in _bad_input(result, out)


# --- regions -------------------------------------------------------------------------------


def test_a_region_selects_its_sites_and_its_child_regions_sites(
    netbox: Server, tmp_path: Path
) -> None:
    out = tmp_path / "emea"
    result = _invoke(netbox, "--region", "EMEA", "--site", "hall-b4", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.glob("*.yaml")) == ["hall-b3.yaml", "hall-b4.yaml"]


def test_a_region_of_one_site_writes_one_file(netbox: Server, tmp_path: Path) -> None:
    out = tmp_path / "de.yaml"
    result = _invoke(netbox, "--region", "de", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert "site hall-b4." in out.read_text()


def test_an_unknown_region_and_a_region_without_sites(netbox: Server) -> None:
    text = _bad_input(_invoke(netbox, "--region", "amer"))
    assert (
        f"error: NetBox at {netbox.url} has no region with slug, name or id 'amer' "
        "(regions: apac (APAC), de (Germany), emea (EMEA))"
    ) in text
    text = _bad_input(_invoke(netbox, "--region", "3"))
    assert f"error: NetBox at {netbox.url} has no sites in region apac (APAC)" in text


# --- a location, a tenant --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["row-a", "Row A", "2"])
def test_a_location_and_its_child_locations(netbox: Server, text: str) -> None:
    snap = fetch(netbox.url, TOKEN, "hall-b3", location=text)
    assert snap.location == "row-a" and snap.tenant is None
    racks = [f"A0{i}" for i in range(1, 9)]  # row-a's and row-a-east's
    assert _names(snap.racks) == racks
    assert _names(snap.devices) == [f"{r}-compute" for r in racks]
    assert {p["device"]["name"][:3] for p in snap.power_ports} == set(racks)
    assert {f["rack"]["name"] for f in snap.power_feeds} == set(racks)
    assert _names(snap.power_panels) == ["PP-A", "PP-B"]
    assert _names(snap.cooling_sources) == ["CRAH-1"]  # FW-1 is in no location
    assert snap.cooling_feeds == []  # all of FW-1's


def test_a_tenant_keeps_the_sites_cooling_sources(netbox: Server) -> None:
    snap = fetch(netbox.url, TOKEN, "hall-b4", tenant="Acme Corp")
    assert snap.tenant == "acme" and snap.location is None
    assert _names(snap.racks) == [f"B{i:02}" for i in range(1, 13)]
    assert len(snap.devices) == 12  # B05–B12's devices are of no tenant, in Acme's racks
    assert _names(snap.cooling_sources) == ["CRAH-1", "CRAH-2", "CRAH-3", "FW-1"]
    assert {c["rack"]["name"] for c in snap.cooling_feeds} == {f"B{i:02}" for i in range(1, 13)}
    assert {f["rack"]["id"] for f in snap.power_feeds} <= {r["id"] for r in snap.racks}


def test_a_location_and_a_tenant_together(netbox: Server) -> None:
    snap = fetch(netbox.url, TOKEN, "hall-b3", location="b3", tenant="7")
    assert len(snap.racks) == 12 and _names(snap.cooling_sources) == ["CRAH-1", "CRAH-2", "CRAH-3"]


def test_a_feed_without_a_rack_is_kept_by_the_port_it_is_cabled_to() -> None:
    answers = campus(page=1000)
    a01 = [f for f in answers.lists["power-feeds"] if f["rack"]["name"] == "A01"]
    b01 = [f for f in answers.lists["power-feeds"] if f["rack"]["name"] == "B01"]
    for feed in (a01[0], b01[0]):
        feed["rack"] = None
    with serve(answers) as box:
        snap = fetch(box.url, TOKEN, "hall-b3", location="row-a")
    kept = {f["id"] for f in snap.power_feeds}
    assert a01[0]["id"] in kept and b01[0]["id"] not in kept


def test_the_source_says_what_was_imported(netbox: Server, tmp_path: Path) -> None:
    out, report = tmp_path / "row-a.yaml", tmp_path / "row-a.md"
    args = ("--site", "hall-b3", "--location", "Row A", "--tenant", "acme")
    result = _invoke(netbox, *args, "-o", str(out), "--report", str(report))
    assert result.exit_code == 0, result.output
    source = f"NetBox 4.7.3 at {netbox.url}, site hall-b3, location row-a, tenant acme"
    assert source in out.read_text() and source in report.read_text()


def test_an_unknown_location_lists_the_sites_locations(netbox: Server, tmp_path: Path) -> None:
    out = tmp_path / "s.yaml"
    result = _invoke(netbox, "--site", "hall-b3", "--location", "row-z", "-o", str(out))
    assert (
        f"error: site hall-b3 of NetBox at {netbox.url} has no location with slug, name or id "
        "'row-z' (locations: b3 (B3), row-a (Row A), row-a-east (Row A east), row-b (Row B))"
    ) in _bad_input(result, out)


def test_an_unknown_tenant_lists_the_tenants(netbox: Server) -> None:
    text = _bad_input(_invoke(netbox, "--site", "hall-b3", "--tenant", "globex"))
    assert (
        f"error: NetBox at {netbox.url} has no tenant with slug, name or id 'globex' "
        "(tenants: acme (Acme Corp))"
    ) in text


def test_a_netbox_without_tenants(tmp_path: Path) -> None:
    with serve(FakeNetBox(page=1000)) as box:
        text = _bad_input(_invoke(box, "--site", "hall-b3", "--tenant", "acme"))
    assert "has no tenant with slug, name or id 'acme' (it has no tenants)" in text


def test_a_location_is_within_one_site(netbox: Server, tmp_path: Path) -> None:
    args = ("--region", "emea", "--location", "row-a", "-o", str(tmp_path / "x"))
    text = _bad_input(_invoke(netbox, *args), tmp_path / "x")
    assert (
        "error: --location names a location of one site, and 2 sites are selected "
        "(hall-b3, hall-b4)"
    ) in text


def test_fetch_errors_of_a_selection_are_messages(netbox: Server) -> None:
    from facility.messages import Message

    with pytest.raises(FetchError) as caught:
        fetch(netbox.url, TOKEN, "hall-b3", tenant="nobody")
    assert isinstance(caught.value.args[0], Message)


# --- options of the mapping ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "options"),
    [
        ((), {}),
        (("--include-planned",), {"include_planned": True}),
        (("--redundant-supplies", "sum"), {"redundant_supplies": "sum"}),
        (("--redundant-supplies", "larger-side"), {}),  # the default: not passed
        (
            ("--include-planned", "--redundant-supplies", "sum"),
            {"include_planned": True, "redundant_supplies": "sum"},
        ),
    ],
)
def test_the_mapping_options_are_passed_when_set(
    netbox: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple, options: dict
) -> None:
    calls: list[dict] = []
    real = netbox_import.map_site

    def recording(snapshot, source, **given):
        calls.append(given)
        return real(snapshot, source)

    monkeypatch.setattr(netbox_import, "map_site", recording)
    result = _invoke(netbox, "--site", "hall-b3", *args, "-o", str(tmp_path / "b3.yaml"))
    assert result.exit_code == 0, result.output
    assert calls == [options]


def test_an_unknown_way_of_adding_supplies_is_a_usage_error(netbox: Server) -> None:
    result = _invoke(netbox, "--site", "hall-b3", "--redundant-supplies", "both")
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert netbox.requests == []
