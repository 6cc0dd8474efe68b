"""solver.players: legal play always, each of the heuristic's rules on a hand-made observation,
the cheater's card against the reference solver, and the registry.

Hand-made observations are built by ``seen``: hands and cards as text, the trick on the table as
``SEAT:CARD`` steps, the legal actions worked out by the follow rule.  Spades are trumps unless
said; the seat to act is the one the play makes next.
"""

from __future__ import annotations

import random
import re

import pytest

from solver import reference
from solver.cards import parse_card, parse_cards
from solver.errors import AllFivesError, spelled
from solver.game import BEG, RUN, STAND, TAKE_ONE, Match, Observation
from solver.heuristic import card_value
from solver.players import (CheaterPlayer, HeuristicPlayer, PlayerError, RandomPlayer, decide,
                            within_reach)
from solver.registry import PlayerSpec, make_player, player_names, player_spec, register_player
from solver.rules import PRESETS, Rules
from solver.tricks import legal_plays, parse_seat

SEATS = {2: "NS", 3: "NES", 4: "NESW"}


def seen(hand: str, play: str = "", players: int = 2, seat: str | None = None, trump: str = "S",
         turnups: str = "", rules: Rules | None = None, phase: str = "play", dealer: str = "S",
         score: tuple[int, ...] | None = None) -> Observation:
    """The observation of the seat to act (``seat``, or the next seat of ``play``)."""
    rules = rules or Rules()
    n = players
    steps = [(parse_seat(s.split(":")[0], n), parse_card(s.split(":")[1])) for s in play.split()]
    cards = parse_cards(hand)
    trump_suit = "SHDC".index(trump)
    if seat is not None:
        me = parse_seat(seat, n)
    elif len(steps) % n:
        me = (steps[-1][0] + 1) % n
    else:
        assert not steps, "say which seat leads after a completed trick"
        me = (SEATS[n].index(dealer) + 1) % n
    ups = tuple(parse_cards(turnups)) if turnups else (parse_card("2" + trump),)
    if phase == "play":
        k = len(steps) % n
        trick = [c for _, c in steps[len(steps) - k:]] if k else []
        legal = tuple(sorted(legal_plays(cards, trick, trump_suit, rules.strict_follow)))
        fixed = trump_suit
    elif phase == "elder":
        legal, fixed = (STAND, BEG), None
    else:
        legal = (TAKE_ONE,) if rules.max_runs == 0 else (TAKE_ONE, RUN)
        fixed = None
    sides = 2 if n == 4 else n
    return Observation(
        seat=me, players=n, rules=rules, best_of=1, phase=phase, current_player=me, game=1,
        deal=1, dealer=SEATS[n].index(dealer), score=score or (0,) * sides,
        games_won=(0,) * sides, hand=tuple(cards), turnups=ups, trump=fixed,
        calls=(), play=tuple(steps), revokes=(), pegs=(), legal_actions=legal)


def explain(observation: Observation) -> tuple[str, int]:
    from solver.game import action_name

    action, rule = HeuristicPlayer().explain(observation)
    return action_name(action), rule


# ---- every player plays only legal actions -----------------------------------------------------


def _play_out(state, players, rng_check=None) -> None:
    while not state.is_terminal():
        seat = state.current_player()
        observation = state.observation(seat)
        player = players[seat]
        action = (player.act(observation, state) if player.omniscient
                  else player.act(observation))
        assert action in observation.legal_actions, (player, observation)
        state.apply_action(action)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_and_heuristic_play_only_legal_actions(preset, n):
    rules = Rules.preset(preset)
    if rules.target > 31:
        rules = rules.replace(target=31)  # shorter matches, every phase still reached
    for game in range(4):
        state = Match(n, rules).new_initial_state(seed=f"{preset}:{n}:{game}")
        players = [make_player("heuristic") if (seat + game) % 2 else
                   make_player("random", seed=seat + 10 * game) for seat in range(n)]
        _play_out(state, players)
        assert state.is_terminal()


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_cheater_plays_only_legal_actions(n):
    rules = Rules().replace(target=21)
    state = Match(n, rules).new_initial_state(seed=n)
    players = [CheaterPlayer(time_limit=0.2) if seat == 0 else make_player("heuristic")
               for seat in range(n)]
    _play_out(state, players)


def test_decide_refuses_an_illegal_action():
    class Bad:
        name = "bad"
        omniscient = False

        def act(self, observation):
            return 99

    state = Match(2).new_initial_state(seed=1)
    with pytest.raises(PlayerError, match="not legal"):
        decide(Bad(), state)


