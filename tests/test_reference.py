"""The reference solver against positions worked by hand from RULES.md, and against properties
on many small random positions (2, 3 and 4 players, every preset, every objective, fresh deals
and the middle of tricks).

Hand-worked positions: seats play clockwise N -> E -> S -> W; the elder hand (dealer's left)
leads.  Pips: A 4, K 3, Q 2, J 1, T 10, 5 5.  "S: 6" means seat S scores 6 in total.
"""

from __future__ import annotations

import random

import pytest
from handmade import make_position

from solver.cards import card_str, parse_card, parse_cards, parse_suit, pip_value
from solver.deal import Deal, Position
from solver.shuffle import random_deal, random_position
from solver.reference import final_value, solve
from solver.rules import PRESETS, Rules
from solver.scoring import capture_points, score_position
from solver.tricks import trick_winner

# ---- helpers ------------------------------------------------------------------------------------

def side(position: Position, seat: str) -> int:
    return position.deal.side_of(position.deal.seats.index(seat))


def value(position: Position, seat: str, objective: str = "points") -> int:
    return solve(position, side(position, seat), objective).value


def moves(position: Position, seat: str, objective: str = "points") -> dict[str, int]:
    return solve(position, side(position, seat), objective).moves_str()


def line(position: Position, seat: str, objective: str = "points") -> list[str]:
    return [card_str(c) for c in solve(position, side(position, seat), objective).line]


# ---- the example of RULES.md --------------------------------------------------------------------

def test_rules_example_trick():
    # Spades trumps, 8C led, 5S and KS played on it: the KS wins and pegs 3 + 5 = 8.
    trick = tuple(parse_cards("8C 5S KS"))
    spades = parse_suit("S")
    assert trick_winner(trick, spades) == 2
    pos = make_position(["8C", "5S", "KS"], "S", dealer="S")
    assert capture_points(trick, pos.deal) == 8
    # One card each, all forced.  S takes the trick: 8 captured; High (KS dealt to S) 1; Low (5S
    # dealt to E) goes to E; no Jack of spades dealt; Game: S won 0 + 5 + 3 = 8 pips, the others
    # 0, so S.  S: 8 + 1 + 1 = 10, E: 1, N: 0.  S wins the one trick.
    assert value(pos, "S") == 10
    assert value(pos, "E") == 1
    assert value(pos, "N") == 0
    assert value(pos, "S", "tricks") == 1
    assert value(pos, "N", "tricks") == 0
    assert score_position(pos.after(*parse_cards("8C 5S KS"))).totals() == (0, 1, 10)


# The RULES.md trick as a two-card ending started in the middle of the trick.  Three players,
# spades trumps, dealer S so N leads.  N: 8C 2D, E: 5S 3D, S: KS 9C.  N has led 8C and E (void in
# clubs) has put on 5S; S is to play.  Trumps dealt: 5S (E) and KS (S): High to S, Low to E
# (holder); no JS.
#  - S plays KS: S wins 8C 5S KS, captures 8, 8 pips.  S leads 9C, N and E (void) discard 2D, 3D:
#    S wins, 0 pips.  S: 8 + High + Game(8 v 0 v 0) = 10.  E: Low = 1.  N: 0.  S 2 tricks.
#  - S plays 9C: E's 5S wins, E captures 5, 5 pips.  E leads 3D, S (void) plays KS and wins,
#    captures 3, 3 pips; N's 2D.  S: 3 + High = 4.  E: 5 + Low + Game(5 v 3 v 0) = 7.  S 1 trick.
RULES_EXAMPLE = (["8C 2D", "5S 3D", "KS 9C"], "S", "S")


def test_rules_example_mid_trick_all_fives():
    pos = make_position(*RULES_EXAMPLE, play="8C 5S")
    assert pos.to_move == 2 and len(pos.current.cards) == 2
    assert moves(pos, "S") == {"KS": 10, "9C": 4}
    assert value(pos, "S") == 10
    assert line(pos, "S") == ["KS", "9C", "2D", "3D"]
    # For E, S plays to hold E down: the KS leaves E only Low.
    assert moves(pos, "E") == {"KS": 1, "9C": 7}
    assert value(pos, "E") == 1
    assert moves(pos, "N") == {"KS": 0, "9C": 0}
    assert moves(pos, "S", "tricks") == {"KS": 2, "9C": 1}
    assert value(pos, "E", "tricks") == 0
    # By default the value is for the side to move.
    assert solve(pos).side == 2 and solve(pos).value == 10


