"""Rules as data: loading rule files and profiles, checking them before any site is seen.

A rule file (``rules/<area>/<CODE>.yaml``) holds one rule: code, name, title (the failure),
requirement title (the same check as what holds, for a pass), area, scope, severity,
parameters with units, ``observed`` and ``limit`` expressions, the ``condition`` that must
hold, ``why``, ``known_problems``, ``references``, retired ``aliases``, ``remediation``
(what to check first when it fails). Names and
dimensions are checked when the rules load: a rule comparing a temperature with a power
fails here, with the file and field, not later on a site.

A profile (``rules/profiles/<name>.yaml``) selects rules, re-parameterises them, changes
severities (also by tag, e.g. every ``single-failure`` rule to ``error``) and sets the
audit-wide assumptions (the power bases).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError

from facility.engine.expression import (
    BOOLEAN,
    Expression,
    ExpressionError,
    Type,
    compile_expression,
    kind_type,
)
from facility.engine.quantities import Assumptions, catalogue
from facility.engine.selection import Pattern, Selection, select_rules
from facility.inputs import InputFile, Role
from facility.messages import Message, message_of
from facility.model.base import Strict
from facility.model.errors import unknown_field, validation_message
from facility.model.source import (
    InputError,
    Location,
    Problem,
    SourceMap,
    field_name,
    read_document,
    whole_file,
)
from facility.spelling import found
from facility.units import KINDS, QuantityError, conversion, kind_word, parse_quantity

Severity = Literal["error", "warning", "info"]
SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}
AREAS = ("power", "liquid", "air", "floor", "cluster", "redundancy")


def bundled_rules_dir() -> Path:
    """The rules shipped with facility (the repository's rules/, or the wheel's copy)."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "rules", here / "_data" / "rules"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError("the bundled rules directory is missing")


class RuleText(Strict):
    """A rule's words in another language (the English ones are the rule file's own)."""

    title: str = Field(min_length=1)
    # What holds when the check passes ('Each power side carries the whole rack'), beside the
    # failure title; empty in a translation that lacks it: text() puts its requirement there.
    requirement_title: str = ""
    requirement: str = Field(min_length=1)
    why: str = Field(min_length=1)
    known_problems: str = ""
    examples: dict[Literal["passing", "failing"], str] = {}
    # What to check first when the rule fails (empty in a translation that lacks it: text()
    # puts the English list there).
    remediation: list[str] = []


