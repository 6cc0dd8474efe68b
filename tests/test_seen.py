"""Hidden hands: the ``"?"`` / ``-`` of deal files read and written without loss, every position
that cannot be refused with one line naming the key, and the ``Observation`` a seat gets from a
position with hidden hands checked against the game engine's own at real tables."""

from __future__ import annotations

import dataclasses
import inspect
import random
import re

import pytest

from clirun import run
from solver.cards import ALL_CARDS, parse_card, parse_cards, sort_cards, suit_of
from solver.deal import DealFileError, Position
from solver.errors import AllFivesError
from solver.game import BEG, CALLS, PLAY, RUN, STAND, TAKE_ONE, Match
from solver.notation import line_str, parse_line, parse_toml, toml_str
from solver.pegging import Peg, pegs
from solver.players import decide
from solver.registry import make_player
from solver.rules import PRESETS, Rules
from solver.sampling import sample_worlds
from solver.seen import call_observation, hide, read_seen
from solver.tricks import SeatError, legal_plays
from test_notation import random_position as notation_position

TWO = "N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H"


def random_position(rng: random.Random) -> Position:
    """A random position (``test_notation``'s) of a match not yet over: where the captures
    have pegged a side out, the deal is taken without its score."""
    position = notation_position(rng)
    deal = position.deal
    if deal.score is not None and deal.rules.finish == "peg-out":
        score = list(deal.score)
        for peg in pegs(position):
            if peg.what.startswith("trick"):
                score[peg.side] += peg.points
                if score[peg.side] >= deal.rules.target:
                    return Position(dataclasses.replace(deal, score=None), position.play)
    return position


def random_hidden(rng: random.Random, position: Position) -> tuple[int, ...]:
    """Some seats, not all, never the seat to move while play remains."""
    n = position.deal.players
    keep = position.to_move if not position.is_over else rng.randrange(n)
    others = [s for s in range(n) if s != keep]
    return tuple(sorted(rng.sample(others, rng.randrange(1, len(others) + 1))))


# ---- the text forms ----------------------------------------------------------------------------

def test_hidden_hands_round_trip_in_both_forms():
    rng = random.Random(9)
    for _ in range(400):
        position = random_position(rng)
        seen = hide(position, random_hidden(rng, position))
        layout = seen.layout
        assert parse_toml(toml_str(layout), hidden=True) == layout._replace(source="<string>")
        assert parse_line(line_str(layout), hidden=True) == layout._replace(source="<line>")
        assert read_seen(seen.to_toml()).layout == layout._replace(source="<string>")
        for seat in layout.hidden:
            assert f'{position.deal.seats[seat]} = "?"' in seen.to_toml()
        assert seen.to_line().split().count("-") + seen.to_line().startswith("N:- ") \
            == len(layout.hidden)


def test_the_forms_as_written_by_hand():
    toml = read_seen('dealer = "S"\nturnup = "6H"\nplay = ["TH", "AH"]\n[hands]\n'
                     'N = "TS QH JH TH 9H 2H"\nS = "?"\n')
    line = read_seen("N:T.QJT92.-.- - dealer=S turnup=6H play=TH,AH")
    also = read_seen("N:T.QJT92.-.- ? dealer=S turnup=6H play=TH,AH")
    assert toml.layout.hidden == line.layout.hidden == also.layout.hidden == (1,)
    assert toml.layout.hands == line.layout.hands
    # S played AH (hidden hand): S won the trick and holds five unknown cards
    assert line.counts == (5, 5) and line.held[1] is None and line.to_move == 1


@pytest.mark.parametrize("text", [
    "N:T.QJT92.-.- - dealer=S turnup=6H",
    'turnup = "6H"\n[hands]\nN = "TS QH JH TH 9H 2H"\nS = "?"\n',
])
def test_solve_refuses_a_hidden_hand_in_one_line(tmp_path, text):
    path = tmp_path / ("deal.toml" if "[hands]" in text else "deal.txt")
    path.write_text(text)
    result = run("solve", path)
    assert result.exit_code == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert "hands.S: the hand is hidden, but this needs every hand" in line


