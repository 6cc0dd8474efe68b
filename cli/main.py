"""``allfives``: the command line.

    allfives solve POSITION... [--for SEAT] [--objective points|margin|tricks|win] [--json]
                               [--engine engine|reference] [--node-limit N] [--time-limit S]
    allfives analyze POSITION... [--objective ...] [--json] [--engine engine|reference]
                                 [--node-limit N] [--time-limit S]
    allfives deal --players 2|3|4 [--runs R] [--seed S] [--count K] [--format toml|line]
                              [--rules RULES] [--dealer SEAT]
    allfives bench [--class NAME]... [--count N] [--json]
    allfives puzzle generate|check|play|show|index ...   (see cli/puzzling.py)
    allfives advise [POSITION] [--seat SEAT] [--hand CARDS --turnup CARD] [--worlds K]
                               [--seed S] [--json]

The options that several commands share are declared once, below, as typed ``Annotated``
aliases; a command takes one as a parameter's type (``json: JsonFlag = False``) and gets the same
option, spelled, checked and explained the same way.

Everything heavy (Rich, the engine) is imported inside the command that needs it, so that a
small solve starts fast.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from enum import Enum
from typing import Annotated, Optional

import typer
from typer.core import TyperGroup

from solver.clock import count_stops
from solver.errors import AllFivesError, as_typed, control_problem
from solver.signals import hangup_signal
from solver.solution import OBJECTIVES

from . import errors
from .errors import Boundary, on_stop_signal, say_stopped, stop_status, user_errors
from .helpscreen import Command, HelpScreen, render_help
from .streams import plain_streams, write_utf8

EXIT_STATUS = """\
Exit status: 0 done; 1 a limit stopped a search without a value, the engine is
missing, the output or a record could not be written, a worker or a cluster
lost the work, puzzle check found a problem or puzzle make no puzzle; 2 bad
input; 129 hung up; 130 interrupted; 141 the reader of the output went away;
143 terminated."""

app = typer.Typer(
    name="allfives",
    cls=Boundary,
    help="Double-dummy solver for All Fives, All Fours and their kin.",
    epilog=f"""\
Examples:
  allfives solve solver/examples/two-player.toml
  allfives analyze solver/examples/played.toml
  allfives deal --players 4 --count 100 --format line | allfives solve - --json
  allfives solve --help

