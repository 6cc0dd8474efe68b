"""``allfives play``: a person plays a match against bots, line by line.

The match is ``solver.game``'s state machine; the bots are ``solver.players`` made from their
specs, each seeded from the match's seed, so that a seed gives the same packs and the same bots'
moves every time.  That is what ``undo`` stands on: it plays the match again from the start, the
person's moves as they were, up to the person's previous decision.

Input is read a line at a time from any stream, output goes to a Rich console: a test scripts a
whole match by handing over both.  On a terminal the line is read with ``input()`` (line
editing); from a pipe or file each answer read is echoed after its prompt, so that what is
printed reads as the session it was.

The record (``solver.records``' JSON lines, one object a finished deal) is written after every
deal, so that quitting, the end of input or Ctrl-C leaves it whole.  Ending: the match played
out, ``quit`` or the end of input: status 0; Ctrl-C: ``allfives: interrupted; the record is in
FILE`` on standard error, status 130 (SIGTERM: ``terminated``, 143).
"""

from __future__ import annotations

import random
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

import typer
from rich.text import Text

from solver.analysis import CardPlayed, judge_card, judge_for_match, unjudged
from solver.cards import card_str, rank_of
from solver.deal import Position
from solver.errors import AllFivesError, EngineMissing, counted, lower, quoted, shown_path
from solver.game import DealLog, Match, MatchState
from solver.players import Player, decide, within_reach
from solver.registry import PlayerSpec, player_spec
from solver.records import match_records, records_text
from solver.scoring import score_position
from solver.tricks import parse_seat, seat_names, side_name, side_of

from .answers import AnswerError, ask_line, choices, is_interactive, read_answer, reason
from .errors import option, say_stopped, stop_status, unwritten
from .faces import BAD, GOOD, KEEP, QUIET, game_name, hanging, rules_words, spelled_here
from .inputs import STDIN, is_standard_output, named, read_rules
from .recordfile import PlayRecord, check_target, first_free
from .table import choices_line, deal_line, deal_over_line, score_lines, scores_text, \
    seat_text, table_screen, what_happened, win_verb

if TYPE_CHECKING:
    from rich.console import Console

#: The limit on each solve of the analysis after a deal, so that a long deal cannot hang it.
ANALYSIS_NODES = 5_000_000
#: The deals of the unseen cards behind ``hint`` (None: the Monte Carlo player's default).
HINT_WORLDS: int | None = None
#: Engine nodes a hint may search in all: a quarter of ``allfives advise``'s, so that a hint on
#: the deep hands after a run comes back in some 2 s, not 8 (four players, 9 cards); on 6-card
#: hands it is the same advice.  A node limit, so that a hint is the same on any machine.
HINT_NODES = 25_000_000

#: What ``help`` shows: paragraphs, each broken to the console's width when it is printed.
HELP = (
    "Type a card as deal files spell it (TH, th, 10h, T♥), a rank or suit alone when it picks "
    "one legal card (T, k, h), or the card's number in the list (a digit is always the "
    "number: type 6h for the Six of hearts); Enter plays a lone legal card. Calls: stand, beg, "
    "take-one (or give one), run, or their first letter.",
    "Commands (whole words): hint (what each choice is worth from what you can see), undo "
    "(back to your previous decision), score (the match score), help, quit or exit (save "
    "the record, stop).",
    "Ctrl-D stops as quit does; Ctrl-C stops too, with status 130.",
)
#: What ``help`` says at the pause between deals.
PAUSE_HELP = (
    "Enter goes on to the next deal. Commands (whole words): undo (back to your last choice, "
    "where more than one card or call was legal), score (the match score and this deal's points), help, quit or "
    "exit (save the record, stop).",
    HELP[-1],
)


class Undo(Exception):
    """The person asked to go back to the previous decision."""


class Stop(Exception):
    """The person quit, or the input ended."""


