"""Read one site's objects from a NetBox server over its REST API (pynetbox).

Only reads (GET). The token goes into the ``Authorization`` header and nowhere else: it is
not part of any value this module returns, and it is sent only to the origin (scheme, host,
port) of the URL given: a ``next`` link or a redirect to another origin is refused before
anything is sent there. Every answer is read in chunks under bounds of the whole import —
bytes (:data:`MAX_BYTES`), time (:data:`TOTAL_TIME`) and the wait for each read
(:data:`READ_TIMEOUT`) — so a hostile or broken server can neither fill the memory nor hold
the import. pynetbox is imported when a fetch runs, so the rest of the program does not need
it (``pip install 'facility[netbox]'``).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from facility.imports.netbox_snapshot import Snapshot
from facility.messages import Message

# Bounds of one import (docs/import-netbox.md); module constants, so that tests can lower them.
MAX_BYTES = 256 * 1024 * 1024  # all answers together, as decoded (after gzip) [bytes]
TOTAL_TIME = 600.0  # the whole import: every request, page and redirect [s]
CONNECT_TIMEOUT = 10.0  # opening one connection [s]
READ_TIMEOUT = 30.0  # waiting for the next bytes of an answer [s]
MAX_REDIRECTS = 5  # per request, each to the same origin
CHUNK = 64 * 1024  # bytes asked for per read

# Snapshot field → (pynetbox app, endpoint), filtered by the site's id
ENDPOINTS = {
    "locations": ("dcim", "locations"),
    "racks": ("dcim", "racks"),
    "devices": ("dcim", "devices"),
    "power_ports": ("dcim", "power_ports"),
    "power_outlets": ("dcim", "power_outlets"),
    "power_panels": ("dcim", "power_panels"),
    "power_feeds": ("dcim", "power_feeds"),
    "cooling_sources": ("dcim", "cooling_sources"),
    "cooling_feeds": ("dcim", "cooling_feeds"),
}
_DEFAULT_PORTS = {"http": 80, "https": 443}
# What a malformed answer raises inside pynetbox or our reading of it (a missing key, a
# number where a list belongs, JSON nested too deep …): bad input, not a defect of ours.
_SHAPE_ERRORS = (KeyError, TypeError, AttributeError, ValueError, IndexError, RecursionError)


class FetchError(Exception):
    """NetBox could not be read: unreachable, refused the token, no such site, not NetBox,
    an answer out of bounds or pointing elsewhere. Its argument is a :class:`Message`."""


def public_url(url: str) -> str:
    """``url`` without user, password, query or fragment: safe to print and to write."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if port:
        host = f"{host}:{port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def origin(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of ``url``, the port made explicit; raises ValueError."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, parts.hostname or "", parts.port or _DEFAULT_PORTS.get(scheme, 0)


def _shown(where: tuple[str, str, int]) -> str:
    scheme, host, port = where
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}" + ("" if _DEFAULT_PORTS.get(scheme) == port else f":{port}")


def fetch(url: str, token: str, site_slug: str) -> Snapshot:
    """All objects of the site ``site_slug`` that the importer maps."""
    import pynetbox
    import requests

    try:
        home = origin(url)
    except ValueError:
        home = ("", "", 0)
    if home[0] not in _DEFAULT_PORTS or not home[1]:
        raise FetchError(Message("not an http(s) URL: give --url like https://netbox.example.com"))
    where = public_url(url)
    session = _pinned_session(home, where)
    api = pynetbox.api(url.rstrip("/"), token=token)
    api.http_session = session
    try:
        return _read_site(api, where, site_slug)
    except pynetbox.RequestError as exc:
        code = getattr(exc.req, "status_code", None)
        if code in (401, 403):
            raise FetchError(
                Message(
                    "NetBox at %(url)s refused the token (HTTP %(code)s): check --token or "
                    "NETBOX_TOKEN and the token's permissions",
                    url=where,
                    code=code,
                )
            ) from None
        detail = _first_line(exc).replace(token, "[token]")
        raise FetchError(
            Message(
                "NetBox at %(url)s answered HTTP %(code)s: %(detail)s",
                url=where,
                code=code,
                detail=detail,
            )
        ) from None
    except (pynetbox.ContentError, requests.exceptions.JSONDecodeError):
        raise FetchError(
            Message(
                "%(url)s does not answer like a NetBox API (%(path)s is not JSON)",
                url=where,
                path=session.path,
            )
        ) from None
    except requests.exceptions.Timeout as exc:
        session.check_time()
        limit = CONNECT_TIMEOUT if isinstance(exc, requests.exceptions.ConnectTimeout) else None
        raise FetchError(_no_answer(where, session.path, limit or READ_TIMEOUT)) from None
    except requests.exceptions.TooManyRedirects:
        raise FetchError(
            Message(
                "NetBox at %(url)s redirected %(path)s more than %(limit)s times",
                url=where,
                path=session.path,
                limit=MAX_REDIRECTS,
            )
        ) from None
    except requests.exceptions.InvalidHeader:
        raise FetchError(
            Message(
                "the token cannot be sent in an HTTP request: it holds a space or a control character"
            )
        ) from None
    except requests.exceptions.RequestException as exc:
        raise FetchError(
            Message(
                "cannot reach NetBox at %(url)s: %(error)s", url=where, error=type(exc).__name__
            )
        ) from None
    except _SHAPE_ERRORS as exc:
        raise FetchError(_unreadable(where, session.path, type(exc).__name__)) from None


