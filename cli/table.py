"""``allfives play`` on the screen: the table as one seat sees it, and one line for each thing
that happens at it.

Everything here draws from a seat's ``Observation`` (its own hand, the turn-ups, the calls, the
cards played, the points pegged, the score): nothing a player at the table could not see.  The
screen is laid out for the console's width (80 columns by default, readable down to
``NARROWEST``): a heading, the trumps, the pegboard, this deal's points, the tricks so far seat by
seat with each trick's winner marked, the trick under way and the hand by suit.  A line that
does not fit is broken between its parts, never inside a card or a call, and goes on indented.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from solver.cards import FIVE, JACK, SUIT_NAMES, make_card, pip_value, suit_of
from solver.deal import Position
from solver.game import BEG, CALLS, RUN, STAND, TAKE_ONE, DealLog, GameError, MatchState, \
    Observation
from solver.pegging import Peg
from solver.scoring import end_points, score_position
from solver.tricks import seat_names, side_count, side_name, side_of, trick_winner

from .answers import choices
from .diagram import TRUMP_MARK, TRUMP_MARK_PLAIN, hand_face
from .faces import KEEP, QUIET, SIDE_STYLES, card_face, cards_face
from .pegboard import points_per_hole, strip

#: The width the screen is laid out for when none is given, and the narrowest it is laid out for.
WIDTH = 80
NARROWEST = 40
#: The mark after the card that won a trick, in the grid of tricks.
WON = "*"

#: How a call reads in the line that reports it.
CALL_WORDS = {STAND: "stands", BEG: "begs", TAKE_ONE: "gives one (take-one)", RUN: "runs the cards"}
#: What the end-of-deal points are called.
PEG_WORDS = {"take-one": "take-one", "turn-up jack": "turn-up Jack", "revoke": "revoke",
             "high": "High", "low": "Low", "jack": "Jack", "game": "Game",
             "five": "five-for-five"}


def fit(width: int | None) -> int:
    """The width to lay out for: ``WIDTH`` when none is given, never under ``NARROWEST``."""
    return WIDTH if width is None else max(NARROWEST, width)


def flow(parts: Sequence[Text], width: int, sep: str = "  ", indent: str = "  ",
         first: Text | None = None) -> Text:
    """``parts`` in a line after ``first``, joined by ``sep``; where the next part would pass
    ``width`` the line is broken and goes on after ``indent``.  A part is never broken."""
    line = Text()
    if first is not None:
        line.append_text(first)  # its style a span, so that it does not run into the parts
    lines: list[Text] = []
    fresh = True  # nothing but ``first`` or an indent on the line yet
    for part in parts:
        if not fresh and line.cell_len + len(sep) + part.cell_len > width:
            lines.append(line)
            line, fresh = Text(indent), True
        if not fresh:
            line.append(sep)
        line.append_text(part)
        fresh = False
    lines.append(line)
    return Text("\n").join(lines)


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


def peg_reason(peg: Peg, position: Position | None, pretty: bool,
               tricks: Sequence[Sequence[int]] = (), trump: int | None = None) -> Text:
    """What a peg is for, with the cards behind it where they are known: a capture's trumps
    from ``tricks`` (the cards of each trick of the deal so far), an end point's card and
    Game's pips from ``position`` (the deal as it stands after the peg):
    ``trick 3: K♠ 5♠``, ``High: A♠``, ``Game: N 37 pips, S 12 pips``."""
    text = Text(peg_words(peg))
    if peg.what.startswith("trick "):
        number = int(peg.what.split()[1])
        if trump is not None and number <= len(tricks):
            trumps = [c for c in tricks[number - 1] if suit_of(c) == trump and pip_value(c)]
            text.append(": ").append_text(cards_face(trumps, pretty, trump))
        return text
    if position is None or not position.is_over:
        return text
    deal = position.deal
    if peg.what == "game":
        return text.append(": " + pips_words(position))
    for point in end_points(position):
        if point.name == peg.what and point.card is not None:
            text.append(": ").append_text(card_face(point.card, pretty, deal.trump))
    return text


def pips_words(position: Position) -> str:
    """``N 37 pips, S 1 pip``: what each side's won tricks count toward Game."""
    pips = score_position(position).pips
    names = [position.deal.side_name(s) for s in range(position.deal.sides)]
    return ", ".join(f"{name} {p} pip" + "s" * (p != 1) for name, p in zip(names, pips))


