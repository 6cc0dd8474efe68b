"""What each card gives the side that wins it: its points (the trumps' captures and the end
points that go to a card's captor) and its Game pips, as lists and as the tables the engine
takes.  Pure Python: the reference solver's users (``allfives analyze --engine reference``
without the compiled engine) read them too; ``solver.search`` passes them to the engine."""

from __future__ import annotations

from .cards import FIVE, JACK, Card, make_card
from .deal import Deal
from .scoring import capture_points, game_pips

__all__ = ["card_points", "card_tables"]


def _low_captured(deal: Deal) -> Card | None:
    """The trump whose winner scores Low, when Low goes to the captor (the lowest in play)."""
    if not deal.rules.low_to_captor:
        return None
    trumps = deal.trumps_dealt()
    return trumps[0] if trumps else None


def card_points(deal: Deal, objective: str) -> list[int]:
    """For each card number, the points it gives the side that wins the trick it falls in.

    Cards not in play never reach a trick, so only Low to the captor depends on the hands:
    deals with the same rules and trumps share their tables, and a kept table serves them all.
    For objective ``win`` only the captures, pegged as the trick closes (the end points are
    pegged after them; see ``solver.search``).
    """
    points = [0] * 64
    if objective == "tricks":
        return points
    rules = deal.rules
    for rank in range(13):
        c = make_card(deal.trump, rank)
        points[c] = capture_points((c,), deal)
    if objective == "win":
        return points
    if rules.jack:
        points[make_card(deal.trump, JACK)] += 1
    if rules.five_for_five:
        points[make_card(deal.trump, FIVE)] += 5
    low = _low_captured(deal)
    if low is not None:
        points[low] += 1
    return points


def _game_pips(deal: Deal, objective: str) -> list[int]:
    if objective == "tricks" or not deal.rules.game:
        return [0] * 64
    return [game_pips(c, deal) if (c & 15) < 13 else 0 for c in range(64)]


_TABLES: dict[tuple, tuple[bytes, bytes]] = {}


def card_tables(deal: Deal, objective: str) -> tuple[bytes, bytes]:
    """``card_points`` and Game pips as the engine takes them, 64 bytes each; kept per rules,
    trumps, objective and (for Low to the captor) the lowest trump in play."""
    key = (deal.rules, deal.trump, _low_captured(deal), objective)
    tables = _TABLES.get(key)
    if tables is None:
        if len(_TABLES) > 4096:
            _TABLES.clear()
        tables = _TABLES[key] = (bytes(card_points(deal, objective)),
                                 bytes(_game_pips(deal, objective)))
    return tables
