"""A position as one seat sees it: some hands hidden, and what the seat knows made an
``Observation`` for the Monte Carlo player (``solver.pimc``).

A deal file or one-line position may hide hands (``"?"`` in TOML, ``-`` on one line; see
``solver.notation``).  A hidden seat's cards in ``play`` are known, its other cards are not; its
hand size is that of the hands shown.  ``SeenPosition.of`` replays the play and checks every
thing that can be checked without the hidden cards, each mistake one ``DealFileError`` naming the
text and the key:

- a shown seat plays only its own cards, by the follow rule (as ``solver.deal.Position`` checks);
- a hidden seat plays no card of a shown hand, nor the turn-up, nor a card played before;
- a hidden seat never plays a suit it has shown it lacks: a card off the suit led shows a void
  in that suit, except a trump played to a plain-suit lead under ``trump-anytime`` (the follow
  rule of ``solver.tricks.legal_plays``);
- the cards nobody has seen can fill the hidden hands, voids and all (Hall's condition over
  every set of hidden seats);
- the hands and the turn-up fit in a pack, and under ``peg-out`` a score is under the target
  and no trick's captures have taken a side to it (the match would be over; under
  ``hand-end`` a take-one or a turned-up Jack may have taken a side there before the play).

``SeenPosition.observation(seat)`` is then what that seat knows, in the form ``solver.game``
gives a seat at the table: its hand, the trumps, the turn-up if given, every card played and by
whom, the points the completed tricks pegged and the match score they make, and its legal cards.
The seat must be the one to move and its hand shown.  An observation holds no other seat's
hand, so ``SeenPosition.worlds`` deals the unseen cards for the Monte Carlo player itself when
other hands are shown (a partner's, say): those stay as they are, and only the hidden hands are
dealt, by ``solver.sampling``'s count.  ``hide(position, seats)`` hides hands of a full
``Position``, for tests and examples.

``call_observation`` is what a seat knows when it is to call (stand or beg, take one or run):
its six cards, the turn-up, the dealer and the score.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import cast

from . import sampling
from .cards import ALL_CARDS, JACK, SUIT_NAMES, Card, card_str, rank_of, sort_cards, suit_of
from .deal import Position, has_won
from .errors import AllFivesError, counted, quoted, whole
from .game import BEG, CALLS, PLAY, Match, Observation
from .notation import DealFileError, Layout, line_str, read_layouts, toml_str
from .pegging import Peg
from .rules import Rules
from .scoring import capture_points
from .tricks import follow_rule, legal_plays, parse_seat, seat_names, shows_void, side_count, \
    side_name, side_of, trick_winner

__all__ = ["SeenPosition", "read_seen", "hide", "call_observation", "CallError",
           "HAND"]

#: The cards a seat holds when it calls: the deal before any run.
HAND = 6
#: A call's action by its word (``solver.game.CALLS``'s words).
CALL_ACTIONS = {word: action for action, word in CALLS.items()}


def _fail(source: str, key: str | None, message: str) -> DealFileError:
    return DealFileError(f"{source}: {key}: {message}" if key else f"{source}: {message}")


@dataclass(frozen=True)
class SeenPosition:
    """A position with hidden hands, replayed and checked (see the module notes)."""

    layout: Layout
    #: Every seat's cards still held: the cards, or None for a hidden hand.
    held: tuple[tuple[Card, ...] | None, ...]
    #: How many cards each seat still holds.
    counts: tuple[int, ...]
    #: The cards played, with their seats, in order.
    play: tuple[tuple[int, Card], ...]
    #: The seat to move, or None once the play is over.
    to_move: int | None
    #: The points each completed trick pegged, in order.
    pegs: tuple[Peg, ...]
    #: The suits each seat has shown it lacks.
    voids: tuple[frozenset[int], ...]

    @property
    def players(self) -> int:
        return len(self.layout.hands)

    @property
    def dealer(self) -> int:
        return self.players - 1 if self.layout.dealer is None else self.layout.dealer

    @property
    def hidden(self) -> tuple[int, ...]:
        return self.layout.hidden

    @property
    def seats(self) -> str:
        return seat_names(self.players)

    @property
    def trick(self) -> tuple[Card, ...]:
        """The cards of the trick under way, lead first."""
        n = self.players
        return tuple(c for _, c in self.play[len(self.play) // n * n:])

    @property
    def start_score(self) -> tuple[int, ...]:
        """The match score at the start of play (0 a side when the text gives none)."""
        given = self.layout.score
        return tuple(given) if given is not None else (0,) * side_count(self.players)

    @property
    def score(self) -> tuple[int, ...]:
        """The match score now: the score at the start of play and the tricks' pegs."""
        score = list(self.start_score)
        for peg in self.pegs:
            score[peg.side] += peg.points
        return tuple(score)

    # ---- reading and checking --------------------------------------------------------------

    @classmethod
    def of(cls, layout: Layout) -> SeenPosition:
        """The layout's play replayed and every check of the module notes made."""
        src, n = layout.source, len(layout.hands)
        names = seat_names(n)
        dealer = n - 1 if layout.dealer is None else layout.dealer
        hidden = set(layout.hidden)
        size = next(len(h) for i, h in enumerate(layout.hands) if i not in hidden)
        pack = n * size + (layout.turnup is not None) + len(layout.aside)
        if pack > len(ALL_CARDS):
            raise _fail(src, "hands", f"{n} hands of {size} cards"
                        + (" and the turn-up" if layout.turnup is not None else "")
                        + (f" and {counted(len(layout.aside), 'card')} set aside"
                           if layout.aside else "")
                        + " do not fit in a pack")
        if layout.score is not None:
            for side, points in enumerate(layout.score):
                if has_won(layout.rules, points):
                    raise _fail(src, "score", f"{side_name(side, n)} has {points}, already at "
                                              f"the target {layout.rules.target}: that match is over")
        holder = {c: seat for seat, hand in enumerate(layout.hands) for c in hand}
        held: list[list[Card] | None] = [None if s in hidden else list(h)
                                         for s, h in enumerate(layout.hands)]
        counts = [size] * n
        voids: list[dict[int, int]] = [{} for _ in range(n)]   # suit -> index of the card
        trump, strict = layout.trump, layout.rules.strict_follow
        played: dict[Card, int] = {}
        play: list[tuple[int, Card]] = []
        pegs: list[Peg] = []
        trick: list[Card]
        leader, trick = (dealer + 1) % n, []
        for i, card in enumerate(layout.play):
            key, face = f"play[{i}]", quoted(card_str(card))
            seat = (leader + len(trick)) % n
            name = names[seat]
            if counts[seat] == 0:
                raise _fail(src, key, f"{face} is played after the last trick")
            if card in played:
                raise _fail(src, key, f"{face} is played twice (also play[{played[card]}])")
            if card == layout.turnup:
                raise _fail(src, key, f"{face} is the turn-up, which is in no hand")
            if card in layout.aside:
                raise _fail(src, key, f"{face} was set aside by a run, and is in no hand")
            mine = held[seat]
            if mine is not None:
                if card not in mine:
                    where = f" (it is in {names[holder[card]]}'s)" if card in holder else \
                        " (a hand is written as dealt, the cards it has played among them)"
                    raise _fail(src, key, f"{face} is not in {name}'s hand{where}")
                if card not in legal_plays(mine, trick, trump, strict):
                    must = follow_rule(trick[0], trump, strict)
                    raise _fail(src, key, f"{name} may not play {face} to "
                                          f"{quoted(card_str(trick[0]))} led ({must})")
                mine.remove(card)
            else:
                if card in holder:
                    raise _fail(src, key, f"{face} is in {names[holder[card]]}'s hand, but "
                                          f"{name} plays it")
                suit = suit_of(card)
                if suit in voids[seat]:
                    raise _fail(src, key, f"{name} plays {face}, but showed no "
                                          f"{SUIT_NAMES[suit]} at play[{voids[seat][suit]}]")
                if trick and shows_void(trick[0], card, trump, strict):
                    voids[seat].setdefault(suit_of(trick[0]), i)
            counts[seat] -= 1
            played[card] = i
            play.append((seat, card))
            trick.append(card)
            if len(trick) == n:
                winner = (leader + trick_winner(trick, trump)) % n
                points = capture_points(tuple(trick), layout)
                if points:
                    side = side_of(winner, n)
                    pegs.append(Peg(side, points, f"trick {len(play) // n}"))
                    if _pegged_out(layout, side, pegs):
                        raise _fail(src, key, f"{side_name(side, n)} reaches the target "
                                              f"{layout.rules.target} with trick "
                                              f"{len(play) // n}: the match is over")
                leader, trick = winner, []
        seen = cls(layout, tuple(None if h is None else tuple(sort_cards(h)) for h in held),
                   tuple(counts), tuple(play), None if counts[leader] == 0 and not trick
                   else (leader + len(trick)) % n, tuple(pegs),
                   tuple(frozenset(v) for v in voids))
        seen._check_unseen()
        return seen

    def _check_unseen(self) -> None:
        """The cards nobody has seen can fill the hidden hands, voids and all: for every set of
        hidden seats, the cards one of them may hold are at least the cards they hold
        together (Hall's condition, which is also sufficient)."""
        unseen = self.unseen()
        hidden = [s for s in self.hidden if self.counts[s]]
        names = self.seats
        for k in range(1, len(hidden) + 1):
            for group in combinations(hidden, k):
                need = sum(self.counts[s] for s in group)
                may = {c for c in unseen if any(suit_of(c) not in self.voids[s] for s in group)}
                if len(may) < need:
                    who = " and ".join(names[s] for s in group)
                    lacks = "; ".join(f"{names[s]} shows no " + " ".join(
                        SUIT_NAMES[x] for x in sorted(self.voids[s])) for s in group
                        if self.voids[s])
                    raise _fail(self.layout.source, "hands",
                                f"{who} must still hold {counted(need, 'card')}, but only "
                                f"{len(may)} unseen {'card' if len(may) == 1 else 'cards'} "
                                f"can be theirs" + (f" ({lacks})" if lacks else ""))

    def unseen(self) -> list[Card]:
        """The cards in no shown hand, not played, not the turn-up and not set aside."""
        layout = self.layout
        seen = {c for h in layout.hands for c in h} | {c for _, c in self.play}
        seen |= set(layout.aside)
        if layout.turnup is not None:
            seen.add(layout.turnup)
        return [c for c in ALL_CARDS if c not in seen]

    def to_toml(self) -> str:
        """The TOML form, hidden hands ``"?"``; ``read_seen`` reads it back."""
        return toml_str(self.layout)

    def to_line(self) -> str:
        """The one-line form, hidden hands ``-``; ``read_seen`` reads it back."""
        return line_str(self.layout)

    # ---- the worlds ----------------------------------------------------------------------------

    def shown_others(self, seat: int) -> list[int]:
        """The seats other than ``seat`` whose hands are shown (and still hold cards)."""
        return [s for s in range(self.players)
                if s != seat and self.held[s] is not None and self.counts[s]]

    def worlds(self, seat: int, count: int, rng: random.Random,
               exact_limit: int = 10_000, bidding: bool = False):
        """``count`` deals of the unseen cards into the hidden hands that agree with what
        ``seat`` sees (``solver.sampling.Worlds``), drawn uniformly, or every one when there
        are no more than ``count`` (and ``exact_limit``); with ``bidding``, weighed by the
        calls.  When only ``seat``'s hand is shown these are ``sample_worlds``'s; the other
        hands shown (which an ``Observation`` cannot hold) are kept as they are, and only the
        hidden ones dealt, by the sampler's own count of the worlds (``sample_worlds`` with
        ``shown``)."""
        shown = {s: cast("tuple[Card, ...]", self.held[s]) for s in self.shown_others(seat)}
        return sampling.sample_worlds(self.observation(seat), count, rng,
                                      exact_limit=exact_limit, bidding=bidding, shown=shown)

    # ---- what a seat knows -------------------------------------------------------------------

    def advised_seat(self, name: str | None = None) -> int:
        """The seat to move, checked against ``name`` (a seat, or None for the seat to move):
        the seat advised, whose hand must be shown."""
        n, names, src = self.players, self.seats, self.layout.source
        if self.to_move is None:
            raise _fail(src, "play", "the play is over: there is no card to choose")
        if name is not None:
            seat = parse_seat(name, n)
            if seat != self.to_move:
                raise _fail(src, None, f"{names[seat]} is not to play: {names[self.to_move]} "
                                       f"is (advice is for the seat to move)")
        seat = self.to_move
        if self.held[seat] is None:
            raise _fail(src, f"hands.{names[seat]}", f"{names[seat]} is to play, but the hand "
                                                     f"is hidden: show the hand advised")
        return seat

    @property
    def calls(self) -> tuple[tuple[int, int], ...]:
        """The calls before the play, (seat, action) as an observation holds them: those the
        text gives, else a beg and a run where turn-ups were set aside (none where it says
        nothing of them)."""
        words = self.layout.calls or (("beg", "run") if self.layout.aside else ())
        elder = (self.dealer + 1) % self.players
        return tuple((seat, CALL_ACTIONS[word]) for seat, word in zip((elder, self.dealer), words))

    @property
    def pegs_before_play(self) -> tuple[Peg, ...]:
        """The points pegged before the play, in the score it starts at: a take-one's, where
        the calls say so, and a turned-up Jack's under ``turnup_jack``."""
        layout, n = self.layout, self.players
        out = []
        if "take-one" in layout.calls:
            out.append(Peg(side_of((self.dealer + 1) % n, n), 1, "take-one"))
        if layout.rules.turnup_jack and layout.turnup is not None \
                and rank_of(layout.turnup) == JACK:
            out.append(Peg(side_of(self.dealer, n), 1, "turn-up jack"))
        return tuple(out)

    def observation(self, seat: int | None = None) -> Observation:
        """What the seat to move knows, as ``MatchState.observation`` gives it at the table:
        the calls (``calls``), the score at the start of play, and the points pegged before
        the play and by the tricks."""
        if seat is not None and (whole(seat) is None or not 0 <= seat < self.players):
            raise _fail(self.layout.source, None, f"seat {quoted(seat)} is not at a "
                                                  f"{self.players}-player table")
        seat = self.advised_seat(None if seat is None else self.seats[int(seat)])
        layout, n = self.layout, self.players
        hand = self.held[seat]
        assert hand is not None
        legal = legal_plays(hand, self.trick, layout.trump, layout.rules.strict_follow)
        return Observation(
            seat=seat, players=n, rules=layout.rules, best_of=1, phase=PLAY,
            current_player=seat, game=1, deal=1, dealer=self.dealer, score=self.score,
            games_won=(0,) * side_count(n), hand=hand,
            turnups=layout.aside + (() if layout.turnup is None else (layout.turnup,)),
            trump=layout.trump,
            calls=self.calls, play=self.play, revokes=(),
            pegs=self.pegs_before_play + self.pegs,
            legal_actions=tuple(sorted(legal)))