{EXIT_STATUS}""",
    add_completion=False,
    pretty_exceptions_enable=False,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# ---- the shared options ---------------------------------------------------------------------

#: The objectives the library knows, in its order (the first, points, is the default).
Objective = Enum("Objective", {name: name for name in OBJECTIVES}, type=str)  # type: ignore[misc]


class Engine(str, Enum):
    engine = "engine"
    reference = "reference"


class Form(str, Enum):
    toml = "toml"
    line = "line"


def choices(enum: type[Enum]) -> str:
    """``points|margin|tricks``: the metavar of an option with a choice of words."""
    return "|".join(member.value for member in enum)


PositionsArgument = Annotated[list[str], typer.Argument(
    metavar="POSITION", show_default=False,
    help="Deal files (TOML, several deals separated by '# ---' lines, or one-line positions "
         "one a line), FILE#N or FILE:LINE for one deal of such a file, game records "
         "(record.jsonl, or RECORD#N for its Nth deal), a one-line position itself "
         "(\"N:AK5.9.32.- ... trump=H\"), or '-' for standard input.")]
ForOption = Annotated[Optional[str], typer.Option(
    "--for", metavar="SEAT",
    help="The seat whose value is computed; with 4 players either partner, or NS / EW, names "
         "the partnership. Default: the side to move.")]
ObjectiveOption = Annotated[Objective, typer.Option(  # type: ignore[valid-type]
    "--objective", metavar=choices(Objective),
    help="points: what the side can be sure of scoring in the deal; margin: its points minus "
         "the other side's; tricks: the tricks it wins; win: 1 if it can be sure of winning "
         "the match in the deal, else 0 (the position needs the match score, score=).")]
JsonFlag = Annotated[bool, typer.Option(
    "--json", help="One JSON object a line, for scripts, instead of the report.")]
MatchJsonFlag = Annotated[bool, typer.Option(
    "--json", help="The report as one JSON object, for scripts.")]
EngineOption = Annotated[Engine, typer.Option(
    "--engine", metavar=choices(Engine),
    help="engine: the compiled search; reference: the plain exhaustive solver, slow on "
         "purpose.")]
NodeLimitOption = Annotated[Optional[int], typer.Option(
    "--node-limit", metavar="N", min=1,
    help="Stop each search after at most N nodes; one stopped without a value shows the bounds "
         "it reached. The exit status is 1 where a search was stopped (analyze: where a card "
         "was left unjudged, or a mistake's cost known only in part).")]
TimeLimitOption = Annotated[Optional[float], typer.Option(
    "--time-limit", metavar="SECONDS",
    help="Stop each search after SECONDS; one stopped without a value shows the bounds it "
         "reached. The exit status is 1 where a search was stopped (analyze: where a card was "
         "left unjudged, or a mistake's cost known only in part).")]
ColorFlag = Annotated[Optional[bool], typer.Option(
    "--color/--no-color",
    help="Colour the output even into a pipe (NO_COLOR notwithstanding), or print plain "
         "text even on a terminal. Default: colour on a terminal only (none where NO_COLOR is "
         "set).")]
JobsOption = Annotated[Optional[int], typer.Option(
    "--jobs", metavar="J", min=0,
    help="Worker processes on this machine (0: one per CPU). Default: 1, in this process.")]
SchedulerOption = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="ADDRESS",
    help="Run on an existing Dask cluster instead (tcp://host:8786; needs the cluster extra, "
         "pip install '.[cluster]' in the checkout).")]
DealOption = Annotated[Optional[int], typer.Option(
    "--deal", metavar="N", min=1,
    help="With a game record (JSON lines, as 'allfives play' writes them): its N-th deal "
         "only, as RECORD#N names it. Default: every deal with card play.")]
def typed(ctx: typer.Context, names: Sequence[str]) -> set[str]:
    """Which of the options ``names`` (parameter names) were typed on the command line, rather
    than left at their defaults."""
    return {name for name in names
            if getattr(ctx.get_parameter_source(name), "name", None) == "COMMANDLINE"}


RULES_HELP = ("Rules: a preset (all-fives, strict, classic, all-fours, five-for-five), with "
              "rule options over it after a colon, as strict:skunk=true,finish=hand-end.")
RulesOption = Annotated[str, typer.Option("--rules", metavar="RULES", help=RULES_HELP)]
TARGET_HELP = ("The points that win the match{}, 1 to 999 (or target=N in --rules). Default: "
               "the preset's: 61, or 7 in all-fours.")
TargetOption = Annotated[Optional[int], typer.Option(
    "--target", metavar="N", help=TARGET_HELP.format(""))]
MatchTargetOption = Annotated[Optional[int], typer.Option(
    "--target", metavar="N", help=TARGET_HELP.format(", with --matches"))]
CallTargetOption = Annotated[Optional[int], typer.Option(
    "--target", metavar="N", help=TARGET_HELP.format(", for a call"))]

DEFAULT_OBJECTIVE = Objective("points")


def _version(value: bool) -> None:
    if value:
        from solver import __version__
        typer.echo(f"allfives {__version__}")
        raise typer.Exit()


@app.callback()
def allfives(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="Print the version and exit.")] = False,
) -> None:
    """Double-dummy solver for All Fives, All Fours and their kin."""
    if ctx.invoked_subcommand is None:  # no command: the help, as a usage error
        typer.echo(render_help(ctx.command, ctx, stderr=True), err=True)
        raise typer.Exit(2)


# ---- the commands ---------------------------------------------------------------------------

@app.command(cls=Command, help="Solve positions double-dummy: the table, what every legal card "
             "is worth and costs, a best line trick by trick, and the points at the end of the "
             "deal.", epilog="""\
Examples:
  allfives solve solver/examples/two-player.toml
  allfives solve solver/examples/mid-trick.toml --for S --objective margin
  allfives solve "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H" --json
  allfives deal --players 4 --count 100 --format line | allfives solve - --json""")
def solve(
    positions: PositionsArgument,
    for_: ForOption = None,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    json: JsonFlag = False,
    engine: EngineOption = Engine.engine,
    node_limit: NodeLimitOption = None,
    time_limit: TimeLimitOption = None,
    color: ColorFlag = None,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    deal: DealOption = None,
) -> None:
    from .solving import solve_command

    with user_errors(engine_option=True):
        stopped = solve_command(positions, for_, objective.value, json, engine.value,
                                node_limit, time_limit, color, jobs, scheduler, deal)
    if stopped:
        raise typer.Exit(1)


@app.command(cls=Command, help="Judge a played hand card by card: what each card left its side "
             "against the best card, the mistakes, and the points each side gave away.\n\n"
             "Each position needs a 'play': the cards played, part of a hand or all of it. "
             "A limit applies to each solve of the analysis (one before every card); a card "
             "so left unjudged shows bounds and '?'.", epilog="""\
