"""The NetBox version decides what is asked: the cooling endpoints exist from NetBox 4.7 on.
An older server is not asked for them, and a server that answers 404 for them (any version)
is not an error: each is recorded as unavailable, with the reason, for the mapping report."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.imports.netbox_fetch import fetch, netbox_version

from ._servers import FakeNetBox, Handler, Server, send_json, serve

pytestmark = pytest.mark.fake_netbox  # a NetBox played over HTTP on 127.0.0.1

TOKEN = "nbt_testkey00003.secretSecretSecret0123456789abcdefghijklm"
runner = CliRunner()


@pytest.mark.parametrize(
    ("text", "version"),
    [
        ("4.7.3", (4, 7, 3)),
        ("4.2.9", (4, 2, 9)),
        ("4.2.9-Docker-3.1.1", (4, 2, 9)),
        ("v4.2", (4, 2)),
        (" 4.6", (4, 6)),
        ("5.0.0-beta1", (5, 0, 0)),
        ("3.7.8", (3, 7, 8)),
        ("develop", None),
        ("4", None),
        ("", None),
        (None, None),
        (4.2, None),  # a number, not NetBox's text
    ],
)
def test_the_version_is_read_leniently(text: object, version: tuple[int, ...] | None) -> None:
    assert netbox_version(text) == version


def _old(version: str) -> FakeNetBox:
    """A NetBox of ``version`` without the cooling endpoints (they answer 404)."""
    netbox = FakeNetBox(version=version, page=1000)
    del netbox.lists["cooling-sources"], netbox.lists["cooling-feeds"]
    return netbox


def _import(url: str, tmp_path: Path):
    out = tmp_path / "hall-b3-netbox.yaml"
    result = runner.invoke(
        app,
        ["import", "netbox", "--url", url, "--site", "hall-b3", "-o", str(out)],
        env={"NETBOX_TOKEN": TOKEN},
    )
    return result, out


def test_a_netbox_4_2_imports_without_asking_for_cooling_objects(tmp_path: Path) -> None:
    # The recorded Hall B3, from a server that says 4.2.9 and has no cooling endpoints.
    answers = _old("4.2.9")
    with serve(answers) as netbox:
        result, out = _import(netbox.url, tmp_path)
        asked = [path for path, _ in netbox.requests]
    assert result.exit_code == 0, result.output
    assert f"NetBox 4.2.9 at {netbox.url}, site hall-b3" in out.read_text()
    assert any(path.startswith("/api/dcim/power-feeds/") for path in asked)
    assert not any(path.startswith("/api/dcim/cooling-") for path in asked)


@pytest.mark.parametrize(
    ("version", "shown"),
    [("4.2.9", "4.2.9"), ("4.2.9-Docker-3.1.1", "4.2.9"), ("v4.2", "4.2"), ("4.6.0", "4.6.0")],
)
def test_a_netbox_before_4_7_has_its_cooling_objects_unavailable(version: str, shown: str) -> None:
    answers = _old(version)
    with serve(answers) as netbox:
        snap = fetch(netbox.url, TOKEN, "hall-b3")
    reason = f"NetBox {shown} has no cooling objects (new in 4.7)"
    assert snap.unavailable == {"cooling_sources": reason, "cooling_feeds": reason}
    assert snap.cooling_sources == [] and snap.cooling_feeds == []
    assert answers.requested(netbox, "cooling-sources") == []
    assert answers.requested(netbox, "cooling-feeds") == []
    assert len(snap.racks) == 20 and len(snap.power_feeds) == 88  # the rest as recorded


@pytest.mark.parametrize("version", ["4.7.3", "5.1.0", "develop"])
def test_a_404_for_the_cooling_endpoints_is_not_an_error(version: str) -> None:
    # A 4.7 (or unreadable) version is asked; its 404 makes them unavailable, on any version.
    answers = _old(version)
    with serve(answers) as netbox:
        snap = fetch(netbox.url, TOKEN, "hall-b3")
    assert snap.unavailable == {
        "cooling_sources": f"NetBox at {netbox.url} answered 404 for /api/dcim/cooling-sources/",
        "cooling_feeds": f"NetBox at {netbox.url} answered 404 for /api/dcim/cooling-feeds/",
    }
    assert len(answers.requested(netbox, "cooling-sources")) == 1


def test_a_4_7_netbox_that_answers_404_for_cooling_imports(tmp_path: Path) -> None:
    with serve(_old("4.7.3")) as netbox:
        result, out = _import(netbox.url, tmp_path)
    assert result.exit_code == 0, result.output
    assert "racks" in out.read_text()


def test_a_4_7_netbox_with_cooling_objects_has_nothing_unavailable() -> None:
    with serve(FakeNetBox()) as netbox:
        snap = fetch(netbox.url, TOKEN, "hall-b3")
    assert snap.unavailable == {} and len(snap.cooling_sources) == 4


def test_another_error_of_a_cooling_endpoint_is_still_one(tmp_path: Path) -> None:
    def broken(handler: Handler, box: Server) -> bool:
        if handler.path.startswith("/api/dcim/cooling-feeds/"):
            send_json(handler, {"detail": "Server Error"}, 500)
            return True
        return False

    with serve(FakeNetBox(override=broken)) as netbox:
        result, out = _import(netbox.url, tmp_path)
    assert result.exit_code == 2, result.output
    assert f"error: NetBox at {netbox.url} answered HTTP 500" in result.output
    assert "Traceback" not in result.output and TOKEN not in result.output
    assert not out.exists()
