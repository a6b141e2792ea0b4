"""`facility import netbox` against servers that misbehave, all on 127.0.0.1: the token goes
only to the origin of --url, every answer is bounded (bytes, time, each read), and a bad answer
is bad input (exit 2, one error line), never a traceback or an internal error."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.imports import netbox_fetch
from facility.imports.netbox_fetch import FetchError, fetch

from ._servers import FakeNetBox, Handler, Server, redirect, send_json, serve
from ._snapshot import hall_b3

pytestmark = pytest.mark.fake_netbox  # a NetBox played over HTTP on 127.0.0.1

TOKEN = "nbt_testkey00002.secretSecretSecret0123456789abcdefghijklm"
runner = CliRunner()


def _import(url: str, tmp_path: Path, *args: str):
    out = tmp_path / "hall-b3-netbox.yaml"
    result = runner.invoke(
        app,
        ["import", "netbox", "--url", url, "--site", "hall-b3", "-o", str(out), *args],
        env={"NETBOX_TOKEN": TOKEN},
    )
    return result, out


def _bad_input(result, out: Path) -> str:
    """The one error line of a refused import (exit 2, nothing written, no token shown)."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    assert TOKEN not in result.output and "secretSecret" not in result.output
    assert not out.exists()
    return " ".join(result.output.split())


def _refused_by(override, tmp_path: Path) -> tuple[Server, str]:
    """Import from a fake NetBox that answers as `override` says: the server (what it was
    asked) and the one error line of the refused import."""
    with serve(FakeNetBox(override=override)) as netbox:
        result, out = _import(netbox.url, tmp_path)
    return netbox, _bad_input(result, out)


def _carried_token(box: Server) -> list[str]:
    return [path for path, headers in box.requests if TOKEN in " ".join(headers.values())]


@pytest.fixture
def other() -> Iterator[Server]:
    """Server B: another origin (another port of 127.0.0.1) that must never hear from us."""
    with serve(lambda handler, box: send_json(handler, {"netbox-version": "4.7.3"})) as box:
        yield box


# --- the token goes only to the origin of --url ------------------------------------------


def test_a_netbox_over_http_pages_and_same_origin_redirects_reads_like_the_recording(
    tmp_path: Path,
) -> None:
    # Pages of 25 objects, each page after the second reached by its next link, and
    # /api/status/ moved (301) within the origin: all followed, all carrying the token.
    def moved(handler: Handler, box: Server) -> bool:
        if handler.path == "/api/status/":
            redirect(handler, "/api/status/?moved=1", 301)
            return True
        return False

    with serve(FakeNetBox(page=25, override=moved)) as netbox:
        snap = fetch(netbox.url, TOKEN, "hall-b3")
        result, out = _import(netbox.url, tmp_path)
    recorded = hall_b3()
    for key in ("status", "site", *recorded.KEYS):
        assert getattr(snap, key) == getattr(recorded, key), key
    assert result.exit_code == 0, result.output
    assert "peak_power: 155 kW" in out.read_text()
    assert any("offset=50" in path for path, _ in netbox.requests)  # a next link followed
    assert "/api/status/?moved=1" in [path for path, _ in netbox.requests]
    assert len(_carried_token(netbox)) == len(netbox.requests)


def test_a_next_link_to_another_origin_is_refused(tmp_path: Path, other: Server) -> None:
    with serve(FakeNetBox(next_origin=other.url)) as netbox:
        result, out = _import(netbox.url, tmp_path)
    text = _bad_input(result, out)
    assert (
        f"error: NetBox at {netbox.url} answered /api/dcim/racks/ with a next link to "
        f"another origin, {other.url}: refused, the token is sent only to {netbox.url}"
    ) in text
    assert other.requests == []  # B never heard from us, so never saw the token


@pytest.mark.parametrize("back", ["same page", "first page"])
def test_a_next_link_back_to_a_page_already_sent_is_refused(tmp_path: Path, back: str) -> None:
    # A NetBox (or a proxy before it) whose pages link back to one already read would be read
    # until the import's byte or time bound ran out, with a message about bytes or time.
    def looping(handler: Handler, box: Server) -> bool:
        if not handler.path.startswith("/api/dcim/racks/"):
            return False
        path, _, query = handler.path.partition("?")
        params = dict(part.split("=", 1) for part in query.split("&") if "=" in part)
        offset = int(params.get("offset", "0"))
        params["offset"] = str(offset if back == "same page" else 0)
        params["limit"] = "1"
        link = f"{box.url}{path}?" + "&".join(f"{k}={v}" for k, v in params.items())
        results = [{"id": 900 + offset, "name": f"R{offset}"}]
        send_json(handler, {"count": 99, "next": link, "previous": None, "results": results})
        return True

    netbox, text = _refused_by(looping, tmp_path)
    assert (
        f"error: NetBox at {netbox.url} answered /api/dcim/racks/ with a next link to a page it had "
        "already sent: refused, its pages would never end"
    ) in text
    racks = [path for path, _ in netbox.requests if path.startswith("/api/dcim/racks/")]
    # pynetbox asks for the count (limit=0), then the rest (offset=1), then follows next
    # links: refused at the first page whose link leads back, before it is asked again
    assert len(racks) == 3 and len(set(racks)) == 3


