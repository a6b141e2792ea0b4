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

import copy
import errno
import hashlib
import os
from pathlib import Path
from typing import Any

from facility.messages import Message
from facility.model.errors import shortened
from facility.model.site import Layer
from facility.model.source import (
    InputError,
    Path_,
    Problem,
    SourceMap,
    field_name,
    not_a_file,
    read_document,
)

KEY = "extends"
MAX_DEPTH = 8  # bases below the file given
MAX_FILES = 64  # distinct files in one layered site, the given one included

# Bases must lie in the directory tree of the file given (as kustomize's default load
# restrictor): an absolute path or a '..' that leaves it is refused, unless this is set
# (``facility --allow-outside-bases``; library callers pass ``allow_outside``).
OUTSIDE_BASES = {"allowed": False}


class _Reading:
    """One layered site being read: its root directory, each file parsed once, how many files
    extend each base, and the merged result of each base that more than one file extends (a
    base reached again is copied, not read and merged again, so bases extending the same files
    twice over cannot grow the work exponentially; a base extended once is merged in place)."""

    def __init__(self, root: Path, outside_allowed: bool):
        self.root = root
        self.outside_allowed = outside_allowed
        self.parsed: dict[Path, tuple[Any, SourceMap, bytes]] = {}
        self.extended_by: dict[Path, int] = {}
        self.done: dict[Path, tuple[dict[str, Any], SourceMap, list[Layer]]] = {}

    def read(self, target: Path, resolved: Path) -> tuple[Any, SourceMap, bytes]:
        found = self.parsed.get(resolved)
        if found is None:
            found = self.parsed[resolved] = read_document(target)
        return found

    def count(self, path: Path, data: Any) -> None:
        """Walk the bases below ``path`` once, counting how many files extend each."""
        todo = [(path, data)]
        seen = {path.resolve()}
        while todo:
            here, here_data = todo.pop()
            if not isinstance(here_data, dict) or KEY not in here_data:
                continue
            for base, _where in _targets(here_data[KEY], SourceMap(str(here)), []):
                target = here.parent / base
                if _refused(base, target, self) is not None:
                    continue  # reported by the merge
                resolved = target.resolve()
                self.extended_by[resolved] = self.extended_by.get(resolved, 0) + 1
                if resolved in seen or len(seen) >= MAX_FILES:
                    continue
                seen.add(resolved)
                try:
                    todo.append((target, self.read(target, resolved)[0]))
                except InputError:
                    continue  # reported by the merge


def apply_extends(
    path: Path,
    data: dict[str, Any],
    source: SourceMap,
    sha256: str,
    allow_outside: bool | None = None,
) -> tuple[dict[str, Any], SourceMap, list[Layer]]:
    """``data`` (the file ``path``, which has ``extends:``) merged over its bases.

    Returns the merged data, its source map (``file`` stays ``path``) and every file in the
    order applied, the given one last. Raises InputError.
    """
    layers: list[Layer] = []
    allowed = OUTSIDE_BASES["allowed"] if allow_outside is None else allow_outside
    state = _Reading(path.resolve().parent, allowed)
    state.count(path, data)
    merged, merged_source = _over_bases(path, data, source, (path.resolve(),), layers, state)
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
    state: _Reading,
) -> tuple[dict[str, Any], SourceMap]:
    """``data`` merged over the bases it names (each with its own bases first)."""
    problems: list[Problem] = []
    merged: tuple[dict[str, Any], SourceMap] | None = None
    for base, where in _targets(data[KEY], source, problems):

        def problem(message: str, where: Path_ = where) -> None:
            problems.append(Problem(source.locate(where), field_name(where), message))

        target = path.parent / base
        refused = _refused(base, target, state)
        if refused is not None:
            problem(refused)
            continue
        resolved = target.resolve()
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
        if resolved in state.done:  # extended by another file already: a copy of it
            base_data, base_source, base_layers = state.done[resolved]
            base_data, base_source = copy.deepcopy(base_data), _copied(base_source)
            layers.extend(base_layers)
        else:
            if len(state.parsed) >= MAX_FILES and resolved not in state.parsed:
                problem(
                    Message(
                        "a layered site reads at most %(limit)s files (at '%(base)s')",
                        limit=MAX_FILES,
                        base=base,
                    )
                )
                continue
            read: list[Layer] = []
            base_data, base_source = _read_base(target, resolved, chain, read, state)
            if state.extended_by.get(resolved, 0) > 1:  # kept for the other files extending it
                state.done[resolved] = (copy.deepcopy(base_data), _copied(base_source), read)
            layers.extend(read)
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


def _read_base(
    target: Path, resolved: Path, chain: tuple[Path, ...], layers: list[Layer], state: _Reading
) -> tuple[dict[str, Any], SourceMap]:
    """A base file, merged over its own bases; its file (and theirs) appended to ``layers``."""
    base_data, base_source, raw = state.read(target, resolved)
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
            target, base_data, base_source, (*chain, resolved), layers, state
        )
    layers.append(Layer(str(target), hashlib.sha256(raw).hexdigest()))
    return base_data, base_source


def _copied(source: SourceMap) -> SourceMap:
    return SourceMap(source.file, dict(source.positions), source.written_in)


def _shown_path(path: Path) -> str:
    """``path`` whole where a file system could hold it (PATH_MAX, 4,096 bytes), else cut."""
    text = str(path)
    return text if len(text.encode(errors="replace")) <= 4096 else shortened(text)


def _refused(base: str, target: Path, state: _Reading) -> str | None:
    """Why the base ``base`` (at ``target``) is not read, or None: outside the site's
    directory tree, not there, or not a regular file (checked before reading)."""
    shown = shortened(base)
    if "\0" in base:
        return Message("the path of base '%(base)s' holds a NUL byte", base=shown)
    try:
        resolved = target.resolve()
        inside = resolved.is_relative_to(state.root)
        if not state.outside_allowed and (Path(base).is_absolute() or not inside):
            return Message(
                "base '%(base)s' is outside the site file's directory; bases must lie in its "
                "directory tree unless facility runs with --allow-outside-bases",
                base=shown,
            )
        mode = target.stat().st_mode
    except FileNotFoundError:
        return Message(
            "base file '%(base)s' not found (%(path)s)", base=shown, path=_shown_path(target)
        )
    except RuntimeError:  # a symlink loop, as Python before 3.13 resolves it
        reason = os.strerror(errno.ELOOP)
        return Message("cannot read base '%(base)s': %(reason)s", base=shown, reason=reason)
    except OSError as error:  # a symlink loop, a name too long
        reason = error.strerror or type(error).__name__
        return Message("cannot read base '%(base)s': %(reason)s", base=shown, reason=reason)
    kind = not_a_file(mode)
    if kind is not None:
        return Message("base '%(base)s' is %(kind)s, not a file", base=shown, kind=kind)
    return None


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
