"""The heuristic's rules (``solver.players.HeuristicPlayer`` numbers and words them): what a card
is worth, what one observation tells about the trick on the table and the cards still out
(``TrickView``), the calls of rules 1 and 2 and the cards of rules 3 to 10.  ``heuristic_action``
is the action they choose for a seat, with the number of the rule; the Monte Carlo player's
models of the other seats (``solver.inference``, ``solver.calling``'s play-outs) play by them.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from .cards import ACE, ALL_CARDS, FIVE, JACK, KING, TEN, Card, make_card, pip_value, rank_of, \
    suit_of
from .game import BEG, DEALER, ELDER, RUN, STAND, TAKE_ONE, Observation
from .rules import Rules
from .tricks import side_of, trick_winner

__all__ = ["heuristic_action", "card_value", "card_values", "prize_trumps", "TrickView",
           "stand_or_beg", "rules_call", "take_one_or_run", "lead_by_rules", "follow_by_rules",
           "SCORING_TRUMPS", "STAND_TRUMPS", "GAME_PIP_WEIGHT"]

#: The trumps whose holder stands (as elder hand) or keeps trumps (as dealer) on them alone.
SCORING_TRUMPS = (ACE, KING, TEN, FIVE)
#: How many trumps of the proposed suit the elder hand stands on without a scoring trump.
STAND_TRUMPS = 2
#: What one pip toward Game is worth in the heuristic's count, against 1 for a point pegged:
#: Game is one point for the most pips of about 100, so a pip moves it a little.
GAME_PIP_WEIGHT = 0.1


def card_value(card: Card, trump: int, rules: Rules) -> float:
    """What ``card`` is worth to the side that wins the trick it falls in, by ``rules``: its
    capture pips if a trump (A 4, K 3, Q 2, J 1, T 10, 5 5), 1 more for the trump Jack (Jack), 5
    more for the trump Five (five-for-five), and ``GAME_PIP_WEIGHT`` a pip toward Game."""
    value = 0.0
    rank = rank_of(card)
    if suit_of(card) == trump:
        if rules.capture:
            value += pip_value(card)
        if rules.jack and rank == JACK:
            value += 1
        if rules.five_for_five and rank == FIVE:
            value += 5
    if rules.game and not (rank == FIVE and not rules.game_counts_fives):
        value += GAME_PIP_WEIGHT * pip_value(card)
    return value


@lru_cache(maxsize=256)
def card_values(trump: int, rules: Rules) -> tuple[float, ...]:
    """``card_value`` of every card number (0 to 63) under ``trump`` (-1: none) and ``rules``,
    kept per trumps and rules: the heuristic asks for the same values at every turn."""
    return tuple(card_value(c, trump, rules) if c & 15 < 13 else 0.0 for c in range(64))


@lru_cache(maxsize=256)
def prize_trumps(trump: int, rules: Rules) -> tuple[Card, ...]:
    """The prize trumps, most valuable first (T, 5, J with the all-fives count)."""
    values = card_values(trump, rules)
    return tuple(sorted((make_card(trump, r) for r in (TEN, FIVE, JACK)
                         if values[make_card(trump, r)] >= 1), key=lambda c: -values[c]))


@dataclass
class TrickView:
    """What one observation tells about the trick and the cards still out, worked out once."""

    obs: Observation
    trump: int
    #: Cards in no hand seen and not played: in another hand or in the pack not dealt.
    out: list[Card]
    #: The trick on the table: (seat, card), lead first.
    trick: list[tuple[int, Card]]
    seats_after: int
    partner: int | None
    prize: list[Card] = field(default_factory=list)

    @classmethod
    def of(cls, obs: Observation) -> TrickView:
        n = obs.players
        trump = obs.trump
        assert trump is not None    # (the play: trumps are fixed)
        seen = set(obs.hand) | set(obs.turnups) | {c for _, c in obs.play}
        out = [c for c in ALL_CARDS if c not in seen]
        k = len(obs.play) % n
        trick = list(obs.play[len(obs.play) - k:]) if k else []
        partner = (obs.seat + 2) % 4 if n == 4 else None
        table = cls(obs, trump, out, trick, n - len(trick) - 1, partner)
        # the prize trumps, most valuable first (T, 5, J with the all-fives count)
        table.prize = list(prize_trumps(trump, obs.rules))
        return table

    def value(self, card: Card) -> float:
        values = self.__dict__.get("_values")
        if values is None:
            values = self.__dict__["_values"] = card_values(self.trump, self.obs.rules)
        return values[card]

    def out_trumps(self) -> list[Card]:
        return [c for c in self.out if suit_of(c) == self.trump]

    def is_master(self, card: Card) -> bool:
        """A trump higher than every trump still out."""
        return suit_of(card) == self.trump and all(rank_of(c) < rank_of(card)
                                                   for c in self.out_trumps())

    def winner_after(self, card: Card) -> tuple[int, Card]:
        """The seat and card winning the trick once ``card`` is played to it."""
        cards = [c for _, c in self.trick] + [card]
        i = trick_winner(cards, self.trump)
        seat = self.trick[i][0] if i < len(self.trick) else self.obs.seat
        return seat, cards[i]

    def ours(self, seat: int) -> bool:
        n = self.obs.players
        return side_of(seat, n) == side_of(self.obs.seat, n)

    def holds(self, card: Card) -> bool:
        """Whether a winning ``card`` keeps the trick: no seat plays after, or no card still out
        could take it over (whoever holds it, if anyone)."""
        if self.seats_after == 0:
            return True
        # (a card still out takes it over: a higher card of its suit, or any trump when it is
        # not one)
        suit, rank, trump = card >> 4, card & 15, self.trump
        if suit == trump:
            return not any(c >> 4 == suit and c & 15 > rank for c in self.out)
        return not any(c >> 4 == trump or (c >> 4 == suit and c & 15 > rank) for c in self.out)

    def safe(self, card: Card) -> bool:
        """Whether the trick is surely my side's once ``card`` is played to it."""
        seat, best = self.winner_after(card)
        return self.ours(seat) and self.holds(best)

    def points(self) -> float:
        """What the cards on the table are worth (``card_value``)."""
        return sum(self.value(c) for _, c in self.trick)

    def trump_points(self) -> float:
        """What the trumps on the table are worth, Game pips left out."""
        plain = card_values(-1, self.obs.rules)
        return sum(self.value(c) - plain[c] for _, c in self.trick if suit_of(c) == self.trump)