@dataclass(frozen=True)
class Setup:
    """What is fixed for the match: the table, the rules, the person's seat, the bots' specs
    (None at the person's seat), the seed and where the record goes."""

    match: Match
    seat: int
    specs: tuple[PlayerSpec | None, ...]
    seed: int
    record: PlayRecord

    def bots(self) -> list[Player | None]:
        """Fresh bots, each seeded from the match's seed and its seat."""
        names = self.match.seats
        return [None if spec is None else spec.make(seed=f"{self.seed}/{names[seat]}")
                for seat, spec in enumerate(self.specs)]

    def names(self) -> dict[str, str]:
        return {name: "you" if spec is None else str(spec)
                for name, spec in zip(self.match.seats, self.specs)}


def make_setup(players: int, seat: str | None, opponents: list[str] | None, preset: str,
               target: int | None, seed: int | None, record: str | None) -> Setup:
    """The match the options describe; a bad option is an ``AllFivesError`` naming it."""
    match = Match(players, read_rules(preset, target))
    with option("--seat"):
        me = parse_seat(seat, players) if seat is not None else seat_names(players).index("S")
    others = [s for k in range(1, players) for s in [(me + k) % players]]
    given = opponents or ["heuristic"]
    if len(given) not in (1, len(others)):
        if len(others) == 1:
            raise AllFivesError(f"--opponents: give one player, for the one bot, not "
                                f"{len(given)}")
        raise AllFivesError(f"--opponents: give one player for every bot, or {len(others)} "
                            f"(one a seat from your left), not {len(given)}")
    specs: list[PlayerSpec | None] = [None] * players
    for k, s in enumerate(others):
        with option("--opponents"):
            specs[s] = spec = player_spec(given[k if len(given) > 1 else 0])
            # a bad option is found now, not at its first move
            spec.make(seed=0, players=players)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    if record is not None and (named(record, "--record") == STDIN or is_standard_output(record)):
        # (standard output is the table's, as it is match's report)
        raise AllFivesError(f"--record: {quoted(record)} names no file of its own (standard "
                            f"output is the game's: give the record a file)")
    path = Path(named(record, "--record")) if record is not None else first_free(seed)
    try:
        if path.is_dir():
            raise AllFivesError(f"--record: {path} is a folder, not a file")
        if not path.absolute().parent.is_dir():
            raise AllFivesError(f"--record: no folder {path.parent} to write {path.name} in")
    except OSError as error:    # (a name too long to ask of: named, as match names it)
        raise AllFivesError(f"--record: {shown_path(str(path))}: {error.strerror}") from None
    check_target(path)
    _check_writable(path, record is not None)
    kept = PlayRecord(path, record is not None, seed)
    kept.hold()
    return Setup(match, me, tuple(specs), seed, kept)


def _check_writable(path: Path, named: bool) -> None:
    """Refuse a record that cannot be written before the first deal, not after it: the file is
    opened to append, or one that was not there made and taken away again (only if this run
    made it: another session's, made meanwhile, stays).  (A link to no file was refused
    already, by ``check_target``; a loop of links fails to open, and says so.)"""
    try:
        if path.exists() or path.is_symlink():
            with open(path, "a", encoding="utf-8"):
                pass
        else:
            with open(path, "x", encoding="utf-8"):
                pass
            path.unlink()
    except FileExistsError:     # (made by another run meanwhile: the folder takes files)
        pass
    except OSError as error:
        why = error.strerror or str(error)
        raise AllFivesError(f"--record: {shown_path(str(path))}: {why}" if named else
                            f"the record {path} cannot be written here: {why} (name another "
                            f"with --record FILE)") from None


def cut_words(cuts, players: int, pretty: bool) -> str:
    """The cuts for the first deal, round by round: ``N 4♥, E 8♥, S 8♠; E and S tie and cut
    again: E 9♣, S A♥`` (``solver.game.cut_for_deal``: the seats tied for the highest rank cut
    again)."""
    names = seat_names(players)
    rounds, left, cutting = [], list(cuts), players
    while left:
        this, left = left[:cutting], left[cutting:]
        rounds.append(this)
        top = max(rank_of(card) for _, card in this)
        cutting = sum(1 for _, card in this if rank_of(card) == top)
    words = ""
    for number, this in enumerate(rounds):
        if number:
            tied = [names[seat] for seat, _ in this]
            words += f"; {', '.join(tied[:-1])} and {tied[-1]} tie and cut again: "
        words += ", ".join(f"{names[seat]} {card_str(card, pretty)}" for seat, card in this)
    return words