@pytest.mark.parametrize("text, message", [
    ("N:- - dealer=S trump=H", "hands: every hand is hidden"),
    ("N:AK.-.-.- - Q.-.-.- trump=H", "hands.S: 1 card, but N has 2"),
    ("N:AK.-.-.- - dealer=S trump=H play=AS,AS", "play[1]: 'AS' is played twice"),
    ("N:AK.-.-.- - dealer=S turnup=2H play=2H", "play[0]: '2H' is the turn-up"),
    ("N:AK.-.-.- - dealer=S trump=H play=AS,KS", "play[1]: 'KS' is in N's hand, but S plays it"),
    ("N:AK.-.-.- - dealer=N trump=H play=AS", "play[0]: 'AS' is in N's hand, but S plays it"),
    ("N:AK.-.-.- - dealer=S trump=H play=QS", "play[0]: 'QS' is not in N's hand"),
    # the follow rule named is the card led's, not the last card played's (a trump)
    ("N:AQ.-.-.- -.2.3.- K.-.-.2 trump=H play=AS,2H,2C",
     "play[2]: S may not play '2C' to 'AS' led (follow suit or trump)"),
    ("N:AK.-.-.- - dealer=S trump=H play=AS,2C,KS,3S",
     "play[3]: S plays '3S', but showed no spades at play[1]"),
    ("N:AK.-.-.- - dealer=S trump=H play=AS,2D,KS,2C,QS",
     "play[4]: 'QS' is played after the last trick"),
    ("N:AKQJT98765432.-.-.- - - - turnup=2H",
     "hands: 4 hands of 13 cards and the turn-up do not fit in a pack"),
    ("N:AKQJT98765432.-.AKQJT987654.- - dealer=S turnup=4C aside=2H,3H,4H,5H,6H,7H "
     "max_runs=none",
     "hands: 2 hands of 24 cards and the turn-up and 6 cards set aside do not fit in a pack"),
    ("N:AK.-.-.- - dealer=S trump=H score=61,3", "score: N has 61, already at the target 61"),
    ("N:TK.-.-.- - dealer=S trump=S score=55,3 play=TS,2S",
     "play[1]: N reaches the target 61 with trick 1: the match is over"),
    # exactly at the target (51 + 10) is over too, not only past it
    ("N:TK.-.-.- - dealer=S trump=S score=51,3 play=TS,2S",
     "play[1]: N reaches the target 61 with trick 1: the match is over"),
    # the captures of the play so far added up; the other side's too
    ("N:TA.-.-.- - dealer=S trump=S score=47,3 play=TS,2S,AS,3S",
     "play[3]: N reaches the target 61 with trick 2: the match is over"),
    ("N:32.-.-.- - dealer=S trump=S score=3,55 play=2S,TS",
     "play[1]: S reaches the target 61 with trick 1: the match is over"),
    ("N:AKQJT9876.-.-.- - dealer=S turnup=2H aside=7C play=AS,7C",
     "play[1]: '7C' was set aside by a run, and is in no hand"),
    ("N:AK.-.-.- - dealer=S turnup=2H aside=7C,7C", "aside[1]: '7C' is set aside twice"),
    ("N:AK.-.-.- - dealer=S turnup=2H aside=2H", "aside[0]: '2H' is the turn-up, not one set"),
    ("N:AK.-.-.- - dealer=S turnup=2H aside=KS", "aside[0]: 'KS' is set aside, but is in N's"),
    ("N:AK.-.-.- - dealer=S turnup=2H aside=ZZ", "aside[0]: "),
    ("N:AK.-.-.- - dealer=S trump=H aside=7C", "aside: the cards set aside by runs come with the "
                                               "turn-up after them: give turnup"),
    # what runs can make: turn-ups of the suit first proposed set aside, one a run, within
    # the rules' runs, the last turned up of another suit, hands 3 cards a run larger
    ("N:AKQJT9876543.-.-.- - - - aside=2H,3C turnup=4D",
     "aside[1]: '3C' is not of the suit first proposed (hearts): a run sets aside only "
     "turn-ups of that suit"),
    ("N:AKQJT9876543.-.-.- - - - aside=2H,3H turnup=4H",
     "turnup: '4H' is of the suit set aside (hearts), which a run turns up again only to run "
     "again"),
    ("N:AKQJT98765432.-.-.- - - aside=2H,3H,4H turnup=4C",
     "aside: 3 turn-ups set aside, but the rules allow 2 runs"),
    ("N:AKQJT98765432.-.-.- - - - aside=2H,3H turnup=4C",
     "aside: 2 runs deal hands of 12 cards, not 13"),
    ("N:AK.-.-.- - dealer=S turnup=2H aside=7C", "aside: 1 run deals hands of 9 cards, not 2"),
    # the calls: one of the three, on a turn-up, fitting the hands as dealt and the turn-ups
    # set aside (a run's give the suit first proposed, which the calls are weighed by)
    ("N:AKQJT9.-.-.- - turnup=2H calls=beg", "calls: 'beg' is not 'stand', 'beg, take-one' or "
                                             "'beg, run' (the elder hand's call, and the "
                                             "dealer's to a beg)"),
    ("N:AKQJT9.-.-.- - turnup=2H calls=run,beg", "calls: 'run, beg' is not 'stand'"),
    ("N:AKQJT9.-.-.- - turnup=2H calls=", "calls: '' is not 'stand'"),
    ("N:AKQJT9.-.-.- - trump=H calls=stand", "calls: 'stand': calls are made on a turn-up: "
                                             "give turnup"),
    ("N:AKQJT9876.-.-.- - turnup=2H calls=beg,run", "calls: 'beg, run': give aside, the "
                                                   "turn-ups the runs set aside (the suit first "
                                                   "proposed is theirs)"),
    ("N:AKQJT9876.-.-.- - turnup=2H aside=7C calls=beg,take-one",
     "calls: 'beg, take-one', but aside holds turn-ups set aside by a run"),
    ("N:AKQJT9876.-.-.- - turnup=2H calls=stand", "calls: after 'stand' the hands as dealt hold "
                                                  "6 cards, not 9"),
    ("N:AKQJT9.-.-.- - turnup=2H aside=7C calls=beg,run",
     "aside: 1 run deals hands of 9 cards, not 6"),
])
def test_what_cannot_be_is_one_line_naming_the_key(text, message):
    with pytest.raises(DealFileError) as error:
        read_seen(text, "<line>", toml=False)
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_a_trick_that_leaves_a_side_short_of_the_target_lets_the_play_go_on():
    """The other side of the boundary above: 50 + 10 is 60, one short of 61, and play goes on
    (51 + 10, exactly 61, ends the match)."""
    seen = read_seen("N:TK.-.-.- - dealer=S trump=S score=50,3 play=TS,2S", "<line>", toml=False)
    assert seen.pegs == (Peg(0, 10, "trick 1"),) and seen.to_move == 0
    # nor does the match end mid-play where it ends only with the hand
    seen = read_seen("N:TK.-.-.- - dealer=S trump=S score=55,3 finish=hand-end play=TS,2S",
                     "<line>", toml=False)
    assert seen.pegs == (Peg(0, 10, "trick 1"),) and seen.to_move == 0


