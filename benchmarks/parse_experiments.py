"""What faster variants of the site-file parser would gain. Prototypes, not the product code.

    uv run python benchmarks/parse_experiments.py FILE [--runs 3]

``facility.model.source.parse_document`` composes the libyaml node tree and then walks it in
Python into plain data plus a source map with the line and column of every value. This script
times that against prototypes of cheaper designs, each checked to give the same data and the
same locations as the current code:

- ``current``: ``parse_document`` as it is;
- ``current, gc off``: the same with the cyclic garbage collector disabled during the parse
  (parsing allocates millions of container objects, and every 700 of them start a collection
  that walks young objects, and now and then all of them);
- ``lean``: a loader whose implicit-tag resolver is memoised per (value, implicit) (the
  resolver is a Python call per scalar, made by the C composer), and a builder that takes str,
  null and plain decimal int scalars straight from the node instead of through PyYAML's
  generic constructor, and tracks nodes for the alias bound only if the text has an anchor;
  positions still recorded eagerly for every value; gc off;
- ``lean, lazy positions``: the same without the eager source map: the node tree is kept and
  a path is located by walking it on demand (only errors and entity ids need a location);
- ``yaml.load``: ``yaml.load(text, CSafeLoader)`` for reference (no positions, no checks);
- ``json.loads``: the same data written as JSON and read by the stdlib, for reference (what a
  JSON export could cost without positions).

It also times ``load_site`` end to end with ``read_document``'s parser swapped for the
prototypes (validation and resolution unchanged), which is the gain a user would see.

The prototypes are first checked to give the same data and locations as ``parse_document``;
then each variant is timed in a fresh process (median of ``--runs``), with its peak memory
(which includes reading the text, and for JSON converting the file to JSON first).
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from facility.model import source as current
from facility.model.source import (
    _STANDARD_TAGS,
    MAX_ALIAS_EXPANSION,
    Location,
    Path_,
    SourceMap,
)

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_NULL = "tag:yaml.org,2002:null"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")  # YAML 1.1: '010' is octal, '1_000' is 1000


class MemoLoader(yaml.CSafeLoader):
    """CSafeLoader whose implicit resolution of plain scalars is memoised (same tags)."""

    _memo: dict[tuple[str, bool, bool], str] = {}

    def resolve(self, kind, value, implicit):
        if kind is yaml.ScalarNode:
            key = (value, *implicit)
            tag = self._memo.get(key)
            if tag is None:
                tag = super().resolve(kind, value, implicit)
                if len(self._memo) < 100_000:
                    self._memo[key] = tag
            return tag
        return super().resolve(kind, value, implicit)


class _AliasBomb(Exception):
    pass


class LeanBuilder:
    """The walk of ``source._Builder`` with fast paths; same data, same problems."""

    def __init__(self, source: SourceMap, track_aliases: bool, positions: bool):
        self.source = source
        self.positions = source.positions if positions else None
        self.scalars = yaml.constructor.SafeConstructor()
        self.track = track_aliases
        self.seen: set[int] = set()
        self.visits = 0
        self.problems: list[str] = []

    def build(self, node: yaml.Node, path: Path_) -> Any:
        tag = node.tag
        if type(node) is yaml.ScalarNode:
            if tag == _STR:
                return node.value
            if tag == _NULL:
                return None
            if tag == _INT and _DECIMAL.match(node.value):
                return int(node.value)
            if tag not in _STANDARD_TAGS:
                self.problems.append(f"tag {tag}")
                return None
            if tag == _TIMESTAMP:
                return node.value
            return self.scalars.construct_object(node, deep=True)
        if self.track:
            self.visits += 1
            if id(node) in self.seen:
                if self.visits > len(self.seen) + MAX_ALIAS_EXPANSION:
                    raise _AliasBomb
            else:
                self.seen.add(id(node))
        positions = self.positions
        if tag == _MAP:
            result: dict[str, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE:
                    self.problems.append("merge")
                    continue
                key = self.build(key_node, path)
                if not isinstance(key, str):
                    if isinstance(key, bool | int | float) or key is None:
                        key = str(key).lower() if isinstance(key, bool) else str(key)
                    else:
                        self.problems.append("key")
                        continue
                if key in result:
                    self.problems.append("duplicate")
                    continue
                child = (*path, key)
                if positions is not None:
                    mark = key_node.start_mark
                    positions[child] = (mark.line + 1, mark.column + 1)
                result[key] = self.build(value_node, child)
            return result
        if tag == _SEQ:
            items = []
            for index, item in enumerate(node.value):
                child = (*path, index)
                if positions is not None:
                    mark = item.start_mark
                    positions[child] = (mark.line + 1, mark.column + 1)
                items.append(self.build(item, child))
            return items
        self.problems.append(f"tag {tag}")
        return None


class LazySourceMap(SourceMap):
    """A source map that finds a path in the kept node tree when asked."""

    __slots__ = ("root",)

    def __init__(self, file: str, root: yaml.Node):
        super().__init__(file)
        self.root = root

    def _position(self, path: Path_) -> tuple[int, int] | None:
        node = self.root
        mark = None
        for part in path:
            if isinstance(node, yaml.MappingNode) and isinstance(part, str):
                for key_node, value_node in node.value:
                    if key_node.value == part or (
                        key_node.tag != _STR and str(key_node.value).lower() == part
                    ):
                        mark, node = key_node.start_mark, value_node
                        break
                else:
                    return None
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
                if not 0 <= part < len(node.value):
                    return None
                node = node.value[part]
                mark = node.start_mark
            else:
                return None
        return (mark.line + 1, mark.column + 1) if mark else (1, 1)

    def locate(self, path: Path_) -> Location:
        path = tuple(path)
        while path:
            found = self._position(path)
            if found is not None:
                return Location(self.file, *found)
            path = path[:-1]
        return Location(self.file, 1, 1)


def parse_lean(text: str, file: str, *, lazy: bool) -> tuple[Any, SourceMap]:
    node = yaml.compose(text, Loader=MemoLoader)
    source: SourceMap = LazySourceMap(file, node) if lazy else SourceMap(file)
    builder = LeanBuilder(source, track_aliases="&" in text, positions=not lazy)
    data = builder.build(node, ())
    if builder.problems:
        raise ValueError(builder.problems[:5])
    return data, source


def gc_off(function: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        was = gc.isenabled()
        gc.disable()
        try:
            return function()
        finally:
            if was:
                gc.enable()

    return run


VARIANTS: list[tuple[str, Callable[[str, str], Any]]] = [
    ("current", lambda text, name: current.parse_document(text, name)),
    ("current, gc off", lambda text, name: gc_off(lambda: current.parse_document(text, name))()),
    (
        "lean (memo resolver, fast scalars)",
        lambda text, name: gc_off(lambda: parse_lean(text, name, lazy=False))(),
    ),
    (
        "lean, lazy positions",
        lambda text, name: gc_off(lambda: parse_lean(text, name, lazy=True))(),
    ),
    ("lean, lazy positions, gc on", lambda text, name: parse_lean(text, name, lazy=True)),
    ("yaml.load CSafeLoader (no positions)", lambda text, name: yaml.load(text, yaml.CSafeLoader)),
    (
        "yaml.load CSafeLoader, gc off",
        lambda text, name: gc_off(lambda: yaml.load(text, yaml.CSafeLoader))(),
    ),
    ("json.loads of the same data as JSON", lambda text, name: json.loads(text)),
]

# End to end: load_site with read_document's parser swapped (validate and resolve unchanged).
LOAD_VARIANTS: list[tuple[str, Callable[[str, str], Any] | None, bool]] = [
    ("load_site, current", None, False),
    ("load_site, gc off", None, True),
    ("load_site, lean parse, gc off", lambda text, name: parse_lean(text, name, lazy=False), True),
    (
        "load_site, lean lazy parse, gc off",
        lambda text, name: parse_lean(text, name, lazy=True),
        True,
    ),
]


def _peak_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")  # pragma: no cover


def load_worker(index: int, file: Path) -> None:
    from facility.model.load import load_site

    _, parse, no_gc = LOAD_VARIANTS[index]
    if parse is not None:
        current.parse_document = parse  # read_document looks it up at call time
    if no_gc:
        gc.disable()
    start = time.perf_counter()
    site = load_site(file)
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "peak_mb": _peak_mb(), "racks": len(site.racks)}))


def worker(index: int, file: Path) -> None:
    label, function = VARIANTS[index]
    text = file.read_text(encoding="utf-8")
    if label.startswith("json"):
        text = json.dumps(current.parse_document(text, str(file))[0])
        gc.collect()
    start = time.perf_counter()
    function(text, str(file))
    seconds = time.perf_counter() - start
    print(json.dumps({"seconds": seconds, "peak_mb": _peak_mb()}))


def check(file: Path) -> int:
    """The prototypes give the same data and locations as the current parser."""
    text = file.read_text(encoding="utf-8")
    data, source = current.parse_document(text, str(file))
    for lazy in (False, True):
        got, got_source = parse_lean(text, str(file), lazy=lazy)
        assert got == data, "data differs"
        for path in list(source.positions)[:: max(1, len(source.positions) // 20_000)]:
            assert got_source.locate(path) == source.locate(path), path
    return len(source.positions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--load-worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--no-parse", action="store_true", help="only the load_site variants")
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker, args.file)
        return
    if args.load_worker is not None:
        load_worker(args.load_worker, args.file)
        return

    located = check(args.file)
    size = args.file.stat().st_size / 1e6
    print(f"{args.file}: {size:.1f} MB, {located:,} located values; prototypes checked equal")
    runs: list[tuple[str, str, int]] = [
        (label, "--load-worker", i) for i, (label, _, _) in enumerate(LOAD_VARIANTS)
    ]
    if not args.no_parse:
        runs += [(label, "--worker", i) for i, (label, _) in enumerate(VARIANTS)]
    print(f"  {'variant (fresh process each)':<38} {'seconds':>8} {'speed-up':>8} {'peak MB':>8}")
    base: dict[str, float] = {}
    for label, flag, index in runs:
        results = []
        for _ in range(args.runs):
            out = subprocess.run(
                [sys.executable, __file__, str(args.file), flag, str(index)],
                check=True,
                capture_output=True,
                text=True,
            )
            results.append(json.loads(out.stdout))
        seconds = statistics.median(r["seconds"] for r in results)
        peak = max(r["peak_mb"] for r in results)
        reference = base.setdefault(flag, seconds)
        if flag == "--worker" and index == 0:
            print(f"  {'-- parse only (parse_document and alternatives)':<38}")
        print(f"  {label:<38} {seconds:8.2f} {reference / seconds:8.2f} {peak:8.0f}")

    text = args.file.read_text(encoding="utf-8")
    data = yaml.load(text, yaml.CSafeLoader)
    lazy = parse_lean(text, str(args.file), lazy=True)[1]
    rack_ids = [("racks", i, "id") for i in range(len(data.get("racks", [])))]
    if rack_ids:
        start = time.perf_counter()
        for path in rack_ids:
            lazy.locate(path)
        seconds = time.perf_counter() - start
        print(
            f"  lazy locate() of every rack id: {seconds:.3f} s for {len(rack_ids):,} racks"
            " (what resolve asks for)"
        )


if __name__ == "__main__":
    main()