Examples:
  allfives analyze solver/examples/played.toml
  allfives analyze solver/examples/played.toml --json --node-limit 100000
  allfives analyze "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H play=TH,AH,4C\"""")
def analyze(
    positions: PositionsArgument,
    objective: ObjectiveOption = DEFAULT_OBJECTIVE,
    json: JsonFlag = False,
    engine: EngineOption = Engine.engine,
    node_limit: NodeLimitOption = None,
    time_limit: TimeLimitOption = None,
    color: ColorFlag = None,
    deal: DealOption = None,
) -> None:
    from .analyzing import analyze_command

    with user_errors(engine_option=True):
        stopped = analyze_command(positions, objective.value, json, engine.value,
                                  node_limit, time_limit, color, deal)
    if stopped:
        raise typer.Exit(1)


@app.command(cls=Command, help="Play a match against bots: on each of your decisions the "
             "table as you see it and your legal cards, numbered; the bots' moves as they "
             "happen; after each deal what your cards cost, judged open-hand.\n\n"
             "Type a card (TH, th, 10h, T♥), a rank or suit alone when it picks one legal "
             "card, or its number; Enter plays a lone legal card; calls by name or first "
             "letter (s, b, t, r). At the prompt: hint (the Monte Carlo player's advice from "
             "what you can see), undo, score, help, quit. The record "
             "(JSON lines, for 'allfives replay') is saved after every deal; quit or the end "
             "of input stop with status 0, Ctrl-C with 130.", epilog="""\
Examples:
  allfives play --seed 1
  allfives play --players 4 --opponents cheater --seat N --target 31
  allfives play --players 3 --rules classic --record match.jsonl""")
def play(
    players: Annotated[int, typer.Option(
        metavar="2|3|4", min=2, max=4,
        help="Players at the table (4 play as partners, N+S against E+W).")] = 2,
    seat: Annotated[Optional[str], typer.Option(
        metavar="SEAT", help="Your seat. Default: S.")] = None,
    opponents: Annotated[Optional[list[str]], typer.Option(
        "--opponents", metavar="PLAYER",
        help="The bots: heuristic, random, pimc (the Monte Carlo player, which sees what you "
             "would in its seat) or cheater (it sees every hand), with options as "
             "name:key=value; once for every bot, or once a bot from your left. "
             "Default: heuristic.")] = None,
    rules: RulesOption = "all-fives",
    target: TargetOption = None,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", metavar="S", min=0,
        help="Seed of the match: the same seed deals the same packs and the bots play the "
             "same, as long as no decision of theirs is cut short by a time limit. Default: a "
             "fresh seed, shown at the start.")] = None,
    record: Annotated[Optional[str], typer.Option(
        metavar="FILE",
        help="Where the record goes (written over if it is there). Default: "
             "allfives-SEED.jsonl in the current folder, or allfives-SEED-2.jsonl (-3, ...) "
             "when that is taken.")
    ] = None,
    color: ColorFlag = None,
) -> None:
    from .playing import play_command

    with user_errors():
        play_command(players, seat, opponents, rules, target, seed, record, color)


@app.command(cls=Command, help="Play a game record (JSON lines, as 'allfives play' and "
             "'allfives match --record' write them) again by the rules, checking every action "
             "and score: a short summary (a line for each match of a file of several), or one "
             "line naming the first deal and action that does not follow (status 2).",
             epilog="""\
Examples:
  allfives replay solver/examples/match.jsonl
  allfives replay solver/examples/match.jsonl --json
  allfives replay solver/examples/match.jsonl --play-by-play
  allfives replay solver/examples/match.jsonl#2
  allfives analyze solver/examples/match.jsonl#2""")
