"""The configuration file of ``facility check``: ``facility.toml`` or ``[tool.facility]``.

Found as ruff finds its own: from the site file's directory upwards, the first directory
with a ``facility.toml``, or a ``pyproject.toml`` that has a ``[tool.facility]`` table, wins
(``facility.toml`` first in one directory); the search stops there, at the directory that
holds ``.git`` (a repository's root: no file above it is read) or at the filesystem root.
``--config PATH`` names the file instead; ``--isolated`` reads none. Nothing is merged from
several files.

Every key is an option of ``facility check`` of the same name; the command line overrides
the file, and the file the defaults. Paths in the file are relative to the file. An unknown
key or a value of the wrong type is bad input, named by file, line and key
(:class:`~facility.model.source.InputError`). TOML is read by :mod:`tomllib`, which keeps no
positions: the line of a key is found in the text (:func:`_key_lines`).
"""

from __future__ import annotations

import difflib
import hashlib
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from facility.messages import Message
from facility.model.source import InputError, Location, Problem, decode, read_bytes

FACILITY_TOML = "facility.toml"
PYPROJECT = "pyproject.toml"
MAX_CONFIG_BYTES = 1024 * 1024

# Values of the check command's choices (facility.cli's FailOn, Language and OutputFormat).
FAIL_ON = ("error", "warning", "never")
LANGUAGES = ("en", "zh-CN")
FORMATS = ("text", "json", "html", "markdown", "sarif", "junit", "pdf")
UNITS = ("si", "us")
PAPERS = ("a4", "letter")
JSON_DETAILS = ("compact", "full")


@dataclass(slots=True)
class Config:
    """What a configuration file sets (None or empty: not set, the command's default)."""

    file: Path | None = None
    profile: str | None = None
    fail_on: str | None = None
    fail_on_incomplete: bool | None = None
    lang: str | None = None
    waivers: list[Path] | None = None
    rules: list[Path] | None = None
    select: list[str] | None = None
    ignore: list[str] | None = None
    format: list[str] | None = None
    output: list[Path] | None = None
    show_passed: bool | None = None
    fixes: bool | None = None
    baseline: Path | None = None
    units: str | None = None
    paper: str | None = None
    json_detail: str | None = None
    lines: dict[str, int] = field(default_factory=dict)  # key -> line, for later messages
    sha256: str | None = None  # of the file's bytes as read

    def where(self, key: str) -> str:
        """``file:line`` of ``key`` (for a message about its value that only the run can
        judge: a rule pattern matching nothing)."""
        return f"{self.file}:{self.lines.get(key, 1)}"


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _flag(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def _texts(value: Any) -> list[str] | None:
    """A string or a list of strings."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _choice(choices: tuple[str, ...]) -> Callable[[Any], str | None]:
    return lambda value: value if value in choices else None


def _choices(choices: tuple[str, ...]) -> Callable[[Any], list[str] | None]:
    def read(value: Any) -> list[str] | None:
        texts = _texts(value)
        return texts if texts is not None and all(t in choices for t in texts) else None

    return read


def _or(choices: tuple[str, ...]) -> str:
    return ", ".join(f"'{c}'" for c in choices)


# key -> (attribute, reader returning None for a wrong value, what the value must be)
_KEYS: dict[str, tuple[str, Callable[[Any], Any], Message]] = {
    "profile": ("profile", _text, Message("a string (a profile name or a .yaml path)")),
    "fail-on": ("fail_on", _choice(FAIL_ON), Message("one of %(v)s", v=_or(FAIL_ON))),
    "fail-on-incomplete": ("fail_on_incomplete", _flag, Message("true or false")),
    "lang": ("lang", _choice(LANGUAGES), Message("one of %(v)s", v=_or(LANGUAGES))),
    "waivers": ("waivers", _texts, Message("a path or a list of paths")),
    "rules": ("rules", _texts, Message("a path or a list of paths")),
    "select": ("select", _texts, Message("a rule pattern or a list of them")),
    "ignore": ("ignore", _texts, Message("a rule pattern or a list of them")),
    "format": ("format", _choices(FORMATS), Message("one or a list of %(v)s", v=_or(FORMATS))),
    "output": ("output", _texts, Message("a path or a list of paths")),
    "show-passed": ("show_passed", _flag, Message("true or false")),
    "fixes": ("fixes", _flag, Message("true or false")),
    "baseline": ("baseline", _text, Message("a path")),
    "units": ("units", _choice(UNITS), Message("one of %(v)s", v=_or(UNITS))),
    "paper": ("paper", _choice(PAPERS), Message("one of %(v)s", v=_or(PAPERS))),
    "json-detail": (
        "json_detail",
        _choice(JSON_DETAILS),
        Message("one of %(v)s", v=_or(JSON_DETAILS)),
    ),
}
_PATHS = {"waivers", "rules", "output"}


def discover(site: Path) -> Path | None:
    """The configuration file that applies to ``site``, or None (see the module docstring)."""
    try:
        directory = site.resolve().parent
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte: the load says
        return None
    for folder in (directory, *directory.parents):
        candidate = folder / FACILITY_TOML
        if _is(candidate, Path.is_file):
            return candidate
        candidate = folder / PYPROJECT
        if _is(candidate, Path.is_file) and _has_table(candidate):
            return candidate
        if _is(folder / ".git", Path.exists):
            return None
    return None


def _is(path: Path, test: Callable[[Path], bool]) -> bool:
    """``test(path)``, False when the OS refuses to look (a name too long, no permission):
    what cannot be looked at holds no configuration; the site's own load names the problem."""
    try:
        return test(path)
    except OSError:
        return False


def _has_table(pyproject: Path) -> bool:
    """Whether a pyproject.toml has ``[tool.facility]`` (one that does not is passed over,
    as ruff passes over one without ``[tool.ruff]``; one that cannot be read is bad input
    only when it has the table: its text is looked at first)."""
    try:
        text = pyproject.read_text(encoding="utf-8-sig", errors="replace")
    except OSError:
        return False
    if "facility" not in text:
        return False
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return bool(re.search(r"^\s*\[\s*tool\s*\.\s*facility\s*\]", text, re.MULTILINE))
    tool = data.get("tool")
    return isinstance(tool, dict) and "facility" in tool


def read_config(path: Path) -> Config:
    """Read one configuration file; InputError naming file, line and key for each problem."""
    file = str(path)
    raw = read_bytes(path, limit=MAX_CONFIG_BYTES)
    text = decode(raw, file)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+), column (\d+)\)$", str(exc))
        line, column = (int(found[1]), int(found[2])) if found else (1, 1)
        detail = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)$", "", str(exc))
        raise InputError(
            [
                Problem(
                    Location(file, line, column),
                    "",
                    Message("invalid TOML: %(detail)s", detail=detail),
                )
            ]
        ) from None
    in_pyproject = path.name == PYPROJECT
    prefix = "tool.facility." if in_pyproject else ""
    table: Any = data
    if in_pyproject:
        table = data.get("tool", {}).get("facility") if isinstance(data.get("tool"), dict) else None
        if not isinstance(table, dict):
            raise InputError(
                [Problem(Location(file, 1, 1), "", Message("no [tool.facility] table"))]
            )
    lines = _key_lines(text, "tool.facility" if in_pyproject else "")
    config = Config(
        file=path,
        lines={k: lines.get(k, (1, 1))[0] for k in table},
        sha256=hashlib.sha256(raw).hexdigest(),
    )
    problems: list[Problem] = []
    for key, value in table.items():
        line, column = lines.get(key, (1, 1))
        where = Location(file, line, column)
        known = _KEYS.get(key)
        if known is None:
            problems.append(Problem(where, prefix + key, unknown_key(key, list(_KEYS))))
            continue
        attribute, reader, expected = known
        read = reader(value)
        if read is None:
            problems.append(
                Problem(where, prefix + key, Message("must be %(expected)s", expected=expected))
            )
            continue
        if key in _PATHS:
            read = [path.parent / p for p in read]
        elif key == "baseline":
            read = path.parent / read
        setattr(config, attribute, read)
    if problems:
        raise InputError(problems)
    return config


