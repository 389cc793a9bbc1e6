"""The beginner: random legal choices, for a gentle first game."""

from __future__ import annotations

from audiocrib.bots.base import Bot
from audiocrib.engine.cards import Card
from audiocrib.engine.views import PlayerView

__all__ = ["Beginner"]


class Beginner(Bot):
    """Lays away and plays at random among the legal choices, even when a card would win the game at once."""

    level = "beginner"
    takes_the_game = False

    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        """Random cards to the crib."""
        return tuple(self.rng.sample(view.hand, view.must_discard))

    def choose_play(self, view: PlayerView) -> Card:
        """A random card that fits."""
        return self.rng.choice(view.playable)