def replay(
    record: Annotated[str, typer.Argument(
        metavar="RECORD", show_default=False,
        help="A game record, RECORD#N for its deal N alone (counted through the file), or "
             "'-' for standard input.")],
    deal: Annotated[Optional[int], typer.Option(
        "--deal", metavar="N", min=1,
        help="Tell deal N alone, play by play, before the summary (of a file of several "
             "matches, its match's line alone), as RECORD#N does; counted through the file. "
             "Default: the summary only.")] = None,
    json: JsonFlag = False,
    play_by_play: Annotated[bool, typer.Option(
        "--play-by-play",
        help="Tell every deal first (or the one --deal names), as the table did: the hands "
             "dealt, the turn-up, each call and card, every trick won and point pegged.")
    ] = False,
    color: ColorFlag = None,
) -> None:
    from .replaying import replay_command

    with user_errors():
        if json and play_by_play:
            raise AllFivesError("--play-by-play: not with --json (the play-by-play is told as "
                                "text; with --json, RECORD#N gives a deal's actions and pegs)")
        replay_command(record, json, color, play_by_play, deal)


@app.command(cls=Command, help="Deal random hands as from a shuffled pack (with the turn-up and "
             "any runs), ready to solve.", epilog="""\
Examples:
  allfives deal --players 2 --seed 7
  allfives deal --players 4 --runs 1 --count 3 --format line
  allfives deal --players 3 --count 10 > deals.toml && allfives solve deals.toml""")
def deal(
    players: Annotated[int, typer.Option(
        metavar="2|3|4", help="Players at the table: 2, 3 or 4 (4 play as partners).")],
    runs: Annotated[int, typer.Option(
        metavar="R", min=0,
        help="Runs of the cards after a beg: each deals 3 more cards to every seat.")] = 0,
    seed: Annotated[Optional[int], typer.Option(
        metavar="S", min=0, help="Seed of the shuffle: the same seed deals the same cards. "
                          "Default: a fresh seed, shown in the TOML form (on stderr with "
                          "--format line).")] = None,
    count: Annotated[int, typer.Option(metavar="K", min=1, max=1_000_000,
                                       help="How many deals, up to 1,000,000.")] = 1,
    format: Annotated[Form, typer.Option(
        "--format", metavar=choices(Form),
        help="toml: deal files (several separated by '# ---' lines); line: one position a "
             "line, ready for 'allfives solve -'.")] = Form.toml,
    rules: Annotated[str, typer.Option(
        "--rules", "--preset", metavar="RULES", help=RULES_HELP)] = "all-fives",
    dealer: Annotated[Optional[str], typer.Option(
        metavar="SEAT", help="The dealer's seat. Default: a random seat.")] = None,
) -> None:
    from .dealing import deal_command

    with user_errors():
        deal_command(players, runs, seed, count, format.value, rules, dealer)


@app.command(cls=Command, help="Time the engine on seeded deal classes: median, p90 and p99 "
             "seconds a deal, and the median deal's nodes; beside each class of up to 13 cards a hand, "
             "DDS on bridge deals of that size (on the bridge class, the same deals) when "
             "endplay is installed.", epilog="""\
Examples:
  allfives bench
  allfives bench --class 4x6,2x9 --count 20
  allfives bench --class 2x6 --json""")
def bench(
    classes: Annotated[Optional[list[str]], typer.Option(
        "--class", metavar="NAME",
        help="A deal class to time; repeat for more, or separate them with commas: 2x6 3x6 "
             "4x6 2x9 2x12 2x15 2x21 3x9 3x12 4x9 4x12 bridge. Default: 2x6 3x6 4x6 2x9.")] = None,
    count: Annotated[int, typer.Option(
        metavar="N", min=1, max=100_000,
        help="Deals per class (100,000 at most: each class's deals are made first).")] = 50,
    json: JsonFlag = False,
    color: ColorFlag = None,
) -> None:
    from .benching import bench_command

    with user_errors():
        bench_command(classes, count, json, color)


PLAYER_HELP = "{}: random, heuristic, pimc or cheater, with options as pimc:worlds=32."


@app.command(cls=Command, help="Play two kinds of player against each other over many deals or "
             "whole matches: points per deal, the difference per deal with its 95% interval "
             "(paired t and bootstrap), matches won, the time per decision, and the command "
             "that plays the same games again.\n\n"
             "PLAYER is a player and its options: random, heuristic, pimc:worlds=32, "
             "cheater:time_limit=0.5. "
             "--deals and --matches count deal groups: with --duplicate each is played in "
             "every seating of the two (2 players: twice; 4: partnerships swapped; 3: six "
             "seatings), else once, the two taking the seats in turn.", epilog="""\
Examples:
  allfives match heuristic random --deals 200
  allfives match heuristic random --players 4 --duplicate --deals 100 --jobs 2
  allfives match heuristic random --matches 10 --json
  allfives match heuristic random --deals 20 --record games.jsonl""")