def _pegged_out(layout: Layout, side: int, pegs: list[Peg]) -> bool:
    """Whether ``side``'s pegs take it to the target under ``peg-out`` (the match then ends)."""
    if layout.score is None or layout.rules.finish != "peg-out":
        return False
    total = layout.score[side] + sum(p.points for p in pegs if p.side == side)
    return total >= layout.rules.target


# ---- texts, files and full positions ---------------------------------------------------------


def read_seen(text: str, source: str = "<string>", toml: bool | None = None) -> SeenPosition:
    """The one position of a text whose hands may be hidden (TOML, or one line)."""
    layouts = list(read_layouts(text, source, toml, hidden=True))    # (one at least)
    if len(layouts) != 1:
        names = [layout.source for layout in layouts]
        # name them: lines between one-line positions may hold none (standard input's cannot
        # be named back: a file of them can)
        hint = " (write them to a file, and name one of it: FILE#N or FILE:LINE)" \
            if source == "<stdin>" else "" if source.startswith("<") else \
            f" (name one: {', '.join(names[:-1])} or {names[-1]})" if len(names) <= 10 else \
            f" (name one: {', '.join(names[:3])}, ... {names[-1]})"
        raise _fail(source, None, f"{len(layouts)} positions, not one: a seat is advised on "
                                  f"one position at a time{hint}")
    return SeenPosition.of(layouts[0])


