"""What every computer player shares: a seeded random source and counting a hand correctly."""

from __future__ import annotations

import random

from audiocrib.cards import Card
from audiocrib.scoring import score_hand
from audiocrib.views import PlayerView

__all__ = ["Bot", "hand_being_counted"]


def hand_being_counted(view: PlayerView) -> tuple[tuple[Card, ...], Card, bool]:
    """The cards, starter and crib flag of the hand this seat is asked to count."""
    if view.counting is None or view.starter is None:
        raise ValueError("No hand is being counted.")
    _, crib = view.counting
    cards = view.crib if crib else view.kept
    if cards is None:
        raise ValueError("The crib being counted is not in the view.")
    return cards, view.starter, crib


class Bot:
    """Base of the computer players: ``seed`` makes its choices repeatable."""

    level = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        """The cards to lay away; each level decides."""
        raise NotImplementedError

    def play(self, view: PlayerView) -> Card:
        """The card to play; each level decides."""
        raise NotImplementedError

    def count(self, view: PlayerView) -> int:
        """Computer players count correctly."""
        cards, starter, crib = hand_being_counted(view)
        return score_hand(cards, starter, crib).total

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