def match(
    a: Annotated[str, typer.Argument(metavar="PLAYER", show_default=False,
                                     help=PLAYER_HELP.format("A, the first player"))],
    b: Annotated[str, typer.Argument(metavar="PLAYER", show_default=False,
                                     help=PLAYER_HELP.format("B, the player A is measured "
                                                             "against"))],
    players: Annotated[int, typer.Option(
        "--players", metavar="2|3|4", help="Players at the table: 2, 3 or 4 (4 play as partners)."
    )] = 2,
    deals: Annotated[Optional[int], typer.Option(
        "--deals", metavar="N",
        help="Deal groups of one deal each, scored per deal. Default: 100.")] = None,
    matches: Annotated[Optional[int], typer.Option(
        "--matches", metavar="N",
        help="Deal groups of one whole match each, to the target: matches won.")] = None,
    duplicate: Annotated[bool, typer.Option(
        "--duplicate", help="Play every group's packs in every seating of the two players.")
    ] = False,
    rules: RulesOption = "all-fives",
    target: MatchTargetOption = None,
    seed: Annotated[Optional[int], typer.Option(
        "--seed", metavar="S", min=0,
        help="Seed of every pack and player: the same seed plays the same games, whatever "
             "runs them, as long as no decision is cut short by a time limit "
             "(time_limit=none,node_limit=N repeats exactly). Default: 0.")] = None,
    jobs: JobsOption = None,
    scheduler: SchedulerOption = None,
    record: Annotated[Optional[str], typer.Option(
        "--record", metavar="FILE",
        help="Write the game record of every deal played (JSON lines) to FILE.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume",
        help="Go on from the --record FILE of the same run, stopped before its end: the groups "
             "it holds whole are read back, the rest played and added to it.")] = False,
    json: MatchJsonFlag = False,
) -> None:
    from .matching import match_command

    with user_errors():
        match_command(a, b, players, deals, matches, duplicate, rules,
                      target, seed, jobs, scheduler, record, json, resume)


# ---- the puzzles ---------------------------------------------------------------------------

class PuzzleGroup(HelpScreen, TyperGroup):
    """``allfives puzzle``: its commands' help screens drawn as every other command's."""


class SheetForm(str, Enum):
    text = "text"
    svg = "svg"
    html = "html"


puzzle_app = typer.Typer(
    name="puzzle", cls=PuzzleGroup, add_completion=False, invoke_without_command=True,
    help="Play-the-hand puzzles: make them, check them, play them, print them.",
    epilog="""\
Examples:
  allfives puzzle generate --players 2 --count 3 --seed 1 --out my-puzzles
  allfives puzzle make "N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H"
  allfives puzzle check puzzles/
  allfives puzzle play puzzles/001-*.toml
  allfives puzzle show puzzles/ --format html --solution > sheet.html""")
app.add_typer(puzzle_app, name="puzzle")

PuzzleFilesArgument = Annotated[list[str], typer.Argument(
    metavar="FILE|DIR|-", show_default=False,
    help="Puzzle files, or folders of them (their *.toml files, in the order of the numbers "
         "their names start with, 999- before 1000-); FILE#N for one puzzle of a file of "
         "several; - for standard input.")]
ThemeOption = Annotated[Optional[str], typer.Option(
    "--theme", metavar="NAME", help="Only puzzles of this theme.")]
PuzzlePlayersOption = Annotated[int, typer.Option(
    "--players", metavar="2|3|4", min=2, max=4,
    help="Players at the table: 2, 3 or 4 (4 play as partners).")]


@puzzle_app.callback()
def puzzle(ctx: typer.Context) -> None:
    """Play-the-hand puzzles: make them, check them, play them, print them."""
    if ctx.invoked_subcommand is None:
        typer.echo(render_help(ctx.command, ctx, stderr=True), err=True)
        raise typer.Exit(2)


