"""Run every benchmark and print one table: `python benchmarks/run.py [--seconds S] [--json]`.

Each `benchmarks/bench_*.py` defines `bench(seconds: float) -> dict[str, float]` (for example
actions per second and games per second of random play). Targets live here, not in the tests:
a target that is missed is reported, and `--strict` makes it fail the run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path
from typing import Any

#: Measured value -> the least we accept, per benchmark (see the issues that set them).
TARGETS: dict[str, dict[str, float]] = {
    "betrayal": {"actions_per_second": 25_000},
    "haunted": {"actions_per_second": 20_000},
    "betrayal_haunt": {"actions_per_second": 20_000},
}
#: Measured values reported as (key path) -> the least we accept, for nested results (issue 17:
#: two jobs must be faster than one on a 2-core machine).
NESTED_TARGETS: dict[str, dict[tuple[str, str], float]] = {
    "balance": {("halls", "speedup_jobs_2"): 1.2},
}


def load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time budget per benchmark")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("only", nargs="*", help="benchmark names (e.g. haunted betrayal verify)")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, Any]] = {}
    missed = []
    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        name = path.stem.removeprefix("bench_")
        if args.only and name not in args.only:
            continue
        started = time.perf_counter()
        measured = load(path).bench(args.seconds)
        measured["wall_seconds"] = round(time.perf_counter() - started, 2)
        results[name] = measured
        for key, least in TARGETS.get(name, {}).items():
            if key in measured and measured[key] < least:
                missed.append(f"{name}: {key} = {measured[key]:,.0f}, target {least:,.0f}")
        for (part, key), least in NESTED_TARGETS.get(name, {}).items():
            value = measured.get(part, {}).get(key)
            if value is not None and value < least:
                missed.append(f"{name}: {part}.{key} = {value:,.2f}, target {least:,.2f}")
    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))
    else:
        for name, measured in results.items():
            shown = ", ".join(f"{k}={v:,.1f}" if isinstance(v, float) else f"{k}={v}" for k, v in measured.items())
            print(f"{name:<16} {shown}")
        for line in missed:
            print(f"target missed: {line}")
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