def test_a_player_asked_out_of_turn_says_so():
    observation = seen("AS KS", players=2)
    idle = Observation(**{**observation.__dict__, "legal_actions": ()})
    with pytest.raises(PlayerError, match="not to act"):
        HeuristicPlayer().act(idle)


def test_random_is_seeded():
    def moves(seed):
        state = Match(2).new_initial_state(seed=5)
        players = [RandomPlayer(seed), RandomPlayer(seed + 1)]
        out = []
        while not state.is_terminal():
            action = decide(players[state.current_player()], state)
            out.append(action)
            state.apply_action(action)
        return out

    assert moves(1) == moves(1)
    assert moves(1) != moves(3)


# ---- the heuristic's rules, one observation each ----------------------------------------------


def test_rule_1_stands_with_two_trumps_or_a_scoring_trump():
    def call(hand):
        return explain(seen(hand, phase="elder", seat="N", turnups="9S"))

    assert call("4S 3S 2S AH KH QH") == ("stand", 1)
    assert call("TS 2H 3H 4H 5D 6D") == ("stand", 1)
    assert call("5S 2H 3H 4H 6D 7D") == ("stand", 1)
    assert call("AS 2H 3H 4H 6D 7D") == ("stand", 1)
    assert call("QS JS 2H 3H 4H 6D") == ("stand", 1)
    assert call("QS 2H 3H 4H 6D 7D") == ("beg", 1)
    assert call("AH KH QH JH TH 9D") == ("beg", 1)


def test_rule_2_the_dealer_keeps_a_good_turn_up_and_runs_from_a_poor_one():
    def call(hand, score=(0, 0), rules=None):
        return explain(seen(hand, phase="dealer", seat="S", turnups="9S", score=score,
                            rules=rules))

    assert call("4S 3S AH KH QH 2D") == ("take-one", 2)       # two trumps
    assert call("KS 2H AH KH QH 2D") == ("take-one", 2)       # a scoring trump
    assert call("QS 2H AH KH QH 2D") == ("run", 2)            # one trump, no scoring trump
    assert call("AD 2H AH KH QH 2D") == ("run", 2)            # no trump
    # the take-one point would bring the elder hand (N) to the target: run, however good
    assert call("AS KS TS 5S QH 2D", score=(60, 10)) == ("run", 2)
    assert call("AS KS TS 5S QH 2D", score=(59, 10)) == ("take-one", 2)
    # no run allowed: take one
    assert call("2H AH KH QH 2D 3D", rules=Rules().replace(max_runs=0)) == ("take-one", 2)


def test_rule_3_draws_trumps_with_the_top_one():
    assert explain(seen("AS 4S 9H 3D", players=2, seat="N")) == ("AS", 3)
    # A and K have gone: the queen is the top trump now
    observation = seen("QS 4S 9H 3D", players=2, play="N:AS S:KS", seat="N")
    assert explain(observation) == ("QS", 3)


def test_rule_4_saves_the_ten_and_leads_the_cheapest_card():
    # the A, K, Q and J of trumps are out: the ten is not led into them
    assert explain(seen("TS 9H 3D 4C", players=2, seat="N")) == ("3D", 4)
    # a worthless trump before a card that counts
    assert explain(seen("KS 2S QH AD", players=2, seat="N", turnups="3H")) == ("2S", 4)
    # the ten as the top trump left is led to draw: rule 3
    observation = seen("TS 9H 3D", players=2, seat="S",
                       play="N:AS S:KS N:JS S:QS S:3H N:2H")
    assert explain(observation) == ("TS", 3)


def test_rule_5_banks_the_ten_when_last_to_play():
    # N leads a heart; S, last to play, trumps it with the ten (trump-anytime)
    assert explain(seen("TS 2S 7H 9D", players=2, play="N:4H")) == ("TS", 5)
    # with the ace led, the ten would be lost: rule 10 ducks the two
    assert explain(seen("TS 2S 9D", players=2, play="N:AS")) == ("2S", 10)


def test_rule_5_throws_the_ten_onto_a_partners_ace_of_trumps():
    # four players: N leads the ace of trumps, E follows, S (N's partner) holds the ten
    assert explain(seen("TS 3S 9H 4D", players=4, play="N:AS E:2S")) == ("TS", 5)


