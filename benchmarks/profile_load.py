"""Profile ``load_site`` on one site file with cProfile and print where the time goes.

    uv run python benchmarks/profile_load.py FILE [--top 10] [--no-gc] [--save out.prof]

Prints the top functions by cumulative and by own time, and the time per phase (compose,
build, validate, resolve, garbage collection). cProfile roughly doubles the cost of
Python-heavy code, so use the phase times of ``load_benchmark.py`` for absolute figures and
this for the shape. ``--no-gc`` runs with the cyclic garbage collector disabled, to show how
much of the load is collector passes over the millions of objects parsing creates.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import time
from pathlib import Path

PHASES = {  # (file suffix, function name) -> phase
    ("yaml/__init__.py", "compose"): "compose (libyaml node tree)",
    ("model/source.py", "build"): "build (plain data + source map)",
    ("model/load.py", "validate_document"): "validate (pydantic)",
    ("model/load.py", "resolve"): "resolve",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--no-gc", action="store_true", help="disable the cyclic GC")
    parser.add_argument("--save", type=Path, help="write the raw profile (for snakeviz etc.)")
    args = parser.parse_args()

    from facility.model.load import load_site

    gc_time = [0.0]
    gc_started = [0.0]

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            gc_started[0] = time.perf_counter()
        else:
            gc_time[0] += time.perf_counter() - gc_started[0]

    gc.callbacks.append(on_gc)
    if args.no_gc:
        gc.disable()
    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    site = load_site(args.file)
    profile.disable()
    total = time.perf_counter() - start
    gc.callbacks.remove(on_gc)
    if args.save:
        profile.dump_stats(str(args.save))

    print(
        f"{args.file}: {len(site.racks):,} racks, {len(site.pdus):,} PDUs; "
        f"load_site {total:.2f} s under cProfile (gc {'off' if args.no_gc else 'on'}); "
        f"time in GC passes {gc_time[0]:.2f} s"
    )
    stats = pstats.Stats(profile)
    print("\nPhases (cumulative time under the profiler):")
    for (suffix, name), label in PHASES.items():
        found = [
            v
            for k, v in stats.stats.items()
            if k[0].endswith(suffix) and k[2] == name  # type: ignore[attr-defined]
        ]
        if found:
            # (primitive calls, calls, own, cumulative, callers); recursion counts once.
            cumulative = max(v[3] for v in found)
            print(f"  {label:<34} {cumulative:6.2f} s  {100 * cumulative / total:5.1f} %")
    for order in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).strip_dirs().sort_stats(order).print_stats(args.top)
        lines = out.getvalue().splitlines()
        header = next(i for i, line in enumerate(lines) if "ncalls" in line)
        print(f"\nTop {args.top} by {order}:")
        print("\n".join(lines[header:]).rstrip())


if __name__ == "__main__":
    main()
