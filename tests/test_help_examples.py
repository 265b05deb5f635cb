"""Every example in `hauntcheck --help` and `hauntcheck COMMAND --help` works: each one parses,
names games, cases and files that exist, and (except the few that run the whole corpus, which are
not run or run on a slice) runs to exit status 0 in a folder laid out like the checkout, in the order the help shows them.

Each help text is its own test (pytest-xdist spreads them over the workers), run in its own
folder; a file that an example reads and an earlier help text's example writes (`game.yaml`) is
first written by running that earlier example in the folder."""

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
#: Examples over the whole corpus that run here on one game's slice, the words appended: CI runs the
#: whole corpus through the reference adapter (.ci/run), as tests/test_conform.py says; this keeps
#: the example's own options (the JUnit report) checked.
SLICED = {("conform", "--engine", "python examples/reference_adapter.py", "--format", "junit"): ["--game", "haunted"]}
#: Examples over every file of a shipped folder that run here on a folder of links to its first
#: three files, the words otherwise the same (the folder walk and the output format stay checked):
#: every file of the folder is run by its own tests (tests/test_betrayal_scenarios.py runs every
#: shipped dispute, with more checks than an exit status) and by `hauntcheck verify`.
FOLDER_SLICED = {("dispute", "scenarios/betrayal/disputes", "--format", "junit"): "scenarios/betrayal/disputes"}
FOLDER_SLICE_FILES = 3
# Balance studies play hundreds of games, on shards or a cluster the examples only name; small
# studies of every option are run by tests/test_balance.py.
NOT_RUN_COMMANDS = {"balance"}


def _examples_in(text: str) -> list[list[str]]:
    found = []
    for line in text.splitlines():
        if line.startswith("  hauntcheck ") and "COMMAND" not in line:
            command = line.strip().split("  ")[0]  # a description follows two spaces
            words = shlex.split(command)[1:]
            if ">" in words:
                words = words[: words.index(">")]
            found.append(words)
    return found


def help_texts() -> dict[str, list[list[str]]]:
    """The example commands of each help text ("hauntcheck" for the main help, then each
    command's), in the order the help shows them."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    texts = {"hauntcheck": _examples_in(EXAMPLES)}
    texts.update((name, _examples_in(p.epilog or "")) for name, p in subparsers.choices.items())
    return texts


def help_examples() -> list[list[str]]:
    """The example commands, in the order the help texts show them (main help first)."""
    return [words for examples in help_texts().values() for words in examples]


def test_there_are_examples_for_every_command() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert {words[0] for words in help_examples()} == set(subparsers.choices)
    assert NOT_RUN | set(SLICED) | set(FOLDER_SLICED) <= {tuple(words) for words in help_examples()}  # no stale entry


def _inputs(args: argparse.Namespace) -> list[str]:
    return [*(getattr(args, "files", None) or []), *([args.transcript] if getattr(args, "transcript", None) else [])]


def _written_before(name: str, text: str) -> list[str] | None:
    """The last example of the help texts before `text` that writes `name` (--out), if any."""
    parser = build_parser()
    writer = None
    for earlier, examples in help_texts().items():
        if earlier == text:
            return writer
        for words in examples:
            if getattr(parser.parse_known_args(words)[0], "out", None) == name:
                writer = words
    return writer


@pytest.mark.long
@pytest.mark.skipif(set(available_games()) != {"betrayal", "halls-of-horror", "haunted"}, reason="the examples name every bundled game")
@pytest.mark.parametrize("text", [text for text, examples in help_texts().items() if any(w[0] not in NOT_RUN_COMMANDS for w in examples)])
def test_every_help_example_runs(text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for folder in ("spec", "scenarios", "tests", "examples", "docs"):
        (tmp_path / folder).symlink_to(REPO / folder)
    monkeypatch.chdir(tmp_path)
    parser = build_parser()
    for words in help_texts()[text]:
        if words[0] in NOT_RUN_COMMANDS:
            continue
        args, _ = parser.parse_known_args(words)
        for name in getattr(args, "games", None) or []:
            get_game(name)
        for name in getattr(args, "names", None) or []:
            game, _, case = name.partition("/")
            assert any(not case or case in (c.name, c.folder, c.folder.rsplit("/", 1)[-1]) for c in get_game(game).golden), name
        for name in _inputs(args):
            writer = None if Path(name).exists() else _written_before(name, text)
            if writer is not None:
                assert main(writer) == 0, f"`hauntcheck {shlex.join(writer)}` (writing {name} for this help text) failed"
            assert Path(name).exists(), f"`hauntcheck {shlex.join(words)}` names {name}, which does not exist"
        if tuple(words) in NOT_RUN:
            continue
        code = main([*_folder_sliced(words, tmp_path), *SLICED.get(tuple(words), [])])
        printed = capsys.readouterr()
        assert code == 0, f"`hauntcheck {shlex.join(words)}` exited {code}:\n{printed.err}{printed.out[-2000:]}"


def _folder_sliced(words: list[str], tmp_path: Path) -> list[str]:
    """The words of an example, its folder replaced (for FOLDER_SLICED examples) by a folder of
    links to the folder's first FOLDER_SLICE_FILES files."""
    folder = FOLDER_SLICED.get(tuple(words))
    if folder is None:
        return words
    sliced = tmp_path / "sliced" / folder
    sliced.mkdir(parents=True)
    files = sorted((REPO / folder).glob("*.yaml"))[:FOLDER_SLICE_FILES]
    assert len(files) == FOLDER_SLICE_FILES, folder
    for file in files:
        (sliced / file.name).symlink_to(file)
    return [str(sliced.relative_to(tmp_path)) if word == folder else word for word in words]
