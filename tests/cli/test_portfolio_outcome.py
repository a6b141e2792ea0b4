"""The portfolio's verdict and exit code from its sites' (facility.portfolio)."""

from __future__ import annotations

from facility.portfolio import SiteOutcome, worst_exit, worst_verdict


def outcome(verdict: str, code: int) -> SiteOutcome:
    return SiteOutcome("s.yaml", "s", verdict=verdict, exit_code=code)


def test_the_worst_site_decides():
    sites = [outcome("ready", 0), outcome("not-ready", 1), outcome("ready-with-warnings", 0)]
    assert (worst_verdict(sites), worst_exit(sites)) == ("not-ready", 1)
    sites.append(outcome("error", 2))  # bad input is worse than any verdict
    assert (worst_verdict(sites), worst_exit(sites)) == ("error", 2)
    # incomplete sits between not ready and ready with warnings
    assert worst_verdict([outcome("ready-with-warnings", 0), outcome("incomplete", 1)]) == (
        "incomplete"
    )
    # --fail-on never: a failing site may add 0 to the exit code; its verdict stays
    assert (worst_verdict([outcome("not-ready", 0)]), worst_exit([outcome("not-ready", 0)])) == (
        "not-ready",
        0,
    )


def test_no_site_is_never_ready():
    assert (worst_verdict([]), worst_exit([])) == ("error", 2)
