"""solver.game: the match as a state machine, its observations, positions and records.

The first part is an independent replay of the rules (``play_match`` and what it calls): a
plain, slow re-reading of the rules of the game written for this file alone.  It shares nothing
with ``solver.game`` but the ``Rules`` options, and spells cards as text ("TH").  Random matches
are played by both in lockstep (seeded players, uniform over the legal actions, now and then a
revoke where one is possible, as a recorded game may hold): the replay
deals from the same packs and asks for each decision; at every one the engine must agree on the
seat to act, the legal actions, the hands, the turn-ups, the pegs and the score, and at the end
on the games won and the returns.

The second part is hand-made deals for each rule of "Deal and trumps" and "Winning the match":
packs are stacked with ``stacked`` (cards for each seat's slots and the turn-ups; the rest of the
pack in a fixed order).  Two players, dealer S unless said: N is the elder hand and leads.
"""

from __future__ import annotations

import dataclasses
import doctest
import json
import random
import re

import pytest

import solver.game as game_module
import solver.records as records_module
from solver import reference
from solver.cards import card_str, parse_card
from solver.deal import Deal, Position
from solver.errors import AllFivesError
from solver.game import (BEG, CHANCE, REVOKE, RUN, STAND, TAKE_ONE, TERMINAL, DealLog, GameError,
                         Match, Observation, action_name, cut_for_deal, observation_of,
                         parse_action, parse_step, step_name)
from solver.records import (RecordError, match_records, numbered_records, read_records,
                            records_text, replay, replay_matches, replay_text, replayed_matches)
from solver.rules import PRESETS, Rules

# ---- an independent replay of the rules --------------------------------------------------------

SEATS = {2: "NS", 3: "NES", 4: "NESW"}
RANKS = "23456789TJQKA"
SUITS = "SHDC"
PACK = [r + s for s in SUITS for r in RANKS]
PIP = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10, "5": 5}


def side(seat: int, n: int) -> int:
    return seat % 2 if n == 4 else seat


def side_total(n: int) -> int:
    return 2 if n == 4 else n


def rank(card: str) -> int:
    return RANKS.index(card[0])


def may_play(hand: list[str], trick: list[tuple[int, str]], trump: str, follow: str) -> list[str]:
    if not trick:
        return list(hand)
    led = trick[0][1][1]
    same = [c for c in hand if c[1] == led]
    if not same:
        return list(hand)
    if follow == "strict" or led == trump:
        return same
    return [c for c in hand if c[1] in (led, trump)]


def winner_of(trick: list[tuple[int, str]], trump: str) -> int:
    trumps = [(rank(c), seat) for seat, c in trick if c[1] == trump]
    if trumps:
        return max(trumps)[1]
    led = trick[0][1][1]
    return max((rank(c), seat) for seat, c in trick if c[1] == led)[1]


class GameOver(Exception):
    def __init__(self, winners: list[int]) -> None:
        self.winners = winners


