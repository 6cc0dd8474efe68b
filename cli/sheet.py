"""A puzzle on paper: the hands at their seats, the trumps, the goal and (if asked) the
solution, as plain text on the console, as an SVG drawing, or as a printable HTML sheet of
many puzzles (several to an A4 page, suit symbols red and black, the solutions at the end).

Everything here is text generation: what a puzzle says is gathered once (``Facts``) and each
form draws it.  No renderer is needed to make a sheet; a browser prints it."""

from __future__ import annotations

import html
import os
import re
import textwrap
from collections.abc import Iterable, Sequence
from os import PathLike
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from solver.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, Card, card_str, make_card, parse_card, \
    sort_cards, suit_of
from solver.deal import Position
from solver.errors import counted, is_number, without_controls
from solver.pegging import match_after
from solver.scoring import score_position
from solver.tricks import SEAT_WORDS

RED = "#c8102e"
BLACK = "#1a1a1a"
SUIT_COLOURS = (BLACK, RED, RED, BLACK)
SIDE_WORDS = {"NS": "North-South", "EW": "East-West"}


# ---- what a puzzle says -------------------------------------------------------------------------

@dataclass(frozen=True)
class Played:
    """One card of the solution: the seat that plays it and whether that seat is the solver's."""

    seat: str
    card: Card
    ours: bool
    before: bool = False  # on the table already when the puzzle starts


@dataclass(frozen=True)
class TrickLine:
    """One trick of the solution (its first card may come after cards already on the table)."""

    number: int
    cards: tuple[Played, ...]
    winner: str | None  # None: the line ends inside this trick


@dataclass(frozen=True)
class Facts:
    """Everything a diagram of one puzzle shows."""

    title: str
    number: str  # "017", or "" when the file's name has none
    players: int
    rules: str  # "all-fives", "all-fives (skunk=true)"
    seats: str
    hands: tuple[tuple[Card, ...], ...]  # as they are now
    trump: int
    dealer: str
    to_move: str
    on_table: tuple[tuple[str, Card], ...]
    goal: str  # "South to play and make 9 points in the deal."
    situation: tuple[str, ...]  # what scores, the tricks already played, the match score
    themes: tuple[str, ...]
    rating: int | None
    solution: tuple[TrickLine, ...]
    turnup: Card | None = None  # the card turned up to fix trumps (None: trumps were named)
    #: What the end of the solution's line leaves: the goal safe whatever the defence does.
    outcome: str = ""
    #: Whether the problem shows its title (which may name the idea); its solution always does.
    titled: bool = True


def brackets(trick: TrickLine, k: int) -> tuple[str, str]:
    """What opens and closes the ``k``-th card of a trick of the solution where it was on the
    table already when the puzzle starts: those cards are in brackets, as ``solve``'s line has
    them, ``(E 2♦  S 3♦)``."""
    before = sum(played.before for played in trick.cards)
    return "(" if k == 0 else "", ")" if k == before - 1 else ""


def stem(name: str) -> str:
    """A puzzle's file name without its folders and ``.toml``, its number kept:
    ``week#2`` of ``class/week.toml#2``; a control character in it written as its escape
    (it stands for a title, which may hold none)."""
    return without_controls(re.sub(r"\.toml(?=(#\d+)?$)", "", name.rsplit("/", 1)[-1]))


#: The name a pipe has (``<(...)`` in the shell: ``/dev/fd/63``): its digits are no puzzle's.
PIPE_NAME = re.compile(r"/(dev|proc/\w+)/fd/")


def unnamed(name: str) -> bool:
    """Whether ``name`` says nothing of its puzzles: standard input's, or a pipe's."""
    return name.startswith("<stdin>") or bool(PIPE_NAME.match(name))


def number_of(name: str, one_file: bool = True) -> str:
    """``017`` of ``017-draw-before-you-cash.toml``; ``017#2`` of the second puzzle of a file
    of several, ``017-some.toml#2``, and ``2`` of ``week-3.toml#2`` (a file of several without
    a number: its puzzles are numbered as a folder's files are), ``week-3#2`` where puzzles of
    other files are shown beside them (not ``one_file``); none of a file of one without a
    number."""
    base = name.rsplit("/", 1)[-1]
    if PIPE_NAME.match(name):
        base = base.lstrip("0123456789")
    head = base.split("-", 1)[0]
    several = re.search(r"#(\d+)$", base)    # (standard input's several: <stdin>#2)
    if is_number(head):
        return head + (f"#{several[1]}" if several else "")
    if several and not one_file:
        return stem(base)
    return several[1] if several else ""