def test_the_turnups_set_aside_are_seen_by_every_seat_and_dealt_to_no_hand():
    """``aside`` (the runs' turn-ups) reads and writes in both forms, the seat's observation
    has them among its turn-ups, and no world deals them into a hidden hand."""
    text = "N:- - - KJ4.AJ9.Q954.KQ dealer=E turnup=6D aside=7H,8H play=AS,4S,5S,3S,5C"
    seen = read_seen(text)
    aside = tuple(parse_cards("7H 8H"))
    assert seen.layout.aside == aside
    assert read_seen(seen.to_toml()).layout == seen.layout._replace(source="<string>")
    assert read_seen(seen.to_line()).layout == seen.layout._replace(source="<string>:1")
    assert 'aside = ["7H", "8H"]' in seen.to_toml() and "aside=7H,8H" in seen.to_line()
    assert not set(aside) & set(seen.unseen())
    assert len(seen.unseen()) == 52 - 11 - 5 - 1 - 2
    observation = seen.observation()
    assert observation.turnups == (*aside, parse_card("6D"))
    worlds = seen.worlds(observation.seat, 300, random.Random(3))
    assert len(worlds) == 300
    assert all(not set(aside) & {c for hand in world.hands for c in hand} for world in worlds)
    # the beg and the run the turn-ups set aside tell weigh the worlds only when asked to
    assert set(worlds.weights) == {1.0}
    weighed = seen.worlds(observation.seat, 300, random.Random(3), bidding=True)
    assert len(set(weighed.weights)) > 1


