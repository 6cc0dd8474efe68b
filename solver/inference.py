"""What the cards the opponents played say about their hands: worlds weighted by the play.

A world (``solver.sampling``) that agrees with every hard fact may still be unlikely: the
opponents chose their cards from the hands it gives them.  Each opponent's card is scored under
a model of how it plays, the heuristic player (``solver.players.HeuristicPlayer``): in the world,
the opponent's observation when it played (its hand then, the play before) is rebuilt and the
heuristic asked; a card the heuristic would play there has likelihood ``1 - SLIP``, any other
``SLIP`` shared among the other legal cards.  A world's play weight is the product over the
opponents' cards of this deal, tempered like the sampler's bidding weights so that no world
weighs more than ``TEMPER`` times another: ``1/TEMPER + (1 - 1/TEMPER) * product``.  A player
that trusts the model fully (``FULL``) takes the heuristic at its word: a slip of
``FULL_SLIP`` and worlds up to ``FULL_TEMPER`` times as likely as others, so that a world where an
opponent would have played another card is all but ruled out.

``resample`` turns many uniformly drawn worlds into fewer weighted ones: it draws ``count``
times with replacement in proportion to (bidding weight x play weight) and gives each world
drawn its number of draws as its weight (importance resampling), so that the engine solves
only the worlds the play makes likely.  The partner's cards (four players) are not scored by
default: the partner plays like this seat, not like the heuristic; a ``Trust`` with a
``partner_slip`` scores them too, with a slip of their own (``PARTNER_SLIP``: the Monte Carlo
player plays the heuristic's card in some 70% of its choices), relative to the model's card: a
partner's card that is the heuristic's leaves the weight as it is, another multiplies it by
``partner_slip / ((legal - 1) * (1 - partner_slip))``, so that the partner's cards sharpen the
weights and never flatten the opponents' (an absolute likelihood, lowered in every world
alike, would bring every world nearer the temper's floor).

``PlayWeigher`` weighs the many worlds of one decision: what they share (each opponent's past
play with a choice, the trick on the table then, the cards' values, the prize trumps, the trick's
winner after each card) is worked out once, and each world's replay asks the heuristic's
card-play rules (``heuristic.lead_by_rules``, ``heuristic.follow_by_rules``) on a table view made
for that world without rebuilding an observation: the same weights as asking
``HeuristicPlayer.act`` through ``game.turn_view``, about 2.3 times faster with two players and
2.5 with four.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import ALL_CARDS, suit_of
from .game import Observation, turn_view
from .heuristic import TrickView, card_values, follow_by_rules, lead_by_rules, prize_trumps
from .sampling import TEMPER     # (no world weighs more than this many times another)
from .tricks import legal_plays

__all__ = ["play_weight", "PlayWeigher", "resample", "Trust", "TEMPERED", "FULL", "SLIP",
           "TEMPER", "PARTNER_SLIP"]

#: The chance the model gives to the opponent playing another card than the heuristic's.
SLIP = 0.1

#: The chance given to the partner playing another card than the heuristic's, where its cards
#: are scored (the Monte Carlo player, which the partner is, plays the heuristic's card in about
#: 70% of its choices of card with four players: README, "The Monte Carlo player").
PARTNER_SLIP = 0.3

#: The same, for a player that trusts the model fully.
FULL_SLIP = 1e-3
FULL_TEMPER = 1e5


@dataclass(frozen=True)
class Trust:
    """How far the model of the opponents is trusted: the chance of a card other than the
    heuristic's, and how many times another world may weigh at most; with ``partner_slip``
    the partner's cards (four players) are scored too, with that chance of another card."""

    slip: float
    temper: float
    partner_slip: float | None = None

    @property
    def negligible(self) -> float:
        """A likelihood below this leaves the tempered weight at the floor, to a thousandth."""
        return 1e-3 / self.temper


TEMPERED = Trust(SLIP, TEMPER)
FULL = Trust(FULL_SLIP, FULL_TEMPER)


