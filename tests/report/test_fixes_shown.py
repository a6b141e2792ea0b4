"""The fix of each failing finding in the reports (issue 18): HTML and Markdown cards and
covers, the JSON result's ``fixes``, the terminal with -v; zh-CN and --units us.

Hall B3 (examples/hall-b3.yaml), worked by hand as in docs/fixes.md:
- rack A01, gb300-b3: 155 kW peak at PF 0.95 → 155 / 0.95 = 163.2 kVA on one side. A side has
  4 PDUs of type pdu-415v-63a: √3 · 415 V · 63 A · 0.8 = 36.23 kVA each, 144.9 kVA per side.
  - next standard rating, 80 A: √3 · 415 · 80 · 0.8 = 46.0 kVA, 4 × 46.0 = 184.0 kVA ≥ 163.2
    (the 70 A between them is no standard rating; 63 A is the present one);
  - or cap the peak: 144.91 kVA × 0.95 = 137.66 kW, on the 0.1 kW grid 137.6 kW
    (137.6 / 0.95 = 144.8 kVA ≤ 144.9; 137.7 / 0.95 = 144.95 kVA > 144.91 fails).
- racks B01 … B12, atlas-b3: 1,100 kg × 9.80665 / 0.72 m² = 14,982 Pa on a 12 kPa floor:
  a rating of 15.0 kPa (0.1 kPa steps), in US units 15,000 / 47.880259 = 313.3 psf (now
  12,000 / 47.880259 = 250.6 psf).
- facility water FW-1 is the only loop: its loss has no computed fix, only the remediation.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from facility.check import run_check
from facility.cli import app
from facility.engine.evaluate import default_profile
from facility.engine.rules import load_rules
from facility.model.load import load_site
from facility.report.terminal import render_text

ROOT = Path(__file__).resolve().parents[2]
HALL = ROOT / "examples" / "hall-b3.yaml"
WHEN = "2026-11-29T12:00:00Z"
A01 = "PWR-001:rack:A01"
FW1 = "RED-001:single_failure:facility_water:FW-1"


def _check(tmp: Path, *args: str) -> dict[str, str]:
    """One `facility check --fixes` writing HTML, Markdown, JSON and -v text: one search."""
    outputs = {"html": "r.html", "markdown": "r.md", "json": "r.json", "text": "r.txt"}
    argv = ["check", str(HALL), "--generated-at", WHEN, "-v", "--fixes", *args]
    for fmt, name in outputs.items():
        argv += ["-f", fmt, "-o", str(tmp / name)]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 1, result.output  # Hall B3 is NOT READY
    return {fmt: (tmp / name).read_text(encoding="utf-8") for fmt, name in outputs.items()}


@pytest.fixture(scope="module")
def english(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return _check(tmp_path_factory.mktemp("en"))


def _card(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    return html[start : html.index("</article>", start)]


def test_a01_card_offers_the_80_a_pdus_and_the_137_6_kw_cap_with_their_working(
    english: dict[str, str],
) -> None:
    card = _card(english["html"], "card-PWR-001--rack--A01")
    fixes = re.findall(r"<li>(.*?)\s*<dl class=\"fix-working\">", card, re.S)
    assert fixes == [
        "PDUs of type pdu-415v-63a rated 80 A (now 63 A)",
        "cap the peak power of rack type gb300-b3 at 137.6 kW (now 155.0 kW)",
    ]
    # the working once changed: 4 × √3 · 415 · 80 · 0.8 = 184.0 kVA; 137.6 / 0.95 = 144.8 kVA
    assert "I = 80 A, DF = 80.0 % → 184.0 kVA" in card
    assert "P_peak = 137.6 kW, PF = 95.0 % → 144.8 kVA" in card
    assert "Confirm the rack&#39;s peak power with the vendor&#39;s power calculator" in card


def test_markdown_card_and_cover_show_the_fixes(english: dict[str, str]) -> None:
    md = english["markdown"]
    card = md[md.index("#### PWR-001") :]
    card = card[: card.index("####", 5)]
    assert "1. PDUs of type pdu-415v-63a rated 80 A (now 63 A) — then observed" in card
    assert "2. cap the peak power of rack type gb300-b3 at 137.6 kW (now 155.0 kW)" in card
    # the cover: each cause followed by the first fix of its root finding
    cover = md[: md.index("#### ")]
    causes = re.findall(r"^\d+\. \*\*.*?\n   Fix: (.*)$", cover, re.M)
    assert causes[0] == "PDUs of type pdu-415v-63a rated 80 A (now 63 A)"
    assert "a floor in zone Z-B rated 15.0 kPa" in causes[1]
    # FW-1, the only water loop: a second one with CDUs on it for each TCS loop
    assert any(
        c.startswith(
            "a second facility water loop FW-2 with the figures and the heat rejection plant of "
            "FW-1; "
        )
        for c in causes
    )


def test_html_cover_gives_each_cause_its_first_fix(english: dict[str, str]) -> None:
    html = english["html"]
    section = html[
        html.index('<section id="causes"') : html.index(
            "</section>", html.index('<section id="causes"')
        )
    ]
    items = section.count("<li>")
    assert items >= 2 and section.count('class="cause-fix"') == items


def test_json_has_a_fix_or_a_note_for_every_failing_finding(english: dict[str, str]) -> None:
    data = json.loads(english["json"])
    failing = {f["id"] for f in data["findings"] if f["status"] == "fail"}
    assert set(data["fixes"]) == failing
    for fid, entry in data["fixes"].items():
        assert bool(entry["fixes"]) != bool(entry["note"]), fid  # one or the other
        assert entry["remediation"], fid  # every bundled rule has a list
    rating, cap = data["fixes"][A01]["fixes"]
    assert rating["lever"] == "pdu_rating"
    assert rating["changes"] == [
        {
            "kind": "pdu_type",
            "id": "pdu-415v-63a",
            "field": "breaker_rating",
            "before": {"value": 63.0, "unit": "A", "text": "63 A"},
            "after": {"value": 80.0, "unit": "A", "text": "80 A"},
        }
    ]
    assert rating["working"]["limit"].endswith("→ 184.0 kVA")
    assert cap["changes"][0]["after"] == {"value": 137.6, "unit": "kW", "text": "137.6 kW"}
    water = data["fixes"][FW1]
    assert water["note"] is None and water["fixes"][0]["lever"] == "second_water"


def test_verbose_text_shows_fixes_under_causes_and_groups(english: dict[str, str]) -> None:
    text = english["text"]
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("  1. "))
    assert lines[first + 1].strip() == "fix: PDUs of type pdu-415v-63a rated 80 A (now 63 A)"
    assert "      fix: cap the peak power of rack type gb300-b3 at 137.6 kW (now 155.0 kW)" in lines
    # the working of a fix, indented under it: 4 × 46.0 = 184.0 kVA
    at = lines.index("      fix: PDUs of type pdu-415v-63a rated 80 A (now 63 A)")
    assert lines[at + 2].lstrip().startswith("then limit:") and "→ 184.0 kVA" in lines[at + 2]


def test_default_text_neither_shows_nor_searches_fixes() -> None:
    site = load_site(HALL)
    report = run_check(
        site, load_rules(profile=default_profile(site)), generated_at=None, fixes=True
    )
    text = render_text(report)
    assert report.fixes is not None and not report.fixes.done  # nothing searched
    assert "fix:" not in text


def test_without_fixes_every_report_says_they_were_not_computed(tmp_path: Path) -> None:
    shown = _check(tmp_path, "--no-fixes")  # the default: no --fixes
    assert json.loads(shown["json"])["fixes"] is None
    card = _card(shown["html"], "card-PWR-001--rack--A01")
    assert "Fixes not computed: --fixes" in card and "rated 80 A" not in card
    assert "Use higher-rated PDUs" in card  # the remediation list still shows
    assert '<p class="causes-fixes-note">Fixes not computed: --fixes</p>' in shown["html"]
    cover = shown["markdown"][: shown["markdown"].index("#### ")]
    assert "Fixes not computed: --fixes" in cover and "   Fix: " not in cover
    assert "  Fixes not computed: --fixes" in shown["text"].splitlines()  # -v, the coverage
    assert "fix:" not in shown["text"]


def test_the_default_is_no_search(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["check", str(HALL), "--generated-at", WHEN, "-f", "json"])
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["fixes"] is None


def test_config_key_fixes(tmp_path: Path) -> None:
    config = tmp_path / "facility.toml"
    config.write_text("fixes = true\n", encoding="utf-8")
    argv = ["check", str(HALL), "--generated-at", WHEN, "-f", "json", "--config", str(config)]
    result = CliRunner().invoke(app, argv)
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["fixes"][A01]["fixes"]  # searched, as --fixes
    result = CliRunner().invoke(app, [*argv, "--no-fixes"])  # the command line over the file
    assert json.loads(result.stdout)["fixes"] is None
    config.write_text('fixes = "yes"\n', encoding="utf-8")
    result = CliRunner().invoke(
        app, ["check", str(HALL), "--generated-at", WHEN, "-f", "json", "--config", str(config)]
    )
    assert result.exit_code == 2
    assert "facility.toml:1" in result.output and "true or false" in result.output
    assert "Traceback" not in result.output


def _zh_remediation() -> list[str]:
    site = load_site(HALL)
    rule = load_rules(profile=default_profile(site)).by_code("PWR-001")
    assert rule is not None
    listed = list(rule.spec.text("zh-CN").remediation)
    assert listed != list(rule.spec.text("en").remediation)  # translated in the rule file
    return listed


def test_chinese_html_has_the_same_fix_block_with_the_rules_own_chinese(tmp_path: Path) -> None:
    html = _check(tmp_path, "--lang", "zh-CN")["html"]
    card = _card(html, "card-PWR-001--rack--A01")
    assert card.count('<dl class="fix-working">') == 2  # the same two fixes
    assert "80 A" in card and "137.6 kW" in card
    listed = re.search(r'<div class="remediation">.*?<ol>(.*?)</ol>', card, re.S)
    assert listed is not None
    items = re.findall(r"<li>(.*?)</li>", listed.group(1))
    assert items == [_escaped(r) for r in _zh_remediation()]


def _escaped(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


def test_us_units_cap_in_kw_floor_rating_in_psf(tmp_path: Path) -> None:
    shown: dict[str, Any] = _check(tmp_path, "--units", "us")
    md = shown["markdown"]
    # electrical figures stay kW; 15.0 kPa = 313.3 psf, 12.0 kPa = 250.6 psf
    assert "cap the peak power of rack type gb300-b3 at 137.6 kW (now 155.0 kW)" in md
    assert "a floor in zone Z-B rated 313.3 psf (uniform\\_load\\_rating, now 250.6 psf)" in md
    # the JSON stays SI: the rating in kPa
    data = json.loads(shown["json"])
    fid = next(k for k in data["fixes"] if k.startswith("FLR-001:rack:B01"))
    after = data["fixes"][fid]["fixes"][0]["changes"][0]["after"]
    assert after["unit"] == "kPa" and after["value"] == 15.0


WAIVER = """
waivers:
  - rule: FLR-001
    entity: B01
    reason: Spreader plates go under B01 before it is filled.
    owner: J. Okafor
    expires: 2027-01-31
