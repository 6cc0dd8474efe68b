"""``allfives advise``: the Monte Carlo player's advice to one seat, from what that seat can see.

Two questions are asked of it.  A position whose hidden hands are ``"?"`` / ``-`` (the cards
they played are in the play): which card should the seat to move play?  Six cards and a
turn-up (``--hand``, ``--turnup``): should the elder hand stand or beg, and should the dealer
take one or run?  Either way ``solver.pimc`` deals the unseen cards into worlds that agree with
everything the seat knows and values every choice in each; the answer is each choice's
expected value with its 95% interval and how often it was a best choice, as a table for
people or one JSON object for scripts.  The worlds are drawn from ``--seed``, so the same
command gives the same advice.
"""

from __future__ import annotations

import json as json_module
import math
import textwrap
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Group
from rich.text import Text

from solver.advice import tied, too_few
from solver.calling import WIN_VALUE, near_target
from solver.cards import CardError, is_card, parse_card, parse_hand, sort_cards
from solver.errors import AllFivesError, counted, whole_number, without_controls
from solver.game import CALLS, Observation, action_name
from solver.notation import is_line_form, is_toml_name, parse_line
from solver.pimc import GAME_ASIDE, MAX_WORLDS, PLAYED_OUT, PimcPlayer
from solver.seen import CallError, SeenPosition, call_observation, read_seen
from solver.tricks import SeatError, parse_seat, seat_names, side_count, side_name, side_of

from .faces import GOOD, QUIET, card_face, cards_face, hanging, rules_words, trumps_face
from .fitted import Fitted
from .inputs import ARGUMENT, STDIN, is_file, is_record_text, link_trouble, named, \
    one_of_several, read_rules, read_text, refuse_unknown_first_seat
from .records import file_text
from .report import narrowing_table, table
from .table import pegged_this_deal

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

#: The options that describe a call, which a position describes itself.
CALL_OPTIONS = ("hand", "turnup", "players", "dealer", "score", "rules", "target")
#: Engine nodes a piece of advice may search in all: enough for every world of a 6-card deal
#: many times over; on the deep hands after a run fewer worlds are valued (a node limit, not a
#: time limit, so that the same command gives the same advice on any machine).
ADVICE_NODES = 100_000_000
PHASE_WORDS = {"elder": "stand or beg", "dealer": "take one or run", "play": "card to play"}


# ---- what the seat knows ------------------------------------------------------------------------

def read_position(name: str) -> tuple[str, SeenPosition]:
    """The position an argument names, with its name: a deal file, a file holding one
    one-line position, ``-`` for standard input, or a one-line position itself."""
    source = "<stdin>" if named(name, "POSITION") == STDIN else name
    # what is there (a file, a pipe, a folder, to be refused as one) is read
    if "\n" not in name and is_line_form(name) and not is_file(name):
        return ARGUMENT, SeenPosition.of(parse_line(name.strip(), ARGUMENT, hidden=True))
    picked = one_of_several(name, SeenPosition.of, hidden=True, records=False)   # FILE#N
    if picked:
        return picked[0]
    if name != STDIN and not is_file(name) and not is_toml_name(name):
        trouble = link_trouble(name)
        if trouble:
            raise AllFivesError(f"{name}: {trouble}")
        refuse_unknown_first_seat(name, name)
        raise AllFivesError(f"{name}: no such file, and not a one-line position "
                            f"(\"N:AK5.9.32.- - dealer=S trump=H\")")
    text = read_text(name)
    if is_record_text(text):
        raise AllFivesError(f"{source}: a game record, not a position (a deal file or a "
                            f"one-line position); 'allfives analyze' judges a record's play")
    return source, read_seen(text, source, True if is_toml_name(name) else None)


def position_observation(name: str, seat: str | None) -> tuple[str, SeenPosition, Observation]:
    """The position named, and the observation of the seat to move (``--seat`` if given must
    be it)."""
    where, seen = read_position(name)
    try:
        chosen = seen.advised_seat(seat)
    except SeatError as error:      # (the seat given is none at this table)
        raise AllFivesError(f"--seat: {error}") from None
    return where, seen, seen.observation(chosen)


