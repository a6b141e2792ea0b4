"""Layered site files: ``extends: base.yaml`` (or a list of bases, applied in order).

A site file may start from other files: each base is read (and its own bases, up to
:data:`MAX_DEPTH` files deep; a cycle is an error), then the extending file is merged over
them:

- mappings merge key by key, recursively;
- lists whose items are all mappings with a string ``id`` merge by id: an overlay item's fields
  merge into the base item with the same id, and new ids are appended in overlay order;
- anything else (a scalar, ``null``, any other list) replaces the base value.

Every value keeps where it was written: the merged source map holds, for values from other
files, ``(file, line, column)`` (see :class:`~facility.model.source.SourceMap`), so an error in
a figure that came from a base names the base file and its line. Only the overlays are walked:
a large base (thousands of imported racks) is merged in place, its positions untouched.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from facility.messages import Message
from facility.model.site import Layer
from facility.model.source import (
    InputError,
    Path_,
    Problem,
    SourceMap,
    field_name,
    read_document,
)

KEY = "extends"
MAX_DEPTH = 8  # bases below the file given


def apply_extends(
    path: Path, data: dict[str, Any], source: SourceMap, sha256: str
) -> tuple[dict[str, Any], SourceMap, list[Layer]]:
    """``data`` (the file ``path``, which has ``extends:``) merged over its bases.

    Returns the merged data, its source map (``file`` stays ``path``) and every file in the
    order applied, the given one last. Raises InputError.
    """
    layers: list[Layer] = []
    merged, merged_source = _over_bases(path, data, source, (path.resolve(),), layers)
    layers.append(Layer(str(path), sha256))
    out = SourceMap(source.file, merged_source.positions, merged_source.written_in)
    out.positions[()] = (source.file, 1, 1)
    return merged, out, _unique(layers)


def _over_bases(
    path: Path,
    data: dict[str, Any],
    source: SourceMap,
    chain: tuple[Path, ...],
    layers: list[Layer],
) -> tuple[dict[str, Any], SourceMap]:
    """``data`` merged over the bases it names (each with its own bases first)."""
    problems: list[Problem] = []
    merged: tuple[dict[str, Any], SourceMap] | None = None
    for base, where in _targets(data[KEY], source, problems):
        target = path.parent / base
        resolved = target.resolve()

        def problem(message: str, where: Path_ = where) -> None:
            problems.append(Problem(source.locate(where), field_name(where), message))

        if resolved in chain:
            names = " → ".join(str(p.name) for p in (*chain, resolved))
            problem(
                Message("extending '%(base)s' makes a cycle: %(chain)s", base=base, chain=names)
            )
            continue
        if len(chain) > MAX_DEPTH:
            problem(
                Message(
                    "bases nest more than %(limit)s files deep (at '%(base)s')",
                    limit=MAX_DEPTH,
                    base=base,
                )
            )
            continue
        if not target.is_file():
            problem(
                Message("base file '%(base)s' not found (%(path)s)", base=base, path=str(target))
            )
            continue
        base_data, base_source, raw = read_document(target)
        if not isinstance(base_data, dict):
            raise InputError(
                [
                    Problem(
                        base_source.locate(()),
                        "",
                        Message("a base file is a mapping, like a site file"),
                    )
                ]
            )
        if KEY in base_data:
            base_data, base_source = _over_bases(
                target, base_data, base_source, (*chain, resolved), layers
            )
        layers.append(Layer(str(target), hashlib.sha256(raw).hexdigest()))
        if merged is None:
            merged = (base_data, base_source)
        else:
            merge(*merged, base_data, base_source)
    if problems:
        raise InputError(problems)
    del data[KEY]
    if merged is None:  # pragma: no cover - _targets reports an empty list
        return data, source
    merge(*merged, data, source)
    return merged


def _targets(value: Any, source: SourceMap, problems: list[Problem]) -> list[tuple[str, Path_]]:
    """The base paths of an ``extends:`` value, each with its data path."""
    if isinstance(value, str) and value.strip():
        return [(value, (KEY,))]
    if isinstance(value, list) and value:
        found: list[tuple[str, Path_]] = []
        for i, item in enumerate(value):
            if isinstance(item, str) and item.strip():
                found.append((item, (KEY, i)))
            else:
                problems.append(
                    Problem(
                        source.locate((KEY, i)),
                        field_name((KEY, i)),
                        Message("must be the path of a base file"),
                    )
                )
        return found
    problems.append(
        Problem(
            source.locate((KEY,)),
            KEY,
            Message("must be the path of a base file, or a list of paths"),
        )
    )
    return []


def _unique(layers: list[Layer]) -> list[Layer]:
    """Layers without repeats (a base reached twice through two others is listed once)."""
    seen: set[str] = set()
    out = []
    for layer in layers:
        key = str(Path(layer.file).resolve())
        if key not in seen:
            seen.add(key)
            out.append(layer)
    return out


# --- merging ----------------------------------------------------------------------------------


def merge(
    base: dict[str, Any], into: SourceMap, overlay: dict[str, Any], source: SourceMap
) -> None:
    """Merge ``overlay`` (written as ``source`` says) over ``base`` in place; ``into`` is the
    source map of ``base`` and gets the positions of what the overlay brought."""
    _Merge(into.positions, into.written_in, source).mapping(base, overlay, (), ())


def _by_id(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(item, dict) and isinstance(item.get("id"), str) for item in value
    )


class _Merge:
    def __init__(self, positions: dict[Path_, Any], written_in: str, source: SourceMap):
        self.positions = positions
        self.theirs = source.positions
        # Positions of the overlay's own file are stored with their file, unless it is the
        # file the base's untagged positions belong to.
        self.file = None if source.written_in == written_in else source.written_in

    def mapping(self, base: dict[str, Any], overlay: dict[str, Any], here: Path_, there: Path_):
        for key, value in overlay.items():
            at, of = (*here, key), (*there, key)
            if key in base:
                old = base[key]
                if isinstance(old, dict) and isinstance(value, dict):
                    self.mapping(old, value, at, of)
                    continue
                if _by_id(old) and _by_id(value) and old and value:
                    self.by_id(old, value, at, of)
                    continue
                self.forget(old, at)
            base[key] = value
            self.copy(value, at, of)

    def by_id(self, base: list[Any], overlay: list[Any], here: Path_, there: Path_) -> None:
        index: dict[str, int] = {}
        for i, item in enumerate(base):
            index.setdefault(item["id"], i)
        merged: set[int] = set()
        for j, item in enumerate(overlay):
            at = index.get(item["id"])
            if at is not None and at not in merged:
                merged.add(at)
                rest = {k: v for k, v in item.items() if k != "id"}  # the id stays where it was
                self.mapping(base[at], rest, (*here, at), (*there, j))
            else:  # a new id, or the same id twice in the overlay (the loader reports it)
                base.append(item)
                self.copy(item, (*here, len(base) - 1), (*there, j))

    def copy(self, value: Any, here: Path_, there: Path_) -> None:
        """Record where ``value`` (at ``there`` in the overlay) and everything in it was written."""
        found = self.theirs.get(there)
        if found is not None:
            self.positions[here] = (self.file, *found) if self.file and len(found) == 2 else found
        if isinstance(value, dict):
            for key, item in value.items():
                self.copy(item, (*here, key), (*there, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.copy(item, (*here, i), (*there, i))

    def forget(self, value: Any, here: Path_) -> None:
        """Drop the positions of a base value that the overlay replaces."""
        if isinstance(value, dict):
            for key, item in value.items():
                self.positions.pop((*here, key), None)
                self.forget(item, (*here, key))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.positions.pop((*here, i), None)
                self.forget(item, (*here, i))