def test_rule_6_throws_points_onto_a_partners_winner():
    # W is last: E (W's partner) is winning with the ace of hearts; W throws the heart ten
    observation = seen("TH 2H 3C 4C", players=4, play="N:3H E:AH S:4H")
    assert explain(observation) == ("TH", 6)
    # N's ace of hearts with W still to play could be trumped: S keeps the ten (rule 10)
    observation = seen("TH 2H 3C 4C", players=4, play="N:AH E:4H")
    assert explain(observation) == ("2H", 10)


def test_rule_7_wins_a_trick_of_points_as_cheaply_as_it_can():
    # N leads the queen of trumps; S, last, holds the ace and king: the king is enough
    assert explain(seen("AS KS 3H", players=2, play="N:QS")) == ("KS", 7)
    # S trumps N's diamond with the queen; W, last, overtrumps with the king, not the ace
    observation = seen("AS KS 5D", players=4, play="N:3D E:4D S:QS")
    assert explain(observation) == ("KS", 7)


def test_rule_8_fights_for_captured_trumps():
    # N leads the queen of trumps; E holds the king with the ace out and two seats to play
    observation = seen("KS 3S 4H 5D", players=4, play="N:QS")
    assert explain(observation) == ("KS", 8)


def test_rule_9_takes_game_pips_with_a_non_trump():
    # a heart ten led: S, last, takes its Game pips with the heart ace
    assert explain(seen("AH 7S 3C", players=2, play="N:TH")) == ("AH", 9)
    # N leads the heart king; E, void in hearts, spends no trump on the Game pips
    observation = seen("2S 9D 8C", players=4, play="N:KH")
    assert explain(observation) == ("8C", 10)


def test_rule_10_ducks_with_the_cheapest_card():
    # an opponent's winning ace of trumps: follow with the lowest trump, not the ten or five
    assert explain(seen("TS 5S 3S 9D", players=2, play="N:AS")) == ("3S", 10)
    # nothing to win: the lowest worthless card
    assert explain(seen("AD 8D 2D", players=2, play="N:9C")) == ("2D", 10)


def test_card_values_follow_the_rules():
    rules = Rules()
    spade = "SHDC".index("S")
    assert card_value(parse_card("TS"), spade, rules) == 10 + 1.0
    assert card_value(parse_card("JS"), spade, rules) == pytest.approx(2.1)
    assert card_value(parse_card("TH"), spade, rules) == pytest.approx(1.0)
    assert card_value(parse_card("9H"), spade, rules) == 0
    fours = Rules.preset("all-fours")
    assert card_value(parse_card("5S"), spade, fours) == 0      # no capture, fives off for Game
    assert card_value(parse_card("JS"), spade, fours) == pytest.approx(1.1)


# ---- the cheater ----------------------------------------------------------------------------


def late_states(n: int, seeds, rng: random.Random, cards: int = 3, target: int = 999,
                score: int = 0, into_trick: bool = False):
    """Matches of ``seeds`` from ``score`` each, played (calls by the heuristic, cards by
    ``rng``) until each hand holds ``cards`` cards or fewer (with ``into_trick``, then up to
    ``n - 1`` cards more into the trick, so that some seats follow), those still in card play."""
    heuristic = HeuristicPlayer()
    for seed in seeds:
        state = Match(n, Rules().replace(target=target)).new_initial_state(
            seed=seed, score=[score] * (2 if n == 4 else n))
        while not state.is_terminal() and (state.phase != "play"
                                           or max(len(h) for h in state.hands) > cards):
            if state.phase == "play":
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(decide(heuristic, state))
        for _ in range(rng.randrange(n) if into_trick else 0):
            if state.is_terminal() or state.phase != "play":
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal() and state.phase == "play":
            yield state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_cheater_plays_a_double_dummy_best_card_late_in_a_deal(n):
    checked = 0
    objective = "points" if n == 3 else "margin"
    for state in late_states(n, range(100 * n, 100 * n + 40), random.Random(n)):
        cheater = CheaterPlayer(time_limit=None)
        position = state.position()
        if len(position.legal_moves()) < 2:
            continue
        side = position.deal.side_of(position.to_move)
        truth = reference.solve(position, side, objective)
        card = cheater.act(state.observation(state.current_player()), state)
        assert truth.moves[card] == truth.value, (position, card)
        checked += 1
    assert checked >= 10


def test_the_cheater_needs_the_state_in_card_play():
    state = Match(2).new_initial_state(seed=3)
    while state.phase != "play":
        state.apply_action(decide(make_player("heuristic"), state))
    observation = state.observation(state.current_player())
    if len(observation.legal_actions) > 1:
        with pytest.raises(PlayerError, match="omniscient"):
            CheaterPlayer().act(observation)


