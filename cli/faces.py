"""How cards, suits, seats and sides look on the console: suit symbols, red hearts and diamonds,
trumps in bold, each side in its own colour.  Without suit symbols (a console that cannot encode
them) cards are spelled as in deal files: ``TH``.

Every face is a ``Text`` whose styles are spans, not a base style, so that faces can be joined
without one's style running into the next."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from solver.cards import RANKS, SUIT_NAMES, card_str, sort_cards, suit_str
from solver.deal import Deal
from solver.rules import Rules, option_text
from solver.tricks import SEAT_WORDS

RED_SUITS = (1, 2)  # hearts, diamonds
SIDE_STYLES = ("cyan", "magenta", "yellow")
GOOD, BAD, QUIET = "green", "red", "dim"


def suit_style(suit: int, trump: int | None = None) -> str:
    style = "red" if suit in RED_SUITS else ""
    return f"bold {style}".strip() if suit == trump else style


def suit_face(suit: int, pretty: bool, trump: int | None = None) -> Text:
    return Text().append(suit_str(suit, pretty), style=suit_style(suit, trump))


def card_face(card: int, pretty: bool, trump: int | None = None) -> Text:
    return Text().append(card_str(card, pretty), style=suit_style(card >> 4, trump))


def cards_face(cards: Iterable[int], pretty: bool, trump: int | None = None,
               sort: bool = False) -> Text:
    cards = sort_cards(cards) if sort else list(cards)
    return Text(" ").join(card_face(c, pretty, trump) for c in cards)


def ranks_face(cards: Iterable[int]) -> str:
    """The ranks of cards of one suit, high first, spaced: ``A Q 9``."""
    return " ".join(RANKS[c & 15] for c in sort_cards(cards))


def trump_words(deal: Deal, pretty: bool, narrow: bool = False) -> Text:
    """``trumps ♥ hearts (turn-up 6♥)`` (``narrow``: the turn-up on a line of its own)."""
    return trumps_face(deal.trump, deal.turnup, pretty, narrow=narrow)


def trumps_face(trump: int, turnup: int | None, pretty: bool, aside: Sequence[int] = (),
                narrow: bool = False) -> Text:
    """``trumps ♣ clubs (turn-up 7♣; set aside 8♥ 3♥)``: the trumps, the card turned up for
    them and the runs' turn-ups set aside before it (``narrow``: the turn-up on a line of its
    own)."""
    text = Text("trumps ")
    text.append_text(suit_face(trump, pretty, trump))
    text.append(f" {SUIT_NAMES[trump]}")
    if turnup is not None:
        text.append("\n(turn-up " if narrow else " (turn-up ")
        text.append_text(card_face(turnup, pretty, trump))
        if aside:
            text.append("; set aside ")
            text.append_text(cards_face(aside, pretty, trump))
        text.append(")")
    return text


def side_face(deal: Deal, side: int) -> Text:
    return Text().append(deal.side_name(side), style=f"bold {SIDE_STYLES[side]}")


def seat_face(deal: Deal, seat: int, whole: bool = False) -> Text:
    """``S``, or (``whole``) ``South``: where suits are letters too, as in a diagram without
    suit symbols."""
    name = deal.seats[seat]
    return Text().append(SEAT_WORDS[name] if whole else name,
                         style=f"bold {SIDE_STYLES[deal.side_of(seat)]}")


#: The game a preset plays, where it is not All Fives: All Fours is the parent game.
GAME_NAMES = {"all-fours": "All Fours"}


def rules_words(rules: Rules, target: bool = True) -> str:
    """``all-fives``, or ``classic (skunk=true)`` with the options set over the preset; the
    target left out where it is said beside them (``61 to win``)."""
    changes = {k: v for k, v in rules.changes().items() if target or k != "target"}
    if not changes:
        return rules.preset_name
    return (rules.preset_name + " (" + ", ".join(f"{k}={option_text(v)}"
                                                 for k, v in changes.items()) + ")")


def game_name(preset: str) -> str:
    """The name of the game the preset ``preset`` plays: ``All Fours``, else ``All Fives``."""
    return GAME_NAMES.get(preset, "All Fives")


def spelled_here(text: str, pretty: bool) -> str:
    """A help's text as this output shows it: where the suit signs are not shown, without its
    example of a card spelled with one (``T♥``), which would read as ``TH`` again."""
    return text if pretty else text.replace(", T♥)", ")")


def hanging(text: Text, step: int = 2):
    """``text`` to print with each of its lines indented as it begins, ``  Score: ...`` by two,
    and the parts a line is wrapped into ``step`` further: a hanging indent, so that a wrapped
    line is not read as a new one.  With ``step`` 0 (a table's cell) the wrapped parts are
    flush, and the text is never narrower than its longest word (``KEEP``-joined words as
    one)."""
    from rich.console import Group

    if not text.plain.strip(" \n"):
        return text
    parts = []
    for line in text.split("\n"):
        indent = len(line.plain) - len(line.plain.lstrip(" "))
        if indent:
            line = line.divide([indent])[1]
        parts.append(_Hanging(line, indent, step))
    return Group(*parts)


#: A space that no line is broken at (``seed\u00a09``): ``hanging`` keeps the words it joins
#: together, and prints it as a plain space.
KEEP = "\u00a0"
#: What ``KEEP`` stands as while a line is wrapped: a character of one cell that is no space.
_HELD = "\ue000"


class _Hanging:
    """One line of text indented by ``indent``, its wrapped parts by ``indent + step``; never
    broken at a ``KEEP``."""

    def __init__(self, line: Text, indent: int, step: int) -> None:
        self.line, self.indent, self.step = line.copy(), indent, step
        self.line.plain = self.line.plain.replace(KEEP, _HELD)     # (the spans stay)

    def __rich_console__(self, console, options):
        # on a console narrower than the indents they shrink, leaving a column for the text
        indent = min(self.indent, options.max_width - 1)
        more = min(indent + self.step, options.max_width - 1)
        first = self.line.wrap(console, max(1, options.max_width - indent))[0] \
            if self.line.plain else Text()
        rest = self.line.divide([len(first.plain)])[1] if self.line.plain else Text()
        rest = rest.divide([len(rest.plain) - len(rest.plain.lstrip(" "))])[1]
        lines = [(indent, first)]
        if rest.plain:
            lines += [(more, part) for part in rest.wrap(console, max(1, options.max_width - more))]
        for margin, part in lines:
            part.rstrip()
            part.plain = part.plain.replace(_HELD, " ")
            yield Text(" " * margin) + part

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        least = 1 if self.step else max((len(word) for word in self.line.plain.split()),
                                        default=1)
        return Measurement(self.indent + least, self.indent + self.line.cell_len)