def _a_parameter(value: Any) -> Any:
    """A parameter is a number or a figure with its unit; anything else is said in one
    problem (not one per member of the union: 'parameters.margin.str', '.float', '.int')."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(
            Message(
                "expected a number or a figure with its unit, like '10 %%' or '5 kW', got "
                "%(found)s",
                found=found(value),
            )
        )
    return value


ParameterValue = Annotated[str | float | int, BeforeValidator(_a_parameter)]


class RuleFile(Strict):
    code: str = Field(pattern=r"^[A-Z]{2,5}-\d{3}$")
    name: str = Field(pattern=r"^[a-z]+(\.[a-z_]+)+$")
    title: str
    # The title as a requirement, for a pass. Every bundled rule has one (a test); a user's
    # rule file without it still loads, with its `requirement` sentence in its place.
    requirement_title: str | None = Field(None, min_length=1)
    area: Literal["power", "liquid", "air", "floor", "cluster", "redundancy"]
    scope: str
    severity: Severity
    tags: list[str] = []
    parameters: dict[str, ParameterValue] = {}
    when: str | None = None
    observed: str
    limit: str
    condition: str
    requirement: str
    why: str
    known_problems: str = ""
    references: list[str] = Field(min_length=1)
    aliases: list[str] = []
    # Root causes (facility.report.causes): a failing finding of this rule follows from a
    # failing finding of one of these rules on the same entity or the one it belongs to (a
    # rack PDU's rack), and is shown under that cause.
    follows: list[Annotated[str, Field(pattern=r"^[A-Z]{2,5}-\d{3}$")]] = []
    # A single-failure rule: kind of element lost (a failure scenario's kind) → the rules whose
    # failure after that loss this rule already judges on its own entity. A single failure
    # (RED-001) that makes one of them fail there follows from this rule's failing finding.
    foresees: dict[
        Literal[
            "power_source",
            "distribution",
            "rack_side",
            "cdu",
            "cdu_pump",
            "facility_water",
            "air_unit",
            "heat_rejection",
        ],
        list[Annotated[str, Field(pattern=r"^[A-Z]{2,5}-\d{3}$")]],
    ] = {}
    examples: dict[Literal["passing", "failing"], str] = {}
    # What to check first when it fails, most likely first (facility.analysis.fixes computes
    # the change that passes; this is what a facility engineer confirms before making it).
    remediation: list[Annotated[str, Field(min_length=1)]] = []
    translations: dict[str, RuleText] = Field(
        {}, description="The rule's text in other languages, by language tag (zh-CN)"
    )

    def text(self, lang: str = "en") -> RuleText:
        """Title, requirement title, requirement, why, known problems, examples and remediation
        in ``lang`` (English fallback). A requirement title the rule file does not give is its
        requirement sentence, in the same language; a translation without remediation has the
        English list."""
        if lang in self.translations:
            words = self.translations[lang]
            update: dict[str, Any] = {}
            if not words.requirement_title:
                update["requirement_title"] = " ".join(words.requirement.split())
            if not words.remediation and self.remediation:
                update["remediation"] = self.remediation
            return words.model_copy(update=update) if update else words
        return RuleText(
            title=self.title,
            requirement_title=self.requirement_title or " ".join(self.requirement.split()),
            requirement=self.requirement,
            why=self.why,
            known_problems=self.known_problems,
            examples=self.examples,
            remediation=self.remediation,
        )


class ProfileFile(Strict):
    name: str
    description: str
    extends: str | None = None
    assumptions: dict[
        Literal["electrical_power_basis", "thermal_power_basis"], Literal["peak", "nominal"]
    ] = {}
    select: list[str] | Literal["all"] = "all"
    ignore: list[str] = []
    severity: dict[str, Severity] = {}
    severity_by_tag: dict[str, Severity] = {}
    parameters: dict[str, dict[str, ParameterValue]] = {}


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    value: float
    kind: str
    text: str


@dataclass(slots=True)
class Rule:
    """A loaded, checked rule with its (profile-adjusted) parameters and severity."""

    spec: RuleFile
    file: str
    severity: Severity
    parameters: dict[str, Parameter]
    observed: Expression
    limit: Expression
    condition: Expression
    when: Expression | None
    kind: str  # the kind of observed and limit
    plan: Any = field(default=None, repr=False, compare=False)  # the evaluator's, worked out once

    @property
    def code(self) -> str:
        return self.spec.code


@dataclass(slots=True)
class RuleSet:
    rules: list[Rule]
    profile: str
    profile_description: str
    assumptions: Assumptions
    version: str  # sha256 over the profile files and the rule files in effect, shortened
    sources: list[str] = field(default_factory=list)
    selection: Selection | None = None  # what --select / --ignore left out (None: nothing)
    # Every profile and rule file in effect, in the order read, with its bytes' SHA-256:
    # what the report's sign-off and the JSON result list one by one.
    files: list[InputFile] = field(default_factory=list)

    def by_code(self, code: str) -> Rule | None:
        for rule in self.rules:
            if rule.code == code or code in rule.spec.aliases or rule.spec.name == code:
                return rule
        return None


def parameter_kind(text: str | float | int) -> str:
    """The kind of a parameter value from its unit ('60 degC' → temperature)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return "count"  # a whole number: pumps, sides, racks
    if isinstance(text, float):
        return "fraction"
    assert isinstance(text, str)
    parts = text.strip().split(None, 1)
    unit = parts[1] if len(parts) > 1 else ""
    if unit in ("%", "percent", ""):
        return "fraction"
    conv = conversion(unit)
    if conv.dimensionality == "[temperature]":
        return "temperature" if conv.is_offset_unit else "temperature_difference"
    if conv.is_apparent_power:
        return "apparent_power"
    for kind in KINDS.values():
        if kind.dimensionality == conv.dimensionality and kind.name not in (
            "apparent_power",
            "temperature",
        ):
            return kind.name
    raise QuantityError(Message("'%(text)s' is not a quantity a rule can use", text=text))


