"""The rule set the rendering, golden, SARIF and JUnit tests run on: the bundled rules as of
2026-12-01 under a profile of the same name with ``frozen-`` in front (``profiles/``), which
selects exactly those rules. A rule added later is not in it, and the rule set's version hashes
only the files in effect, so none of those tests' expectations change with it."""

from __future__ import annotations

from pathlib import Path

from facility.engine.rules import RuleSet, bundled_rules_dir, load_rules

FROZEN = Path(__file__).parent


def frozen_rules(profile: str) -> RuleSet:
    """The bundled ``profile`` (tier-iii, supernode) restricted to the frozen rules; a profile
    given as a file (a test's own) is loaded as it is."""
    if profile.endswith(".yaml"):
        return load_rules([bundled_rules_dir()], profile)
    return load_rules(
        [bundled_rules_dir()], f"frozen-{profile}", profile_dirs=[FROZEN / "profiles"]
    )
