"""``hauntcheck balance``: the command line of balance studies (registered in engine/cli.py)."""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeRemainingColumn
from rich.table import Table as RichTable
from rich.text import Text

from hauntcheck.engine.balance import page, report
from hauntcheck.engine.balance.stats import share_text
from hauntcheck.engine.balance.study import CONTROLLERS, Backend, Study, cpu_count, run_study, study_spec
from hauntcheck.engine.balance.subjects import SUBJECTS, Case

EXAMPLES = """examples:
  hauntcheck balance betrayal --haunt 5 --players 3-6 --games 200 --jobs 2 --out study/
  hauntcheck balance betrayal --haunt-file my-haunt.yaml --games 50
  hauntcheck balance halls-of-horror --players 1-4 --games 100 --controller mixed
  hauntcheck balance betrayal --games 100 --shard 1/4 --out shard1/   (one machine of four)
  hauntcheck balance merge shard*/balance.json --out study/
  hauntcheck balance betrayal --backend dask --address tcp://scheduler:8786 --games 10000
"""

#: Markers around the generated summary table in a Markdown file (``--update-doc``).
DOC_BEGIN, DOC_END = "<!-- balance-summary:begin -->", "<!-- balance-summary:end -->"


def add_parser(sub: Any) -> None:
    p = sub.add_parser("balance", help="balance studies: who wins each haunt, how often, at which player counts",
                       formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES)
    p.add_argument("game", metavar="GAME|merge", help="the game to study, or `merge` to join shards' balance.json files")
    p.add_argument("files", nargs="*", metavar="FILE", help="(merge) the balance.json files to join")
    p.add_argument("--haunt", action="append", metavar="N", help="a Betrayal haunt number, or a variant of the other games "
                   "(repeatable; default: every playable haunt or every variant)")
    p.add_argument("--haunt-file", metavar="FILE", help="a designer's haunt file, played in place of the bundled haunt of its number")
    p.add_argument("--players", metavar="A-B", help="player counts: 4, 3-6 or 3,5 (default: the game's)")
    p.add_argument("--games", type=int, default=50, metavar="K", help="games per haunt and player count (default 50)")
    p.add_argument("--controller", choices=CONTROLLERS,
                   help="who plays: the goal-directed policy, seeded random choices, or each seat one of them "
                   "(default: policy, or random for a game without one)")
    p.add_argument("--from-setup", action="store_true", help="Betrayal: play from setup by the natural route to the haunt "
                   "instead of starting at its reveal")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="worker processes (0: one per core; default 1)")
    p.add_argument("--shard", metavar="I/N", help="play only the I-th of N slices of the study (join them with `balance merge`)")
    p.add_argument("--backend", choices=("local", "dask"), default="local",
                   help="local worker processes, or a Dask cluster (pip install 'hauntcheck[cluster]')")
    p.add_argument("--address", metavar="ADDR", help="the Dask scheduler (default: a local cluster of --jobs workers)")
    p.add_argument("--out", metavar="DIR", help="write DIR/balance.json and DIR/balance.html")
    p.add_argument("--update-doc", metavar="FILE", help="replace the summary table between the balance-summary markers of a "
                   "Markdown file (docs/balance.md)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    from hauntcheck.engine.commands.common import UsageError

    try:
        if args.game == "merge":
            if not args.files:
                raise UsageError("balance merge needs the balance.json files to join")
            document = report.merge([Path(f) for f in args.files])
        else:
            if args.files:
                raise UsageError(f"unexpected arguments: {' '.join(args.files)}")
            document = _study(args)
    except report.BalanceFileError as exc:
        raise UsageError(str(exc)) from None
    _show(document)
    _write(document, args)
    return 0


def parse_players(text: str, low: int, high: int, game: str) -> tuple[int, ...]:
    """``4``, ``3-6`` or ``3,5`` as player counts, each within the game's range."""
    from hauntcheck.engine.commands.common import UsageError

    counts: set[int] = set()
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not match:
            raise UsageError(f"--players takes counts like 4, 3-6 or 3,5; got {text!r}")
        first, last = int(match.group(1)), int(match.group(2) or match.group(1))
        if first > last:
            raise UsageError(f"--players {part.strip()}: the range runs backwards")
        counts.update(range(first, last + 1))
    wrong = sorted(c for c in counts if not low <= c <= high)
    if wrong:
        raise UsageError(f"{game} is for {low}-{high} players; --players asks for {', '.join(map(str, wrong))}")
    return tuple(sorted(counts))


def parse_shard(text: str | None) -> tuple[int, int]:
    from hauntcheck.engine.commands.common import UsageError

    if text is None:
        return (1, 1)
    match = re.fullmatch(r"(\d+)/(\d+)", text.strip())
    if not match or not 1 <= int(match.group(1)) <= int(match.group(2)):
        raise UsageError(f"--shard is I/N with 1 <= I <= N (like 2/4); got {text!r}")
    return (int(match.group(1)), int(match.group(2)))


def study_from_args(args: argparse.Namespace) -> Study:
    """The study the arguments ask for, every mistake a UsageError naming the argument."""
    from hauntcheck.engine.commands.common import UsageError
    from hauntcheck.engine.games import get_game

    if args.game not in SUBJECTS:
        raise UsageError(f"unknown game {args.game!r}; balance studies: {', '.join(SUBJECTS)} (or `merge`)")
    subject = SUBJECTS[args.game]
    definition = get_game(args.game)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    controller = args.controller or ("policy" if definition.policy is not None else "random")
    if controller != "random" and definition.policy is None:
        raise UsageError(f"{args.game} has no policy controller yet; use --controller random")
    if args.from_setup and args.game != "betrayal":
        raise UsageError(f"--from-setup is for Betrayal; {args.game} games always start from setup")
    if args.haunt_file and args.game != "betrayal":
        raise UsageError("--haunt-file is for Betrayal haunts")
    spec = study_spec(args.game, args.haunt_file)
    offered = {c.label: c for c in subject.cases(spec)}
    cases: list[Case] = []
    if args.haunt_file:
        from hauntcheck.engine.betrayal.reveal import haunt_number, load_haunt_file

        designed = load_haunt_file(Path(args.haunt_file))
        number = haunt_number(designed)
        if args.from_setup and not 1 <= number <= 50:
            raise UsageError(f"{args.haunt_file}: haunt {number} is a draft, which no exploration reveals by itself; "
                             "drop --from-setup to play it at the reveal")
        cases.append(Case(str(number), str(designed.data.get("title", f"haunt {number}")), {"haunt": number}))
    for label in args.haunt or []:
        if label not in offered:
            kind = "haunt" if args.game == "betrayal" else "variant"
            raise UsageError(f"--haunt {label}: not a {kind} the engine plays to its end; choose from {', '.join(offered)}")
        if all(c.label != label for c in cases):
            cases.append(offered[label])
    if not cases:
        cases = list(offered.values())
    players = (parse_players(args.players, definition.min_players, definition.max_players, args.game)
               if args.players else subject.default_players)
    return Study(args.game, tuple(cases), players, args.games, controller, args.from_setup,
                 args.haunt_file, parse_shard(args.shard))


class _GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} games/s" if speed else "- games/s", style="progress.data.speed")