class _Loader:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.read_bytes: dict[str, bytes] = {}  # file -> its name and bytes, as hashed
        self.digests: dict[str, str] = {}  # file -> the SHA-256 of its bytes
        self.sources: list[str] = []

    def read(self, path: Path) -> tuple[Any, SourceMap]:
        data, source, raw = _read_rule_file(path)
        self.read_bytes[source.file] = path.name.encode() + b"\0" + raw
        self.digests[source.file] = hashlib.sha256(raw).hexdigest()
        self.sources.append(str(path))
        return data, source

    def version(self, files: list[str]) -> str:
        """sha256 over ``files`` (the profiles and the rules in effect), in the order read:
        a rule file that the profile leaves out does not change it."""
        digest = hashlib.sha256()
        for file in files:
            digest.update(self.read_bytes[file])
        return digest.hexdigest()[:16]

    def problem(self, source: SourceMap, path: tuple[str | int, ...], message: str) -> None:
        self.problems.append(Problem(source.locate(path), field_name(path), message))

    def validation(self, exc: ValidationError, source: SourceMap) -> None:
        for error in exc.errors(include_url=False):
            path = tuple(p for p in error["loc"] if isinstance(p, str | int))
            message = validation_message(error)
            if error["type"] == "extra_forbidden":
                message = unknown_field(path[-1])
            self.problems.append(Problem(source.locate(path), field_name(path), message))


# Rule files read in this process, by path, file, size and change time: a program that
# loads the rules more than once (the tests, an analysis under several profiles) parses each
# file once; an edited file is read again. The parsed data is never changed by the loader.
_READ: dict[tuple[str, int, int, int, int], tuple[Any, SourceMap, bytes]] = {}