def numbers_of(names: Sequence[str | PathLike[str]], titled: bool = True) -> list[str]:
    """Each puzzle's number where the puzzles named are shown together (``number_of``); where
    puzzles of other files would have one alike (``001`` of two folders), each of them has
    its file's name instead, with as many of its folders as tell them apart:
    ``001-save-the-ten`` beside ``001-duck``, ``gen/001-duck`` beside ``old/001-duck``.  Not
    ``titled`` (a file's name may hold its title), every puzzle then has its place among
    them instead: ``1``, ``2``, ..."""
    names = [str(name) for name in names]
    alone = one_file(names)
    out = [number_of(str(name), alone) for name in names]
    for number in {n for n in out if n and out.count(n) > 1}:
        alike = [k for k, n in enumerate(out) if n == number]
        # the path's folders and the file's name, .toml dropped (week.toml#2: week#2)
        parts = {k: (*Path(os.path.abspath(names[k])).parts[:-1],
                     stem(Path(names[k]).name)) for k in alike}
        files = len(set(parts.values()))     # (one file named twice is one puzzle)
        if files > 1 and not titled:
            return [str(k) for k in range(1, len(names) + 1)]
        for depth in range(1, max(map(len, parts.values())) + 1):
            told = {k: "/".join(parts[k][-depth:]) for k in alike}
            if len(set(told.values())) == files:
                break
        if files > 1:
            for k in alike:
                out[k] = told[k]
    return out


def one_file(names: Iterable[str | PathLike[str]]) -> bool:
    """Whether the puzzles named (``FILE`` or ``FILE#N``) are all of one file."""
    return len({str(name).rsplit("#", 1)[0] if re.search(r"#\d+$", str(name)) else str(name)
                for name in names}) <= 1


def seat_word(seat: str) -> str:
    return SEAT_WORDS[seat]


def side_word(name: str) -> str:
    return SIDE_WORDS.get(name, SEAT_WORDS.get(name, name))


def goal_words(position: Position, side: int, objective: str, target: int) -> str:
    """The task in a sentence: who plays, for which side, to what end."""
    deal = position.deal
    name = side_word(deal.side_name(side))
    mover = seat_word(deal.seats[position.to_move])
    if objective == "points":
        task = f"make {counted(target, 'point')} or more in the deal"
    elif objective == "margin":
        if target > 0:
            task = f"outscore the other side by {target} or more in the deal"
        elif target == 0:
            task = "score at least as many points as the other side in the deal"
        else:
            task = f"lose the deal by no more than {counted(-target, 'point')}"
    elif objective == "win":
        task = "win the match in this deal"
    else:  # tricks
        task = f"take {counted(target, 'trick')} or more"
    if deal.players != 4 and deal.side_of(position.to_move) == side:
        task = f"{mover} to play and {task}"
    else:
        task = f"{mover} to play; {name} to {task}"
    if deal.players == 3:
        task += ", against the other two together"
    return task + ", whatever the defence."


def end_point_cards(position: Position) -> list[tuple[str, Card]]:
    """The cards whose captor scores an end point under the deal's rules, with its name: the
    Jack, Low where it goes to its captor, the Five under five-for-five; the Jack and the
    Five dealt or not (the page says which are not)."""
    deal = position.deal
    rules = deal.rules
    trump = deal.trump
    out = []
    if rules.jack:
        out.append(("Jack", make_card(trump, RANKS.index("J"))))
    trumps = deal.trumps_dealt()
    if rules.low_to_captor and trumps:
        out.append(("Low", trumps[0]))
    if rules.five_for_five:
        out.append(("Five", make_card(trump, RANKS.index("5"))))
    return out


def scoring_words(rules) -> str:
    """What a deal scores under ``rules``, and how cards follow, for a student who does not
    know the preset's name: ``Scoring: trumps taken (A 4, K 3, Q 2, J 1, 10 10, 5 5); High,
    Low, Jack and Game 1 each. Follow suit or trump.``"""
    parts = []
    if rules.capture:
        parts.append("trumps taken (A 4, K 3, Q 2, J 1, 10 10, 5 5)")
    ends = [name for name, on in (("High", rules.high), ("Low", rules.low),
                                  ("Jack", rules.jack), ("Game", rules.game)) if on]
    if rules.low_to_captor:
        ends[ends.index("Low")] = "Low (to its taker)"
    if rules.game and not rules.game_counts_fives:
        ends[-1] = "Game (fives not counted)"
    if ends:
        named = ends[0] if len(ends) == 1 else ", ".join(ends[:-1]) + " and " + ends[-1]
        parts.append(named + (" 1 each" if len(ends) > 1 else " 1"))
    if rules.five_for_five:
        parts.append("the trump Five taken 5 more")
    if not rules.capture and parts:
        parts.append("no points for trumps taken")
    follow = "Follow suit." if rules.strict_follow else "Follow suit or trump."
    return f"Scoring: {'; '.join(parts) or 'nothing'}. {follow}"