def test_rules_example_mid_trick_strict():
    # Strict follow: S holds 9C and must follow clubs, so E's 5S wins (second line above).
    pos = make_position(*RULES_EXAMPLE, rules="strict", play="8C 5S")
    assert moves(pos, "S") == {"9C": 4}
    assert value(pos, "E") == 7
    assert value(pos, "S", "tricks") == 1


def test_rules_example_mid_trick_classic():
    # classic: strict follow and captures only.  S must play 9C: E captures 5, then S's KS
    # captures 3 in the second trick.
    pos = make_position(*RULES_EXAMPLE, rules="classic", play="8C 5S")
    assert moves(pos, "S") == {"9C": 3}
    assert value(pos, "E") == 5
    assert value(pos, "N") == 0


def test_rules_example_mid_trick_all_fours():
    # all-fours: no captures, fives count 0 toward Game.  KS line: S's tricks hold KS = 3 pips, so
    # S gets High + Game = 2.  9C line: E's trick (8C 5S 9C) holds 0 pips, S's (3D KS 2D) 3, so
    # again High + Game = 2.  E has Low in both: 1.
    pos = make_position(*RULES_EXAMPLE, rules="all-fours", play="8C 5S")
    assert moves(pos, "S") == {"KS": 2, "9C": 2}
    assert moves(pos, "E") == {"KS": 1, "9C": 1}


def test_rules_example_mid_trick_five_for_five():
    # five-for-five: whoever wins the 5S scores 5 more: S in the KS line (10 + 5), E in the 9C
    # line (7 + 5).
    pos = make_position(*RULES_EXAMPLE, rules="five-for-five", play="8C 5S")
    assert moves(pos, "S") == {"KS": 15, "9C": 4}
    assert moves(pos, "E") == {"KS": 1, "9C": 12}


# ---- follow rules: ruffing a Ten ----------------------------------------------------------------

# Two players, hearts trumps, dealer S so N leads.  N: TC 2D, S: 3C 4H.  The only trump is 4H
# (S's): High and Low both go to S; no captures count (4H has 0 pips).  Game is the TC.
#  trump-anytime:
#   N leads TC: S ruffs 4H and wins, leads 3C, N discards 2D: S has the 10 pips: S 3, N 0.
#               (S follows 3C: N wins 10 pips, N leads 2D, S ruffs: S 2, N 1.)
#   N leads 2D: S discards 3C: N wins, leads TC, S ruffs the Ten: S 3, N 0.
#               (S ruffs 4H: S leads 3C, N's TC wins: S 2, N 1.)
#   So S 3 whatever N leads; N 0.
#  strict:
#   N leads TC: S must follow 3C: N wins the Ten and game, N leads 2D, S ruffs: S 2, N 1.
#   N leads 2D: as above, S 3 (discard) or 2 (ruff); S takes 3.
#   So N leads TC: S 2, N 1.
TEN_RUFF = (["TC 2D", "3C 4H"], "H", "S")


def test_trump_anytime_lets_a_ten_be_ruffed():
    pos = make_position(*TEN_RUFF)
    assert moves(pos, "S") == {"TC": 3, "2D": 3}
    assert moves(pos, "N") == {"TC": 0, "2D": 0}
    # margin for N: TC -> S ruffs: 0 - 3; 2D -> S discards: 0 - 3.
    assert moves(pos, "N", "margin") == {"TC": -3, "2D": -3}
    assert value(pos, "S", "margin") == 3
    # tricks for S: TC -> S ruffs and also wins the 3C trick: 2.  2D -> S wins just one trick
    # whether it ruffs (then N's TC wins) or discards (then S ruffs the TC).
    assert moves(pos, "S", "tricks") == {"TC": 2, "2D": 1}
    assert value(pos, "N", "tricks") == 1
    # Mid-trick: after the TC lead, S chooses between the ruff and following.
    after = pos.after(parse_card("TC"))
    assert moves(after, "S") == {"4H": 3, "3C": 2}