def _study(args: argparse.Namespace) -> dict[str, Any]:
    from hauntcheck.engine.commands.common import UsageError

    study = study_from_args(args)
    jobs = cpu_count() if args.jobs == 0 else args.jobs
    if jobs < 0:
        raise UsageError("--jobs must be 0 (one per core) or more")
    if args.address and args.backend != "dask":
        raise UsageError("--address is for --backend dask")
    backend = Backend(args.backend, jobs, args.address)
    total = len(study.tasks())
    err = Console(file=sys.stderr)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), _GamesPerSecond(), TextColumn("ETA"),
               TimeRemainingColumn())
    started = time.perf_counter()
    with Progress(*columns, console=err, disable=args.quiet) as progress:
        task = progress.add_task(f"{study.game}: {len(study.cases)} haunt(s) x {len(study.players)} player count(s)", total=total)
        try:
            records = run_study(study, backend, lambda n: progress.advance(task, n))
        except (LookupError, RuntimeError) as exc:
            raise UsageError(str(exc)) from None
    took = time.perf_counter() - started
    if not args.quiet:
        err.print(f"{total} games in {took:.1f}s ({total / took if took else 0:.1f} games/s, {jobs} job(s), backend {args.backend})")
    return report.build(study, records)


def _show(document: dict[str, Any]) -> None:
    out = Console(highlight=False, soft_wrap=True)
    endings = document["endings"]
    for haunt in document["haunts"]:
        table = RichTable(title=f"{haunt['haunt']}: {haunt['title']}", title_justify="left")
        for column in ("players", "games", *endings, "rounds q50", "steps q50", "most common win"):
            table.add_column(column, justify="left" if column == "most common win" else "right")
        for players, cell in sorted(haunt["cells"].items(), key=lambda kv: int(kv[0])):
            shares = [share_text(cell["endings"][e]) for e in endings]
            top = cell["top_condition"]
            table.add_row(players, str(cell["games"]), *shares, f"{cell['rounds']['q50']:g}", f"{cell['steps']['q50']:g}",
                          f"{top['condition']} ({top['count']})" if top else "-")
        out.print(table)
        out.print(f"verdict: {haunt['verdict']}")
    if not document["complete"]:
        out.print("this is one shard of the study: join the shards with `hauntcheck balance merge`")
    out.print(f"replay a game: {document['replay']}")