#: The end points in the order they are pegged.
END_ORDER = ("high", "low", "jack", "game", "five")


def unscored_lines(position: Position, pretty: bool) -> list[tuple[str, Text]]:
    """The end points of a finished deal that nobody pegs, each with why: a tie for Game, a
    trump Jack (or Five) that was in no hand, no trump at all in the hands (High and Low)."""
    deal = position.deal
    lines = []
    for point in end_points(position):
        if point.side is not None:
            continue
        if point.name == "game":
            why = Text(f"a tie ({pips_words(position)})")
        elif point.name in ("jack", "five"):
            rank = JACK if point.name == "jack" else FIVE
            why = card_face(make_card(deal.trump, rank), pretty, deal.trump)
            why.append(" was in no hand")
        elif point.name in ("high", "low"):
            why = Text("no trump was in any hand")
        else:
            continue
        line = Text(f"  Nobody pegs {PEG_WORDS[point.name]}: ", style=QUIET)
        lines.append((point.name, line.append_text(why)))
    return lines


def pegged_this_deal(obs: Observation) -> list[int]:
    totals = [0] * side_count(obs.players)
    for peg in obs.pegs:
        totals[peg.side] += peg.points
    return totals


def scores_text(players: int, score: Sequence[int], space: str = " ", form: str = "") -> str:
    """``N 12, S 20`` (with ``form`` ``+d``, ``N +12``); with ``space`` ``KEEP``, each side kept
    with its points where a line is broken (``hanging``)."""
    return ", ".join(f"{side_name(s, players)}{space}{p:{form}}" for s, p in enumerate(score))


def goal_text(target: int, finish: str) -> Text:
    """``61 to win (first to peg out)``."""
    return Text(f"{target} to win" + (" (first to peg out)" if finish == "peg-out" else
                                      " (counted at hand end)"), style=QUIET)


def heading(obs: Observation, target: int, finish: str, width: int | None = None,
            goal: bool = True) -> Text:
    """``Deal 1 · you are S · N deals · 61 to win (first to peg out)`` (the goal left out
    without ``goal``)."""
    n = obs.players
    deal = Text().append(f"Deal {obs.deal}", style="bold")
    if obs.best_of > 1:
        deal.append(f", game {obs.game} of best of {obs.best_of}")
    you = Text("you are ").append_text(seat_text(n, obs.seat))
    if n == 4:
        you.append(f" ({side_name(side_of(obs.seat, n), n)})", style=QUIET)
    dealer = seat_text(n, obs.dealer).append(" deals")
    parts = [deal, you, dealer] + ([goal_text(target, finish)] if goal else [])
    return flow(parts, fit(width), sep=" · ")


def trumps_line(obs: Observation, pretty: bool, width: int | None = None) -> Text:
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
        text = Text().append("Trumps ", style="bold")
        text.append(f"{SUIT_NAMES[trump]}: turn-up ")
        text.append_text(card_face(turnup, pretty, trump))
    if not aside:
        return text
    words = Text("(set aside by runs: ").append_text(cards_face(aside, pretty, trump))
    return flow([text, words.append(")")], fit(width), sep=" ")