def parse_score(text: str) -> tuple[int, ...]:
    points = []
    for token in text.split(","):
        try:
            points.append(whole_number(token))
        except ValueError:
            raise AllFivesError(f"--score: expected whole numbers separated by commas "
                                f"(52,58), not {token.strip()!r}") from None
    return tuple(points)


def call_observation_of(hand: str | None, turnup: str | None, seat: str | None,
                        players: int, dealer: str | None, score: str | None, preset: str,
                        target: int | None, seed: int) -> Observation:
    """The observation of a seat about to call, from the options."""
    if hand is None:
        raise AllFivesError("--hand: a call is advised on a hand: give --hand and --turnup, "
                            "or a POSITION")
    if turnup is None:
        raise AllFivesError("--turnup: a call is advised on the turn-up too: give --turnup")
    try:
        cards = parse_hand(hand)
    except CardError as error:
        raise AllFivesError(f"--hand: {error}") from None
    try:
        up = parse_card(turnup)
    except CardError as error:
        raise AllFivesError(f"--turnup: {error}") from None
    rules = read_rules(preset, target)
    try:
        dealt = parse_seat(dealer, players) if dealer is not None else None
    except AllFivesError as error:
        raise AllFivesError(f"--dealer: {error}") from None
    try:
        me = parse_seat(seat, players) if seat is not None else None
    except AllFivesError as error:
        raise AllFivesError(f"--seat: {error}") from None
    if dealt is None:
        # the seat advised is the elder hand unless the dealer is named: the dealer sits on
        # its right; with neither, the last seat deals, as in deal files
        dealt = (me - 1) % players if me is not None else players - 1
    if me is None:
        me = (dealt + 1) % players
    try:
        return call_observation(cards, up, me, players, dealt, rules,
                                parse_score(score) if score is not None else None, seed)
    except CallError as error:
        raise AllFivesError(f"--{error.argument}: {error}") from None


# ---- the advice ------------------------------------------------------------------------------------

def advice_for(observation: Observation, worlds: int | None, seed: int | str,
               seen: SeenPosition | None = None, node_limit: int = ADVICE_NODES):
    """The Monte Carlo player's advice for the observation's seat, from ``worlds`` worlds
    (the player's default when None) drawn from ``seed``, each deal that fits as likely as
    any other but for what the calls say (no inference from the cards played: that models
    how the other players choose, and is the player's own).  With ``seen``, the position the
    observation is of: hands shown other than the seat's own stay as they are in every world
    (an observation holds only its seat's hand)."""
    from solver.sampling import world_position

    # every deal that fits counts alike (the calls' evidence apart): the player's own play
    # inference, a model of how the others choose their cards, is left to its play
    # (every world when no more fit than are asked for, up to the most a decision may ask)
    options: dict[str, Any] = {"seed": seed, "time_limit": None, "node_limit": node_limit,
                               "infer": False, "exact_limit": MAX_WORLDS}
    if worlds is not None:
        options["worlds"] = options["call_worlds"] = worlds
    player = PimcPlayer(**options)
    if seen is None or not seen.shown_others(observation.seat):
        return player.advise(observation)
    drawn = seen.worlds(observation.seat, player.worlds_for(observation.players), player.rng,
                        player.exact_limit, player.bidding)
    positions = [world_position(observation, world) for world in drawn]
    return player.advise_positions(observation, positions, [w.weight for w in drawn],
                                   drawn.exact)


def is_win(advice) -> bool:
    return advice.objective == "win"


def counts_a_lost_match(advice, observation: Observation) -> bool:
    """A call valued by points near the target, where a deal that loses the match counts as
    ``-WIN_VALUE`` (``solver.calling.advise_rollout``): the notes under the values say so."""
    return advice.phase != "play" and not is_win(advice) and near_target(observation)


def value_text(advice, value: float, signed: bool = True) -> str:
    """A mean or a bound as the table writes it: points to two decimals (signed for a
    margin), a chance of winning as a percentage."""
    if math.isnan(value):
        return "?"
    if is_win(advice):      # a chance: the interval's ends are kept to 0 .. 100%
        return percent(value)
    if advice.objective == "margin" and signed:
        return f"{value:+.2f}"
    return f"{value:.2f}"