class Session:
    """One match at the table: the state, the bots, every action taken, and the screen."""

    def __init__(self, setup: Setup, console: Console, stream: TextIO,
                 interactive: bool = False, pretty: bool = True,
                 status: Console | None = None) -> None:
        self.setup = setup
        self.console = console
        self.status = status
        self.stream = stream
        self.interactive = interactive
        self.pretty = pretty
        self.players = setup.match.players
        self.me = setup.seat
        self.target = setup.match.rules.target
        self.finish = setup.match.rules.finish
        self.saved = False
        self.history: list[tuple[int, int]] = []
        self.told = 0  # the deal whose start was told
        self._start()

    def busy(self, what: str):
        """A live line on the terminal (``status``, standard error) while something slow runs:
        ``N is thinking: 3 s``, shown after a second and gone when it ends."""
        if self.status is None:
            return nullcontext()
        from .status import searching

        return searching(self.status, what, None)

    @property
    def width(self) -> int:
        """The console's width now (a terminal's can change between screens)."""
        return self.console.width

    # ---- the match ------------------------------------------------------------------------------

    def _start(self) -> None:
        self.state: MatchState = self.setup.match.new_initial_state(seed=self.setup.seed)
        self.bots = self.setup.bots()
        self.last_play: Position | None = None

    def run(self) -> None:
        """Play to the end of the match, or until the person stops (``Stop``)."""
        self.console.print(hanging(self.opening()), crop=False)
        while not self.state.is_terminal():
            if self.state.deal_number != self.told:
                self.told = self.state.deal_number
                self.console.print(deal_line(self.state, self.pretty), crop=False)
            seat = self.state.current_player()
            if seat == self.me:
                try:
                    action = self.decision()
                except Undo:
                    self.undo()
                    continue
            else:
                with self.busy(f"{seat_names(self.players)[seat]} is thinking"):
                    action = decide(cast(Player, self.bots[seat]), self.state)  # (a bot's seat)
            try:
                self.apply(seat, action, show=True)
            except Undo:        # (asked between deals)
                self.undo()
        # (the record was written as the last deal ended)
        self.say_last(self.result(), f"The record is in {self.setup.record}.")

    def apply(self, seat: int, action: int, show: bool) -> None:
        """Take ``action`` for ``seat``; with ``show``, say what happened at the table."""
        deals = len(self.state.deals)
        lines, after = what_happened(self.state, action, self.pretty, self.me)
        if after is not None:
            self.last_play = after
        self.history.append((seat, action))
        if not show:
            return
        for line in lines:
            self.console.print(hanging(line), crop=False)
        if len(self.state.deals) > deals:
            self.deal_over()

    def deal_over(self) -> None:
        """A deal has ended: its points, the analysis of the person's cards, the record."""
        log = self.state.deals[-1]
        n = self.players
        if log.thrown_in:
            self.console.print(Text(f"The cards are thrown in; {seat_names(n)[log.dealer]} "
                                    f"deals again.", style="bold"), crop=False)
            self.save()
            return
        self.console.print(hanging(deal_over_line(log, n)), crop=False)
        if log.cards_played and self.last_play is not None:
            self.console.print(self.analysis(self.last_play, not log.winners), crop=False)
        self.last_play = None
        self.save()
        if self.interactive and not self.state.is_terminal():
            self.next_deal()

    def next_deal(self) -> None:
        """On a terminal, a pause before the next deal, whose screen would push this one's
        result off a small one: Enter goes on, quit stops, and undo, score and help do what
        they do at a decision."""
        while True:
            _, word = self.ask_word("Enter for the next deal: ")
            if not word:
                return
            if not self.command(word, self.state.observation(self.me), self.state.deals[-1]):
                self.console.print("  Press Enter for the next deal; or undo, score, help, "
                                   "quit.")

    def command(self, word: str, obs, done: DealLog | None = None) -> bool:
        """Whether ``word`` is one of the commands undo (``Undo`` raised), help or score, and
        if so, do it; ``done``: the deal just over, at the pause before the next (``score``
        shows its points)."""
        if word == "undo":
            if not any(seat == self.me for seat, _ in self.history):
                self.console.print("  Nothing to undo: this is your first decision.")
                return True
            raise Undo()
        if word in ("help", "?"):
            for paragraph in HELP if done is None else PAUSE_HELP:
                self.console.print(spelled_here(paragraph, self.pretty))
            return True
        if word == "score":
            self.console.print(score_lines(obs, self.target, self.finish, self.pretty,
                                           self.width, done), crop=False)
            return True
        return False

    def analysis(self, position: Position, whole: bool):
        """The cost of each of the person's cards in the deal just played, as ``analyze``
        judges them (each solve limited to ``ANALYSIS_NODES`` nodes), and what the play gave
        the side against what it could be sure of (when the deal was played out ``whole``: no
        side pegged out)."""
        from rich.console import Group

        from .analyzing import plays_table

        try:
            from solver.search import solve
        except EngineMissing:
            return Text("(no analysis: the compiled engine is not installed)", style=QUIET)
        with self.busy("judging your cards"):
            plays = []
            if within_reach(position.deal.position()):
                plays = judge_cards(position, self.me, solve, ANALYSIS_NODES, for_match=True)
            by_match = decided_by_the_match(plays)
            if not by_match:
                plays = judge_cards(position, self.me, solve, ANALYSIS_NODES)
        if not plays:
            return Text("You played no card this deal.", style=QUIET)
        away = sum(p.least_cost or 0 for p in plays)
        mistakes = sum(1 for p in plays if p.mistake)
        words = Text("Your cards, judged open-hand", style="bold")
        if by_match:
            words.append(" by the match, its target in reach", style="bold")
            # (the key on a line of its own, so that no value is parted from its meaning)
            summary = Text("before, after: the match as your side could play it before and "
                           "after the card:\n1 sure to win it, -1 sure to lose it, 0 neither\n",
                           style=QUIET)
        else:
            summary = Text("before, after: the points your side could be sure of before and "
                           "after the card\n", style=QUIET)
        against = "against the best card at its turn" if mistakes == 1 else \
            "each against the best card at its turn"
        if mistakes and by_match:
            summary.append(f"Your {counted(mistakes, 'mistake')} made the match worse for your "
                           f"side, {against}.", style=BAD)
        elif mistakes:
            least = "at least " if any(p.in_part for p in plays) else ""
            summary.append(f"Your {counted(mistakes, 'mistake')} cost {least}"
                           f"{counted(away, 'point')}, {against}.", style=BAD)
        else:
            summary.append("No mistakes.", style=GOOD)
        first = plays[0]
        if position.is_over and first.complete and whole and not by_match:
            # the costs add up turn by turn: the others' mistakes may give points back
            took = score_position(position).totals()[first.side]
            summary.append(f" Your side took {took} in the play; from your first card it could be "
                           f"sure of {first.before}.", style=QUIET)
        left = unjudged(plays)
        if left:
            summary.append(f" {counted(left, 'card')} not judged: the search "
                           f"stopped at its limit (a..b: a value somewhere between a and b).",
                           style=QUIET)
        elif any(p.in_part for p in plays):
            summary.append(" The search stopped at its limit (a..b: a value somewhere between "
                           "a and b).", style=QUIET)
        return Group(hanging(words), plays_table(position, plays, self.pretty), hanging(summary))

    # ---- the person's decision ------------------------------------------------------------------

    def decision(self) -> int:
        obs = self.state.observation(self.me)
        self.console.print(table_screen(obs, self.target, self.finish, self.pretty,
                                        self.width), crop=False)
        while True:
            self.console.print(self.choices(obs), crop=False)
            answer, word = self.ask_word("Your call: " if obs.phase != "play" else "Your card: ")
            if self.command(word, obs):
                continue
            if word == "hint":
                self.console.print(self.hint(obs), crop=False)
                continue
            try:
                return read_answer(answer, obs, self.pretty)
            except AnswerError as error:
                self.console.print(reason(error), crop=False)

    def choices(self, obs) -> Text:
        words = "Stand or beg" if obs.phase == "elder" else \
            ("Take one or run" if len(obs.legal_actions) > 1 else "Take one") \
            if obs.phase == "dealer" else "Your legal cards"
        return choices_line(obs, self.pretty, self.width, first=Text(f"{words}: ", style="bold"))

    def ask(self, prompt: str) -> str | None:
        """One line of input, without its newline; None at the end of input."""
        return ask_line(prompt, self.console, self.stream, self.interactive)

    def ask_word(self, prompt: str) -> tuple[str, str]:
        """The answer to ``prompt`` and its word (stripped, in lower case); the end of input,
        quit or exit stop the match (``Stop``)."""
        answer = self.ask(prompt)
        if answer is None:
            raise Stop("eof")
        word = lower(answer.strip())
        if word in ("quit", "exit"):
            raise Stop("quit")
        return answer, word

    def hint(self, obs) -> Text:
        """What each legal choice is worth from what the person can see: the Monte Carlo
        player's advice (``allfives advise``), over deals of the cards the person has not
        seen, seeded by the match's seed and the decision, so that a hint is the same when the
        match is played again."""
        from .advising import advice_lines, advice_for

        with self.busy("working out the hint"):
            advice = advice_for(obs, HINT_WORLDS, f"{self.setup.seed}/hint/{len(self.history)}",
                                node_limit=HINT_NODES)
        return advice_lines(advice, obs, choices(obs), self.pretty, self.width)

    def choices_made(self) -> list[int]:
        """The steps of the history at which the person chose among two or more legal actions
        (where one alone was legal, its play was no choice to go back to); all the person's
        steps where none was such."""
        state = self.setup.match.new_initial_state(seed=self.setup.seed)
        mine, chosen = [], []
        for step, (seat, action) in enumerate(self.history):
            if seat == self.me:
                mine.append(step)
                if len(state.legal_actions()) > 1:
                    chosen.append(step)
            state.apply_action(action)
        return chosen or mine

    def undo(self) -> None:
        """Back to the person's previous choice (``choices_made``): the match played again from
        the start, with fresh bots, up to it."""
        last = self.choices_made()[-1]
        steps = self.history[:last]
        self.history = []
        self._start()
        # (with Monte Carlo bots, seconds: every move of theirs is worked out again)
        with self.busy("going back: the match played again to your previous decision"):
            for seat, action in steps:
                if seat != self.me:
                    decide(cast(Player, self.bots[seat]), self.state)  # the bot moves on as it did
                self.apply(seat, action, show=False)
        self.told = self.state.deal_number
        self.console.print(Text("Back to your previous decision.", style="bold"))

    # ---- the start and the end ------------------------------------------------------------------

    def opening(self) -> Text:
        setup = self.setup
        n = self.players
        preset = setup.match.rules.preset_name
        text = Text(f"{game_name(preset)}, {n} players, "
                    f"rules {rules_words(setup.match.rules, target=False)}, "
                    f"{self.target} to win; seed{KEEP}{setup.seed}.", style="bold")
        for seat, spec in enumerate(setup.specs):
            text.append("\n  ")
            text.append_text(seat_text(n, seat))
            text.append("  you" if spec is None else f"  {spec}")
        if n == 4:
            text.append(f"\n  partners: {side_name(0, 4)} against {side_name(1, 4)}")
        if self.state.cuts:
            text.append(f"\nCut for deal: {cut_words(self.state.cuts, n, self.pretty)}; "
                        f"{seat_names(n)[self.state.dealer]} deals first.")
        text.append("\nType help for how to play, quit to stop.", style=QUIET)
        return text

    def result(self) -> Text:
        state = self.state
        n = self.players
        mine = side_of(self.me, n)
        won = " and ".join(side_name(s, n) for s in state.winners)
        text = Text()
        if mine in state.winners:
            text.append("You win the match" if len(state.winners) == 1 else
                        "You share the match", style=f"bold {GOOD}")
        else:
            text.append(f"{won} {win_verb(state.winners, n)} the match", style=f"bold {BAD}")
        text.append(f", {scores_text(n, state.score)}")
        if state.double:
            text.append(" (a double game)")
        return text.append(".")

    def save(self) -> bool:
        """Write the record of every finished deal; False if none has finished."""
        if not self.state.deals:
            return False
        text = records_text(match_records(self.state, str(self.setup.seed), self.setup.names()))
        try:
            self.setup.record.write(text)
        except OSError as error:  # a write's error (a full disk) names no file: name it
            raise unwritten(error, str(self.setup.record)) from None
        self.saved = True
        return True

    def say_last(self, words: Text | str, record: str | None = None) -> None:
        """The last words, broken between words to fit the console, and the sentence naming
        the record after them: on the same line when it fits, else on a line of its own and
        never broken, so that the file's name can be copied whole."""
        text = Text(words) if isinstance(words, str) else words
        if record is None:
            self.console.print(hanging(text))
        elif text.cell_len + 1 + len(record) <= self.width:
            self.console.print(hanging(text + Text(" " + record)))
        else:       # (indented as a wrapped line is, so that it is not read as a new one)
            self.console.print(hanging(text))
            self.console.print("  " + record, soft_wrap=True)

    def where(self) -> str:
        """Where the record is, as the last line says it (the record of every finished deal is
        written first)."""
        return " ".join(filter(None, self.record_words()))

    def record_words(self) -> tuple[str, str | None]:
        """``where`` in two: what there is to say, and the words naming the record's file (None
        while no deal is over; the file written before an ``undo`` took the table back into the
        first deal is named as such)."""
        if self.save():
            return "", f"the record is in {self.setup.record}"
        if self.saved:
            return ("no deal is over since your undo;",
                    f"the record written before it is in {self.setup.record}")
        return "no deal is over yet, so there is no record", None


