"""Helpers for model tests: write a site fragment to a file, load it, collect its problems."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from facility.model.load import load_site
from facility.model.site import Site
from facility.model.source import InputError

MINIMAL = "site: {name: T}\n"


def write(tmp_path: Path, text: str | bytes, name: str = "site.yaml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def load(tmp_path: Path, text: str, name: str = "site.yaml") -> Site:
    return load_site(write(tmp_path, text, name))


def problems(
    tmp_path: Path, text: str | bytes, name: str = "site.yaml"
) -> list[tuple[int, int, str, str]]:
    """(line, column, field path, message) of every problem; each must be in file ``name``."""
    path = write(tmp_path, text, name)
    with pytest.raises(InputError) as info:
        load_site(path)
    found = info.value.problems
    assert found, "an InputError must carry at least one problem"
    for problem in found:
        assert problem.location.file == str(path)
    return [(p.location.line, p.location.column, p.field, p.message) for p in found]


def one_problem(tmp_path: Path, text: str | bytes, name: str = "site.yaml"):
    found = problems(tmp_path, text, name)
    assert len(found) == 1, found
    return found[0]
