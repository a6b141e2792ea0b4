"""Tiny HTTP servers on 127.0.0.1 for the fetch tests: a NetBox that serves the recorded Hall
B3 responses page by page, and servers that misbehave. Each records the requests it received
(path and headers) and counts the body bytes it wrote, so tests bound work by counts."""

from __future__ import annotations

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


@dataclass
class FakeNetBox:
    """Answers like NetBox 4.7.3 with the recorded Hall B3 objects, ``page`` objects a page
    at most (NetBox's MAX_PAGE_SIZE), each page's ``next`` link on ``next_origin`` (default:
    this server). ``override`` answers a path first when it returns True."""

    page: int = 7
    next_origin: str | None = None
    override: Callable[[Handler, Server], bool] | None = None
    lists: dict[str, list[Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        parts = _parts()
        self.status = parts["status"]
        self.site = parts["site"]
        for key in (
            "locations", "racks", "devices", "device_types", "power_ports", "power_outlets",
            "power_panels", "power_feeds", "cooling_sources", "cooling_feeds",
        ):  # fmt: skip
            self.lists.setdefault(key.replace("_", "-"), list(parts[key]))

    def __call__(self, handler: Handler, box: Server) -> None:
        if self.override is not None and self.override(handler, box):
            return
        parts = urlsplit(handler.path)
        query = parse_qs(parts.query)
        if parts.path == "/api/status/":
            return send_json(handler, self.status)
        name = parts.path.removeprefix("/api/dcim/").strip("/")
        if name == "sites":
            wanted = query.get("slug", [self.site["slug"]])[0]
            objects = [self.site] if wanted == self.site["slug"] else []
        elif name in self.lists:
            objects = self.lists[name]
            if "id" in query:
                ids = {int(i) for i in query["id"]}
                objects = [o for o in objects if isinstance(o, dict) and o.get("id") in ids]
        else:
            return send_json(handler, {"detail": "Not found."}, 404)
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
