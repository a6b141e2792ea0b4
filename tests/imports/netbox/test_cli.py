"""`facility import netbox` on the command line, offline: the recorded snapshot stands in for
the server, and a tiny HTTP server on 127.0.0.1 plays a NetBox that refuses or does not exist."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.imports import netbox_fetch

from ._snapshot import hall_b3

TOKEN = "nbt_testkey00001.secretSecretSecret0123456789abcdefghijklm"
runner = CliRunner()


def _invoke(*args: str, token: str | None = TOKEN, url: str = "http://127.0.0.1:9"):
    env = {"NETBOX_TOKEN": token} if token is not None else {}
    return runner.invoke(app, ["import", "netbox", "--url", url, *args], env=env)


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str]]:
    calls: list[tuple[str, str, str]] = []

    def fake_fetch(url: str, token: str, site: str, **_: object):
        calls.append((url, token, site))
        return hall_b3()

    monkeypatch.setattr(netbox_fetch, "fetch", fake_fetch)
    return calls


def test_writes_the_site_file_and_the_report(recorded, tmp_path: Path) -> None:
    out, report = tmp_path / "hall-b3-netbox.yaml", tmp_path / "mapping.md"
    result = _invoke("--site", "hall-b3", "-o", str(out), "--report", str(report))
    assert result.exit_code == 0, result.output
    assert recorded == [("http://127.0.0.1:9", TOKEN, "hall-b3")]  # token from NETBOX_TOKEN
    text = out.read_text()
    assert "peak_power: 155 kW" in text
    assert "NetBox 4.7.3 at http://127.0.0.1:9, site hall-b3" in text
    assert "## Guessed" in report.read_text()
    assert "wrote" in result.output and "20 racks" in result.output
    for written in (text, report.read_text(), result.output):
        assert TOKEN not in written and "secretSecret" not in written


def test_stdout_and_report_on_stderr(recorded) -> None:
    result = _invoke("--site", "hall-b3", "--token", TOKEN, token=None)
    assert result.exit_code == 0
    assert "schema_version: 1" in result.stdout
    assert "# NetBox import:" in result.stderr and "# NetBox import:" not in result.stdout


def test_url_credentials_are_not_written(recorded, tmp_path: Path) -> None:
    out = tmp_path / "s.yaml"
    result = _invoke("--site", "hall-b3", "-o", str(out), url="http://user:pw@127.0.0.1:9/?x=1")
    assert result.exit_code == 0
    assert "pw@" not in out.read_text() and "http://127.0.0.1:9," in out.read_text()


def test_no_token(tmp_path: Path) -> None:
    result = _invoke("--site", "x", "-o", str(tmp_path / "s.yaml"), token="  ")
    assert result.exit_code == 2
    assert "no NetBox token" in result.output and "Traceback" not in result.output


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_server(tmp_path: Path) -> None:
    out = tmp_path / "s.yaml"
    result = _invoke("--site", "x", "-o", str(out), url=f"http://127.0.0.1:{_closed_port()}")
    assert result.exit_code == 2
    assert "error: cannot reach NetBox at http://127.0.0.1:" in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_not_a_url(tmp_path: Path) -> None:
    result = _invoke("--site", "x", "-o", str(tmp_path / "s.yaml"), url="netbox.local")
    assert result.exit_code == 2 and "not an http(s) URL" in result.output


class _Fake(BaseHTTPRequestHandler):
    mode = "refuse"

    def do_GET(self) -> None:
        if self.mode == "html":
            body, code, kind = b"<html>hello</html>", 200, "text/html"
        elif self.mode == "refuse":
            body, code, kind = b'{"detail": "Invalid v2 token"}', 403, "application/json"
        elif self.path.startswith("/api/status/"):
            body, code, kind = b'{"netbox-version": "4.7.3"}', 200, "application/json"
        else:  # sites: none with that slug, name or id, and one other
            other = {"id": 1, "slug": "hall-a1", "name": "Hall A1"}
            asked = ("slug=", "name=", "id=")
            results = [] if any(a in self.path for a in asked) else [other]
            data = {"count": len(results), "next": None, "previous": None, "results": results}
            body, code, kind = json.dumps(data).encode(), 200, "application/json"
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def fake_netbox() -> Iterator[tuple[str, type[_Fake]]]:
    handler = type("Handler", (_Fake,), {})
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", handler
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("refuse", "refused the token (HTTP 403)"),
        ("html", "does not answer like a NetBox API"),
        ("sites", "has no site with slug, name or id 'hall-b3' (sites: hall-a1 (Hall A1))"),
    ],
)
def test_server_answers(fake_netbox, tmp_path: Path, mode: str, message: str) -> None:
    url, handler = fake_netbox
    handler.mode = mode
    out = tmp_path / "s.yaml"
    result = _invoke("--site", "hall-b3", "-o", str(out), url=url)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output and TOKEN not in result.output
    assert not out.exists()


def test_bad_value_from_netbox(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    snap = hall_b3()
    snap.power_feeds[0]["voltage"] = "four hundred"
    monkeypatch.setattr(netbox_fetch, "fetch", lambda *a, **k: snap)
    out = tmp_path / "s.yaml"
    result = _invoke("--site", "hall-b3", "-o", str(out))
    assert result.exit_code == 2
    assert "cannot read: power feed A01-A1: voltage is not a number" in result.output
    assert not out.exists()


def test_output_and_report_must_differ(tmp_path: Path) -> None:
    same = tmp_path / "x.yaml"
    result = _invoke("--site", "x", "-o", str(same), "--report", str(same))
    assert result.exit_code == 2 and "same file" in result.output


def test_check_does_not_import_pynetbox() -> None:
    import subprocess
    import sys

    code = (
        "import sys, facility.cli; "
        "print(any(m.split('.')[0] in ('pynetbox', 'requests') for m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_an_imported_site_without_its_engineering_layer_is_incomplete(
    recorded, tmp_path: Path
) -> None:
    # NetBox knows no supply temperatures, pressure drops or floor ratings: the imported base
    # alone cannot show readiness, and says so (it used to read READY WITH WARNINGS, exit 0).
    out = tmp_path / "hall-b3-netbox.yaml"
    assert _invoke("--site", "hall-b3", "-o", str(out)).exit_code == 0
    check = runner.invoke(app, ["check", str(out)])
    assert check.exit_code == 1, check.output
    assert "verdict: INCOMPLETE" in check.stdout
    assert "error-severity checks could not be evaluated" in " ".join(check.stdout.split())
