"""YAML to plain data, with the line and column of every value, straight from libyaml's events.

libyaml (PyYAML's C parser when present) reports the document as a stream of events; this
module builds the data as they come, recording where each mapping key and sequence item was
written. No node tree is held (a 100,000-rack file needs a fraction of the memory a composed
tree takes), and the reading enforces what ``yaml.safe_load`` alone would not:

- no tags beyond the YAML core schema (``!!python/object`` and custom tags are refused);
- no merge keys, no duplicate keys (PyYAML silently keeps the last one);
- aliases may not add more than ``MAX_ALIAS_EXPANSION`` values (a "billion laughs" file fails
  at the alias that crosses the bound, having built almost nothing);
- a document holds at most ``MAX_VALUES`` values and nests at most ``MAX_DEPTH`` collections
  deep (a file of millions of tiny values stops at the value that crosses the bound).

Problems are collected as ``(line, column, path, message)`` (1-based), and reading goes on, so
that one run reports all of them; a YAML syntax error raises ``yaml.YAMLError`` at once.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import yaml

from facility.messages import Message

try:  # libyaml's C parser: ~10x faster than the pure-Python one
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

# Values that aliases may add on top of the document's own values.
MAX_ALIAS_EXPANSION = 100_000
# Values in one document, aliases' included: a 100,000-rack campus written one entry per rack
# holds about 3.9 million (10,000 racks: 388,694); each costs ~0.3 kB while it is read.
MAX_VALUES = 5_000_000
# Mappings and sequences inside each other: a site file nests about 8 deep.
MAX_DEPTH = 64

STANDARD_TAGS = frozenset(
    {
        "tag:yaml.org,2002:str",
        "tag:yaml.org,2002:int",
        "tag:yaml.org,2002:float",
        "tag:yaml.org,2002:bool",
        "tag:yaml.org,2002:null",
        "tag:yaml.org,2002:map",
        "tag:yaml.org,2002:seq",
        "tag:yaml.org,2002:timestamp",
    }
)

Path_ = tuple[str | int, ...]
Found = tuple[int, int, Path_, str]  # line, column, data path, message

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_NULL = "tag:yaml.org,2002:null"
_MERGE = "tag:yaml.org,2002:merge"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
_COLLECTIONS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")
_DECIMAL = re.compile(r"[-+]?(?:0|[1-9][0-9]*)\Z")  # YAML 1.1: '010' is octal, '1_000' is 1000
_RESOLVER = yaml.resolver.Resolver()
_TAGS: dict[tuple[str, bool, bool], str] = {}  # implicit tag of a plain scalar, memoised
_KEY = object()  # a mapping waits for a key
_DROP = object()  # a mapping waits for the value of a key it refused

_ScalarEvent = yaml.ScalarEvent
_MappingStart = yaml.MappingStartEvent
_SequenceStart = yaml.SequenceStartEvent
_MappingEnd = yaml.MappingEndEvent
_SequenceEnd = yaml.SequenceEndEvent
_Alias = yaml.AliasEvent


class AliasBomb(Exception):
    """Aliases would add more than ``MAX_ALIAS_EXPANSION`` values; ``line``/``column`` are
    those of the alias that crossed the bound."""

    def __init__(self, mark: Any):
        super().__init__(mark)
        self.line = mark.line + 1
        self.column = mark.column + 1


class TooMany(AliasBomb):
    """More than ``MAX_VALUES`` values, at the value that crossed the bound."""


class TooDeep(AliasBomb):
    """Collections nested more than ``MAX_DEPTH`` deep, at the one that crossed it."""


class _Frame:
    """A mapping or sequence being read."""

    __slots__ = ("anchor", "counted", "is_map", "key", "path", "value")

    def __init__(self, is_map: bool, path: Path_, anchor: str | None, counted: int):
        self.is_map = is_map
        self.value: Any = {} if is_map else []
        self.path = path
        self.key: Any = _KEY
        self.anchor = anchor
        self.counted = counted  # values read before this one


class Reader:
    """One document: ``Reader(positions).read(text)``; ``positions`` receives data path ->
    (line, column) of every mapping key and sequence item, ``problems`` what was refused."""

    def __init__(self, positions: dict[Path_, Any]):
        self.positions = positions
        self.scalars = yaml.constructor.SafeConstructor()
        self.problems: list[Found] = []
        self.anchors: dict[str, tuple[Any, int]] = {}  # anchor -> (value, values it holds)
        self.count = 0  # values read, aliases expanded
        self.expanded = 0  # values added by aliases

    def problem(self, mark: Any, path: Path_, message: str) -> None:
        self.problems.append((mark.line + 1, mark.column + 1, path, message))

    def read(self, text: str) -> tuple[bool, Any]:
        """(whether the text holds a document, its data). Raises YAMLError, AliasBomb."""
        parser = _Loader(text)
        try:
            return self._read(parser.get_event)
        finally:
            parser.dispose()

    def _read(self, get: Any) -> tuple[bool, Any]:
        get()  # the stream starts
        event = get()
        if type(event) is yaml.StreamEndEvent:
            return False, None
        document = event.start_mark
        positions = self.positions
        stack: list[_Frame] = []
        root: Any = None
        while True:
            event = get()
            kind = type(event)
            top = stack[-1] if stack else None
            if top is not None and top.is_map:
                if top.key is _KEY:
                    if kind is _MappingEnd:
                        root = self._finish(stack, stack.pop(), root)
                    elif kind is _ScalarEvent:
                        top.key = self._key(top, event)
                    else:  # a collection or an alias as a key: refused, with its value
                        self.problem(
                            event.start_mark,
                            top.path,
                            Message("mapping keys must be plain strings"),
                        )
                        _skip(get, event)
                        top.key = _DROP
                    continue
                if top.key is _DROP:
                    _skip(get, event)
                    top.key = _KEY
                    continue
            if kind is _SequenceEnd:
                root = self._finish(stack, stack.pop(), root)
                continue
            if kind is yaml.DocumentEndEvent:
                break
            if top is None:
                path: Path_ = ()
            elif top.is_map:
                path = (*top.path, top.key)
            else:
                path = (*top.path, len(top.value))
                mark = event.start_mark
                positions[path] = (mark.line + 1, mark.column + 1)
            if kind is _ScalarEvent:
                self.count += 1
                if self.count > MAX_VALUES:
                    raise TooMany(event.start_mark)
                value = self._scalar(event, path)
                if event.anchor is not None:
                    self.anchors[event.anchor] = (value, 1)
                root = _place(top, value, root)
            elif kind is _MappingStart or kind is _SequenceStart:
                tag = event.tag
                if tag is not None and tag != "!" and tag not in STANDARD_TAGS:
                    self.problem(
                        event.start_mark,
                        path,
                        Message("YAML tag '%(tag)s' is not allowed (only plain data)", tag=tag),
                    )
                    _skip(get, event)
                    root = _place(top, None, root)
                    continue
                if len(stack) >= MAX_DEPTH:
                    raise TooDeep(event.start_mark)
                stack.append(_Frame(kind is _MappingStart, path, event.anchor, self.count))
                self.count += 1
                if self.count > MAX_VALUES:
                    raise TooMany(event.start_mark)
            elif kind is _Alias:
                found = self.anchors.get(event.anchor)
                if found is None:
                    raise yaml.composer.ComposerError(
                        None, None, f"found undefined alias {event.anchor!r}", event.start_mark
                    )
                value, size = found
                self.expanded += size
                if self.expanded > MAX_ALIAS_EXPANSION:
                    raise AliasBomb(event.start_mark)
                self.count += size
                if self.count > MAX_VALUES:
                    raise TooMany(event.start_mark)
                if len(stack) + _depth(value) > MAX_DEPTH:
                    raise TooDeep(event.start_mark)
                root = _place(top, copy.deepcopy(value), root)
        event = get()
        if type(event) is not yaml.StreamEndEvent:
            raise yaml.composer.ComposerError(
                "expected a single document in the stream",
                document,
                "but found another document",
                event.start_mark,
            )
        return True, root

    def _finish(self, stack: list[_Frame], frame: _Frame, root: Any) -> Any:
        if frame.anchor is not None:
            self.anchors[frame.anchor] = (frame.value, self.count - frame.counted)
        return _place(stack[-1] if stack else None, frame.value, root)

    def _key(self, top: _Frame, event: Any) -> Any:
        """The key of a scalar event, its position recorded; _DROP (and a problem) if refused."""
        tag = event.tag
        if tag is None or tag == "!":
            tag = _implicit(event.value, event.implicit)
        if tag == _MERGE:
            self.problem(
                event.start_mark, top.path, Message("YAML merge keys ('<<') are not supported")
            )
            return _DROP
        self.count += 1
        key = self._scalar(event, top.path, tag)
        if key is None:  # '~', 'null' or nothing: no field is called that
            self.problem(event.start_mark, top.path, Message("a mapping key must not be null"))
            return _DROP
        if not isinstance(key, str):  # bool, int, float: their text
            key = str(key).lower() if isinstance(key, bool) else str(key)
        child = (*top.path, key)
        mark = event.start_mark
        if key in top.value:
            self.problem(mark, child, Message("duplicate key '%(key)s'", key=key))
            return _DROP
        self.positions[child] = (mark.line + 1, mark.column + 1)
        return key

    def _scalar(self, event: Any, path: Path_, tag: str | None = None) -> Any:
        if tag is None:
            tag = event.tag
            if tag is None or tag == "!":
                tag = _implicit(event.value, event.implicit)
        value = event.value
        if tag == _STR:
            return value
        if tag == _NULL:
            return None
        if tag == _INT and len(value) < 19 and _DECIMAL.match(value):
            return int(value)
        if tag not in STANDARD_TAGS:
            self.problem(
                event.start_mark,
                path,
                Message("YAML tag '%(tag)s' is not allowed (only plain data)", tag=tag),
            )
            return None
        if tag == _TIMESTAMP:
            return value  # dates stay text: ISO 8601, as written (a bad date: pydantic's)
        node = yaml.ScalarNode(tag, value, event.start_mark, event.end_mark, event.style)
        try:
            if tag in _COLLECTIONS:
                raise ValueError(tag)  # '!!map text': a scalar cannot be read as a collection
            return self.scalars.construct_object(node, deep=True)
        except (ValueError, KeyError, IndexError):  # !!int "x", or more digits than Python reads
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            if len(value) > 1000:
                message = Message(
                    "a value of %(n)s characters is too long to read as %(tag)s",
                    n=format(len(value), ","),
                    tag=shown,
                )
            else:
                message = Message("cannot read '%(value)s' as %(tag)s", value=value, tag=shown)
            self.problem(event.start_mark, path, message)
            return None


class NotPlain(Exception):
    """What :func:`read_plain` leaves to :class:`Reader` (which says what and where)."""


class _Plain(Reader):
    """:class:`Reader`'s reading of scalars, a problem being :class:`NotPlain`."""

    def __init__(self) -> None:
        super().__init__({})

    def problem(self, mark: Any, path: Path_, message: str) -> None:
        raise NotPlain


