"""Fixtures of the model tests: ``reference``, scripts/site_reference.py loaded as a module (it
writes docs/site-file.md and walks the schema's fields against the rules' inputs)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reference() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location(
        "site_reference", ROOT / "scripts" / "site_reference.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]