@puzzle_app.command("generate", cls=Command, help="Make puzzles from seeded random deals.\n\n"
                    "A puzzle is a position where exactly one card reaches the target at every "
                    "turn of the side that solves, against the toughest defence, and natural "
                    "play fails; each is checked as 'allfives puzzle check' checks it. "
                    "With --out each is written to a file of the folder, named by its number "
                    "and title (numbered on from the files there); otherwise they go to standard "
                    "output, with a '# ---' line between two.", epilog="""\
Examples:
  allfives puzzle generate --count 2 --seed 1
  allfives puzzle generate --players 3 --rules strict --count 5 --out mine""")
def puzzle_generate(
    players: PuzzlePlayersOption = 2,
    rules: RulesOption = "all-fives",
    count: Annotated[int, typer.Option(metavar="K", min=1, max=10_000,
                                       help="How many puzzles, up to 10,000.")] = 1,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", metavar="S",
        help="Seed of the deals: the same seed makes the same puzzles. Default: a fresh "
             "seed, kept in each puzzle file. A file's own seed, S/K (candidate K of seed S), "
             "makes that puzzle again with the file's players and rules (and theme, which "
             "titles it).")] = None,
    min_turns: Annotated[int, typer.Option(
        "--min-turns", metavar="T", min=2,
        help="The fewest turns with a real choice for the side that solves, 2 or more (a "
             "sound puzzle has at least two).")] = 2,
    theme: ThemeOption = None,
    out: Annotated[Optional[str], typer.Option(
        "--out", metavar="DIR", help="The folder the puzzle files go to.")] = None,
    tries: Annotated[Optional[int], typer.Option(
        "--tries", metavar="N", min=1,
        help="Stop after N deals tried, with the puzzles found so far (a note says how many, "
             "and the exit status is 1 if they are fewer than K). Default: no end, until K "
             "are found.")] = None,
) -> None:
    from .puzzling import generate_command

    with user_errors():
        status = generate_command(players, rules, count, seed, min_turns, theme, out, tries)
    raise typer.Exit(status)


class PuzzleObjective(str, Enum):
    points = "points"
    margin = "margin"
    win = "win"


@puzzle_app.command("make", cls=Command, help="Make puzzles of positions of your own.\n\n"
                    "Each POSITION is tried as a puzzle for the side to play, its target the "
                    "position's exact value: a sound one (exactly one card reaches the target "
                    "at every turn of that side against the toughest defence, and natural play "
                    "fails) is written as 'puzzle generate' writes them, themes, title and "
                    "rating found; for any other, one line says the first rule it breaks, and "
                    "the exit status is 1.", epilog="""\
Examples:
  allfives puzzle make "N:-.AT.-.2 -.Q5.-.3 dealer=S trump=H"
  allfives puzzle make solver/examples/two-player.toml --out mine""")
def puzzle_make(
    positions: Annotated[list[str], typer.Argument(
        metavar="POSITION", show_default=False,
        help="A deal file or one-line position (as 'allfives solve' reads them: FILE#N or "
             "FILE:LINE for one of a file of several, RECORD#N for a game record's deal at "
             "its first card, '-' for standard input); every hand shown.")],
    objective: Annotated[Optional[PuzzleObjective], typer.Option(
        "--objective", metavar="points|margin|win", show_default=False,
        help="What the side that solves plays for: its points, its points less the other "
             "side's (two sides), or the match (a position with a score). Default: win where "
             "either side could reach the target in the deal, else points.")] = None,
    min_turns: Annotated[int, typer.Option(
        "--min-turns", metavar="T", min=2,
        help="The fewest turns with a real choice for the side that solves, 2 or more.")] = 2,
    out: Annotated[Optional[str], typer.Option(
        "--out", metavar="DIR", help="The folder the puzzle files go to (numbered on from "
                                     "the files there); default standard output.")] = None,
) -> None:
    from .puzzling import make_command

    with user_errors():
        status = make_command(positions, None if objective is None else objective.value,
                              min_turns, out)
    raise typer.Exit(status)


@puzzle_app.command("check", cls=Command, help="Check puzzle files by every rule of a sound "
                    "puzzle.\n\nOne line for each problem (FILE: what), a summary line, and "
                    "the exit status 1 if any puzzle has one.", epilog="""\
Examples:
  allfives puzzle check puzzles/
  allfives puzzle check puzzles/ --jobs 0""")
def puzzle_check(
    paths: PuzzleFilesArgument,
    jobs: JobsOption = None,
) -> None:
    from .puzzling import check_command

    with user_errors():
        code = check_command(paths, jobs)
    if code:
        raise typer.Exit(code)


