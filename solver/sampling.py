"""Worlds: the deals of the unseen cards that agree with what one seat has seen.

A seat's ``Observation`` (``solver.game``) shows its own hand, every turn-up, the calls and every
card played by whom.  A *world* is one way the other cards can lie: each seat's cards still in
hand, the observer's own included.  ``sample_worlds`` draws worlds for the Monte Carlo player,
``world_position`` turns one into the ``Position`` the solver searches::

    >>> import random
    >>> from solver.game import Match
    >>> state = Match(players=4).new_initial_state(seed=3)
    >>> worlds = sample_worlds(state.observation(0), 8, random.Random(1))
    >>> len(worlds), all(len(w.hands) == 4 for w in worlds)
    (8, True)

*What a world must agree with* (``constraints``), exactly: the observer's hand; the cards played,
each by its seat, and the turn-ups, set-aside ones included (all are in no hand); the number of
cards each seat still holds; and the voids the follow rule reveals (``solver.tricks.legal_plays``).
Under ``strict`` a card off the suit led shows a void in that suit.  Under ``trump-anytime`` a
seat that cannot follow may play anything, so to a non-trump lead a card of a third suit shows a
void in the suit led only (not in trumps), a trump shows nothing, and to a trump lead a non-trump
shows no trumps.  A revoke (``Observation.revokes``) shows no void, but it shows the opposite: the
card broke the follow rule, so its seat then held a card of the suit it should have played (the
suit led; trumps to a trump lead); unless that seat has played such a card since, it holds one
still.  The unseen cards a world does not put in a hand are the pack not dealt.

*The distribution.*  Without ``bidding`` every world that agrees with the observation is equally
likely: exactly the chance of each given a uniformly shuffled pack, since every consistent world
is dealt by the same number of packs.  The sampler is constructive and exactly uniform: the seats
with a void (or a revoke to honour) are *constrained*; how many cards of each suit each of them
holds is drawn in proportion to the number of worlds with those counts (counted suit by suit, the
suits the same seats may hold together), the cards within each suit at random, and the cards left
over are dealt at random among the other seats and the pack, which no constraint touches.
``count_worlds`` gives the number of consistent worlds.

*Exact or sampled.*  When no more worlds agree than asked for (and at most ``exact_limit``) every
one is returned, each once (``Worlds.exact``).  Otherwise ``count`` distinct worlds are drawn
uniformly without replacement; only when more than half of more than ``exact_limit`` worlds are
asked for may a world come twice.

*Other hands shown* (``shown``): where the seat also knows other hands (a partner's shown in a
deal file), those are as given in every world, and the same rules deal only the hidden ones.

*Bidding* (``bidding=True``): the elder hand's stand or beg and the dealer's take-one or run say
something about their hands.  Each world is weighted by how likely the calls other seats made are
under the heuristic player's rules (``solver.heuristic.stand_or_beg``, ``take_one_or_run``): a call
agrees with the rule when the hand it was made on is strong (two cards of the suit proposed, or a
scoring one: A K T 5) for a stand or a take-one, weak for a beg or a run.  The hand a call was made
on is the first six cards dealt; after a run a world knows only the seat's whole deal (played
and held), of which any six are equally likely to have been the first, so the chance that the
call agrees is counted over those six-card subsets (a hypergeometric count).  A dealer's call
says nothing where no run was allowed, or where the take-one point would bring the elder's side
to the target (under either finish: the rules then run whatever the dealer holds, so a take-one
there is no rule's, and a run no sign of the hand).  The weight is tempered so that no world
weighs more than ``TEMPER`` (8) times another: ``1/8 + 7/8 * P(the calls | world)``, or
``temper`` times when given (``1/temper + (1 - 1/temper) * P``: a player that trusts the rules
fully passes 100,000, so that a world whose calls break the rules all but drops out).  Worlds
are still drawn uniformly; the weight is for averaging over them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from math import comb, factorial
from typing import overload

from .cards import ALL_CARDS, FIVE, Card, card_str, rank_of, sort_cards, suit_of
from .clock import now
from .deal import Deal, Position, has_won
from .errors import AllFivesError, quoted, whole
from .game import BEG, RUN, STAND, TAKE_ONE, Observation
from .tricks import seat_names, shows_void, side_of

__all__ = ["World", "Worlds", "Clock", "Constraints", "Sampler", "SamplingError", "constraints",
           "count_worlds", "sample_worlds", "all_worlds", "world_position", "world_positions",
           "bidding_weight", "call_weigher", "calls_weigh", "TEMPER"]

#: No world weighs more than this many times another under ``bidding``.
TEMPER = 8.0

#: The trumps the heuristic stands or keeps trumps on alone (``heuristic.SCORING_TRUMPS``).
_SCORING_RANKS = frozenset((12, 11, 8, FIVE))   # A K T 5
_FIRST_DEAL = 6
#: The points pegged in a deal before its play starts (``MatchState.pegs``).
_BEFORE_PLAY = frozenset(("take-one", "turn-up jack"))


class SamplingError(AllFivesError):
    """An observation no deal of the unseen cards agrees with, or a world that is not one."""


def _sort_key(card: Card) -> int:
    return (card >> 4) * 16 + 15 - (card & 15)    # suits S H D C, high rank first


def _sorted(cards) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=_sort_key))


@dataclass(frozen=True)
class World:
    """Every seat's cards still in hand (the observer's own included), each sorted."""

    hands: tuple[tuple[Card, ...], ...]
    #: Relative weight from the bidding evidence; 1.0 without it.
    weight: float = 1.0


@dataclass(frozen=True)
class Worlds(Sequence[World]):
    """Worlds drawn for one observation; a sequence of ``World``."""

    worlds: tuple[World, ...]
    #: True when these are all the consistent worlds, each once.
    exact: bool
    #: The number of consistent worlds.
    total: int | None

    def __len__(self) -> int:
        return len(self.worlds)

    @overload
    def __getitem__(self, index: int) -> World: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[World, ...]: ...

    def __getitem__(self, index: int | slice) -> World | tuple[World, ...]:
        return self.worlds[index]

    def __iter__(self) -> Iterator[World]:
        return iter(self.worlds)

    @property
    def weights(self) -> tuple[float, ...]:
        """Each world's weight, in order."""
        return tuple(w.weight for w in self.worlds)


