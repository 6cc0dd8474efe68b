"""Random deals: as from a shuffled pack, or of any size, and random positions for tests.

Every function takes a ``random.Random`` and draws only from it, so a seed gives the same deal
every time; nothing here touches the global ``random`` state.

``shuffle_deal`` deals as the rules of All Fives have it: 6 cards to each seat, 3 at a
time, twice, starting with the elder hand (the dealer's left), then the turn-up; each run of the
cards sets the turn-up aside, deals 3 more to each seat (again from the elder hand) and turns up
the next card.  ``deal_pack`` is that order of dealing applied to a given pack, and
``shuffled_pack`` the pack a shuffle gives: the game engine (``solver.game``) deals with both.

*How runs are honoured.*  A caller asks for the deal after exactly ``runs`` runs.  By the rules the
cards are run again while a run turns up the suit first proposed, so ``runs`` runs happen exactly
when each of the first ``runs - 1`` runs turns up that suit again and the last one turns up a new
suit (the elder hand begged and the dealer ran).  ``shuffle_deal`` shuffles and deals, and when
the cards do not fall that way it throws them in and the same dealer shuffles and deals again.
The result is therefore a uniformly random deal among those in which exactly ``runs`` runs
happened: every hand holds ``6 + 3 * runs`` cards, and the trump suit is never the suit first
proposed when ``runs > 0``.  Asking for more runs than ``rules.max_runs`` allows, or than the
pack can supply (with 2 players 5, with 3 players 3, with 4 players 2), is an ``AllFivesError``:
such a deal cannot happen.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from numbers import Integral

from .cards import ALL_CARDS, Card, sort_cards, suit_of
from .deal import Deal, Position
from .errors import AllFivesError, quoted
from .rules import Rules
from .tricks import seat_names

__all__ = ["shuffle_deal", "shuffle_deal_aside", "random_deal", "random_position",
           "max_runs_in_pack", "cards_used", "shuffled_pack", "deal_pack"]

#: Shuffles tried before giving up on a deal with the runs asked for (each succeeds with a
#: probability of at least about 1/500, so this is never reached in practice).
_MAX_SHUFFLES = 100_000


def cards_used(players: int, runs: int = 0) -> int:
    """How many cards of the pack a deal takes after ``runs`` runs: the hands and every turn-up
    (those set aside and the one face up)."""
    seat_names(players)
    if isinstance(runs, bool) or not isinstance(runs, Integral) or runs < 0:
        raise AllFivesError(f"runs: {quoted(runs)} is not a whole number from 0")
    return 6 * players + 1 + runs * (3 * players + 1)


def max_runs_in_pack(players: int) -> int:
    """How many full runs a 52-card pack can supply after the first deal and turn-up."""
    seat_names(players)
    return (52 - cards_used(players)) // (3 * players + 1)


def _check_rng(rng: object) -> None:
    if not isinstance(rng, random.Random):
        raise AllFivesError(f"rng: {quoted(rng)} is not a random.Random")


def shuffled_pack(rng: random.Random) -> list[Card]:
    """The 52 cards in the order a shuffle by ``rng`` leaves them: the order they are dealt."""
    _check_rng(rng)
    pack = list(ALL_CARDS)
    rng.shuffle(pack)
    return pack


def deal_pack(pack: Sequence[Card], players: int, dealer: int,
              runs: int = 0) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The hands (by seat) and the turn-ups (in the order turned) when ``pack`` is dealt from its
    first card by the rules: 3 cards to each seat from the elder hand (the dealer's left)
    clockwise, twice, then a turn-up; each of ``runs`` runs then deals 3 more to each seat in
    the same order and turns up the next card.  Each hand is in the order its cards were dealt.
    The pack must hold ``cards_used(players, runs)`` cards or more."""
    seat_names(players)
    if isinstance(dealer, bool) or not isinstance(dealer, Integral) \
            or not 0 <= dealer < players:
        raise AllFivesError(f"dealer: {quoted(dealer)} is not a seat of {players} (0 to "
                            f"{players - 1})")
    if len(pack) < cards_used(players, runs):
        raise AllFivesError(f"a pack of {len(pack)} cards cannot supply {runs} runs to "
                            f"{players} players")
    order = [(dealer + 1 + i) % players for i in range(players)]  # elder hand first
    hands: list[list[Card]] = [[] for _ in range(players)]
    turnups: list[Card] = []
    cards = iter(pack)

    def deal_round() -> None:
        for seat in order:
            hands[seat].extend(next(cards) for _ in range(3))

    deal_round()
    deal_round()
    turnups.append(next(cards))
    for _ in range(runs):
        deal_round()          # the turn-up before is set aside face up: it stays out of play
        turnups.append(next(cards))
    return tuple(tuple(h) for h in hands), tuple(turnups)


