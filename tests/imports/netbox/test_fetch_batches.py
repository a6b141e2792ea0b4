"""A filter by a list of ids is sent in batches: `?id=1&id=2…` for 600 device types is a query
string a real server refuses (HTTP 414, or 400 behind some proxies). The batches' answers are
joined in the order of the ids asked, each object once; counted in requests, never timed."""

from __future__ import annotations

import copy

import pytest

from facility.imports import netbox_fetch
from facility.imports.netbox_fetch import FetchError, fetch

from ._servers import FakeNetBox, campus, serve

pytestmark = pytest.mark.fake_netbox  # a NetBox played over HTTP on 127.0.0.1

TOKEN = "nbt_testkey00004.secretSecretSecret0123456789abcdefghijklm"
MAX_QUERY = 1024  # bytes of a query string the fake server takes; a longer one is refused


def _many_types(n: int = 600) -> FakeNetBox:
    """Hall B3 with ``n`` devices, each of its own device type (ids 1 … n), 1,000 a page."""
    netbox = FakeNetBox(page=1000, max_query=MAX_QUERY)
    lists = netbox.lists
    device, kind = lists["devices"][0], lists["device-types"][0]
    racks = lists["racks"]
    lists["devices"], lists["device-types"] = [], []
    for i in range(1, n + 1):
        rack = racks[i % len(racks)]
        lists["devices"].append(
            {
                **copy.deepcopy(device),
                "id": i,
                "name": f"d{i}",
                "rack": {"id": rack["id"], "name": rack["name"]},
                "device_type": {"id": i, "slug": f"type-{i}"},
            }
        )
        lists["device-types"].append({**copy.deepcopy(kind), "id": i, "slug": f"type-{i}"})
    lists["device-types"].reverse()  # the server's order is not the ids'
    return netbox


def test_600_device_types_are_asked_100_a_request() -> None:
    answers = _many_types()
    with serve(answers) as netbox:
        snap = fetch(netbox.url, TOKEN, "hall-b3")
    asked = answers.requested(netbox, "device-types")
    assert len(asked) == 6  # 600 / 100, each answered on one page
    assert answers.refused == 0
    assert all(len(path.partition("?")[2]) <= MAX_QUERY for path, _ in netbox.requests)
    ids = [t["id"] for t in snap.device_types]
    assert sorted(ids) == list(range(1, 601)) and len(set(ids)) == 600
    # In the order of the batches (ids 1–100 first), within one the server's order.
    assert ids[:3] == [100, 99, 98] and ids[-1] == 501


def test_without_batches_the_server_refuses_the_query(monkeypatch: pytest.MonkeyPatch) -> None:
    # What the batches are for: all 600 ids in one query string are refused (HTTP 414).
    monkeypatch.setattr(netbox_fetch, "ID_BATCH", 10_000)
    answers = _many_types()
    with serve(answers) as netbox, pytest.raises(FetchError) as caught:
        fetch(netbox.url, TOKEN, "hall-b3")
    text = str(caught.value.args[0])
    assert f"NetBox at {netbox.url} answered HTTP 414" in text
    assert "id=" not in text  # the path is named, never the query
    assert answers.refused == 1


def test_an_object_in_two_answers_is_kept_once() -> None:
    # A server (or pages shifted by a concurrent change) may give an object twice.
    answers = _many_types()
    answers.lists["device-types"].insert(0, copy.deepcopy(answers.lists["device-types"][-1]))
    with serve(answers) as netbox:
        snap = fetch(netbox.url, TOKEN, "hall-b3")
    ids = [t["id"] for t in snap.device_types]
    assert len(ids) == 600 and ids.count(1) == 1


def test_device_types_of_no_device_are_not_kept() -> None:
    # A server that ignores the id filter gives every device type it has.
    answers = FakeNetBox()
    answers.lists["device-types"].append({**answers.lists["device-types"][0], "id": 99})
    answers.test = lambda name, key, values: None  # type: ignore[method-assign]  # no filters
    with serve(answers) as netbox:
        snap = fetch(netbox.url, TOKEN, "hall-b3")
    assert sorted(t["id"] for t in snap.device_types) == [1, 2]


@pytest.mark.parametrize("option", ["tenant", "location"])
def test_the_racks_devices_and_ports_of_a_narrowed_import_are_asked_in_batches(
    monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    # Hall B3's 12 racks of Acme (row B), 3 ids a request: 4 requests for their devices, 4
    # for the devices' power ports and 4 for their outlets.
    monkeypatch.setattr(netbox_fetch, "ID_BATCH", 3)
    answers = campus(page=1000)
    with serve(answers) as netbox:
        value = "acme" if option == "tenant" else "row-b"
        snap = fetch(netbox.url, TOKEN, "hall-b3", **{option: value})
    assert len(snap.racks) == 12 and len(snap.devices) == 12
    for name in ("devices", "power-ports", "power-outlets"):
        asked = answers.requested(netbox, name)
        assert len(asked) == 4, name
        assert all(path.count("_id=") == 3 for path in asked), name