def test_a_take_one_near_the_target_is_weighed_as_at_the_table():
    """The score given is at the start of play, the take-one's point in it: the dealer's
    take-one at N 59 before the deal was a choice (N could not reach 61 by it) and weighs the
    worlds; it was counted forced, N's score taken as 60 before the deal."""
    seen = read_seen("N:AKQJT9.-.-.- - dealer=S turnup=2H calls=beg,take-one score=60,40")
    observation = seen.observation()
    assert observation.pegs[0] == Peg(0, 1, "take-one") and observation.score == (60, 40)
    weights = {w.weight for w in seen.worlds(0, 40, random.Random(2), bidding=True)}
    assert len(weights) > 1


def test_a_hand_hidden_as_on_one_line_in_toml_is_told_the_toml_way():
    with pytest.raises(DealFileError) as error:
        read_seen('dealer = "S"\ntrump = "H"\n[hands]\nN = "AH KH"\nS = "-"\n', "deal.toml",
                  toml=True)
    assert str(error.value) == ("deal.toml: hands.S: '-' hides a hand in the one-line form; "
                                "in a deal file a hidden hand is \"?\"")


def test_a_text_without_a_position_is_one_error():
    with pytest.raises(DealFileError, match="^f.txt: no position: nothing but blank lines and "
                                            "comments$"):
        read_seen("# nothing but a comment\n", "f.txt", toml=False)
    with pytest.raises(DealFileError, match="^f.txt: empty: no position in it$"):
        read_seen("\n  \n", "f.txt", toml=False)


def test_voids_by_the_follow_rule():
    # trump-anytime: a trump to a plain lead shows nothing, a plain card off suit shows a void
    anytime = read_seen("N:AK.-.-.- - dealer=S trump=H play=AS,2H", toml=False)
    assert anytime.voids[1] == frozenset()
    off = read_seen("N:AK.-.-.- - dealer=S trump=H play=AS,2C", toml=False)
    assert off.voids[1] == {suit_of(parse_card("AS"))}
    # strict: any card off the suit led, trumps included, shows a void
    strict = read_seen("N:AK.-.-.- - dealer=S trump=H follow=strict play=AS,2H", toml=False)
    assert strict.voids[1] == {suit_of(parse_card("AS"))}
    # a trump lead not followed shows no trumps, either rule
    trumps = read_seen("N:-.AK.-.- - dealer=S trump=H play=AH,2C", toml=False)
    assert trumps.voids[1] == {suit_of(parse_card("AH"))}


def test_hidden_hands_that_the_unseen_cards_cannot_fill():
    # S (hidden, strict) shows no spades, hearts or diamonds and must still hold 8 cards;
    # N holds four clubs and three were played: 6 clubs are unseen
    text = "N:{} - dealer=S trump=S follow=strict play=AS,2C,AH,3C,AD,4C"
    with pytest.raises(DealFileError) as error:
        read_seen(text.format("AKQ.AK.AK.AKQJ"), "<line>", toml=False)
    assert "hands: S must still hold 8 cards, but only 6 unseen cards can be theirs " \
           "(S shows no spades hearts diamonds)" in str(error.value)
    # with one club in N's hand, 9 are unseen: it can be
    assert read_seen(text.format("AKQJ.AKQ.AKQ.A"), "<line>", toml=False).counts[1] == 8


def test_hall_condition_over_several_hidden_seats():
    # E and W (hidden, strict) show no spades, hearts or diamonds and must still hold 3 cards
    # each: 4 clubs are unseen, enough for either alone but not for both
    text = ("N:A.A.A.{} - K2.K2.K2.- - dealer=W trump=D follow=strict "
            "play=AS,2C,2S,3C,AH,4C,2H,5C,AD,6C,2D,7C")
    with pytest.raises(DealFileError) as error:
        read_seen(text.format("AKQ"), "<line>", toml=False)
    assert "hands: E and W must still hold 6 cards, but only 4 unseen cards can be theirs " \
           "(E shows no spades hearts diamonds; W shows no spades hearts diamonds)" \
           in str(error.value)
    # with N holding one club (and a spade for another), 6 are unseen: it can be
    seen = read_seen(text.format("A").replace("N:A.A.", "N:AQ.AQ.").replace("K2.K2", "J2.K2"),
                     "<line>", toml=False)
    assert seen.counts == (3, 3, 3, 3)