@dataclass(frozen=True)
class Constraints:
    """What every world of an observation must agree with."""

    #: The observer's seat and its hand.
    seat: int
    hand: tuple[Card, ...]
    #: The cards the observer has not seen: in another seat's hand or in the pack not dealt.
    unseen: tuple[Card, ...]
    #: How many cards each seat must still hold (the observer's own included).
    sizes: tuple[int, ...]
    #: Per seat, the suits it cannot hold (none for the observer).
    voids: tuple[frozenset[int], ...]
    #: Per seat, the suits it must hold one card of at least (a revoke not yet made good).
    holds: tuple[frozenset[int], ...]

    @property
    def players(self) -> int:
        return len(self.sizes)

    @property
    def undealt(self) -> int:
        """How many unseen cards are in no hand (the pack not dealt)."""
        return len(self.unseen) - sum(s for seat, s in enumerate(self.sizes) if seat != self.seat)

    def agrees(self, hands: Sequence[Sequence[Card]]) -> bool:
        """Whether one world's hands meet every constraint (the sampler's own predicate)."""
        if len(hands) != self.players or sorted(hands[self.seat]) != sorted(self.hand):
            return False
        unseen = set(self.unseen)
        seen: set[Card] = set()
        for seat, hand in enumerate(hands):
            if len(hand) != self.sizes[seat]:
                return False
            suits = {suit_of(c) for c in hand}
            if suits & self.voids[seat] or not self.holds[seat] <= suits:
                return False
            if seat != self.seat:
                if not set(hand) <= unseen or seen & set(hand):
                    return False
                seen |= set(hand)
        return True