def _read_site(api: Any, where: str, site_slug: str) -> Snapshot:
    status = api.status()
    if not isinstance(status, dict) or "netbox-version" not in status:
        raise FetchError(
            Message(
                "%(url)s does not answer like a NetBox API (/api/status/)",
                url=where,
            )
        )
    sites = _items(api.dcim.sites.filter(slug=site_slug))
    if not sites:
        found = _items(api.dcim.sites.all())
        known = sorted(str(s.get("slug")) for s in found if isinstance(s, dict))
        raise FetchError(
            Message(
                "NetBox at %(url)s has no site with slug '%(slug)s' (sites: %(known)s)",
                url=where,
                slug=site_slug,
                known=", ".join(known[:20]),
            )
            if known
            else Message(
                "NetBox at %(url)s has no site with slug '%(slug)s' (it has no sites)",
                url=where,
                slug=site_slug,
            )
        )
    site = sites[0]
    if not isinstance(site, dict) or _as_id(site.get("id")) is None:
        raise FetchError(_unreadable(where, "/api/dcim/sites/", Message("a site without an id")))
    snap = Snapshot(status=dict(status), site=site)
    for name, (app, endpoint) in ENDPOINTS.items():
        setattr(snap, name, _items(getattr(getattr(api, app), endpoint).filter(site_id=site["id"])))
    # Keep only this site's objects even if a filter is not supported server-side; what is
    # not an object stays, for the mapping report to list.
    panels, devices = _ids(snap.power_panels), _ids(snap.devices)
    sources = _ids(snap.cooling_sources)
    snap.power_feeds = [f for f in snap.power_feeds if _of(f, "power_panel", panels)]
    snap.power_ports = [p for p in snap.power_ports if _of(p, "device", devices)]
    snap.power_outlets = [o for o in snap.power_outlets if _of(o, "device", devices)]
    snap.cooling_feeds = [c for c in snap.cooling_feeds if _of(c, "cooling_source", sources)]
    # Device types of the site's devices (device types are global, not per site).
    type_ids = sorted(
        {
            i
            for d in snap.devices
            if isinstance(d, dict) and (i := _id(d, "device_type")) is not None
        }
    )
    snap.device_types = _items(api.dcim.device_types.filter(id=type_ids)) if type_ids else []
    return snap


def _items(records: Any) -> list[Any]:
    """The objects of a pynetbox RecordSet as NetBox sent them (JSON objects as dicts; an
    item that is not an object stays as it came, for the mapping report to list)."""
    return list(records.response)