def judge_cards(position: Position, seat: int, solve, node_limit: int,
                for_match: bool = False) -> list[CardPlayed]:
    """The cards ``seat`` played in ``position``, judged as ``analyze_play`` judges every card:
    the position before the card solved for its side, the card's value against the best; or,
    ``for_match``, as ``judge_for_match`` judges it (1, 0 or -1: the match).  The deal is
    judged as it is alone (``afresh``), not after an earlier deal, or this one before an undo."""
    from .analyzing import afresh

    deal = position.deal
    solve = afresh(solve)
    out = []
    for index, card in enumerate(position.play):
        before = deal.position(position.play[:index])
        if before.to_move != seat:
            continue
        if for_match:
            solutions = [solve(before, side=side, objective="win", line=False,
                               node_limit=node_limit) for side in range(deal.sides)]
            out.append(judge_for_match(before, index, card, solutions))
        else:
            solution = solve(before, side=deal.side_of(seat), objective="points", line=False,
                             node_limit=node_limit)
            out.append(judge_card(before, index, card, solution))
    return out


def decided_by_the_match(plays: list[CardPlayed]) -> bool:
    """Whether cards judged by the match say anything: some card or its best could settle it."""
    return any(p.before or p.after for p in plays)


def play_command(players: int, seat: str | None, opponents: list[str] | None, preset: str,
                 target: int | None, seed: int | None, record: str | None,
                 color: bool | None, stream: TextIO | None = None,
                 console: Console | None = None) -> None:
    """Play a match at the console; ``stream`` (default standard input) gives the answers."""
    from .console import can_show_suits, make_console

    setup = make_setup(players, seat, opponents, preset, target, seed, record)
    if console is None:
        console = make_console(color)
    if stream is None:
        stream = sys.stdin
    interactive = is_interactive(stream)
    status = make_console(color, stderr=True) if interactive else None
    session = Session(setup, console, stream, interactive, can_show_suits(console), status)
    try:
        _play(session, interactive, console)
    finally:
        setup.record.close()


def _play(session: Session, interactive: bool, console: Console) -> None:
    """The session played to its end: the record's last words said, or Ctrl-C's."""
    try:
        session.run()
    except Stop:
        words, record = session.record_words()
        deals = len(session.state.deals)
        # an undo back into the first deal leaves the record written before it
        when = ("back in its first deal" if record else "in deal 1") if not deals \
            else f"after {counted(deals, 'deal')}"
        left = " ".join(filter(None, [f"You left the match {when};", words]))
        session.say_last(left if record else f"{left}.", f"{record}." if record else None)
    except KeyboardInterrupt as stop:
        if interactive:
            console.print()  # off the prompt's line
        try:
            where = session.where()
        except OSError as error:
            where = f"the record could not be written ({error})"
        say_stopped(stop, f"; {where}")
        raise typer.Exit(stop_status(stop))


__all__ = ["play_command", "Session", "Setup", "make_setup", "judge_cards"]
