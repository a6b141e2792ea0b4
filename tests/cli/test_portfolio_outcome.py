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


def test_the_summary_table():
    from pathlib import Path

    from facility.portfolio import Skipped
    from facility.report.portfolio_view import summary_text

    counts = {"fail": 107, "pass": 305, "not_evaluated": 34, "waived": 2}
    hall = SiteOutcome("halls/b3.yaml", "b3", "Hall B3", "not-ready", counts, 1)
    pod = SiteOutcome(
        "halls/pod.yaml", "pod", "Pod", "ready-with-warnings", {**counts, "fail": 4}, 0
    )
    bad = outcome("error", 2)
    skipped = [Skipped(Path("halls/base.yaml"), Path("halls/b3.yaml"))]
    assert summary_text([hall, bad, pod], skipped) == (
        "PORTFOLIO: 3 sites\n"
        "  site            verdict              failed  passed  not evaluated  waived  exit\n"
        "  halls/b3.yaml   NOT READY               107     305             34       2     1\n"
        "  s.yaml          BAD INPUT                 —       —              —       —     2\n"
        "  halls/pod.yaml  READY WITH WARNINGS       4     305             34       2     0\n"
        "\n"
        "not checked alone: halls/base.yaml, a base of halls/b3.yaml (checked with it)\n"
        "\n"
        "portfolio: BAD INPUT — 1 bad input, 1 not ready, 1 ready with warnings; exit 2\n"
    )