def _read_rule_file(path: Path) -> tuple[Any, SourceMap, bytes]:
    try:
        stat = path.stat()
    except OSError:
        return read_document(path)  # read_document says what is wrong with it
    # The file itself (device and inode, at the end of any link) as it is now; not resolved,
    # which asks the system about every directory of the path.
    key = (os.path.abspath(path), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
    found = _READ.get(key)
    if found is None:
        # Positions are read only for a file a problem is found in (most loads find none).
        found = read_document(path, plain=True)
        if len(_READ) < 4096:
            _READ[key] = found
    return found


def _rule_files(directory: Path) -> list[Path]:
    return sorted(
        p for p in directory.rglob("*.yaml") if "profiles" not in p.relative_to(directory).parts
    )


# Rule sets loaded in this process, by everything a load reads: a program that loads the same
# rules again (the tests, a portfolio of sites under one profile, an analysis re-run) gets the
# same RuleSet; a file added, removed or edited (its size or change time), another profile,
# selection or (when a rule or profile file of the user's is read) working directory is a new
# load. The loader never changes a RuleSet it returned.
_LOADED: dict[tuple[Any, ...], RuleSet] = {}


def _tree_state(directory: Path) -> tuple[Any, ...]:
    """Every YAML file under ``directory`` (rules and profiles) with its size and change time;
    () when it cannot be listed (the load says what is wrong)."""
    try:
        files = sorted(directory.rglob("*.yaml"))
        return (str(directory.resolve()), *((str(f), *_stamp(f)) for f in files))
    except (OSError, RuntimeError, ValueError):  # RuntimeError: a link loop (Python < 3.13)
        return ()


def _unusable_directory(directory: Path) -> Message | None:
    """Why ``directory`` cannot be read as a directory of rule files; None when it can. Asked
    before anything else, so a path the system refuses (a symbolic link loop, a name too
    long, a NUL byte) is said as such, never raised."""
    try:
        status = os.stat(directory)
    except FileNotFoundError:
        return Message("rules directory not found")
    except ValueError:
        return Message("not a usable path: it holds a NUL byte")
    except OSError as error:
        return _cannot_list(directory, error)
    if not stat.S_ISDIR(status.st_mode):
        return Message("not a directory of rule files")
    return None


def _is_file(path: Path) -> bool | None:
    """Whether ``path`` is a file; None when the system refuses to say (a name too long, a
    link loop, a NUL byte): reading it then names the reason."""
    try:
        return path.is_file()
    except (OSError, RuntimeError, ValueError):
        return None


def _cannot_list(directory: Path, error: BaseException) -> Message:
    reason = error.strerror if isinstance(error, OSError) and error.strerror else None
    return Message(
        "cannot read the rules directory: %(reason)s",
        reason=reason or Message("Too many levels of symbolic links"),
    )


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def _load_key(
    dirs: list[Path], profile: str, profile_dirs: list[Path], select: Any, ignore: Any
) -> tuple[Any, ...] | None:
    try:
        named = Path(profile)
        profile_state = (profile, *_stamp(named)) if named.suffix in (".yaml", ".yml") else profile
        # Only the bundled files read: their names are shown from the package, whatever the
        # working directory (a file of the user's is shown relative to it).
        bundled_only = (
            profile_state == profile and not profile_dirs and dirs == [bundled_rules_dir()]
        )
        return (
            tuple(_tree_state(d) for d in dirs),
            profile_state,
            tuple(_tree_state(d) for d in profile_dirs),
            tuple(select),
            tuple(ignore),
            None if bundled_only else str(Path.cwd()),
        )
    except (OSError, RuntimeError, ValueError):  # a profile path not there: no memo, the load says
        return None


def load_rules(
    directories: list[Path] | None = None,
    profile: str = "supernode",
    profile_dirs: list[Path] | None = None,
    *,
    select: Sequence[Pattern] = (),
    ignore: Sequence[Pattern] = (),
) -> RuleSet:
    """Load rule files from ``directories`` (the bundled ones by default) under ``profile``
    (see :func:`_load_rules`), once per process for the same files as they are."""
    dirs = directories if directories is not None else [bundled_rules_dir()]
    key = _load_key(dirs, profile, profile_dirs or [], select, ignore)
    found = _LOADED.get(key) if key is not None else None
    if found is None:
        found = _load_rules(dirs, profile, profile_dirs, select=select, ignore=ignore)
        if key is not None and len(_LOADED) < 64:
            _LOADED[key] = found
    return found


def _load_rules(
    dirs: list[Path],
    profile: str,
    profile_dirs: list[Path] | None,
    *,
    select: Sequence[Pattern] = (),
    ignore: Sequence[Pattern] = (),
) -> RuleSet:
    """Load rule files from ``directories`` (the bundled ones by default) under ``profile``,
    then keep the profile's rules that ``select`` matches (all when empty) and leave out
    those ``ignore`` matches (:mod:`facility.engine.selection`; the rules version covers
    the rules kept).

    Raises InputError listing every problem: syntax, unknown names, dimension mismatches,
    duplicate codes, unknown profile or rule codes in the profile; SelectionError when a
    pattern matches none of the profile's rules.
    """
    loader = _Loader()
    specs: list[tuple[RuleFile, SourceMap]] = []
    for directory in dirs:
        refused = _unusable_directory(directory)
        if refused is not None:  # a mistyped --rules must not quietly audit without them
            loader.problems.append(Problem(whole_file(str(directory)), "", refused))
            continue
        try:
            paths = _rule_files(directory)
        except (OSError, RuntimeError) as error:  # a symbolic link loop inside it
            loader.problems.append(
                Problem(whole_file(str(directory)), "", _cannot_list(directory, error))
            )
            continue
        for path in paths:
            try:
                data, source = loader.read(path)
            except InputError as error:
                loader.problems.extend(error.problems)
                continue
            try:
                specs.append((RuleFile.model_validate(data), source))
            except ValidationError as exc:
                loader.validation(exc, source)
    codes: dict[str, SourceMap] = {}
    for spec, source in specs:
        if spec.code in codes:
            loader.problems.append(
                Problem(
                    source.locate(("code",)),
                    "code",
                    Message(
                        "duplicate rule code %(code)s (also at %(where)s)",
                        code=spec.code,
                        where=str(codes[spec.code].locate(("code",))),
                    ),
                )
            )
        codes[spec.code] = source

    profiles = _load_profile_chain(
        loader, profile, (profile_dirs or []) + [d / "profiles" for d in dirs]
    )
    if loader.problems:
        raise InputError(loader.problems)
    settings = _merge_profiles(profiles)
    known = {spec.code for spec, _ in specs}
    known_tags = {tag for spec, _ in specs for tag in spec.tags}
    for code, source, path in settings["codes"]:
        if code not in known:
            name = Path(source.file).stem
            loader.problem(
                source,
                path,
                Message(
                    "profile '%(profile)s' names unknown rule %(code)s", profile=name, code=code
                ),
            )
    for tag, source, path in settings["tags"]:
        if tag not in known_tags:
            known_list = ", ".join(sorted(known_tags)) or Message("none")
            loader.problem(
                source,
                path,
                Message(
                    "no rule has the tag '%(tag)s' (tags in use: %(known)s)",
                    tag=tag,
                    known=known_list,
                ),
            )

    rules: list[Rule] = []
    in_effect = {source.file for _, source in profiles}
    in_profile = [
        spec.code
        for spec, _ in specs
        if (settings["select"] == "all" or spec.code in settings["select"])
        and spec.code not in settings["ignore"]
    ]
    kept, selection = select_rules(
        in_profile,
        select,
        ignore,
        profile=profiles[-1][0].name,
        other_codes=sorted(known - set(in_profile)),
    )
    for spec, source in specs:
        if spec.code not in kept:
            continue
        in_effect.add(source.file)
        rule = _check_rule(loader, spec, source, settings)
        if rule is not None:
            rules.append(rule)
    if loader.problems:
        raise InputError(loader.problems)
    rules.sort(key=lambda r: r.code)
    assumptions = Assumptions(**settings["assumptions"])
    profile_files = {source.file for _, source in profiles}
    bundled = bundled_rules_dir()
    files = []
    for file in loader.read_bytes:
        if file not in in_effect:
            continue
        path = Path(file)
        inside = path.is_relative_to(bundled)
        if inside:
            shown = f"rules/{path.relative_to(bundled).as_posix()}"
        elif path.is_absolute() and path.is_relative_to(Path.cwd()):
            shown = path.relative_to(Path.cwd()).as_posix()  # as a user would name it
        else:
            shown = file
        role: Role = "profile" if file in profile_files else "rule"
        files.append(InputFile(role, shown, loader.digests[file], bundled=inside))
    return RuleSet(
        rules,
        profiles[-1][0].name,
        profiles[-1][0].description,
        assumptions,
        loader.version([f for f in loader.read_bytes if f in in_effect]),
        loader.sources,
        selection,
        files,
    )


def _load_profile_chain(
    loader: _Loader, name: str, dirs: list[Path]
) -> list[tuple[ProfileFile, SourceMap]]:
    chain: list[tuple[ProfileFile, SourceMap]] = []
    seen: set[str] = set()
    current: str | None = name
    while current is not None:
        if current in seen:
            loader.problems.append(
                Problem(
                    Location(current, 1, 1),
                    "extends",
                    Message("profiles extend each other in a loop"),
                )
            )
            break
        seen.add(current)
        path = (
            Path(current)
            if current.endswith(".yaml")
            else next(
                (d / f"{current}.yaml" for d in dirs if _is_file(d / f"{current}.yaml")), None
            )
        )
        refused = path is not None and _is_file(path) is None  # the system refuses the path
        if path is None or not (refused or _is_file(path)):
            available = sorted({p.stem for d in dirs if d.is_dir() for p in d.glob("*.yaml")})
            loader.problems.append(
                Problem(
                    Location(current, 1, 1),
                    "",
                    Message(
                        "unknown profile '%(profile)s' (available: %(available)s)",
                        profile=current,
                        available=", ".join(available),
                    ),
                )
            )
            break
        try:
            data, source = loader.read(path)
            profile = ProfileFile.model_validate(data)
        except InputError as error:
            loader.problems.extend(error.problems)
            break
        except ValidationError as exc:
            loader.validation(exc, source)
            break
        chain.append((profile, source))
        current = profile.extends
    chain.reverse()  # base first
    return chain


def _merge_profiles(chain: list[tuple[ProfileFile, SourceMap]]) -> dict[str, Any]:
    merged: dict[str, Any] = {
        "assumptions": {},
        "select": "all",
        "ignore": set(),
        "severity": {},
        "severity_by_tag": {},
        "parameters": {},
        "parameter_sources": {},  # (code, name) -> (profile source, path) for error locations
        "codes": [],  # (code, profile source, path) of every rule code a profile names
        "tags": [],
    }
    for profile, source in chain:
        merged["assumptions"].update(profile.assumptions)
        if profile.select != "all":
            merged["select"] = set(profile.select)
            merged["codes"] += [(c, source, ("select", i)) for i, c in enumerate(profile.select)]
        merged["ignore"] |= set(profile.ignore)
        merged["codes"] += [(c, source, ("ignore", i)) for i, c in enumerate(profile.ignore)]
        merged["severity"].update(profile.severity)
        merged["codes"] += [(c, source, ("severity", c)) for c in profile.severity]
        merged["severity_by_tag"].update(profile.severity_by_tag)
        merged["tags"] += [(t, source, ("severity_by_tag", t)) for t in profile.severity_by_tag]
        for code, params in profile.parameters.items():
            merged["parameters"].setdefault(code, {}).update(params)
            merged["codes"].append((code, source, ("parameters", code)))
            for name in params:
                merged["parameter_sources"][(code, name)] = (source, ("parameters", code, name))
    return merged


def _check_rule(
    loader: _Loader, spec: RuleFile, source: SourceMap, settings: dict[str, Any]
) -> Rule | None:
    before = len(loader.problems)
    quantities = catalogue().get(spec.scope)
    if quantities is None:
        loader.problem(
            source,
            ("scope",),
            Message(
                "unknown scope '%(scope)s' (known: %(known)s)",
                scope=spec.scope,
                known=", ".join(sorted(catalogue())),
            ),
        )
        return None
    names: dict[str, Type] = {name: kind_type(q.kind) for name, q in quantities.items()}
    parameters: dict[str, Parameter] = {}
    overrides = settings["parameters"].get(spec.code, {})
    for name in overrides:
        if name not in spec.parameters:
            profile_source, path = settings["parameter_sources"][(spec.code, name)]
            known = ", ".join(spec.parameters) or Message("none")
            loader.problem(
                profile_source,
                path,
                Message(
                    "%(rule)s has no parameter '%(name)s' (its parameters: %(known)s)",
                    rule=spec.code,
                    name=name,
                    known=known,
                ),
            )
    for name, raw in spec.parameters.items():
        if name in names:
            loader.problem(
                source,
                ("parameters", name),
                Message("parameter '%(name)s' hides a derived quantity", name=name),
            )
            continue
        try:
            kind = parameter_kind(raw)
            value = _parameter_value(raw, kind)
        except QuantityError as exc:
            loader.problem(source, ("parameters", name), message_of(exc))
            continue
        if name in overrides:
            profile_source, path = settings["parameter_sources"][(spec.code, name)]
            try:
                new_kind = parameter_kind(overrides[name])
                if new_kind != kind:
                    raise QuantityError(
                        Message(
                            "sets %(rule)s's '%(name)s' to '%(value)s' (%(new_kind)s), but the "
                            "rule declares %(kind)s (%(raw)s)",
                            rule=spec.code,
                            name=name,
                            value=overrides[name],
                            new_kind=kind_word(new_kind),
                            kind=kind_word(kind),
                            raw=raw,
                        )
                    )
                raw = overrides[name]
                value = _parameter_value(raw, kind)
            except QuantityError as exc:
                loader.problem(profile_source, path, message_of(exc))  # the rule's own value stands
        parameters[name] = Parameter(name, float(value), kind, str(raw))
        names[name] = kind_type(kind)

    def compile_field(
        field_name_: str, text: str, scope_names: dict[str, Type]
    ) -> Expression | None:
        try:
            return compile_expression(text, scope_names)
        except ExpressionError as exc:
            loader.problem(source, (field_name_,), message_of(exc))
            return None

    observed = compile_field("observed", spec.observed, names)
    limit = compile_field("limit", spec.limit, names)
    when = compile_field("when", spec.when, names) if spec.when else None
    if when is not None and not when.type.boolean:
        loader.problem(source, ("when",), Message("'when' must be a condition (true or false)"))
    kind = "count"
    if observed is not None and limit is not None:
        if observed.type != limit.type:
            loader.problem(
                source,
                ("limit",),
                Message(
                    "observed is %(observed)s but limit is %(limit)s",
                    observed=observed.type.describe(),
                    limit=limit.type.describe(),
                ),
            )
        kind = _kind_of(observed.type, observed, quantities, parameters)
    condition = None
    if observed is not None and limit is not None and observed.type == limit.type:
        # (when they differ, the 'limit' problem above says it once)
        condition = compile_field(
            "condition", spec.condition, {**names, "observed": observed.type, "limit": limit.type}
        )
        if condition is not None and condition.type != BOOLEAN:
            loader.problem(
                source,
                ("condition",),
                Message("the condition must be a comparison (true or false)"),
            )
    if len(loader.problems) > before or observed is None or limit is None or condition is None:
        return None
    severity = settings["severity"].get(spec.code)
    if severity is None:
        for tag in spec.tags:
            severity = settings["severity_by_tag"].get(tag, severity)
    return Rule(
        spec,
        source.file,
        severity or spec.severity,
        parameters,
        observed,
        limit,
        condition,
        when,
        kind,
    )


def _kind_of(
    t: Type, expression: Expression, quantities: dict[str, Any], parameters: dict[str, Parameter]
) -> str:
    """The display kind of an observed value: the named quantity's own kind when it is one."""
    text = expression.text.strip()
    if text in quantities:
        return str(quantities[text].kind)
    if text in parameters:
        return parameters[text].kind
    if t == kind_type("count"):
        return "count"
    for name in KINDS:
        if kind_type(name) == t:
            return name
    return "count"


def _parameter_value(raw: str | float | int, kind: str) -> float:
    """The canonical value; a non-finite one (YAML's ``.inf``, ``.nan``, ``1.0e+999``, or
    '1e999' as text) is refused by parse_quantity, a too large whole number here."""
    if kind == "count" and isinstance(raw, int):
        try:
            return float(raw)
        except OverflowError:
            raise QuantityError(Message("'%(text)s' is too large", text=raw)) from None
    return parse_quantity(raw, kind)