#: How near 0 or 1 a share worked out in floating point is all or none.
SURE = 1e-9


def percent(share: float) -> str:
    """A share as a whole percentage, kept to 0 .. 100%; only all is 100% and only none 0%
    (a share of 99.87% is >99%), but for the last bits of floating point."""
    share = min(1.0, max(0.0, share))
    shown = f"{100 * share:.0f}"
    return ">99%" if shown == "100" and share < 1 - SURE else \
        "<1%" if shown == "0" and share > SURE else f"{shown}%"


def tie_points(advice) -> bool:
    """Whether the chances of winning carry the points that rank equal chances (every choice's,
    ``ActionValue.points``): shown beside them."""
    return is_win(advice) and all(v.points is not None and not math.isnan(v.points)
                                  for v in advice.actions if not math.isnan(v.mean))


def tie_others(advice) -> bool:
    """Whether the chances of winning carry, with three players, the chance that another seat
    wins the match instead (``ActionValue.others_win``), which ranks equal chances before the
    points do: shown beside them."""
    return tie_points(advice) and all(v.others_win is not None and not math.isnan(v.others_win)
                                      for v in advice.actions if not math.isnan(v.mean))


def others_words(advice, players: int) -> str:
    """Who the other seats are, who might win the match instead: ``E or S``."""
    return " or ".join(side_name(s, players) for s in range(side_count(players))
                       if s != side_of(advice.seat, players))


def points_objective(advice, players: int) -> str:
    """What the points that rank equal chances are: a seat's own with three players, but for a
    call, where it is a margin too."""
    return "points" if players == 3 and advice.phase == "play" else "margin"


def points_text(advice, players: int, value: float) -> str:
    """The points that rank equal chances, as a margin (signed) or a seat's points are written."""
    return f"{value:+.2f}" if points_objective(advice, players) == "margin" else f"{value:.2f}"


def ranked_words(advice, players: int) -> str:
    """What ranks equal chances of winning."""
    others = f"then the chance that {others_words(advice, players)} wins instead, " \
        if tie_others(advice) else ""
    return f"{others}then {objective_words(advice, players, points_objective(advice, players))}"


def is_best(advice, value) -> bool:
    """Whether a choice is one of the best: of the top value, and with a chance of winning
    shown with its points, of the top points too."""
    top = advice.actions[0]
    return tied(value.mean, top.mean) and (not tie_points(advice) or
                                           tied(value.points, top.points)) \
        and (not tie_others(advice) or tied(value.others_win, top.others_win))


def objective_words(advice, players: int, objective: str | None = None) -> str:
    """What the values are (or the values by ``objective``): ``N's points in the deal minus
    S's``."""
    side = side_of(advice.seat, players)
    mine = side_name(side, players)
    objective = objective or advice.objective
    if objective == "win":
        return f"{mine}'s chance of winning the match in this deal"
    if objective == "margin":
        others = [side_name(s, players) for s in range(side_count(players)) if s != side]
        if len(others) == 1:
            return f"{mine}'s points in the deal minus {others[0]}'s"
        return f"{mine}'s points in the deal minus the mean of {others[0]}'s and {others[1]}'s"
    return f"{mine}'s points in the deal"


def worlds_words(advice) -> str:
    deals = counted(advice.worlds, "deal")
    if advice.exact:
        return "the one deal of the unseen cards that fits" if advice.worlds == 1 else \
            f"every one of the {deals} of the unseen cards that fit"
    if advice.enumerated:
        return f"{deals} of the {advice.drawn:,} of the unseen cards that fit, in the order " \
               f"they are listed, not drawn at random (the budget ran out before the rest)"
    return f"{deals} of the unseen cards, drawn at random among those that fit"


def action_face(action: int, pretty: bool, trump: int | None) -> Text:
    if action in CALLS:
        return Text(CALLS[action], style="bold")
    return card_face(action, pretty, trump)


