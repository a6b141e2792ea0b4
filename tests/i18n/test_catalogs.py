"""The message catalogs of the reports: complete, current, compiled and in the glossary's words.

``facility/locale/facility.pot`` holds every message the report code, the templates and the
bundled profiles show to people; ``facility/locale/zh_CN/LC_MESSAGES/facility.po`` their
Chinese, compiled to ``facility.mo`` (what reports read at run time). These tests fail when:

- the .pot is out of date: a message was added, changed or removed in the code or templates
  and ``i18n/catalogs.sh extract`` was not run (the tests extract again with Babel's API and the
  same ``babel.cfg``);
- a message of the .pot has no zh-CN translation, an empty one, a fuzzy one, or one that loses
  or adds a ``%(name)s`` placeholder; or the .po keeps messages the .pot no longer has;
- the committed .mo is not the compiled .po (``i18n/catalogs.sh compile``);
- a translation uses an English term of the glossary (``en_forms``) without its Chinese term.

How to update the catalogs: ``i18n/README.md``.
"""

from __future__ import annotations

import ast
import functools
import io
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

REPO = Path(__file__).resolve().parents[2]
LOCALE = REPO / "facility" / "locale"
POT = LOCALE / "facility.pot"
PO = LOCALE / "zh_CN" / "LC_MESSAGES" / "facility.po"
MO = LOCALE / "zh_CN" / "LC_MESSAGES" / "facility.mo"
GLOSSARY = REPO / "i18n" / "glossary.zh-CN.yaml"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

Key = tuple[str | None, str | tuple[str, ...]]


def _read_po(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale="zh_CN" if path.suffix == ".po" else None)


def _key(message: Any) -> Key:
    msgid = message.id if isinstance(message.id, str) else tuple(message.id)
    return message.context, msgid


def _messages(catalog: Catalog) -> dict[Key, Any]:
    return {_key(m): m for m in catalog if m.id}


def _singular(key: Key) -> str:
    msgid = key[1]
    return msgid if isinstance(msgid, str) else msgid[0]


@pytest.fixture(scope="module")
def pot() -> dict[Key, Any]:
    return _messages(_read_po(POT))


@pytest.fixture(scope="module")
def po() -> Catalog:
    return _read_po(PO)


@functools.cache
def extracted() -> frozenset[Key]:
    """The messages of the code, templates and profiles now, as ``pybabel extract`` finds them
    (once per test process: the tree does not change during a run)."""
    with (REPO / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle, filename="babel.cfg")
    found: set[Key] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(REPO), method_map, options_map, keywords=DEFAULT_KEYWORDS
    ):
        msgid = message if isinstance(message, str) else tuple(message)
        found.add((context, msgid))
    return frozenset(found)


def test_no_message_is_both_plain_and_plural() -> None:
    """gettext('CDU') finds nothing when 'CDU' is the singular of a plural message: the
    catalog keeps one entry per msgid. Use pgettext with a context for the plain one."""
    now = extracted()
    plural = {(context, msgid[0]) for context, msgid in now if isinstance(msgid, tuple)}
    clashes = sorted(str(k) for k in now if isinstance(k[1], str) and k in plural)
    assert not clashes, f"msgids used with and without a plural: {clashes}"


def test_the_template_is_up_to_date(pot: dict[Key, Any]) -> None:
    now = extracted()
    new = sorted(map(str, now - set(pot)))
    gone = sorted(map(str, set(pot) - now))
    assert not new and not gone, (
        "facility/locale/facility.pot is out of date; run i18n/catalogs.sh (extract, update, "
        f"translate, compile).\nnew messages: {new}\nmessages no longer used: {gone}"
    )


GETTEXT_CALLS = {"_", "N_", "ngettext", "pgettext", "npgettext", "Message"}


def test_no_message_hides_inside_an_f_string() -> None:
    """Babel does not look inside f-strings: a _() there is never extracted nor translated."""
    problems = []
    for path in sorted((REPO / "facility").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id in GETTEXT_CALLS
                ):
                    problems.append(f"{path.relative_to(REPO)}:{inner.lineno}")
    assert not problems, "gettext calls inside f-strings: " + ", ".join(problems)


def test_the_template_finds_code_templates_and_profiles(pot: dict[Key, Any]) -> None:
    """Guard against a vacuous comparison: each kind of source gives its messages."""
    places = {loc[0].split("/")[0] for m in pot.values() for loc in m.locations}
    assert {"facility", "templates", "rules"} <= places
    assert (None, "Not ready") in pot
    assert (None, "Verdict and counts") in pot  # a {% trans %} block of a template
    assert ("entity kind", "tcs_loop") in pot  # pgettext
    # Message(...) of facility.messages: the engine's reasons and formulas, the loader's errors
    assert (None, "rack type '%(type)s' has no %(field)s") in pot
    assert (None, "Σ CDUs − largest") in pot
    assert (None, "missing unit: expected %(what)s like '%(example)s', got '%(text)s'") in pot


