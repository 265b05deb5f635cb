"""How long `hauntcheck verify` takes, in total and per family of checks: CPU seconds of one
in-process run as the command runs it (with its collector tuning, ``long_lived_collector``), so
the numbers do not move with other processes' load.

Run standalone: ``python benchmarks/bench_verify.py`` (prints JSON).
"""

from __future__ import annotations

import json
import time

from hauntcheck.checks import verify
from hauntcheck.engine.commands.verify import long_lived_collector


def bench(seconds: float = 0.0) -> dict[str, float]:
    """One whole verify (``seconds`` is ignored: a run is as long as it is)."""
    clock, verify.CLOCK = verify.CLOCK, time.process_time
    try:
        with long_lived_collector():
            report = verify.run()
    finally:
        verify.CLOCK = clock
    if not report.ok:
        raise SystemExit("verify failed; benchmark its speed once it passes")
    out: dict[str, float] = {"total_seconds": round(report.seconds, 3)}
    for result in report.results:
        key = f"{result.game}:{result.family}"
        out[key] = round(out.get(key, 0.0) + result.seconds, 3)
    return out


if __name__ == "__main__":
    started = time.process_time()
    results = bench()
    results["process_seconds"] = round(time.process_time(), 3)  # imports included
    results["bench_seconds"] = round(time.process_time() - started, 3)
    print(json.dumps(results, indent=2))