def advice_table(advice, observation: Observation, pretty: bool) -> Fitted:
    """Every choice, best first: its expected value, the 95% interval of that mean, and the
    share of worlds in which it was one of the best; on a narrow console with its titles on
    two lines, its intervals ``low..high`` and its columns closer."""
    head = "win chance" if is_win(advice) else "expected"
    first = "call" if advice.phase != "play" else "card"
    others = ("they win",) if tie_others(advice) else ()
    points = (*others, "points") if tie_points(advice) else ()
    right = tuple(range(1, 4 + len(points)))
    # (narrow, a chance's title is "win" alone, to leave room for the points)
    short = "win" if points else head.replace(" ", "\n")
    fitted = narrowing_table(
        (first, head, "95% interval", *points, "best in", ""),
        (first, short, "95%\ninterval", *(p.replace(" ", "\n") for p in points), "best\nin", ""),
        lambda narrow: advice_rows(advice, observation, pretty, narrow), right=right)
    # narrower still, each interval goes under its mean
    stacked = table(first, f"{short}\n95% interval", *(p.replace(" ", "\n") for p in points),
                    "best\nin", "", right=right[:-1])
    stacked.collapse_padding = True
    for face, mean, interval, *rest in advice_rows(advice, observation, pretty, True):
        stacked.add_row(face, mean if interval in (mean, "?") else f"{mean}\n{interval}", *rest)
    return Fitted(*fitted.layouts, stacked)


def shown_in_order(advice, players: int) -> list:
    """The advice's actions as ranked, but those the table writes alike in every cell (the
    first apart: the one chosen) in the order a hand is shown, as a reader looks for them."""
    def cells(value) -> tuple:
        if math.isnan(value.mean):
            return ("?",)
        return (value_text(advice, value.mean), value_text(advice, value.low),
                value_text(advice, value.high), percent(value.best),
                *tie_cells(advice, players, value))

    out: list = []
    for value in advice.actions:
        start = len(out)        # the rows just before it that the table writes alike
        while start > 1 and cells(out[start - 1]) == cells(value):
            start -= 1
        run = [*out[start:], value]
        if all(is_card(v.action) for v in run):
            by_card = {v.action: v for v in run}
            out[start:] = [by_card[card] for card in sort_cards(by_card)]
        else:
            out.append(value)
    return out


def advice_rows(advice, observation: Observation, pretty: bool, narrow: bool):
    """The table's rows; ``narrow``: intervals written ``low..high``."""
    joiner = ".." if narrow else " to "
    ties = len(tie_cells(advice, observation.players, None))
    for value in shown_in_order(advice, observation.players):
        face = action_face(value.action, pretty, observation.trump)
        if math.isnan(value.mean):
            lone = len(advice.actions) == 1
            yield (face, "?", "?", *("",) * ties, "",
                   Text("the only choice" if lone else "not known", style=QUIET))
            continue
        low, high = value_text(advice, value.low), value_text(advice, value.high)
        interval = low if low == high else f"{low}{joiner}{high}"
        note = Text("best", style=f"bold {GOOD}") if is_best(advice, value) else Text()
        yield (face, value_text(advice, value.mean), interval,
               *tie_cells(advice, observation.players, value), percent(value.best), note)


def tie_cells(advice, players: int, value) -> tuple[str, ...]:
    """The cells of what ranks a chance of winning among equals (none where nothing does):
    with three players the others' chance, then the points (``value`` None: the cells' count
    alone, as blanks)."""
    cells = []
    if tie_others(advice):
        cells.append("" if value is None else percent(value.others_win))
    if tie_points(advice):
        cells.append("" if value is None else points_text(advice, players, value.points))
    return tuple(cells)


