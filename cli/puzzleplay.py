"""``allfives puzzle play``: a person solves a puzzle at the console, a line at a time.

The person plays every card of the solver's side (both partners with four players); the program
defends with the toughest reply and plays the person's forced cards itself.  A card that misses
the target is answered with its refutation (the defence's line that keeps the side under it,
and the points that line ends with) and the person tries again from the same place.  ``hint``
names the idea first (the puzzle's theme) and then the suit of the winning card; ``solution``
shows the line and ends the puzzle.  The puzzle is solved when the person has played through
the last real choice of its line; at the end the tries used are counted.

Input is any line stream, output a Rich console, as in ``allfives play``: a test scripts a whole
solve by handing over both.  On a terminal the line is read with ``input()``; from a pipe each
answer is echoed after its prompt, so that the output reads as the session did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from rich.text import Text

from solver.cards import SUIT_NAMES, CardError, card_str, parse_card, rank_of, suit_of
from solver.deal import Position
from solver.errors import counted, lower

from .answers import AnswerError, ask_line, read_answer, reason
from .faces import BAD, GOOD, KEEP, QUIET, card_face, hanging, spelled_here
from .sheet import about, facts_of, goal_reached, heading, seat_word
from .table import choices_line

if TYPE_CHECKING:
    from rich.console import Console

    from solver.puzzles import Puzzle

#: One paragraph, broken to the screen's width as it is printed.
HELP = ("Type a card of the side you play for as deal files spell it (TH, th, 10h, T♥), a "
        "rank or suit alone when it picks one legal card, or its number in the list (a digit "
        "is always the number: type 6h for the Six of hearts). "
        "Commands: hint (the idea, then the suit to play, or high or low), goal (the goal and "
        "where the deal stood at the start, again), solution (show the line and stop), help, "
        "quit. Forced cards are played for you; a wrong card shows the "
        "defence that beats it, and you try again.")


#: How a line of cards too long for the screen goes on, on the next line.
CONTINUED = "    "

#: What ``hint`` says first for each theme: the idea, without the card.
IDEAS = {
    "save-the-ten": "keep your Ten of trumps out of the defence's reach",
    "catch-the-five": "the defence's Five of trumps can be caught",
    "jack-hunt": "the defence's Jack of trumps can be caught",
    "draw-trumps": "draw the defence's trumps before you cash your winners",
    "ruff-the-ten": "trump the trick the defence's Ten falls on, even holding the suit",
    "duck": "let the defence win a trick you could take",
    "sacrifice": "give a little to take more",
    "game-by-a-pip": "Game is won or lost by a few pips: count them",
    "endplay": "put a defender on lead, so that it must lead into you",
    "peg-out": "count to the target: win the match in this deal",
}


@dataclass
class Result:
    """How a solve went."""

    solved: bool = False
    wrong: int = 0  # cards tried that missed the target
    hints: int = 0
    shown: bool = False  # the person asked for the solution
    quit: bool = False


class PuzzleSession:
    """One puzzle at the console."""

    def __init__(self, puzzle: Puzzle, console: Console, stream: TextIO, solver=None,
                 interactive: bool = False, pretty: bool = True, name: str = "",
                 themes: dict[str, str] | None = None, seed: str = "", titled: bool = True
                 ) -> None:
        from solver.puzzles import Oracle

        self.puzzle = puzzle
        self.console = console
        self.stream = stream
        self.interactive = interactive
        self.pretty = pretty
        self.name = name
        self.themes = themes or {}
        #: the seed the title line names, that --seed takes to make the puzzle again (one made
        #: on the spot)
        self.seed = seed
        #: whether the title line names the puzzle (its title may name the idea)
        self.titled = titled
        #: the turn (cards played) at which the puzzle's idea was given as a hint: at a later
        #: turn it is not given (and counted) again
        self.idea_turn: int | None = None
        self.oracle = Oracle(puzzle.side, puzzle.objective, puzzle.target,
                             *([solver] if solver is not None else []))
        self.deal = puzzle.position.deal
        self.result = Result()
        #: the solver turns of the line still to play (the puzzle is solved when none is left)
        self.turns_left = len(puzzle.solver_turns())

    # ---- the loop ---------------------------------------------------------------------------

    def run(self) -> Result:
        facts = self.facts = facts_of(self.puzzle, self.name, titled=self.titled)
        # (each line broken with a hanging indent, so that its parts are not read as lines)
        self.console.print(hanging(Text(self.title_line(facts), style="bold")), crop=False)
        self.goal()
        ours = [seat_word(self.deal.seats[s]) for s in self.deal.side_seats(self.puzzle.side)]
        self.console.print(hanging(Text(f"You play {' and '.join(ours)}; every hand is open "
                                        f"and the program defends. Type help for help.")),
                           crop=False)
        position = self.position = self.puzzle.position
        card: int | None
        while self.turns_left > 0 and not position.is_over:
            if self.oracle.is_solver_turn(position):
                classes = self.oracle.classes(position)
                if len(classes) == 1:
                    card = classes[0][0]
                    self.say_card(position, card, "forced")
                else:
                    self.show(position)  # the table before every real choice
                    card = self.decision(position)
                    if card is None:
                        break
                    self.say_card(position, card, "you")
                self.turns_left -= 1
            else:
                card = self.oracle.toughest(position)
                self.say_card(position, card, "")
            position = self.position = self.play(position, card)
        if self.turns_left <= 0:
            self.result.solved = not self.result.shown
        self.finish(position)
        return self.result

    def goal(self) -> None:
        """The goal, and where the deal stood at the start (``goal`` shows them again, where a
        short screen has scrolled them away)."""
        self.console.print(hanging(Text(self.facts.goal)), crop=False)
        for line in self.facts.situation:
            self.console.print(hanging(Text(line)), crop=False)

    def play(self, position: Position, card: int) -> Position:
        after = position.after(card)
        if len(after.completed) > len(position.completed):
            trick = after.completed[-1]
            from solver.scoring import capture_points

            points = capture_points(trick, self.deal)
            assert trick.winner is not None
            words = f"  {self.deal.seats[trick.winner]} wins trick {len(after.completed)}"
            if points:
                words += f" (+{points})"
            self.console.print(hanging(Text(words)), crop=False)
        return after

    def say_card(self, position: Position, card: int, how: str) -> None:
        seat = self.deal.seats[position.to_move]
        text = Text(f"{seat} plays ")
        text.append_text(card_face(card, self.pretty, self.deal.trump))
        if how == "forced":
            text.append("  (forced)", style=QUIET)
        self.console.print(text, crop=False)

    def show(self, position: Position) -> None:
        from .diagram import diagram

        self.console.print(diagram(position, self.pretty), crop=False)

    # ---- one decision -----------------------------------------------------------------------

    def decision(self, position: Position) -> int | None:
        """The card the person plays here: a winning one, after any wrong tries; None if the
        person stops (the solution shown, quit, the end of input)."""
        from solver.puzzles import observation_of

        seat = self.deal.seats[position.to_move]
        obs = observation_of(position, position.to_move)
        hints = 0
        while True:
            self.console.print(choices_line(obs, self.pretty, self.console.width,
                                            first=Text(f"{seat} to play: ", style="bold")),
                               crop=False)
            answer = self.ask(f"{seat}'s card: ")
            if answer is None:
                self.result.quit = True
                return None
            word = lower(answer.strip())
            if word in ("quit", "exit"):
                self.result.quit = True
                return None
            if word in ("help", "?"):
                self.console.print(spelled_here(HELP, self.pretty), crop=False)
                continue
            if word == "goal":
                self.goal()
                continue
            if word == "hint":
                given = self.hints(position)
                if hints < len(given):
                    self.console.print(hanging(given[hints]), crop=False)
                    if hints == 0 and len(given) > 1 and self.idea_turn is None:
                        self.idea_turn = len(position.play)
                    hints += 1
                    self.result.hints += 1
                else:   # not counted: there is nothing more to give
                    last = given[-1].plain.strip()
                    self.console.print(hanging(Text(
                        f"  No more hints here: {last[0].lower()}{last[1:]} Type solution to "
                        f"see the line.")), crop=False)
                continue
            if word == "solution":
                self.result.shown = True
                self.console.print(self.solution(position), crop=False)
                return None
            try:
                card = read_answer(answer, obs, self.pretty)
            except AnswerError as error:
                self.console.print(reason(self.partners(answer, position) or error), crop=False)
                continue
            if any(card in group for group in self.oracle.winning(position)):
                return card
            self.result.wrong += 1
            self.console.print(hanging(self.refuted(position, card)), crop=False)

    def partners(self, answer: str, position: Position) -> AnswerError | None:
        """``A♥ is W's; E is to play``: the card typed is the partner's, not the seat to play's
        (the person plays both hands), where it would read "you do not hold A♥"."""
        try:
            card = parse_card(answer.strip())
        except CardError:
            return None
        seats = self.deal.seats
        for seat in self.deal.side_seats(self.puzzle.side):
            if seat != position.to_move and card in position.hands[seat]:
                return AnswerError(f"{card_str(card, self.pretty)} is {seats[seat]}'s; "
                                   f"{seats[position.to_move]} is to play")
        return None

    def ask(self, prompt: str) -> str | None:
        """One line of input, without its newline; None at the end of input."""
        return ask_line(prompt, self.console, self.stream, self.interactive)

    # ---- what the program says ------------------------------------------------------------

    def refuted(self, position: Position, card: int) -> Text:
        """Why ``card`` fails: the defence's line after it, and what it holds the side to."""
        from solver.puzzles import refutation

        after = position.after(card)
        line, value = refutation(after, self.puzzle.side, self.puzzle.objective,
                                 solver=self.oracle.solver)
        text = Text("  ")
        text.append_text(card_face(card, self.pretty, self.deal.trump))
        objective, target = self.puzzle.objective, self.puzzle.target
        if objective == "win":
            words = " fails: the defence stops the match being won in this deal."
        elif objective == "margin":
            words = f" fails: a margin of {value:+d} at most, short of {target:+d}."
        else:
            words = f" fails: {counted(value, 'point')} at most, short of " \
                    f"{target}."
        text.append(words, style=BAD)
        if line:
            lead = "  The best play after it: "
            text.append("\n" + lead)
            text.append_text(self.line_text(position, (card, *line), column=len(lead)))
        text.append("\n  Try again.", style="bold")
        return text

    def value_words(self, value: int) -> str:
        objective = self.puzzle.objective
        if objective == "win":
            return "the match is won" if value >= 1 else "no win"
        if objective == "margin":
            return f"a margin of {value:+d}"
        return counted(value, "point")

    def line_text(self, position: Position, line, column: int = 0) -> Text:
        """``W 7♠ N 3♠ | S Q♦ ...``: cards with their seats, a bar between tricks; begun at
        ``column``, it goes on to the next line, indented, where the screen ends."""
        width = self.console.width
        text = Text()
        here = position
        for k, card in enumerate(line):
            gap = "" if not k else " | " if not here.current.cards else " "
            piece = Text(f"{self.deal.seats[here.to_move]} ")
            piece.append_text(card_face(card, self.pretty, self.deal.trump))
            here = here.after(card)
            if k and column + len(gap) + piece.cell_len > width:
                text.append("\n" + CONTINUED)
                column = len(CONTINUED)
                gap = gap.lstrip()
            text.append(gap)
            text.append_text(piece)
            column += len(gap) + piece.cell_len
        return text

    def hints(self, position: Position) -> list[Text]:
        """The hints in the order given: the idea (the puzzle's themes), when it has one and it
        has not been given at an earlier turn; then the card, narrowed as far as it is not
        already: the suit of the winning card, or, where every legal card is of that suit, high
        or low, or the cards that miss."""
        ideas = [IDEAS.get(t) or self.themes.get(t, t.replace("-", " "))
                 for t in self.puzzle.themes if t != "long"
                 and self.idea_turn in (None, len(position.play))]
        out = []
        if len(ideas) == 1:
            out.append(Text(f"  The idea: {ideas[0]}."))
        elif ideas:
            out.append(Text("  The ideas:" + "".join(f"\n  - {idea}" for idea in ideas)))
        return out + [self.which_card(position)]

    def which_card(self, position: Position) -> Text:
        """The last hint: ``Play a club.``; with clubs alone to play, ``Play high.``, ``Play
        low.`` or ``Not the K♣ or the 3♣.``"""
        winning = [card for group in self.oracle.winning(position) for card in group]
        legal = position.legal_moves()
        suit = suit_of(winning[0])
        if any(suit_of(card) != suit for card in legal):
            return Text(f"  Play a {SUIT_NAMES[suit][:-1]}.")
        missing = [card for card in legal if card not in winning]
        if not missing:
            return Text("  Any card will do.")
        if min(map(rank_of, winning)) > max(map(rank_of, missing)):
            return Text("  Play high.")
        if max(map(rank_of, winning)) < min(map(rank_of, missing)):
            return Text("  Play low.")
        text = Text("  Not ")
        for k, card in enumerate(missing):
            text.append(", " if 0 < k < len(missing) - 1 else " or " if k else "")
            text.append("the ").append_text(card_face(card, self.pretty, self.deal.trump))
        return text.append(".")

    def solution(self, position: Position) -> Text:
        """The rest of the line from ``position`` (the person's own correct cards kept)."""
        from solver.puzzles import main_line

        line, _ = main_line(position, self.oracle)
        lead = "  The solution from here: "
        text = Text(lead, style="bold")
        text.append_text(self.line_text(position, line, column=len(lead)))
        return text

    def title_line(self, facts) -> str:
        """``004. Throw them in  (4 players · strict · rating 2112 · seed 9)``, a number never
        parted from its word where the line is broken (``hanging``)."""
        seed = f" · seed{KEEP}{self.seed}" if self.seed else ""
        words = about(facts).replace(" players", f"{KEEP}players").replace("rating ",
                                                                          f"rating{KEEP}")
        return f"{heading(facts)}  ({words}{seed})"

    def finish(self, position: Position) -> None:
        result = self.result
        tally = f"{_count(result.wrong, 'wrong card')}, {_count(result.hints, 'hint')}"
        if result.solved:
            value = self.oracle.solve(position).value
            text = Text("Solved", style=f"bold {GOOD}")
            text.append(f": {goal_reached(self.puzzle.objective)} now")
            if self.puzzle.objective != "win":
                text.append(f" ({self.value_words(value)} sure)")
            text.append(".")
        else:
            text = Text("Not solved", style=f"bold {BAD}")
            why = "the solution shown" if result.shown else "stopped"
            text.append(f" ({why}).")
        self.console.print(hanging(text), crop=False)
        self.console.print(f"Tries: {tally}.", crop=False)


def _count(number: int, what: str) -> str:
    return f"{'no' if number == 0 else number} {what}{'' if number == 1 else 's'}"
