"""How long `hauntcheck verify` takes, in total and per family of checks."""

from __future__ import annotations

from hauntcheck.checks import verify


def bench(seconds: float) -> dict[str, float]:
    report = verify.run()
    out: dict[str, float] = {"total_seconds": round(report.seconds, 3)}
    for result in report.results:
        key = f"{result.game}:{result.family}"
        out[key] = round(out.get(key, 0.0) + result.seconds, 3)
    return out
