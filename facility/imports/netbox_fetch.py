"""Read one site's objects from a NetBox server over its REST API (pynetbox).

Only reads (GET). The token goes into the ``Authorization`` header and nowhere else: it is
not part of any value this module returns. pynetbox is imported when a fetch runs, so the
rest of the program does not need it (``pip install 'facility[netbox]'``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from facility.imports.netbox_map import Snapshot

TIMEOUT = 30.0  # seconds per request

# Snapshot field → (pynetbox app, endpoint, filter of the site's objects by site id)
ENDPOINTS = {
    "locations": ("dcim", "locations"),
    "racks": ("dcim", "racks"),
    "devices": ("dcim", "devices"),
    "power_ports": ("dcim", "power_ports"),
    "power_panels": ("dcim", "power_panels"),
    "power_feeds": ("dcim", "power_feeds"),
    "cooling_sources": ("dcim", "cooling_sources"),
    "cooling_feeds": ("dcim", "cooling_feeds"),
}


class FetchError(Exception):
    """NetBox could not be read: unreachable, refused the token, no such site, not NetBox."""


def public_url(url: str) -> str:
    """``url`` without user, password, query or fragment: safe to print and to write."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def fetch(url: str, token: str, site_slug: str, *, timeout: float = TIMEOUT) -> Snapshot:
    """All objects of the site ``site_slug`` that the importer maps."""
    import pynetbox
    import requests

    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchError(f"not an http(s) URL: {public_url(url) or url!r}")

    class _Session(requests.Session):
        def request(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
            kwargs.setdefault("timeout", timeout)
            return super().request(*args, **kwargs)

    api = pynetbox.api(url.rstrip("/"), token=token)
    api.http_session = _Session()
    where = public_url(url)
    try:
        status = api.status()
        if not isinstance(status, dict) or "netbox-version" not in status:
            raise FetchError(f"{where} does not answer like a NetBox API (/api/status/)")
        sites = list(api.dcim.sites.filter(slug=site_slug))
        if not sites:
            known = sorted(str(s.slug) for s in api.dcim.sites.all())
            raise FetchError(
                f"NetBox at {where} has no site with slug {site_slug!r}"
                + (f" (sites: {', '.join(known[:20])})" if known else " (it has no sites)")
            )
        site = dict(sites[0])
        snap = Snapshot(status=dict(status), site=site)
        for name, (app, endpoint) in ENDPOINTS.items():
            records = getattr(getattr(api, app), endpoint).filter(site_id=site["id"])
            setattr(snap, name, [dict(r) for r in records])
        # Keep only this site's objects even if a filter is not supported server-side.
        panels = {p["id"] for p in snap.power_panels}
        devices = {d["id"] for d in snap.devices}
        sources = {c["id"] for c in snap.cooling_sources}
        snap.power_feeds = [f for f in snap.power_feeds if _id(f, "power_panel") in panels]
        snap.power_ports = [p for p in snap.power_ports if _id(p, "device") in devices]
        snap.cooling_feeds = [c for c in snap.cooling_feeds if _id(c, "cooling_source") in sources]
        # Device types of the site's devices (device types are global, not per site).
        type_ids = sorted({d["device_type"]["id"] for d in snap.devices if d.get("device_type")})
        snap.device_types = (
            [dict(r) for r in api.dcim.device_types.filter(id=type_ids)] if type_ids else []
        )
        return snap
    except pynetbox.RequestError as exc:
        code = getattr(exc.req, "status_code", None)
        if code in (401, 403):
            raise FetchError(
                f"NetBox at {where} refused the token (HTTP {code}): check --token or "
                "NETBOX_TOKEN and the token's permissions"
            ) from None
        raise FetchError(f"NetBox at {where} answered HTTP {code}: {_first_line(exc)}") from None
    except (pynetbox.ContentError, requests.exceptions.JSONDecodeError):
        raise FetchError(f"{where} does not answer like a NetBox API (not JSON)") from None
    except requests.exceptions.Timeout:
        raise FetchError(f"NetBox at {where} did not answer within {timeout:g} s") from None
    except requests.exceptions.RequestException as exc:
        raise FetchError(f"cannot reach NetBox at {where}: {type(exc).__name__}") from None


def _id(obj: dict[str, Any], key: str) -> Any:
    value = obj.get(key)
    return value.get("id") if isinstance(value, dict) else value


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