def situation_words(position: Position, objective: str = "points") -> list[str]:
    """What has happened so far that the goal counts: tricks won, points taken, the cards
    that score their captor a point taken and by whom (or not dealt), and (for the objective
    ``win``) the match score."""
    deal = position.deal
    out = []
    done = position.completed
    taken_by = {c: deal.side_of(cast(int, t.winner)) for t in done for c in t.cards}
    marked = end_point_cards(position)
    if done:
        score = score_position(position)
        won = [0] * deal.sides
        for trick in done:
            assert trick.winner is not None
            won[deal.side_of(trick.winner)] += 1
        parts = []
        for side in range(deal.sides):
            tricks = won[side]
            part = f"{deal.side_name(side)} {tricks or 'no'} trick{'s' if tricks != 1 else ''}"
            extra = []
            if deal.rules.capture and score.captures[side]:
                extra.append(counted(score.captures[side], "pt"))
            if deal.rules.game and score.pips[side]:
                extra.append(f"game {score.pips[side]}")
            extra += [f"{name} {card_str(card, True)}" for name, card in marked
                      if taken_by.get(card) == side]
            if extra:
                part += f" ({', '.join(extra)})"
            parts.append(part)
        out.append("Won so far: " + "; ".join(parts) + ".")
    trumps = deal.trumps_dealt()
    held = []
    if trumps and deal.rules.high:
        high = trumps[-1]
        held.append(f"High {card_str(high, True)} {deal.side_name(deal.side_of(cast(int, deal.holder(high))))}")
    if trumps and deal.rules.low_to_holder:
        low = trumps[0]
        held.append(f"Low {card_str(low, True)} {deal.side_name(deal.side_of(cast(int, deal.holder(low))))}")
    held += [f"no {name} ({card_str(card, True)})" for name, card in marked
             if deal.holder(card) is None]
    if held:
        out.append("Dealt: " + ", ".join(held) + ".")
    if deal.score is not None and objective == "win":
        out.append(match_words(position))
    return out


def match_words(position: Position) -> str:
    """``Match: N 55, S 59 (+5 this deal); 61 to win (first to peg out).``: the match as it
    stands now, with what the tricks already played have pegged onto it (as ``advise`` says
    it)."""
    deal = position.deal
    rules = deal.rules
    match = match_after(position)
    assert match is not None    # (a deal with a score)
    sides = []
    for side, (was, now) in enumerate(zip(match.before, match.after)):
        pegged = f" ({now - was:+d} this deal)" if now != was else ""
        sides.append(f"{deal.side_name(side)} {now}{pegged}")
    finish = "first to peg out" if rules.finish == "peg-out" else "counted at the deal's end"
    return f"Match: {', '.join(sides)}; {rules.target} to win ({finish})."


def solution_tricks(position: Position, side: int, line: Sequence[Card]) -> list[TrickLine]:
    """The line, trick by trick, each card with its seat."""
    deal = position.deal
    out: list[TrickLine] = []
    here = position
    current = position.current
    cards = [Played(deal.seats[current.seat_of(i, deal.players)], c,
                    deal.side_of(current.seat_of(i, deal.players)) == side, True)
             for i, c in enumerate(current.cards)]
    number = len(position.completed) + 1
    for card in line:
        seat = here.to_move
        cards.append(Played(deal.seats[seat], card, deal.side_of(seat) == side))
        here = here.after(card)
        if len(here.completed) >= number:
            winner = deal.seats[cast(int, here.completed[number - 1].winner)]
            out.append(TrickLine(number, tuple(cards), winner))
            cards, number = [], number + 1
    if cards:
        out.append(TrickLine(number, tuple(cards), None))
    return out