def _tricks(observation: Observation) -> Iterator[list[tuple[int, int, Card]]]:
    """The play as tricks of (index into play, seat, card)."""
    n = observation.players
    play = observation.play
    for start in range(0, len(play), n):
        yield [(i, *play[i]) for i in range(start, min(start + n, len(play)))]


def constraints(observation: Observation) -> Constraints:
    """The hard constraints of an observation (see the module notes)."""
    obs = observation
    n = obs.players
    seat_names(n)
    played_by = [0] * n
    for seat, _ in obs.play:
        played_by[seat] += 1
    first = len(obs.hand) + played_by[obs.seat]
    sizes = tuple(first - played_by[s] for s in range(n))
    if any(s < 0 for s in sizes):
        raise SamplingError("a seat has played more cards than the observer's hand held")
    seen = set(obs.hand) | set(obs.turnups) | {c for _, c in obs.play}
    if len(seen) != len(obs.hand) + len(obs.turnups) + len(obs.play):
        raise SamplingError("a card is both in the hand, turned up or played")
    unseen = tuple(c for c in ALL_CARDS if c not in seen)
    if sum(sizes) - sizes[obs.seat] > len(unseen):
        raise SamplingError(f"the other seats hold {sum(sizes) - sizes[obs.seat]} cards but "
                            f"only {len(unseen)} are unseen")
    voids: list[set[int]] = [set() for _ in range(n)]
    owed: list[tuple[int, int, int]] = []   # (seat, suit, index of the revoke)
    revokes = set(obs.revokes)
    trump = obs.trump
    strict = obs.rules.strict_follow
    if obs.play and trump is None:
        raise SamplingError("cards are played but no trump suit is fixed")
    for trick in _tricks(obs):
        assert trump is not None
        lead = trick[0][2]
        led = suit_of(lead)
        for index, seat, card in trick[1:]:
            if index in revokes:
                owed.append((seat, led, index))
            elif shows_void(lead, card, trump, strict):
                voids[seat].add(led)
    holds: list[set[int]] = [set() for _ in range(n)]
    for seat, suit, index in owed:
        if not any(s == seat and suit_of(c) == suit for s, c in obs.play[index + 1:]):
            holds[seat].add(suit)
    voids[obs.seat].clear()
    holds[obs.seat].clear()
    return Constraints(obs.seat, tuple(obs.hand), unseen, sizes,
                       tuple(frozenset(v) for v in voids), tuple(frozenset(h) for h in holds))


# ---- counting and drawing ------------------------------------------------------------------

_FACT = [factorial(i) for i in range(53)]


def _multinomial(total: int, parts: Sequence[int]) -> int:
    out = _FACT[total]
    rest = total
    for k in parts:
        out //= _FACT[k]
        rest -= k
    return out // _FACT[rest]