def test_the_seat_advised():
    seen = read_seen(TWO.replace("Q.AK5.7.4", "-"))
    assert seen.advised_seat() == 0 and seen.advised_seat("n") == 0
    with pytest.raises(DealFileError, match="S is not to play: N is"):
        seen.advised_seat("S")
    with pytest.raises(SeatError, match="no seat 'E' at a 2-player table"):
        seen.advised_seat("E")
    hidden_mover = read_seen("N:- Q.AK5.7.4 dealer=S turnup=6H")
    with pytest.raises(DealFileError, match="hands.N: N is to play, but the hand is hidden"):
        hidden_mover.observation()
    for seat in (-1, 2, True, 0.5):
        with pytest.raises(DealFileError, match=f"seat {seat!r} is not at a 2-player table"):
            seen.observation(seat)
    over = read_seen("N:A.-.-.- - dealer=S trump=S play=AS,2C")
    with pytest.raises(DealFileError, match="play: the play is over"):
        over.observation()


# ---- the observation against the game engine ---------------------------------------------------

def table_states(seed: int, players: int, rules: Rules, count: int):
    """Card-play states of real matches between random players, with their positions."""
    rng = random.Random(seed)
    match = Match(players, rules)
    bots = [make_player("random", seed=rng.random()) for _ in range(players)]
    found = 0
    while found < count:
        state = match.new_initial_state(seed=rng.random())
        while found < count and not state.is_terminal():
            if state.phase == PLAY and rng.random() < 0.3:
                position = state.position()
                if position.deal.score is not None:
                    found += 1
                    yield state, position
            state.apply_action(decide(bots[state.current_player()], state))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_observation_is_what_the_table_shows_the_seat(players, preset):
    rng = random.Random(players * 100 + len(preset))
    checked = 0
    for state, position in table_states(rng.randrange(10**6), players, PRESETS[preset], 40):
        mover = position.to_move
        hidden = tuple(s for s in range(players) if s != mover and rng.random() < 0.8) or \
            tuple(s for s in range(players) if s != mover)
        seen = hide(position, hidden)
        mine, theirs = seen.observation(), state.observation(mover)
        for field in ("seat", "players", "rules", "phase", "current_player", "dealer", "hand",
                      "trump", "play", "revokes", "legal_actions"):
            assert getattr(mine, field) == getattr(theirs, field), field
        assert mine.turnups == theirs.turnups[-1:]
        # (a take-one is not known where the calls are not told; a turned-up Jack is)
        assert mine.pegs == tuple(p for p in theirs.pegs if p.what != "take-one")
        assert mine.score == theirs.score
        assert mine.calls == ()         # (a position that says nothing of them)
        # the turn-ups set aside and the calls written in a text: the table's calls, read back
        words = tuple(CALLS[action] for _, action in theirs.calls)
        told = seen.layout._replace(aside=theirs.turnups[:-1], calls=words)
        for text, toml in ((line_str(told), False), (toml_str(told), True)):
            again = read_seen(text, "<text>", toml).observation()
            assert (again.calls, again.turnups, again.pegs, again.score) == \
                (theirs.calls, theirs.turnups, theirs.pegs, theirs.score)
        # ... and they weigh the worlds as at the table
        only_mine = read_seen(line_str(hide(position, tuple(
            s for s in range(players) if s != mover)).layout._replace(
                aside=theirs.turnups[:-1], calls=words)))
        drawn = only_mine.worlds(mover, 8, random.Random(1), bidding=True)
        at_table = sample_worlds(theirs, 8, random.Random(1), bidding=True)
        assert [(w.hands, w.weight) for w in drawn] == [(w.hands, w.weight) for w in at_table]
        # a run's calls are those its turn-ups set aside tell
        told = told._replace(calls=())
        assert read_seen(line_str(told)).observation().calls == \
            (theirs.calls if told.aside else ())
        checked += 1
    assert checked == 40