@pytest.mark.parametrize("code", [301, 302, 303, 307, 308])
def test_a_redirect_to_another_origin_is_refused(tmp_path: Path, other: Server, code: int) -> None:
    def away(handler: Handler, box: Server) -> bool:
        redirect(handler, f"{other.url}/api/status/", code)
        return True

    netbox, text = _refused_by(away, tmp_path)
    assert (
        f"NetBox at {netbox.url} redirected /api/status/ to another origin, {other.url}: "
        f"refused, the token is sent only to {netbox.url}"
    ) in text
    assert other.requests == [] and _carried_token(other) == []


def test_a_redirect_to_another_scheme_of_the_same_host_and_port_is_refused(
    tmp_path: Path,
) -> None:
    # https://127.0.0.1:<same port> is another origin: refused before a connection is made.
    def upgrade(handler: Handler, box: Server) -> bool:
        redirect(handler, box.url.replace("http://", "https://") + "/api/status/")
        return True

    netbox, text = _refused_by(upgrade, tmp_path)
    secure = netbox.url.replace("http://", "https://")
    assert f"to another origin, {secure}: refused" in text
    assert len(netbox.requests) == 1  # the redirect itself; nothing after it


def test_a_token_echoed_in_an_error_is_never_shown(tmp_path: Path) -> None:
    def echo(handler: Handler, box: Server) -> None:
        send_json(handler, {"detail": handler.headers.get("Authorization", "")}, 500)

    with serve(echo) as netbox:
        result, out = _import(netbox.url, tmp_path)
    text = _bad_input(result, out)
    assert "answered HTTP 500" in text and "[token]" in text


@pytest.mark.parametrize("case", [str.lower, str.upper])
def test_a_token_echoed_in_another_case_is_never_shown(tmp_path: Path, case) -> None:
    # Found by testing from outside: a body that echoed the token lower-cased was shown as is
    def echo(handler: Handler, box: Server) -> None:
        send_json(handler, {"detail": case(handler.headers.get("Authorization", ""))}, 500)

    with serve(echo) as netbox:
        result, out = _import(netbox.url, tmp_path)
    text = _bad_input(result, out)
    assert "[token]" in text and TOKEN.lower() not in text.lower()


# --- bounded answers -------------------------------------------------------------------------

CAP = 64 * 1024 * 1024  # the misbehaving servers stop on their own after this many bytes


def _endless(handler: Handler, box: Server) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "application/json")
    handler.end_headers()  # no Content-Length: the body runs until the connection closes
    handler.write(b'{"netbox-version": "4.7.3", "padding": "')
    while box.sent < CAP:
        handler.write(b"x" * 65536)


def test_an_endless_body_stops_at_the_byte_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(netbox_fetch, "MAX_BYTES", 1024 * 1024)
    with serve(_endless) as netbox:
        result, out = _import(netbox.url, tmp_path)
    assert (
        f"error: the answers of NetBox at {netbox.url} exceed 1,048,576 bytes in all "
        "(stopped reading /api/status/)"
    ) in _bad_input(result, out)
    assert netbox.sent < CAP  # it stopped because we stopped reading


def test_a_declared_length_over_the_bound_is_refused_before_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(netbox_fetch, "MAX_BYTES", 1024 * 1024)

    def huge(handler: Handler, box: Server) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(10**12))
        handler.end_headers()
        box.release.wait(10)

    with serve(huge) as netbox:
        result, out = _import(netbox.url, tmp_path)
    assert "exceed 1,048,576 bytes in all" in _bad_input(result, out)
    assert netbox.sent == 0


def test_a_compressed_body_counts_as_decoded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 8 MiB of JSON compress to a few KiB: the bound counts the 8 MiB.
    monkeypatch.setattr(netbox_fetch, "MAX_BYTES", 1024 * 1024)
    body = gzip.compress(json.dumps({"netbox-version": "4.7.3", "p": " " * 2**23}).encode())
    assert len(body) < 64 * 1024

    def bomb(handler: Handler, box: Server) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Encoding", "gzip")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.write(body)

    with serve(bomb) as netbox:
        result, out = _import(netbox.url, tmp_path)
    assert "exceed 1,048,576 bytes in all (stopped reading /api/status/)" in _bad_input(result, out)


def test_the_byte_bound_is_for_the_whole_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every answer is small; together they pass the bound, at a later page.
    monkeypatch.setattr(netbox_fetch, "MAX_BYTES", 40_000)
    with serve(FakeNetBox()) as netbox:
        result, out = _import(netbox.url, tmp_path)
    text = _bad_input(result, out)
    assert "exceed 40,000 bytes in all (stopped reading /api/dcim/" in text
    assert netbox.sent > 40_000 - 20_000  # many answers were read before the bound