class Sampler:
    """Counts and draws the worlds of one set of constraints (see the module notes):
    ``Sampler.of(observation)``; ``total`` worlds, ``draw(rng)`` one world's hands uniformly,
    ``every()`` all of them.  Made once, it draws each further world without counting again.

    The constrained seats take their cards class by class, a *class* being the suits that the
    same constrained seats may hold (a suit a revoke is owed in is a class of its own), and the
    suits none of them may hold going straight to the others: ``options(j, needs)`` lists the
    ways the constrained seats still needing ``needs`` cards may take cards of class ``j`` (how
    many each) with the number of completions of each.  The rest of every class goes to the
    free pool: the unconstrained seats and the pack, dealt at random at the end."""

    @classmethod
    def of(cls, observation: Observation) -> Sampler:
        return cls(constraints(observation))

    def __init__(self, c: Constraints) -> None:
        self.c = c
        self.hand = _sorted(c.hand)
        others = [s for s in range(c.players) if s != c.seat]
        self.bound = [s for s in others if c.voids[s] or c.holds[s]]
        self.free = [s for s in others if s not in self.bound]
        by_suit = [[x for x in c.unseen if suit_of(x) == s] for s in range(4)]
        self.loose: list[Card] = []              # cards no constrained seat may hold
        classes: dict[tuple, list[Card]] = {}
        for suit, cards in enumerate(by_suit):
            allowed = tuple(suit not in c.voids[p] for p in self.bound)
            owed = tuple(suit in c.holds[p] for p in self.bound)
            if any(owed):
                classes[(allowed, owed, suit)] = cards
            elif any(allowed):
                classes.setdefault((allowed, owed, None), []).extend(cards)
            else:
                self.loose.extend(cards)
        # most seats allowed last: the last class takes what is left, with no choice
        keys = sorted(classes, key=lambda k: (sum(k[0]), k[2] is None))
        self.cards = [tuple(classes[k]) for k in keys]
        self.allowed = [k[0] for k in keys]
        self.owed = [k[1] for k in keys]
        self.counts = [len(cards) for cards in self.cards]
        m = len(keys)
        # per bound seat, the cards of classes j.. it may hold, and the classes j.. it is owed
        self.avail = [[sum(self.counts[t] for t in range(j, m) if self.allowed[t][i])
                       for j in range(m + 1)] for i in range(len(self.bound))]
        self.owing = [[sum(1 for t in range(j, m) if self.owed[t][i]) for j in range(m + 1)]
                      for i in range(len(self.bound))]
        self.left = [sum(self.counts[j:]) for j in range(m + 1)]
        self._options: dict[tuple[int, tuple[int, ...]], tuple[list, int]] = {}
        self.free_sizes = [c.sizes[s] for s in self.free] + [c.undealt]
        self.free_held = sum(self.free_sizes[:-1])
        ok = c.undealt >= 0 and len(c.hand) == c.sizes[c.seat]
        self.free_ways = _multinomial(sum(self.free_sizes), self.free_sizes[:-1]) if ok else 0
        self.start = tuple(c.sizes[p] for p in self.bound)
        self.bound_ways = self.ways(0, self.start) if ok else 0
        self.total = self.bound_ways * self.free_ways

    def ways(self, j: int, needs: tuple[int, ...]) -> int:
        if j == len(self.counts):
            return 1 if not any(needs) else 0
        return self.options(j, needs)[1]

    def options(self, j: int, needs: tuple[int, ...]) -> tuple[list, int]:
        key = (j, needs)
        found = self._options.get(key)
        if found is not None:
            return found
        count = self.counts[j]
        free_left = self.left[j] - sum(needs)         # free-pool cards among classes j..
        ranges = []
        for i, need in enumerate(needs):
            if not self.allowed[j][i]:
                lo, hi = (1, 0) if self.owed[j][i] else (0, 0)   # void in a suit it holds
            else:
                lo = max(1 if self.owed[j][i] else 0, need - self.avail[i][j + 1])
                hi = min(need - self.owing[i][j + 1], count)
            if lo > hi:
                self._options[key] = ([], 0)
                return [], 0
            ranges.append(range(lo, hi + 1))
        out = []
        total = 0
        for ks in itertools.product(*ranges):
            taken = sum(ks)
            if taken > count or count - taken > free_left:
                continue
            rest = tuple(need - k for need, k in zip(needs, ks))
            w = self.ways(j + 1, rest)
            if w:
                w *= _multinomial(count, ks)
                total += w
                out.append((total, ks, rest))
        self._options[key] = (out, total)
        return out, total

    def draw(self, rng: random.Random) -> tuple[tuple[Card, ...], ...]:
        """One world's hands, uniformly."""
        c = self.c
        hands: list = [()] * c.players
        hands[c.seat] = self.hand
        pool: Sequence[Card]
        cards: Sequence[Card]
        if self.bound:
            pool = list(self.loose)
            taken: list[list[Card]] = [[] for _ in self.bound]
            needs = self.start
            for j, cards in enumerate(self.cards):
                out, total = self.options(j, needs)
                if len(out) == 1:
                    _, ks, needs = out[0]
                else:
                    pick = rng.randrange(total)
                    lo, hi = 0, len(out) - 1
                    while lo < hi:              # the first option whose running total > pick
                        mid = (lo + hi) // 2
                        if out[mid][0] > pick:
                            hi = mid
                        else:
                            lo = mid + 1
                    _, ks, needs = out[lo]
                given = sum(ks)
                if given:
                    chosen = rng.sample(cards, given)
                    at = 0
                    for i, k in enumerate(ks):
                        taken[i] += chosen[at:at + k]
                        at += k
                    if given < len(cards):
                        given_set = set(chosen)
                        pool.extend(x for x in cards if x not in given_set)
                else:
                    pool.extend(cards)
            for p, cards in zip(self.bound, taken):
                hands[p] = _sorted(cards)
        else:
            pool = c.unseen
        if self.free:
            chosen = rng.sample(pool, self.free_held)
            at = 0
            for p in self.free:
                k = c.sizes[p]
                hands[p] = _sorted(chosen[at:at + k])
                at += k
        return tuple(hands)

    def every(self) -> Iterator[tuple[tuple[Card, ...], ...]]:
        """Every world, each once, in a fixed order."""
        c = self.c
        n = c.players
        m = len(self.counts)

        def free_split(pool: list[Card], seats: list[int], hands: list):
            if not seats:
                yield hands
                return
            p, rest = seats[0], seats[1:]
            for chosen in itertools.combinations(pool, c.sizes[p]):
                taken = set(chosen)
                hands[p] = chosen
                yield from free_split([x for x in pool if x not in taken], rest, hands)

        def class_split(cards: Sequence[Card], ks: Sequence[int]):
            if not ks:
                yield (), list(cards)
                return
            for chosen in itertools.combinations(cards, ks[0]):
                taken = set(chosen)
                for more, rest in class_split([x for x in cards if x not in taken], ks[1:]):
                    yield (chosen,) + more, rest

        def by_class(j: int, needs: tuple[int, ...], parts: list, pool: list[Card]):
            if j == m:
                hands: list = [()] * n
                hands[c.seat] = self.hand
                for i, p in enumerate(self.bound):
                    hands[p] = tuple(x for part in parts for x in part[i])
                for done in free_split(pool, self.free, hands):
                    yield tuple(_sorted(h) for h in done)
                return
            for _, ks, rest in self.options(j, needs)[0]:
                for chosen, left in class_split(self.cards[j], ks):
                    yield from by_class(j + 1, rest, parts + [chosen], pool + left)

        if self.total:
            yield from by_class(0, self.start, [], list(self.loose) if self.bound
                                else list(c.unseen))


