"""What every computer player shares: a seeded random source, and counting a hand (correctly, unless asked to slip).

>>> from audiocrib import Game, Rules
>>> from audiocrib.bots.player import drive
>>> from audiocrib.engine.events import HandShown
>>> from audiocrib.bots.medium import Medium
>>> game = Game(Rules(manual_counting=True), seed=4, manual_seats=[0, 1])
>>> players = [Medium(seed=1, count_mistakes=0.5), Medium(seed=2)]
>>> shown = [e for e in drive(game, players).events if isinstance(e, HandShown)]
>>> short = [e.seat for e in shown if e.claimed < e.score.total]
>>> bool(short), set(short)
(True, {0})
"""

from __future__ import annotations

import random

from audiocrib.engine.cards import Card
from audiocrib.engine.scoring import score_hand, score_play
from audiocrib.engine.views import PlayerView

__all__ = ["Bot", "hand_being_counted", "points_now", "winning_card"]


def hand_being_counted(view: PlayerView) -> tuple[tuple[Card, ...], Card, bool]:
    """The cards, starter and crib flag of the hand this seat is asked to count."""
    if view.counting is None or view.starter is None:
        raise ValueError("No hand is being counted.")
    _, crib = view.counting
    cards = view.crib if crib else view.kept
    if cards is None:
        raise ValueError("The crib being counted is not in the view.")
    return cards, view.starter, crib


def points_now(view: PlayerView, card: Card) -> int:
    """The points laying ``card`` now is sure to bring: what it scores in the play, and one for the last card when
    nobody else can lay a card after it (every other seat has said go or holds nothing) and neither can this seat.
    """
    series = [c for _, c in view.series]
    points = score_play([*series, card]).total
    count = view.count + card.value
    if count < 31:
        others_out = all(s in view.said_go or not held for s, held in enumerate(view.held) if s != view.seat)
        rest = list(view.hand)
        rest.remove(card)
        if others_out and all(count + c.value > 31 for c in rest):
            points += 1
    return points


def winning_card(view: PlayerView) -> Card | None:
    """A card from ``view.playable`` that wins the game the moment it is laid (the one that scores most), or None."""
    need = view.rules.target - view.scores[view.side]
    best = max(view.playable, key=lambda card: points_now(view, card), default=None)
    if best is None or points_now(view, best) < need:
        return None
    return best


class Bot:
    """Base of the computer players: ``seed`` makes its choices repeatable.

    ``count_mistakes`` is the share of counts (0 to 1) in which the player overlooks one scoring combination, as
    people do, so that a human can practise calling muggins. By default computer players count correctly.
    """

    level = "bot"

    def __init__(self, seed: int | None = None, count_mistakes: float = 0.0) -> None:
        if not 0.0 <= count_mistakes <= 1.0:
            raise ValueError("The rate of counting mistakes is a share from 0 to 1.")
        self.rng = random.Random(seed)
        self.count_mistakes = count_mistakes
        # The slips have a random source of their own, so the rate of mistakes never changes how the bot plays.
        self._slips = random.Random(None if seed is None else f"slips {seed}")

    def reseed(self, *parts: object) -> None:
        """Start the random sources afresh from ``parts`` (say the game's seed, the seat and the number of events
        so far), so a move depends only on the position: a game resumed from a save goes on exactly as it would
        have.

        >>> from audiocrib.bots.beginner import Beginner
        >>> a, b = Beginner(seed=1), Beginner(seed=2)
        >>> a.reseed(7, 1, 40); b.reseed(7, 1, 40)
        >>> a.rng.random() == b.rng.random()
        True
        """
        key = "/".join(str(part) for part in parts)
        self.rng = random.Random(key)
        self._slips = random.Random(f"slips {key}")

    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        """The cards to lay away; each level decides."""
        raise NotImplementedError

    takes_the_game = True
    """Lays a card that wins the game at once whenever it holds one (`winning_card`), before its level decides."""

    def play(self, view: PlayerView) -> Card:
        """The card to play: one that wins the game now if there is one (and the level takes it), else the level's
        choice (`choose_play`)."""
        if self.takes_the_game:
            card = winning_card(view)
            if card is not None:
                return card
        return self.choose_play(view)

    def choose_play(self, view: PlayerView) -> Card:
        """The card to play when none wins the game at once; each level decides."""
        raise NotImplementedError

    def count(self, view: PlayerView) -> int:
        """The hand's count; with ``count_mistakes``, now and then one combination short."""
        cards, starter, crib = hand_being_counted(view)
        score = score_hand(cards, starter, crib)
        if self.count_mistakes and score.items and self._slips.random() < self.count_mistakes:
            return score.total - self._slips.choice(score.items).points
        return score.total

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