def facts_of(puzzle, name: str = "", number: str | None = None, titled: bool = True) -> Facts:
    """What a diagram of ``puzzle`` (a ``solver.puzzles.Puzzle``) shows; ``name`` is its
    file's name, which may carry its number and stands for a title the puzzle lacks (but
    standard input's or a pipe's: ``Puzzle``); ``number``: its number where puzzles of other
    files are beside it (``numbers_of``); ``titled``: whether the problem shows its title."""
    from .faces import rules_words   # (as solve's rules line spells them: skunk=true)

    position = puzzle.position
    deal = position.deal
    current = position.current
    title = puzzle.title or (stem(name) if name and not unnamed(name) else "Puzzle")
    return Facts(
        title=title,
        number=number if number is not None else number_of(name) if name else "",
        players=deal.players,
        rules=rules_words(deal.rules),
        seats=deal.seats,
        hands=tuple(tuple(sort_cards(h)) for h in position.hands),
        trump=deal.trump,
        dealer=deal.seats[deal.dealer],
        to_move=deal.seats[position.to_move],
        on_table=tuple((deal.seats[current.seat_of(i, deal.players)], c)
                       for i, c in enumerate(current.cards)),
        goal=goal_words(position, puzzle.side, puzzle.objective, puzzle.target),
        situation=(scoring_words(deal.rules), *situation_words(position, puzzle.objective)),
        themes=tuple(puzzle.themes),
        rating=puzzle.rating,
        solution=tuple(solution_tricks(position, puzzle.side, puzzle.line)),
        turnup=deal.turnup,
        outcome=outcome_words(puzzle.objective),
        titled=titled,
    )


def goal_reached(objective: str) -> str:
    """What a puzzle's solved position holds: ``the goal is safe whatever the defence does``
    (or the match won), as ``puzzle play`` says it once the line is played."""
    done = "the match is won" if objective == "win" else "the goal is safe"
    return f"{done} whatever the defence does"


def outcome_words(objective: str) -> str:
    """What the solution's line ends on (its last real choice; what follows cannot spoil
    it)."""
    return f"Then {goal_reached(objective)}."


def holding(cards: Sequence[Card], suit: int) -> str:
    """``A Q 9`` (or ``—``) of one suit."""
    ranks = [RANKS[c & 15] for c in sort_cards(cards) if suit_of(c) == suit]
    return " ".join(ranks).replace("T", "10") if ranks else "—"


def face(card: Card) -> str:
    """A card as it is printed on paper: ``10♥``, ``A♠``."""
    return card_str(card, True).replace("T", "10")


def heading(facts: Facts, solution: bool = False) -> str:
    """``017. Save the ten``; the problem of a puzzle shown without its title, ``017.`` (or
    ``Puzzle``), the solution still with it."""
    if not facts.titled and not solution:
        return f"{facts.number}." if facts.number else "Puzzle"
    return f"{facts.number}. {facts.title}" if facts.number else facts.title


def solution_heading(facts: Facts) -> str:
    """``Solution``, or where the problem was shown without its title, ``Solution: Duck``."""
    return "Solution" if facts.titled else f"Solution: {facts.title}"


def about(facts: Facts) -> str:
    """``2 players · all-fives · rating 1450``."""
    parts = [f"{facts.players} players", facts.rules]
    if facts.rating is not None:
        parts.append(f"rating {facts.rating}")
    return " · ".join(parts)


# ---- text ---------------------------------------------------------------------------------------

def text_view(facts: Facts, position: Position, solution: bool, pretty: bool = True):
    """A Rich renderable: heading, goal, the diagram, and the solution if asked."""
    from rich.console import Group
    from rich.text import Text

    from .diagram import diagram
    from .faces import KEEP, QUIET, card_face, hanging

    parts: list = [Text(heading(facts), style="bold"), Text(about(facts), style=QUIET)]
    goal = Text(facts.goal)
    parts.append(goal)
    for line in facts.situation:
        parts.append(Text(line, style=QUIET))
    parts.append(diagram(position, pretty))
    if solution:
        text = Text(solution_heading(facts), style="bold")
        if facts.themes:
            text.append(f" ({', '.join(facts.themes)})", style=QUIET)
        digits = max((len(str(trick.number)) for trick in facts.solution), default=1)
        for trick in facts.solution:
            text.append(f"\n  {trick.number:>{digits}}. ")    # (8. under 10.: lined up)
            for k, played in enumerate(trick.cards):
                if k:
                    text.append("  ")
                if played.before:   # dimmed, and in brackets as solve's line has them
                    opening, closing = brackets(trick, k)
                    card = card_str(played.card, pretty)
                    text.append(f"{opening}{played.seat}{KEEP}{card}{closing}", style=QUIET)
                    continue
                text.append(f"{played.seat}{KEEP}", style="bold" if played.ours else "")
                text.append_text(card_face(played.card, pretty, facts.trump))
            if trick.winner:
                text.append(f"  → {trick.winner}", style=QUIET)
        if facts.outcome:
            text.append(f"\n  {facts.outcome}")
        parts.append(hanging(text))     # (a line wrapped on a narrow screen goes on indented)
    return Group(*parts)


