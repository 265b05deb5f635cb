"""The ``hauntcheck`` command line.

Exit status: 0 all good, 1 a check or replay failed, 2 the input was wrong (a spec, transcript or
option a user gave), 3 hauntcheck itself failed on the input (reported in one line; set
HAUNTCHECK_TRACEBACK=1 for the traceback); a user's mistake never prints a traceback.

The commands are carried out in :mod:`hauntcheck.engine.commands` (``common``, ``verify``, ``play``,
``scenarios``); this module builds the parser and dispatches to them.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from hauntcheck import __version__
from hauntcheck.checks.output import FORMATS
from hauntcheck.engine import transcript as transcripts
from hauntcheck.engine.commands.common import UsageError, parse_game_options
from hauntcheck.engine.commands.play import cmd_balance, cmd_golden, cmd_new_haunt, cmd_play
from hauntcheck.engine.commands.scenarios import cmd_dispute, cmd_report, cmd_view
from hauntcheck.engine.commands.verify import cmd_conform, cmd_coverage, cmd_lint, cmd_replay, cmd_upgrade, cmd_verify
from hauntcheck.engine.games import UnknownGame, available_games, get_game
from hauntcheck.engine.picture import INSTALL_HINT
from hauntcheck.engine.spec import SpecErrors

# Kept importable from here: code written against the one-module command line still finds them.
__all__ = ["EXAMPLES", "UsageError", "build_parser", "games_help", "main", "parse_game_options"]

EXAMPLES = """\
examples:
  hauntcheck verify                         run every check over the bundled specs
  hauntcheck verify haunted --format junit  the checks of one game as JUnit XML (also json, github, sarif)
  hauntcheck lint spec/betrayal/haunts/03-frog-leg-stew.yaml   check spec files (or folders) as a designer would
  hauntcheck play betrayal --players 4 --seed 7 --stop reveal --out game.yaml --quiet
  hauntcheck replay game.yaml               re-apply a transcript and check every step
  hauntcheck golden haunted                 check the golden transcripts of a game are up to date
  hauntcheck dispute scenarios/betrayal/disputes/front-door-is-locked.yaml --svg b.svg
  hauntcheck report game.yaml --at 40       turn step 40 of a game into a scenario skeleton
  hauntcheck balance betrayal --haunt 5 --games 200 --jobs 2 --out study/  who wins haunt 5, how often
  hauntcheck view scenarios/betrayal/haunts/01-the-mummy-walks/haunt-1-heroes-4p-seed-71.yaml --html game.html
  hauntcheck COMMAND --help                 the options and examples of one command
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hauntcheck",
        description="Rules-verification and scenario test harness for haunted-house board games.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hauntcheck {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    fmt = argparse.RawDescriptionHelpFormatter

    def add_format(p: argparse.ArgumentParser) -> None:
        p.add_argument("--format", choices=FORMATS, help="output format (default text, or [tool.hauntcheck] format in pyproject.toml): "
                       "json (spec/schema/results.schema.json), junit XML, github annotations, sarif 2.1.0")

    p = sub.add_parser("verify", help="run every check over the bundled specs (or a project's own)", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck verify\n  hauntcheck verify haunted --format junit > verify.xml\n"
                              "  hauntcheck verify betrayal --family spec --family cross-references --format github\n"
                              "  hauntcheck verify haunted --spec spec --scenarios scenarios   (a project's own folders)\n"
                              "defaults may be set in pyproject.toml under [tool.hauntcheck] (games, families, spec, scenarios, format)")
    p.add_argument("games", nargs="*", metavar="GAME", help=f"only these games ({', '.join(available_games())})")
    p.add_argument("--game", action="append", help="only this game (repeatable; the same as GAME)")
    p.add_argument("--family", action="append", help="only this family of checks, by name or id (repeatable)")
    p.add_argument("--spec", metavar="DIR", help="a spec folder with one subfolder per game (default: the bundled specs)")
    p.add_argument("--scenarios", metavar="DIR", help="a folder of transcripts and scenarios, one subfolder per game")
    add_format(p)
    p.add_argument("--json", action="store_true", help="the same as --format json")
    p.add_argument("--all-marks", action="store_true", help="list judgement and sample marks too, not just unverified ones")

    p = sub.add_parser("lint", help="check spec files: schema, cross-references, game checks", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck lint spec/betrayal/rooms.yaml\n"
                              "  hauntcheck lint spec/betrayal/haunts --format sarif")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    add_format(p)

    p = sub.add_parser("play", help="play a game with seeded decisions and print its log", formatter_class=fmt, allow_abbrev=False,
                       epilog="examples:\n  hauntcheck play haunted --players 3 --seed 7\n"
                              "  hauntcheck play betrayal --players 4 --seed 7 --stop reveal --out game.yaml\n"
                              "  hauntcheck play haunted --players 1 --variant solo\n\n" + games_help())
    p.add_argument("game", metavar="GAME", help=f"one of: {', '.join(available_games())}")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", metavar="FILE", help="write the transcript here")
    p.add_argument("--controller", choices=["random", "first-legal", "policy"],
                   help="who decides (default: random; policy with --haunt N or --haunt-file)")
    p.add_argument("--svg", metavar="FILE", help="draw the last position (the end, or --stop) as SVG")
    p.add_argument("--haunt-file", metavar="FILE", help="Betrayal: play this haunt file (from anywhere) at the game's reveal")
    p.add_argument("--from-reveal", action="store_true", help="Betrayal: with --haunt N or --haunt-file, no seed search - "
                   "the seeded exploration runs to its reveal and the haunt is played there (printed from the reveal on)")
    p.add_argument("--stop", metavar="MILESTONE", help="stop at a milestone (e.g. reveal)")
    p.add_argument("--max-steps", type=int, default=200_000)
    p.add_argument("--quiet", action="store_true", help="print only the summary")
    p.add_argument("--transcript-version", type=int, choices=[1, 2], default=transcripts.DEFAULT_VERSION,
                   help="the transcript format --out writes: 1 (events as prose) or 2 (structured events, prose as comments)")

    p = sub.add_parser("replay", help="re-apply transcripts and check every recorded consequence", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck replay game.yaml\n  hauntcheck replay --lenient game.yaml\n"
                              "  hauntcheck replay scenarios/haunted/golden --format junit")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    p.add_argument("--lenient", action="store_true", help="do not fail on unanswered prompts or leftover steps")
    p.add_argument("--haunt-file", metavar="FILE", help="Betrayal: the designer's haunt file the games were played with")
    add_format(p)

    p = sub.add_parser("golden", help="check or regenerate golden transcripts", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck golden            check all are up to date\n"
                              "  hauntcheck golden haunted/solo-seed-140\n  hauntcheck golden betrayal/03-frog-leg-stew --format junit")
    p.add_argument("names", nargs="*", metavar="GAME[/CASE]")
    p.add_argument("--update", action="store_true", help="rewrite the transcripts that differ")
    add_format(p)

    p = sub.add_parser("coverage", help="which rules the scenarios, golden transcripts and playouts exercise", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck coverage\n  hauntcheck coverage betrayal --rules\n  hauntcheck coverage --json\n"
                              "  hauntcheck coverage --machine-runs /tmp/hauntcheck-machine-failures")
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--playouts", type=int, default=20, help="seeded random games per game (default 20)")
    p.add_argument("--rules", action="store_true", help="print the count of every rule, not only the ones never exercised")
    p.add_argument("--machine-runs", metavar="DIR", help="add the state machines' runs (their rules-*.json records in DIR) "
                   "as a source")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("dispute", help="run dispute scenarios and explain each verdict rule by rule", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck dispute scenarios/betrayal/disputes/coal-chute-slides-to-basement-landing.yaml\n"
                              "  hauntcheck dispute scenarios/betrayal/disputes --format junit\n"
                              "  hauntcheck dispute scenarios/betrayal/disputes/front-door-is-locked.yaml --svg board.svg --png board.png")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    add_format(p)
    p.add_argument("--svg", metavar="FILE", help="draw the position before and after as SVG")
    p.add_argument("--png", metavar="FILE", help=f"draw the same picture as PNG (needs resvg-py: {INSTALL_HINT})")
    p.add_argument("--soft", action="store_true", help="run on past failed expectations and report every one "
                   "(as soft: true in the file)")

    p = sub.add_parser("view", help="a transcript, golden game or scenario as one offline HTML page", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck view scenarios/betrayal/golden/reveal-3p-seed-3.yaml --html game.html")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--html", required=True, metavar="OUT.html", help="the page to write")

    p = sub.add_parser("upgrade", help="convert version 1 transcripts to format version 2 (structured events)", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck upgrade game.yaml\n  hauntcheck upgrade game.yaml --out game-v2.yaml")
    p.add_argument("files", nargs="+", metavar="FILE|DIR")
    p.add_argument("--out", metavar="FILE", help="write here instead of in place (one transcript only)")

    p = sub.add_parser("conform", help="replay the golden transcripts and dispute scenarios against another engine", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck conform --engine \"python examples/reference_adapter.py\" --game haunted\n"
                              "  hauntcheck conform --engine \"python examples/reference_adapter.py\" --format junit > conform.xml\n"
                              "the protocol: docs/conformance-protocol.md")
    p.add_argument("--engine", required=True, metavar="CMD", help="the command that starts the engine (JSON lines on stdin/stdout)")
    p.add_argument("--game", action="append", help="only this game (repeatable)")
    p.add_argument("--only", metavar="PATTERN", help="only transcripts and scenarios whose path matches this shell pattern")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds to wait for one answer of the engine (default 60)")
    add_format(p)

    p = sub.add_parser("new-haunt", help="write a commented haunt file to start a new haunt from", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck new-haunt \"The Hungry Cellar\"      writes the-hungry-cellar.yaml\n"
                              "  hauntcheck new-haunt Ghouls --out drafts/ghouls.yaml")
    p.add_argument("name", metavar="NAME")
    p.add_argument("--out", metavar="FILE", help="where to write it (default: NAME as a file name, .yaml)")

    p = sub.add_parser("report", help="turn the position at a step of a transcript into a scenario skeleton", formatter_class=fmt,
                       epilog="examples:\n  hauntcheck report game.yaml --at 120 --out dispute.yaml")
    p.add_argument("transcript", metavar="TRANSCRIPT")
    p.add_argument("--at", type=int, required=True, metavar="STEP", help="the step whose action is disputed")
    p.add_argument("--out", metavar="FILE")

    from hauntcheck.engine.balance import command as balance

    balance.add_parser(sub)
    return parser


def games_help() -> str:
    """The games, their player counts, options and milestones, for `play -h`."""
    lines = ["games:"]
    for game in available_games():
        try:
            definition = get_game(game)
        except Exception as exc:  # a broken game module must not break --help for the others
            lines.append(f"  {game}: cannot be loaded ({type(exc).__name__})")
            continue
        lines.append(f"  {game} ({definition.title}): {definition.min_players}-{definition.max_players} players")
        for option in definition.options:
            default = "" if option.default is None else f" (default {option.default})"
            lines.append(f"      --{option.name.replace('_', '-')} VALUE  {option.help}{default}")
        if definition.milestones:
            lines.append(f"      --stop: {', '.join(definition.milestones)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        # A bare `hauntcheck` lists the commands (a usage mistake: exit 2).
        parser.print_help(sys.stderr)
        return 2
    try:
        if args.command == "play":
            return cmd_play(args, extra)
        if extra:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        handlers = {"verify": cmd_verify, "lint": cmd_lint, "replay": cmd_replay, "golden": cmd_golden,
                    "dispute": cmd_dispute, "report": cmd_report, "coverage": cmd_coverage, "upgrade": cmd_upgrade,
                    "conform": cmd_conform, "new-haunt": cmd_new_haunt,
                    "balance": cmd_balance, "view": cmd_view}
        return handlers[args.command](args)
    except SpecErrors as exc:
        for error in exc.errors:
            print(error, file=sys.stderr)
        return 2
    except (UsageError, UnknownGame) as exc:
        print(f"hauntcheck: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`hauntcheck ... | head`): stop quietly, as other tools do.
        # The interpreter flushes stdout at exit: point it at nothing so that flush cannot fail.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except RecursionError:
        print("hauntcheck: error: the input is nested too deeply to process", file=sys.stderr)
        return 2
    except Exception as exc:
        # A game's hook or the engine failed on this input (a haunt mutant's hook that calls
        # next() on nothing): say so in one line rather than with a traceback.
        if os.environ.get("HAUNTCHECK_TRACEBACK"):
            raise
        print(f"hauntcheck: internal error in `{args.command}`: {type(exc).__name__}: {exc}\n"
              "  the engine (or a haunt's hook) failed on this input; please report it with the input attached "
              "(set HAUNTCHECK_TRACEBACK=1 to see the traceback)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
