"""The scenario skeleton `hauntcheck report` writes: clean YAML a contributor edits by hand.

No anchors or aliases (a position repeats small lists, which PyYAML would otherwise share as
``&id001``); lists of plain values and short nested ones (coordinates, ``[floor, [x, y],
rotation]``) and small mappings of them (a room's ``{floor, at, rotation}``) in flow style; and a
``yaml-language-server`` schema modeline that resolves from the folder the skeleton is written
to: the relative path to the scenario schema of the hauntcheck checkout that folder is in, else to
a copy of the schemas put beside the skeleton in ``.hauntcheck-schema/`` (never a path into
site-packages).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from hauntcheck.engine.spec import SCHEMA_DIR

SCHEMA_COPY = ".hauntcheck-schema"
#: The schema files a scenario's schema refers to.
SCENARIO_SCHEMAS = ("scenario.schema.json", "common.schema.json")


class _SkeletonDumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _flat(value: Any) -> bool:
    """A list short and plain enough to read on one line."""
    return isinstance(value, list) and all(_plain(v) or (isinstance(v, list) and all(_plain(w) for w in v)) for v in value)


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=_flat(data))


def _represent_dict(dumper: yaml.SafeDumper, data: dict[Any, Any]) -> yaml.Node:
    small = 0 < len(data) <= 4 and all(_plain(v) or (_flat(v) and len(v) <= 4) for v in data.values())
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=small)


_SkeletonDumper.add_representer(list, _represent_list)
_SkeletonDumper.add_representer(dict, _represent_dict)


def dump(data: Mapping[str, Any]) -> str:
    return yaml.dump(dict(data), Dumper=_SkeletonDumper, sort_keys=False, allow_unicode=True, width=120)


def schema_modeline(folder: Path) -> str:
    """The modeline for a scenario written into ``folder`` (copying the schemas there if needed)."""
    folder = folder.resolve()
    for parent in (folder, *folder.parents):
        candidate = parent / "spec" / "schema" / "scenario.schema.json"
        if candidate.is_file():
            return f"# yaml-language-server: $schema={Path(os.path.relpath(candidate, folder)).as_posix()}\n"
    copy = folder / SCHEMA_COPY
    copy.mkdir(exist_ok=True)
    for name in SCENARIO_SCHEMAS:
        shutil.copyfile(SCHEMA_DIR / name, copy / name)
    return f"# yaml-language-server: $schema={SCHEMA_COPY}/scenario.schema.json\n"