def hide(position: Position, seats: str | tuple[int, ...], source: str = "<position>"
         ) -> SeenPosition:
    """``position`` with the hands of ``seats`` (numbers, or letters ``"ES"``) hidden."""
    deal = position.deal
    n = deal.players
    if isinstance(seats, str):
        seats = tuple(parse_seat(s, n) for s in seats)
    hidden = tuple(sorted(set(seats)))
    hands = tuple(() if s in hidden else h for s, h in enumerate(deal.hands))
    return SeenPosition.of(Layout(hands, deal.trump, deal.dealer, deal.rules, deal.turnup,
                                  deal.score, position.play, source, hidden))


# ---- the calls --------------------------------------------------------------------------------


class CallError(AllFivesError):
    """A call that cannot be made; ``argument`` names the argument of ``call_observation`` at
    fault (``"seat"``, ``"hand"``, ``"turnup"``, ``"score"``)."""

    def __init__(self, argument: str, message: str) -> None:
        super().__init__(message)
        self.argument = argument


def call_observation(hand: Sequence[Card], turnup: Card, seat: int, players: int,
                     dealer: int, rules: Rules = Rules(), score: Sequence[int] | None = None,
                     seed: int | str | None = None) -> Observation:
    """What ``seat`` knows when it is to call with ``hand`` (six cards) and ``turnup``: the
    elder hand (the dealer's left) is to stand or beg; the dealer, after the elder hand begged,
    to take one or run.  The observation is a real table's: a pack is arranged with the seat's
    cards and the turn-up where the deal puts them, the other cards shuffled by ``seed``, and
    dealt by ``solver.game``; the other hands are hidden from it as from any seat."""
    names = seat_names(players)
    if not 0 <= dealer < players or not 0 <= seat < players:
        raise CallError("seat", f"a seat of a {players}-player table is one of "
                                f"{' '.join(names)}")
    elder = (dealer + 1) % players
    if seat not in (elder, dealer):
        raise CallError("seat", f"{names[seat]} has no call: with {names[dealer]} dealing, "
                                f"the elder hand {names[elder]} stands or begs and the "
                                f"dealer {names[dealer]} takes one or runs")
    hand = list(hand)
    if len(hand) != HAND:
        raise CallError("hand", f"the hand holds {counted(len(hand), 'card')}: a call is made "
                                f"on the {HAND} cards dealt")
    for i, card in enumerate(hand):
        if card in hand[:i]:
            raise CallError("hand", f"the hand holds {card_str(card)} twice")
    if turnup in hand:
        raise CallError("turnup", f"the turn-up {card_str(turnup)} is also in the hand")
    sides = side_count(players)
    score = tuple(score) if score is not None else (0,) * sides
    if len(score) != sides:
        raise CallError("score", f"the score takes {sides} entries, one a side "
                                 f"({' '.join(side_name(s, players) for s in range(sides))}), "
                                 f"not {len(score)}")
    for side, points in enumerate(score):
        if points >= rules.target:
            raise CallError("score", f"{side_name(side, players)} has {points}, already at "
                                     f"the target {rules.target}: that match is over")
    rest = [c for c in ALL_CARDS if c not in hand and c != turnup]
    random.Random(seed).shuffle(rest)
    pack: list[Card | None] = [None] * len(ALL_CARDS)
    k = (seat - dealer - 1) % players                 # the seat's place from the elder hand
    for i, card in enumerate(hand):
        pack[(i // 3) * 3 * players + 3 * k + i % 3] = card
    pack[HAND * players] = turnup
    fill = iter(rest)
    pack = [next(fill) if c is None else c for c in pack]
    state = Match(players, rules).new_initial_state(dealer=dealer, score=score, auto_deal=False)
    state.deal_pack(cast("list[Card]", pack))     # (every place filled)
    if seat == dealer:
        state.apply_action(BEG)
    observation = state.observation(seat)
    assert sorted(observation.hand) == sorted(hand) and observation.turnups == (turnup,)
    return observation
