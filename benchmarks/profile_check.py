"""Where `facility check` spends its time on a campus: a pyinstrument call tree.

    uv run python benchmarks/profile_check.py FILE [--format json|html] [--interval 0.001]
        [--html-out profile.html]

Runs what ``facility check FILE -o result.json`` runs (load, audit, single failures, waivers,
the JSON result streamed to a file) under pyinstrument's statistical profiler, which samples the stack every
``--interval`` seconds instead of tracing every call, so the proportions are those of a real
run. Prints the time per phase and the call tree (functions under 1 % hidden).
``--format html`` profiles the HTML report instead. ``benchmarks/generate_campus.py`` writes
campus files to profile.
"""

from __future__ import annotations

import argparse
import datetime as dt
import tempfile
import time
from pathlib import Path

from pyinstrument import Profiler

MOMENT = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--format", choices=("json", "html"), default="json")
    parser.add_argument("--interval", type=float, default=0.001, help="sampling interval, s")
    parser.add_argument("--html-out", type=Path, help="also write pyinstrument's HTML view here")
    args = parser.parse_args()

    from facility.check import run_check
    from facility.engine.evaluate import default_profile
    from facility.engine.rules import load_rules
    from facility.model.load import load_site
    from facility.report.outputs import render_pieces
    from facility.report.write import write_atomically

    phases: list[tuple[str, float]] = []
    profiler = Profiler(interval=args.interval)
    profiler.start()
    start = time.perf_counter()
    site = load_site(args.file)
    phases.append(("load", time.perf_counter() - start))
    ruleset = load_rules(profile=default_profile(site))
    report = run_check(site, ruleset, generated_at=MOMENT)  # audit, single failures, waivers
    result = report.result
    phases.append(("check", time.perf_counter() - start - sum(t for _, t in phases)))
    with tempfile.TemporaryDirectory() as tmp:
        write_atomically(Path(tmp) / f"out.{args.format}", render_pieces(args.format, report))
    phases.append((args.format, time.perf_counter() - start - sum(t for _, t in phases)))
    profiler.stop()

    print(f"{args.file}: {len(site.racks):,} racks, {len(result.findings):,} findings")
    for name, seconds in phases:
        print(f"  {name:<6} {seconds:7.2f} s")
    print(profiler.output_text(unicode=True, color=False, show_all=False, timeline=False))
    if args.html_out:
        args.html_out.write_text(profiler.output_html(), encoding="utf-8")


if __name__ == "__main__":
    main()