def situation(name: str | None, observation: Observation, seen: SeenPosition | None,
              pretty: bool) -> RenderableType:
    """What the seat sees: the table, the trumps or turn-up, the trick and its hand."""
    n = observation.players
    names = seat_names(n)
    me = names[observation.seat]
    text = Text()       # wrapped on a narrow console, but for the name (a path, kept whole)
    rules = observation.rules
    now = pegged_this_deal(observation)    # in the score already: said so
    score = ", ".join(f"{side_name(s, n)} {p}" + (f" ({now[s]:+d} this deal)" if now[s] else "")
                      for s, p in enumerate(observation.score))
    text.append(f"{n} players; rules {rules_words(rules, target=False)}; "
                f"dealer {names[observation.dealer]}; "
                f"score {score} ({rules.target} to win)\n")
    turnup = observation.turnups[-1] if observation.turnups else None
    if observation.phase == "play":
        trump = observation.trump
        assert trump is not None        # (the play: trumps are fixed)
        text.append_text(trumps_face(trump, turnup, pretty, aside=observation.turnups[:-1]))
        done = len(observation.play) // n
        trick = observation.play[done * n:]
        text.append(f"; {me} to play to trick {done + 1}")
        if trick:
            text.append(": ")
            for i, (seat, card) in enumerate(trick):
                if i:
                    text.append(", ")
                text.append(f"{names[seat]} ")
                text.append_text(card_face(card, pretty, trump))
        hidden = [s for s in seen.hidden if seen.counts[s]] if seen is not None else []
        if hidden:      # (at the last trick they may hold no card left)
            assert seen is not None
            text.append("\nhidden: " + ", ".join(
                f"{names[s]} ({counted(seen.counts[s], 'card')})" for s in hidden))
        if observation.calls:       # (they weigh the deals of the unseen cards)
            text.append("\ncalls: " + ", ".join(f"{names[s]} {CALLS[a]}"
                                                for s, a in observation.calls))
    else:
        elder = (observation.dealer + 1) % n
        role = "the elder hand" if observation.seat == elder else "the dealer"
        to = PHASE_WORDS[observation.phase] if len(observation.legal_actions) > 1 else \
            f"{action_name(observation.legal_actions[0]).replace('-', ' ')} (no other call)"
        text.append(f"{me} is {role}, to {to}; turn-up ")
        assert turnup is not None       # (a call is made on a turn-up)
        text.append_text(card_face(turnup, pretty, None))
        if observation.phase == "dealer":
            text.append(f"; {names[elder]} begged")
    trump = observation.trump if observation.trump is not None else (
        turnup >> 4 if turnup is not None else None)
    text.append(f"\n{me} holds ")
    text.append_text(cards_face(observation.hand, pretty, trump, sort=True))
    lines = hanging(text)     # a line wrapped on a narrow screen goes on indented
    if name is None:
        return lines
    return Group(Text(without_controls(name), style="bold", no_wrap=True, overflow="ignore"),
                 lines)