# ---- SVG ----------------------------------------------------------------------------------------

SVG_WIDTH = 440  # room for "East (dealer) to play" right of the middle box
LINE = 17  # px between lines of a hand
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _svg_text(x: float, y: float, text: str, size: int = 13, weight: str = "normal",
              anchor: str = "start", fill: str = BLACK) -> str:
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}">{_esc(text)}</text>')


def _svg_card(card: Card) -> str:
    """The rank in black, the suit symbol in its colour (see ``_html_card``)."""
    text = face(card)
    return (f'<tspan fill="{BLACK}">{_esc(text[:-1])}</tspan>'
            f'<tspan fill="{SUIT_COLOURS[suit_of(card)]}">{text[-1]}</tspan>')


#: A card as ``situation_words`` writes it (``High T♣ N``).
_SITUATION_CARD = re.compile(f"([2-9TJQKA][{''.join(SUIT_SYMBOLS)}])")


def _with_cards(text: str, card) -> str:
    """``text`` escaped, each card in it drawn by ``card`` (as the hands draw it: ``10♣``, the
    suit in its colour)."""
    return "".join(card(parse_card(part)) if k % 2 else _esc(part)
                   for k, part in enumerate(_SITUATION_CARD.split(text)))


#: How wide the characters of a hand's lines are, in em, in DejaVu Sans (the first of the
#: fonts named; the others are narrower): a digit otherwise.
HAND_EMS = {" ": 0.318, "A": 0.684, "K": 0.656, "Q": 0.787, "J": 0.295, "♠": 0.896, "♥": 0.896,
            "♦": 0.896, "♣": 0.896}
#: How much wider the bold type of the trump suit's line is.
BOLD_WIDER = 1.1


def hand_line_width(text: str, bold: bool) -> float:
    """About how many px a hand's line is wide in 14 px type."""
    return 14 * sum(HAND_EMS.get(c, 0.636) for c in text) * (BOLD_WIDER if bold else 1)