class _Turn:
    """One opponent's past play with a choice as every world shares it: the seat, the trick on
    the table, the cards that seat had seen then other than its hand, and the heuristic's view
    of the table but for the hand (``heuristic.TrickView``), worked out once per observation."""

    __slots__ = ("index", "seat", "trick", "others", "trumps", "view", "seats_after",
                 "partner", "unseen", "higher", "winners")

    def __init__(self, observation: Observation, index: int, played: list[tuple[int, int]]
                 ) -> None:
        n = observation.players
        self.index = index
        self.seat = seat = played[index][0]
        k = index % n
        self.trick = list(played[index - k:index])          # (seat, card), lead first
        seen = set(observation.turnups) | {c for _, c in played[:index]}
        self.unseen = unseen = [c for c in ALL_CARDS if c not in seen]   # less what it saw
        trump = observation.trump
        self.others = [c for c in unseen if suit_of(c) != trump]
        self.trumps = [c for c in unseen if suit_of(c) == trump]
        self.view = turn_view(observation, seat, (), played[:index], ())
        self.seats_after = n - k - 1
        self.partner = (seat + 2) % 4 if n == 4 else None
        #: Per card: the unseen cards of its suit above it; the seat and card winning the
        #: trick once it is played (the same in every world).
        self.higher: dict[int, list[int]] = {}
        self.winners: dict[int, tuple[int, int]] = {}

    def above(self, card: int) -> list[int]:
        found = self.higher.get(card)
        if found is None:
            suit, rank = card >> 4, card & 15
            found = self.higher[card] = [c for c in self.unseen
                                         if c >> 4 == suit and c & 15 > rank]
        return found


class _Sight(TrickView):
    """``heuristic.TrickView`` for one world at one ``_Turn``: made without rebuilding what every
    world shares; a card's value looked up rather than counted, the trick's winner after a card
    and the cards above it taken from the turn."""

    def __init__(self, turn: _Turn, hand: Sequence[int], values: Sequence[float],
                 prize: list[int]) -> None:
        self._turn = turn
        self._held = held = set(hand)
        self.obs = turn.view
        assert turn.view.trump is not None
        self.trump = turn.view.trump
        self._trumps = [c for c in turn.trumps if c not in held]
        self.trick = turn.trick
        self.seats_after = turn.seats_after
        self.partner = turn.partner
        self.prize = prize
        self._values = values

    @property
    def out(self) -> list[int]:  # type: ignore[override]  # (made only when asked: the rules here do not read it)
        held = self._held
        return [c for c in self._turn.others if c not in held] + self._trumps

    def value(self, card: int) -> float:
        return self._values[card]

    def out_trumps(self) -> list[int]:
        return self._trumps

    def holds(self, card: int) -> bool:
        """``TrickView.holds``: no seat plays after, or no card out takes ``card`` over (a higher
        card of its suit, or any trump when it is not one)."""
        if self.seats_after == 0:
            return True
        if card >> 4 != self.trump and self._trumps:
            return False
        held = self._held
        return all(c in held for c in self._turn.above(card))

    def winner_after(self, card: int) -> tuple[int, int]:
        winners = self._turn.winners
        found = winners.get(card)
        if found is None:
            found = winners[card] = TrickView.winner_after(self, card)
        return found


