"""Hostile path names — as the site, a base it extends, a report target and a diff state.

A name is built from hostile pieces (300-character components, ``..``, ``.``, absolute roots,
NUL, newlines, terminal escapes, right-to-left marks, shell characters, CJK) and made into one
kind of thing: nothing, the small ready pod, a directory, a FIFO, a symlink loop, a dangling
symlink, a symlink to the pod. It is then given to ``check`` (as the site, as the ``extends``
entry of a site or as ``-o``) or to ``diff``. Then:

- the exit code is 0, 1 or 2, never a traceback or an internal error (a FIFO is never opened:
  the run would block);
- on exit 2 nothing of the working directory (and the four above it, inside the test's own
  temporary directory, which every name stays in) changes;
- on exit 0 or 1 a requested report is at the named path (or where the link of that name
  points).

A short run is in the default suite; ``-m slow`` runs many more examples.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from facility.cli import app

SITE = (Path(__file__).resolve().parents[2] / "examples" / "small-ready.yaml").read_text(
    encoding="utf-8"
)
PIECES = st.sampled_from(
    [
        "a", "site.yaml", "r.json", "x" * 300, "y" * 255, "..", ".", "", "/", "/etc", "/dev",
        "\x00", "a\x00b", "\n", "\t", " ", " lead", "trail ", "-x", "--help", "\x1b[2J",
        "\u202e", "*", "?", "$HOME", "%s", "~", "名前", "é", "a:b", "\\", "CON", "nul",
    ]
)  # fmt: skip
KINDS = st.sampled_from(["nothing", "site", "directory", "fifo", "loop", "dangling", "link"])


def _tree(root: Path) -> dict[str, bytes | str]:
    """What the working directory holds: each entry's bytes, or its kind (links not followed)."""
    held: dict[str, bytes | str] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            held[name] = "link → " + os.readlink(path)
        elif path.is_file():
            held[name] = path.read_bytes()
        else:
            held[name] = "directory" if path.is_dir() else "special"
    return held


def _make(path: Path, kind: str) -> None:
    """Make ``path`` a thing of ``kind`` where the file system allows; else leave it missing."""
    if kind == "nothing":
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if kind == "site":
            path.write_text(SITE, encoding="utf-8")
        elif kind == "directory":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "loop":
            path.symlink_to(path.name)
        elif kind == "dangling":
            path.symlink_to("nowhere-at-all")
        else:
            target = path.parent / "pod.yaml"
            target.write_text(SITE, encoding="utf-8")
            path.symlink_to(target)
    except (OSError, ValueError):  # a name too long, a NUL, a component that is a file
        pass


@st.composite
def names(draw) -> str:
    return "/".join(draw(st.lists(PIECES, min_size=1, max_size=4)))


def _working_directory(top: Path) -> Path:
    """Four levels under ``top``: a name has at most four pieces, so its ".." stay in ``top``."""
    work = top / "1" / "2" / "3" / "4"
    work.mkdir(parents=True)
    return work


def _run(tmp: Path, args: list[str], report: Path | None = None) -> None:
    top = tmp.parents[3]
    before = _tree(top)
    cwd = Path.cwd()
    os.chdir(tmp)
    try:
        result = CliRunner().invoke(app, args)
    finally:
        os.chdir(cwd)
    assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    for stream in (result.stdout, result.stderr):
        assert "Traceback" not in stream and "internal error" not in stream, stream
    if result.exit_code == 2:
        assert _tree(top) == before, result.stderr
    elif report is not None and "--help" not in args:
        assert report.is_file(), result.output  # (or a link to one: written through it)


def _under(tmp: Path, name: str) -> str:
    """``name`` as an argument inside the working directory ``tmp``: an absolute name is rooted
    there (a test writes nowhere else), and "./" keeps a name that starts with "-" from reading
    as an option."""
    return f"{tmp}/{name}" if name.startswith("/") else f"./{name}"


def _site_case(tmp: Path, name: str, kind: str) -> None:
    _make(tmp / name.lstrip("/"), kind)
    _run(tmp, ["check", _under(tmp, name)])


def _base_case(tmp: Path, name: str, kind: str) -> None:
    # An absolute base stays absolute in the file: it is outside the site's directory and
    # refused before anything is read.
    if not name.startswith("/"):
        _make(tmp / name, kind)
    (tmp / "top.yaml").write_text(f"extends: {json.dumps(name)}\n", encoding="utf-8")
    _run(tmp, ["check", "top.yaml"])


def _output_case(tmp: Path, name: str, kind: str) -> None:
    (tmp / "pod.yaml").write_text(SITE, encoding="utf-8")
    _make(tmp / name.lstrip("/"), kind)
    where = _under(tmp, name)
    if not where.endswith((".json", ".html", ".md", ".txt", ".sarif", ".xml")):
        where += ".json"
    report = Path(where) if where.startswith("/") else tmp / where
    if "\0" not in where:  # (a name with a NUL byte names no file at all)
        inside = Path(os.path.realpath(report)).is_relative_to(os.path.realpath(tmp.parents[3]))
        assert inside, report
    _run(tmp, ["check", "pod.yaml", "-o", where], report=report)


def _diff_case(tmp: Path, name: str, kind: str) -> None:
    (tmp / "pod.yaml").write_text(SITE, encoding="utf-8")
    _make(tmp / name.lstrip("/"), kind)
    _run(tmp, ["diff", "pod.yaml", _under(tmp, name)])


CASES = {"site": _site_case, "base": _base_case, "output": _output_case, "diff": _diff_case}
FAST = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@FAST
@given(role=st.sampled_from(sorted(CASES)), name=names(), kind=KINDS)
def test_a_hostile_path_exits_0_1_or_2_and_changes_nothing_on_2(
    tmp_path_factory, role, name, kind
) -> None:
    CASES[role](_working_directory(tmp_path_factory.mktemp("path")), name, kind)


@pytest.mark.slow
@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(role=st.sampled_from(sorted(CASES)), name=names(), kind=KINDS)
def test_many_hostile_paths(tmp_path_factory, role, name, kind) -> None:
    CASES[role](_working_directory(tmp_path_factory.mktemp("path")), name, kind)