def test_strict_follow_protects_the_ten():
    pos = make_position(*TEN_RUFF, rules="strict")
    assert moves(pos, "S") == {"TC": 2, "2D": 3}
    assert value(pos, "S") == 2
    # N: TC -> 1; 2D -> S discards -> 0.
    assert moves(pos, "N") == {"TC": 1, "2D": 0}
    assert value(pos, "N", "margin") == -1
    assert value(pos, "S", "margin") == 1
    assert moves(pos, "S", "tricks") == {"TC": 1, "2D": 1}
    after = pos.after(parse_card("TC"))
    assert moves(after, "S") == {"3C": 2}


# ---- Low to the holder or to the captor -------------------------------------------------------

def test_low_one_card_each():
    # Spades trumps, N: 2S, S: AS, N leads.  S's AS takes the 2S: 4 captured, High (AS) and Game
    # (4 pips v 0) to S.  Low to holder: N 1, S 6.  Low to captor: S won the 2S: S 7, N 0.
    pos = make_position(["2S", "AS"], "S", "S")
    assert (value(pos, "S"), value(pos, "N")) == (6, 1)
    assert value(pos, "S", "margin") == 5
    pos = make_position(["2S", "AS"], "S", "S", low_to="captor")
    assert (value(pos, "S"), value(pos, "N")) == (7, 0)
    assert value(pos, "N", "margin") == -7


# Spades trumps, dealer S so N leads.  N: 2S AH, S: AS 4H.  High AS (S).
#  N leads 2S: S must play AS (trump led), captures 4.  S leads 4H, N's AH wins.  Pips 4 v 4:
#    no Game.  Holder: S 4 + High = 5, N Low 1.  Captor: S won the 2S: S 6, N 0.
#  N leads AH: S follows 4H: N wins 4 pips, leads 2S, S's AS wins 4 + captures 4: pips 4 v 4,
#    holder S 5 / N 1, captor S 6 / N 0.
#    Or S ruffs AS: captures 4, pips 8.  S leads 4H, N (void) ruffs 2S and wins 0 pips.
#    S 4 + High + Game = 6; N has Low either way (holder, or captor: N won the 2S).
#  Holder: S gets 5 after 2S, 6 after AH (ruff): N leads 2S, S 5.  N gets 1 either way.
#  Captor: S gets 6 either way; N gets 0 (2S lead, or AH lead answered by 4H).
LOW_CHOICE = (["2S AH", "AS 4H"], "S", "S")


def test_low_to_holder():
    pos = make_position(*LOW_CHOICE)
    assert moves(pos, "S") == {"2S": 5, "AH": 6}
    assert value(pos, "S") == 5
    assert value(pos, "N") == 1


def test_low_to_captor():
    pos = make_position(*LOW_CHOICE, low_to="captor")
    assert moves(pos, "S") == {"2S": 6, "AH": 6}
    assert moves(pos, "N") == {"2S": 0, "AH": 0}
    after = pos.after(parse_card("AH"))
    assert moves(after, "N") == {"4H": 0, "AS": 1}


# ---- the Jack -----------------------------------------------------------------------------------

# Hearts trumps, dealer N so S leads.  N: JH 2C, S: QH 3C.  High QH (S), Low JH (N, holder).
#  S leads QH: N must follow JH; S wins, captures 2 + 1, takes the Jack; S's 3C then beats 2C.
#    S: 3 + High + Jack + Game(3 v 0) = 6.  N: Low = 1.
#  S leads 3C: trump-anytime lets N ruff with JH: N captures 1 and takes the Jack; N leads 2C,
#    S ruffs QH, captures 2.  S: 2 + High + Game(2 v 1) = 4.  N: 1 + Low + Jack = 3.
#    (N following 2C instead lets S take the Jack as in the first line: S 6.)
#  Strict: N must follow 2C to the 3C, so S gets 6 either way.
#  Without the Jack point: QH line S 5, 3C line S 4.
JACK = (["JH 2C", "QH 3C"], "H", "N")


