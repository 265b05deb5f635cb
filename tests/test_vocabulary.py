"""The spec-vocabulary family of `hauntcheck verify`: every trigger, verb, condition and hook a
spec file names must be carried out by the engine, or marked ``no_mechanics``."""

from __future__ import annotations

import shutil
from pathlib import Path

from hauntcheck.checks.verify import load_context
from hauntcheck.checks.vocabulary import engine_names, family_vocabulary, vocabulary_gaps
from hauntcheck.engine.games import game_spec
from hauntcheck.engine.spec import SPEC_ROOT

FIXTURE = Path(__file__).parent / "fixtures" / "vocabulary" / "items.yaml"


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_an_unimplemented_trigger_and_hook_fail_at_their_line(tmp_path: Path) -> None:
    root = tmp_path / "spec"
    shutil.copytree(SPEC_ROOT, root, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    shutil.copy(FIXTURE, root / "betrayal" / "items.yaml")
    result = family_vocabulary(load_context("betrayal", root))
    text = FIXTURE.read_text(encoding="utf-8")
    messages = [f.message for f in result.failures]
    assert len(messages) == 2, messages
    trigger, hook = messages
    assert trigger.startswith(f"spec/betrayal/items.yaml:{line_of(text, 'before-attack')}:")
    assert "trigger 'before-attack'" in trigger
    assert hook.startswith(f"spec/betrayal/items.yaml:{line_of(text, 'polish-the-silver')}:")
    assert "hook 'polish-the-silver'" in hook
    assert not any("admire-the-shine" in m for m in messages)  # its entry says why it has no mechanics


def test_every_bundled_game_names_only_what_its_engine_carries_out() -> None:
    for game in ("betrayal", "halls-of-horror", "haunted"):
        gaps = vocabulary_gaps(game_spec(game), engine_names(game))
        assert gaps == [], [f"{g.where()}: {g.what} {g.name}" for g in gaps]