def pegboard_lines(obs: Observation, target: int, pretty: bool,
                   width: int | None = None, fold: bool = True) -> Text:
    """One line per side: its score and its strip of holes, this deal's points (``◆``) after
    those pegged before it (``●``); a strip too long for ``width`` goes on in rows under its
    first, or without ``fold`` is left out (the scores alone, on one line)."""
    n = obs.players
    now = pegged_this_deal(obs)
    names = max(len(side_name(s, n)) for s in range(side_count(n)))
    lines, holes_shown = [], True
    for side, score in enumerate(obs.score):
        label = side_text(n, side)
        label.pad_right(names - len(label))
        label.append(f" {score:>3} ")
        before = max(0, min(score - now[side], target))
        holes = strip(before, max(0, min(score, target)), target, SIDE_STYLES[side], pretty,
                      indent=" " * len(label), width=fit(width))
        if not fold and "\n" in holes.plain:     # (the strips would take two rows each)
            holes_shown = False
            label.rstrip()
            lines.append(label)
        else:
            lines.append(label + holes[len(label):])
    if not holes_shown:
        lines = [flow([side_text(n, side).append(f" {score}")
                       for side, score in enumerate(obs.score)], fit(width), sep="   ")]
    scale = points_per_hole(target)
    if scale > 1 and holes_shown:       # (a target past the holes a strip has)
        lines.append(Text(f"each hole {scale} points", style=QUIET))
    if obs.best_of > 1:
        lines.append(Text(f"Games won: {scores_text(n, obs.games_won)}", style=QUIET))
    return Text("\n").join(lines)


def score_lines(obs: Observation, target: int, finish: str, pretty: bool,
                width: int | None = None, done: DealLog | None = None) -> Text:
    """What ``score`` shows: the match's target and how it is won, the pegboard, the points
    each side still needs, and this deal's points so far (or ``done``'s, the deal just over
    at the pause before the next)."""
    n = obs.players
    head = Text().append(f"Match to {target}", style="bold")
    head.append(" (first to peg out wins)" if finish == "peg-out" else " (counted at hand end)")
    needs = ", ".join(f"{side_name(s, n)} {max(0, target - p)}" for s, p in enumerate(obs.score))
    return Text("\n").join([head, pegboard_lines(obs, target, pretty, width),
                            flow([Text(needs)], fit(width), first=Text("Still to go: ")),
                            deal_points_line(obs, width, done)])


def deal_points_line(obs: Observation, width: int | None = None,
                     done: DealLog | None = None) -> Text:
    """``This deal: N +3 (trick 1), S +1 (take-one)``; of a deal ``done``, ``Deal 2: ...``."""
    text = Text("This deal: " if done is None else f"Deal {done.number}: ", style="bold")
    pegs = obs.pegs if done is None else done.pegs
    if not pegs:
        return text.append("nothing pegged yet" if done is None else "nothing pegged",
                           style=QUIET)
    parts = [Text(f"{side_name(p.side, obs.players)} {p.points:+d} ({peg_words(p)})"
                  + ("," if k < len(pegs) - 1 else "")) for k, p in enumerate(pegs)]
    return flow(parts, fit(width), sep=" ", first=text)


def calls_line(obs: Observation, width: int | None = None) -> Text | None:
    if not obs.calls:
        return None
    text = Text("Calls: ", style="bold")
    parts = [Text(f"{seat_names(obs.players)[s]} {CALLS[a]}"
                  + ("," if k < len(obs.calls) - 1 else "")) for k, (s, a) in enumerate(obs.calls)]
    return flow(parts, fit(width), sep=" ", first=text)


def tricks_played(obs: Observation) -> list[list[tuple[int, int]]]:
    """The cards played this deal, trick by trick, each (seat, card) in the order played."""
    n = obs.players
    return [list(obs.play[k:k + n]) for k in range(0, len(obs.play), n)]