def test_jack_point():
    pos = make_position(*JACK)
    assert pos.to_move == 1
    assert moves(pos, "S") == {"QH": 6, "3C": 4}
    assert line(pos, "S") == ["QH", "JH", "3C", "2C"]
    assert moves(pos, "N") == {"QH": 1, "3C": 3}
    assert value(pos, "N") == 1
    # margin for S: QH 6 - 1 = 5; 3C: N ruffs, 4 - 3 = 1.
    assert moves(pos, "S", "margin") == {"QH": 5, "3C": 1}
    assert moves(make_position(*JACK, rules="strict"), "S") == {"QH": 6, "3C": 6}
    assert moves(make_position(*JACK, jack=False), "S") == {"QH": 5, "3C": 4}


# ---- Game: ties, fives, three players ---------------------------------------------------------

# Spades trumps but no spade dealt: no captures, no High, Low or Jack; only Game counts.
# Dealer S so N leads.  N: TC 2D 2H, S: 4C 5D 5H.  The TC always wins its trick (led, or over the
# 4C) and the 2D and 2H never win (S holds the 5D and 5H and must follow with them when N leads).
# So N's tricks hold exactly 10 pips and S's the two fives.
#  Fives counted (default): 10 v 10, a tie: nobody scores Game.  N 0, S 0.
#  game_counts_fives off: 10 v 0: Game to N.  N 1, S 0.
#  Tricks: N 1, S 2.
FIVES_TIE = (["TC 2D 2H", "4C 5D 5H"], "S", "S")


def test_game_tie_gives_nobody_the_point():
    pos = make_position(*FIVES_TIE)
    assert value(pos, "N") == 0 and value(pos, "S") == 0
    assert moves(pos, "N") == {"TC": 0, "2D": 0, "2H": 0}
    assert value(pos, "N", "margin") == 0
    assert value(pos, "N", "tricks") == 1 and value(pos, "S", "tricks") == 2


def test_game_without_fives():
    pos = make_position(*FIVES_TIE, game_counts_fives=False)
    assert value(pos, "N") == 1 and value(pos, "S") == 0
    assert value(pos, "N", "margin") == 1 and value(pos, "S", "margin") == -1


# Three players, hearts trumps, none dealt: only Game counts.  Dealer S so N leads.
# N: TC 2D, E: TD 3D, S: 4C 5C.
#  N leads 2D: E wins it with either diamond and leads the other; N (void) throws TC, S a club:
#    E wins everything: Game E.
#  N leads TC: E (void) throws a diamond, S must follow with a club, N wins.  N leads 2D, E
#    follows with its other diamond and wins; S throws its other club.
#    If E throws TD, N has 20+: Game N.  If E throws 3D, N has 10 and E 10, plus S's clubs:
#    S (playing with N against E) puts the 5C on N's trick: 15 v 10, Game N (the strict maximum
#    of the three).  Playing for N, E and S hold N down: S puts the 4C on N's trick: 10 v 15, E.
#  E: TC -> 0, 2D -> 1; N leads TC: 0.  N: 0 either way.  S never wins a trick: 0.
#  Tricks: N wins one after TC, none after 2D: 1.  E: TC -> 1, 2D -> 2: 1.
GAME3 = (["TC 2D", "TD 3D", "4C 5C"], "H", "S")


def test_game_three_players_strict_maximum():
    pos = make_position(*GAME3)
    assert moves(pos, "E") == {"TC": 0, "2D": 1}
    assert moves(pos, "N") == {"TC": 0, "2D": 0}
    assert value(pos, "S") == 0
    assert moves(pos, "N", "tricks") == {"TC": 1, "2D": 0}
    assert moves(pos, "E", "tricks") == {"TC": 1, "2D": 2}
    # After TC and E's 3D, S decides who gets Game.
    after = pos.after(*parse_cards("TC 3D"))
    assert moves(after, "E") == {"5C": 0, "4C": 1}
    assert moves(after, "N") == {"5C": 1, "4C": 0}
    # Without fives S's clubs count nothing: 10 v 10 is a tie, nobody scores Game.
    after = make_position(*GAME3, game_counts_fives=False, play="TC 3D")
    assert moves(after, "E") == {"5C": 0, "4C": 0}
    assert moves(after, "N") == {"5C": 0, "4C": 0}


def test_margin_needs_two_sides():
    pos = make_position(*GAME3)
    with pytest.raises(ValueError, match=r"objective 'margin' needs two sides \(2 or 4 players\)"):
        solve(pos, 0, "margin")
    with pytest.raises(ValueError, match="unknown objective 'bogus'"):
        solve(pos, 0, "bogus")