def _check_observation(observation: object) -> None:
    if not isinstance(observation, Observation):
        raise SamplingError(f"observation: {quoted(observation)} is not an Observation (as "
                            f"MatchState.observation gives one)")


def count_worlds(observation: Observation) -> int:
    """How many worlds agree with the observation."""
    _check_observation(observation)
    return Sampler(constraints(observation)).total


def _shown_constraints(c: Constraints, shown: Mapping[int, Sequence[Card]]) -> Constraints:
    """``c`` with the hands of ``shown`` (seat: the cards it holds) known: those cards are not
    unseen, and nothing is dealt to those seats."""
    unseen = set(c.unseen)
    fixed: set[Card] = set()
    for seat, cards in shown.items():
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < c.players \
                or seat == c.seat:
            raise SamplingError(f"shown: seat {quoted(seat)} is not another seat at the table")
        cards = list(cards)
        if len(cards) != c.sizes[seat]:
            raise SamplingError(f"shown: seat {seat} holds {c.sizes[seat]} cards, not "
                                f"{len(cards)}")
        for card in cards:
            if isinstance(card, bool) or not isinstance(card, int) or card not in unseen \
                    or card in fixed:
                name = card_str(card) if card in ALL_CARDS and not isinstance(card, bool) \
                    else quoted(card)
                raise SamplingError(f"shown: seat {seat}'s {name} is not a card this seat has "
                                    f"not seen, or is shown twice")
            fixed.add(card)
    return replace(c, unseen=tuple(card for card in c.unseen if card not in fixed),
                   sizes=tuple(0 if s in shown else k for s, k in enumerate(c.sizes)),
                   voids=tuple(frozenset() if s in shown else v for s, v in enumerate(c.voids)),
                   holds=tuple(frozenset() if s in shown else h for s, h in enumerate(c.holds)))