def heuristic_action(observation: Observation) -> tuple[int, int]:
    """The action of rules 1 to 10 for the observation's seat, which is to act, and the number
    of the rule that chose it (the calls by rules 1 and 2)."""
    if observation.phase in (ELDER, DEALER):
        return rules_call(observation), (1 if observation.phase == ELDER else 2)
    legal = list(observation.legal_actions)
    table = TrickView.of(observation)
    if len(legal) == 1:
        return legal[0], (4 if not table.trick else 10)
    if not table.trick:
        return lead_by_rules(table, legal)
    return follow_by_rules(table, legal)


def _proposed_trumps(obs: Observation) -> list[Card]:
    suit = suit_of(obs.turnups[-1])
    return [c for c in obs.hand if suit_of(c) == suit]


def _strong(trumps: Sequence[Card], count: int) -> bool:
    return len(trumps) >= count or any(rank_of(c) in SCORING_TRUMPS for c in trumps)


def stand_or_beg(obs: Observation) -> int:
    """Rule 1: stand with two or more trumps of the proposed suit, or with a scoring trump."""
    return STAND if _strong(_proposed_trumps(obs), STAND_TRUMPS) else BEG


def rules_call(obs: Observation) -> int:
    """The call of rule 1 (the elder hand) or rule 2 (the dealer) for the seat to call."""
    return stand_or_beg(obs) if obs.phase == "elder" else take_one_or_run(obs)


def take_one_or_run(obs: Observation) -> int:
    """Rule 2: run when the take-one point would bring the elder's side to the target, or when
    the dealer holds fewer than two trumps of the proposed suit and no scoring trump."""
    if RUN not in obs.legal_actions:
        return TAKE_ONE
    elder_side = side_of((obs.dealer + 1) % obs.players, obs.players)
    if obs.score[elder_side] + 1 >= obs.rules.target:
        return RUN
    return TAKE_ONE if _strong(_proposed_trumps(obs), 2) else RUN


def _cheap_key(table: TrickView) -> Callable[[Card], tuple]:
    return lambda c: (table.value(c), suit_of(c) == table.trump, rank_of(c), c)


def lead_by_rules(table: TrickView, legal: list[Card]) -> tuple[Card, int]:
    """The heuristic's lead from ``legal`` and the number of the rule that chose it."""
    trump = table.trump
    mine = [c for c in legal if suit_of(c) == trump]
    if mine and table.out_trumps():
        top = max(mine, key=rank_of)
        if table.is_master(top):
            return top, 3
    keep = [c for c in legal if not (c in table.prize and not table.is_master(c))]
    return min(keep or legal, key=_cheap_key(table)), 4


def follow_by_rules(table: TrickView, legal: list[Card]) -> tuple[Card, int]:
    """The heuristic's card to a trick led, from ``legal``, and the number of its rule."""
    cheap = _cheap_key(table)
    for card in table.prize:
        if card in legal and table.safe(card):
            return card, 5
    winner_seat, winner = _current_winner(table)
    if table.partner is not None and winner_seat == table.partner and table.holds(winner):
        throw = [c for c in legal if table.safe(c) and not table.is_master(c) and table.value(c)]
        if throw:
            return max(throw, key=lambda c: (table.value(c), -rank_of(c), -c)), 6
    safe = [c for c in legal if table.safe(c)]
    lowest = lambda c: (suit_of(c) == table.trump, rank_of(c), c)  # noqa: E731
    if table.trump_points() >= 1 and safe:
        return min(safe, key=lowest), 7
    if table.trump_points() >= 2 and not safe:
        fight = [c for c in legal if suit_of(c) == table.trump and c not in table.prize
                 and table.ours(table.winner_after(c)[0])]
        if fight:
            return max(fight, key=rank_of), 8
    if table.points() > 0 and not table.ours(winner_seat):
        cheap_win = [c for c in safe if suit_of(c) != table.trump]
        if cheap_win:
            return min(cheap_win, key=lowest), 9
    keep = [c for c in legal if c not in table.prize]
    return min(keep or legal, key=cheap), 10


def _current_winner(table: TrickView) -> tuple[int, Card]:
    cards = [c for _, c in table.trick]
    i = trick_winner(cards, table.trump)
    return table.trick[i][0], cards[i]