def test_the_hidden_hands_hold_no_card_of_a_void_shown():
    rng = random.Random(4)
    for _ in range(600):
        position = random_position(rng)
        seen = hide(position, random_hidden(rng, position))
        for seat in seen.hidden:
            assert not {suit_of(c) for c in position.hands[seat]} & seen.voids[seat]
            assert seen.counts[seat] == len(position.hands[seat])
        unseen = set(seen.unseen())
        for seat in seen.hidden:
            assert set(position.hands[seat]) <= unseen
        if not position.is_over and position.to_move not in seen.hidden:
            obs = seen.observation()
            assert set(obs.legal_actions) == set(position.legal_moves())
            assert obs.hand == tuple(sorted(position.hands[position.to_move],
                                            key=lambda c: (suit_of(c), -c)))


def test_voids_are_exactly_what_the_follow_rule_shows():
    """A suit is shown void exactly when no hand holding it could have played that card: the
    rule checked by trying every one-card hand of the suit against ``legal_plays``."""
    rng = random.Random(11)
    for _ in range(300):
        position = random_position(rng)
        deal = position.deal
        if not position.play:
            continue
        seen = hide(position, tuple(range(1, deal.players)) if position.to_move == 0 or
                    position.is_over else tuple(s for s in range(deal.players)
                                                 if s != position.to_move))
        expected = [set() for _ in range(deal.players)]
        for trick in position.tricks:
            for k, card in enumerate(trick.cards[1:], 1):
                seat = trick.seat_of(k, deal.players)
                if seat not in seen.hidden:
                    continue
                led = suit_of(trick.cards[0])
                witness = [c for c in range(led * 16, led * 16 + 13) if c != card]
                if all(card not in legal_plays([w, card], trick.cards[:k], deal.trump,
                                               deal.rules.strict_follow) for w in witness):
                    expected[seat].add(led)
        for seat in seen.hidden:
            assert seen.voids[seat] == expected[seat]


# ---- the calls -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_call_observation_is_the_tables(players):
    rng = random.Random(players)
    for _ in range(60):
        cards = rng.sample(ALL_CARDS, 7)
        hand, turnup = sorted(cards[:6]), cards[6]
        dealer = rng.randrange(players)
        elder = (dealer + 1) % players
        rules = PRESETS[rng.choice(sorted(PRESETS))]
        score = tuple(rng.randrange(rules.target) for _ in range(2 if players == 4 else players))
        for seat, phase in ((elder, "elder"), (dealer, "dealer")):
            obs = call_observation(hand, turnup, seat, players, dealer, rules, score,
                                   seed=rng.random())
            assert obs.phase == phase and obs.seat == obs.current_player == seat
            assert set(obs.hand) == set(hand) and obs.turnups == (turnup,)
            assert obs.dealer == dealer and obs.score == score and obs.play == ()
            if seat == dealer:      # with no score given, 0 a side
                assert call_observation(hand, turnup, seat, players, dealer, rules).score == \
                    (0,) * len(score)
            assert obs.calls == (() if phase == "elder" else ((elder, BEG),))
            assert obs.legal_actions == ((STAND, BEG) if phase == "elder" else
                                         (TAKE_ONE,) if rules.max_runs == 0 else (TAKE_ONE, RUN))
            # nothing of the other hands shows: another shuffle, the same observation
            assert call_observation(hand, turnup, seat, players, dealer, rules, score,
                                    seed=rng.random()) == obs


@pytest.mark.parametrize("args, message", [
    (dict(seat=2, players=4, dealer=3), "S has no call: with W dealing, the elder hand N "
                                        "stands or begs and the dealer W takes one or runs"),
    (dict(hand="AH KH"), "the hand holds 2 cards: a call is made on the 6 cards dealt"),
    (dict(turnup="AH"), "the turn-up AH is also in the hand"),
    (dict(score=(3,)), "the score takes 2 entries, one a side (N S), not 1"),
    (dict(score=(61, 0)), "N has 61, already at the target 61"),
    (dict(seat=0, players=4, dealer=4), "a seat of a 4-player table is one of N E S W"),
    (dict(seat=1, players=3, dealer=-1), "a seat of a 3-player table is one of N E S"),
    (dict(seat=2, dealer=1), "a seat of a 2-player table is one of N S"),
    (dict(seat=-1, dealer=0), "a seat of a 2-player table is one of N S"),
])
def test_a_call_that_cannot_be(args, message):
    given = dict(hand="AH KH 5H 9C 2D 3S", turnup="7H", seat=0, players=2, dealer=1)
    given.update(args)
    given["hand"], given["turnup"] = parse_cards(given["hand"]), parse_card(given["turnup"])
    with pytest.raises(AllFivesError, match=re.escape(message)):
        call_observation(**given)


