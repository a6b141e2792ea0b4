"""Do two source trees give the same results? `check -o result.json` and `failures -f json`
(compact and full).

    uv run python benchmarks/compare_outputs.py BEFORE AFTER SITE...

BEFORE and AFTER are source trees of the project (the repository itself, or one written with
``git archive COMMIT | tar -x -C DIR``), each run in its own process with this interpreter, the
tree first on ``PYTHONPATH`` and a temporary directory as the current one (each process checks
that the facility it imported is the tree's). For every site both commands are run with a fixed report
date, and their outputs compared byte for byte (the results hold no run times); the first
difference of each is printed. Exit 1 when any output differs: what a change meant to leave
the results alone (an optimisation of the single-failure analysis) must not move a byte.

``--float-tolerance REL``: outputs that differ are read as JSON and compared again, numbers
within REL of each other (or 1e-9 apart, for figures that should be 0) taken as equal and
everything else exactly — for a change meant to move only last digits (a sum made exactly
rounded); such outputs are printed as ``close`` with the largest difference found.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

GENERATED_AT = "2026-12-02T00:00:00Z"
# Run from the work directory (``python -c`` puts the current directory first on sys.path: run
# from a checkout, every tree would be that checkout's code), and refuse to run code that is
# not the tree's: a comparison of one tree with itself cannot fail.
RUN = (
    "import os, sys, facility; from pathlib import Path; "
    "tree = Path(os.environ['COMPARED_TREE']); "
    "sys.exit(f'facility imported from {facility.__file__}, not from {tree}') "
    "if not Path(facility.__file__).resolve().is_relative_to(tree) else None; "
    "from facility.cli import main; main()"
)


def _outputs(tree: Path, site: Path, work: Path) -> dict[str, bytes]:
    """The JSON result of ``check`` and the output of ``failures -f json`` under ``tree``."""
    tree = tree.resolve()
    env = {**os.environ, "PYTHONPATH": str(tree), "COMPARED_TREE": str(tree)}
    site = site.resolve()
    result = work / "result.json"
    check = [sys.executable, "-c", RUN, "check", str(site), "-o", str(result)]
    check += ["--generated-at", GENERATED_AT]
    done = subprocess.run(check, env=env, capture_output=True, check=False, cwd=work)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{tree}: check {site} exited {done.returncode}: {done.stderr[-2000:]!r}")
    outputs = {"check -o result.json": result.read_bytes()}
    for detail in ("compact", "full"):
        failures = [sys.executable, "-c", RUN, "failures", str(site), "-f", "json"]
        failures += ["--json-detail", detail]
        run = subprocess.run(failures, env=env, capture_output=True, check=False, cwd=work)
        if run.returncode == 2 and b"--json-detail" in run.stderr:
            if detail == "compact":  # a tree from before the option: no compact document,
                continue  # and its `failures -f json` is the full one
            run = subprocess.run(failures[:-2], env=env, capture_output=True, check=False, cwd=work)
        if run.returncode not in (0, 1):
            raise SystemExit(
                f"{tree}: failures {site} exited {run.returncode}: {run.stderr[-2000:]!r}"
            )
        outputs[f"failures -f json --json-detail {detail}"] = run.stdout
    return outputs


def _first_difference(a: bytes, b: bytes) -> str:
    at = next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return (
        f"at byte {at:,}: {a[max(0, at - 80) : at + 80]!r}\n  vs {b[max(0, at - 80) : at + 80]!r}"
    )


def _largest_difference(a: object, b: object, rel: float, path: str = "") -> tuple[float, str]:
    """The largest relative difference between two JSON values' numbers, and where; raises
    ValueError at the first difference of anything else, or of a number beyond ``rel``."""
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            raise ValueError(f"{path}: keys {list(a)[:8]} vs {list(b)[:8]}")
        found = (0.0, "")
        for key in a:
            found = max(found, _largest_difference(a[key], b[key], rel, f"{path}.{key}"))
        return found
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            raise ValueError(f"{path}: {len(a)} items vs {len(b)}")
        found = (0.0, "")
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found = max(found, _largest_difference(x, y, rel, f"{path}[{i}]"))
        return found
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool):
        if abs(a - b) <= 1e-9:
            return 0.0, ""  # (equal, or a figure that should be 0: not a relative one)
        if not math.isclose(a, b, rel_tol=rel, abs_tol=1e-9):
            raise ValueError(f"{path}: {a!r} vs {b!r}")
        return abs(a - b) / max(abs(a), abs(b)), path
    if a != b:
        raise ValueError(f"{path}: {a!r} vs {b!r}")
    return 0.0, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("sites", type=Path, nargs="+")
    parser.add_argument("--float-tolerance", type=float, metavar="REL")
    args = parser.parse_args()
    differ = 0
    with tempfile.TemporaryDirectory() as tmp:
        for site in args.sites:
            before = _outputs(args.before, site, Path(tmp))
            after = _outputs(args.after, site, Path(tmp))
            for name in sorted(before.keys() - after.keys() | after.keys() - before.keys()):
                print(f"skipped  {site} {name}: written by one tree only")
            for name, old in before.items():
                if name not in after:
                    continue
                new = after[name]
                digest = hashlib.sha256(new).hexdigest()[:12]
                if old == new:
                    print(f"same     {site} {name}: {len(new):,} bytes, sha256 {digest}")
                    continue
                try:
                    if args.float_tolerance is None:
                        raise ValueError("")
                    rel, where = _largest_difference(
                        json.loads(old), json.loads(new), args.float_tolerance
                    )
                    print(f"close    {site} {name}: largest difference {rel:.1e} at {where}")
                except ValueError as difference:
                    if str(difference):
                        print(f"         {difference}")
                    differ += 1
                    print(f"DIFFERS  {site} {name} {_first_difference(old, new)}")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