def test_every_message_has_a_chinese_translation(pot: dict[Key, Any], po: Catalog) -> None:
    translated = _messages(po)
    problems = []
    for key in pot:
        message = translated.get(key)
        if message is None:
            problems.append(f"missing: {key}")
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not strings or not all(s.strip() for s in strings):
            problems.append(f"empty: {key}")
        if message.fuzzy:
            problems.append(f"fuzzy: {key}")
    extra = sorted(str(k) for k in set(translated) - set(pot))
    problems += [f"not in the .pot (run i18n/catalogs.sh update): {k}" for k in extra]
    assert not problems, f"{len(problems)} problems in {PO.relative_to(REPO)}:\n" + "\n".join(
        problems[:40]
    )
    assert not po.fuzzy, "the .po header is marked fuzzy"
    assert po.plural_forms == "nplurals=1; plural=0;"


def test_translations_keep_every_placeholder(po: Catalog) -> None:
    problems = []
    for message in po:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for text in strings:
            if set(PLACEHOLDER.findall(text)) != wanted:
                problems.append(f"{ids[0]!r} -> {text!r}")
        if any("%" in t and not PLACEHOLDER.search(t) and "%%" not in t for t in strings):
            problems.append(f"a bare % in {strings!r} (Jinja2 and % formatting need %%)")
    assert not problems, "\n".join(problems)


def test_the_compiled_catalog_is_the_po(po: Catalog) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, po)
    compiled.seek(0)
    fresh = {_key(m): m.string for m in read_mo(compiled) if m.id}
    with MO.open("rb") as handle:
        committed = {_key(m): m.string for m in read_mo(handle) if m.id}
    assert fresh, "the .po compiles to an empty catalog"
    assert committed == fresh, (
        f"{MO.relative_to(REPO)} is not the compiled .po: run i18n/catalogs.sh compile"
    )


def test_the_runtime_reads_the_compiled_catalog() -> None:
    from facility.report import i18n

    with i18n.using_language("zh-CN"):
        assert i18n._("Not ready") == "未就绪"
        assert i18n.ngettext("rack", "racks", 20) == "机柜"
        assert i18n.npgettext("after a count", "rack", "racks", 20) == "台机柜"
        assert i18n.pgettext("entity kind", "tcs_loop") == "二次侧冷却回路"


EQUIPMENT_NOTE = (
    "%(note)s Each figure comes from a line of the site file or from the embedded catalog, with "
    "the catalog's source and confidence (high: a primary source or standard; medium: a vendor "
    "figure via a secondary source; low: a single or inconsistent source)."
)
# Messages whose English uses a glossary term while the Chinese rightly says something else.
GLOSSARY_EXCEPTIONS = {
    # The figure counts the liquid racks' residual heat *and* the air-cooled racks' heat: the
    # glossary's 风冷散热量 (air heat), not 风冷余热 (the liquid racks' residual share only).
    ("Residual heat to room air", "residual"),
    ("residual heat to room air: %(heat)s", "residual"),
    # The glossary's own wording for footprint pressure (see its note on footprint).
    ("rack footprint pressure", "footprint"),
    # A primary or secondary *source* of a figure, not a side of the CDU.
    (EQUIPMENT_NOTE, "primary"),
    (EQUIPMENT_NOTE, "secondary"),
    # A spreadsheet's header row (表头), not the glossary's piping header (母管).
    ("this row has a cell beyond the %(n)s columns of the header", "header"),
    # The kind of a quantity (mass density, kg/m³) in the loader's unit errors, not the
    # glossary's power density (kW per rack).
    ("a density", "density"),
    ("density", "density"),
}


PLACEHOLDER = re.compile(r"%\([^)]*\)[a-z]")


@functools.cache
def _form(form: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])", re.IGNORECASE)


def test_translations_use_the_glossary_terms(po: Catalog) -> None:
    terms = yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))["terms"]
    problems = []
    for message in po:
        if not message.id or not message.string:
            continue
        english = message.id if isinstance(message.id, str) else message.id[0]
        words = PLACEHOLDER.sub("", english)  # '%(racks)s' names a value, not the term
        chinese = message.string if isinstance(message.string, str) else message.string[0]
        found = [f for t in terms for f in t.get("en_forms", []) if _form(f).search(words)]
        for term in terms:
            hit = next((f for f in term.get("en_forms", []) if _form(f).search(words)), None)
            if hit is None or (english, hit) in GLOSSARY_EXCEPTIONS:
                continue
            if any(hit.lower() in f.lower() and len(f) > len(hit) for f in found):
                continue  # part of a longer term ('liquid heat' of 'liquid heat fraction')
            wanted = term.get("zh_forms", [term["zh"]])
            if not any(w in chinese for w in wanted):
                problems.append(f"{english!r}: {hit!r} without {' / '.join(wanted)}: {chinese!r}")
    assert not problems, "\n".join(problems)