def test_a_cheater_stopped_by_its_limit_still_plays_a_legal_card():
    rng = random.Random(9)
    state = Match(4, Rules().replace(target=999)).new_initial_state(seed=11)
    cheater = CheaterPlayer(time_limit=None, node_limit=1)
    while not state.phase == "play":
        state.apply_action(decide(make_player("heuristic"), state))
    for _ in range(8):
        observation = state.observation(state.current_player())
        card = cheater.act(observation, state)
        assert card in observation.legal_actions
        state.apply_action(rng.choice(state.legal_actions()))
    assert cheater.stopped >= 1


# ---- the registry ---------------------------------------------------------------------------


def test_players_are_made_by_name():
    assert {"random", "heuristic", "cheater"} <= set(player_names())
    assert isinstance(make_player("heuristic"), HeuristicPlayer)
    assert make_player("cheater", time_limit=0.5).time_limit == 0.5
    with pytest.raises(PlayerError, match="unknown player 'nobody'"):
        make_player("nobody")
    with pytest.raises(PlayerError, match="player 'random'"):
        make_player("random", depth=3)


def test_player_specs_read_options():
    spec = player_spec("cheater:time_limit=0.5,node-limit=1000")
    assert spec == PlayerSpec("cheater", (("time_limit", 0.5), ("node_limit", 1000)))
    assert str(spec) == "cheater:time_limit=0.5,node_limit=1000"
    assert spec.make().node_limit == 1000
    assert player_spec("cheater:time_limit=none").make().time_limit is None
    # a whole number written with an exponent is a whole number; 2.5e-1 is not; 1e999 is no
    # number (it is kept as written, for the option to say so)
    assert player_spec("pimc:worlds=1e2,draws=2E1,time_limit=2.5e-1,node_limit=1e999").options \
        == (("worlds", 100), ("draws", 20), ("time_limit", 0.25), ("node_limit", "1e999"))
    with pytest.raises(AllFivesError, match="^node_limit: .1e999. is not a number of nodes"):
        player_spec("pimc:node_limit=1e999").make()
    assert player_spec("pimc:worlds=1e2").make().worlds == 100
    with pytest.raises(PlayerError, match="key=value"):
        player_spec("cheater:fast")


@pytest.mark.parametrize("text, read", [
    ("16", 16), ("+4", 4), ("1e3", 1000), ("-3", -3), (".5", 0.5), ("8.", 8.0), ("8.0", 8.0),
    ("1.6e1", 16.0), ("16.e0", 16.0),  # (a point: no whole number, with an exponent or not)
    ("9e99", 9e99),                    # (past 2**53 a float, named as such: not 100 digits)
    ("1_0", "1_0"), ("١٠", "١٠"), ("１６", "１６"), ("²", "²"),   # not what Python's int reads
    ("inf", "inf"), ("nan", "nan"), ("1e400", "1e400"), ("0x10", "0x10"), ("1.2.3", "1.2.3")])
def test_an_options_value_is_a_number_only_as_digits_0_to_9_write_it(text, read):
    (_, value), = player_spec(f"pimc:worlds={text}").options
    assert value == read and type(value) is type(read)
    if type(read) is int and read in (16, 4, 1000):
        assert player_spec(f"pimc:worlds={text}").make().worlds == read
    else:
        with pytest.raises(AllFivesError, match=f"^worlds: {re.escape(spelled(read))} is not "):
            player_spec(f"pimc:worlds={text}").make()


def test_a_registered_player_is_made_by_its_name():
    class First:
        omniscient = False

        def __init__(self, seed=None):
            self.name = "first"

        def act(self, observation):
            return observation.legal_actions[0]

    register_player("first-test", First)
    try:
        state = Match(2).new_initial_state(seed=2)
        players = [make_player("first-test"), make_player("heuristic")]
        _play_out(state, players)
    finally:
        from solver import registry

        registry._REGISTRY.pop("first-test")
    with pytest.raises(PlayerError, match="is a word"):
        register_player("a:b", First)