@puzzle_app.command("play", cls=Command, help="Solve a puzzle at the console.\n\n"
                    "You play the cards of the side that solves; the program defends with the "
                    "toughest line and plays your forced cards. "
                    "Type a card (TH, th, 10h, T♥), a rank or suit alone when it picks one "
                    "legal card, or its number. A wrong card is answered with the defence "
                    "that beats it, and you try again. At the prompt: hint (the idea, then "
                    "the suit), solution, goal, help, quit.", epilog="""\
Examples:
  allfives puzzle play puzzles/001-*.toml
  allfives puzzle play --random --players 3 --seed 5""")
def puzzle_play(
    ctx: typer.Context,
    file: Annotated[Optional[str], typer.Argument(
        metavar="FILE", show_default=False, help="A puzzle file.")] = None,
    random: Annotated[bool, typer.Option(
        "--random", help="A fresh puzzle, made on the spot (with --players, --rules, "
                         "--theme, --seed).")] = False,
    players: PuzzlePlayersOption = 2,
    rules: RulesOption = "all-fives",
    theme: ThemeOption = None,
    seed: Annotated[Optional[str], typer.Option(
        "--seed", metavar="S",
        help="With --random, the seed of the puzzle made: S, or S/K as a puzzle file keeps "
             "it. Default: a fresh seed, shown at the start.")] = None,
    no_titles: Annotated[bool, typer.Option(
        "--no-titles", help="The puzzle named by its number alone, without its title, which "
                            "may name the idea.")] = False,
    color: ColorFlag = None,
) -> None:
    from .puzzling import play_command

    with user_errors():
        play_command(file, random, players, rules, theme, seed, color,
                     given=typed(ctx, ("players", "rules", "theme", "seed")),
                     titled=not no_titles)


@puzzle_app.command("show", cls=Command, help="Draw puzzles as text, SVG or a printable "
                    "HTML sheet.\n\nThe hands, the trumps, the goal and, with --solution, "
                    "the solution: as text, as an SVG drawing (one puzzle), or as one HTML "
                    "sheet of them all (four to an A4 page, the solutions at the end).", epilog="""\
Examples:
  allfives puzzle show puzzles/001-*.toml
  allfives puzzle show puzzles/001-*.toml --format svg > puzzle.svg
  allfives puzzle show puzzles/ --format html --solution > sheet.html""")
def puzzle_show(
    ctx: typer.Context,
    paths: PuzzleFilesArgument,
    format: Annotated[SheetForm, typer.Option(
        "--format", metavar=choices(SheetForm),
        help="text: on the console; svg: one puzzle as a drawing; html: a printable sheet.")
    ] = SheetForm.text,
    solution: Annotated[bool, typer.Option(
        "--solution", help="Show the solution too.")] = False,
    title: Annotated[Optional[str], typer.Option(
        "--title", metavar="TEXT", help="The title of an HTML sheet ('' for none: no "
                                        "title line). Default: All Fives puzzles.")] = None,
    no_titles: Annotated[bool, typer.Option(
        "--no-titles", help="Number the puzzles only, without their titles, which may name "
                            "the idea (a solution shown keeps its title).")] = False,
    color: ColorFlag = None,
) -> None:
    from .puzzling import show_command

    with user_errors():
        if typed(ctx, ("title",)) and format is not SheetForm.html:
            raise AllFivesError("--title: only with --format html (the title of a sheet)")
        title = None if title is None else as_typed(title)   # (the C locale: as_typed)
        if title is not None and control_problem(title, "title"):
            raise AllFivesError(f"--title: {control_problem(title, 'title')}")
        show_command(paths, format.value, solution, title, color, titled=not no_titles)


@puzzle_app.command("index", cls=Command, help="The Markdown index of a puzzle collection.\n\n"
                    "One row a puzzle (number, title, players, rules, goal, themes, rating), "
                    "and the counts.", epilog="""\
Examples:
  allfives puzzle index puzzles/
  allfives puzzle index puzzles/ > puzzles/README.md""")
def puzzle_index(paths: PuzzleFilesArgument) -> None:
    from .puzzling import index_text

    with user_errors():
        write_utf8(index_text(paths))