def advice_report(name: str | None, observation: Observation, seen: SeenPosition | None,
                  advice, pretty: bool) -> RenderableType:
    n = observation.players
    me = seat_names(n)[observation.seat]
    words = Text(f"Advice for {me}: ", style="bold")
    if len(advice.actions) == 1:
        words.append("the only legal choice")
    elif advice.worlds == 0:
        words.append("no deal of the unseen cards could be valued within the limit")
    else:
        words.append(objective_words(advice, n))
        words.append(f"\nover {worlds_words(advice)}", style=QUIET)
    played_out = advice.method == PLAYED_OUT
    after = "card" if advice.phase == "play" else "call"
    if is_win(advice) and (played_out or advice.phase != "play"):
        lines = [f"win chance: the share of the deals that win the match after the {after}, "
                 "played out by the heuristic's rules, each seat seeing only its own cards"]
    elif is_win(advice):
        side = side_name(side_of(advice.seat, n), n)
        lines = [f"win chance: the share of the deals in which {side} can be sure of winning "
                 "the match in the deal after the card"]
    elif advice.phase == "play" and advice.method == GAME_ASIDE:
        lines = ["expected: the mean over the deals of the double-dummy value after the card, "
                 "Game's point left out"]
    elif advice.phase == "play" and not played_out:
        lines = ["expected: the mean over the deals of the double-dummy value after the card"]
    else:
        lines = [f"expected: the mean over the deals of the points of the deal after the "
                 f"{after}, played out by the heuristic's rules, each seat seeing only its own "
                 f"cards"]
    if tie_others(advice):
        lines.append(f"they win: the share of the deals in which {others_words(advice, n)} can "
                     f"be sure of winning the match in the deal after the card (each against "
                     f"every other seat), which ranks equal chances first")
    if tie_points(advice):
        points = objective_words(advice, n, points_objective(advice, n))
        if advice.phase != "play":
            points += (f" (a deal that wins the match counting a fixed {WIN_VALUE}, one that "
                       f"loses it -{WIN_VALUE})")
        lines.append(f"points: the mean of {points} over the same deals, which ranks equal "
                     f"{'cards equal in both' if tie_others(advice) else 'chances'}")
    lines.append(f"95% interval: of that {'share' if is_win(advice) else 'mean'}; best in: the "
                 f"deals in which it is one of the best")
    if why := no_interval_words(advice):
        lines.append(why)
    if advice.phase == "play" and played_out:
        solved = "not one" if not advice.solved else f"only {advice.solved}"
        lines.append(f"Too few deals could be solved within the node limit ({solved}; four are "
                     f"needed, or all where there are fewer): the cards are valued by playing "
                     f"the deals out instead (--nodes raises the limit).")
    elif advice.phase == "play" and advice.method == GAME_ASIDE:
        lines.append("Not one deal could be solved with Game within the limit (these hands "
                     "are deep): the deals are solved with Game set aside instead.")
    elif not advice.complete:
        lines += limit_words(advice)
    if advice.win_dropped:
        lines.append("A side could reach the target in this deal, but no chance of winning "
                     "the match could be worked out within the limit: the cards are valued by "
                     "points.")
    if counts_a_lost_match(advice, observation):
        lines.append(f"A side could reach the target in this deal: a deal that loses the "
                     f"match counts as a fixed -{WIN_VALUE} points (none here wins it).")
    if len(advice.actions) == 1 and math.isnan(advice.actions[0].mean):
        lines = []      # (a lone legal card, valued in no deal: the columns hold nothing)
    notes = Text("\n".join(lines), style=QUIET)     # a paragraph a line, wrapped to the width
    return Group(situation(name, observation, seen, pretty), Text(), words,
                 advice_table(advice, observation, pretty), notes)


def no_interval_words(advice) -> str:
    """Why the intervals marked ``?`` are not known: one deal; deals that by their weights count
    as fewer than two; or deals that gave every choice one value, showing no spread.  Empty
    where every choice valued has its interval."""
    if not any(math.isnan(v.low) and not math.isnan(v.mean) for v in advice.actions):
        return ""
    if advice.worlds == 1:
        return "?: no interval from one deal"
    if too_few(advice.effective):
        return (f"?: no interval: the {advice.worlds} deals, by their weights, count as fewer "
                f"than two")
    return (f"?: no interval: every choice has one and the same value in all "
            f"{advice.worlds} deals, so there is no spread to measure (the deals not valued "
            f"may differ)")


def limit_words(advice, short: bool = False) -> list[str]:
    """What the node limit cut short, in card play: the deals left out, too deep to solve in
    their share of it, and the deals drawn that it left no room for (``short``: as the hint
    says it)."""
    tried = advice.worlds + advice.left_out
    words = []
    if advice.left_out:
        words.append(f"({counted(advice.left_out, 'deal')} too deep to solve within the limit "
                     f"left out: the values may lean to the easier deals)" if short else
                     f"{counted(advice.left_out, 'deal')} of the {tried} tried could not be "
                     f"solved within the node limit and {'is' if advice.left_out == 1 else 'are'}"
                     f" left out: the values are over the other {advice.worlds}, and may lean to"
                     f" the easier deals (--nodes raises the limit).")
    if tried < advice.drawn:
        words.append(f"(the limit was reached after {tried:,} of the {advice.drawn:,} deals)"
                     if short else f"The node limit was reached after {tried:,} of the "
                     f"{advice.drawn:,} deals {'listed' if advice.enumerated else 'drawn'}.")
    return words or ["(a search stopped at its limit)" if short else
                     "A search stopped at its node limit."]