def _seat(rng: random.Random, players: int, dealer: int | None) -> int:
    _check_rng(rng)
    seat_names(players)
    if dealer is None:
        return rng.randrange(players)
    if not 0 <= dealer < players:
        raise AllFivesError(f"dealer seat {dealer} is not at a {players}-player table")
    return dealer


def shuffle_deal(rng: random.Random, players: int, runs: int = 0, rules: Rules = Rules(),
                 dealer: int | None = None) -> Deal:
    """A deal as from a shuffled pack after exactly ``runs`` runs of the cards (see the module
    notes); ``dealer`` defaults to a random seat.  The Deal records the final ``turnup``, whose
    suit is trumps; the hands are in the order their cards were dealt."""
    return shuffle_deal_aside(rng, players, runs, rules, dealer)[0]


def shuffle_deal_aside(rng: random.Random, players: int, runs: int = 0, rules: Rules = Rules(),
                       dealer: int | None = None) -> tuple[Deal, tuple[Card, ...]]:
    """``shuffle_deal``'s deal, and the turn-ups its runs set aside, in the order turned."""
    if not isinstance(rules, Rules):
        raise AllFivesError(f"rules must be a Rules, not {quoted(rules)}")
    if not isinstance(rng, random.Random):
        raise AllFivesError(f"rng must be a random.Random, not {quoted(rng)}")
    dealer = _seat(rng, players, dealer)
    if not isinstance(runs, int) or runs < 0:
        raise AllFivesError(f"runs must be a whole number, not {quoted(runs)}")
    if rules.max_runs is not None and runs > rules.max_runs:
        raise AllFivesError(f"{runs} runs asked for, but these rules allow at most {rules.max_runs}")
    if runs > max_runs_in_pack(players):
        raise AllFivesError(f"{runs} runs asked for, but with {players} players the pack supplies "
                         f"at most {max_runs_in_pack(players)}")
    # only a repeat of the suit first proposed is run again; the last run must not repeat it
    wanted = [True] * (runs - 1) + [False] if runs else []
    for _ in range(_MAX_SHUFFLES):
        hands, turnups = deal_pack(shuffled_pack(rng), players, dealer, runs)
        proposed = suit_of(turnups[0])
        if [suit_of(t) == proposed for t in turnups[1:]] == wanted:
            turnup = turnups[-1]
            return Deal(hands, suit_of(turnup), dealer, rules, turnup), turnups[:-1]
    raise RuntimeError("could not deal the runs asked for")  # pragma: no cover


def random_deal(rng: random.Random, players: int, cards: int, rules: Rules = Rules(),
                dealer: int | None = None) -> Deal:
    """A uniformly random deal of ``cards`` cards to each seat (any size that leaves a card for
    the turn-up: ``players * cards + 1 <= 52``), trumps the suit of a random turn-up card in no
    hand; ``dealer`` defaults to a random seat.  Hands are sorted."""
    dealer = _seat(rng, players, dealer)
    if not isinstance(cards, int) or cards < 1 or players * cards + 1 > 52:
        raise AllFivesError(f"{players} hands of {quoted(cards)} cards and a turn-up do not fit in a pack")
    drawn = rng.sample(ALL_CARDS, players * cards + 1)
    turnup = drawn.pop()
    hands = tuple(tuple(sort_cards(drawn[i * cards:(i + 1) * cards])) for i in range(players))
    return Deal(hands, suit_of(turnup), dealer, rules, turnup)


def random_position(rng: random.Random, players: int, cards: int, rules: Rules = Rules(),
                    played: int | None = None, dealer: int | None = None) -> Position:
    """A ``random_deal`` and then ``played`` random legal cards (by default a random number from
    0 to one less than all the cards, so some play remains; possibly mid-trick).  ``played`` may
    be any number up to all the cards, which gives a finished position; more is an AllFivesError."""
    deal = random_deal(rng, players, cards, rules, dealer)
    total = players * cards
    if played is None:
        played = rng.randrange(total)
    elif not isinstance(played, Integral) or isinstance(played, bool) \
            or not 0 <= played <= total:
        raise AllFivesError(f"cannot play {quoted(played)} cards from hands holding {total}")
    play: list[Card] = []
    position = deal.position()
    for _ in range(played):
        card = rng.choice(position.legal_moves())
        play.append(card)
        position = deal.position(play)
    return position
