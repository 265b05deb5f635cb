"""A study's results as data: ``balance.json`` (schema ``spec/schema/balance.schema.json``,
version :data:`VERSION`), built from the games' records alone, and the merge of shards."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hauntcheck.engine.balance.stats import imbalance, summarize, verdict
from hauntcheck.engine.balance.study import Study, sort_records
from hauntcheck.engine.spec import SCHEMA_DIR

#: The version of balance.json's layout; bumped on any change a reader would notice.
VERSION = 1
SCHEMA_FILE = SCHEMA_DIR / "balance.schema.json"


class BalanceFileError(ValueError):
    """A balance.json that cannot be read or merged, with the file named."""


def replay_command(study: Study) -> str:
    """How to replay one game of the study: ``{players}``, ``{seed}`` and ``{haunt}`` from its
    record, ``{options}`` the game options of its haunt (``study.cases``)."""
    if study.controller == "mixed":
        return f"hauntcheck play {study.game} --players {{players}} --seed {{seed}} {{options}} (mixed seats: not replayable by play)"
    if study.game == "betrayal" and study.start == "reveal":
        which = f"--haunt-file {study.haunt_file}" if study.haunt_file else "--haunt {haunt}"
        return f"hauntcheck play betrayal {which} --from-reveal --players {{players}} --seed {{seed}} --controller {study.controller}"
    return f"hauntcheck play {study.game} --players {{players}} --seed {{seed}} --controller {study.controller} {{options}}"


def build(study: Study, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The whole document: the study, every game's record, and per haunt its cells (one per
    player count), imbalance and verdict; ``haunts`` sorted by imbalance, most imbalanced first."""
    subject = study.subject
    records = sort_records(study, records)
    expected = len(study.cases) * len(study.players) * study.games
    haunts: list[dict[str, Any]] = []
    for case in study.cases:
        mine = [r for r in records if r["haunt"] == case.label]
        cells = {str(p): summarize([r for r in mine if r["players"] == p], subject.endings) for p in study.players
                 if any(r["players"] == p for r in mine)}
        haunts.append({
            "haunt": case.label, "title": case.title, "hooks": list(case.hooks), "games": len(mine), "cells": cells,
            "imbalance": imbalance(cells, subject.sides), "verdict": verdict(cells, subject.sides),
        })
    order = {case.label: i for i, case in enumerate(study.cases)}
    haunts.sort(key=lambda h: (-h["imbalance"], order[h["haunt"]]))
    return {
        "format": "hauntcheck-balance",
        "version": VERSION,
        "study": {**study.to_data(), "start": study.start},
        "sides": list(subject.sides),
        "endings": list(subject.endings),
        "complete": len(records) == expected,
        "replay": replay_command(study),
        "haunts": haunts,
        "records": records,
    }


def write(document: Mapping[str, Any], path: Path) -> None:
    path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def validation_errors(document: Any) -> list[str]:
    """Where a document breaks the schema, as ``path: message`` lines."""
    from jsonschema import Draft202012Validator

    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    errors = sorted(Draft202012Validator(schema).iter_errors(document), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors]


def read(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BalanceFileError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise BalanceFileError(f"{path}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    errors = validation_errors(document)
    if errors:
        raise BalanceFileError(f"{path}: not a balance.json of version {VERSION}: " + "; ".join(errors[:5]))
    return dict(document)


def merge(paths: Sequence[Path]) -> dict[str, Any]:
    """One document from the shards of a study, or from studies of different haunts run with the
    same settings (players, games, controller, start): each game exactly once, a haunt studied in
    two files studied alike. The numbers are recomputed from the joined records."""
    documents = [(path, read(path)) for path in paths]
    first_path, first = documents[0]

    def settings(doc: Mapping[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in doc["study"].items() if k not in ("shard", "cases")}

    cases: dict[str, tuple[Path, Mapping[str, Any]]] = {}
    records: dict[tuple[str, int, int], tuple[Path, dict[str, Any]]] = {}
    for path, doc in documents:
        if settings(doc) != settings(first):
            differing = sorted(k for k in settings(doc) if settings(doc)[k] != settings(first).get(k))
            raise BalanceFileError(f"{path}: a different study from {first_path} (differs in: {', '.join(differing)})")
        for case in doc["study"]["cases"]:
            seen = cases.setdefault(str(case["label"]), (path, case))
            if seen[1] != case:
                raise BalanceFileError(f"{path}: haunt {case['label']} is studied differently in {seen[0]} (title, options or hooks)")
        for record in doc["records"]:
            key = (str(record["haunt"]), int(record["players"]), int(record["index"]))
            if key in records:
                raise BalanceFileError(f"{path}: game {key[2]} of haunt {key[0]} at {key[1]} players is also in {records[key][0]}")
            records[key] = (path, record)
    study = Study.from_data({**first["study"], "cases": [case for _, case in cases.values()], "shard": [1, 1]})
    return build(study, [r for _, r in records.values()])
