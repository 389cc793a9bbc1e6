"""The medium player: the best expected hand over every starter, and sound pegging habits.

Laying away: keeps the cards whose count, averaged exactly over every starter it has not seen, is highest (the
crib is not weighed). Pegging: takes the points in front of it, avoids leaving a count of 5 or 21 (a ten-card
makes fifteen or thirty-one), avoids handing over an easy pair or run, leads from a pair and never leads a five
when it can help it, and keeps low cards for the go.
"""

from __future__ import annotations

from audiocrib.bots.base import Bot
from audiocrib.bots.discards import analyse
from audiocrib.engine.cards import Card
from audiocrib.engine.scoring import score_play
from audiocrib.engine.views import PlayerView

__all__ = ["Medium", "peg_heuristic"]

_DANGER_COUNTS = {5: 3.0, 21: 3.0, 11: 0.5}  # a ten-card then scores fifteen, thirty-one, or sets up 21


def peg_heuristic(view: PlayerView, card: Card) -> float:
    """How good laying ``card`` now looks, in points: what it scores, less the risks it opens."""
    series = [c for _, c in view.series]
    after = [*series, card]
    count = view.count + card.value
    value = float(score_play(after).total)
    value -= _DANGER_COUNTS.get(count, 0.0)
    if count < 31:
        value -= 0.6  # the opponent may pair it...
        if any(c.rank == card.rank for c in view.hand if c != card):
            value += 0.8  # ...but then we hold the third of a pair royal
        if len(after) >= 2 and abs(after[-2].rank - card.rank) <= 2 and after[-2].rank != card.rank:
            value -= 0.5  # two close ranks invite a run
    if not series:
        if card.rank == 5:
            value -= 2.0
        if card.value <= 4:
            value += 0.7  # nothing makes fifteen on it
        if sum(1 for c in view.hand if c.rank == card.rank) >= 2:
            value += 0.6  # lead from a pair
    # Keep low cards for the go: lay higher cards first, other things equal.
    value += card.value * 0.02
    return value


class Medium(Bot):
    """Exact expected hand for the discard; heuristic pegging."""

    level = "medium"

    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        """The discard with the best expected hand over every unseen starter."""
        return analyse(view.hand, view.must_discard)[0].discard

    def choose_play(self, view: PlayerView) -> Card:
        """The card with the best pegging value (ties broken at random)."""
        cards = list(view.playable)
        self.rng.shuffle(cards)
        return max(cards, key=lambda c: peg_heuristic(view, c))
