"""``allfives play`` on the screen: the table as one seat sees it, and one line for each thing
that happens at it.

Everything here draws from a seat's ``Observation`` (its own hand, the turn-ups, the calls, the
cards played, the points pegged, the score): nothing a player at the table could not see.  The
screen fits 80 columns: a heading, the trumps, the pegboard, this deal's points, the cards each
seat has played, the trick under way and the hand by suit.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from solver.cards import SUIT_NAMES, suit_of
from solver.game import BEG, CALLS, RUN, STAND, TAKE_ONE, Observation
from solver.pegging import Peg
from solver.tricks import seat_names, side_count, side_name, side_of

from .answers import choices
from .diagram import hand_face
from .faces import QUIET, SIDE_STYLES, card_face, cards_face
from .pegboard import strip

#: How a call reads in the line that reports it.
CALL_WORDS = {STAND: "stands", BEG: "begs", TAKE_ONE: "gives one (take-one)", RUN: "runs the cards"}
#: What the end-of-deal points are called.
PEG_WORDS = {"take-one": "take-one", "turn-up jack": "turn-up Jack", "revoke": "revoke",
             "high": "High", "low": "Low", "jack": "Jack", "game": "Game",
             "five": "five-for-five"}


def seat_text(players: int, seat: int, you: int | None = None) -> Text:
    """A seat in its side's colour; the person's seat reads ``S (you)``."""
    name = seat_names(players)[seat]
    text = Text().append(name, style=f"bold {SIDE_STYLES[side_of(seat, players)]}")
    if seat == you:
        text.append(" (you)", style=QUIET)
    return text


def side_text(players: int, side: int) -> Text:
    return Text().append(side_name(side, players), style=f"bold {SIDE_STYLES[side]}")


def peg_words(peg: Peg) -> str:
    """``trick 3``, ``High``, ``take-one``."""
    return PEG_WORDS.get(peg.what, peg.what)


def pegged_this_deal(obs: Observation) -> list[int]:
    totals = [0] * side_count(obs.players)
    for peg in obs.pegs:
        totals[peg.side] += peg.points
    return totals


def scores_text(players: int, score: Sequence[int]) -> str:
    """``N 12, S 20``."""
    return ", ".join(f"{side_name(s, players)} {p}" for s, p in enumerate(score))


def heading(obs: Observation, target: int, finish: str) -> Text:
    n = obs.players
    text = Text().append(f"Deal {obs.deal}", style="bold")
    if obs.best_of > 1:
        text.append(f", game {obs.game} of best of {obs.best_of}")
    text.append(" · you are ")
    text.append_text(seat_text(n, obs.seat))
    if n == 4:
        text.append(f" ({side_name(side_of(obs.seat, n), n)})", style=QUIET)
    text.append(" · ")
    text.append_text(seat_text(n, obs.dealer))
    text.append(" deals · ")
    text.append(f"{target} to win" + (" (first to peg out)" if finish == "peg-out" else
                                     " (counted at hand end)"), style=QUIET)
    return text


def trumps_line(obs: Observation, pretty: bool) -> Text:
    """``Trumps ♥ hearts: turn-up 6♥ (set aside by runs: 4♣ 9♣)``, or before trumps are fixed
    the suit the turn-up proposes."""
    turnup = obs.turnups[-1]
    aside = obs.turnups[:-1]
    trump = obs.trump
    if trump is None:
        text = Text("Turn-up ")
        text.append_text(card_face(turnup, pretty, suit_of(turnup)))
        text.append(f": {SUIT_NAMES[suit_of(turnup)]} proposed for trumps")
    else:
        text = Text("Trumps ", style="bold")
        text.append(f"{SUIT_NAMES[trump]}: turn-up ")
        text.append_text(card_face(turnup, pretty, trump))
    if aside:
        text.append(" (set aside by runs: ")
        text.append_text(cards_face(aside, pretty, trump))
        text.append(")")
    return text


def pegboard_lines(obs: Observation, target: int, pretty: bool) -> Text:
    """One line per side: its score and its strip of holes, this deal's points (``◆``) after
    those pegged before it (``●``)."""
    n = obs.players
    now = pegged_this_deal(obs)
    width = max(len(side_name(s, n)) for s in range(side_count(n)))
    lines = []
    for side, score in enumerate(obs.score):
        label = side_text(n, side)
        label.pad_right(width - len(label))
        label.append(f" {score:>3} ")
        before = max(0, min(score - now[side], target))
        holes = strip(before, max(0, min(score, target)), target, SIDE_STYLES[side], pretty,
                      indent=" " * len(label))
        lines.append(label + holes[len(label):])
    if obs.best_of > 1:
        lines.append(Text(f"Games won: {scores_text(n, obs.games_won)}", style=QUIET))
    return Text("\n").join(lines)


def deal_points_line(obs: Observation) -> Text:
    """``This deal: N 3 (trick 1), S 1 (take-one)``."""
    text = Text("This deal: ", style="bold")
    if not obs.pegs:
        return text.append("nothing pegged yet", style=QUIET)
    parts = [f"{side_name(p.side, obs.players)} {p.points:+d} ({peg_words(p)})" for p in obs.pegs]
    return text.append(", ".join(parts))


def calls_line(obs: Observation) -> Text | None:
    if not obs.calls:
        return None
    text = Text("Calls: ", style="bold")
    parts = [f"{seat_names(obs.players)[s]} {CALLS[a]}" for s, a in obs.calls]
    return text.append(", ".join(parts))


def played_lines(obs: Observation, pretty: bool) -> Text:
    """The cards each seat has played this deal, in order."""
    n = obs.players
    text = Text("Played", style="bold")
    for seat in range(n):
        cards = [c for s, c in obs.play if s == seat]
        text.append("\n  ")
        text.append_text(seat_text(n, seat))
        text.append("  ")
        if cards:
            text.append_text(cards_face(cards, pretty, obs.trump))
        else:
            text.append("—" if pretty else "-", style=QUIET)
    return text


def trick_line(obs: Observation, pretty: bool) -> Text:
    """``Trick 2: N 7♦, E 9♦; you to play``."""
    n = obs.players
    done = len(obs.play) // n
    cards = obs.play[done * n:]
    text = Text(f"Trick {done + 1}: ", style="bold")
    if cards:
        for i, (seat, card) in enumerate(cards):
            if i:
                text.append(", ")
            text.append_text(seat_text(n, seat))
            text.append(" led " if i == 0 else " ")
            text.append_text(card_face(card, pretty, obs.trump))
        text.append("; ")
    if obs.current_player == obs.seat:
        text.append("you to " + ("lead" if not cards else "play"))
    return text


def hand_lines(obs: Observation, pretty: bool) -> Text:
    trump = obs.trump if obs.trump is not None else suit_of(obs.turnups[-1])
    text = Text("Your hand", style="bold")
    if obs.trump is None:
        text.append("  (trumps if nobody begs: the turn-up's suit)", style=QUIET)
    text.append("\n")
    face = hand_face(obs.hand, trump, pretty)
    lines = face.split("\n")
    return text.append_text(Text("\n").join(Text("  ").append_text(line) for line in lines))


def table_screen(obs: Observation, target: int, finish: str, pretty: bool) -> Text:
    """The whole table as the seat of ``obs`` sees it, before its decision."""
    rule = Text("─" * 78 if pretty else "-" * 78, style=QUIET)
    parts = [rule, heading(obs, target, finish), trumps_line(obs, pretty),
             pegboard_lines(obs, target, pretty), deal_points_line(obs)]
    calls = calls_line(obs)
    if calls is not None:
        parts.append(calls)
    if obs.phase == "play":
        parts += [played_lines(obs, pretty), trick_line(obs, pretty)]
    parts.append(hand_lines(obs, pretty))
    return Text("\n").join(parts)


def choices_line(obs: Observation, pretty: bool) -> Text:
    """The legal actions, numbered: ``1 K♠  2 9♥  3 5♥``."""
    text = Text()
    for number, action in enumerate(choices(obs), 1):
        if number > 1:
            text.append("  ")
        text.append(f"{number} ", style=QUIET)
        if action in CALLS:
            text.append(CALLS[action], style="bold")
        else:
            text.append_text(card_face(action, pretty, obs.trump))
    return text


def action_line(players: int, seat: int, action: int, pretty: bool, trump: int | None,
                you: int | None = None) -> Text:
    """``E plays 9♥``, ``E begs``."""
    text = seat_text(players, seat, you)
    if action in CALLS:
        return text.append(f" {CALL_WORDS[action]}")
    text.append(" plays ")
    return text.append_text(card_face(action, pretty, trump))