def _counter(observation: Observation, shown: Mapping[int, Sequence[Card]] | None = None
             ) -> Sampler:
    c = constraints(observation)
    counter = Sampler(_shown_constraints(c, shown) if shown else c)
    if not counter.total:
        raise SamplingError("no deal of the unseen cards agrees with the "
                            + ("position" if shown else "observation"))
    return counter


def all_worlds(observation: Observation, *, bidding: bool = False, temper: float = TEMPER
               ) -> Worlds:
    """Every world that agrees with the observation, each once (mind ``count_worlds`` first:
    there may be very many)."""
    counter = _counter(observation)
    hands = list(counter.every())
    return Worlds(_weighed(observation, hands, bidding, temper), True, counter.total)


def sample_worlds(observation: Observation, count: int, rng: random.Random, *,
                  exact_limit: int = 10_000, bidding: bool = False,
                  temper: float = TEMPER,
                  shown: Mapping[int, Sequence[Card]] | None = None,
                  deadline: float | None = None, least: int = 1) -> Worlds:
    """``count`` worlds that agree with the observation, drawn by ``rng`` uniformly over all
    such worlds (see the module notes): every world, once each, when there are no more than
    ``count`` (and no more than ``exact_limit``); else distinct worlds without replacement
    (with repeats only when more than half of over ``exact_limit`` worlds are asked for).
    With ``bidding`` each carries its weight from the calls (still drawn uniformly), no world
    weighing over ``temper`` times another.  With ``shown`` (seat: the cards it holds) those
    other hands are known too: they are as given in every world, and only the rest dealt.
    With ``deadline`` (a ``solver.clock.now()`` reading) the drawing stops once it is past,
    ``least`` worlds drawn at the least, so that fewer than ``count`` may come (those drawn are
    as uniform); every world, when that is what is asked for, is taken whatever the time."""
    if whole(count) is None or count < 0:
        raise SamplingError(f"count must be a whole number, not {count!r}")
    count = int(count)
    _check_observation(observation)
    if not isinstance(rng, random.Random):
        raise SamplingError(f"rng: {quoted(rng)} is not a random.Random")
    counter = _counter(observation, shown)
    total = counter.total
    exact = total <= count and total <= exact_limit
    hands = (list(counter.every()) if exact
             else _drawn(counter, count, rng, exact_limit, Clock(deadline, least)))
    if shown:
        hands = [tuple(_sorted(shown[s]) if s in shown else h for s, h in enumerate(world))
                 for world in hands]
    return Worlds(_weighed(observation, hands, bidding, temper), exact, total)


class Clock:
    """Whether a drawing is out of time: its deadline passed with ``least`` worlds drawn (the
    clock read every ``EVERY``-th world)."""
    EVERY = 16

    def __init__(self, deadline: float | None, least: int) -> None:
        self.deadline, self.least = deadline, least

    def past(self) -> bool:
        """Whether the deadline has passed."""
        return self.deadline is not None and now() >= self.deadline

    def late(self, drawn: int) -> bool:
        """Whether to stop, ``drawn`` worlds drawn."""
        return drawn >= self.least and drawn % self.EVERY == 0 and self.past()