class Table:
    """What the replay shows the driver at each decision."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.score: list[int] = []
        self.dealer = 0
        self.hands: dict[int, list[str]] = {}
        self.turnups: list[str] = []
        self.trump: str | None = None
        self.pegs: list[tuple[int, int]] = []
        self.play: list[tuple[int, str]] = []
        self.revokes: list[int] = []       # indexes into ``play``
        self.barred: set[int] = set()      # sides that revoked in this deal: they cannot win it


def play_match(n, rules, best_of, dealer, next_pack, choose, table):
    """The whole match by the rules, shown on ``table``; returns (winning sides, double, games
    won, final score, each game's (final score, winners, double))."""
    games = [0] * side_total(n)
    played = 0
    finals = []
    while True:
        played += 1
        table.score = [0] * side_total(n)
        winners, double, dealer = play_game(n, rules, dealer, table, next_pack, choose)
        finals.append((list(table.score), winners, double))
        for w in winners:
            games[w] += 2 if double else 1
        if max(games) > best_of // 2 or played == best_of:
            most = max(games)
            return ([s for s in range(len(games)) if games[s] == most], double, games,
                    table.score, finals)


def play_game(n, rules, dealer, table, next_pack, choose):
    """Deals until a side wins; returns (winners, double, the next dealer)."""
    score = table.score
    target = rules.target

    def peg(s: int, points: int) -> None:
        score[s] += points
        table.pegs.append((s, points))
        if (rules.finish == "peg-out" and points > 0 and s not in table.barred
                and score[s] >= target):
            raise GameOver([s])

    while True:
        table.dealer = dealer
        try:
            outcome = play_deal(n, rules, dealer, table, peg, next_pack, choose)
            if outcome == "thrown in":
                continue
            if rules.finish == "hand-end":
                reached = [s for s in range(len(score))
                           if score[s] >= target and s not in table.barred]
                if reached:
                    top = max(score[s] for s in reached)
                    raise GameOver([s for s in reached if score[s] == top])
        except GameOver as over:
            losers = [score[s] for s in range(len(score)) if s not in over.winners]
            double = rules.skunk and bool(losers) and all(p < 31 for p in losers)
            return over.winners, double, (dealer + 1) % n
        dealer = (dealer + 1) % n


def play_deal(n, rules, dealer, table, peg, next_pack, choose):
    pack = next_pack()
    elder = (dealer + 1) % n
    order = [(elder + i) % n for i in range(n)]
    hands: dict[int, list[str]] = {s: [] for s in range(n)}
    taken = 0

    def three_each() -> None:
        nonlocal taken
        for s in order:
            hands[s] += pack[taken:taken + 3]
            taken += 3

    def turn_up() -> None:
        nonlocal taken
        turnups.append(pack[taken])
        taken += 1

    turnups: list[str] = []
    table.hands, table.turnups, table.pegs, table.trump = hands, turnups, [], None
    table.play, table.revokes, table.barred = [], [], set()
    three_each()
    three_each()
    turn_up()
    first_suit = turnups[0][1]
    if choose(elder, ["stand", "beg"]) == "beg":
        answers = ["take-one"] if rules.max_runs == 0 else ["take-one", "run"]
        if choose(dealer, answers) == "take-one":
            peg(side(elder, n), 1)
        else:
            runs = 0
            while True:
                if rules.max_runs is not None and runs == rules.max_runs:
                    return "thrown in"
                if len(pack) - taken < 3 * n + 1:
                    return "thrown in"
                three_each()
                turn_up()
                runs += 1
                if turnups[-1][1] != first_suit:
                    break
    trump = table.trump = turnups[-1][1]
    if rules.turnup_jack and turnups[-1][0] == "J":
        peg(side(dealer, n), 1)
    dealt = {s: list(h) for s, h in hands.items()}
    holder = {c: s for s, h in dealt.items() for c in h}
    won: dict[int, list[str]] = {s: [] for s in range(side_total(n))}
    taken_by: dict[str, int] = {}
    leader = elder
    for _ in range(len(hands[0])):
        trick: list[tuple[int, str]] = []
        offenders = []
        for k in range(n):
            seat = (leader + k) % n
            legal = may_play(hands[seat], trick, trump, rules.follow)
            card = choose(seat, legal, [c for c in hands[seat] if c not in legal])
            if card.startswith("revoke:"):
                card = card[len("revoke:"):]
                table.revokes.append(len(table.play))
                table.barred.add(side(seat, n))
                offenders.append(seat)
            hands[seat].remove(card)
            trick.append((seat, card))
            table.play.append((seat, card))
        leader = winner_of(trick, trump)
        for _, c in trick:
            won[side(leader, n)].append(c)
            taken_by[c] = side(leader, n)
        if rules.capture:
            points = sum(PIP.get(c[0], 0) for _, c in trick if c[1] == trump)
            if points:
                peg(side(leader, n), points)
        for offender in offenders:    # called once the trick is turned, after its captures
            if rules.revoke_penalty == "offender":
                peg(side(offender, n), -3)
            else:
                others = [side((offender + k) % n, n) for k in range(1, n)]
                for other in dict.fromkeys(o for o in others if o != side(offender, n)):
                    peg(other, 3)
    trumps = sorted((c for c in holder if c[1] == trump), key=rank)
    if rules.high and trumps:
        peg(side(holder[trumps[-1]], n), 1)
    if rules.low and trumps:
        low = trumps[0]
        peg(side(holder[low], n) if rules.low_to == "holder" else taken_by[low], 1)
    if rules.jack and "J" + trump in holder:
        peg(taken_by["J" + trump], 1)
    if rules.game:
        pips = [sum(0 if c[0] == "5" and not rules.game_counts_fives else PIP.get(c[0], 0)
                    for c in won[s]) for s in range(side_total(n))]
        if pips.count(max(pips)) == 1:
            peg(pips.index(max(pips)), 1)
    if rules.five_for_five and "5" + trump in holder:
        peg(taken_by["5" + trump], 5)
    return "played"


# ---- the engine against the replay, in lockstep -------------------------------------------------


def action_names(actions) -> list[str]:
    return sorted(action_name(a) for a in actions)


#: The deals of a match in which the lockstep may revoke.
REVOKING_DEALS = 12


def lockstep(n: int, rules: Rules, seed: int | str, best_of: int = 1,
             check=None, revoke: float = 0.0) -> game_module.MatchState:
    """One random match played by the replay and the engine together; ``check(state)`` is
    called before every action.  With ``revoke``, a seat that holds a card the follow rule
    forbids plays one such card (a revoke, as a recorded game may hold) with that chance, in
    the match's first ``REVOKING_DEALS`` deals (under rules that score little, classic without
    captures, revokes all match long kept the scores from the target for ever)."""
    rng = random.Random(seed)
    dealer = rng.randrange(n)
    state = Match(n, rules, best_of).new_initial_state(dealer=dealer, auto_deal=False)
    table = Table(n)

    def next_pack() -> list[str]:
        assert state.current_player() == CHANCE and state.legal_actions() == []
        pack = list(PACK)
        rng.shuffle(pack)
        state.deal_pack(pack)
        return pack

    def choose(seat: int, legal: list[str], revocable: list[str] = ()) -> str:
        assert state.current_player() == seat
        assert action_names(state.legal_actions()) == sorted(legal)
        assert state.score == tuple(table.score)
        assert state.dealer == table.dealer
        assert [[card_str(c) for c in h] for h in state.hands] == \
            [sorted(table.hands[s], key=lambda c: (SUITS.index(c[1]), -rank(c)))
             for s in range(n)]
        assert [card_str(c) for c in state.turnups] == table.turnups
        assert state.trump == (None if table.trump is None else SUITS.index(table.trump))
        assert [(p.side, p.points) for p in state.pegs] == table.pegs
        seen = state.observation(seat)
        assert [card_str(c) for c in seen.hand] == [card_str(c) for c in state.hands[seat]]
        assert [card_str(c) for c in seen.turnups] == table.turnups
        assert seen.score == tuple(table.score) and seen.dealer == table.dealer
        assert action_names(seen.legal_actions) == sorted(legal)
        assert [(s, card_str(c)) for s, c in seen.play] == table.play
        assert list(seen.revokes) == table.revokes
        for other in range(n):
            assert state.legal_actions(other) == (state.legal_actions() if other == seat else [])
        assert state.returns() == [0] * n       # (until the match is over)
        assert state.trick == state.play[len(state.tricks) * n:]     # (the trick under way)
        if check is not None:
            check(state)
        if revocable and len(state.deals) < REVOKING_DEALS and rng.random() < revoke:
            card = rng.choice(sorted(revocable))
            state.apply_revoke(card)
            return "revoke:" + card
        action = rng.choice(sorted(legal))
        state.apply_action(parse_action(action))
        return action

    winners, double, games, score, finals = play_match(n, rules, best_of, dealer, next_pack,
                                                       choose, table)
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert state.winners == tuple(winners)
    assert state.games_won == tuple(games)
    assert state.score == tuple(score)
    ends = [(list(d.score), list(d.winners), d.double) for d in state.deals if d.winners]
    assert ends == finals
    assert state.deals[-1].winners and not state.deals[-1].thrown_in
    value = 2 if double and best_of == 1 else 1
    assert state.returns() == [value if side(s, n) in winners else -value for s in range(n)]
    return state


RULE_VARIANTS = [dict(), dict(target=11), dict(target=31, skunk=True),
                 dict(max_runs=None, low_to="captor"), dict(max_runs=0, turnup_jack=True),
                 dict(max_runs=1, target=21, five_for_five=True),
                 dict(follow="strict", game_counts_fives=False, target=15, skunk=True)]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("finish", ["peg-out", "hand-end"])
def test_engine_follows_the_replay_of_the_rules(players, preset, finish):
    for k in range(3):
        options = RULE_VARIANTS[(k + len(preset) + players) % len(RULE_VARIANTS)]
        rules = Rules.preset(preset, finish=finish, **options)
        lockstep(players, rules, seed=f"{players} {preset} {finish} {k}",
                 best_of=3 if k == 2 else 1)


def random_rules(rng: random.Random) -> Rules:
    """A preset with each option, one by one, drawn at random a fifth of the time: any
    combination, not only those of ``RULE_VARIANTS``."""
    choices = {"follow": ["trump-anytime", "strict"], "low_to": ["holder", "captor"],
               "max_runs": [None, 0, 1, 2, 3, 5], "target": [1, 5, 7, 11, 21, 31, 61, 121],
               "finish": ["peg-out", "hand-end"], "revoke_penalty": ["offender", "others"]}
    options = {}
    for name in ("follow", "capture", "high", "low", "jack", "game", "low_to",
                 "game_counts_fives", "five_for_five", "turnup_jack", "max_runs", "target",
                 "finish", "skunk", "revoke_penalty"):
        if rng.random() < 0.2:
            options[name] = rng.choice(choices.get(name, [False, True]))
    return Rules.preset(rng.choice(list(PRESETS)), **options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_follows_the_replay_under_rules_drawn_at_random(players):
    rng = random.Random(f"random rules {players}")
    for seed in range(30):
        rules = random_rules(rng)
        lockstep(players, rules, f"{players} {seed}", best_of=rng.choice([1, 1, 3]),
                 revoke=rng.choice([0, 0.05]))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("best_of", [4, 5])
def test_a_match_of_more_games_ends_once_a_side_has_won_more_than_half(players, best_of):
    """3 games won of 5, and 3 of 4, end the match (a double game counting two), as the replay
    of the rules has it: best of 1 and 3 cannot tell more than half from a third and more."""
    for seed in range(4):
        state = lockstep(players, Rules(target=11, skunk=seed % 2 == 1),
                         f"best of {best_of} {seed}", best_of=best_of)
        assert max(state.games_won) > best_of // 2 or state.game == best_of


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_follows_the_replay_of_the_rules_at_length(players):
    rng = random.Random(players)
    for seed in range(300):
        preset = rng.choice(list(PRESETS))
        options = dict(rng.choice(RULE_VARIANTS))
        options["finish"] = rng.choice(["peg-out", "hand-end"])
        if rng.random() < 0.3:
            options["target"] = rng.choice([1, 5, 7, 11, 31, 61, 121])
        lockstep(players, Rules.preset(preset, **options), seed, best_of=rng.choice([1, 1, 3, 5]))
    for seed in range(300):
        lockstep(players, random_rules(rng), f"random {seed}", best_of=rng.choice([1, 1, 3, 5]),
                 revoke=rng.choice([0, 0.05]))


def test_the_lockstep_sees_every_kind_of_deal():
    """The random matches above do meet runs, repeated runs, throw-ins, take-ones, peg-outs in
    the middle of a deal and shared wins."""
    seen = set()

    def check(state):
        seen.add(("runs", state.runs))
        if any(p.what == "take-one" for p in state.pegs):
            seen.add("take-one")

    wanted = {("runs", 0), ("runs", 1), ("runs", 2), ("runs", 3), "take-one", "shared",
              "thrown in", "mid-deal", "double"}
    for seed in range(100):
        state = lockstep(2, Rules(target=11, max_runs=None, finish="hand-end"), seed, 3, check)
        seen.update("shared" for d in state.deals if len(d.winners) > 1)
        seen.update("thrown in" for d in state.deals if d.thrown_in)
        state = lockstep(2, Rules(target=11, skunk=True), seed, 3, check)
        seen.update("mid-deal" for d in state.deals
                    if d.winners and d.pegs[-1].what not in ("high", "low", "jack", "game"))
        seen.update("thrown in" for d in state.deals if d.thrown_in)
        seen.update("double" for d in state.deals if d.double)
        if wanted <= seen:
            break
    assert wanted <= seen, wanted - seen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_lockstep_sees_every_kind_of_revoke(players):
    """Revokes under both penalties, a side that revoked at or over the target (it cannot win
    that deal), and such a side winning in a later deal, under peg-out and under hand-end; each
    match's records replay to the same deals."""
    seen = set()

    def check(state):
        target = state.rules.target
        for index in state.observation(state.current_player()).revokes:
            offender = side(state.observation(0).play[index][0], players)
            if state.score[offender] >= target:
                seen.add(("barred at the target", state.rules.finish))

    wanted = {("penalty", "offender"), ("penalty", "others"),
              ("barred at the target", "peg-out"), ("barred at the target", "hand-end"),
              ("won later", "peg-out"), ("won later", "hand-end")}
    for seed in range(200):
        for finish in ("peg-out", "hand-end"):
            penalty = ("offender", "others")[seed % 2]
            rules = Rules(target=11, finish=finish, revoke_penalty=penalty)
            state = lockstep(players, rules, f"revokes {finish} {seed}", 3, check, revoke=0.2)
            seen.update(("penalty", penalty) for d in state.deals
                        for p in d.pegs if p.what == "revoke")
            again = replay(read_records(records_text(match_records(state))))
            assert again.deals == state.deals and again.returns() == state.returns()
            for before, after in zip(state.deals, state.deals[1:]):
                if before.game == after.game and any(before.score[w] >= 11
                                                     for w in after.winners):
                    seen.add(("won later", finish))
        if wanted <= seen:
            break
    assert wanted <= seen, wanted - seen


# ---- actions ------------------------------------------------------------------------------------


def test_action_names_round_trip():
    for action in [STAND, BEG, TAKE_ONE, RUN] + [parse_card(c) for c in PACK]:
        assert parse_action(action_name(action)) == action
    assert (action_name(STAND), action_name(BEG), action_name(TAKE_ONE), action_name(RUN)) == \
        ("stand", "beg", "take-one", "run")
    assert action_name(parse_card("TH")) == "TH" and parse_action("10h") == parse_card("TH")
    assert action_name(REVOKE + parse_card("5S")) == "revoke:5S"
    assert parse_action("revoke:5s") == REVOKE + parse_card("5S")
    assert step_name(1, BEG, 4) == "E:beg" and parse_step("E:TH", 3) == (1, parse_card("TH"))
    for bad in ("hold", "1X", "revoke:", 3.5, None):
        with pytest.raises(GameError):
            parse_action(bad)
    with pytest.raises(AllFivesError, match="no seat 'W' at a 3-player table"):
        parse_step("W:beg", 3)
    with pytest.raises(GameError):
        action_name(99)


def test_the_module_example_runs():
    assert doctest.testmod(game_module, optionflags=doctest.ELLIPSIS).failed == 0


# ---- hand-made deals ----------------------------------------------------------------------------


def slots(n: int, dealer: int, runs: int) -> tuple[dict[int, list[int]], list[int]]:
    """Pack indexes dealt to each seat and those turned up, after ``runs`` runs."""
    order = [(dealer + 1 + i) % n for i in range(n)]
    seat_slots: dict[int, list[int]] = {s: [] for s in range(n)}
    turnups, i = [], 0
    for rounds in [2] + [1] * runs:
        for _ in range(rounds):
            for s in order:
                seat_slots[s] += [i, i + 1, i + 2]
                i += 3
        turnups.append(i)
        i += 1
    return seat_slots, turnups


def stacked(turnups: str, hands: dict[str, str] | None = None, n: int = 2,
            dealer: str = "S") -> list[str]:
    """A pack whose turn-ups (first, then one a run) and seats' cards (in the order dealt,
    runs included) are the given ones; the other cards fill the other places in pack order."""
    ups = turnups.split()
    seat_slots, up_slots = slots(n, SEATS[n].index(dealer), len(ups) - 1)
    pack: list[str | None] = [None] * 52
    for i, card in zip(up_slots, ups):
        pack[i] = card
    for seat, cards in (hands or {}).items():
        for i, card in zip(seat_slots[SEATS[n].index(seat)], cards.split()):
            pack[i] = card
    rest = iter(c for c in PACK if c not in pack)
    return [c if c is not None else next(rest) for c in pack]


def new_state(rules: Rules | None = None, n: int = 2, dealer: str = "S", score=None,
              best_of: int = 1):
    return Match(n, rules or Rules(), best_of).new_initial_state(
        dealer=SEATS[n].index(dealer), score=score, auto_deal=False)


def act(state, *steps: str) -> None:
    """Each step is ``SEAT:ACTION``, checked against the seat to act."""
    for step in steps:
        seat, action = parse_step(step, state.players)
        assert state.current_player() == seat, (step, state)
        state.apply_action(action)


def cards(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def test_the_deal_three_and_three_from_the_elder_hand():
    state = new_state(n=3, dealer="E")   # S is the elder hand, then N, then E
    pack = list(PACK)
    state.deal_pack(pack)
    # 3 each from S (seat 2), then N, then E; twice; then the turn-up
    assert set(state.hands[2]) == set(cards("2S 3S 4S JS QS KS"))
    assert set(state.hands[0]) == set(cards("5S 6S 7S AS 2H 3H"))
    assert set(state.hands[1]) == set(cards("8S 9S TS 4H 5H 6H"))
    assert state.turnups == cards("7H")
    assert state.current_player() == 2 and state.legal_actions() == [STAND, BEG]


def test_stand_fixes_trumps_and_the_elder_hand_leads():
    state = new_state(n=4, dealer="W")
    state.deal_pack(stacked("9D", n=4, dealer="W"))
    assert state.phase == "elder" and state.current_player() == 0   # N, left of W
    act(state, "N:stand")
    assert state.phase == "play" and state.trump == 2 and state.current_player() == 0
    assert [len(h) for h in state.hands] == [6] * 4 and state.pegs == () and state.score == (0, 0)


def test_a_run_that_turns_up_the_suit_first_proposed_is_run_again():
    state = new_state()
    state.deal_pack(stacked("7H 2H 9C"))
    act(state, "N:beg", "S:run")
    assert state.runs == 2 and state.turnups == cards("7H 2H 9C") and state.trump == 3
    assert [len(h) for h in state.hands] == [12, 12]
    assert state.phase == "play" and state.current_player() == 0
    seen = state.observation(0)
    assert seen.turnups == cards("7H 2H 9C") and seen.trump == 3
    assert seen.calls == ((0, BEG), (1, RUN))
    # the hands are the Deal's hands; the turn-ups set aside are in none
    deal = state.position().deal
    assert deal.turnup == parse_card("9C") and all(len(h) == 12 for h in deal.hands)
    assert not set(cards("7H 2H 9C")) & {c for h in deal.hands for c in h}


def test_a_run_to_a_new_suit_at_once():
    state = new_state(Rules(max_runs=1))
    state.deal_pack(stacked("7H 9C"))
    act(state, "N:beg", "S:run")
    assert state.runs == 1 and state.trump == 3 and [len(h) for h in state.hands] == [9, 9]


def test_the_cards_are_thrown_in_when_a_run_past_max_runs_is_needed():
    for max_runs, ups in ((2, "7H 2H 3H"), (1, "7H 2H")):
        state = new_state(Rules(max_runs=max_runs), score=(5, 9))
        state.deal_pack(stacked(ups))
        act(state, "N:beg", "S:run")
        assert state.phase == "shuffle" and state.current_player() == CHANCE
        assert state.dealer == 1 and state.score == (5, 9) and state.deal_number == 1
        log = state.deals[-1]
        assert log.thrown_in and log.actions == ((0, BEG), (1, RUN)) and log.score == (5, 9)
        state.deal_pack(stacked("8D"))   # the same dealer deals again
        assert state.deal_number == 2 and state.dealer == 1 and state.current_player() == 0


@pytest.mark.parametrize("n, runs", [(2, 5), (3, 3), (4, 2)])
def test_the_cards_are_thrown_in_when_the_pack_cannot_supply_a_run(n, runs):
    ups = " ".join(["2H", "3H", "4H", "5H", "6H", "7H"][:runs + 1])
    state = new_state(Rules.preset("classic"), n=n, dealer="N")
    state.deal_pack(stacked(ups, n=n, dealer="N"))
    act(state, f"{SEATS[n][1]}:beg", "N:run")
    assert state.phase == "shuffle" and state.deals[-1].thrown_in and state.dealer == 0
    # one run fewer needed, and the suit changes: play starts
    state.deal_pack(stacked(" ".join(ups.split()[:runs]) + " 9C", n=n, dealer="N"))
    act(state, f"{SEATS[n][1]}:beg", "N:run")
    assert state.phase == "play" and state.runs == runs and state.trump == 3
    assert {len(h) for h in state.hands} == {6 + 3 * runs}


def test_no_run_when_max_runs_is_0():
    state = new_state(Rules(max_runs=0))
    state.deal_pack(stacked("7H"))
    act(state, "N:beg")
    assert state.legal_actions() == [TAKE_ONE]
    with pytest.raises(GameError, match="max_runs 0"):
        state.apply_action(RUN)


def test_take_one_scores_the_elder_hands_side_and_trumps_stay():
    state = new_state(n=4, dealer="N", score=(3, 4))
    state.deal_pack(stacked("7H", n=4, dealer="N"))
    act(state, "E:beg", "N:take-one")
    assert state.score == (3, 5) and state.trump == 1 and state.runs == 0
    assert [(p.side, p.points, p.what) for p in state.pegs] == [(1, 1, "take-one")]
    assert state.phase == "play" and state.current_player() == 1
    # the match score when play starts is the Position's
    assert state.position().deal.score == (3, 5)


def test_a_turned_up_jack_scores_the_dealer_once_it_fixes_trumps():
    fours = Rules.preset("all-fours")
    assert fours.turnup_jack
    state = new_state(fours)
    state.deal_pack(stacked("JH"))
    act(state, "N:stand")
    assert state.score == (0, 1) and [p.what for p in state.pegs] == ["turn-up jack"]
    # take-one: the elder hand's point first, then the Jack
    state = new_state(fours)
    state.deal_pack(stacked("JH"))
    act(state, "N:beg", "S:take-one")
    assert [(p.side, p.what) for p in state.pegs] == [(0, "take-one"), (1, "turn-up jack")]
    # a Jack run away from fixes nothing; a Jack turned up by a run of a new suit does
    state = new_state(fours)
    state.deal_pack(stacked("JH 4C"))
    act(state, "N:beg", "S:run")
    assert state.score == (0, 0) and state.trump == 3
    state = new_state(fours)
    state.deal_pack(stacked("4H JH JC"))
    act(state, "N:beg", "S:run")
    assert state.score == (0, 1) and state.trump == 3 and state.runs == 2
    # without the option a Jack is nothing
    state = new_state()
    state.deal_pack(stacked("JH"))
    act(state, "N:stand")
    assert state.score == (0, 0)
    # the dealer's point can take the dealer out before a card is played
    state = new_state(fours, score=(6, 6))
    state.deal_pack(stacked("JH"))
    act(state, "N:beg", "S:take-one")
    assert state.is_terminal() and state.winners == (0,)   # the take-one came first
    assert not state.deals[-1].cards_played
    # ... as can the Jack itself, after a stand
    state = new_state(fours, score=(0, 6))
    state.deal_pack(stacked("JH"))
    act(state, "N:stand")
    assert state.is_terminal() and state.winners == (1,) and not state.deals[-1].cards_played


# A two-player deal, hearts trumps (2H turned up): N holds AH KH QH 9S 8S 7S, S 3H 4H 6H 2C 3C 4C.
# N leads the three trumps and wins every trick: trick 1 pegs 4, trick 2 pegs 3, trick 3 pegs 2,
# then the spades.  End of deal: High N (AH), Low S (3H dealt to S), no Jack (JH in no hand),
# Game N (9 pips to 0).
ALL_TO_N = {"N": "AH KH QH 9S 8S 7S", "S": "3H 4H 6H 2C 3C 4C"}
PLAY_ALL_TO_N = ["N:AH", "S:3H", "N:KH", "S:4H", "N:QH", "S:6H", "N:9S", "S:2C", "N:8S",
                 "S:3C", "N:7S", "S:4C"]


def play_all_to_n(rules: Rules, score, best_of: int = 1):
    state = new_state(rules, score=score, best_of=best_of)
    state.deal_pack(stacked("2H", ALL_TO_N))
    act(state, "N:stand")
    for step in PLAY_ALL_TO_N:
        if state.phase != "play":
            break
        act(state, step)
    return state


def test_capture_is_pegged_at_every_trick_then_the_end_of_deal_points_in_order():
    state = new_state(score=(10, 10))
    state.deal_pack(stacked("2H", ALL_TO_N))
    act(state, "N:stand", *PLAY_ALL_TO_N[:4])
    assert [(p.side, p.points, p.what) for p in state.pegs] == [(0, 4, "trick 1"),
                                                                 (0, 3, "trick 2")]
    assert state.score == (17, 10)
    act(state, *PLAY_ALL_TO_N[4:])
    log = state.deals[-1]
    assert log.score == (10 + 9 + 1 + 1, 10 + 1) and not log.winners
    assert not log.double and not log.thrown_in and log.cards_played
    assert state.dealer == 0 and state.phase == "shuffle"   # the deal passes to the left


def test_peg_out_in_the_middle_of_the_end_of_deal_points():
    # N needs 10: the tricks give 9, High the tenth; S's Low is never pegged
    state = play_all_to_n(Rules(), (51, 60))
    assert state.is_terminal() and state.winners == (0,) and state.score == (61, 60)
    assert [p.what for p in state.pegs][-2:] == ["trick 3", "high"]
    assert state.returns() == [1, -1]
    # S needs 1: Low takes S out although N pegged more in the deal and Game is N's
    state = play_all_to_n(Rules(), (40, 60))
    assert state.winners == (1,) and state.score == (40 + 9 + 1, 61)
    # N needs 3: the first trick takes N out and the rest of the deal is not played
    state = play_all_to_n(Rules(), (58, 0))
    assert state.winners == (0,) and state.score == (62, 0)
    assert len(state.deals[-1].actions) == 1 + 2


@pytest.mark.parametrize("best_of", [1, 3])
def test_a_peg_out_on_the_last_tricks_capture_ends_the_deal_there(best_of):
    """S takes the five of trumps with the last trick and goes out: the deal's end points are
    not pegged after the game is won (High, Low and Game would follow it)."""
    state = new_state(score=(30, 56), best_of=best_of)
    assert not state.double and state.winners == ()     # (no game won yet)
    state.deal_pack(stacked("2H", {"N": "AH KH QH 9S 8S 7S", "S": "3H 4H 6H 5H 2C 3C"}))
    act(state, "N:stand", "N:AH", "S:3H", "N:KH", "S:4H", "N:QH", "S:6H", "N:9S", "S:2C",
        "N:8S", "S:3C", "N:7S", "S:5H")
    log = state.deals[-1]
    assert log.winners == (1,) and log.score == (39, 61)
    assert [(p.side, p.points, p.what) for p in log.pegs][-1] == (1, 5, "trick 6")
    if best_of == 1:
        assert state.is_terminal() and state.winners == (1,) and state.score == (39, 61)
    else:
        assert state.phase == "shuffle" and state.score == (0, 0) and state.game == 2


def test_hand_end_compares_totals_after_the_deal():
    # N's 9 + High + Game = 11, S's Low = 1
    state = play_all_to_n(Rules(finish="hand-end"), (58, 60))   # 69 against 61
    assert state.is_terminal() and state.winners == (0,)
    state = play_all_to_n(Rules(finish="hand-end"), (40, 59))   # 51 against 60: play on
    assert not state.is_terminal() and state.deals[-1].score == (51, 60)
    state = play_all_to_n(Rules(finish="hand-end"), (50, 60))   # 61 and 61: shared
    assert state.winners == (0, 1) and state.returns() == [1, 1]


def test_hand_end_equal_highest_share_the_win_with_three_players():
    # classic: captures only, strict follow.  Clubs trumps (4C turned up), dealer S, N leads.
    # Trick 1 5C 3C 2D: N pegs 5.  Trick 2 JC AC 3D: E pegs 5.  E wins the four hearts tricks.
    hands = {"N": "5C JC 9S 8S 7S 6S", "E": "AC 3C 2H 3H 4H 6H", "S": "2D 3D 4D 6D 7D 8D"}
    state = new_state(Rules.preset("classic"), n=3, dealer="S", score=(55, 57, 60))
    state.deal_pack(stacked("4C", hands, n=3, dealer="S"))
    act(state, "N:stand",
        "N:5C", "E:3C", "S:2D",      # N 5
        "N:JC", "E:AC", "S:3D",      # E 5
        "E:2H", "S:4D", "N:9S",      # E 0
        "E:3H", "S:6D", "N:8S", "E:4H", "S:7D", "N:7S", "E:6H", "S:8D", "N:6S")
    assert state.is_terminal()
    assert state.score == (60, 62, 60) and state.winners == (1,)
    state = new_state(Rules.preset("classic"), n=3, dealer="S", score=(57, 57, 60))
    state.deal_pack(stacked("4C", hands, n=3, dealer="S"))
    act(state, "N:stand", "N:5C", "E:3C", "S:2D", "N:JC", "E:AC", "S:3D",
        "E:2H", "S:4D", "N:9S", "E:3H", "S:6D", "N:8S", "E:4H", "S:7D", "N:7S",
        "E:6H", "S:8D", "N:6S")
    assert state.score == (62, 62, 60) and state.winners == (0, 1)
    assert state.returns() == [1, 1, -1]


def test_skunk_is_a_double_game():
    state = play_all_to_n(Rules(skunk=True), (51, 30))
    assert state.winners == (0,) and state.double and state.returns() == [2, -2]
    state = play_all_to_n(Rules(skunk=True), (51, 31))
    assert not state.double and state.returns() == [1, -1]
    state = play_all_to_n(Rules(), (51, 0))
    assert not state.double and state.returns() == [1, -1]


@pytest.mark.parametrize("best_of", [1, 3])
def test_a_win_every_side_shares_is_no_double_game(best_of):
    """Under hand-end a deal that ends level at the target is a win both sides share: nobody
    lost it, so under skunk it is no double game (it was, and ended a best of three at once)."""
    top = "AH 2H TC 3H 5H TH 5C KS 3D 9C 4S 9D 7H".split()
    pack = top + [card for card in PACK if card not in top]
    state = Match(2, Rules(finish="hand-end", skunk=True), best_of).new_initial_state(
        dealer=1, score=(44, 56), auto_deal=False)
    state.deal_pack(pack)
    for action in "stand TC 9C 2H 3H 4S KS 5C 5H TH AH 3D 9D".split():
        state.apply_action(parse_action(action))
    assert state.deals[-1].score == (61, 61) and state.deals[-1].winners == (0, 1)
    assert not state.deals[-1].double and state.games_won == (1, 1)
    assert state.is_terminal() == (best_of == 1)


def test_best_of_three_starts_each_game_at_0_and_a_double_game_counts_two():
    state = play_all_to_n(Rules(), (51, 40), best_of=3)
    assert not state.is_terminal() and state.games_won == (1, 0) and state.game == 2
    assert state.score == (0, 0) and state.dealer == 0 and state.phase == "shuffle"
    assert state.deals[-1].winners == (0,) and state.deals[-1].score == (61, 40)
    state = play_all_to_n(Rules(skunk=True), (51, 20), best_of=3)
    assert state.is_terminal() and state.games_won == (2, 0) and state.returns() == [1, -1]


def test_actions_that_are_not_legal_are_refused():
    state = new_state()
    with pytest.raises(GameError, match="a pack is to be dealt"):
        state.apply_action(STAND)
    with pytest.raises(GameError, match="52"):
        state.deal_pack(PACK[:51])
    with pytest.raises(GameError, match="twice"):
        state.deal_pack(PACK[:51] + ["2S"])
    state.deal_pack(stacked("2H", ALL_TO_N))
    with pytest.raises(GameError, match="no pack"):
        state.deal_pack()
    with pytest.raises(GameError, match="N is to stand or beg"):
        state.apply_action(parse_card("AH"))
    act(state, "N:stand", "N:9S")
    with pytest.raises(GameError, match="AH is not in S's hand"):
        state.apply_action(parse_card("AH"))
    strict = new_state(Rules.preset("strict"))
    strict.deal_pack(stacked("2H", {"N": "AH KH QH 9S 8S 7S", "S": "3H 4H 6H 2C 3C 2S"}))
    act(strict, "N:stand", "N:9S")
    with pytest.raises(GameError, match=r"S may not play 3H to 9S led \(follow suit\)"):
        strict.apply_action(parse_card("3H"))
    # the card led is named, not the last played to the trick
    three = new_state(Rules.preset("strict"), n=3)
    three.deal_pack(stacked("2H", {"N": "AH KH QH 9S 8S 7S", "E": "2S 5C 6C 7C 8C 9C",
                                   "S": "3S 4H 2D 3D 4D 5D"}, n=3))
    act(three, "N:stand", "N:9S", "E:2S")
    with pytest.raises(GameError, match=r"S may not play 4H to 9S led \(follow suit\)"):
        three.apply_action(parse_card("4H"))
    with pytest.raises(GameError, match="not an action now"):
        strict.apply_action(BEG)
    with pytest.raises(GameError, match="not an action"):
        strict.apply_action(200)
    with pytest.raises(GameError):
        strict.apply_revoke("2S")   # legal: no revoke


def test_an_action_of_any_whole_number_type_is_taken_and_a_bool_is_not():
    """An action may be numpy's whole number (``np.random.choice`` of the legal actions gives
    one), taken as the int it holds; True and False are no actions, though they equal 1 (the
    3S, N's to play here) and 0 (the 2S)."""
    np = pytest.importorskip("numpy")
    state, twin = new_state(), new_state()
    for s in (state, twin):
        s.deal_pack(stacked("2H", {"N": "AH KH QH 2S 3S 7S", "S": "3H 4H 6H 2C 3C 4C"}))
    state.apply_action(np.int64(STAND))
    twin.apply_action(STAND)
    assert state.observation(0) == twin.observation(0)
    assert {parse_card("2S"), parse_card("3S")} <= set(state.legal_actions()) and \
        parse_card("3S") == True     # noqa: E712 (what is refused is a bool that equals it)
    for action in (True, False):
        with pytest.raises(GameError, match="not an action"):
            state.apply_action(action)
    state.apply_action(np.uint8(parse_card("3S")))
    twin.apply_action(parse_card("3S"))
    assert state.observation(1) == twin.observation(1) and state.current_player() == 1


def test_the_observation_of_a_position_outside_a_match():
    """A deal in play outside a match is the first deal of a match of one game, no game won,
    its score the position's or none, the turn-up seen by every seat."""
    for line, seat, score, turnups in (("N:A.-.-.- 2.-.-.- dealer=S turnup=5S", 1, (0, 0), "5S"),
                                       ("N:A.-.-.- 2.-.-.- dealer=S trump=S score=3,7", 0,
                                        (3, 7), "")):
        seen = observation_of(Position.from_line(line), seat)
        assert (seen.best_of, seen.game, seen.deal, seen.games_won) == (1, 1, 1, (0, 0))
        assert (seen.seat, seen.dealer, seen.current_player, seen.phase) == (seat, 1, 0, "play")
        assert seen.score == score and seen.turnups == tuple(map(parse_card, turnups.split()))
        assert seen.hand == (parse_card("AS" if seat == 0 else "2S"),)
        assert seen.legal_actions == ((parse_card("AS"),) if seat == 0 else ())


def test_trump_anytime_and_strict_follow():
    # S holds a spade and trumps: to a spade lead trump-anytime lets S trump, strict does not
    hands = {"N": "AH KH QH 9S 8S 7S", "S": "3H 4H 6H 2C 3C 2S"}
    for rules, legal in ((Rules(), "2S 3H 4H 6H"), (Rules.preset("strict"), "2S")):
        state = new_state(rules)
        state.deal_pack(stacked("2H", hands))
        act(state, "N:stand", "N:9S")
        assert sorted(state.legal_actions()) == sorted(cards(legal))
    # to a trump lead a trump must follow in both
    state = new_state()
    state.deal_pack(stacked("2H", hands))
    act(state, "N:stand", "N:AH")
    assert sorted(state.legal_actions()) == sorted(cards("3H 4H 6H"))


def test_the_first_dealer_by_a_cut():
    # every seat from N cuts; the highest rank deals; seats tied for it cut again
    ties = 0
    for players in (2, 3, 4):
        dealers = set()
        for seed in range(60):
            dealer, cuts = cut_for_deal(random.Random(seed), players)
            cutting, i = list(range(players)), 0
            while True:
                round_ = cuts[i:i + len(cutting)]
                assert [seat for seat, _ in round_] == cutting
                top = max(rank(card_str(c)) for _, c in round_)
                cutting = [seat for seat, c in round_ if rank(card_str(c)) == top]
                i += len(round_)
                if len(cutting) == 1:
                    break
                ties += 1
            assert i == len(cuts) and cutting == [dealer]
            assert len({c for _, c in cuts}) == len(cuts)
            dealers.add(dealer)
            state = Match(players).new_initial_state(seed=seed)
            assert state.dealer == dealer and state.cuts == cuts
        assert dealers == set(range(players))
    assert ties > 0


def test_seeded_states_repeat_and_clones_are_independent():
    a = Match(3).new_initial_state(seed=5)
    b = Match(3).new_initial_state(seed=5)
    assert a.pack == b.pack and a.dealer == b.dealer
    clone = a.clone()
    rng = random.Random(0)
    while not a.is_terminal():
        a.apply_action(rng.choice(a.legal_actions()))
    assert not clone.is_terminal() and clone.pack == b.pack
    rng = random.Random(0)
    while not clone.is_terminal():
        clone.apply_action(rng.choice(clone.legal_actions()))
    assert clone.score == a.score and clone.returns() == a.returns()
    assert [d.pack for d in clone.deals] == [d.pack for d in a.deals]


def test_match_arguments_are_checked():
    for bad, words in ((dict(players=5), "a table has 2, 3 or 4 players, not 5"),
                       (dict(best_of=0), "best_of takes a whole number from 1, not 0"),
                       (dict(rules="all-fives"), "rules must be a Rules, not 'all-fives'")):
        with pytest.raises(AllFivesError, match=words):
            Match(**bad)
    for seat in (2, -1):
        with pytest.raises(GameError, match=f"^dealer seat {seat} is not at a 2-player table"):
            Match().new_initial_state(dealer=seat)
        state = Match().new_initial_state(seed=1)
        with pytest.raises(GameError, match=f"^seat {seat} is not at a 2-player table"):
            state.observation(seat)
    with pytest.raises(GameError, match="^seat 2 is not at a 2-player table"):
        state.legal_actions(2)
    assert state.legal_actions(CHANCE) == state.legal_actions(TERMINAL) == []  # (ids that act not)
    with pytest.raises(GameError, match="^'E-beg' is not SEAT:ACTION"):
        parse_step("E-beg", 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        Match().best_of = 3     # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        DealLog(1, 1, 0, (), (), (0, 0)).score = (1, 0)     # type: ignore[misc]
    with pytest.raises(GameError):
        Match().new_initial_state(score=(61, 0))
    with pytest.raises(GameError):
        Match(4).new_initial_state(score=(0, 0, 0, 0))


# ---- revokes (replay of recorded games only) ----------------------------------------------------

# Strict follow, hearts trumps: S holds 2S but plays 2C to N's 9S lead, a revoke.  The trick stands
# (N wins it, no trumps in it) and the revoke is called once it is turned.
REVOKE_HANDS = {"N": "AH KH QH 9S 8S 7S", "S": "3H 4H 6H 2C 3C 2S"}
REVOKE_PLAY = ["N:AH", "S:3H", "N:9S", "S:revoke:2C", "N:KH", "S:4H", "N:QH", "S:6H",
               "N:8S", "S:2S", "N:7S", "S:3C"]


def replay_steps(state, *steps: str) -> None:
    for step in steps:
        seat, action = parse_step(step, state.players)
        assert state.current_player() == seat
        if action >= REVOKE:
            state.apply_revoke(action - REVOKE)
        else:
            state.apply_action(action)


def revoke_deal(score=(0, 0), **options):
    state = new_state(Rules.preset("strict", **options), score=score)
    state.deal_pack(stacked("2H", REVOKE_HANDS))
    replay_steps(state, "N:stand", *REVOKE_PLAY[:4])
    return state


def test_a_revoke_costs_the_offender_3_after_the_tricks_captures():
    state = revoke_deal((10, 10))
    assert [(p.side, p.points, p.what) for p in state.pegs] == [(0, 4, "trick 1"),
                                                                 (1, -3, "revoke")]
    assert state.score == (14, 7)
    assert state.observation(0).revokes == (3,) and state.observation(1).revokes == (3,)
    with pytest.raises(GameError, match="revoke"):
        state.position()
    replay_steps(state, *REVOKE_PLAY[4:])
    # N: 4 + 3 + 2, High, Game; S: Low, less 3
    assert state.deals[-1].score == (10 + 11, 10 - 3 + 1)


def test_a_revoke_gives_every_other_side_3_with_that_option():
    state = revoke_deal((10, 10), revoke_penalty="others")
    assert state.score == (17, 10)
    # three players: clockwise from the offender's left
    hands = {"N": "5C JC 9S 8S 7S 6S", "E": "AC 3C 2H 3H 4H 6H", "S": "2D 3D 4D 6D 7D 8D"}
    state = new_state(Rules.preset("classic", revoke_penalty="others"), n=3, dealer="S")
    state.deal_pack(stacked("4C", hands, n=3, dealer="S"))
    replay_steps(state, "N:stand", "N:5C", "E:revoke:2H", "S:2D")
    assert [(p.side, p.points, p.what) for p in state.pegs] == [
        (0, 5, "trick 1"), (2, 3, "revoke"), (0, 3, "revoke")]


def test_the_offender_cannot_win_the_match_on_that_hand():
    # peg-out: S reaches 61 with Low but has revoked: the deal goes on to its end and the
    # match with it; S wins at its first peg of the next deal
    state = revoke_deal((0, 60), revoke_penalty="others")
    replay_steps(state, *REVOKE_PLAY[4:])
    assert not state.is_terminal() and state.deals[-1].score == (14, 61)
    state.deal_pack(stacked("7D", dealer="N"))   # N deals, S is the elder hand
    act(state, "S:beg", "N:take-one")
    assert state.is_terminal() and state.winners == (1,) and state.score == (14, 62)
    # without the revoke (the same cards, a legal 2S) S would have won at Low
    state = new_state(Rules.preset("strict"), score=(0, 60))
    state.deal_pack(stacked("2H", REVOKE_HANDS))
    act(state, "N:stand", "N:AH", "S:3H", "N:9S", "S:2S", "N:KH", "S:4H", "N:QH", "S:6H",
        "N:8S", "S:2C", "N:7S", "S:3C")
    assert state.is_terminal() and state.winners == (1,) and state.deals[-1].pegs[-1].what == "low"
    # hand-end: N 47 + 14 and S 60 + 1 are equal, but only N may win on this hand
    state = revoke_deal((47, 60), revoke_penalty="others", finish="hand-end")
    replay_steps(state, *REVOKE_PLAY[4:])
    assert state.is_terminal() and state.score == (61, 61) and state.winners == (0,)


def test_a_revoke_pays_only_the_sides_that_did_not_revoke_with_four_players():
    """With partners and ``revoke_penalty=others`` the offender's partner is on the offender's
    side and gets nothing: only the other side is paid 3.  Only three players were tested, where
    every seat is a side of its own."""
    # classic (strict follow), W deals, N leads 5C: E holds AC 3C but revokes with 2H
    hands = {"N": "5C JC 9S 8S 7S 6S", "E": "AC 3C 2H 3H 4H 6H",
             "S": "2D 3D 4D 6D 7D 8D", "W": "KD QD JD TD 9D 5D"}
    state = new_state(Rules.preset("classic", revoke_penalty="others"), n=4, dealer="W")
    state.deal_pack(stacked("4C", hands, n=4, dealer="W"))
    replay_steps(state, "N:stand", "N:5C", "E:revoke:2H", "S:2D", "W:5D")
    # clubs are trumps: N's 5C wins the trick and captures 5 (W's 5D is no trump), then N+S,
    # the one side that did not revoke, gets 3 for E's revoke (E+W, the offender's, nothing)
    assert [(p.side, p.points, p.what) for p in state.pegs] == [(0, 5, "trick 1"),
                                                                 (0, 3, "revoke")]
    assert state.score == (8, 0)


def test_a_side_that_reached_the_target_in_a_deal_it_revoked_in_has_no_match_score_to_play_to():
    """S reached 61 in a deal it revoked in, so could not win there; the next deal starts
    with S at the target, and S wins at its first peg.  Until then the deal in play is a
    Position with no match score (a score at the target is no score a Deal can hold), rather
    than an error, for the hints, the advice and the Monte Carlo player."""
    state = revoke_deal((0, 60), revoke_penalty="others")
    replay_steps(state, *REVOKE_PLAY[4:])
    assert state.score == (14, 61) and not state.is_terminal()
    state.deal_pack(stacked("7D", dealer="N"))   # N deals, S is the elder hand
    act(state, "S:stand")
    assert state.phase == "play"
    position = state.position()
    assert position.deal.score is None
    assert position.deal.hands == tuple(state.hands)
    # so is each world the Monte Carlo player samples of it, and it plays (the worlds kept
    # the score, which no Deal can hold, where only one side was at the target)
    from solver.pimc import PimcPlayer
    from solver.players import decide
    from solver.sampling import sample_worlds, world_position

    obs = state.observation(state.current_player())
    for world in sample_worlds(obs, 8, random.Random(1)):
        assert world_position(obs, world).deal.score is None
    assert decide(PimcPlayer(worlds=4, seed=1), state) in state.legal_actions()


def test_a_program_cannot_revoke():
    state = new_state(Rules.preset("strict"))
    state.deal_pack(stacked("2H", REVOKE_HANDS))
    act(state, "N:stand", "N:9S")
    assert all(a < REVOKE for a in state.legal_actions())
    with pytest.raises(GameError):
        state.apply_action(REVOKE + parse_card("2C"))
    with pytest.raises(GameError, match="not in S's hand"):
        state.apply_revoke("5D")
    with pytest.raises(GameError, match="no revoke"):
        state.apply_revoke("2S")


# ---- what a seat sees ---------------------------------------------------------------------------


def replay_to(state, pack_of_deal):
    """A fresh state replaying ``state``'s match (its finished deals and the deal in play), with
    the pack of the deal in play replaced by ``pack_of_deal``; None if its actions do not fit."""
    first = state.deals[0].dealer if state.deals else state.dealer
    twin = Match(state.players, state.rules, state.match.best_of).new_initial_state(
        dealer=first, auto_deal=False)
    for log in state.deals:
        twin.deal_pack(log.pack)
        for _, action in log.actions:
            twin.apply_action(action)
    twin.deal_pack(pack_of_deal)
    try:
        for _, action in state.actions:
            twin.apply_action(action)
    except GameError:
        return None
    return twin


def hidden_places(state, seat: int) -> list[int]:
    """Pack indexes whose card ``seat`` has not seen: other seats' cards not yet played and the
    cards not dealt (turn-ups and played cards are seen by all)."""
    seen = set(state.hands[seat]) | set(state.turnups) | set(state.play)
    return [i for i, c in enumerate(state.pack) if c not in seen]


def twins(state, seat: int, rng: random.Random, tries: int = 20):
    """States that differ from ``state`` only in cards ``seat`` has not seen: its hidden places
    shuffled (kept when the actions still replay), and shuffled within each suit (always)."""
    places = hidden_places(state, seat)
    out = []
    for within_suits in (False, True):
        for _ in range(tries):
            pack = list(state.pack)
            groups = [places] if not within_suits else \
                [[i for i in places if pack[i] >> 4 == suit] for suit in range(4)]
            for group in groups:
                shuffled = [pack[i] for i in group]
                rng.shuffle(shuffled)
                for i, c in zip(group, shuffled):
                    pack[i] = c
            twin = replay_to(state, pack)
            if twin is not None:
                out.append(twin)
                break
        else:
            assert not within_suits, "a shuffle within suits keeps every action legal"
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_an_observation_is_a_function_of_what_the_seat_has_seen(players):
    rng = random.Random(players)
    checked = differed = 0
    for seed in range(4):
        rules = Rules.preset(list(PRESETS)[seed % len(PRESETS)], target=21)
        state = Match(players, rules).new_initial_state(seed=seed)
        while not state.is_terminal():
            if rng.random() < 0.08 and state.phase != "shuffle":
                for seat in range(players):
                    seen = state.observation(seat)
                    assert seen.hand == state.hands[seat] and seen.turnups == state.turnups
                    assert seen.play == tuple(zip((s for s, a in state.actions if a < 64),
                                                  state.play))
                    for twin in twins(state, seat, rng):
                        assert twin.observation(seat) == seen
                        checked += 1
                        differed += twin.hands != state.hands
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 20 and differed > checked // 2


def test_an_observation_is_frozen_and_changes_with_the_seats_own_cards():
    state = new_state()
    state.deal_pack(stacked("2H", ALL_TO_N))
    seen = state.observation(0)
    assert isinstance(seen, Observation)
    with pytest.raises(AttributeError):
        seen.hand = ()
    other = new_state()
    other.deal_pack(stacked("2H", {"N": "AH KH QH 9S 8S 6S", "S": "3H 4H 6H 2C 3C 4C"}))
    assert other.observation(0) != seen and other.observation(1) == state.observation(1)
    assert seen.legal_actions == (STAND, BEG) and state.observation(1).legal_actions == ()
    assert seen.dealer == 1 and seen.score == (0, 0) and seen.rules == Rules()
    with pytest.raises(GameError):
        state.observation(2)


# ---- positions ----------------------------------------------------------------------------------


def test_the_position_of_the_deal_in_play():
    rng = random.Random(11)
    solved = 0
    for seed in range(30):
        players = 2 + seed % 3
        rules = Rules.preset(list(PRESETS)[seed % len(PRESETS)], target=31)
        state = Match(players, rules).new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.phase == "play" and rng.random() < 0.2:
                position = state.position()
                # the hands as dealt from the pack, after the runs, by this file's dealing
                seat_slots, up_slots = slots(players, state.dealer, state.runs)
                hands = tuple(tuple(state.pack[i] for i in seat_slots[s]) for s in range(players))
                before = state.deals[-1].score if state.deals and not state.deals[-1].winners \
                    else (0,) * (2 if players == 4 else players)
                start = list(before)
                for p in state.pegs:
                    if p.what in ("take-one", "turn-up jack"):
                        start[p.side] += p.points
                turnup = state.pack[up_slots[-1]]
                expected = Position(Deal(hands, turnup >> 4, state.dealer, rules, turnup,
                                         tuple(start)), state.play)
                assert position == expected
                assert position.to_move == state.current_player()
                assert sorted(position.legal_moves()) == state.legal_actions()
                if sum(len(h) for h in position.hands) <= 2 * players:
                    assert reference.solve(position).value >= 0
                    solved += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert solved > 10


def test_under_hand_end_a_side_at_the_target_before_the_play_has_not_won():
    """The totals are compared after the deal: a take-one that takes a side to the target
    leaves the match to the play, and the position keeps its score, which the match-aware
    objective starts from (it had none, and `win` could not be asked)."""
    state = new_state(Rules(finish="hand-end"), score=(60, 3))
    state.deal_pack(stacked("2H", ALL_TO_N))
    act(state, "N:beg", "S:take-one")
    assert state.score == (61, 3) and state.phase == "play"
    position = state.position()
    assert position.deal.score == (61, 3)
    assert [reference.solve(position, side, "win").value for side in (0, 1)] == [1, 0]
    with pytest.raises(GameError, match="no card play"):
        new_state().position()


# ---- records ------------------------------------------------------------------------------------


def random_match(players: int, rules: Rules, seed: int, best_of: int = 1):
    state = Match(players, rules, best_of).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_each_deal_dealt_again_from_its_score_ends_as_it_did():
    """``deal_again`` starts each deal of a played match afresh, at the score it started from
    (``score_before``: the match's start, the last deal's score, 0 in a new game): its
    actions taken again end the deal as they did; ``cards_played`` says which deals had play."""
    for seed in range(9):
        players = 2 + seed % 3
        rules = Rules.preset(list(PRESETS)[seed % len(PRESETS)], target=21)
        start = (seed % 5,) * (2 if players == 4 else players)
        state = Match(players, rules, best_of=1 + 2 * (seed % 2)).new_initial_state(
            seed=seed, score=start)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        for number, log in enumerate(state.deals, 1):
            fresh, score = state.deal_again(number)
            assert score == (start if number == 1 else state.deals[number - 2].score
                             if state.deals[number - 2].game == log.game else (0,) * len(start))
            for _, action in log.actions:
                fresh.apply_action(action)
            again = fresh.deals[0]
            assert (again.score, again.pegs, again.winners) == (log.score, log.pegs, log.winners)
            names = action_names(action for _, action in log.actions)
            assert log.cards_played == any(len(name) == 2 for name in names)


def test_records_round_trip():
    for seed in range(12):
        players = 2 + seed % 3
        rules = Rules.preset(list(PRESETS)[seed % len(PRESETS)],
                             finish=("peg-out", "hand-end")[seed % 2], skunk=seed % 4 == 0)
        state = random_match(players, rules, seed, best_of=1 + 2 * (seed % 3 == 0))
        names = {s: f"player {s}" for s in SEATS[players]}
        records = match_records(state, match=f"m{seed}", names=names)
        text = records_text(records)
        assert len(text.splitlines()) == len(state.deals) == len(records)
        again = replay(read_records(text))
        assert again.is_terminal() and again.returns() == state.returns()
        assert again.score == state.score and again.games_won == state.games_won
        assert again.deals == state.deals
        assert match_records(again, f"m{seed}", names) == records
        record = json.loads(text.splitlines()[0])
        assert record["players"] == names and record["match"] == f"m{seed}"
        assert len(record["pack"]) == 52 and record["rules"]["preset"] == rules.preset_name
        assert set(record["rules"]) == {"preset", *rules.options()}
        assert set(record["score"]) == ({"NS", "EW"} if players == 4 else set(SEATS[players]))
        last = json.loads(text.splitlines()[-1])
        assert last["winners"] and isinstance(last["double"], bool)
    # an unfinished match replays to where it stands
    state = Match(3).new_initial_state(seed=3)
    rng = random.Random(3)
    while len(state.deals) < 2:
        state.apply_action(rng.choice(state.legal_actions()))
    again = replay(match_records(state))
    assert not again.is_terminal() and again.score == state.deals[-1].score


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_match_started_at_a_score_replays_from_it(players):
    """A match started at another score than 0 says so on its first record (``start``), and
    plays again from it; a start anywhere else, or not a score a side, is one RecordError."""
    match = Match(players)
    start = [10, 20, 5][:match.sides]
    state = match.new_initial_state(seed=players, score=start)
    rng = random.Random(players)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    records = match_records(state)
    assert list(records[0]["start"].values()) == start
    assert all("start" not in record for record in records[1:])
    again = replay_text(records_text(records))[0].state
    assert again.deals == state.deals and again.score == state.score
    assert again.start_score == tuple(start)
    assert "start" not in match_records(random_match(players, Rules(), 1))[0]
    bad = [dict(records[0], start={"N": 1})] + records[1:]
    with pytest.raises(RecordError, match=r'^deal 1, start: \{"N": 1\} is not one score a side'):
        replay(bad)
    bad = [dict(records[0], start={k: 99 for k in records[0]["start"]})] + records[1:]
    with pytest.raises(RecordError, match=r'^deal 1, start: \{"[NE].*99.*\}: one whole '   # (JSON)
                                          r'number a side \([23]\), each under the target 61$'):
        replay(bad)
    if len(records) > 1:
        bad = [records[0], dict(records[1], start=records[0]["start"])] + records[2:]
        with pytest.raises(RecordError, match=r"^deal 2, start: .* on its first record only"):
            replay(bad)


@pytest.mark.parametrize("start", [(0, 20), (20, 0), (0, 0, 5)])
def test_a_match_started_with_a_side_at_0_records_its_start_all_the_same(start):
    """A start score is recorded where any side is off 0, not only where every side is: a match
    started at (0, 20) wrote no start and replayed from (0, 0), to another score."""
    state = Match(len(start)).new_initial_state(seed=1, score=start)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    records = match_records(state)
    assert list(records[0]["start"].values()) == list(start)
    again = replay_text(records_text(records))[0].state
    assert again.start_score == start
    assert again.deals == state.deals and again.score == state.score


@pytest.mark.parametrize("players", [2.0, "2", True, 5])
def test_a_table_is_of_2_3_or_4_players_as_whole_numbers(players):
    """2.0 was taken for 2 (it hashes alike) and failed deep inside the first deal."""
    with pytest.raises(AllFivesError, match=r"^a table has 2, 3 or 4 players, not "):
        Match(players)


def test_a_records_lines_are_parted_at_newlines_alone():
    """A name holding another line break (U+2028 or U+2029, written as it is) is refused where
    the record is read, on its own line, by every reader alike (not parted there); a record of
    CRLF lines reads."""
    state = random_match(2, Rules(), 5)
    with pytest.raises(GameError, match=r"names.N: a control character \('\\u2028'\)"):
        match_records(state, "m", {"N": "ann\u2028bea", "S": "cy"})
    with pytest.raises(GameError, match=r"match: a control character \('\\u2029'\)"):
        match_records(state, "x\u2029y", {"N": "ann", "S": "cy"})
    text = records_text(match_records(state, "xzy", {"N": "ann", "S": "cyzdee"}))
    odd = text.replace("xzy", "x\u2028y").replace("cyzdee", "cy\u2029dee")
    assert odd.count("\n") == len(state.deals)
    for read in (read_records(odd), [m for _, m in numbered_records(odd.split("\n"))]):
        assert len(read) == len(state.deals) and read[0]["match"] == "x\u2028y"
    with pytest.raises(RecordError, match=r"match: a control character \('\\u2028'\)"):
        replay_text(odd)
    (crlf,) = replay_text(text.replace("\n", "\r\n"))
    assert crlf.state.deals == state.deals


def test_a_name_with_a_control_character_is_neither_written_nor_read():
    """A record's reader refuses a player's name with a control character (an escape sequence
    reached the terminal in replay): its writer refuses to write one."""
    state = random_match(2, Rules(), 5)
    with pytest.raises(GameError, match=r"names.S: a control character \('\\x85'\)"):
        match_records(state, "m", {"N": "ann", "S": "cy\x85dee"})


def test_the_matches_of_a_file_are_played_again_one_at_a_time():
    """A file of several matches is read and played again a match at a time (a large run's
    record is never held whole): each match is played once its last record is read, the next
    match's first record being all that is read ahead; the same states as the whole file read
    first, and the same errors."""
    states = [random_match(2 + seed, Rules.preset("all-fives"), seed) for seed in range(3)]
    texts = [records_text(match_records(state, f"m{seed}")) for seed, state in enumerate(states)]
    text = "".join(texts)
    read = []

    def lines():
        for line in text.splitlines():
            read.append(line)
            yield line

    matches = replayed_matches(numbered_records(lines(), "run.jsonl"), "run.jsonl")
    ends = [sum(len(t.splitlines()) for t in texts[:k + 1]) for k in range(3)]
    for k, match in enumerate(matches):
        assert match.match == f"m{k}" and match.state.deals == states[k].deals
        assert len(read) == min(ends[k] + 1, ends[-1])
    whole = replay_matches(read_records(text, "run.jsonl"), "run.jsonl")
    plain = list(replayed_matches(read_records(text)))     # records alone, no lines' numbers
    assert [m.state.deals for m in plain] == [m.state.deals for m in whole]
    assert [m.state.deals for m in replay_text(text, "run.jsonl")] == \
        [m.state.deals for m in whole]
    # the same errors: a tampered score, named with the match only where there are several
    first = texts[0].splitlines()
    record = json.loads(first[0])
    record["score"] = {side: points + 1 for side, points in record["score"].items()}
    tampered = json.dumps(record)
    for several in (False, True):
        bad = "\n".join([tampered, *first[1:]]) + "\n" + ("".join(texts[1:]) if several else "")
        for reading in (lambda t: replay_text(t, "run.jsonl"),
                        lambda t: replay_matches(read_records(t, "run.jsonl"), "run.jsonl")):
            with pytest.raises(RecordError) as error:
                reading(bad)
            assert str(error.value).startswith("run.jsonl:1: " +
                                               ("match 'm0': " if several else "deal 1"))
    again = text + texts[0]
    with pytest.raises(RecordError, match=r"^run.jsonl:\d+: match 'm0': again after other"):
        replay_text(again, "run.jsonl")
    with pytest.raises(RecordError, match="no records"):
        replay_text("\n", "run.jsonl")


def test_a_record_with_a_revoke_replays():
    state = revoke_deal()
    replay_steps(state, *REVOKE_PLAY[4:])
    records = match_records(state)
    assert "S:revoke:2C" in records[0]["actions"]
    again = replay(read_records(records_text(records)))
    assert again.deals == state.deals and again.score == state.score
    records[0]["actions"][4] = "S:revoke:2S"   # 2S follows suit: no revoke
    with pytest.raises(RecordError, match=r"^deal 1, action 4 'S:revoke:2S': 2S is no revoke"):
        replay(records)


def tampered(state, change) -> str:
    """The one-line RecordError of ``state``'s records changed by ``change(records)``."""
    records = json.loads(json.dumps(match_records(state)))
    change(records)
    with pytest.raises(RecordError) as error:
        replay(read_records(records_text(records)), source="games.jsonl")
    message = str(error.value)
    assert "\n" not in message
    return message


def first_illegal_card(state) -> tuple[int, int, str]:
    """(deal, action index, card): the first card played to a lead that restricted its seat,
    and a card of that seat's hand the follow rule forbade."""
    twin = Match(state.players, state.rules).new_initial_state(dealer=state.deals[0].dealer,
                                                               auto_deal=False)
    for log in state.deals:
        twin.deal_pack(log.pack)
        for index, (seat, action) in enumerate(log.actions):
            if twin.phase == "play":
                barred = set(twin.hands[seat]) - set(twin.legal_actions())
                if barred:
                    return log.number, index, card_str(min(barred))
            twin.apply_action(action)
    raise AssertionError("no restricted follow in this match")


def test_a_tampered_record_fails_with_one_line_naming_the_deal_and_action():
    state = random_match(2, Rules(), 4)
    assert len(state.deals) > 3
    deal, index, card = first_illegal_card(state)

    def illegal_card(records):
        seat = records[deal - 1]["actions"][index].split(":")[0]
        records[deal - 1]["actions"][index] = f"{seat}:{card}"
    message = tampered(state, illegal_card)
    assert message.startswith(f"games.jsonl: deal {deal}, action {index} ")
    assert f"may not play {card} to" in message

    def wrong_score(records):
        records[1]["score"]["N"] += 1
    assert tampered(state, wrong_score).startswith("games.jsonl: deal 2, score: recorded ")

    def wrong_winners(records):
        records[-1]["double"] = None
    last = state.deals[-1]
    won = "[" + ", ".join(f'"{state.seats[w]}"' for w in last.winners) + "]"
    assert tampered(state, wrong_winners).endswith(   # as JSON spells them, both sides of it
        f"double: recorded null, the play gives {'true' if last.double else 'false'}")

    def no_winners(records):
        records[-1]["winners"] = []
    assert tampered(state, no_winners).endswith(f"winners: recorded [], the play gives {won}")

    def a_winner_added(records):
        records[0]["winners"] = ["N"]
    assert tampered(state, a_winner_added).endswith(
        'winners: recorded ["N"], the play gives no winner (the game goes on)')

    def swapped_pack(records):
        pack = records[0]["pack"]
        pack[0], pack[3] = pack[3], pack[0]      # a card of N's for one of S's
    message = tampered(state, swapped_pack)
    assert message.startswith("games.jsonl: deal 1, ")
    assert ", action " in message or ", score: " in message

    def doubled_card(records):
        records[2]["pack"][5] = records[2]["pack"][6]
    assert tampered(state, doubled_card) == \
        f"games.jsonl: deal 3, pack: {card_str(state.deals[2].pack[6])} is in it twice"

    def short_pack(records):
        records[0]["pack"].pop()
    assert tampered(state, short_pack) == "games.jsonl: deal 1, pack: 51 cards, not 52"

    def extra_action(records):
        records[0]["actions"].append("N:stand")
    assert tampered(state, extra_action).startswith(
        f"games.jsonl: deal 1, action {len(state.deals[0].actions)} 'N:stand': ")

    def out_of_turn(records):
        records[0]["actions"][0] = records[0]["dealer"] + ":stand"   # the elder hand's call
    assert tampered(state, out_of_turn).startswith(
        f"games.jsonl: deal 1, action 0 '{SEATS[2][state.deals[0].dealer]}:stand': not ")

    def cut_short(records):
        records[0]["actions"].pop()
    assert "the actions end before the deal does" in tampered(state, cut_short)

    def wrong_dealer(records):
        records[1]["dealer"] = records[0]["dealer"]
    assert tampered(state, wrong_dealer).startswith("games.jsonl: deal 2, dealer: ")

    def after_the_end(records):
        records.append(dict(records[-1], deal=records[-1]["deal"] + 1))
    assert "the match was over" in tampered(state, after_the_end)

    def unknown_key(records):
        records[0]["tricks"] = []
    assert tampered(state, unknown_key) == "games.jsonl: deal 1: unknown key 'tricks'"

    def no_pack(records):
        del records[1]["pack"]
    assert tampered(state, no_pack) == "games.jsonl: deal 2: missing key 'pack'"

    def rules_no_object(records):
        records[1]["rules"] = "all-fives"
    assert tampered(state, rules_no_object).startswith(
        "games.jsonl: deal 2, rules: 'all-fives' differs from deal 1's {\"preset\": ")

    def other_rules(records):
        records[1]["rules"]["target"] = 31
    assert tampered(state, other_rules) == ("games.jsonl: deal 2, rules.target: 31 differs "
                                            "from deal 1's 61")

    def option_added(records):
        records[1]["rules"]["nosuch"] = 1
    assert tampered(state, option_added) == ("games.jsonl: deal 2, rules.nosuch: 1, where "
                                             "deal 1 has none")

    def option_left_out(records):
        del records[1]["rules"]["target"]
    assert tampered(state, option_left_out) == ("games.jsonl: deal 2, rules.target: missing, "
                                                "where deal 1 has 61")

    def bad_option(records):
        records[0]["rules"]["follow"] = "loose"
    assert tampered(state, bad_option).startswith("games.jsonl: deal 1, rules: option 'follow'")

    def wrong_winner(records):
        records[-1]["winners"] = ["S" if records[-1]["winners"] == ["N"] else "N"]
    assert tampered(state, wrong_winner).startswith(
        f"games.jsonl: deal {len(state.deals)}, winners: ")


def test_what_a_record_holds_is_quoted_as_json_spells_it():
    """Values quoted from records as JSON has them, in the letters they were written in, and
    cut short past 80 characters (as ``quoted`` cuts a text); a deal number that is no number,
    or one not played yet, is no line given twice.  ``replay`` refuses a first record's match
    name that is none, as ``replay_text`` does (it had replayed it)."""
    state = random_match(2, Rules(), 4)

    def score_of_letters(records):
        records[1]["score"] = {"N": "é"}
    assert tampered(state, score_of_letters).startswith(
        'games.jsonl: deal 2, score: recorded {"N": "é"}, the play gives ')
    for size, cut in ((80, False), (81, True)):
        long = ["x" * (size - 4)]         # (["..."] in JSON)
        text = json.dumps(long)
        assert len(text) == size

        def long_score(records):
            records[1]["score"] = long
        said = tampered(state, long_score)
        shown = f"{text[:40]}...{text[-20:]}" if cut else text
        assert said.startswith(f"games.jsonl: deal 2, score: recorded {shown}, the play gives")
    for deal, said in (("x", "'x', expected 2"), (9, "9, expected 2"),
                       (1, "1, expected 2 (deal 1 again: a line given twice?)")):
        def wrong_deal(records):
            records[1]["deal"] = deal
        assert tampered(state, wrong_deal) == f"games.jsonl: deal 2, deal: {said}"

    records = match_records(state)
    records[1]["score"] = {1, 2}            # (no JSON value: records given from Python)
    with pytest.raises(RecordError, match=re.escape("deal 2, score: recorded {1, 2}, the play")):
        replay(records)
    records = match_records(state)
    records[0]["match"] = ["é"]
    for read in (lambda text: replay_text(text, "games.jsonl"),
                 lambda text: replay(read_records(text, "games.jsonl"), "games.jsonl",
                                     read_records(text).lines)):
        with pytest.raises(RecordError, match=re.escape('games.jsonl:1: match: ["é"] is not a')):
            read(records_text(records))
    lines = records_text(match_records(state, names={"N": "José", "S": "Zoë"}))
    assert '"players": {"N": "José", "S": "Zoë"}' in lines


def test_an_action_after_a_deal_that_won_a_game_says_so():
    """Best of three: an action after the deal that won the first game is refused for that
    deal's end (a game won), not the first deal's (its last trick played)."""
    state = random_match(2, Rules(target=21), 0, best_of=3)
    won = next(log for log in state.deals if log.winners)
    assert won.number > 1 and not state.deals[0].winners and won is not state.deals[-1]

    def one_more(records):
        records[won.number - 1]["actions"].append("N:stand")
    assert tampered(state, one_more) == (
        f"games.jsonl: deal {won.number}, action {len(won.actions)} 'N:stand': the deal is "
        f"over before it (a game was won in it)")


@pytest.mark.parametrize("keys, shown", [(4, "k0, k1, k2, k3"), (5, "k0, k1, k2, k3, ...")])
def test_a_line_that_is_no_game_record_names_its_first_four_keys(keys, shown):
    with pytest.raises(RecordError, match=re.escape(f"not a game record (an object of {shown};")):
        replay([{f"k{i}": i for i in range(keys)}])


def test_bad_record_text():
    # where on the line, the words of json's message whole
    with pytest.raises(RecordError, match=r"^x.jsonl:2: not JSON \(Expecting property name "
                                          r"enclosed in double quotes at column 2\)$"):
        read_records('{"match": 1}\n{oops\n', "x.jsonl")
    with pytest.raises(RecordError, match=r"^x.jsonl:1: not JSON \(Unterminated string "
                                          r"starting at column 2\)$"):
        read_records('{"mat', "x.jsonl")
    with pytest.raises(RecordError, match=r"^x.jsonl:1: a record is a JSON object"):
        read_records("[1, 2]\n", "x.jsonl")
    with pytest.raises(RecordError, match=r"^x.jsonl:1: not a record that can be read \(the "
                                          r"key 'deal' is given twice in one object\)$"):
        read_records('{"match": 1, "deal": 1, "deal": 2}\n', "x.jsonl")
    with pytest.raises(RecordError, match="no records"):
        replay([])
    with pytest.raises(RecordError, match="^not a game record \\(an object of match; a record "
                                          "is a line that 'allfives match --record' or 'play "
                                          "--record' writes\\)$"):
        replay([{"match": 1}])
    record = match_records(random_match(2, Rules(), 1))[0]
    with pytest.raises(RecordError, match="^deal 1: missing key 'deal'$"):
        replay([{k: v for k, v in record.items() if k != "deal"}])
    with pytest.raises(RecordError, match="^deal 1: a record is an object"):
        replay([[1]])
    record = match_records(random_match(2, Rules(), 1))[0]
    for key, value, expected in (("players", {"N": "a"}, "players: "),
                                 ("players", {"N": 1, "S": "b"}, "players: "),
                                 ("dealer", "X", "dealer: "), ("pack", "AS", "pack: "),
                                 ("actions", "N:stand", "actions: "), ("best_of", 0, "best_of"),
                                 ("rules", {"preset": "none"}, "rules: ")):
        with pytest.raises(RecordError, match=f"^deal 1, {expected}"):
            replay([dict(record, **{key: value})])


@pytest.mark.parametrize("call, what", [
    (lambda state: match_records(None), "state: None is not a MatchState"),
    (lambda state: match_records(state, names=5), "names: one name (a text) per seat N S, not 5"),
    (lambda state: match_records(state, names={"N": None, "S": "b"}), "names: one name"),
    (lambda state: match_records(state, match=None), "match: None is not a match's name"),
    (lambda state: match_records(state, match=[1]), "match: [1] is not a match's name"),
    (lambda state: match_records(state, match={"a": 1}), "match: {'a': 1} is not a match's"),
    (lambda state: match_records(state, match=3.5), "match: 3.5 is not a match's name"),
    (lambda state: match_records(state, match=""), "match: '' is not a match's name"),
    (lambda state: match_records(state, match=True), "match: True is not a match's name"),
    (lambda state: records_module.deal_record(state, len(state.deals)), "index: "),
    (lambda state: records_module.deal_record(state, -1), "index: -1 is not a deal the state"),
    (lambda state: records_module.deal_record(state, 0, match=None), "match: None is not a"),
    (lambda state: records_module.deal_record(None, 0), "state: None is not a MatchState"),
    (lambda state: match_records(Match(2, Rules()).new_initial_state(auto_deal=False),
                                 match=None), "match: None is not a match's name"),
    (lambda state: match_records(Match(2, Rules()).new_initial_state(auto_deal=False),
                                 names={"N": "a"}), "names: one name (a text) per seat N S"),
])
def test_what_match_records_are_given_is_checked_in_one_line(call, what):
    """``match_records(None)`` was an AttributeError and ``names=5`` a TypeError; a ``match``
    that is no name (None, a list, an object, 3.5, '') was written into every record."""
    state = random_match(2, Rules(), 1)
    with pytest.raises(GameError, match=re.escape(what)) as error:
        call(state)
    assert "\n" not in str(error.value)


def test_a_match_name_is_written_into_every_record():
    state = random_match(2, Rules(), 1)
    for name in (7, "0:3:1"):
        assert [r["match"] for r in match_records(state, name)] == [name] * len(state.deals)


@pytest.mark.parametrize("call, what", [
    (lambda: replay_matches(None), "records: None is not a list of records"),
    (lambda: replay_matches(5), "records: 5 is not a list of records"),
    (lambda: replay_matches("{}"), "records: '{}' is not a list of records"),
    (lambda: list(replayed_matches(None, "x.jsonl")), "records: None is not a list of records"),
    (lambda: replay(None, "x.jsonl"), "x.jsonl: records: None is not a list of records"),
    (lambda: records_text(None), "records: None is not a list of records"),
    (lambda: read_records(None), "text: None is not a text of JSON lines"),
    (lambda: replay_text(b"{}"), "text: b'{}' is not a text of JSON lines"),
    (lambda: list(numbered_records(None, "x.jsonl")), "x.jsonl: lines: None is not a list"),
    (lambda: list(numbered_records(["", 5], "x.jsonl")), "x.jsonl:2: 5 is not a line of text"),
    (lambda: records_module.deal_opening(None), "deal 1: a record is an object, not null"),
    (lambda: records_module.deal_opening({"match": 1}), "not a game record (an object of match"),
])
def test_records_that_are_no_records_are_one_record_error(call, what):
    """``replay_matches(None)`` was a bare TypeError, ``read_records(None)`` an
    AttributeError, and ``deal_opening`` of a record without a key a KeyError."""
    with pytest.raises(RecordError, match=re.escape(what)) as error:
        call()
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("players, seats, table", [(2, "NES", 3), (2, "NESW", 4), (3, "NS", 2),
                                                    (4, "NES", 3), (3, "NESW", 4)])
def test_players_that_are_not_the_records_table_are_named(players, seats, table):
    """A record's players with a seat added, or one taken away, give a table the score's
    sides do not: the ``players`` key is named (it was the first action out of turn,
    ``not S's turn: E is to play a card``)."""
    records = match_records(random_match(players, Rules(), 2))
    sides = " ".join(records[0]["score"])
    edited = [dict(record, players={seat: seat.lower() for seat in seats})
              for record in records]
    what = (f"deal 1, players: {table} seats ({' '.join(seats)}), where the score's sides "
            f"({sides}) are a {players}-player table's")
    for call in (lambda: replay(edited), lambda: replay_matches(edited),
                 lambda: records_module.deal_opening(edited[0])):
        with pytest.raises(RecordError, match=f"^{re.escape(what)}$"):
            call()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_matchs_opening_steps_through_its_first_record_as_replay_does(players):
    from solver.batch import play_match
    from solver.registry import make_player

    bots = [make_player("heuristic") if s % 2 else make_player("random", seed=s)
            for s in range(players)]
    for seed in range(5):
        record = play_match(bots, Match(players), seed=seed).records[0]
        state = records_module.deal_opening(record)
        for step in record["actions"]:
            seat, action = parse_step(step, players)
            assert seat == state.current_player()
            state.apply_action(action)
        again = replay([record])
        assert state.deals == again.deals and state.score == again.score
    with pytest.raises(RecordError, match=r"^deal 1, .*AS"):
        records_module.deal_opening(dict(record, pack=["AS"] * 52))


def test_a_numpy_seed_is_the_whole_number_it_holds():
    """np.int64(1) as a seed was a TypeError from random.Random (which takes no numpy
    integer); a seed that is none is one AllFivesError."""
    np = pytest.importorskip("numpy")
    from solver.batch import play_match
    from solver.errors import AllFivesError
    from solver.pimc import PimcPlayer
    from solver.players import HeuristicPlayer
    from solver.registry import make_player
    from solver.stats import bootstrap_interval

    match = Match(players=2)
    assert match.new_initial_state(seed=np.int64(5)).dealer == \
        match.new_initial_state(seed=5).dealer
    one, other = (play_match([HeuristicPlayer()] * 2, match, seed) for seed in (np.int64(3), 3))
    assert one.records == other.records
    assert PimcPlayer(seed=np.int64(2)).rng.random() == PimcPlayer(seed=2).rng.random()
    assert make_player("random", seed=np.int64(4)).rng.random() == \
        make_player("random", seed=4).rng.random()
    assert bootstrap_interval([1, 2, 3, 5], seed=np.int64(3)) == \
        bootstrap_interval([1, 2, 3, 5], seed=3)
    with pytest.raises(AllFivesError, match=r"^seed: \[1\] is not a seed"):
        match.new_initial_state(seed=[1])


def test_numpy_whole_numbers_are_taken_as_python_ones_across_the_library():
    """A researcher's numbers often come from numpy: np.int64(4) groups, a seat, a side, a
    number of worlds were refused as 'not a number of groups' and the like."""
    np = pytest.importorskip("numpy")
    from solver.batch import run_duplicate
    from solver.deal import Position
    from solver.pimc import PimcPlayer
    from solver.search import Solver, solve
    from solver.stats import bootstrap_interval, wilson_interval

    position = Position.from_line("N:T.QJT92.-.- Q.AK5.7.4 dealer=S turnup=6H")
    assert solve(position, side=np.int64(1), node_limit=np.int64(10 ** 6)).value == \
        solve(position, side=1).value
    assert Solver(table_bits=np.int64(16)) is not None
    assert type(Match(best_of=np.int64(3)).best_of) is int
    state = Match(2).new_initial_state(seed=1)
    assert state.observation(np.int64(0)) == state.observation(0)
    assert type(PimcPlayer(worlds=np.int64(4), draws=np.int64(2)).worlds) is int
    given = run_duplicate("heuristic", "random", 2, np.int64(2), deals=np.int64(1),
                          chunk_size=np.int64(1))
    assert [g.difference for g in given.groups] == \
        [g.difference for g in run_duplicate("heuristic", "random", 2, 2, deals=1).groups]
    assert wilson_interval(np.int64(3), np.int64(10)) == wilson_interval(3, 10)
    assert bootstrap_interval([1, 2, 3], resamples=np.int64(10)) == \
        bootstrap_interval([1, 2, 3], resamples=10)
