"""The whole match as one state machine, from the shuffle to the last peg.

A ``Match`` holds what is fixed for a match: the number of players (2, 3 or 4; partners N+S
against E+W with four), the ``Rules`` and how many games it is the best of.
``Match.new_initial_state(seed)`` gives a ``MatchState`` with the OpenSpiel state API::

    >>> import random
    >>> from solver.game import Match
    >>> state = Match(players=2).new_initial_state(seed=1)
    >>> rng = random.Random(1)
    >>> while not state.is_terminal():
    ...     state.apply_action(rng.choice(state.legal_actions()))
    >>> sorted(state.returns())
    [-1, 1]

Phases
------
A state is always in one of these phases (``state.phase``); ``current_player()`` says who acts.

``shuffle``  (chance, ``current_player() == CHANCE``) a pack is to be dealt: ``deal_pack(pack)``
             deals the 52 cards given in the order dealt, ``deal_pack()`` a pack shuffled by the
             state's seeded ``random.Random``.  A state made with ``auto_deal=True`` (the
             default) deals each pack itself the moment one is needed, so a program playing it
             never sees this phase.  The pack alone fixes the deal: 3 cards to each seat from the
             elder hand (the dealer's left), twice, then the turn-up, and every run after it
             (``solver.shuffle.deal_pack``).
``elder``    the elder hand ``stand``s (trumps are fixed) or ``beg``s.
``dealer``   after a beg the dealer says ``take-one`` (the elder hand's side pegs 1, trumps
             stay) or ``run``s the cards: the turn-up is set aside face up, 3 more cards go to
             each seat from the elder hand and the next card is turned up; while it is of the
             suit first proposed the cards are run again.  When a run is needed past
             ``rules.max_runs``, or the pack cannot supply a full run, the cards are thrown in and
             the same dealer deals again (back to ``shuffle``).  ``run`` is no action when
             ``max_runs`` is 0.  With ``turnup_jack`` the dealer pegs 1 when the card that fixes
             trumps (the last turn-up) is a Jack, once trumps are fixed: after a stand, after the
             take-one's point, or when a run turns up a new suit.
``play``     the elder hand leads; each seat in turn plays a card by the ``follow`` rule; the
             winner of a trick pegs its captures at once and leads the next.  After the last
             trick High, Low, Jack, Game and five-for-five are pegged in that order.
``over``     the match is over (``current_player() == TERMINAL``).

Points are pegged one by one onto the match score (``state.pegs`` lists this deal's: take-one,
turn-up Jack, each trick's captures, a revoke's penalty, then the end-of-deal points).  With
``finish = "peg-out"`` the first side whose peg takes it to the target wins the game at once,
even in the middle of a deal (the rest of the deal is not played).  With ``"hand-end"`` the totals
are compared after the deal: the highest total at or over the target wins, equal highest share
the win.  With ``skunk`` a game won while every losing side is under 31 is a double game (a
win every side shares is none).  After each deal (not after a throw-in) the deal passes to the
left, also into the next game of a best-of-N match, where every score starts again at 0.  A best-of-N match ends when a side has won
more than half of N games (a double game counts as two) or after N games; the sides with most
games won share it.

``returns()`` per seat, once the match is over (0 before): the seat's side won +1, lost -1; in a
match of one game a double game is +2 / -2.  Sides that share a win each get the winner's value.

Actions
-------
Actions are ints (``legal_actions()`` is sorted): a card is its own number in ``solver.cards``
(``suit * 16 + rank``, 0 to 60), and the calls are ``STAND`` 64, ``BEG`` 65, ``TAKE_ONE`` 66,
``RUN`` 67.  ``action_name`` and ``parse_action`` turn them into text and back: ``"stand"``,
``"beg"``, ``"take-one"``, ``"run"``, and cards spelled canonically (``"TH"``; any spelling is
read).  In a record an action is written with its seat: ``"E:beg"``, ``"S:run"``, ``"E:TH"``.

A revoke (a card that breaks the follow rule) is never legal and never among ``legal_actions()``;
it exists to replay recorded games in which one was called (README, "Rule options":
``revoke_penalty``).  It is
written ``"E:revoke:5S"``: E played 5S although the follow rule forbade it, and the revoke was
called once the trick was turned.  ``apply_revoke(card)`` plays it (action number
``REVOKE + card``).  The trick stands as played; once it is complete and its captures pegged, the
penalty is pegged: with ``revoke_penalty = "offender"`` the offender's side loses 3, with
``"others"`` every other side gains 3 (clockwise from the offender's left).  From the revoking card
to the end of that deal the offender's side cannot win: under peg-out its pegs do not end the
game (it wins on its first peg of a later deal, if still at the target and nobody won first);
under hand-end the highest total over the target among the other sides wins.  A deal holding a
revoke has no ``position()``: a Position replays only legal play.

Observation
-----------
``observation(seat)`` is a frozen ``Observation``: exactly what the seat knows of the deal in
play and of the match: its own hand, every turn-up it has seen (those set aside by runs too),
the calls, every card played and by whom (and which were revokes), the points pegged in this deal,
the match score, the games won, the dealer, the rules and the legal actions if it is to act.  No
other seat's card and no card of the pack that was not turned up.

Position
--------
During play ``position()`` is the ``solver.deal.Position`` of the deal in play: the hands as
dealt after the runs, trumps, the dealer, the rules and the cards played, so that the solver and
the analysis work on it unchanged.  Its ``score`` is the match score when play started (after any
take-one and turned-up Jack: the score the match-aware objective starts from), or None under
peg-out when a side is already at or over the target (which a Deal refuses there; possible after a
revoke).  Under hand-end a side at the target before the play has not won: the totals are
compared after the deal, and the score is the position's.

Records
-------
A match played is written and read back, and checked, as game records: ``solver.records``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from numbers import Integral

from . import shuffle
from .cards import (ALL_CARDS, JACK, Card, CardError, card_str, is_card, parse_card, rank_of,
                    sort_cards, suit_of)
from .deal import Deal, Position, Trick, has_won
from .errors import AllFivesError, lower, quoted, seeded, whole
from .pegging import Peg, is_double
from .rules import Rules
from .scoring import capture_points, end_points
from .tricks import Seated, Table, follow_rule, legal_plays, parse_seat, seat_names, side_of, \
    trick_winner

__all__ = ["Match", "MatchState", "Observation", "DealLog", "GameError", "CHANCE", "TERMINAL",
           "STAND", "BEG", "TAKE_ONE", "RUN", "REVOKE", "action_name", "parse_action",
           "step_name", "parse_step", "score_problem", "cut_for_deal", "observation_of",
           "turn_view", "PLAY", "CALLS", "DEALER", "ELDER"]

#: ``current_player()`` while a pack is to be dealt, and once the match is over (OpenSpiel's ids).
CHANCE = -1
TERMINAL = -4

STAND, BEG, TAKE_ONE, RUN = 64, 65, 66, 67
#: ``REVOKE + card``: the card played against the follow rule (replay only).
REVOKE = 128
CALLS = {STAND: "stand", BEG: "beg", TAKE_ONE: "take-one", RUN: "run"}
_CALL_OF_NAME = {name: action for action, name in CALLS.items()}

SHUFFLE, ELDER, DEALER, PLAY, OVER = "shuffle", "elder", "dealer", "play", "over"

#: What a revoke costs, or gives each other side.
REVOKE_POINTS = 3


class GameError(AllFivesError):
    """An action that is not legal now, or a pack that is not a pack."""


# ---- actions as text ----------------------------------------------------------------------------


def action_name(action: int) -> str:
    """``64`` -> ``"stand"``, ``26`` -> ``"TH"``, ``REVOKE + 3`` -> ``"revoke:5S"``."""
    if action in CALLS:
        return CALLS[action]
    if is_card(action):
        return card_str(action)
    if isinstance(action, int) and is_card(action - REVOKE):
        return "revoke:" + card_str(action - REVOKE)
    raise GameError(f"{quoted(action)} is not an action")


def parse_action(text: str) -> int:
    """The inverse of ``action_name``; a card may be spelled any way ``parse_card`` reads."""
    if not isinstance(text, str):
        raise GameError(f"{quoted(text)} is not an action")
    word = lower(text.strip())
    if word in _CALL_OF_NAME:
        return _CALL_OF_NAME[word]
    try:
        if word.startswith("revoke:"):
            return REVOKE + parse_card(word[len("revoke:"):])
        return parse_card(word)
    except CardError:
        raise GameError(f"unknown action {quoted(text)} (a card, stand, beg, take-one, run or "
                        f"revoke:CARD)") from None


def step_name(seat: int, action: int, players: int) -> str:
    """An action with its seat, as records write it: ``"E:beg"``, ``"S:TH"``."""
    return f"{seat_names(players)[seat]}:{action_name(action)}"


def parse_step(text: str, players: int) -> tuple[int, int]:
    """``"E:TH"`` -> (seat, action)."""
    if not isinstance(text, str) or ":" not in text:
        raise GameError(f"{quoted(text)} is not SEAT:ACTION")
    seat, action = text.split(":", 1)
    try:
        who = parse_seat(seat, players)
    except AllFivesError as error:      # a seat not at the table: the replay says where
        raise GameError(str(error)) from None
    return who, parse_action(action)


# ---- the match ----------------------------------------------------------------------------------


def score_problem(score: object, sides: int, target: int) -> str | None:
    """What is wrong with a match score to start from, or None: one whole number a side, each
    under the target."""
    if not isinstance(score, Sequence) or isinstance(score, str) or len(score) != sides or \
            any(isinstance(s, bool) or not isinstance(s, int) or s >= target for s in score):
        return f"one whole number a side ({sides}), each under the target {target}"
    return None


def cut_for_deal(rng: random.Random, players: int) -> tuple[int, tuple[tuple[int, Card], ...]]:
    """The first dealer by a cut: each seat from N clockwise cuts a card of a pack shuffled by
    ``rng``; the highest rank deals, and seats tied for it cut again.  Returns the dealer and the
    cuts, in order, as (seat, card)."""
    seat_names(players)
    pack = shuffle.shuffled_pack(rng)
    cuts: list[tuple[int, Card]] = []
    cutting = list(range(players))
    while True:
        if len(pack) < len(cutting):
            pack = shuffle.shuffled_pack(rng)
        round_ = [(seat, pack.pop()) for seat in cutting]
        cuts += round_
        top = max(rank_of(c) for _, c in round_)
        cutting = [seat for seat, c in round_ if rank_of(c) == top]
        if len(cutting) == 1:
            return cutting[0], tuple(cuts)


@dataclass(frozen=True)
class Match(Table):
    """What is fixed for a match: the table, the rules, and how many games it is the best of."""

    players: int = 2
    rules: Rules = field(default_factory=Rules)
    best_of: int = 1

    def __post_init__(self) -> None:
        seat_names(self.players)
        if not isinstance(self.rules, Rules):
            raise GameError(f"rules must be a Rules, not {quoted(self.rules)}")
        if whole(self.best_of) is None or self.best_of < 1:
            raise GameError(f"best_of takes a whole number from 1, not {quoted(self.best_of)}")
        object.__setattr__(self, "best_of", int(self.best_of))     # (numpy's as Python's)

    def new_initial_state(self, seed: int | str | None = None, dealer: int | None = None,
                          score: Sequence[int] | None = None,
                          auto_deal: bool = True) -> MatchState:
        """A match about to start.  ``seed`` seeds the state's ``random.Random``, which cuts for
        the first dealer (unless ``dealer`` is given) and shuffles every pack not given.
        ``score`` starts the first game at another score than 0 (each entry under the target).
        With ``auto_deal`` the state deals each pack from its RNG as soon as one is needed;
        without, it stops in the ``shuffle`` phase for ``deal_pack``."""
        return MatchState(self, seeded(seed), dealer, score, auto_deal)


@dataclass(frozen=True)
class DealLog:
    """One deal once it is over: what its record holds."""

    number: int
    game: int
    dealer: int
    pack: tuple[Card, ...]
    #: (seat, action) in order.
    actions: tuple[tuple[int, int], ...]
    #: The match score after the deal, per side.
    score: tuple[int, ...]
    #: The sides that won the game on this deal (none if the game goes on).
    winners: tuple[int, ...] = ()
    double: bool = False
    thrown_in: bool = False
    #: The points pegged in the deal, in order (``MatchState.pegs``).
    pegs: tuple[Peg, ...] = ()
    #: Every card turned up in the deal, the first and those of the runs, in order.
    turnups: tuple[Card, ...] = ()

    @property
    def cards_played(self) -> bool:
        """Whether a card was played in the deal (a revoke counts): not a deal thrown in, nor
        one whose match ended in the calls."""
        return any(action < STAND or action >= REVOKE for _, action in self.actions)


@dataclass(frozen=True)
class Observation:
    """What one seat knows (see the module notes).  Cards are ints, sorted hands; seats and sides
    are numbers; ``calls`` and ``play`` are (seat, action) and (seat, card) in order."""

    seat: int
    players: int
    rules: Rules
    best_of: int
    phase: str
    current_player: int
    game: int
    deal: int
    dealer: int
    score: tuple[int, ...]
    games_won: tuple[int, ...]
    hand: tuple[Card, ...]
    turnups: tuple[Card, ...]
    trump: int | None
    calls: tuple[tuple[int, int], ...]
    play: tuple[tuple[int, Card], ...]
    #: Indexes into ``play`` of the cards that were revokes.
    revokes: tuple[int, ...]
    pegs: tuple[Peg, ...]
    legal_actions: tuple[int, ...]


def _seat_at(seat: object, players: int) -> int:
    """``seat`` as an int, where it is a seat of a ``players``-player table."""
    number = whole(seat)
    if number is None or not 0 <= number < players:
        raise GameError(f"seat {quoted(seat)} is not at a {players}-player table")
    return number


def observation_of(position: Position, seat: int) -> Observation:
    """The game's ``Observation`` of ``seat`` in ``position`` (a deal in play outside a match),
    for the players of ``solver.players``."""
    if not isinstance(position, Position):
        raise GameError(f"position: {quoted(position)} is not a Position")
    deal = position.deal
    seat = _seat_at(seat, deal.players)
    sides = deal.sides
    play = []
    for trick in position.tricks:
        play += [(trick.seat_of(i, deal.players), c) for i, c in enumerate(trick.cards)]
    legal = tuple(sorted(position.legal_moves())) if position.to_move == seat else ()
    return Observation(
        seat=seat, players=deal.players, rules=deal.rules, best_of=1, phase="play",
        current_player=position.to_move, game=1, deal=1, dealer=deal.dealer,
        score=deal.score if deal.score is not None else (0,) * sides,
        games_won=(0,) * sides, hand=tuple(sorted(position.hands[seat])),
        turnups=(deal.turnup,) if deal.turnup is not None else (), trump=deal.trump,
        calls=(), play=tuple(play), revokes=(), pegs=(), legal_actions=legal)


def turn_view(observation: Observation, seat: int, hand, play, legal) -> Observation:
    """The observation ``seat`` had (or would have) at its turn in card play, holding ``hand``
    after ``play`` with ``legal`` cards to choose from, the rest as in ``observation``: the
    fields the players' card play reads, made without ``dataclasses.replace``'s checks, for
    the many turns that inference and play-outs ask about."""
    view = object.__new__(Observation)
    fields = dict(observation.__dict__)
    fields.update(seat=seat, current_player=seat, hand=tuple(sorted(hand)), play=tuple(play),
                  legal_actions=tuple(sorted(legal)), revokes=())
    view.__dict__.update(fields)
    return view


@dataclass(frozen=True)
class _PlayedOut:
    """The finished play of a deal as ``scoring.end_points`` reads it (a Position cannot hold a
    revoke, so the engine scores the end of every deal from its own tricks)."""

    deal: Deal
    completed: tuple[Trick, ...]
    is_over: bool = True


class MatchState(Seated):
    """A match in progress: the state machine of the module notes."""

    players: int

    def __init__(self, match: Match, rng: random.Random, dealer: int | None = None,
                 score: Sequence[int] | None = None, auto_deal: bool = True) -> None:
        self.match = match
        self.rules = match.rules
        self.players = n = match.players
        self._rng = rng
        self.auto_deal = auto_deal
        self.cuts: tuple[tuple[int, Card], ...] = ()
        if dealer is None:
            dealer, self.cuts = cut_for_deal(rng, n)
        elif isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise GameError(f"dealer seat {quoted(dealer)} is not at a {n}-player table")
        self.dealer = dealer
        sides = match.sides
        if score is None:
            score = (0,) * sides
        problem = score_problem(score, sides, self.rules.target)
        if problem is not None:
            raise GameError(f"score {quoted(score)}: {problem}")
        score = tuple(score)
        self._score = list(score)
        #: The score the match started from (its first deal's record says so, where not 0).
        self.start_score: tuple[int, ...] = score
        self._games_won = [0] * sides
        self.game = 1
        self.deal_number = 0
        self.deals: list[DealLog] = []
        #: The sides that won the match, once it is over.
        self.winners: tuple[int, ...] = ()
        #: Whether the last game won was a double game.
        self.double = False
        self.phase = SHUFFLE
        self._clear_deal()
        if auto_deal:
            self.deal_pack()

    def _clear_deal(self) -> None:
        n = self.players
        self.pack: tuple[Card, ...] = ()
        self.runs = 0
        self.turnups: tuple[Card, ...] = ()
        self._hands: list[list[Card]] = [[] for _ in range(n)]
        self.trump: int | None = None
        self._deal: Deal | None = None
        self._actions: list[tuple[int, int]] = []
        self._play: list[tuple[int, Card]] = []
        self._trick: list[Card] = []
        self._leader = (self.dealer + 1) % n
        self._completed: list[Trick] = []
        self._revokes: list[int] = []
        self._barred: set[int] = set()
        self._pegs: list[Peg] = []
        self._score_at_play: tuple[int, ...] | None = None

    # ---- reading ------------------------------------------------------------------------------

    @property
    def score(self) -> tuple[int, ...]:
        """The match score of the game in play (or, once over, as it ended), per side."""
        return tuple(self._score)

    @property
    def games_won(self) -> tuple[int, ...]:
        """Games won so far per side (a double game counts two)."""
        return tuple(self._games_won)

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Every seat's cards not yet played (all of them: not for a player's eyes)."""
        return tuple(tuple(sort_cards(h)) for h in self._hands)

    @property
    def deal(self) -> Deal | None:
        """The deal in play once trumps are fixed: the hands as dealt after the runs."""
        return self._deal

    @property
    def actions(self) -> tuple[tuple[int, int], ...]:
        """This deal's actions so far, (seat, action)."""
        return tuple(self._actions)

    @property
    def play(self) -> tuple[Card, ...]:
        """This deal's cards played so far, in order."""
        return tuple(c for _, c in self._play)

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """This deal's completed tricks."""
        return tuple(self._completed)

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards on the table in the trick under way."""
        return tuple(self._trick)

    @property
    def pegs(self) -> tuple[Peg, ...]:
        """The points pegged in this deal so far, in order: ``what`` is ``"take-one"``,
        ``"turn-up jack"``, ``"trick 3"``, ``"revoke"``, ``"high"``, ``"low"``, ``"jack"``,
        ``"game"`` or ``"five"``."""
        return tuple(self._pegs)

    def current_player(self) -> int:
        """The seat to act; ``CHANCE`` where a pack is to be dealt, ``TERMINAL`` once over."""
        if self.phase == PLAY:
            return (self._leader + len(self._trick)) % self.players
        return {SHUFFLE: CHANCE, ELDER: self.elder, DEALER: self.dealer, OVER: TERMINAL}[self.phase]

    def is_chance_node(self) -> bool:
        return self.phase == SHUFFLE

    def is_terminal(self) -> bool:
        """Whether the match is over."""
        return self.phase == OVER

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """The actions the seat to act may take (for another ``seat``: none)."""
        if seat is not None and (whole(seat) is None or seat >= self.players):
            # (a negative id, CHANCE or TERMINAL as current_player gives them, acts not)
            raise GameError(f"seat {quoted(seat)} is not at a {self.players}-player table")
        player = self.current_player()
        if player < 0 or (seat is not None and seat != player):
            return []
        if self.phase == ELDER:
            return [STAND, BEG]
        if self.phase == DEALER:
            return [TAKE_ONE] if self.rules.max_runs == 0 else [TAKE_ONE, RUN]
        assert self.trump is not None       # (the play: trumps are fixed)
        return sorted(legal_plays(self._hands[player], self._trick, self.trump,
                                  self.rules.strict_follow))

    def returns(self) -> list[int]:
        """Per seat: 0 until the match is over; then +1 for a seat whose side won it (alone or
        sharing), -1 for one whose side lost; in a match of one game a double game is +2 / -2."""
        if self.phase != OVER:
            return [0] * self.players
        value = 2 if self.double and self.match.best_of == 1 else 1
        return [value if side_of(s, self.players) in self.winners else -value
                for s in range(self.players)]

    def clone(self) -> MatchState:
        return copy.deepcopy(self)

    def score_before(self, number: int) -> tuple[int, ...]:
        """The match score deal ``number`` (from 1) of ``deals`` started from: 0 each in a new
        game, the starting score in the match's first."""
        log = self.deals[number - 1]
        if number == 1:
            return self.start_score
        before = self.deals[number - 2]
        return before.score if before.game == log.game else (0,) * self.sides

    def deal_again(self, number: int) -> tuple[MatchState, tuple[int, ...] | None]:
        """Deal ``number`` (from 1) of ``deals`` dealt again from its pack on a fresh state at
        the score it started from, before its first call: (the state, that score).  The score
        is None where no match may start from it (at or over the target: a revoke's penalty
        barred a side from winning; under hand-end too, though the deal's position kept it at
        the table), which the state is set to all the same, so that it plays
        the deal as the match did (a side over the target wins on its first peg)."""
        log = self.deals[number - 1]
        score: tuple[int, ...] | None = self.score_before(number)
        try:
            fresh = self.match.new_initial_state(dealer=log.dealer, score=score,
                                                 auto_deal=False)
        except GameError:
            fresh = self.match.new_initial_state(dealer=log.dealer, auto_deal=False)
            assert score is not None
            fresh._score = list(score)
            score = None
        fresh.deal_pack(log.pack)
        return fresh, score

    # ---- chance -------------------------------------------------------------------------------

    def deal_pack(self, pack: Iterable[Card | str] | None = None) -> None:
        """Deal a pack: the 52 cards in the order dealt (ints or text), or by default a pack
        shuffled by the state's RNG."""
        if self.phase != SHUFFLE:
            raise GameError(f"no pack is to be dealt now ({self._who_acts()})")
        if pack is None:
            pack = shuffle.shuffled_pack(self._rng)
        self.pack = _read_pack(pack)
        self.deal_number += 1
        hands, self.turnups = shuffle.deal_pack(self.pack, self.players, self.dealer, 0)
        self._hands = [list(h) for h in hands]
        self.phase = ELDER

    # ---- the players' actions -----------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        """Take a legal action for the seat to act (a revoke is ``apply_revoke``); any whole
        number type will do (numpy's, as ``np.random.choice`` of the legal actions gives)."""
        if isinstance(action, Integral) and not isinstance(action, bool):
            action = int(action)
        if (not isinstance(action, int) or isinstance(action, bool)
                or self.phase in (SHUFFLE, OVER) or action not in self.legal_actions()):
            raise GameError(self._why_not(action))
        seat = self.current_player()
        self._actions.append((seat, action))
        if self.phase == ELDER:
            if action == STAND:
                self._fix_trumps()
            else:
                self.phase = DEALER
        elif self.phase == DEALER:
            if action == TAKE_ONE:
                if not self._peg(side_of(self.elder, self.players), 1, "take-one"):
                    self._fix_trumps()
            else:
                self._run()
        else:
            self._play_card(seat, action, revoke=False)

    def apply_revoke(self, card: Card | str) -> None:
        """The seat to play plays ``card`` against the follow rule, and the revoke is called
        when the trick is turned (replay of recorded games only; see the module notes)."""
        if isinstance(card, str):
            card = parse_card(card)
        if self.phase != PLAY:
            raise GameError(f"a revoke is a card played ({self._who_acts()})")
        seat = self.current_player()
        name = self.seats[seat]
        if not is_card(card) or card not in self._hands[seat]:
            raise GameError(f"{quoted(card_str(card) if is_card(card) else card)} is not in "
                            f"{name}'s hand")
        if card in self.legal_actions():
            raise GameError(f"{card_str(card)} is no revoke: {name} may play it")
        self._actions.append((seat, REVOKE + card))
        self._play_card(seat, card, revoke=True)

    def _who_acts(self) -> str:
        name = self.seats[self.current_player()] if self.current_player() >= 0 else ""
        return {SHUFFLE: "a pack is to be dealt", OVER: "the match is over",
                ELDER: f"{name} is to stand or beg", DEALER: f"{name} is to take one or run",
                PLAY: f"{name} is to play a card"}[self.phase]

    def _why_not(self, action: object) -> str:
        try:
            if isinstance(action, bool) or not isinstance(action, int):
                raise GameError("an action is a whole number")
            text = action_name(action)  # type: ignore[arg-type]
        except GameError:
            return f"{quoted(action)} is not an action"
        if self.phase in (SHUFFLE, OVER):
            return f"{text!r} is not an action now: {self._who_acts()}"
        if self.phase == PLAY and is_card(action):
            seat = self.current_player()
            name = self.seats[seat]
            if action not in self._hands[seat]:
                return f"{text} is not in {name}'s hand"
            led = self._trick[0]
            assert self.trump is not None
            must = follow_rule(led, self.trump, self.rules.strict_follow)
            return f"{name} may not play {text} to {card_str(led)} led ({must})"
        if self.phase == DEALER and action == RUN:
            return "'run' is not an action: these rules allow no run (max_runs 0)"
        return f"{text!r} is not an action now: {self._who_acts()}"

    # ---- the deal ----------------------------------------------------------------------------

    def _fix_trumps(self) -> None:
        turnup = self.turnups[-1]
        self.trump = suit_of(turnup)
        self._deal = Deal(tuple(tuple(h) for h in self._hands), self.trump, self.dealer,
                          self.rules, turnup)
        if self.rules.turnup_jack and rank_of(turnup) == JACK:
            if self._peg(side_of(self.dealer, self.players), 1, "turn-up jack"):
                return
        self._score_at_play = tuple(self._score)
        self._leader = self.elder
        self.phase = PLAY

    def _run(self) -> None:
        proposed = suit_of(self.turnups[0])
        n = self.players
        while True:
            limit = self.rules.max_runs
            if ((limit is not None and self.runs >= limit)
                    or shuffle.cards_used(n, self.runs + 1) > len(self.pack)):
                self._end_deal(thrown_in=True)
                return
            self.runs += 1
            hands, self.turnups = shuffle.deal_pack(self.pack, n, self.dealer, self.runs)
            self._hands = [list(h) for h in hands]
            if suit_of(self.turnups[-1]) != proposed:
                self._fix_trumps()
                return

    def _play_card(self, seat: int, card: Card, revoke: bool) -> None:
        n = self.players
        self._hands[seat].remove(card)
        self._play.append((seat, card))
        self._trick.append(card)
        if revoke:
            self._revokes.append(len(self._play) - 1)
            self._barred.add(side_of(seat, n))
        if len(self._trick) < n:
            return
        cards = tuple(self._trick)
        assert self.trump is not None and self._deal is not None
        winner = (self._leader + trick_winner(cards, self.trump)) % n
        self._completed.append(Trick(self._leader, cards, winner))
        self._trick = []
        self._leader = winner
        number = len(self._completed)
        points = capture_points(cards, self._deal)
        if points and self._peg(side_of(winner, n), points, f"trick {number}"):
            return
        first = len(self._play) - n
        for index in self._revokes:
            if index >= first and self._penalty(self._play[index][0]):
                return
        if not any(self._hands):
            self._end_of_play()

    def _penalty(self, offender: int) -> bool:
        n = self.players
        side = side_of(offender, n)
        if self.rules.revoke_penalty == "offender":
            return self._peg(side, -REVOKE_POINTS, "revoke")
        others: list[int] = []
        for k in range(1, n):
            other = side_of((offender + k) % n, n)
            if other != side and other not in others:
                others.append(other)
        return any(self._peg(other, REVOKE_POINTS, "revoke") for other in others)

    def _end_of_play(self) -> None:
        assert self._deal is not None
        for point in end_points(_PlayedOut(self._deal, tuple(self._completed))):
            if point.side is not None and self._peg(point.side, point.points, point.name):
                return
        if self.rules.finish == "hand-end":
            reached = [s for s in range(self.sides)
                       if self._score[s] >= self.rules.target and s not in self._barred]
            if reached:
                top = max(self._score[s] for s in reached)
                self._win_game(tuple(s for s in reached if self._score[s] == top))
                return
        self._end_deal()

    def _peg(self, side: int, points: int, what: str) -> bool:
        """Peg points onto the match score; True when that wins the game (peg-out)."""
        self._score[side] += points
        self._pegs.append(Peg(side, points, what))
        if (self.rules.finish == "peg-out" and points > 0 and side not in self._barred
                and self._score[side] >= self.rules.target):
            self._win_game((side,))
            return True
        return False

    def _win_game(self, winners: tuple[int, ...]) -> None:
        self.double = is_double(self.rules.skunk, winners, self._score)
        for side in winners:
            self._games_won[side] += 2 if self.double else 1
        need = self.match.best_of // 2 + 1
        if max(self._games_won) >= need or self.game == self.match.best_of:
            self._log(winners, self.double, False)
            most = max(self._games_won)
            self.winners = tuple(s for s, g in enumerate(self._games_won) if g == most)
            self.phase = OVER       # the last deal stays as it ended, for a look at it
            return
        self._end_deal(winners=winners)

    def _end_deal(self, thrown_in: bool = False, winners: tuple[int, ...] = ()) -> None:
        """Log the deal and go to the next: the same dealer after a throw-in, else the next
        seat; a new game after a game won."""
        self._log(winners, self.double if winners else False, thrown_in)
        if not thrown_in:
            self.dealer = (self.dealer + 1) % self.players
        if winners:
            self.game += 1
            self._score = [0] * self.sides
        self.phase = SHUFFLE
        self._clear_deal()
        if self.auto_deal:
            self.deal_pack()

    def _log(self, winners: tuple[int, ...], double: bool, thrown_in: bool) -> None:
        self.deals.append(DealLog(self.deal_number, self.game, self.dealer, self.pack,
                                  tuple(self._actions), tuple(self._score), winners, double,
                                  thrown_in, tuple(self._pegs), tuple(self.turnups)))

    # ---- views ---------------------------------------------------------------------------------

    def observation(self, seat: int) -> Observation:
        """What ``seat`` knows now (the module notes, "Observation")."""
        seat = _seat_at(seat, self.players)
        return Observation(
            seat=seat, players=self.players, rules=self.rules, best_of=self.match.best_of,
            phase=self.phase, current_player=self.current_player(), game=self.game,
            deal=self.deal_number, dealer=self.dealer, score=self.score,
            games_won=self.games_won, hand=tuple(sort_cards(self._hands[seat])),
            turnups=self.turnups, trump=self.trump,
            calls=tuple((s, a) for s, a in self._actions if a in CALLS),
            play=tuple(self._play), revokes=tuple(self._revokes), pegs=tuple(self._pegs),
            legal_actions=tuple(self.legal_actions(seat)))

    def position(self) -> Position:
        """The deal in play as a ``solver.deal.Position`` (see the module notes)."""
        if self.phase != PLAY:
            raise GameError(f"no card play is under way: {self._who_acts()}")
        if self._revokes:
            raise GameError("the deal in play holds a revoke, which a Position cannot replay")
        score = self._score_at_play
        if score is not None and any(has_won(self.rules, s) for s in score):
            score = None
        assert self._deal is not None
        deal = replace(self._deal, score=score)
        return Position(deal, self.play)

    def __repr__(self) -> str:
        return (f"<MatchState {self.players} players, game {self.game}, deal {self.deal_number}, "
                f"{self.phase}, score {self.score}>")


def _read_pack(pack: Iterable[Card | str]) -> tuple[Card, ...]:
    try:
        cards = [parse_card(c) if isinstance(c, str) else c for c in pack]
    except CardError as error:
        raise GameError(f"pack: {error}") from None
    except TypeError:
        raise GameError(f"pack {quoted(pack)} is not a list of cards") from None
    for i, c in enumerate(cards):
        if not is_card(c):
            raise GameError(f"pack: {quoted(c)} is not a card")
        if c in cards[:i]:
            raise GameError(f"pack: {card_str(c)} is in it twice")
    if len(cards) != len(ALL_CARDS):
        raise GameError(f"pack: {len(cards)} cards, not 52")
    return tuple(cards)