def test_every_rule_the_heuristic_gives_is_numbered_in_its_docstring_and_each_is_met():
    """Over seeded matches, each decision's rule (``explain``) is one the docstring numbers,
    and every one of the ten decides something (rule 8, fighting for trumps, only with four
    players: it needs a partner's card to win the trick)."""
    doc = HeuristicPlayer.__doc__
    player = HeuristicPlayer()
    met = set()
    for n, seeds in ((2, range(5)), (3, range(5)), (4, range(30))):
        for seed in seeds:
            state = Match(players=n).new_initial_state(seed=seed)
            while not state.is_terminal():
                action, rule = player.explain(state.observation(state.current_player()))
                assert f"\n    {rule}. " in doc
                met.add(rule)
                state.apply_action(action)
    assert met == set(range(1, 11))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_near_the_target_the_cheater_plays_a_card_that_wins_the_match(n):
    """With the match within reach in this deal, the cheater's card keeps the best value of
    objective win, by the reference solver."""
    checked = 0
    for state in late_states(n, range(1000 * n, 1000 * n + 30), random.Random(n), target=21,
                             score=15):
        cheater = CheaterPlayer(time_limit=None)
        position = state.position()
        if position.deal.score is None or len(position.legal_moves()) < 2 \
                or not within_reach(position):
            continue
        side = position.deal.side_of(position.to_move)
        truth = reference.solve(position, side, "win")
        card = cheater.act(state.observation(state.current_player()), state)
        assert truth.moves[card] == truth.value, (position, card)
        checked += 1
    assert checked >= 10


def test_a_spec_is_written_as_it_is_read():
    from solver.registry import player_spec

    # the Reproduce line once wrote time_limit=None, which read back as the word 'None'
    for text in ("pimc:time_limit=none,infer=false,worlds=8", "cheater:node_limit=none",
                 "pimc:trust=full,draws=2"):
        spec = player_spec(text)
        assert str(spec) == text and player_spec(str(spec)) == spec


def test_an_option_whose_values_are_words_reads_them_as_written():
    """``fusion=none``, the default's own word, was read as None and refused ('None is not
    'none', ...'), and a word option's message named what Python made of the text."""
    from solver.registry import player_spec, set_options

    spec = player_spec("pimc:fusion=none,worlds=8")
    assert spec.options == (("fusion", "none"), ("worlds", 8))
    assert spec.make().fusion == "none" and set_options(spec) == {"worlds": 8}
    assert str(spec) == "pimc:fusion=none,worlds=8" and player_spec(str(spec)) == spec
    # where the default is none, none is None still
    assert player_spec("pimc:trust=none,partner=NONE").options == (("trust", None),
                                                                   ("partner", None))
    for text, message in [("cheater:replies=TRUE", "replies: 'TRUE' is not"),
                          ("heuristic:calls=1e3", "calls: '1e3' is not one of"),
                          ("heuristic:calls=none", "calls: 'none' is not one of"),
                          ("pimc:trust=TRUE", "trust: 'TRUE' is not"),
                          ("pimc:partner=1e3", "partner: '1e3' is not")]:
        with pytest.raises(AllFivesError, match=f"^{message}"):
            player_spec(text).make()


def test_an_option_given_in_the_spec_and_beside_it_is_given_twice():
    """It was kept twice, the last winning silently, and the spec written out was one that
    player_spec refuses."""
    with pytest.raises(PlayerError, match=r"^player option 'worlds' is given twice"):
        player_spec("pimc:worlds=8", worlds=16)
    spec = player_spec("pimc:worlds=8", draws=2)
    assert str(spec) == "pimc:worlds=8,draws=2" and player_spec(str(spec)) == spec
    with pytest.raises(PlayerError, match=r"^player 'pimc' has no option 'seed'"):
        player_spec("pimc:worlds=8", seed=3)      # (the seed is make's)


@pytest.mark.parametrize("spec", ["pimc:worlds=8,time_limit=none", "cheater", "heuristic",
                                  "random"])
def test_a_player_that_has_decided_pickles_and_plays_on_alike(spec):
    """A Monte Carlo player or cheater that had decided could not be pickled (its engine
    cannot be), so not sent to another process: its Solver pickles as a new one of the same
    size, and the copy plays on as the player does."""
    import copy
    import pickle

    pytest.importorskip("solver.search")
    player = player_spec(spec).make(seed=1)
    state = Match(players=2).new_initial_state(seed=3)
    for _ in range(5):
        state.apply_action(decide(player, state))
    copies = [pickle.loads(pickle.dumps(player)), copy.deepcopy(player)]
    for _ in range(4):
        if state.is_terminal():
            break
        action = decide(player, state)
        assert all(decide(other, state) == action for other in copies)
        state.apply_action(action)