def _svg_hand(x: float, y: float, seat: str, cards: Sequence[Card], trump: int,
              marks: str, room: float) -> list[str]:
    """A hand's lines; a suit too long for the ``room`` px it has (nine cards or more beside
    the middle box) is drawn narrower to fit it."""
    out = [_svg_text(x, y, f"{seat_word(seat)}{marks}", 12, "bold")]
    for suit in range(4):
        yy = y + LINE * (suit + 1)
        weight = "bold" if suit == trump else "normal"
        held = holding(cards, suit)
        fit = f' textLength="{room:g}" lengthAdjust="spacingAndGlyphs"' \
            if hand_line_width(f"{SUIT_SYMBOLS[suit]} {held}", suit == trump) > room else ""
        out.append(f'<text x="{x:g}" y="{yy:g}" font-size="14" font-weight="{weight}"{fit}>'
                   f'<tspan fill="{SUIT_COLOURS[suit]}">{SUIT_SYMBOLS[suit]}</tspan>'
                   f'<tspan fill="{BLACK}"> {_esc(held)}</tspan></text>')
    return out


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def svg_body(facts: Facts, solution: bool, width: int = SVG_WIDTH) -> tuple[list[str], int]:
    """The drawing's elements and its height."""
    out: list[str] = []
    y = 20 - 18
    for line in _wrap(heading(facts), 44):     # (wrapped to the canvas: bold is wide)
        y += 18
        out.append(_svg_text(10, y, line, 15, "bold"))
    y += 2
    for line in _wrap(about(facts), 60):       # (the rules with every option set run long)
        y += 14
        out.append(_svg_text(10, y, line, 11, fill="#555"))
    for line in _wrap(facts.goal, 52):
        y += 16
        out.append(_svg_text(10, y, line, 13))
    for words in facts.situation:
        for line in _wrap(words, 60):
            y += 14
            out.append(f'<text x="10" y="{y:g}" font-size="11" fill="#555">'
                       f'{_with_cards(line, _svg_card)}</text>')
    top = y + 22
    block = LINE * 4 + 8  # a hand's height
    columns = {"W": 10, "N": width / 2 - 45, "E": width / 2 + 62, "S": width / 2 - 45}
    turned = 14 if facts.turnup is not None else 0  # room for the turn-up under the trumps
    tall = max(block + 10, 62 + turned + 13 * len(facts.on_table))  # the middle box's height
    rows = {"N": top, "W": top + block + 10, "E": top + block + 10, "S": top + block + tall + 16}
    mx, my = width / 2 - 58, top + block     # the middle box's corner
    for seat, cards in zip(facts.seats, facts.hands):
        marks = (" (dealer)" if seat == facts.dealer else "") + \
                (" to play" if seat == facts.to_move else "")
        room = (mx if seat == "W" else width) - 8 - columns[seat]
        out.extend(_svg_hand(columns[seat], rows[seat], seat, cards, facts.trump, marks, room))
    # the middle: the trumps and the trick on the table
    out.append(f'<rect x="{mx:g}" y="{my:g}" width="116" height="{tall}" rx="8" '
               f'fill="#f4f4f0" stroke="#999"/>')
    out.append(_svg_text(mx + 10, my + 17, "trumps", 12))
    out.append(f'<text x="{mx + 10:g}" y="{my + 32:g}" font-size="12" '
               f'fill="{SUIT_COLOURS[facts.trump]}">{SUIT_SYMBOLS[facts.trump]} '
               f'{SUIT_NAMES[facts.trump]}</text>')
    if facts.turnup is not None:
        out.append(f'<text x="{mx + 10:g}" y="{my + 46:g}" font-size="11">'
                   f'<tspan fill="#555">turn-up </tspan>{_svg_card(facts.turnup)}</text>')
    if facts.on_table:
        out.append(_svg_text(mx + 10, my + 49 + turned, "on the table", 10, fill="#555"))
    for k, (seat, card) in enumerate(facts.on_table):
        out.append(f'<text x="{mx + 10:g}" y="{my + 63 + turned + 13 * k:g}" font-size="12">'
                   f'{seat} {_svg_card(card)}</text>')
    y = rows["S"] + block + 10
    if solution:
        y += 8
        title = solution_heading(facts) + (f" ({', '.join(facts.themes)})" if facts.themes
                                           else "")
        for k, line in enumerate(_wrap(title, 50)):
            y += 16 if k else 0
            out.append(_svg_text(10, y, line, 13, "bold"))
        for trick in facts.solution:
            y += 16
            # (the number flush right in a column of its own, so that 9. and 10. line up)
            out.append(f'<text x="30" y="{y:g}" font-size="12" font-weight="bold" '
                       f'text-anchor="end">{trick.number}.</text>')
            parts = []
            for k, played in enumerate(trick.cards):
                weight = "bold" if played.ours and not played.before else "normal"
                if played.before:
                    opening, closing = brackets(trick, k)
                    parts.append(f' <tspan fill="#999">{opening}{played.seat} '
                                 f'{_esc(face(played.card))}{closing}</tspan>')
                    continue
                parts.append(f' <tspan font-weight="{weight}">{played.seat}</tspan> '
                             f'{_svg_card(played.card)}')
            if trick.winner:
                parts.append(f' <tspan fill="#777">→ {trick.winner}</tspan>')
            out.append(f'<text x="34" y="{y:g}" font-size="12">{"".join(parts).lstrip()}'
                       f'</text>')
        for line in _wrap(facts.outcome, 60) if facts.outcome else ():
            y += 16
            out.append(_svg_text(34, y, line, 11, fill="#555"))
        y += 10
    return out, int(y)


def svg(facts: Facts, solution: bool) -> str:
    """A standalone SVG drawing of one puzzle."""
    body, height = svg_body(facts, solution)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SVG_WIDTH}" height="{height}" '
            f'viewBox="0 0 {SVG_WIDTH} {height}" font-family="{FONT}" xml:space="preserve">\n'
            f'<rect width="100%" height="100%" fill="white"/>\n'
            + "\n".join(body) + "\n</svg>\n")


# ---- HTML ---------------------------------------------------------------------------------------

