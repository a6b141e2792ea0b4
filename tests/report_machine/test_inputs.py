"""Everything that decided the verdict is in the JSON result, each file with the SHA-256 of
its bytes: every site layer, the waiver file, the configuration file, every profile and rule
file in effect — so one input hash can never sign two verdicts."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from facility.cli import app
from facility.engine.rules import bundled_rules_dir

ROOT = Path(__file__).resolve().parents[2]


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_input_is_listed_with_its_hash(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / ".git").mkdir()
    for name in ("hall-b3-base.yaml", "cooling.yaml"):
        shutil.copy(ROOT / "examples" / "layered" / name, tmp_path / name)
    waivers = tmp_path / "waivers.yaml"
    waivers.write_text(
        "waivers:\n  - {rule: FLR-001, entity: B01, reason: Spreader plates ordered,"
        " owner: J. Okafor, expires: 2099-01-31}\n",
        encoding="utf-8",
    )
    config = tmp_path / "facility.toml"
    config.write_text('waivers = ["waivers.yaml"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = CliRunner().invoke(app, ["check", "cooling.yaml", "-f", "json"])
    assert out.exit_code == 1, out.output
    inputs = json.loads(out.stdout)["inputs"]
    by_role: dict[str, list[dict]] = {}
    for entry in inputs:
        by_role.setdefault(entry["role"], []).append(entry)
    # the two layers, the waiver file and the configuration file, each hashed as read
    assert [(e["file"], e["sha256"]) for e in by_role["site"]] == [  # base first, as merged
        ("hall-b3-base.yaml", _sha(tmp_path / "hall-b3-base.yaml")),
        ("cooling.yaml", _sha(tmp_path / "cooling.yaml")),
    ]
    assert [e["sha256"] for e in by_role["waivers"]] == [_sha(waivers)]
    assert [e["sha256"] for e in by_role["config"]] == [_sha(config)]
    # every bundled rule and profile file in effect, by name, with its own hash
    rules = bundled_rules_dir()
    for entry in by_role["rule"] + by_role["profile"]:
        assert entry["bundled"] is True
        assert entry["sha256"] == _sha(rules / entry["file"].removeprefix("rules/"))
    assert {e["file"] for e in by_role["profile"]} >= {"rules/profiles/tier-iii.yaml"}
    assert len(by_role["rule"]) >= 50


def test_a_changed_rule_file_changes_its_entry(tmp_path: Path) -> None:
    site = ROOT / "examples" / "small-ready.yaml"
    extra = tmp_path / "extra"
    extra.mkdir()
    shutil.copy(bundled_rules_dir() / "power" / "PWR-004.yaml", extra / "PWR-104.yaml")
    text = (extra / "PWR-104.yaml").read_text(encoding="utf-8")
    (extra / "PWR-104.yaml").write_text(
        text.replace("code: PWR-004", "code: PWR-104").replace(
            "name: power.rack_has_single_side", "name: power.local_rack_sides"
        ),
        encoding="utf-8",
    )

    def entry(args: list[str]) -> list[dict]:
        out = CliRunner().invoke(app, ["check", str(site), "--isolated", *args, "-f", "json"])
        assert out.exit_code in (0, 1), out.output
        return [e for e in json.loads(out.stdout)["inputs"] if e["file"].endswith("PWR-104.yaml")]

    before = entry(["--rules", str(extra)])
    (extra / "PWR-104.yaml").write_text(
        (extra / "PWR-104.yaml").read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8"
    )
    after = entry(["--rules", str(extra)])
    assert len(before) == len(after) == 1 and before[0]["role"] == "rule"
    assert "bundled" not in before[0]
    assert before[0]["sha256"] != after[0]["sha256"] == _sha(extra / "PWR-104.yaml")