def unknown_key(key: str, known: list[str]) -> Message:
    close = difflib.get_close_matches(key.replace("_", "-"), known, n=1)
    if close:
        return Message(
            "unknown key '%(key)s' (did you mean '%(suggestion)s'?)", key=key, suggestion=close[0]
        )
    return Message("unknown key '%(key)s' (known: %(known)s)", key=key, known=", ".join(known))


_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"""^(\s*)(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*[=.]""")


def _key_lines(text: str, table: str) -> dict[str, tuple[int, int]]:
    """Line and column of each key written at the top level of ``table`` ('' the document's
    root, or 'tool.facility'): the first place the key is written; for a sub-table
    (``[tool.facility.select]``, a wrong type) its header. Text inside multi-line strings
    is skipped."""
    found: dict[str, tuple[int, int]] = {}
    current = ""
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:  # inside a ''' or """ string
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header and not line.lstrip().startswith("[["):
            current = re.sub(r"\s*\.\s*", ".", header[1].replace('"', "").replace("'", ""))
            if table and current.startswith(table + "."):
                sub = current[len(table) + 1 :].split(".")[0]
                found.setdefault(sub, (number, line.index("[") + 1))
            elif not table and current:
                found.setdefault(current.split(".")[0], (number, line.index("[") + 1))
            continue
        key = _KEY.match(line)
        if key and current == table:
            name = key[2] if key[2] is not None else key[3] if key[3] is not None else key[4]
            found.setdefault(name, (number, len(key[1]) + 1))
        for quote in ('"""', "'''"):
            if line.count(quote) % 2 == 1:
                in_string = quote
                break
    return found