def winning_seat(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """The seat that wins a full trick, by the rules' ``trick_winner``."""
    return trick[trick_winner([card for _, card in trick], trump)][0]


def played_lines(obs: Observation, pretty: bool, width: int | None = None) -> Text:
    """The tricks so far, one column a trick: the seat that led it, then one row a seat, the
    card that won each finished trick marked ``*`` (and bold); more tricks than fit ``width``
    go on in another block of columns, headed as the first."""
    n = obs.players
    tricks = tricks_played(obs)
    if not tricks:
        return Text("Tricks: ", style="bold").append("none played yet", style=QUIET)
    assert obs.trump is not None    # (cards are played: trumps are fixed)
    cell, gap = 3, 2
    label = max(len("Trick"), 2 + max(len(name) for name in seat_names(n))) + gap
    per_block = max(1, (fit(width) - label + gap) // (cell + gap))
    blocks = []
    for start in range(0, len(tricks), per_block):
        block = tricks[start:start + per_block]
        head = Text().append("Trick", style="bold")
        head.pad_right(label - len(head))
        led = Text().append("led", style=QUIET)
        led.pad_right(label - len(led))
        rows = [Text("  ").append_text(seat_text(n, seat)) for seat in range(n)]
        for row in rows:
            row.pad_right(label - len(row))
        for k, trick in enumerate(block, start + 1):
            if k > start + 1:
                for line in [head, led, *rows]:
                    line.append(" " * gap)
            head.append(f"{k:<{cell}}", style="bold")
            leader = seat_text(n, trick[0][0])
            leader.pad_right(cell - len(leader))
            led.append_text(leader)
            winner = winning_seat(trick, obs.trump) if len(trick) == n else None
            cards = dict(trick)
            for seat, row in enumerate(rows):
                face = Text(" " * cell) if seat not in cards else \
                    card_face(cards[seat], pretty, obs.trump)
                if seat == winner:
                    face.stylize("bold")
                    face.append(WON, style="bold")
                face.pad_right(cell - len(face))
                row.append_text(face)
        for line in [head, led, *rows]:
            line.rstrip()
        blocks.append(Text("\n").join([head, led, *rows]))
    return Text("\n").join(blocks)


def trick_line(obs: Observation, pretty: bool, width: int | None = None) -> Text:
    """``Trick 2: N led 7♦, E 9♦; you to play``."""
    n = obs.players
    done = len(obs.play) // n
    cards = obs.play[done * n:]
    parts = []
    for i, (seat, card) in enumerate(cards):
        part = seat_text(n, seat).append(" led " if i == 0 else " ")
        part.append_text(card_face(card, pretty, obs.trump))
        parts.append(part.append("," if i < len(cards) - 1 else ";"))
    if obs.current_player == obs.seat:
        parts.append(Text("you to " + ("lead" if not cards else "play")))
    elif parts:
        parts[-1].right_crop(1)
    return flow(parts, fit(width), sep=" ", first=Text(f"Trick {done + 1}: ", style="bold"))


def hand_lines(obs: Observation, pretty: bool, width: int | None = None) -> Text:
    """``Your hand`` and a line a suit, the trumps (or the suit proposed) marked."""
    trump = obs.trump if obs.trump is not None else suit_of(obs.turnups[-1])
    text = Text().append("Your hand", style="bold")
    if obs.trump is None:
        call = "you give one" if obs.phase == "dealer" and obs.current_player == obs.seat else \
            "you stand" if obs.phase == "elder" and obs.current_player == obs.seat else \
            "the turn-up stands"
        mark = TRUMP_MARK if pretty else TRUMP_MARK_PLAIN
        note = Text(f"({mark} if {call})", style=QUIET)
        text = flow([text, note], fit(width))
    text.append("\n")
    face = hand_face(obs.hand, trump, pretty)
    lines = face.split("\n")
    return text.append_text(Text("\n").join(Text("  ").append_text(line) for line in lines))


def table_screen(obs: Observation, target: int, finish: str, pretty: bool,
                 width: int | None = None) -> Text:
    """The whole table as the seat of ``obs`` sees it, before its decision, laid out for a
    console ``width`` columns wide (``WIDTH`` when None): no line is longer."""
    width = fit(width)
    head = heading(obs, target, finish, width)
    board = pegboard_lines(obs, target, pretty, width, fold=False)
    if "\n" in head.plain and "\n" not in board.plain:
        # a narrow console: the goal goes after the scores, on their line, if it fits there
        board_goal = flow([board, goal_text(target, finish)], width, sep=" · ")
        if "\n" not in board_goal.plain:
            head, board = heading(obs, target, finish, width, goal=False), board_goal
    parts = [head, trumps_line(obs, pretty, width), board, deal_points_line(obs, width)]
    calls = calls_line(obs, width)
    if calls is not None:
        parts.append(calls)
    if obs.phase == "play":
        parts += [played_lines(obs, pretty, width), trick_line(obs, pretty, width)]
    parts.append(hand_lines(obs, pretty, width))
    screen = Text("\n").join(parts)
    # the rule above it as wide as the screen's widest line, within the width (a console of
    # thousands of columns, as COLUMNS may say, is no reason for a rule of thousands)
    widest = max(Text(line).cell_len for line in screen.plain.split("\n"))
    rule = Text(("─" if pretty else "-") * min(width - 2, max(widest, NARROWEST - 2)),
                style=QUIET)
    return Text("\n").join([rule, screen])


def choice_faces(obs: Observation, pretty: bool) -> list[Text]:
    """Each legal action with its number: ``1 K♠``, ``2 stand``."""
    faces = []
    for number, action in enumerate(choices(obs), 1):
        text = Text().append(f"{number} ", style=QUIET)
        if action in CALLS:
            text.append(CALLS[action], style="bold")
        else:
            text.append_text(card_face(action, pretty, obs.trump))
        faces.append(text)
    return faces


def choices_line(obs: Observation, pretty: bool, width: int | None = None,
                 first: Text | None = None) -> Text:
    """The legal actions, numbered: ``1 K♠  2 9♥  3 5♥``, after ``first``; without a width on
    one line, with one broken between choices to fit it."""
    faces = choice_faces(obs, pretty)
    if width is None:
        text = first.copy() if first is not None else Text()
        return text.append_text(Text("  ").join(faces))
    return flow(faces, fit(width), first=first)


def action_line(players: int, seat: int, action: int, pretty: bool, trump: int | None,
                you: int | None = None) -> Text:
    """``E plays 9♥``, ``E begs``."""
    text = seat_text(players, seat, you)
    if action in CALLS:
        return text.append(f" {CALL_WORDS[action]}")
    text.append(" plays ")
    return text.append_text(card_face(action, pretty, trump))


def what_happened(state: MatchState, action: int, pretty: bool, you: int | None = None,
                  revoke: bool = False) -> tuple[list[Text], Position | None]:
    """Take ``action`` for the seat to act in ``state`` (with ``revoke``, play the card
    ``action`` as a revoke, as only a record does); the lines that say what happened at the
    table (the move, a run's turn-ups, the trick won, each point pegged with what it is for,
    the score, unless the deal is over and ``deal_over_line`` says it), and the deal in play
    after it (None outside card play, or once the deal holds a revoke, which a position cannot
    replay)."""
    n = state.players
    seat = state.current_player()
    deals, pegs, turnups = len(state.deals), len(state.pegs), state.turnups
    trump = state.trump
    before = after = None
    play: list[tuple[int, int]] = []
    if state.phase == "play":
        play = [*state.observation(seat).play, (seat, action)]
        try:
            before = state.position() if not revoke else None
        except GameError:  # a revoke earlier in the deal
            pass
    if before is not None:
        after = before.after(action)
    if revoke:
        state.apply_revoke(action)
    else:
        state.apply_action(action)
    ended = len(state.deals) > deals
    lines = [action_line(n, seat, action, pretty, trump, you)]
    if revoke:
        lines[0].append(", a revoke", style="bold")
    if action == RUN:
        thrown_in = ended and state.deals[-1].thrown_in
        shown = (state.deals[-1].turnups if thrown_in else state.turnups)[len(turnups):]
        if shown:
            lines[0].append(": turn-up " if len(shown) == 1 else ": turn-ups ")
            lines[0].append_text(cards_face(shown, pretty, None if thrown_in else state.trump))
        if thrown_in:
            lines[0].append(", no new suit" if shown else ": no cards left to turn up")
    if play and len(play) % n == 0:
        assert trump is not None
        line = Text("  ").append_text(seat_text(n, winning_seat(play[-n:], trump), you))
        lines.append(line.append(f" wins trick {len(play) // n}"))
    log = state.deals[-1] if ended else None
    new_pegs = (log.pegs if log is not None else state.pegs)[pegs:]
    # the end points nobody pegs, each said where it would have been pegged
    nobody = unscored_lines(after, pretty) if after is not None and after.is_over and ended \
        else []
    for peg in new_pegs:
        if peg.what in END_ORDER:
            rank = END_ORDER.index(peg.what)
            lines += [line for name, line in nobody if END_ORDER.index(name) < rank]
            nobody = [(name, line) for name, line in nobody if END_ORDER.index(name) > rank]
        line = Text("  ").append_text(side_text(n, peg.side))
        verb = "pegs" if peg.points >= 0 else "loses"
        line.append(f" {verb} {abs(peg.points)} (")
        tricks = [[card for _, card in play[k:k + n]] for k in range(0, len(play) - n + 1, n)]
        line.append_text(peg_reason(peg, after, pretty, tricks, trump))
        lines.append(line.append(")"))
    pegged_out = log is not None and bool(log.winners) and state.rules.finish == "peg-out"
    if not pegged_out:
        lines += [line for _, line in nobody]  # (a side that pegged out stops the count)
    if state.trump is not None and trump is None and not ended:
        lines.append(Text(f"  Trumps are {SUIT_NAMES[state.trump]}.", style="bold"))
    if new_pegs and (log is None or log.thrown_in):  # a deal played out ends in a line
        score = log.score if log is not None else state.score  # that gives the score
        lines.append(Text(f"  Score: {scores_text(n, score)}", style=QUIET))
    if pegged_out:
        assert log is not None
        won = " and ".join(side_name(s, n) for s in log.winners)
        # (no position after a revoke: an end-of-deal point pegged says the count was reached)
        over = after.is_over if after is not None else new_pegs[-1].what in END_ORDER
        stops = "the count stops here" if over else "the deal stops here"
        lines.append(Text(f"  {won} pegged out: {stops}.", style="bold"))
    return lines, after


def deal_line(state: MatchState, pretty: bool) -> Text:
    """The start of a deal, as everyone at the table sees it: ``Deal 2 · N deals · turn-up
    5♥``."""
    text = Text().append(f"Deal {state.deal_number}", style="bold")
    if state.match.best_of > 1:
        text.append(f", game {state.game}", style="bold")
    text.append(" · ").append_text(seat_text(state.players, state.dealer)).append(" deals")
    turnup = state.turnups[0]
    text.append(" · turn-up ").append_text(card_face(turnup, pretty, suit_of(turnup)))
    return text


def deal_over_line(log: DealLog, players: int, best_of: int = 1) -> Text:
    """``Deal 1 is over: N +11, S +6; the score is N 11, S 6.`` and who won the game on it:
    the match, in a match of one game."""
    n = players
    totals = [0] * side_count(n)
    for peg in log.pegs:
        totals[peg.side] += peg.points
    text = Text(f"Deal {log.number} is over: ", style="bold")
    # (each side kept with its points where the line is broken: ``hanging``)
    text.append(scores_text(n, totals, KEEP, "+d"))
    text.append(f"; the score is {scores_text(n, log.score, KEEP)}.")
    if log.winners:
        won = " and ".join(side_name(s, n) for s in log.winners)
        text.append(f" {won} {win_verb(log.winners, n)} the "
                    f"{'game' if best_of > 1 else 'match'}"
                    + (" (a double game)" if log.double else "") + ".")
    return text


def win_verb(sides: Sequence[int], players: int) -> str:
    """``wins`` for one seat, ``win`` for a partnership or several sides."""
    return "wins" if len(sides) == 1 and players < 4 else "win"