# ---- five for five, capture off ---------------------------------------------------------------

def test_five_for_five_and_all_fours():
    # Diamonds trumps, N: 5D, S: 6D, N leads.  S's 6D takes the 5D.  High 6D (S), Low 5D (N).
    #  all-fives: S captures 5, Game 5 v 0: S 5 + 1 + 1 = 7; N 1.
    #  five-for-five: S also won the trump five: 12.
    #  all-fours: no captures; fives count 0 for Game, so 0 v 0, nobody: S High 1, N Low 1.
    hands = ["5D", "6D"]
    pos = make_position(hands, "D", "S")
    assert (value(pos, "S"), value(pos, "N"), value(pos, "S", "margin")) == (7, 1, 6)
    pos = make_position(hands, "D", "S", rules="five-for-five")
    assert (value(pos, "S"), value(pos, "N"), value(pos, "S", "margin")) == (12, 1, 11)
    pos = make_position(hands, "D", "S", rules="all-fours")
    assert (value(pos, "S"), value(pos, "N"), value(pos, "S", "margin")) == (1, 1, 0)
    # all-fours with fives counted for Game: Game 5 v 0 to S.
    pos = make_position(hands, "D", "S", rules="all-fours", game_counts_fives=True)
    assert value(pos, "S") == 2
    # Capture off alone.
    pos = make_position(hands, "D", "S", capture=False)
    assert value(pos, "S") == 2


# ---- four players: partnerships -----------------------------------------------------------------

def test_four_players_one_card():
    # Clubs trumps, dealer W so N leads 2C; E must follow JC, S plays AC, W (void) 3D.  S wins for
    # N+S: captures 0 + 1 + 4 = 5; High AC (S), Low 2C (N), Jack captured, Game 5 v 0.  NS 9, EW 0.
    hands = ["2C", "JC", "AC", "3D"]
    pos = make_position(hands, "C", "W")
    assert value(pos, "N") == 9 and value(pos, "S") == 9
    assert value(pos, "E") == 0 and value(pos, "W") == 0
    assert value(pos, "E", "margin") == -9
    assert value(pos, "N", "tricks") == 1
    # all-fours: no captures, Game J + A = 5 pips v 0: High, Low, Jack, Game = 4.
    assert value(make_position(hands, "C", "W", rules="all-fours"), "N") == 4
    # Low to captor: N+S won the 2C too: still 9.
    assert value(make_position(hands, "C", "W", low_to="captor"), "N") == 9


# Four players, hearts trumps, dealer W so N leads.  N: TC 2S, E: 3C 4S, S: 5H 6S, W: QC 8S.
# N has led TC and E followed 3C; S (void in clubs) to play, W must then follow QC.
#  S ruffs 5H: S wins TC 3C 5H QC: captures 5, N+S pips 10 + 5 + 2 = 17.  S leads 6S, W's 8S
#    wins 0 pips.  The only trump, 5H, is S's: High and Low to N+S.  NS 5 + 2 + Game = 8, EW 0.
#  S discards 6S: W's QC takes the Ten: E+W 12 pips.  W leads 8S, N 2S, E 4S, S ruffs 5H and
#    captures 5 (5 pips).  NS 5 + High + Low = 7, EW Game = 1.
#  Tricks: one each way for N+S.  five-for-five: N+S win the 5H in both lines: 13 and 12.
PARTNERS = (["TC 2S", "3C 4S", "5H 6S", "QC 8S"], "H", "W")


@pytest.mark.parametrize("preset", ["all-fives", "strict"])
def test_four_players_ruffing_partners_ten(preset):
    pos = make_position(*PARTNERS, rules=preset, play="TC 3C")
    assert pos.to_move == 2
    assert moves(pos, "S") == {"5H": 8, "6S": 7}
    assert moves(pos, "N") == {"5H": 8, "6S": 7}
    assert moves(pos, "S", "margin") == {"5H": 8, "6S": 6}
    assert moves(pos, "E") == {"5H": 0, "6S": 1}
    assert value(pos, "W", "margin") == -8
    assert moves(pos, "S", "tricks") == {"5H": 1, "6S": 1}
    assert value(pos, "E", "tricks") == 1
    assert line(pos, "N") == ["5H", "QC", "6S", "8S", "2S", "4S"]