def advice_record(name: str | None, observation: Observation, advice, seed: int) -> dict:
    """One JSON object: the seat, the phase, the objective, the worlds, and every choice best
    first with its mean, its 95% interval and its share of best."""
    n = observation.players
    return {
        "position": file_text(name),
        "seat": seat_names(n)[observation.seat],
        "phase": advice.phase,
        "objective": advice.objective,
        "win_dropped": advice.win_dropped,
        "for": side_name(side_of(observation.seat, n), n),
        "worlds": advice.worlds,
        "effective_worlds": round(advice.effective, 6),
        "exact": advice.exact,
        "complete": advice.complete,
        "method": advice.method,
        "seed": seed,
        "best": action_name(advice.best),
        "actions": [{"action": action_name(v.action), "mean": _number(v.mean),
                     "low": _number(v.low), "high": _number(v.high),
                     "best": None if math.isnan(v.mean) else _number(v.best),
                     **({} if v.points is None else {"points": _number(v.points)}),
                     **({} if v.others_win is None else {"others_win": _number(v.others_win)})}
                    for v in advice.actions],
        "left_out": advice.left_out,
        "drawn": advice.drawn if advice.phase == "play" else None,
        "solved": advice.solved if advice.method == PLAYED_OUT else None,
        "nodes": getattr(advice, "nodes", None),
        "seconds": round(getattr(advice, "seconds", 0.0), 6),
    }


def _number(value: float) -> float | None:
    """A value for JSON: rounded, or null where it is not known."""
    return None if math.isnan(value) else round(value, 6)


def _prose(words: str, width: int) -> str:
    """Words indented by two, broken between words to ``width`` columns, each line they go on
    in two further (as every wrapped line at the table)."""
    return textwrap.fill(words, max(width, 20), initial_indent="  ", subsequent_indent="    ")


def _choice_rows(advice, observation: Observation, order: list[int], pretty: bool,
                 folded: bool) -> list[Text]:
    """A line for each choice: ``  12 stand  -12.25  -12.83 to -11.67  best in 100%  best``;
    ``folded``, the interval on a line of its own under the value."""
    values = {v.action: v for v in advice.actions}
    width = max(len(CALLS.get(a, "AA")) for a in order)
    digits = len(str(len(order)))     # (9 over 10: the numbers right-aligned)
    rows = []
    for number, action in enumerate(order, 1):
        value = values[action]
        row = Text(f"  {number:>{digits}} ")
        face = action_face(action, pretty, observation.trump)
        face.pad_right(width - len(face))
        row.append_text(face)
        rows.append(row)
        if math.isnan(value.mean):
            row.append("      ?", style=QUIET)
            continue
        low, high = value_text(advice, value.low), value_text(advice, value.high)
        interval = low if low == high else f"{low} to {high}"
        mean, best = f"{value_text(advice, value.mean):>6}", f"best in {percent(value.best):>4}"
        ties = "".join(f"  {cell:>6}" for cell in tie_cells(advice, observation.players, value))
        if ties:      # after the chance's interval (folded, on its line)
            interval = f"{interval:<12}{ties} " if not folded else interval + ties
        row.append(f"  {mean}  {best}" if folded else f"  {mean}  {interval:<17} {best}")
        if is_best(advice, value):
            row.append("  best", style=GOOD)
        if folded:
            rows.append(Text(f"  {'':{digits + 1 + width}}  {interval}"))
    return rows