def _as_id(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _id(obj: dict[str, Any], key: str) -> int | None:
    value = obj.get(key)
    return _as_id(value.get("id") if isinstance(value, dict) else value)


def _ids(objects: list[Any]) -> set[int]:
    return {i for o in objects if isinstance(o, dict) and (i := _as_id(o.get("id"))) is not None}


def _of(obj: Any, key: str, ids: set[int]) -> bool:
    return not isinstance(obj, dict) or _id(obj, key) in ids


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__


def _no_answer(where: str, path: str, limit: float) -> Message:
    return Message(
        "NetBox at %(url)s did not answer within %(limit)s s (%(path)s)",
        url=where,
        limit=format(limit, "g"),
        path=path,
    )


def _unreadable(where: str, path: str, what: str) -> Message:
    return Message(
        "NetBox at %(url)s answered %(path)s with something that is not NetBox's API (%(what)s)",
        url=where,
        path=path,
        what=what,
    )


def _pinned_session(home: tuple[str, str, int], where: str) -> Any:
    """A requests session that sends only to ``home``, reads every answer in chunks under
    the import's bounds, and follows redirects only within ``home``."""
    import requests
    import urllib3

    class _Pinned(requests.Session):
        def __init__(self) -> None:
            super().__init__()
            self.max_redirects = MAX_REDIRECTS
            self.deadline = time.monotonic() + TOTAL_TIME
            self.bytes_left = MAX_BYTES
            self.path = "/"  # of the request in flight, for messages (never the query)
            self.redirecting = False

        def request(self, method: str, url: str, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            kwargs["stream"] = True  # read here, in chunks, never all at once
            return super().request(method, url, *args, **kwargs)

        def send(self, request: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            follow = kwargs.pop("allow_redirects", True)
            self.pin(request.url)
            self.path = urlsplit(request.url).path or "/"
            left = self.check_time()
            kwargs["timeout"] = (min(CONNECT_TIMEOUT, left), min(READ_TIMEOUT, left))
            kwargs["stream"] = True
            response = super().send(request, allow_redirects=False, **kwargs)
            self.read(response)
            if not (follow and response.is_redirect):
                return response
            self.redirecting = True
            try:  # each hop comes back through send(): pinned, bounded
                hops = list(self.resolve_redirects(response, request, **kwargs))
            finally:
                self.redirecting = False
            if not hops:
                return response
            final = hops.pop()
            final.history = [response, *hops]
            return final

        def pin(self, url: str) -> None:
            try:
                target = origin(url)
            except ValueError:
                raise FetchError(
                    _unreadable(where, self.path, Message("a link that is not a URL"))
                ) from None
            if target == home:
                return
            shown = {"url": where, "path": self.path, "origin": _shown(target)}
            if self.redirecting:
                raise FetchError(
                    Message(
                        "NetBox at %(url)s redirected %(path)s to another origin, %(origin)s: "
                        "refused, the token is sent only to %(home)s",
                        home=_shown(home),
                        **shown,
                    )
                )
            raise FetchError(
                Message(
                    "NetBox at %(url)s answered %(path)s with a next link to another origin, "
                    "%(origin)s: refused, the token is sent only to %(home)s",
                    home=_shown(home),
                    **shown,
                )
            )

        def check_time(self) -> float:
            """Seconds left of the import; raises when none are."""
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise FetchError(
                    Message(
                        "the import from NetBox at %(url)s took longer than %(limit)s s "
                        "(stopped reading %(path)s)",
                        url=where,
                        limit=format(TOTAL_TIME, "g"),
                        path=self.path,
                    )
                )
            return left

        def too_large(self) -> FetchError:
            return FetchError(
                Message(
                    "the answers of NetBox at %(url)s exceed %(limit)s bytes in all "
                    "(stopped reading %(path)s)",
                    url=where,
                    limit=format(MAX_BYTES, ","),
                    path=self.path,
                )
            )

        def read(self, response: Any) -> None:
            """The body of ``response``, in chunks, within the bytes and time left."""
            try:
                declared = response.headers.get("Content-Length", "")
                if declared.isdigit() and int(declared) > self.bytes_left:
                    raise self.too_large()
                chunks = []
                while chunk := self.chunk(response.raw):
                    self.bytes_left -= len(chunk)
                    if self.bytes_left < 0:
                        raise self.too_large()
                    chunks.append(chunk)
                response._content = b"".join(chunks)
                response._content_consumed = True
            finally:
                response.close()  # releases the connection; closes it if not read to the end

        def chunk(self, raw: Any) -> bytes:
            self.check_time()
            try:
                return bytes(raw.read1(CHUNK, decode_content=True))
            except urllib3.exceptions.ReadTimeoutError:
                self.check_time()
                raise FetchError(_no_answer(where, self.path, READ_TIMEOUT)) from None
            except (urllib3.exceptions.HTTPError, OSError) as exc:
                raise FetchError(
                    Message(
                        "NetBox at %(url)s broke off its answer to %(path)s (%(error)s)",
                        url=where,
                        path=self.path,
                        error=type(exc).__name__,
                    )
                ) from None

    return _Pinned()
