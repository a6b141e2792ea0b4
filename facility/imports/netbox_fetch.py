"""Read NetBox sites' objects over the REST API (pynetbox).

Only reads (GET). The token goes into the ``Authorization`` header and nowhere else: it is
not part of any value this module returns, and it is sent only to the origin (scheme, host,
port) of the URL given: a ``next`` link or a redirect to another origin is refused before
anything is sent there. Every answer is read in chunks under bounds of the whole import —
bytes (:data:`MAX_BYTES`), time (:data:`TOTAL_TIME`) and the wait for each read
(:data:`READ_TIMEOUT`) — so a hostile or broken server can neither fill the memory nor hold
the import. pynetbox is imported when a fetch runs, so the rest of the program does not need
it (``pip install 'facility[netbox]'``).

What is read (:class:`Selection`): sites by slug, name or id, and every site of a region;
within a site, only the racks of one location and/or one tenant, with what hangs on them.
A filter by a list of ids is sent :data:`ID_BATCH` ids a request. The cooling endpoints are
asked only of a NetBox that has them (:data:`COOLING_SINCE`); one that answers 404 for them
is recorded in :attr:`Snapshot.unavailable`, not an error.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from facility.imports.netbox_snapshot import Obj, Snapshot
from facility.messages import Join, Message

# Bounds of one import (docs/import-netbox.md); module constants, so that tests can lower them.
MAX_BYTES = 256 * 1024 * 1024  # all answers together, as decoded (after gzip) [bytes]
TOTAL_TIME = 600.0  # the whole import: every request, page and redirect [s]
CONNECT_TIMEOUT = 10.0  # opening one connection [s]
READ_TIMEOUT = 30.0  # waiting for the next bytes of an answer [s]
MAX_REDIRECTS = 5  # per request, each to the same origin
CHUNK = 64 * 1024  # bytes asked for per read

# A filter by a list of ids (id=1&id=2…) is sent this many ids a request: a query string of
# some kilobytes is refused (HTTP 414, or 400 from NetBox behind some proxies), and a site has
# hundreds of device types. Module constant, so that tests can lower it.
ID_BATCH = 100
LISTED = 20  # sites, regions, locations or tenants an error lists at most
COOLING_SINCE = (4, 7)  # the NetBox release with cooling sources and cooling feeds
_COOLING = ("cooling_sources", "cooling_feeds")
_SLUG = re.compile(r"[-A-Za-z0-9_]{1,100}")  # Django's slug, at NetBox's length
_NEXT = re.compile(rb'"next"\s*:\s*(?:null|("(?:[^"\\]|\\.)*"))')  # a page's next link
_VERSION = re.compile(r"\s*[vV]?(\d{1,4})\.(\d{1,4})(?:\.(\d{1,4}))?")
_DEFAULT_PORTS = {"http": 80, "https": 443}
# What a malformed answer raises inside pynetbox or our reading of it (a missing key, a
# number where a list belongs, JSON nested too deep …): bad input, not a defect of ours.
_SHAPE_ERRORS = (KeyError, TypeError, AttributeError, ValueError, IndexError, RecursionError)


class FetchError(Exception):
    """NetBox could not be read: unreachable, refused the token, no such site, not NetBox,
    an answer out of bounds or pointing elsewhere. Its argument is a :class:`Message`."""


def masked(text: str, token: str) -> str:
    """``text`` with the token, in any letter case (a server may echo the header lower- or
    upper-cased), shown as ``[token]``."""
    if not token:
        return text
    return re.sub(re.escape(token), "[token]", text, flags=re.IGNORECASE)


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


@dataclass(frozen=True, slots=True)
class Selection:
    """What to import: sites by slug, name or id, and every site of each region (child regions
    too); within them, only the racks in one location (child locations too) and/or of one
    tenant, each given by slug, name or id."""

    sites: tuple[str, ...] = ()
    regions: tuple[str, ...] = ()
    location: str | None = None
    tenant: str | None = None


@dataclass(slots=True)
class Fetched(Snapshot):
    """The snapshot of one site, and the slugs of the location and tenant it holds only the
    racks of (None: all of the site's)."""

    location: str | None = None
    tenant: str | None = None


def fetch(
    url: str, token: str, site: str, *, location: str | None = None, tenant: str | None = None
) -> Fetched:
    """All objects of one site (``site``: its slug, name or id) that the importer maps; with
    ``location`` or ``tenant``, only the racks there and what hangs on them."""
    return fetch_sites(url, token, Selection((site,), location=location, tenant=tenant))[0]


def fetch_sites(url: str, token: str, selection: Selection) -> list[Fetched]:
    """The snapshots of the selected sites, read under one set of bounds: each site once, in
    the order given (a region's sites by slug). Every site, region and tenant is found before
    any site's objects are read; a location, among its site's locations, before its racks."""
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
        return _Reader(api, where, session).read(selection)
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
        detail = masked(_first_line(exc), token)
        asked = str(getattr(exc.req, "url", "") or "")
        if asked:  # pynetbox's text holds the URL asked: name its path, never its query
            detail = detail.replace(asked, session.path)
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


class _Reader:
    """The reads of one import, through ``api`` (its session holds the bounds)."""

    def __init__(self, api: Any, where: str, session: Any) -> None:
        self.api, self.where, self.session = api, where, session
        self.status: Obj = {}

    def read(self, selection: Selection) -> list[Fetched]:
        status = self.api.status()
        if not isinstance(status, dict) or "netbox-version" not in status:
            raise FetchError(
                Message(
                    "%(url)s does not answer like a NetBox API (/api/status/)",
                    url=self.where,
                )
            )
        self.status = dict(status)
        sites: dict[int, Obj] = {}
        for text in selection.sites:
            site = self.site(text)
            sites.setdefault(site["id"], site)
        for text in selection.regions:
            for site in self.region_sites(text):
                sites.setdefault(site["id"], site)
        if selection.location is not None and len(sites) > 1:
            raise FetchError(
                Message(
                    "--location names a location of one site, and %(count)s sites are "
                    "selected (%(sites)s)",
                    count=len(sites),
                    sites=_listed([s["slug"] for s in sites.values()]),
                )
            )
        tenant = self.tenant(selection.tenant) if selection.tenant is not None else None
        return [self.snapshot(site, selection.location, tenant) for site in sites.values()]

    # --- names -------------------------------------------------------------------------------

    def find(
        self, endpoint: Any, text: str, check: Callable[[Any], None] | None = None
    ) -> Obj | None:
        """The object of ``endpoint`` whose slug, else name, else id (``text`` all digits) is
        ``text``, asked of the server and checked here (a server that ignores a filter)."""
        for key, value in _lookups(text):
            for obj in _items(endpoint.filter(**{key: value})):
                if check is not None:
                    check(obj)
                if _is(obj, key, value):
                    return obj
        return None

    def checked_site(self, site: Any) -> None:
        if not isinstance(site, dict) or _as_id(site.get("id")) is None:
            raise FetchError(
                _unreadable(self.where, "/api/dcim/sites/", Message("a site without an id"))
            )

    def slug(self, obj: Obj, path: str) -> str:
        """The slug of ``obj``, which names its files and goes into the source text."""
        slug = obj.get("slug")
        if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
            raise FetchError(
                _unreadable(
                    self.where,
                    path,
                    Message("a slug that is not a NetBox slug: %(slug)s", slug=repr(slug)[:80]),
                )
            )
        return slug

    def site(self, text: str) -> Obj:
        site = self.find(self.api.dcim.sites, text, self.checked_site)
        if site is None:
            known = _items(self.api.dcim.sites.filter(brief=1))
            raise FetchError(
                Message(
                    "NetBox at %(url)s has no site with slug, name or id '%(site)s' "
                    "(sites: %(known)s)",
                    url=self.where,
                    site=text,
                    known=_known(known),
                )
                if _named(known)
                else Message(
                    "NetBox at %(url)s has no site with slug, name or id '%(site)s' "
                    "(it has no sites)",
                    url=self.where,
                    site=text,
                )
            )
        self.slug(site, "/api/dcim/sites/")
        return site

    def region_sites(self, text: str) -> list[Obj]:
        """The sites of the region ``text`` and of its child regions, by slug."""
        regions = [r for r in _items(self.api.dcim.regions.all()) if _has_id(r)]
        region = _match(regions, text)
        if region is None:
            raise FetchError(
                Message(
                    "NetBox at %(url)s has no region with slug, name or id '%(region)s' "
                    "(regions: %(known)s)",
                    url=self.where,
                    region=text,
                    known=_known(regions),
                )
                if _named(regions)
                else Message(
                    "NetBox at %(url)s has no region with slug, name or id '%(region)s' "
                    "(it has no regions)",
                    url=self.where,
                    region=text,
                )
            )
        tree = _subtree(regions, region["id"])
        sites = []
        for site in _items(self.api.dcim.sites.filter(region_id=region["id"])):
            self.checked_site(site)
            if _id(site, "region") in tree:
                self.slug(site, "/api/dcim/sites/")
                sites.append(site)
        if not sites:
            raise FetchError(
                Message(
                    "NetBox at %(url)s has no sites in region %(region)s",
                    url=self.where,
                    region=_entry(region),
                )
            )
        return sorted(sites, key=lambda s: (s["slug"], s["id"]))

    def tenant(self, text: str) -> Obj:
        tenants = self.api.tenancy.tenants
        tenant = self.find(tenants, text)
        if tenant is None:
            known = _items(tenants.filter(brief=1))
            raise FetchError(
                Message(
                    "NetBox at %(url)s has no tenant with slug, name or id '%(tenant)s' "
                    "(tenants: %(known)s)",
                    url=self.where,
                    tenant=text,
                    known=_known(known),
                )
                if _named(known)
                else Message(
                    "NetBox at %(url)s has no tenant with slug, name or id '%(tenant)s' "
                    "(it has no tenants)",
                    url=self.where,
                    tenant=text,
                )
            )
        self.slug(tenant, "/api/tenancy/tenants/")
        return tenant

    def location(self, site: Obj, locations: list[Any], text: str) -> Obj:
        location = _match([o for o in locations if _has_id(o)], text)
        if location is None:
            raise FetchError(
                Message(
                    "site %(site)s of NetBox at %(url)s has no location with slug, name or id "
                    "'%(location)s' (locations: %(known)s)",
                    site=site["slug"],
                    url=self.where,
                    location=text,
                    known=_known(locations),
                )
                if _named(locations)
                else Message(
                    "site %(site)s of NetBox at %(url)s has no location with slug, name or id "
                    "'%(location)s' (it has no locations)",
                    site=site["slug"],
                    url=self.where,
                    location=text,
                )
            )
        self.slug(location, "/api/dcim/locations/")
        return location

    # --- one site's objects -----------------------------------------------------------------

    def snapshot(self, site: Obj, location_text: str | None, tenant: Obj | None) -> Fetched:
        """The objects of ``site``; only the racks in the location ``location_text`` and/or
        of ``tenant`` when given, with their devices, the devices' power ports and outlets,
        the feeds of those racks and the panels of those feeds. Each list keeps only objects
        of the site (and of the racks) even if a filter is not supported server-side; what is
        not an object stays, for the mapping report to list."""
        dcim, here = self.api.dcim, site["id"]
        snap = Fetched(status=dict(self.status), site=site)
        snap.locations = [o for o in _items(dcim.locations.filter(site_id=here)) if _at(o, here)]
        location = None
        if location_text is not None:
            location = self.location(site, snap.locations, location_text)
            snap.location = location["slug"]
        if tenant is not None:
            snap.tenant = tenant["slug"]
        within = _subtree(snap.locations, location["id"]) if location is not None else None

        def wanted(obj: Any) -> bool:  # on this site, in the location, of the tenant
            if not isinstance(obj, dict):
                return True
            return (
                _at(obj, here)
                and (within is None or _id(obj, "location") in within)
                and (tenant is None or _id(obj, "tenant") == tenant["id"])
            )

        racks_filter = {"site_id": here}
        if location is not None:
            racks_filter["location_id"] = location["id"]
        if tenant is not None:
            racks_filter["tenant_id"] = tenant["id"]
        snap.racks = [r for r in _items(dcim.racks.filter(**racks_filter)) if wanted(r)]
        narrowed = location is not None or tenant is not None
        racks = _ids(snap.racks)
        if narrowed:  # the racks' devices, whatever their own location or tenant
            found = self.batched(dcim.devices, "rack_id", racks)
            snap.devices = [d for d in found if _of(d, "rack", racks) and _at(d, here)]
            ids = _ids(snap.devices)
            snap.power_ports = self.batched(dcim.power_ports, "device_id", ids)
            snap.power_outlets = self.batched(dcim.power_outlets, "device_id", ids)
        else:
            snap.devices = [d for d in _items(dcim.devices.filter(site_id=here)) if _at(d, here)]
            snap.power_ports = _items(dcim.power_ports.filter(site_id=here))
            snap.power_outlets = _items(dcim.power_outlets.filter(site_id=here))
        devices = _ids(snap.devices)
        snap.power_ports = [p for p in snap.power_ports if _of(p, "device", devices)]
        snap.power_outlets = [o for o in snap.power_outlets if _of(o, "device", devices)]
        snap.power_panels = [
            p for p in _items(dcim.power_panels.filter(site_id=here)) if _at(p, here)
        ]
        panels = _ids(snap.power_panels)
        feeds = _items(dcim.power_feeds.filter(site_id=here))
        snap.power_feeds = [f for f in feeds if _of(f, "power_panel", panels)]
        if narrowed:
            ports = _ids(snap.power_ports)
            snap.power_feeds = [f for f in snap.power_feeds if _feeds(f, racks, ports)]
            used = {_id(f, "power_panel") for f in snap.power_feeds if isinstance(f, dict)}
            snap.power_panels = [p for p in snap.power_panels if _among(p, used)]
        self.cooling(snap, here, location, within, racks if narrowed else None)
        # Device types of the site's devices (device types are global, not per site).
        types = {
            i
            for d in snap.devices
            if isinstance(d, dict) and (i := _id(d, "device_type")) is not None
        }
        snap.device_types = [
            t for t in self.batched(dcim.device_types, "id", types) if _among(t, types)
        ]
        return snap

    def cooling(
        self,
        snap: Fetched,
        here: int,
        location: Obj | None,
        within: set[int] | None,
        racks: set[int] | None,
    ) -> None:
        """Cooling sources (in the location, when one is given) and their feeds (to the racks
        kept, or to none); neither asked of a NetBox older than :data:`COOLING_SINCE`."""
        version = netbox_version(self.status.get("netbox-version"))
        if version is not None and version[:2] < COOLING_SINCE:
            for key in _COOLING:
                snap.unavailable[key] = (
                    f"NetBox {'.'.join(map(str, version))} has no cooling objects "
                    f"(new in {'.'.join(map(str, COOLING_SINCE))})"
                )
            return
        dcim = self.api.dcim
        sources_filter = {"site_id": here}
        if location is not None:
            sources_filter["location_id"] = location["id"]
        sources = self.optional(snap, "cooling_sources", dcim.cooling_sources, sources_filter)
        snap.cooling_sources = [
            s
            for s in sources
            if not isinstance(s, dict)
            or (_at(s, here) and (within is None or _id(s, "location") in within))
        ]
        kept = _ids(snap.cooling_sources)
        feeds = self.optional(snap, "cooling_feeds", dcim.cooling_feeds, {"site_id": here})
        snap.cooling_feeds = [
            c
            for c in feeds
            if _of(c, "cooling_source", kept) and (racks is None or _to_racks(c, racks))
        ]

    def optional(
        self, snap: Fetched, key: str, endpoint: Any, filters: dict[str, int]
    ) -> list[Any]:
        """``endpoint``'s objects; none, and the reason in ``snap.unavailable``, if NetBox
        answers 404 (it has no such endpoint)."""
        import pynetbox

        try:
            return _items(endpoint.filter(**filters))
        except pynetbox.RequestError as exc:
            if getattr(exc.req, "status_code", None) != 404:
                raise
            snap.unavailable[key] = f"NetBox at {self.where} answered 404 for {self.session.path}"
            return []

    def batched(self, endpoint: Any, key: str, ids: set[int]) -> list[Any]:
        """``endpoint``'s objects whose ``key`` is one of ``ids``, asked :data:`ID_BATCH` ids a
        request; joined in the order of the ids asked, each object (by id) once."""
        ordered = sorted(ids)
        found: list[Any] = []
        seen: set[int] = set()
        for start in range(0, len(ordered), ID_BATCH):
            for obj in _items(endpoint.filter(**{key: ordered[start : start + ID_BATCH]})):
                i = _as_id(obj.get("id")) if isinstance(obj, dict) else None
                if i is not None:
                    if i in seen:
                        continue
                    seen.add(i)
                found.append(obj)
        return found


def netbox_version(text: object) -> tuple[int, ...] | None:
    """(major, minor[, patch]) of a ``netbox-version`` ("4.2.9", "4.2.9-Docker-3.1.1",
    "v4.2"), or None when it does not start like a version."""
    match = _VERSION.match(text) if isinstance(text, str) else None
    if match is None:
        return None
    return tuple(int(part) for part in match.groups() if part is not None)


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


def _has_id(obj: Any) -> bool:
    return isinstance(obj, dict) and _as_id(obj.get("id")) is not None


def _among(obj: Any, ids: Collection[int | None]) -> bool:
    """``obj`` is not an object, has no id (both for the report), or its id is in ``ids``."""
    if not isinstance(obj, dict):
        return True
    i = _as_id(obj.get("id"))
    return i is None or i in ids


def _at(obj: Any, site: int) -> bool:
    """Not an object, without a site, or on ``site``."""
    return not isinstance(obj, dict) or _id(obj, "site") in (site, None)


def _to_racks(feed: Any, racks: set[int]) -> bool:
    """Not an object, to no rack, or to one of ``racks``."""
    rack = _id(feed, "rack") if isinstance(feed, dict) else None
    return rack is None or rack in racks


def _feeds(feed: Any, racks: set[int], ports: set[int]) -> bool:
    """A power feed of one of ``racks``, or without a rack and cabled to one of ``ports``."""
    if not isinstance(feed, dict):
        return True
    rack = _id(feed, "rack")
    if rack is not None:
        return rack in racks
    ends = feed.get("connected_endpoints")
    return isinstance(ends, list) and any(
        isinstance(e, dict) and _as_id(e.get("id")) in ports for e in ends
    )


def _lookups(text: str) -> list[tuple[str, Any]]:
    """The filters that find an object by ``text``: slug, then name, then id (all digits)."""
    if not text.strip():
        return []
    found: list[tuple[str, Any]] = [("slug", text), ("name", text)]
    if text.isascii() and text.isdigit() and len(text) <= 18:
        found.append(("id", int(text)))
    return found


def _is(obj: Any, key: str, value: Any) -> bool:
    if not isinstance(obj, dict) or _as_id(obj.get("id")) is None:
        return False
    return (_as_id(obj["id"]) if key == "id" else obj.get(key)) == value


def _match(objects: list[Any], text: str) -> Obj | None:
    """The one of ``objects`` whose slug, else name, else id (``text`` all digits) is ``text``."""
    for key, value in _lookups(text):
        for obj in objects:
            if _is(obj, key, value):
                return obj
    return None


def _subtree(objects: list[Any], root: int) -> set[int]:
    """The id ``root`` and the ids of its descendants among ``objects`` (by ``parent``)."""
    children: dict[int, list[int]] = {}
    for obj in objects:
        if isinstance(obj, dict) and (i := _as_id(obj.get("id"))) is not None:
            parent = _id(obj, "parent")
            if parent is not None:
                children.setdefault(parent, []).append(i)
    tree, todo = {root}, [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in tree:
                tree.add(child)
                todo.append(child)
    return tree


def _entry(obj: Obj) -> str:
    """``slug (name)``, as an error lists an object."""
    slug, name = str(obj.get("slug") or "?")[:100], obj.get("name")
    return f"{slug} ({str(name)[:100]})" if name else slug


def _named(objects: list[Any]) -> list[str]:
    return sorted({_entry(o) for o in objects if isinstance(o, dict)})


def _known(objects: list[Any]) -> str:
    """The objects as an error lists them: ``slug (name)``, sorted, at most :data:`LISTED`."""
    return _listed(_named(objects))


def _listed(names: list[str]) -> str:
    """At most :data:`LISTED` of ``names``, then how many more."""
    shown = Join(names[:LISTED], ", ")
    if len(names) <= LISTED:
        return shown
    return Message("%(items)s and %(count)s more", items=shown, count=len(names) - LISTED)


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
            # next link -> the URLs of its listing's pages so far (a link back to one: a loop)
            self.listings: dict[str, set[str]] = {}

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
            self.follow_listing(request.url, response.content)
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

        def follow_listing(self, url: str, body: bytes) -> None:
            """Refuse a page whose next link leads back to a page of its listing already read
            (the same page, the first): its pages would never end. Each page's ``next`` is
            read from the head of its body, where NetBox writes it."""
            found = _NEXT.search(body, 0, 4096)
            pages = self.listings.pop(url, None) or {url}
            if found is None or found.group(1) is None:
                return
            try:
                following = urljoin(url, json.loads(found.group(1)))
            except ValueError:  # not a JSON text: what reads the page says what is wrong
                return
            if following in pages:
                raise FetchError(
                    Message(
                        "NetBox at %(url)s answered %(path)s with a next link to a page it had "
                        "already sent: refused, its pages would never end",
                        url=where,
                        path=self.path,
                    )
                )
            pages.add(following)
            self.listings[following] = pages

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
