"""Cards, suits, ranks and hands: every notation in, one spelling out.

A card is a plain ``int``: ``suit * 16 + rank``, with suits ``S H D C`` numbered 0 to 3 and ranks
``2`` to ``A`` numbered 0 to 12.  A set of cards is an ``int`` bit mask over the same numbers, so
each suit owns one 16-bit lane of a 64-bit word.  The engine works on exactly these numbers.

Parsing accepts every spelling of the README's "Deal files" section: rank and suit in either order and either case, ``10``
for the ten, suit symbols (``TH``, ``th``, ``10h``, ``HT``, ``T♥``).  Formatting gives one canonical
spelling: rank then suit, ``TH`` in ASCII or ``T♥`` pretty.  Hands are also read and written as PBN
holdings, suits in the order S.H.D.C (``"K3.AQ5.-.T98"``).
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import AllFivesError, as_typed, lower, quoted, upper

__all__ = [
    "CardError", "SUITS", "RANKS", "SUIT_SYMBOLS", "SUIT_NAMES", "PIPS",
    "SPADES", "HEARTS", "DIAMONDS", "CLUBS",
    "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN",
    "KING", "ACE",
    "make_card", "suit_of", "rank_of", "parse_card", "card_str", "parse_suit", "suit_str", "without_selectors",
    "parse_cards", "parse_hand", "hand_str", "parse_holding", "holding_str", "sort_cards",
    "mask_of", "cards_of", "pip_value", "is_card", "ALL_CARDS", "FULL_PACK", "Card",
]

Card = int

SUITS = "SHDC"
RANKS = "23456789TJQKA"

#: Suit numbers, in the order of ``SUITS``.
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
#: Rank numbers, in the order of ``RANKS``: the two is 0, the ace 12.
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

#: Pip value by rank index: A 4, K 3, Q 2, J 1, T 10, 5 5, others 0.
PIPS = (0, 0, 0, 5, 0, 0, 0, 0, 10, 1, 2, 3, 4)

_SUIT_CHARS = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
               "♤": 0, "♡": 1, "♢": 2, "♧": 3}
_RANK_CHARS = {ch: i for i, ch in enumerate(RANKS)}


class CardError(AllFivesError):
    """A card, suit or hand that cannot be read; the message quotes the bad token."""


def is_card(value: object) -> bool:
    """Whether ``value`` is a card's number: ``suit * 16 + rank``, rank 0 (two) to 12 (ace)."""
    return (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 64
            and value & 15 <= 12)


def make_card(suit: int, rank: int) -> Card:
    return suit * 16 + rank


def suit_of(card: Card) -> int:
    return card >> 4


def rank_of(card: Card) -> int:
    return card & 15


def pip_value(card: Card) -> int:
    return PIPS[card & 15]


ALL_CARDS: tuple[Card, ...] = tuple(make_card(s, r) for s in range(4) for r in range(13))
FULL_PACK: int = sum(1 << c for c in ALL_CARDS)


def parse_suit(token: str) -> int:
    """``"H"``, ``"h"`` or ``"♥"`` (``"♥"`` and the emoji selector too, as ``parse_card``
    reads it) -> 1."""
    t = _typed(token)
    if t in _SUIT_CHARS:
        return _SUIT_CHARS[t]
    names = {n: i for i, n in enumerate(SUIT_NAMES)}
    if lower(t) in names:
        return names[lower(t)]
    raise CardError(f"unknown suit {quoted(token)} (expected one of S H D C)")


def without_selectors(text: str) -> str:
    """``text`` without the selectors a suit sign may carry: U+FE0F, which asks for it drawn
    as an emoji (a phone's keyboard or an emoji picker puts it: ``A♠️``), or U+FE0E, as
    text."""
    return text.replace("\ufe0f", "").replace("\ufe0e", "")


def _typed(token: str) -> str:
    """A card or suit as typed, in capitals: its suit sign without a selector, and read as
    UTF-8 where the locale could not read it (``as_typed``)."""
    return upper(without_selectors(as_typed(token.strip())))


def suit_str(suit: int, pretty: bool = False) -> str:
    return (SUIT_SYMBOLS if pretty else SUITS)[suit]