CSS = """\
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; color: #1a1a1a; margin: 0;
       font-size: 10.5pt; }
header.sheet { margin: 0 0 4mm; }
header.sheet h1 { font-size: 15pt; margin: 0; }
header.sheet p { margin: 1mm 0 0; color: #555; font-size: 9pt; }
.page { display: flex; flex-direction: column; height: 272mm; }
.page + .page { break-before: page; page-break-before: always; }
.puzzles { flex: 1; min-height: 0; display: grid; grid-template-columns: 1fr 1fr;
           grid-template-rows: 1fr 1fr; gap: 5mm; }
.puzzle { min-height: 0; padding: 3mm 4mm; border: 0.3mm solid #999; border-radius: 2mm;
          overflow: hidden; break-inside: avoid; page-break-inside: avoid; }
.puzzle h2 { font-size: 12pt; margin: 0; }
.about { color: #555; font-size: 8.5pt; margin: 0.5mm 0 1.5mm; }
.goal { font-weight: bold; margin: 0 0 1mm; font-size: 10pt; }
.situation { color: #444; font-size: 8.5pt; margin: 0 0 1mm; }
table.table { border-collapse: collapse; margin: 2mm auto 0; }
table.table td { vertical-align: middle; padding: 0.5mm 1.5mm; min-width: 20mm; }
.hand .seat { font-weight: bold; font-size: 9pt; }
.hand .seat small { font-weight: normal; color: #555; font-size: 7.5pt; }
.hand div { white-space: nowrap; line-height: 1.2; }
.trump { font-weight: bold; }
.middle small { color: #555; font-size: 7.5pt; }
.middle { border: 0.3mm solid #aaa; border-radius: 2mm; background: #f4f4f0; text-align: center;
          font-size: 9pt; width: 22mm; }
.red { color: #c8102e; }
.black { color: #1a1a1a; }
.solutions { break-before: page; page-break-before: always; }
.solutions h1 { font-size: 14pt; }
.solution { break-inside: avoid; page-break-inside: avoid; margin: 0 0 3mm; }
.solution h3 { font-size: 10.5pt; margin: 0; }
.solutions .list { columns: 2; column-gap: 8mm; }
.solution div { margin-left: 3mm; }
.solution .n { display: inline-block; min-width: 1.5em; text-align: right;
               font-variant-numeric: tabular-nums; }
.solution .ours { font-weight: bold; }
.solution .before { color: #999; }
.solution .themes { color: #555; font-size: 8.5pt; }
.solution .outcome { color: #555; font-size: 8.5pt; padding-left: 1.8em; }
@media screen { body { margin: 8mm auto; width: 186mm; }
                .page + .page { margin-top: 5mm; } }
"""


def _html_card(card: Card) -> str:
    """The rank in black, the suit symbol in its colour (in black-and-white print red is grey,
    as the dimmed cards are)."""
    colour = "red" if suit_of(card) in (1, 2) else "black"
    text = face(card)
    return f'{_esc(text[:-1])}<span class="{colour}">{text[-1]}</span>'


def _html_suit(suit: int) -> str:
    colour = "red" if suit in (1, 2) else "black"
    return f'<span class="{colour}">{SUIT_SYMBOLS[suit]}</span>'


def _html_hand(facts: Facts, seat: str, cards: Sequence[Card]) -> str:
    marks = []
    if seat == facts.dealer:
        marks.append("dealer")
    if seat == facts.to_move:
        marks.append("to play")
    small = f" <small>{', '.join(marks)}</small>" if marks else ""
    lines = [f'<div class="seat">{seat_word(seat)}{small}</div>']
    for suit in range(4):
        cls = ' class="trump"' if suit == facts.trump else ""
        lines.append(f"<div{cls}>{_html_suit(suit)} {_esc(holding(cards, suit))}</div>")
    return '<td class="hand">' + "".join(lines) + "</td>"


#: The width a puzzle's table has on the sheet, in mm: half of A4 within its margins, less the
#: gap between the two columns and the puzzle's padding and border (``CSS``), and 2 mm to
#: spare for fonts wider than ``HAND_EMS``'s.
HTML_ROOM = (210 - 2 * 12 - 5) / 2 - 2 * 4 - 2 * 0.3 - 2
#: A cell's least width (``min-width``, its padding within it) and its padding each side, the
#: middle box's width (mm), and an em of the hands' type (10.5 pt) in mm.
HTML_CELL, HTML_PAD, HTML_MIDDLE, HTML_EM = 20, 1.5, 22, 10.5 * 25.4 / 72


