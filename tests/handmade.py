"""Positions written by hand in tests: hands as card lists, seats and suits by letter."""

from __future__ import annotations

from solver.cards import parse_cards, parse_suit
from solver.deal import Deal, Position
from solver.rules import Rules


def make_position(hands: list[str], trump: str, dealer: str, rules: str | Rules = "all-fives",
                  play: str = "", **options) -> Position:
    """Hands clockwise from N; ``dealer`` by seat letter; ``options`` over the preset."""
    names = {2: "NS", 3: "NES", 4: "NESW"}[len(hands)]
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    if options:
        rules = rules.replace(**options)
    deal = Deal(tuple(tuple(parse_cards(h)) for h in hands), parse_suit(trump),
                names.index(dealer), rules)
    return deal.position(parse_cards(play))
