"""Writing reports: all or nothing, streamed, never over an input, ordinary file mode."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from facility.report.write import write_all_atomically, write_atomically


def test_pieces_are_written_in_order(tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    write_atomically(out, iter(["{", '"a": 1', "}\n"]))
    assert out.read_text(encoding="utf-8") == '{"a": 1}\n'
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~umask


def test_a_failure_in_a_later_report_leaves_every_file_as_it_was(tmp_path: Path) -> None:
    first, second = tmp_path / "report.html", tmp_path / "result.json"
    first.write_text("old html", encoding="utf-8")

    def broken() -> Iterator[str]:
        yield '{"half": '
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        write_all_atomically([(first, lambda: "new html"), (second, broken)])
    assert first.read_text(encoding="utf-8") == "old html"  # not replaced: all or nothing
    assert not second.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]  # no temporary left


def test_refuses_to_write_over_an_input_before_writing_anything(tmp_path: Path) -> None:
    site, out = tmp_path / "site.yaml", tmp_path / "report.md"
    site.write_text("site: {name: x}\n", encoding="utf-8")
    rendered = []

    def render() -> str:
        rendered.append(True)
        return "report"

    with pytest.raises(ValueError, match="over the input file"):
        write_all_atomically([(out, render), (site, lambda: "x")], protected=(site,))
    assert not rendered and not out.exists()
    assert site.read_text(encoding="utf-8") == "site: {name: x}\n"
