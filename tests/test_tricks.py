"""solver.tricks: the follow rule said in words is the rule ``legal_plays`` applies.

The words are worked out by hand from the README's `follow` option: under strict follow a seat
holding the suit led follows suit; under trump-anytime it follows suit or trumps to a plain
lead, but to a trump lead it must follow with a trump.
"""

from __future__ import annotations

import pytest

from solver.cards import HEARTS, parse_card, parse_cards, suit_of
from solver.tricks import follow_rule, legal_plays

# hearts are trumps; the hand holds one card of each suit
HAND = parse_cards("2H 3S 4C 6D")


@pytest.mark.parametrize("led, strict, words", [
    ("5H", False, "follow suit"),               # a trump lead: trumps must follow trumps
    ("5S", False, "follow suit or trump"),      # a plain lead may be trumped
    ("5H", True, "follow suit"),
    ("5S", True, "follow suit"),
])
def test_the_follow_rule_in_words_is_what_a_seat_holding_the_suit_led_may_play(led, strict,
                                                                                words):
    """To a trump lead under trump-anytime the words once could say "follow suit or trump",
    which is wrong (no other card may be played there) and no test noticed."""
    led_card = parse_card(led)
    assert follow_rule(led_card, HEARTS, strict) == words
    allowed = {suit_of(c) for c in legal_plays(HAND, [led_card], HEARTS, strict)}
    assert allowed == ({suit_of(led_card)} if words == "follow suit"
                       else {suit_of(led_card), HEARTS})