"""


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[set[str]]:
    """Each fix search run, as the failing finding ids it was given (a stand-in for the search
    itself, which the other tests run: here only what facility.check remembers is tested, and
    it starts empty)."""
    import facility.analysis.fixes as search
    import facility.check as check

    monkeypatch.setattr(check, "_MEMO", type(check._MEMO)())
    runs: list[set[str]] = []

    def fixes(site: Any, ruleset: Any, result: Any, **kwargs: Any) -> dict[str, Any]:
        runs.append({f.id for f in result.findings if f.status == "fail"})
        return {}  # a new object each run

    monkeypatch.setattr(search, "fixes", fixes)
    return runs


def _searched(path: Path, day: int = 29) -> dict[str, Any]:
    site = load_site(path)
    moment = dt.datetime(2026, 11, day, 12, tzinfo=dt.UTC)
    rules = load_rules(profile=default_profile(site))
    report = run_check(site, rules, generated_at=moment, fixes=True)
    assert report.fixes is not None
    return report.fixes.get()


def test_the_search_is_remembered_only_for_the_same_inputs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    runs = _counted(monkeypatch)
    first = _searched(HALL)
    assert _searched(HALL) is first and len(runs) == 1  # the same file loaded again: remembered
    assert _searched(HALL, day=28) is not first and len(runs) == 2  # another report date
    # the same site but for one figure no failing finding shows (a concentrated load rating)
    text = HALL.read_text(encoding="utf-8")
    assert text.count("concentrated_load_rating: 4.45 kN") == 1
    changed = tmp_path / "hall-b3.yaml"
    changed.write_text(text.replace("4.45 kN", "4.46 kN"), encoding="utf-8")
    assert _searched(changed) is not first and len(runs) == 3
    assert runs[2] == runs[0]  # the same failing findings: only the site's content differs
    # a waiver: B01 is not failing, the search runs again without it
    waived = tmp_path / "waived.yaml"
    waived.write_text(text + WAIVER, encoding="utf-8")
    _searched(waived)
    assert len(runs) == 4 and runs[3] == runs[0] - {"FLR-001:rack:B01"}