def advice_lines(advice, observation: Observation, order: list[int], pretty: bool,
                 columns: int = 80) -> Text:
    """The advice as ``play``'s hint shows it: each choice in ``order`` (the numbered list of
    legal choices), its expected value, the interval and its share of best; the words are
    broken to ``columns``."""
    from solver.sampling import calls_weigh

    n = observation.players
    if len(order) == 1:
        return Text(_prose("Advice from what you can see: there is only one choice.", columns),
                    style=QUIET)
    deals = counted(advice.worlds, "deal")
    weighed = " (weighed by the calls made)" if calls_weigh(observation) else ""
    text = Text(_prose(f"Advice from what you can see, over {deals} of the cards you have not "
                       f"seen{' (every one)' if advice.exact else ''}{weighed}:", columns) + "\n"
                + _prose(f"expected {objective_words(advice, n)}, 95% interval, "
                         f"{ranked_words(advice, n) + ', ' if tie_points(advice) else ''}"
                         f"share of deals best", columns), style=QUIET)
    wide = _choice_rows(advice, observation, order, pretty, folded=False)
    rows = wide if all(row.cell_len <= columns for row in wide) else \
        _choice_rows(advice, observation, order, pretty, folded=True)
    for row in rows:
        text.append("\n").append_text(row)
    if why := no_interval_words(advice):
        text.append("\n" + _prose(f"({why})", columns), style=QUIET)
    if advice.phase == "play" and advice.method == PLAYED_OUT:
        text.append("\n" + _prose("(too deep to solve in time: each deal played out by the "
                                  "heuristic)", columns), style=QUIET)
    elif advice.phase == "play" and advice.method == GAME_ASIDE:
        text.append("\n" + _prose("(too deep to solve with Game in time: each deal solved "
                                  "with Game's point left out)", columns), style=QUIET)
    elif not advice.complete:
        for words in limit_words(advice, short=True):
            text.append("\n" + _prose(words, columns), style=QUIET)
    if advice.win_dropped:
        text.append("\n" + _prose("(near the target, but no chance of winning fitted the "
                                  "limit: valued by points)", columns), style=QUIET)
    elif counts_a_lost_match(advice, observation):
        text.append("\n" + _prose(f"(near the target: a deal that loses the match counts as "
                                  f"a fixed -{WIN_VALUE})", columns), style=QUIET)
    elif tie_points(advice) and advice.phase != "play":     # (as advise's key says)
        text.append("\n" + _prose(f"(the points: a deal that wins the match counts as a "
                                  f"fixed {WIN_VALUE}, one that loses it -{WIN_VALUE})", columns),
                    style=QUIET)
    return text


# ---- the command ---------------------------------------------------------------------------------

def advise_command(position: str | None, seat: str | None, hand: str | None,
                   turnup: str | None, players: int, dealer: str | None, score: str | None,
                   preset: str, target: int | None, worlds: int | None, seed: int,
                   json: bool, color: bool | None, given: set[str] | frozenset[str] = frozenset(),
                   console: Console | None = None, node_limit: int | None = None) -> None:
    """Advise the seat and print the advice; ``given``: the options named on the command
    line (a position describes the table itself, so the call's options do not go with it);
    ``node_limit``: the engine nodes a card's advice may search (``ADVICE_NODES`` by default;
    where too few deals are solved within it, the deals are played out instead)."""
    if position is None and node_limit is not None:
        raise AllFivesError("--nodes: bounds the engine's search for a card's advice; a call is "
                            "valued by playing its deals out, which searches nothing (give a "
                            "POSITION, or leave --nodes out)")
    node_limit = node_limit or ADVICE_NODES
    if node_limit >= 2 ** 63:      # (the engine's count of nodes: named as the option here)
        raise AllFivesError(f"--nodes: {node_limit} is not a number of nodes from 1 to "
                            f"{2 ** 63 - 1}")
    if worlds is not None and not 1 <= worlds <= MAX_WORLDS:
        raise AllFivesError(f"--worlds: {worlds} is not a whole number from 1 to {MAX_WORLDS}")
    if position is not None:
        clash = [o for o in CALL_OPTIONS if o in given]
        if clash:
            raise AllFivesError(f"--{clash[0]}: a POSITION describes the table itself; "
                                f"--{clash[0]} describes a call (give one or the other)")
        name, seen, observation = position_observation(position, seat)
    else:
        name, seen = None, None
        observation = call_observation_of(hand, turnup, seat, players, dealer, score, preset,
                                          target, seed)
    if json:
        advice = advice_for(observation, worlds, seed, seen, node_limit)
        typer.echo(json_module.dumps(advice_record(name, observation, advice, seed)))
        return
    from .console import can_show_suits, make_console
    from .status import searching

    if console is None:
        console = make_console(color)
    pretty = can_show_suits(console)
    status = make_console(color, stderr=True)
    if console.is_terminal and status.is_terminal:
        with searching(status, "dealing and solving deals of the unseen cards", None):
            advice = advice_for(observation, worlds, seed, seen, node_limit)
    else:
        advice = advice_for(observation, worlds, seed, seen, node_limit)
    console.print(advice_report(name, observation, seen, advice, pretty), crop=False)