@app.command(cls=Command, help="Advise one seat from what it can see: every legal card (or "
             "call) with its expected points, or chance of winning the match, a 95% interval "
             "and how often it is a best choice, from the unseen cards dealt at random into "
             "the hands hidden (the Monte Carlo player's analysis).\n\n"
             "A POSITION may hide hands: '?' in a deal file, '-' on one line; their cards "
             "played are in the play. The seat advised is the seat to move, and its hand must "
             "be shown. Without a POSITION, --hand and --turnup ask for a call: the elder hand "
             "(the dealer's left) stands or begs, the dealer takes one or runs.", epilog="""\
Examples:
  allfives advise solver/examples/hidden/south.toml
  allfives advise "N:T.QJT92.-.- - dealer=S turnup=6H" --json
  allfives advise --hand "AH KH 5H 9C 2D 3S" --turnup 7H --seat N
  allfives advise --hand "9H 4C 3C 8D 2S QS" --turnup 7H --dealer N --seat N""")
def advise(
    ctx: typer.Context,
    position: Annotated[Optional[str], typer.Argument(
        metavar="POSITION", show_default=False,
        help="A deal file or one-line position, hands hidden as '?' (TOML) or '-' (one "
             "line); FILE#N or FILE:LINE for one of a file of several; '-' for standard "
             "input.")] = None,
    seat: Annotated[Optional[str], typer.Option(
        "--seat", metavar="SEAT",
        help="The seat advised: with a POSITION the seat to move (the default); for a call "
             "the elder hand or the dealer.")] = None,
    hand: Annotated[Optional[str], typer.Option(
        "--hand", metavar="CARDS", help="The six cards of the seat about to call.")] = None,
    turnup: Annotated[Optional[str], typer.Option(
        "--turnup", metavar="CARD", help="The turned-up card, which proposes trumps.")] = None,
    players: Annotated[int, typer.Option(
        "--players", metavar="2|3|4", min=2, max=4,
        help="Players at the table for a call: 2, 3 or 4 (4 play as partners).")] = 2,
    dealer: Annotated[Optional[str], typer.Option(
        "--dealer", metavar="SEAT",
        help="The dealer, for a call. Default: the seat on the right of --seat, which is "
             "then the elder hand (with neither, the last seat deals).")] = None,
    score: Annotated[Optional[str], typer.Option(
        "--score", metavar="POINTS",
        help="The match score before the deal, for a call: points per side, in side order "
             "(N,S; N,E,S; NS,EW). Default: 0 each.")] = None,
    rules: RulesOption = "all-fives",
    target: CallTargetOption = None,
    worlds: Annotated[Optional[int], typer.Option(
        "--worlds", metavar="K", min=1,
        help="Deals of the unseen cards to value each choice in. Default: the Monte Carlo "
             "player's (128; 64 with four players), and 64 play-outs for a call.")] = None,
    seed: Annotated[int, typer.Option(
        "--seed", metavar="S", min=0,
        help="Seed of the deals of the unseen cards: the same seed gives the same advice.")
    ] = 0,
    nodes: Annotated[Optional[int], typer.Option(
        "--nodes", metavar="N", min=1,
        help="Engine nodes a card's advice may search in all, over every deal: fewer is "
             "quicker, more leaves fewer deep deals out. Default: 100,000,000 (some seconds "
             "on the deep hands after a run).")] = None,
    json: JsonFlag = False,
    color: ColorFlag = None,
) -> None:
    from .advising import CALL_OPTIONS, advise_command

    # the options typed (a position brings its own table, and no call's option goes with it)
    given = typed(ctx, CALL_OPTIONS)
    with user_errors():
        advise_command(position, seat, hand, turnup, players, dealer, score, rules, target,
                       worlds, seed, json, color, given, node_limit=nodes)


def main() -> None:
    """The ``allfives`` program: SIGTERM ends it as Ctrl-C does, with its own status (also
    while Typer builds the commands, before any of them runs), and so does SIGHUP (a terminal
    closed), unless it is ignored (``nohup``: it stays so).  The time it stands stopped
    (Ctrl-Z until ``fg``) is not counted as time worked (``solver.clock``)."""
    signal.signal(signal.SIGTERM, on_stop_signal)
    hangup = hangup_signal()
    if hangup is not None:
        signal.signal(hangup, on_stop_signal)
    count_stops()
    plain_streams()
    errors.stops_said = 0
    try:
        app()
    except KeyboardInterrupt as stop:
        # (a Ctrl-C pressed again, come as the run ended on the first, said: not again)
        if not errors.stops_said:
            say_stopped(stop)
        raise SystemExit(stop_status(stop)) from None