def _drawn(counter: Sampler, count: int, rng: random.Random, exact_limit: int,
           clock: Clock) -> list:
    """``count`` of the counter's worlds, drawn as ``sample_worlds`` says when not all are
    asked for, or fewer where the ``clock`` says the time is up."""
    total = counter.total
    hands: list = []
    if 2 * count <= total:
        drawn: set = set()
        while len(hands) < count and not clock.late(len(hands)):
            world = counter.draw(rng)           # uniform among the worlds not drawn yet
            if world not in drawn:
                drawn.add(world)
                hands.append(world)
    elif total <= exact_limit:
        hands = rng.sample(list(counter.every()), count)
    else:
        while len(hands) < count and not clock.late(len(hands)):
            hands.append(counter.draw(rng))
    return hands


# ---- the bidding ---------------------------------------------------------------------------


def _weighed(observation: Observation, hands: list, bidding: bool, temper: float = TEMPER
             ) -> tuple[World, ...]:
    if not bidding:
        return tuple(World(h) for h in hands)
    model = _CallModel(observation, temper)
    return tuple(World(h, model.weight(h)) for h in hands)


class _CallModel:
    """The calls other seats made, and how likely each is in a world (module notes)."""

    def __init__(self, obs: Observation, temper: float = TEMPER) -> None:
        if not temper >= 1:
            raise SamplingError(f"temper {temper!r} is not a number from 1 up")
        self.temper = temper
        n = obs.players
        self.played: list[list[Card]] = [[] for _ in range(n)]
        for seat, card in obs.play:
            self.played[seat].append(card)
        self.calls: list[tuple[int, bool]] = []   # (seat, the call says the hand is strong)
        if not obs.turnups:
            return
        self.proposed = suit_of(obs.turnups[0])
        before = list(obs.score)
        for peg in obs.pegs:
            before[peg.side] -= peg.points
        elder = (obs.dealer + 1) % n
        runs_allowed = obs.rules.max_runs != 0
        forced = before[side_of(elder, n)] + 1 >= obs.rules.target
        for seat, action in obs.calls:
            if seat == obs.seat:
                continue
            if action in (STAND, BEG):
                self.calls.append((seat, action == STAND))
            elif action in (TAKE_ONE, RUN) and runs_allowed and not forced:
                self.calls.append((seat, action == TAKE_ONE))

    def agree(self, dealt: Sequence[Card], strong: bool) -> float:
        """The chance that the first six of ``dealt`` (any six equally likely) make the call."""
        m = len(dealt)
        if not m:
            return 1.0
        six = min(_FIRST_DEAL, m)
        trumps = [c for c in dealt if suit_of(c) == self.proposed]
        t = len(trumps)
        scoring = sum(1 for c in trumps if rank_of(c) in _SCORING_RANKS)
        plain = t - scoring
        weak = comb(m - t, six) + plain * comb(m - t, six - 1)
        p_weak = weak / comb(m, six)
        return 1.0 - p_weak if strong else p_weak

    def weight(self, hands: Sequence[Sequence[Card]]) -> float:
        if not self.calls:
            return 1.0
        p = 1.0
        for seat, strong in self.calls:
            p *= self.agree(list(hands[seat]) + self.played[seat], strong)
        floor = 1.0 / self.temper
        return floor + (1.0 - floor) * p


def call_weigher(observation: Observation, temper: float = TEMPER
                 ) -> Callable[[Sequence[Sequence[Card]]], float]:
    """The weight ``bidding=True`` gives a world's hands, for many worlds of one observation."""
    return _CallModel(observation, temper).weight


def calls_weigh(observation: Observation) -> bool:
    """Whether calls weigh the worlds of ``observation`` under ``bidding=True``: some other
    seat's call that the model reads (a seat's own calls, and a dealer's take-one or run where
    none was allowed or the elder hand's side needed the point to win, say nothing)."""
    return bool(_CallModel(observation).calls)


