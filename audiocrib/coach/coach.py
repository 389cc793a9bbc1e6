"""The coach: the expert's judgement of a seat's decision, worked out from that seat's own view only.

Its random source is set from the position (the seat and the number of events it has seen), so the same question
gets the same answer, the review of a deal agrees with the advice heard during it, and an expert reseeded alike
makes exactly the advised choice.

>>> from audiocrib import Game
>>> coach = Coach()
>>> advice = coach.advise(Game(seed=5).view(0))
>>> type(advice).__name__, len(advice.best.discard)
('LayAwayAdvice', 2)
"""

from __future__ import annotations

from audiocrib.bots.expert import Expert
from audiocrib.coach.laying import LayAwayAdvice, lay_away_advice
from audiocrib.coach.playing import PlayAdvice, play_advice
from audiocrib.engine.phase import Phase
from audiocrib.engine.views import PlayerView

__all__ = ["Advice", "Coach", "advice_seed"]

Advice = LayAwayAdvice | PlayAdvice


def advice_seed(view: PlayerView) -> tuple[str, int, int]:
    """The parts an expert is reseeded from to decide as the coach advises at ``view``."""
    return ("coach", view.seat, len(view.events))


class Coach:
    """Advice for the decision a view waits for: the lay-away or a card to lay."""

    def __init__(self, expert: Expert | None = None) -> None:
        self.expert = expert or Expert()

    def advise(self, view: PlayerView) -> Advice | None:
        """The advice for the decision ``view``'s seat faces now, or None when it faces none (the others' turn, a
        go, the show, a count to type)."""
        if view.must_discard:
            self.expert.reseed(*advice_seed(view))
            return lay_away_advice(view, self.expert)
        if view.phase is Phase.PLAY and view.my_turn and view.playable:
            self.expert.reseed(*advice_seed(view))
            return play_advice(view, self.expert)
        return None