# ---- the observation against the world sampler ---------------------------------------------------

def test_the_true_hands_of_a_hidden_position_give_it_back():
    """Hide hands of random positions: the observation, with the true hands as the sampler's
    World, is the position again (``solver.sampling.world_position``)."""
    from solver import sampling
    rng = random.Random(12)
    checked = 0
    for _ in range(500):
        position = random_position(rng)
        if position.is_over:
            continue
        seen = hide(position, random_hidden(rng, position))
        obs = seen.observation()
        world = sampling.World(tuple(tuple(sort_cards(h)) for h in position.hands))
        again = sampling.world_position(obs, world)
        deal = position.deal
        expected = deal.score if deal.score is not None else (0,) * deal.sides
        assert again.deal.hands == deal.hands
        assert (again.deal.trump, again.deal.dealer, again.deal.rules, again.deal.turnup) == \
            (deal.trump, deal.dealer, deal.rules, deal.turnup)
        assert again.play == position.play and again.deal.score == expected
        checked += 1
    assert checked > 300


def test_a_seen_positions_observation_is_the_first_deal_of_a_match_of_one_game():
    observation = read_seen("N:A.-.-.- 2.-.-.- trump=S").observation()
    assert (observation.best_of, observation.game, observation.deal) == (1, 1, 1)
    assert observation.games_won == observation.score == (0, 0)
    four = read_seen("N:A.-.-.- - - - trump=S").observation()
    assert four.games_won == four.score == (0, 0)


def test_a_seen_position_is_a_frozen_value():
    seen = read_seen("N:A.-.-.- 2.-.-.- trump=S")
    assert hash(seen) == hash(read_seen("N:A.-.-.- 2.-.-.- trump=S"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        seen.counts = (0, 0)


@pytest.mark.parametrize("count", [10, 11])
def test_the_positions_of_a_file_are_named_all_up_to_ten(count):
    """A text of several positions is refused, naming them to choose from: every one up to
    ten, and beyond ten the first three and the last."""
    rng = random.Random(count)
    text = "".join(f"{notation_position(rng).to_line()}\n" for _ in range(count))
    with pytest.raises(DealFileError) as raised:
        read_seen(text, "deals.txt")
    named = [f"deals.txt:{n}" for n in range(1, count + 1)]
    shown = f"{', '.join(named[:-1])} or {named[-1]}" if count <= 10 else \
        f"{', '.join(named[:3])}, ... {named[-1]}"
    assert str(raised.value).endswith(f"(name one: {shown})")


def test_every_world_is_dealt_once_up_to_ten_thousand_of_them():
    """Every world, once each, is dealt where no more than 10,000 agree (``exact_limit``);
    beyond that, asked for all of them, the worlds are drawn with repeats: here 12,341, the 3
    cards S holds after three tricks out of the 43 N has not seen."""
    seen = read_seen("N:AKQ.2.3.4 - dealer=S trump=H play=AS,2S,KS,3S,QS,4S", "<line>",
                     toml=False)
    total = seen.worlds(0, 1, random.Random(1)).total
    assert total == 12_341
    for worlds in (seen.worlds(0, total, random.Random(1)),
                   sample_worlds(seen.observation(0), total, random.Random(1))):
        assert not worlds.exact and len(worlds) == total > len({w.hands for w in worlds})
    # by default as sample_worlds's: exact up to 10,000, the calls not weighed
    for function in (seen.worlds, sample_worlds):
        parameters = inspect.signature(function).parameters
        assert (parameters["exact_limit"].default, parameters["bidding"].default) == \
            (10_000, False)
    # a limit above them: each once
    worlds = seen.worlds(0, total, random.Random(1), exact_limit=total)
    assert worlds.exact and len({w.hands for w in worlds}) == total