def read_plain(text: str) -> Any:
    """The data of a document of plain data, as ``Reader(positions).read(text)`` reads it,
    without positions; ``NotPlain`` raised for anything else.

    Plain: one document of mappings, sequences and scalars, without anchors, aliases, merge
    keys, tags on collections, keys that are not scalars, null or duplicate keys, past none of
    the bounds, and with nothing :class:`Reader` refuses. A file of plain data has nothing to
    locate unless a later check finds a problem in it (a rule file's unknown name): then the
    file is read again with :class:`Reader`, for its positions. Each scalar is read by
    :class:`Reader`'s own code, so the data is the same (tested on every bundled file).
    About half the time of :class:`Reader` (no position, path or frame per value).
    """
    parser = _Loader(text)
    try:
        return _read_plain(parser.get_event, _Plain())
    except yaml.YAMLError:
        raise NotPlain from None
    finally:
        parser.dispose()


def _read_plain(get: Any, reader: _Plain) -> Any:
    get()  # the stream starts
    if type(get()) is yaml.StreamEndEvent:
        raise NotPlain  # no document: Reader says the file is empty
    scalar = reader._scalar
    stack: list[tuple[Any, Any]] = []  # (collection, its pending key) of the outer ones
    top: Any = None  # the collection being read: a dict or a list
    key: Any = _KEY  # the key whose value ``top`` waits for (a dict), or _KEY
    root: Any = None
    count = 0  # values read, as Reader counts them
    while True:
        event = get()
        kind = type(event)
        if kind is _ScalarEvent:
            if event.anchor is not None:
                raise NotPlain
            tag = event.tag
            if tag is None or tag == "!":
                tag = _implicit(event.value, event.implicit)
            count += 1
            if key is _KEY and type(top) is dict:  # a key
                if tag == _MERGE:
                    raise NotPlain
                name = scalar(event, (), tag)
                if name is None:
                    raise NotPlain
                if not isinstance(name, str):  # bool, int, float: their text
                    name = str(name).lower() if isinstance(name, bool) else str(name)
                if name in top:
                    raise NotPlain
                key = name
                continue
            if count > MAX_VALUES:
                raise NotPlain
            value = scalar(event, (), tag)
        elif kind is _MappingStart or kind is _SequenceStart:
            if event.anchor is not None or (event.tag is not None and event.tag != "!"):
                raise NotPlain
            if key is _KEY and type(top) is dict:  # a collection as a key
                raise NotPlain
            if len(stack) + (top is not None) >= MAX_DEPTH:
                raise NotPlain
            count += 1
            if count > MAX_VALUES:
                raise NotPlain
            if top is not None:
                stack.append((top, key))
            top, key = ({} if kind is _MappingStart else []), _KEY
            continue
        elif kind is _MappingEnd or kind is _SequenceEnd:
            value = top
            if stack:
                top, key = stack.pop()
            else:
                top, key = None, _KEY
        elif kind is yaml.DocumentEndEvent:
            break
        else:  # an alias
            raise NotPlain
        if top is None:
            root = value
        elif key is _KEY:
            top.append(value)
        else:
            top[key] = value
            key = _KEY
    if type(get()) is not yaml.StreamEndEvent:
        raise NotPlain  # another document: Reader says so
    return root