def bidding_weight(observation: Observation, world: World, temper: float = TEMPER) -> float:
    """The weight ``bidding=True`` gives a world (1.0 when no other seat has called), no world
    weighing over ``temper`` times another."""
    return _CallModel(observation, temper).weight(world.hands)


# ---- a world as a position -------------------------------------------------------------------


def world_position(observation: Observation, world: World) -> Position:
    """The deal of a world as dealt (each seat's hand: its cards played this deal and the
    world's), with the observation's trumps, dealer, rules and turn-up, the score when play
    started, and the play so far: a Position ready for the solver."""
    _check_observation(observation)
    if not isinstance(world, World):
        raise SamplingError(f"world: {quoted(world)} is not a World (as sample_worlds gives "
                            f"them)")
    obs = observation
    if obs.trump is None:
        raise SamplingError(f"no trump suit is fixed yet (phase {obs.phase}): a world has no "
                            f"position before play")
    if obs.revokes:
        raise SamplingError("the deal holds a revoke, which a Position cannot replay")
    _check_world(obs, world.hands, sorted(obs.hand))
    dealt = [list(h) for h in world.hands]
    for seat, card in obs.play:
        dealt[seat].append(card)
    start = list(obs.score)
    for peg in obs.pegs:            # what was pegged since play started
        if peg.what not in _BEFORE_PLAY:
            start[peg.side] -= peg.points
    score: tuple[int, ...] | None = tuple(start)
    if any(has_won(obs.rules, s) for s in start):
        score = None
    turnup = obs.turnups[-1] if obs.turnups else None
    deal = Deal(tuple(tuple(h) for h in dealt), obs.trump, obs.dealer, obs.rules, turnup, score)
    return Position(deal, tuple(c for _, c in obs.play))


def _check_world(obs: Observation, hands: Sequence[Sequence[Card]], mine: list[Card]) -> None:
    """A ``SamplingError`` where ``hands`` are no world of ``obs``'s table whose seat holds
    ``mine`` (its hand, sorted)."""
    if len(hands) != obs.players:
        raise SamplingError(f"a world of {len(hands)} hands at a {obs.players}-player table")
    if sorted(hands[obs.seat]) != mine:
        raise SamplingError(f"the world gives seat {obs.seat} other cards than its own hand")


_DEAL_FIELDS = ("trump", "dealer", "rules", "turnup", "score")


def world_positions(observation: Observation, worlds: Sequence[World]) -> list[Position]:
    """``world_position`` of each world: the first made and checked as there, the others from
    it, since the worlds of one observation differ only in the hands.  Every world is still
    checked to give this seat its own hand; the trick history (the same play, trumps and first
    leader in every world) is the first position's, not replayed."""
    if not worlds:
        return []
    first = world_position(observation, worlds[0])
    positions = [first]
    obs = observation
    n = obs.players
    mine = sorted(obs.hand)
    template = first.deal
    common = {name: getattr(template, name) for name in _DEAL_FIELDS}
    played: list[list[Card]] = [[] for _ in range(n)]
    for seat, card in obs.play:
        played[seat].append(card)
    shared = {"play": first.play, "tricks": first.tricks, "completed": first.completed,
              "current": first.current, "to_move": first.to_move}
    for world in worlds[1:]:
        hands = world.hands
        _check_world(obs, hands, mine)
        deal = object.__new__(Deal)
        deal.__dict__.update(common)
        deal.__dict__["hands"] = tuple(tuple(sort_cards([*h, *p])) for h, p in zip(hands, played))
        position = object.__new__(Position)
        position.__dict__.update(shared)
        position.__dict__["deal"] = deal
        position.__dict__["hands"] = tuple(tuple(sort_cards(h)) for h in hands)
        positions.append(position)
    return positions