def test_four_players_five_for_five_and_classic():
    pos = make_position(*PARTNERS, rules="five-for-five", play="TC 3C")
    assert moves(pos, "S") == {"5H": 13, "6S": 12}
    pos = make_position(*PARTNERS, rules="classic", play="TC 3C")
    assert moves(pos, "S") == {"5H": 5, "6S": 5}
    assert value(pos, "E") == 0


def test_finished_position():
    pos = make_position(*JACK, play="QH JH 3C 2C")
    assert pos.is_over
    sol = solve(pos, 1)
    assert (sol.value, sol.moves, sol.line) == (6, {}, ())
    assert final_value(pos, 1, "points") == 6
    assert final_value(pos, 0, "margin") == -5
    assert final_value(pos, 1, "tricks") == 2


# ---- properties on random positions -------------------------------------------------------------

OBJECTIVES_FOR = {2: ("points", "margin", "tricks"), 3: ("points", "tricks"),
                  4: ("points", "margin", "tricks")}
PRESET_NAMES = tuple(PRESETS)
#: Extra option sets over the presets, so every option that changes a value is exercised.
VARIANTS = ({}, {"low_to": "captor"}, {"game_counts_fives": False}, {"five_for_five": True},
            {"capture": False, "follow": "strict"})


def random_rules(rng: random.Random) -> Rules:
    rules = PRESETS[rng.choice(PRESET_NAMES)]
    return rules.replace(**rng.choice(VARIANTS))


