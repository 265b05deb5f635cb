"""Every example in `hauntcheck --help` and `hauntcheck COMMAND --help` works: each one parses,
names games, cases and files that exist, and (except the few that run the whole corpus) runs to
exit status 0 in a folder laid out like the checkout, in the order the help shows them."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest

from hauntcheck.engine.cli import EXAMPLES, build_parser, main
from hauntcheck.engine.games import available_games, get_game

REPO = Path(__file__).resolve().parents[1]
#: Examples over the whole corpus (minutes): checked for names and files but not run here; CI runs
#: `hauntcheck verify` and the suite runs the goldens and coverage elsewhere.
NOT_RUN = {("verify",), ("golden",), ("coverage",), ("coverage", "--json"), ("coverage", "betrayal", "--rules"),
           ("coverage", "--machine-runs", "/tmp/hauntcheck-machine-failures")}
# Balance studies play hundreds of games, on shards or a cluster the examples only name; small
# studies of every option are run by tests/test_balance.py.
NOT_RUN_COMMANDS = {"balance"}


def help_examples() -> list[list[str]]:
    """The example commands, in the order the help texts show them (main help first)."""
    parser = build_parser()
    texts = [EXAMPLES]
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    texts.extend(p.epilog or "" for p in subparsers.choices.values())
    found = []
    for text in texts:
        for line in text.splitlines():
            if line.startswith("  hauntcheck ") and "COMMAND" not in line:
                command = line.strip().split("  ")[0]  # a description follows two spaces
                words = shlex.split(command)[1:]
                if ">" in words:
                    words = words[: words.index(">")]
                found.append(words)
    return found


def test_there_are_examples_for_every_command() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {words[0] for words in help_examples()} == set(subparsers.choices)


@pytest.mark.skipif(set(available_games()) != {"betrayal", "halls-of-horror", "haunted"}, reason="the examples name every bundled game")
def test_every_help_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("spec", "scenarios", "tests", "examples", "docs"):
        (tmp_path / folder).symlink_to(REPO / folder)
    monkeypatch.chdir(tmp_path)
    parser = build_parser()
    for words in help_examples():
        if words[0] in NOT_RUN_COMMANDS:
            continue
        args, _ = parser.parse_known_args(words)
        for name in getattr(args, "games", None) or []:
            get_game(name)
        for name in getattr(args, "names", None) or []:
            game, _, case = name.partition("/")
            assert any(not case or case in (c.name, c.folder, c.folder.rsplit("/", 1)[-1]) for c in get_game(game).golden), name
        inputs = [*(getattr(args, "files", None) or []), *([args.transcript] if getattr(args, "transcript", None) else [])]
        for name in inputs:
            assert Path(name).exists(), f"`hauntcheck {shlex.join(words)}` names {name}, which does not exist"
        if tuple(words) in NOT_RUN:
            continue
        code = main(words)
        printed = capsys.readouterr()
        assert code == 0, f"`hauntcheck {shlex.join(words)}` exited {code}:\n{printed.err}{printed.out[-2000:]}"
