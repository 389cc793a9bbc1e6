"""The show: the order the hands and the crib are counted in, a hand the game counts by itself, and a manual
count whose time ran out.

>>> show_order(dealer=0, players=3)
[(1, False), (2, False), (0, False), (0, True)]
"""

from __future__ import annotations

from collections.abc import Iterator

from audiocrib.engine.cards import Card
from audiocrib.engine.events import Event, HandShown, PointsGiven
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import score_hand

__all__ = ["counted", "show_order", "timed_out"]


def show_order(dealer: int, players: int) -> list[tuple[int, bool]]:
    """``(seat, crib)`` in the order counted: each hand from the dealer's left, the dealer's last, then the crib."""
    order = [((dealer + step) % players, False) for step in range(1, players + 1)]
    order.append((dealer, True))
    return order


def counted(seat: int, crib: bool, cards: tuple[Card, ...], starter: Card) -> HandShown:
    """A hand or crib counted by the game: it pegs its true count."""
    score = score_hand(cards, starter, crib)
    return HandShown(seat, crib, cards, starter, score, score.total)


def timed_out(rules: Rules, seat: int, crib: bool, cards: tuple[Card, ...], starter: Card) -> Iterator[Event]:
    """A manual count whose time ran out: the counter pegs half the count (rounded up), the opponents the rest."""
    score = score_hand(cards, starter, crib)
    half = score.total // 2
    yield HandShown(seat, crib, cards, starter, score, score.total - half, None, True)
    if half:
        yield PointsGiven(rules.opponent_of(seat), seat, half, "timer")