def positions(seed: int, count: int, sizes, fresh_share: float = 0.3):
    """``count`` random positions over ``sizes`` ((players, cards) pairs), cycling through the
    presets so each appears; some fresh deals, the rest part-played (often mid-trick)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        players, cards = sizes[i % len(sizes)]
        rules = PRESETS[PRESET_NAMES[i % len(PRESET_NAMES)]]
        if i % 3 == 2:
            rules = rules.replace(**rng.choice(VARIANTS[1:]))
        played = 0 if rng.random() < fresh_share else None
        out.append(random_position(rng, players, cards, rules, played=played))
    return out


def total_available(deal: Deal) -> int:
    """Every point the deal can hand out (Game at most once, and maybe to nobody)."""
    rules = deal.rules
    trumps = deal.trumps_dealt()
    total = sum(pip_value(c) for c in trumps) if rules.capture else 0
    if trumps:
        total += rules.high + rules.low
    total += rules.jack and any(c & 15 == 9 for c in trumps)
    total += rules.game
    total += 5 * (rules.five_for_five and any(c & 15 == 3 for c in trumps))
    return total


def check_solution(pos: Position, side_: int, objective: str) -> int:
    sol = solve(pos, side_, objective)
    deal = pos.deal
    legal = pos.legal_moves()
    assert sol.complete and sol.side == side_ and sol.objective == objective
    assert set(sol.moves) == set(legal)
    assert (sol.lower, sol.upper) == (sol.value, sol.value)
    # The value is the best move value for the side to move.
    maximiser = deal.side_of(pos.to_move) == side_
    best = max(sol.moves.values()) if maximiser else min(sol.moves.values())
    assert sol.value == best
    assert sol.line and sol.line[0] in sol.best_moves()
    # Replaying the line reaches a finished position scored at the value.
    end = pos.after(*sol.line)
    assert end.is_over
    assert len(sol.line) == sum(len(h) for h in pos.hands)
    assert final_value(end, side_, objective) == sol.value
    # Bounds: what is already won cannot be lost, and nothing beyond the deal can be won.
    done = score_position(pos)
    if objective == "points":
        assert done.total(side_) <= sol.value
        others = sum(done.total(s) for s in range(deal.sides) if s != side_)
        assert sol.value <= total_available(deal) - others
    elif objective == "tricks":
        won = sum(1 for t in pos.completed if deal.side_of(t.winner) == side_)
        left = sum(len(h) for h in pos.hands)
        remaining = (left + len(pos.current.cards)) // deal.players
        assert won <= sol.value <= won + remaining
    else:
        assert abs(sol.value) <= total_available(deal)
    return sol.value


def test_value_is_best_move_and_line_reaches_it():
    sizes = [(2, 2), (2, 3), (2, 4), (2, 5), (3, 2), (3, 3), (3, 4), (4, 2), (4, 3)]
    for pos in positions(101, 180, sizes):
        for objective in OBJECTIVES_FOR[pos.deal.players]:
            for s in range(pos.deal.sides):
                check_solution(pos, s, objective)


def test_larger_two_player_positions():
    for pos in positions(202, 15, [(2, 6)], fresh_share=0.5):
        for objective in OBJECTIVES_FOR[2]:
            check_solution(pos, 0, objective)


def test_move_values_are_values_of_the_positions_after():
    sizes = [(2, 3), (2, 4), (3, 2), (3, 3), (4, 2)]
    for i, pos in enumerate(positions(303, 100, sizes)):
        for objective in OBJECTIVES_FOR[pos.deal.players]:
            s = i % pos.deal.sides  # the side to move or another
            sol = solve(pos, s, objective)
            for card, v in sol.moves.items():
                assert solve(pos.after(card), s, objective).value == v, card_str(card)


def naive_value(pos: Position, side_: int, objective: str) -> int:
    """Plain minimax over Position.after, scored from scratch by score_position: no memo and no
    shared code with the reference solver beyond the model."""
    if pos.is_over:
        if objective == "tricks":
            return sum(1 for t in pos.completed if pos.deal.side_of(t.winner) == side_)
        totals = score_position(pos).totals()
        if objective == "margin":
            return totals[side_] - totals[1 - side_]
        return totals[side_]
    values = [naive_value(pos.after(c), side_, objective) for c in pos.legal_moves()]
    return max(values) if pos.deal.side_of(pos.to_move) == side_ else min(values)


def test_memo_agrees_with_plain_minimax():
    sizes = [(2, 2), (2, 3), (3, 2), (4, 2)]
    for pos in positions(404, 60, sizes):
        for objective in OBJECTIVES_FOR[pos.deal.players]:
            for s in range(pos.deal.sides):
                assert solve(pos, s, objective).value == naive_value(pos, s, objective)


def test_two_sides_relations():
    sizes = [(2, 2), (2, 3), (2, 4), (2, 5), (4, 2), (4, 3)]
    for pos in positions(505, 60, sizes):
        px, py = (solve(pos, s, "points").value for s in (0, 1))
        mx, my = (solve(pos, s, "margin").value for s in (0, 1))
        tx, ty = (solve(pos, s, "tricks").value for s in (0, 1))
        assert mx == -my
        # X's margin is at most X's points (the other side never scores below 0) and at least
        # minus the other side's points.
        assert -py <= mx <= px and -px <= my <= py
        # Both sides cannot both be sure of more than the deal holds.
        assert px + py <= total_available(pos.deal)
        # Tricks are zero-sum: what X can be sure of and what Y can be sure of make them all.
        assert tx + ty == len(pos.deal.hands[0])


def test_three_players_values_bounded_by_deal():
    for pos in positions(606, 30, [(3, 2), (3, 3)]):
        points = [solve(pos, s, "points").value for s in range(3)]
        tricks = [solve(pos, s, "tricks").value for s in range(3)]
        # Each seat's sure value holds against any play of the other two, in particular on the
        # line where all three play for their own values: on that one line each seat scores at
        # least its value, so the three values together fit in what one deal hands out.
        assert sum(points) <= total_available(pos.deal)
        assert sum(tricks) <= len(pos.deal.hands[0])


# ---- symmetry -----------------------------------------------------------------------------------

def rotate(pos: Position, k: int) -> Position:
    """The same position with every seat moved k places clockwise (hands and dealer)."""
    deal = pos.deal
    n = deal.players
    hands = [None] * n
    for seat, hand in enumerate(deal.hands):
        hands[(seat + k) % n] = hand
    rotated = Deal(tuple(hands), deal.trump, (deal.dealer + k) % n, deal.rules, deal.turnup)
    return rotated.position(pos.play)


def test_swapping_two_hands_swaps_values():
    # Two players: exchange the hands and the dealer, so the other seat leads; N's value in one
    # is S's value in the other, for every objective, fresh or part-played (the same cards are
    # played, by the mirrored seats).
    rng = random.Random(707)
    for i in range(60):
        cards = (2, 3, 4, 5)[i % 4]
        pos = random_position(rng, 2, cards, random_rules(rng),
                              played=0 if i % 3 == 0 else None)
        mirror = rotate(pos, 1)
        assert mirror.deal.hands == (pos.deal.hands[1], pos.deal.hands[0])
        assert mirror.to_move == 1 - pos.to_move
        for objective in OBJECTIVES_FOR[2]:
            for s in (0, 1):
                a, b = solve(pos, s, objective), solve(mirror, 1 - s, objective)
                assert a.value == b.value and a.moves == b.moves


def test_rotating_seats_rotates_values():
    rng = random.Random(808)
    for i in range(40):
        players, cards = ((3, 2), (3, 3), (4, 2), (4, 3))[i % 4]
        pos = random_position(rng, players, cards, random_rules(rng))
        k = rng.randrange(1, players)
        turned = rotate(pos, k)
        for objective in OBJECTIVES_FOR[players]:
            for seat in range(players):
                s = pos.deal.side_of(seat)
                t = turned.deal.side_of((seat + k) % players)
                assert solve(pos, s, objective).value == solve(turned, t, objective).value


def test_relabelling_suits_changes_nothing():
    rng = random.Random(909)
    for i in range(40):
        players, cards = ((2, 3), (2, 4), (3, 2), (4, 2))[i % 4]
        pos = random_position(rng, players, cards, random_rules(rng))
        perm = list(range(4))
        rng.shuffle(perm)

        def relabel(c: int) -> int:
            return perm[c >> 4] * 16 + (c & 15)

        deal = pos.deal
        other = Deal(tuple(tuple(map(relabel, h)) for h in deal.hands), perm[deal.trump],
                     deal.dealer, deal.rules, relabel(deal.turnup))
        twin = other.position(tuple(map(relabel, pos.play)))
        for objective in OBJECTIVES_FOR[players]:
            s = deal.side_of(pos.to_move)
            a, b = solve(pos, s, objective), solve(twin, s, objective)
            assert a.value == b.value
            assert {relabel(c): v for c, v in a.moves.items()} == b.moves


def test_fresh_random_deals_of_every_preset():
    # Every preset, every player count, from the first lead, for the elder hand's side.
    rng = random.Random(1010)
    for name, rules in PRESETS.items():
        for players, cards in ((2, 4), (3, 2), (4, 2)):
            deal = random_deal(rng, players, cards, rules)
            pos = deal.position()
            assert pos.to_move == deal.elder
            for objective in OBJECTIVES_FOR[players]:
                check_solution(pos, deal.side_of(deal.elder), objective)


# ---- tricks against a bridge double-dummy solver -----------------------------------------------

def test_tricks_match_bridge_double_dummy():
    # With strict follow, four players and the tricks objective, a position is a bridge
    # double-dummy problem (RULES.md).  DDS counts the tricks still to play for the side to move.
    endplay = pytest.importorskip("endplay")  # noqa: F841
    from endplay.dds import solve_board
    from endplay.types import Card as BridgeCard
    from endplay.types import Deal as BridgeDeal
    from endplay.types import Denom, Player

    from solver.cards import holding_str

    rng = random.Random(1111)
    strict = Rules.preset("strict")
    for i in range(40):
        cards = (2, 3, 3, 4)[i % 4]
        pos = random_position(rng, 4, cards, strict, played=0 if i % 8 == 0 else None)
        cur = pos.current
        hands = [list(h) for h in pos.hands]
        for j, card in enumerate(cur.cards):  # the trick on the table goes back to its seats
            hands[cur.seat_of(j, 4)].append(card)
        pbn = "N:" + " ".join(holding_str(h).replace("-", "") for h in hands)
        # Seats N E S W and suits S H D C are numbered alike in both.
        bridge = BridgeDeal(pbn, first=Player(cur.leader), trump=Denom(pos.deal.trump))
        for card in cur.cards:
            bridge.play(BridgeCard(card_str(card)[::-1]))
        s = pos.deal.side_of(pos.to_move)
        won = sum(1 for t in pos.completed if pos.deal.side_of(t.winner) == s)
        expected = {str(BridgeCard(card_str(c)[::-1])): c for c in pos.legal_moves()}
        dds = {card_str(expected[str(bcard)]): won + tricks
               for bcard, tricks in solve_board(bridge)}
        assert solve(pos, s, "tricks").moves_str() == dds, pbn