def summary_markdown(document: dict[str, Any]) -> str:
    """The haunts by imbalance as a Markdown table (Betrayal: the hooks each haunt needs; every
    ending's pooled rate, then the verdict)."""
    endings = document["endings"]
    sides = set(document["sides"])
    with_hooks = document["study"]["game"] == "betrayal"
    header = ["haunt", "title", *(["hooks"] if with_hooks else []), "games",
              *(f"{e} (pooled)" if e in sides else e for e in endings), "rounds q50", "imbalance", "verdict"]
    lines = ["| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    for haunt in document["haunts"]:
        cells = haunt["cells"].values()
        games = max(1, haunt["games"])
        pooled = [f"{100 * sum(c['endings'][e]['count'] for c in cells) / games:.0f} %" for e in endings]
        rounds = sorted(r["rounds"] for r in document["records"] if r["haunt"] == haunt["haunt"])
        median = rounds[len(rounds) // 2] if rounds else 0
        hooks = [", ".join(f"`{h}`" for h in haunt.get("hooks", ())) or "-"] if with_hooks else []
        lines.append(" | ".join([f"| {haunt['haunt']}", haunt["title"], *hooks, str(haunt["games"]), *pooled,
                                 str(median), f"{haunt['imbalance']:+.2f}", f"{haunt['verdict']} |"]))
    return "\n".join(lines) + "\n"


def _write(document: dict[str, Any], args: argparse.Namespace) -> None:
    from hauntcheck.engine.commands.common import UsageError

    if args.out:
        folder = Path(args.out)
        folder.mkdir(parents=True, exist_ok=True)
        report.write(document, folder / "balance.json")
        print(f"written: {folder / 'balance.json'}")
        if page.plots_available():
            (folder / "balance.html").write_text(page.render(document), encoding="utf-8")
            print(f"written: {folder / 'balance.html'}")
        else:
            print(f"balance.html not written: the plots need matplotlib ({page.INSTALL_HINT})", file=sys.stderr)
    if args.update_doc:
        target = Path(args.update_doc)
        try:
            text = target.read_text(encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--update-doc {target}: cannot read: {exc.strerror}") from None
        if DOC_BEGIN not in text or DOC_END not in text:
            raise UsageError(f"--update-doc {target}: the file has no {DOC_BEGIN} ... {DOC_END} markers")
        head, rest = text.split(DOC_BEGIN, 1)
        _, tail = rest.split(DOC_END, 1)
        target.write_text(f"{head}{DOC_BEGIN}\n{summary_markdown(document)}{DOC_END}{tail}", encoding="utf-8")
        print(f"updated: {target}")


def main(argv: Sequence[str] | None = None) -> int:
    """For running the command alone (``python -m hauntcheck.engine.balance.command``)."""
    from hauntcheck.engine.cli import main as cli_main

    return cli_main(["balance", *(argv or [])])