def test_a_trickling_body_stops_at_the_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One byte every 10 ms never trips the wait for each read, only the import's deadline.
    monkeypatch.setattr(netbox_fetch, "TOTAL_TIME", 0.5)
    total = 2000

    def trickle(handler: Handler, box: Server) -> None:
        handler.send_response(200)
        handler.send_header("Content-Length", str(total))
        handler.end_headers()
        while box.sent < total and not box.release.wait(0.01):
            handler.write(b" ")

    with serve(trickle) as netbox:
        result, out = _import(netbox.url, tmp_path)
    assert (
        f"error: the import from NetBox at {netbox.url} took longer than 0.5 s "
        "(stopped reading /api/status/)"
    ) in _bad_input(result, out)
    assert 0 < netbox.sent < total  # stopped mid-body


@pytest.mark.parametrize("headers", [False, True], ids=["no-answer", "headers-then-silence"])
def test_a_stalled_answer_stops_at_the_read_timeout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, headers: bool
) -> None:
    monkeypatch.setattr(netbox_fetch, "READ_TIMEOUT", 0.2)

    def stall(handler: Handler, box: Server) -> None:
        if headers:
            handler.send_response(200)
            handler.send_header("Content-Length", "100")
            handler.end_headers()
        box.release.wait(10)

    with serve(stall) as netbox:
        result, out = _import(netbox.url, tmp_path)
    assert (
        f"error: NetBox at {netbox.url} did not answer within 0.2 s (/api/status/)"
        in _bad_input(result, out)
    )
    assert netbox.sent == 0


# --- a bad answer is bad input ---------------------------------------------------------------


def _sites(answer: object):
    def override(handler: Handler, box: Server) -> bool:
        if handler.path.startswith("/api/dcim/sites/"):
            body = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.write(body)
            return True
        return False

    return override


@pytest.mark.parametrize(
    ("answer", "what"),
    [
        ({"count": 1, "next": None, "results": [7]}, "a site without an id"),
        ({"count": 1, "next": None, "results": [{"slug": "hall-b3"}]}, "a site without an id"),
        ({"count": 1, "next": None, "results": 7}, "TypeError"),
        ({"count": 1, "results": [{"id": 1}]}, "KeyError"),  # no next
        (b"[" * 200_000 + b"]" * 200_000, "RecursionError"),  # JSON nested too deep
    ],
    ids=["item-not-object", "site-without-id", "results-not-list", "no-next", "deep"],
)
def test_an_answer_of_the_wrong_shape_is_bad_input(
    tmp_path: Path, answer: object, what: str
) -> None:
    with serve(FakeNetBox(override=_sites(answer))) as netbox:
        result, out = _import(netbox.url, tmp_path)
    assert (
        f"error: NetBox at {netbox.url} answered /api/dcim/sites/ with something that is not "
        f"NetBox's API ({what})"
    ) in _bad_input(result, out)


def test_list_items_that_are_not_objects_are_in_the_mapping_report(tmp_path: Path) -> None:
    netbox_answers = FakeNetBox()
    netbox_answers.lists["racks"] += [5, "B13", None]
    with serve(netbox_answers) as netbox:
        result, _ = _import(netbox.url, tmp_path, "--report", str(tmp_path / "mapping.md"))
    assert result.exit_code == 0, result.output
    report = (tmp_path / "mapping.md").read_text()
    assert "- rack item 21: cannot be read: not an object but a number" in report
    assert "- rack item 22: cannot be read: not an object but a string" in report
    assert "- rack item 23: cannot be read: not an object but null" in report
    assert "20 racks" in result.output


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:99999", "http://[::1", "netbox.local", "ftp://127.0.0.1/", "http://"],
)
def test_a_url_that_is_not_one_is_bad_input(tmp_path: Path, url: str) -> None:
    result, out = _import(url, tmp_path)
    assert "error: not an http(s) URL" in _bad_input(result, out)


@pytest.mark.parametrize("token", ["nbt_a b", "nbt_a\x01b", "nbt_ä"])
def test_a_token_no_header_can_carry_is_refused_without_showing_it(
    tmp_path: Path, token: str
) -> None:
    out = tmp_path / "s.yaml"
    result = runner.invoke(
        app,
        ["import", "netbox", "--url", "http://127.0.0.1:9", "--site", "x", "-o", str(out)],
        env={"NETBOX_TOKEN": token},
    )
    assert result.exit_code == 2
    assert "which an HTTP request cannot carry" in result.output
    assert token not in result.output and not out.exists()


def test_fetch_errors_are_messages() -> None:
    from facility.messages import Message

    with pytest.raises(FetchError) as caught:
        fetch("netbox.local", TOKEN, "x")
    assert isinstance(caught.value.args[0], Message)
