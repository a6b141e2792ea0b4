"""Tiny HTTP servers on 127.0.0.1 for the fetch tests: a NetBox that serves the recorded Hall
B3 responses page by page, and servers that misbehave. Each records the requests it received
(path and headers) and counts the body bytes it wrote, so tests bound work by counts."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from ._snapshot import _parts

Answer = Callable[["Handler", "Server"], None]


@dataclass
class Server:
    url: str = ""
    answer: Answer | None = None
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    sent: int = 0  # body bytes written
    release: threading.Event = field(default_factory=threading.Event)  # ends a stalled answer


class Handler(BaseHTTPRequestHandler):
    box: Server

    def do_GET(self) -> None:
        self.box.requests.append((self.path, dict(self.headers)))
        try:
            assert self.box.answer is not None
            self.box.answer(self, self.box)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: what the bounds are for

    def write(self, data: bytes) -> None:
        self.wfile.write(data)
        self.wfile.flush()
        self.box.sent += len(data)

    def log_message(self, *args: object) -> None:
        pass


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False


@contextmanager
def serve(answer: Answer) -> Iterator[Server]:
    box = Server(answer=answer)
    handler = type("BoxHandler", (Handler,), {"box": box})
    httpd = _HTTPServer(("127.0.0.1", 0), handler)
    box.url = f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield box
    finally:
        box.release.set()
        httpd.shutdown()
        httpd.server_close()


def send_json(
    handler: Handler, data: Any, code: int = 200, headers: dict[str, str] | None = None
) -> None:
    body = json.dumps(data).encode()
    handler.send_response(code)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(body)))
    for name, value in (headers or {}).items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.write(body)


def redirect(handler: Handler, location: str, code: int = 302) -> None:
    handler.send_response(code)
    handler.send_header("Location", location)
    handler.send_header("Content-Length", "0")
    handler.end_headers()


def _ref(obj: dict[str, Any], key: str) -> int | None:
    value = obj.get(key)
    value = value.get("id") if isinstance(value, dict) else value
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _subtree(objects: list[Any], roots: set[int]) -> set[int]:
    tree, grown = set(roots), True
    while grown:
        grown = False
        for obj in objects:
            if isinstance(obj, dict) and _ref(obj, "parent") in tree and obj.get("id") not in tree:
                tree.add(obj["id"])
                grown = True
    return tree


# Where an object's site is, per endpoint without a site field of its own.
_SITE_VIA = {
    "power-ports": ("device", "devices"),
    "power-outlets": ("device", "devices"),
    "power-feeds": ("power_panel", "power-panels"),
    "cooling-feeds": ("cooling_source", "cooling-sources"),
}


@dataclass
class FakeNetBox:
    """Answers like NetBox 4.7.3 with the recorded Hall B3 objects, ``page`` objects a page
    at most (NetBox's MAX_PAGE_SIZE), each page's ``next`` link on ``next_origin`` (default:
    this server). ``override`` answers a path first when it returns True. Filters by id, slug,
    name and the related ids the importer asks by (``location_id`` and ``region_id`` with
    their children, as NetBox does); an item that is not an object passes every filter.
    ``version`` replaces the status' netbox-version; a query string longer than ``max_query``
    bytes is answered 414, as a proxy in front of NetBox does; ``refused`` counts those."""

    page: int = 7
    next_origin: str | None = None
    override: Callable[[Handler, Server], bool] | None = None
    lists: dict[str, list[Any]] = field(default_factory=dict)
    version: str | None = None
    max_query: int | None = None
    refused: int = 0

    def __post_init__(self) -> None:
        parts = copy.deepcopy(_parts())
        self.status = parts["status"]
        if self.version is not None:
            self.status["netbox-version"] = self.version
        self.site = parts["site"]
        for key in (
            "locations", "racks", "devices", "device_types", "power_ports", "power_outlets",
            "power_panels", "power_feeds", "cooling_sources", "cooling_feeds",
        ):  # fmt: skip
            self.lists.setdefault(key.replace("_", "-"), list(parts[key]))
        self.lists.setdefault("sites", [self.site])
        self.lists.setdefault("regions", [])
        self.lists.setdefault("tenants", [])

    def requested(self, box: Server, name: str) -> list[str]:
        """The requests ``box`` received for the endpoint ``name`` (e.g. "device-types")."""
        return [path for path, _ in box.requests if urlsplit(path).path.endswith(f"/{name}/")]

    def site_of(self, name: str, obj: dict[str, Any]) -> int | None:
        if name not in _SITE_VIA:
            return _ref(obj, "site")
        key, parents = _SITE_VIA[name]
        parent = _ref(obj, key)
        for other in self.lists.get(parents, []):
            if isinstance(other, dict) and other.get("id") == parent:
                return self.site_of(parents, other)
        return None

    def test(self, name: str, key: str, values: list[str]) -> Callable[[dict], bool] | None:
        """Whether an object of ``name`` passes the filter ``key`` (None: not a filter)."""
        if key in ("slug", "name"):
            return lambda o: o.get(key) in values
        ids = {int(v) for v in values if v.isdigit()}
        if key == "id":
            return lambda o: o.get("id") in ids
        if key == "site_id":
            return lambda o: self.site_of(name, o) in ids
        if key in ("location_id", "region_id"):
            tree = _subtree(self.lists[key[:-3] + "s"], ids)
            return lambda o: _ref(o, key[:-3]) in tree
        if key in ("tenant_id", "rack_id", "device_id"):
            return lambda o: _ref(o, key[:-3]) in ids
        return None

    def __call__(self, handler: Handler, box: Server) -> None:
        if self.override is not None and self.override(handler, box):
            return
        parts = urlsplit(handler.path)
        if self.max_query is not None and len(parts.query.encode()) > self.max_query:
            self.refused += 1
            return send_json(handler, {"detail": "Request-URI Too Long"}, 414)
        query = parse_qs(parts.query)
        if parts.path == "/api/status/":
            return send_json(handler, self.status)
        name = parts.path.removeprefix("/api/").split("/", 1)[-1].strip("/")
        if name not in self.lists:
            return send_json(handler, {"detail": "Not found."}, 404)
        objects = self.lists[name]
        for key, values in query.items():
            test = self.test(name, key, values)
            if test is not None:
                objects = [o for o in objects if not isinstance(o, dict) or test(o)]
        limit = min(int(query.get("limit", [self.page])[0]) or self.page, self.page)
        offset = int(query.get("offset", ["0"])[0])
        following = None
        if offset + limit < len(objects):
            params = {k: v for k, v in query.items() if k not in ("limit", "offset")}
            params |= {"limit": [str(limit)], "offset": [str(offset + limit)]}
            base = self.next_origin or box.url
            following = f"{base}{parts.path}?{urlencode(params, doseq=True)}"
        results = objects[offset : offset + limit]
        send_json(
            handler,
            {"count": len(objects), "next": following, "previous": None, "results": results},
        )


# --- a campus: Hall B3 and a copy of it, in regions, with rows and a tenant -----------------

_SHIFTED = ("rack", "location", "device", "power_panel", "cooling_source", "parent", "power_port")
REGIONS = [
    {"id": 1, "slug": "emea", "name": "EMEA", "parent": None},
    {"id": 2, "slug": "de", "name": "Germany", "parent": {"id": 1}},
    {"id": 3, "slug": "apac", "name": "APAC", "parent": None},
]
ACME = {"id": 7, "slug": "acme", "name": "Acme Corp"}


def _shifted(obj: Any, by: int, site: dict[str, Any]) -> Any:
    """A copy of ``obj`` for another site: its id and the ids it refers to moved by ``by``
    (device types are global: not moved)."""
    if not isinstance(obj, dict):
        return obj
    obj = copy.deepcopy(obj)
    obj["id"] += by
    for key in _SHIFTED:
        if isinstance(obj.get(key), dict) and isinstance(obj[key].get("id"), int):
            obj[key]["id"] += by
    for key in ("connected_endpoints", "link_peers"):
        for end in obj.get(key) or []:
            if isinstance(end, dict):
                end["id"] += by
                if isinstance(end.get("device"), dict):
                    end["device"]["id"] += by
    if "site" in obj:
        obj["site"] = {"id": site["id"], "slug": site["slug"], "name": site["name"]}
    return obj


def campus(**options: Any) -> FakeNetBox:
    """Hall B3 (region EMEA) and Hall B4, a copy with ids moved by 1000 (region Germany, in
    EMEA); the region APAC has no site. In each hall, location B3 holds rows: row-a (racks
    A01–A04, CRAH-1) with its child row-a-east (A05–A08), and row-b (the B racks, CRAH-2);
    the B racks and devices B01–B04 belong to the tenant Acme."""
    netbox = FakeNetBox(**options)
    lists = netbox.lists
    hall_b3 = lists["sites"][0]
    hall_b3["region"] = {"id": 1, "slug": "emea", "name": "EMEA"}
    lists["regions"] = copy.deepcopy(REGIONS)
    lists["tenants"] = [dict(ACME)]
    b3 = lists["locations"][0]
    rows = [
        {"id": 2, "slug": "row-a", "name": "Row A", "parent": {"id": 1}},
        {"id": 3, "slug": "row-a-east", "name": "Row A east", "parent": {"id": 2}},
        {"id": 4, "slug": "row-b", "name": "Row B", "parent": {"id": 1}},
    ]
    for row in rows:
        lists["locations"].append({**copy.deepcopy(b3), **row, "display": row["name"]})
    row_of = {"A01": 2, "A02": 2, "A03": 2, "A04": 2, "A05": 3, "A06": 3, "A07": 3, "A08": 3}
    for key in ("racks", "devices"):
        for obj in lists[key]:
            rack = obj["name"] if key == "racks" else obj["rack"]["name"]
            row = next(r for r in rows if r["id"] == row_of.get(rack, 4))
            obj["location"] = {"id": row["id"], "slug": row["slug"], "name": row["name"]}
            if rack.startswith("B") and (key == "racks" or rack < "B05"):
                obj["tenant"] = dict(ACME)
    for source in lists["cooling-sources"]:
        if source["name"] in ("CRAH-1", "CRAH-2"):
            row = rows[0] if source["name"] == "CRAH-1" else rows[2]
            source["location"] = {"id": row["id"], "slug": row["slug"], "name": row["name"]}
    hall_b4 = {
        **copy.deepcopy(hall_b3),
        "id": 2,
        "slug": "hall-b4",
        "name": "Hall B4",
        "region": {"id": 2, "slug": "de", "name": "Germany"},
    }
    for key, objects in list(lists.items()):
        if key not in ("sites", "regions", "tenants", "device-types"):
            objects += [_shifted(o, 1000, hall_b4) for o in list(objects)]
    lists["sites"].append(hall_b4)
    return netbox
