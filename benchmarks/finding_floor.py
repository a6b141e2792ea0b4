"""The floor under an engine that makes one object per finding, against the native parse.

    uv run --with rapidyaml python benchmarks/finding_floor.py FILE [--runs R]

Issue 21 asks `facility check -o result.json` on 10,000 racks for at most 4× the fastest
native parse of the site file. This prints what the engine's shape costs before any figure is
computed: for every rule of the site's profile and every entity of its scope (the pairs the
audit judges), one :class:`~facility.engine.findings.Finding` made from figures already known
(a table lookup, no quantity derived, no condition evaluated, nothing written), timed in one
process beside rapidyaml's ``parse_in_arena`` of the same bytes (when installed) and
``yaml.load`` with ``CSafeLoader``, each the best of ``--runs``, the collector off. If the bare
findings alone take more than 4× the native parse, no tuning of the scalar engine meets the
target: only findings kept as arrays (status and margins by rule and entity index, objects
for the few a report shows) do.
"""

from __future__ import annotations

import argparse
import gc
import time
from collections.abc import Callable
from pathlib import Path

import yaml


def _best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from facility.engine.evaluate import default_profile
    from facility.engine.findings import Finding
    from facility.engine.quantities import scopes
    from facility.engine.rules import load_rules
    from facility.model.load import load_site

    raw = args.file.read_bytes()
    site = load_site(args.file)
    ruleset = load_rules(profile=default_profile(site))
    all_scopes = scopes()
    pairs = [
        (rule, [entity_id for entity_id, _ in all_scopes[rule.spec.scope].entities(site)])
        for rule in ruleset.rules
    ]
    count = sum(len(ids) for _, ids in pairs)
    table = {entity_id: 1.0 for _, ids in pairs for entity_id in ids}

    def bare_findings() -> list[Finding]:
        out = []
        for rule, ids in pairs:
            spec = rule.spec
            head = (rule.code, spec.name, spec.title, spec.area, rule.severity, "pass")
            for entity_id in ids:
                margin = table[entity_id]
                out.append(Finding(*head, spec.scope, entity_id, None, "", None, None, margin))
        return out

    gc.disable()
    text = raw.decode("utf-8")
    csafe = _best(args.runs, lambda: yaml.load(text, Loader=yaml.CSafeLoader))
    try:
        import ryml  # type: ignore[import-not-found]
    except ImportError:
        native = None
    else:
        native = _best(args.runs, lambda: ryml.parse_in_arena(raw))
    floor = _best(args.runs, bare_findings)
    print(f"{args.file}: {len(site.racks):,} racks, {len(ruleset.rules)} rules, {count:,} pairs")
    print(f"  CSafeLoader parse       {csafe:8.3f} s")
    if native is not None:
        print(f"  native parse (ryml)     {native:8.3f} s")
    print(f"  bare findings           {floor:8.3f} s  ({1e6 * floor / count:.2f} µs a pair)")
    if native is not None:
        print(f"  bare findings ÷ native  {floor / native:8.1f}×  (the check's target: ≤ 4×)")
    print(f"  bare findings ÷ CSafe   {floor / csafe:8.2f}×")


if __name__ == "__main__":
    main()