def _rank(text: str) -> int | None:
    if text == "10":
        return 8
    return _RANK_CHARS.get(text)


def parse_card(token: str) -> Card:
    """Read one card in any spelling deal files accept."""
    if not isinstance(token, str):
        raise CardError(f"unknown card {quoted(token)} (a card to read is text: 'TH', '10h')")
    t = _typed(token)
    if len(t) >= 2:
        # rank first (``TH``, ``10H``, ``T♥``), then suit first (``HT``, ``H10``)
        rank, suit = _rank(t[:-1]), _SUIT_CHARS.get(t[-1])
        if rank is None or suit is None:
            rank, suit = _rank(t[1:]), _SUIT_CHARS.get(t[0])
        if rank is not None and suit is not None:
            return make_card(suit, rank)
    raise CardError(f"unknown card {quoted(token)}")


def card_str(card: Card, pretty: bool = False) -> str:
    """The canonical spelling: ``"TH"``, or ``"T♥"`` when pretty."""
    try:
        if 0 <= card < 64 and card & 15 <= 12:
            return RANKS[card & 15] + suit_str(card >> 4, pretty)
    except TypeError:       # (not a number at all)
        pass
    raise CardError(f"{quoted(card)} is not a card's number (suit * 16 + rank, rank 0 to 12)")


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Suits in the order S H D C, high rank first within each suit."""
    return sorted(cards, key=lambda c: (c >> 4, -(c & 15)))


def _no_repeats(cards: list[Card], text: str) -> list[Card]:
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise CardError(f"card {quoted(card_str(c))} appears twice in {quoted(text)}")
        seen.add(c)
    return cards


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Cards separated by spaces or commas (or a list of tokens), in the order given."""
    if not isinstance(text, (str, Iterable)):
        raise CardError(f"cards: {quoted(text)} is neither text ('AH KH 5H') nor a list of "
                        f"cards' names")
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = [parse_card(t) if isinstance(t, str) else _not_a_token(t) for t in tokens]
    return _no_repeats(cards, " ".join(map(str, tokens)))


def _not_a_token(t: object) -> Card:
    raise CardError(f"unknown card {quoted(t)}")


def parse_holding(text: str) -> list[Card]:
    """A PBN holding ``"K3.AQ5.-.T98"``: four suits S.H.D.C, ``-`` or nothing for a void."""
    lanes = text.strip().split(".")
    if len(lanes) != 4:
        raise CardError(f"PBN holding {quoted(text)} needs four suits separated by dots")
    cards = []
    for suit, lane in enumerate(lanes):
        lane = upper(lane.strip())
        if lane == "-":
            continue
        lane = lane.replace("10", "T")
        for ch in lane:
            rank = _rank(ch)
            if rank is None:
                raise CardError(f"unknown rank {quoted(ch)} in PBN holding {quoted(text)}")
            cards.append(make_card(suit, rank))
    return _no_repeats(cards, text)


def parse_hand(text: str) -> list[Card]:
    """A hand as a card list (``"AH KH 5H"``) or a PBN holding (``"-.AK5.-.-"``)."""
    if not isinstance(text, str):
        raise CardError(f"hand: {quoted(text)} is not text ('AH KH 5H' or '-.AK5.-.-')")
    if "." in text:
        return parse_holding(text)  # the inverse of holding_str
    return parse_cards(text)


def hand_str(cards: Iterable[Card], pretty: bool = False) -> str:
    """Cards sorted and spelled canonically, space-separated."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise CardError(f"{quoted(cards)} is not a list of cards' numbers")
    cards = list(cards)
    # (spelled before they are sorted: a CardError for one that is no card's number)
    spelled = {card: card_str(card, pretty) for card in cards}
    return " ".join(spelled[c] for c in sort_cards(cards))


def holding_str(cards: Iterable[Card]) -> str:
    """The PBN holding of a hand: ``"K3.AQ5.-.T98"``."""
    by_suit: list[list[int]] = [[], [], [], []]
    for c in sort_cards(cards):
        by_suit[c >> 4].append(c & 15)
    return ".".join("".join(RANKS[r] for r in ranks) or "-" for ranks in by_suit)


def mask_of(cards: Iterable[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest number first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
