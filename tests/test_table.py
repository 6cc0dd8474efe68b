"""``allfives play``'s screen (``cli.table``) drawn from a match's observations: the lines that
say what a seat can see, each checked against the state it comes from."""

from __future__ import annotations

from solver.cards import SUIT_NAMES, card_str, suit_of
from solver.game import BEG, RUN, TAKE_ONE, Match

from cli.table import WIDTH, fit, pegged_this_deal, table_screen


def screen_lines(obs, pretty: bool = False, **options) -> list[str]:
    return table_screen(obs, 61, "peg-out", pretty, **options).plain.split("\n")


def begun(*calls: int, players: int = 2, best_of: int = 1):
    """A match's first deal with the elder hand (seat 0, the dealer the last seat) to call,
    after ``calls``, and the turn-up before them."""
    state = Match(players, best_of=best_of).new_initial_state(seed=3, dealer=players - 1)
    first = state.observation(0).turnups[-1]
    for call in calls:
        state.apply_action(call)
    return state, first


def test_the_screen_is_laid_out_for_80_columns_when_no_width_is_given():
    """No width is 80 columns; a width below the narrowest is laid out at the narrowest."""
    assert (WIDTH, fit(None), fit(10), fit(100)) == (80, 80, 40, 100)
    state, _ = begun()
    obs = state.observation(0)
    assert screen_lines(obs) == screen_lines(obs, width=80) != screen_lines(obs, width=79)
    assert max(map(len, screen_lines(obs))) <= 80


def test_the_turn_up_proposes_trumps_until_they_are_fixed():
    """Before the calls the turn-up's suit is proposed; after a run the new turn-up's suit is
    trumps and the first turn-up is named as set aside."""
    state, first = begun()
    proposed = f"Turn-up {card_str(first)}: {SUIT_NAMES[suit_of(first)]} proposed for trumps"
    assert proposed in screen_lines(state.observation(0))
    state.apply_action(BEG)
    state.apply_action(RUN)
    obs = state.observation(0)
    turnup = obs.turnups[-1]
    assert obs.turnups[0] == first and suit_of(turnup) != suit_of(first)
    assert obs.trump == suit_of(turnup)
    assert (f"Trumps {SUIT_NAMES[suit_of(turnup)]}: turn-up {card_str(turnup)} "
            f"(set aside by runs: {card_str(first)})") in screen_lines(obs)
    given, _ = begun(BEG, TAKE_ONE)
    assert f"Trumps {SUIT_NAMES[suit_of(first)]}: turn-up {card_str(first)}" in \
        screen_lines(given.observation(0))


def test_the_calls_made_are_listed_in_order():
    """``Calls:`` names each seat with its call, in the order made, once a call is made."""
    state, _ = begun()
    assert not any(line.startswith("Calls:") for line in screen_lines(state.observation(0)))
    state, _ = begun(BEG, RUN)
    assert "Calls: N beg, S run" in screen_lines(state.observation(0))
    state, _ = begun(BEG, TAKE_ONE)
    assert "Calls: N beg, S take-one" in screen_lines(state.observation(1))


def test_this_deals_points_are_marked_apart_on_the_pegboard():
    """The take-one's point, pegged this deal, is counted as this deal's (N 1, S 0) and shown
    as this deal's hole; a later game of a best-of names the games won."""
    state, _ = begun(BEG, TAKE_ONE, best_of=3)
    obs = state.observation(0)
    assert pegged_this_deal(obs) == [1, 0]
    lines = screen_lines(obs, pretty=True)
    rows = {line[0]: line for line in lines if line[:1] in "NS" and line[1:4] == "   "}
    assert rows["N"].startswith("N   1 ◆····") and rows["S"].startswith("S   0 ·····")
    assert lines[1].startswith("Deal 1, game 1 of best of 3 · you are N · S deals")
    assert "Games won: N 0, S 0" in lines
    assert not any("best of" in line or "Games won" in line
                   for line in screen_lines(begun(BEG, TAKE_ONE)[0].observation(0)))