class PlayWeigher:
    """``play_weight`` for many worlds of one observation: what the worlds share (each
    opponent's play with a choice, the cards' values, the prize trumps) is worked out once,
    and each world's replay asks the heuristic's card-play rules (``heuristic.lead_by_rules``,
    ``heuristic.follow_by_rules``) without rebuilding an observation.  The weights are exactly
    ``play_weight``'s."""

    def __init__(self, observation: Observation, trust: Trust = TEMPERED) -> None:
        self.observation = obs = observation
        self.trust = trust
        n = obs.players
        me = obs.seat
        self.play = list(obs.play)
        #: Per play: whether the partner's (four players), and the chance of a card other than
        #: the heuristic's, or None where the play is not scored (this seat's own).
        self.partner = [n == 4 and seat != me and seat % 2 == me % 2 for seat, _ in self.play]
        self.slips = [None if seat == me else trust.partner_slip if partner else trust.slip
                      for (seat, _), partner in zip(self.play, self.partner)]
        self.turns: dict[int, _Turn] = {}
        self.decided: dict[tuple, tuple[int, int | None]] = {}
        trump = obs.trump
        if self.play:
            self.values = card_values(trump, obs.rules)
            self.prize = list(prize_trumps(trump, obs.rules))
            #: Per card, its place in the order of the heuristic's cheapest lead among cards
            #: that are not trumps (value, rank, number: ``heuristic._cheap_key``'s).
            cheap = sorted(ALL_CARDS, key=lambda c: (self.values[c], c & 15, c))
            self._cheap = dict(zip(cheap, range(len(cheap))))

    def _turn(self, index: int) -> _Turn:
        turn = self.turns.get(index)
        if turn is None:
            turn = self.turns[index] = _Turn(self.observation, index, self.play)
        return turn

    def choice(self, index: int, hand: Sequence[int], legal: Sequence[int]) -> int:
        """The heuristic's card at play ``index`` from ``hand`` (its cards then), ``legal``
        its legal cards (more than one)."""
        turn = self._turn(index)
        sight = _Sight(turn, hand, self.values, self.prize)
        legal = sorted(legal)
        card, _ = lead_by_rules(sight, legal) if not turn.trick else follow_by_rules(sight, legal)
        return card

    def _decision(self, index: int, hand: list[int], lead: list[int]) -> tuple[int, int | None]:
        """How many legal cards the seat at play ``index`` had from ``hand``, and the
        heuristic's card where more than one.  It depends on nothing else, so it is
        remembered: many worlds, and a chain's steps, give a seat the same hand."""
        trump = self.observation.trump
        key: tuple
        if lead:
            # following suit, the heuristic reads nothing of the hand beyond the suit led and
            # trumps (its legal cards, the trumps still out, whether a card can be taken over
            # in those suits): worlds that differ only in the other suits share the answer
            led = lead[0] >> 4
            for c in hand:
                if c >> 4 == led:
                    key = (index, frozenset([c for c in hand
                                             if c >> 4 == led or c >> 4 == trump]))
                    break
            else:
                key = (index, frozenset(hand))
        else:
            # leading, it reads the trumps held and, of the other cards, only the cheapest
            # (``heuristic.lead_by_rules``: a master trump, else the cheapest card kept)
            plain = [c for c in hand if c >> 4 != trump]
            if plain:
                key = (index, frozenset([c for c in hand if c >> 4 == trump]),
                       min(plain, key=self._cheap.__getitem__), len(hand))
            else:
                key = (index, frozenset(hand))
        found = self.decided.get(key)
        if found is None:
            obs = self.observation
            assert obs.trump is not None    # (the play: trumps are fixed)
            legal = legal_plays(hand, lead, obs.trump, obs.rules.strict_follow)
            card = self.choice(index, hand, legal) if len(legal) > 1 else None
            found = self.decided[key] = (len(legal), card)
        return found

    def weight(self, hands: Sequence[Sequence[int]]) -> float:
        """The play weight of the world ``hands`` (each seat's cards still held)."""
        obs = self.observation
        trust = self.trust
        if not self.play:
            return 1.0
        n = obs.players
        held = [list(h) for h in hands]
        for seat, card in self.play:
            held[seat].append(card)
        negligible = trust.negligible
        likelihood = 1.0
        lead: list[int] = []
        for index, (seat, card) in enumerate(self.play):
            if index % n == 0:
                lead = []
            slip = self.slips[index]
            if slip is not None:
                count, choice = self._decision(index, held[seat], lead)
                if count > 1:
                    if choice == card:
                        # a partner's card is scored relative to the model's: one that is the
                        # heuristic's leaves the weight as it was, rather than lower every world
                        if not self.partner[index]:
                            likelihood *= 1.0 - slip
                    else:
                        likelihood *= slip / (count - 1)
                        if self.partner[index]:
                            likelihood /= 1.0 - slip
                        if likelihood < negligible:
                            break   # the tempered weight is the floor already, or as good
            held[seat].remove(card)
            lead.append(card)
        floor = 1.0 / trust.temper
        return floor + (1.0 - floor) * likelihood


def play_weight(observation: Observation, hands: Sequence[Sequence[int]],
                trust: Trust = TEMPERED) -> float:
    """The tempered likelihood of the opponents' cards of this deal in the world ``hands``
    (each seat's cards still held), the model trusted as far as ``trust`` says (for many
    worlds of one observation, ``PlayWeigher`` works out what they share once)."""
    return PlayWeigher(observation, trust).weight(hands)


def resample(weights: Sequence[float], count: int, rng) -> list[tuple[int, int]]:
    """(index, times drawn) for ``count`` draws with replacement in proportion to ``weights``,
    by index."""
    cumulative = list(itertools.accumulate(weights))
    total = cumulative[-1]
    drawn: dict[int, int] = {}
    for _ in range(count):
        i = bisect.bisect_right(cumulative, rng.random() * total)
        i = min(i, len(weights) - 1)
        drawn[i] = drawn.get(i, 0) + 1
    return sorted(drawn.items())