def _depth(value: Any) -> int:
    """How deep ``value``'s collections nest (an anchored value, before it is copied)."""
    depth, level = 0, [value]
    while any(isinstance(item, dict | list) for item in level):
        depth += 1
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
        ]
    return depth


def _place(top: _Frame | None, value: Any, root: Any) -> Any:
    """Put a finished value into the collection being read (or make it the document)."""
    if top is None:
        return value
    if top.is_map:
        top.value[top.key] = value
        top.key = _KEY
    else:
        top.value.append(value)
    return root


def _skip(get: Any, event: Any) -> None:
    """Read past the value that ``event`` starts (a refused key, or a refused key's value)."""
    kind = type(event)
    if kind is not _MappingStart and kind is not _SequenceStart:
        return
    depth = 1
    while depth:
        kind = type(get())
        if kind is _MappingStart or kind is _SequenceStart:
            depth += 1
        elif kind is _MappingEnd or kind is _SequenceEnd:
            depth -= 1


def _implicit(value: str, implicit: tuple[bool, bool]) -> str:
    key = (value, *implicit)
    tag = _TAGS.get(key)
    if tag is None:
        tag = _RESOLVER.resolve(yaml.ScalarNode, value, implicit)
        if len(_TAGS) < 100_000:
            _TAGS[key] = tag
    return tag
