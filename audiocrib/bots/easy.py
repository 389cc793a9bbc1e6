"""The easy player: takes the points in front of it and keeps the cards that already score best."""

from __future__ import annotations

from itertools import combinations

from audiocrib.bots.base import Bot
from audiocrib.bots.discards import points_without_starter
from audiocrib.engine.cards import Card
from audiocrib.engine.scoring import score_play
from audiocrib.engine.views import PlayerView

__all__ = ["Easy"]


class Easy(Bot):
    """Keeps the cards worth most without the starter; in the play, lays the card that scores most now."""

    level = "easy"

    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        """Keep the best-scoring cards as they stand (ties broken at random)."""
        keep_size = len(view.hand) - view.must_discard
        options = list(combinations(view.hand, keep_size))
        self.rng.shuffle(options)
        best = max(options, key=points_without_starter)
        return tuple(c for c in view.hand if c not in best)

    def choose_play(self, view: PlayerView) -> Card:
        """The card that scores most now (ties broken at random)."""
        series = [card for _, card in view.series]
        cards = list(view.playable)
        self.rng.shuffle(cards)
        return max(cards, key=lambda c: score_play([*series, c]).total)
