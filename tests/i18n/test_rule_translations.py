"""Every rule speaks zh-CN, in the project glossary's words (issue 9).

The rule files carry their Chinese text next to the English (``translations: {zh-CN: …}``);
``i18n/glossary.zh-CN.yaml`` fixes the industry terms. These tests fail when:

- a rule lacks a Chinese text for a field that has English (title, requirement, why,
  known_problems, each example), or has Chinese for a field without English;
- a Chinese text is empty, has no Chinese characters, or has English punctuation or a
  folded-line space between Chinese characters;
- a number, a number with its unit, an entity id or an operator of the English text is
  missing from the Chinese (numbers, units, ids and formulas stay exactly as in English);
- the glossary is malformed (duplicate ``en``, empty ``zh``, an ``avoid`` variant hiding
  inside a preferred term), or misses a term issue 9 names;
- a rule's Chinese uses a variant the glossary avoids (冷却分配单元 for 冷量分配单元 …), or its
  English uses a glossary term (``en_forms``) whose Chinese (``zh_forms``) the same field lacks;
- a compiled message catalog (``facility/locale/zh_CN``), when there is one, uses an avoided
  variant.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from facility.engine.rules import RuleFile, bundled_rules_dir, load_rules

LANG = "zh-CN"
REPO = Path(__file__).resolve().parents[2]
GLOSSARY = REPO / "i18n" / "glossary.zh-CN.yaml"
CATALOGS = REPO / "facility" / "locale" / "zh_CN"
TEXT_FIELDS = ("title", "requirement", "why", "known_problems")
EXAMPLE_KINDS = ("passing", "failing")

# The terms issue 9 names; each must be a glossary ``zh``.
ISSUE_TERMS = (
    "冷量分配单元", "一次侧", "二次侧", "供液温度", "回液温度", "逼近温度", "扬程", "压差",
    "丙二醇", "乙二醇", "列头柜", "机柜 PDU", "母线槽", "均布荷载", "集中荷载", "架空地板",
    "单点故障", "N+1 冗余", "2N 冗余", "就绪", "未就绪",
)  # fmt: skip

CJK = re.compile(r"[\u4e00-\u9fff]")
# A number not glued to a Latin id (A01, W45, CHx2000 are ids, checked as ids).
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])\d[\d,]*(?:\.\d+)?")
UNIT = r"(?:kVA|kW|L/min|kPa|kN|kg|m²|bar|°C|K|V|A|%)"
QUANTITY = re.compile(rf"(?<![A-Za-z0-9_.])\d[\d,]*(?:\.\d+)? {UNIT}(?![A-Za-z0-9/])")
ENTITY_ID = re.compile(
    r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b"  # TCS-A, CDU-A1, B01-A1, FW-1, Z-A, UPS-A
    r"|\b[A-Z][A-Za-z]*\d[A-Za-z0-9]*\b"  # A01, B3, W32, NVL72, CHx2000
)
OPERATORS = "≤≥<>×·−√=≈+→±"
# English punctuation touching a Chinese character: the Chinese text should use ，。；：（）！？
ASCII_PUNCTUATION = re.compile(r"[\u4e00-\u9fff][,.;:!?()]|[,;:!?()][\u4e00-\u9fff]")
FOLDED_SPACE = re.compile(r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]\s+[\u4e00-\u9fff]")


def _rule_paths() -> list[Path]:
    root = bundled_rules_dir()
    return sorted(p for p in root.rglob("*.yaml") if "profiles" not in p.relative_to(root).parts)


RULES: dict[str, RuleFile] = {
    path.stem: RuleFile.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    for path in _rule_paths()
}
CODES = sorted(RULES)


def _glossary() -> dict[str, Any]:
    return yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))


TERMS: list[dict[str, Any]] = _glossary()["terms"]


def texts(rule: RuleFile) -> list[tuple[str, str, str | None]]:
    """(field, English, Chinese or None) for every field of ``rule`` that has English text."""
    zh = rule.translations.get(LANG)
    pairs: list[tuple[str, str, str | None]] = []
    for field in TEXT_FIELDS:
        english = getattr(rule, field).strip()
        if english:
            pairs.append((field, english, getattr(zh, field).strip() if zh else None))
    for kind in EXAMPLE_KINDS:
        english = rule.examples.get(kind, "").strip()
        if english:
            chinese = zh.examples.get(kind, "").strip() if zh else None
            pairs.append((f"examples.{kind}", english, chinese))
    return pairs


def translated(code: str) -> list[tuple[str, str, str]]:
    pairs = texts(RULES[code])
    missing = [field for field, _, zh in pairs if not zh]
    if missing:
        pytest.fail(f"{code} has no {LANG} text for: {', '.join(missing)}")
    return [(field, en, zh) for field, en, zh in pairs if zh]


def _form(form: str) -> re.Pattern[str]:
    """An English term as a whole word: 'TCS' matches 'the TCS supply', not 'TCS-A'."""
    return re.compile(rf"(?<![\w-]){re.escape(form)}(?![\w-])", re.IGNORECASE)


# ── the rules ────────────────────────────────────────────────────────────────────


def test_the_rule_files_are_the_rules_that_load() -> None:
    assert CODES, "no rule files found"
    assert {r.code for r in load_rules().rules} <= set(CODES)


@pytest.mark.parametrize("code", CODES)
def test_rule_has_a_zh_cn_text_for_every_english_field(code: str) -> None:
    rule = RULES[code]
    assert LANG in rule.translations, f"{code} has no translations: {{{LANG}: …}}"
    translated(code)
    zh = rule.translations[LANG]
    extra = [f"examples.{k}" for k in zh.examples if not rule.examples.get(k, "").strip()]
    if zh.known_problems.strip() and not rule.known_problems.strip():
        extra.append("known_problems")
    assert not extra, f"{code} has {LANG} text without English for: {', '.join(extra)}"
    assert rule.text(LANG) is zh


@pytest.mark.parametrize("code", CODES)
def test_rule_text_is_written_in_chinese(code: str) -> None:
    problems = []
    for field, _, zh in translated(code):
        if not CJK.search(zh):
            problems.append(f"{field}: no Chinese characters in {zh!r}")
        for match in ASCII_PUNCTUATION.finditer(zh):
            problems.append(f"{field}: English punctuation {match.group()!r} in Chinese text")
        for match in FOLDED_SPACE.finditer(zh):
            problems.append(f"{field}: a space between Chinese characters {match.group()!r}")
    assert not problems, f"{code}:\n" + "\n".join(problems)


@pytest.mark.parametrize("code", CODES)
def test_numbers_units_ids_and_formulas_stay_as_in_english(code: str) -> None:
    problems = []
    for field, en, zh in translated(code):
        for what, pattern in (("number", NUMBER), ("quantity", QUANTITY), ("id", ENTITY_ID)):
            lost = Counter(pattern.findall(en)) - Counter(pattern.findall(zh))
            if what == "id":  # an id is kept when it appears at all (Chinese may reorder)
                lost = Counter({i: 1 for i in lost if i not in zh})
            if lost:
                problems.append(f"{field}: {what} {sorted(lost)} of {en!r} missing from {zh!r}")
        operators = Counter(c for c in en if c in OPERATORS)
        lost_ops = operators - Counter(c for c in zh if c in OPERATORS)
        if lost_ops:
            problems.append(f"{field}: operators {sorted(lost_ops)} of {en!r} missing from {zh!r}")
    assert not problems, f"{code}:\n" + "\n".join(problems)


@pytest.mark.parametrize("code", CODES)
def test_rule_text_avoids_the_variants_the_glossary_rejects(code: str) -> None:
    problems = [
        f"{field}: {variant!r} in {zh!r} — the glossary says {term['zh']!r} ({term['en']})"
        for field, _, zh in translated(code)
        for term in TERMS
        for variant in term.get("avoid", [])
        if variant in zh
    ]
    assert not problems, f"{code}:\n" + "\n".join(problems)


@pytest.mark.parametrize("code", CODES)
def test_rule_text_uses_the_glossary_term_for_each_english_term(code: str) -> None:
    problems = []
    for field, en, zh in translated(code):
        for term in TERMS:
            forms = term.get("en_forms", [])
            hit = next((f for f in forms if _form(f).search(en)), None)
            if hit is None:
                continue
            wanted = term.get("zh_forms", [term["zh"]])
            if not any(w in zh for w in wanted):
                problems.append(
                    f"{field}: English says {hit!r}, Chinese lacks {' / '.join(wanted)}: {zh!r}"
                )
    assert not problems, f"{code}:\n" + "\n".join(problems)


# ── the glossary ─────────────────────────────────────────────────────────────────


def test_glossary_is_valid() -> None:
    data = _glossary()
    assert data.get("language") == LANG
    assert TERMS, "the glossary has no terms"
    problems = []
    for i, term in enumerate(TERMS):
        where = f"terms[{i}] ({term.get('en')!r})"
        unknown = set(term) - {"en", "zh", "note", "avoid", "en_forms", "zh_forms"}
        if unknown:
            problems.append(f"{where}: unknown keys {sorted(unknown)}")
        for key in ("en", "zh", "note"):
            if not isinstance(term.get(key), str) or not term[key].strip():
                problems.append(f"{where}: '{key}' must be non-empty text")
        for key in ("avoid", "en_forms", "zh_forms"):
            value = term.get(key, [])
            if not isinstance(value, list) or not all(
                isinstance(v, str) and v.strip() for v in value
            ):
                problems.append(f"{where}: '{key}' must be a list of non-empty texts")
        if "zh_forms" in term and "en_forms" not in term:
            problems.append(f"{where}: 'zh_forms' without 'en_forms'")
    duplicates = [en for en, n in Counter(t.get("en") for t in TERMS).items() if n > 1]
    assert not duplicates, f"duplicate en keys: {duplicates}"
    assert not problems, "\n".join(problems)


def test_glossary_variants_never_hide_inside_a_preferred_term() -> None:
    preferred = {t["zh"] for t in TERMS} | {z for t in TERMS for z in t.get("zh_forms", [])}
    clashes = [
        f"{t['en']}: avoided {v!r} is part of preferred {p!r}"
        for t in TERMS
        for v in t.get("avoid", [])
        for p in preferred
        if v in p
    ]
    assert not clashes, "\n".join(clashes)


def test_glossary_has_every_term_of_issue_9() -> None:
    zh = {t["zh"] for t in TERMS}
    assert not [term for term in ISSUE_TERMS if term not in zh]


def test_glossary_terms_are_chinese() -> None:
    latin_only = {"UPS"}  # kept as the abbreviation in Chinese too
    assert not [t["zh"] for t in TERMS if t["zh"] not in latin_only and not CJK.search(t["zh"])]


def test_message_catalogs_avoid_the_variants_the_glossary_rejects() -> None:
    catalogs = sorted(CATALOGS.rglob("*.po")) if CATALOGS.is_dir() else []
    if not catalogs:
        pytest.skip("no zh_CN message catalog yet")
    msgstr = re.compile(r'^msgstr(?:\[\d+\])?\s+"(.*)"$|^"(.*)"$')
    problems = []
    for catalog in catalogs:
        in_msgstr = False
        for number, line in enumerate(catalog.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("msgstr"):
                in_msgstr = True
            elif not line.startswith('"'):
                in_msgstr = False
            match = msgstr.match(line)
            if not (in_msgstr and match):
                continue
            text = match.group(1) or match.group(2) or ""
            for term in TERMS:
                for variant in term.get("avoid", []):
                    if variant in text:
                        problems.append(
                            f"{catalog.relative_to(REPO)}:{number}: {variant!r} — "
                            f"the glossary says {term['zh']!r} ({term['en']})"
                        )
    assert not problems, "\n".join(problems)