def html_hands_scale(facts: Facts) -> float:
    """How large the hands' type is drawn, from 1 (the sheet's) down to 0.4, for the table to
    fit its puzzle's box: long suits (nine cards or more in a hand) would go past its edge,
    which cuts them off."""
    hands = dict(zip(facts.seats, facts.hands))

    def ems(seat: str) -> float:
        cards = hands.get(seat, ())
        return max(sum(HAND_EMS.get(c, 0.636) for c in f"{SUIT_SYMBOLS[suit]} "
                       f"{holding(cards, suit)}") * (BOLD_WIDER if suit == facts.trump else 1)
                   for suit in range(4)) if cards else 0.0

    def width(scale: float) -> float:
        cell = [ems(seat) * HTML_EM * scale + 2 * HTML_PAD for seat in "NESW"]
        return (max(HTML_CELL, cell[3]) + max(HTML_MIDDLE, cell[0], cell[2])
                + max(HTML_CELL, cell[1]))

    scale = 1.0
    while scale > 0.4 and width(scale) > HTML_ROOM:
        scale = round(scale - 0.05, 2)
    return scale


def html_puzzle(facts: Facts) -> str:
    """One puzzle's card on the sheet."""
    hands = dict(zip(facts.seats, facts.hands))

    def cell(seat: str) -> str:
        return _html_hand(facts, seat, hands[seat]) if seat in hands else "<td></td>"

    middle = f"trumps {_html_suit(facts.trump)} {SUIT_NAMES[facts.trump]}"
    if facts.turnup is not None:
        middle += f"<br><small>turn-up</small> {_html_card(facts.turnup)}"
    if facts.on_table:
        middle += '<br><small>on the table</small>'
    for seat, card in facts.on_table:
        middle += f"<br>{seat} {_html_card(card)}"
    rows = [f"<tr><td></td>{cell('N')}<td></td></tr>",
            f"<tr>{cell('W')}<td class=\"middle\">{middle}</td>{cell('E')}</tr>",
            f"<tr><td></td>{cell('S')}<td></td></tr>"]
    situation = "".join(f'<p class="situation">{_with_cards(s, _html_card)}</p>'
                        for s in facts.situation)
    scale = html_hands_scale(facts)
    size = f' style="font-size: {scale:.0%}"' if scale < 1 else ""
    return (f'<section class="puzzle">\n<h2>{_esc(heading(facts))}</h2>\n'
            f'<p class="about">{_esc(about(facts))}</p>\n'
            f'<p class="goal">{_esc(facts.goal)}</p>\n{situation}\n'
            f'<table class="table"{size}>{"".join(rows)}</table>\n</section>')


def html_solution(facts: Facts) -> str:
    items = []
    for trick in facts.solution:
        parts = []
        for k, p in enumerate(trick.cards):
            if p.before:
                opening, closing = brackets(trick, k)
                parts.append(f'<span class="before">{opening}{p.seat} {_esc(face(p.card))}'
                             f'{closing}</span>')
            else:
                parts.append(f'<span class="{"ours" if p.ours else "them"}">{p.seat}</span> '
                             f'{_html_card(p.card)}')
        cards = "&ensp;".join(parts)
        tail = f" → {trick.winner}" if trick.winner else ""
        items.append(f'<div><b class="n">{trick.number}.</b> {cards}{tail}</div>')
    if facts.outcome:
        items.append(f'<div class="outcome">{_esc(facts.outcome)}</div>')
    themes = f' <span class="themes">({_esc(", ".join(facts.themes))})</span>' \
        if facts.themes else ""
    return (f'<div class="solution"><h3>{_esc(heading(facts, solution=True))}{themes}</h3>'
            f'{"".join(items)}</div>')


#: Puzzles to a printed page: two rows of two.
PER_PAGE = 4


def html_sheet(all_facts: Sequence[Facts], title: str, solution: bool) -> str:
    """One printable page of puzzles (four to an A4 page, the first too, under the sheet's
    heading, or without one where ``title`` is empty: each page's two rows share what its height
    leaves), the solutions at the end."""
    count = len(all_facts)
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{_esc(title or 'All Fives puzzles')}</title>", f"<style>\n{CSS}</style>",
        "</head>", "<body>",
    ]
    for first in range(0, max(count, 1), PER_PAGE):
        cards = "\n".join(html_puzzle(f) for f in all_facts[first:first + PER_PAGE])
        parts.append('<div class="page">')
        if not first:
            bold = " Bold seats in the solutions are the side that solves." if solution else ""
            parts.append(
                f'<header class="sheet">{f"<h1>{_esc(title)}</h1>" if title else ""}'
                f"<p>{counted(count, 'puzzle')}, solved double-dummy: every hand is "
                f"open, the defence finds its best play.{bold}</p></header>")
        parts.append(f'<div class="puzzles">\n{cards}\n</div></div>')
    if solution:
        parts.append('<div class="solutions"><h1>Solutions</h1><div class="list">')
        parts.extend(html_solution(f) for f in all_facts)
        parts.append("</div></div>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
