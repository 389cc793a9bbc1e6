"""The play drill: a position in the play from a real game, and the card to lay judged by the coach.

A position comes from a two-player game to 121 played by computer players (medium strength, seeded) to a random
deal and a random card of its play, so positions are as varied as real play makes them: leads, counts near five,
ten, twenty-one and thirty-one, pairs and runs on the table, and near the end of a game the scores that change what
is right. Only positions where the choice matters are kept (at least two ranks may be laid, and the worst gives
up at least half a point, `TEACHES`). The drill holds the seat's own `PlayerView`, so the judgement knows nothing
the player does not.

Pure: everything comes from the ``rng`` given, and the coach is reseeded from the position (`audiocrib.coach`), so
a seed always deals the same position and judges it alike.

>>> import random
>>> drill = play_choice_drill(random.Random(7))
>>> len({card.rank for card in drill.view.playable}) > 1
True
>>> result = judge_play_choice(drill, drill.advice.best.card)
>>> result.right, result.rank
(True, 1)
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from audiocrib.bots.medium import Medium
from audiocrib.bots.player import next_action
from audiocrib.coach import Coach, Decision, Measure, PlayAdvice
from audiocrib.engine.cards import Card
from audiocrib.engine.game import Game
from audiocrib.engine.phase import Phase
from audiocrib.engine.refusals import check_play
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView

__all__ = ["OPPONENT", "TEACHES", "PlayChoiceDrill", "PlayChoiceResult", "judge_play_choice", "play_choice_drill"]

OPPONENT = "Bob"
"""The name of the player's opponent in the play drill."""
MOST_DEALS = 9
"""The drill's deal is drawn from the first this many of a game (most games of 121 end in the ninth or later)."""


@dataclass(frozen=True, slots=True)
class PlayChoiceDrill:
    """A seat's decision in the play: its own view, and the coach's advice there."""

    view: PlayerView
    advice: PlayAdvice

    @property
    def hand(self) -> tuple[Card, ...]:
        """The cards held, in the order the digit keys pick them."""
        return tuple(sorted(self.view.hand))


@dataclass(frozen=True, slots=True)
class PlayChoiceResult:
    """The card laid, weighed by the coach as its review weighs a card laid in a game."""

    drill: PlayChoiceDrill
    card: Card
    decision: Decision

    @property
    def right(self) -> bool:
        """The best card, or within a tenth of a point of it (one in a hundred of the chance to win)."""
        return not self.decision.mistake

    @property
    def best(self) -> bool:
        """The coach's own card, or one of the same rank."""
        return self.card.rank is self.drill.advice.best.card.rank

    @property
    def rank(self) -> int:
        """1 for the best card (or one as good), 2 for the next, ..."""
        value = self.drill.advice.choice_of(self.card).value
        return 1 + sum(1 for c in self.drill.advice.choices if c.value > value + 1e-9)

    @property
    def points(self) -> float:
        """The points of expectation given up (0 when the loss is a chance of winning)."""
        return self.decision.points


TEACHES = {Measure.POINTS: 0.5, Measure.CHANCE: 5.0, Measure.GAME: 0.5}
"""How much the worst card must give up, by what the loss is measured in, for a position to be worth a drill:
half a point, or five in a hundred of the chance to win, or the game."""


def _matters(view: PlayerView, advice: PlayAdvice) -> bool:
    """True when the worst card the seat may lay gives up enough to teach something."""
    worst = Decision(view, (max(advice.choices, key=lambda c: c.loss).card,), advice)
    return worst.loss >= TEACHES[worst.measure]


def _positions(game: Game, seat: int, players: tuple[Medium, Medium], deal: int) -> list[PlayerView]:
    """Drive ``game`` through deal number ``deal``'s play; the seat's decisions there with two ranks or more."""
    found: list[PlayerView] = []
    while not game.over and game.deal_number <= deal:
        mover = min(game.waiting_for())
        if game.deal_number == deal and game.phase is Phase.PLAY and mover == seat:
            view = game.view(seat)
            if len({card.rank for card in view.playable}) > 1:
                found.append(view)
        game.apply(next_action(game, mover, players[mover]))
    return found


def play_choice_drill(rng: random.Random, coach: Coach | None = None) -> PlayChoiceDrill:
    """A position in the play of a real game, drawn from ``rng``, where the choice of card matters."""
    coach = coach or Coach()
    while True:
        seat = rng.randrange(2)
        names = ("You", OPPONENT) if seat == 0 else (OPPONENT, "You")
        game = Game(Rules(), names=names, seed=rng.getrandbits(48))
        players = (Medium(seed=rng.getrandbits(32)), Medium(seed=rng.getrandbits(32)))
        positions = _positions(game, seat, players, rng.randint(1, MOST_DEALS))
        rng.shuffle(positions)
        for view in positions:
            advice = coach.advise(view)
            if isinstance(advice, PlayAdvice) and _matters(view, advice):
                return PlayChoiceDrill(view, advice)


def judge_play_choice(drill: PlayChoiceDrill, card: Card) -> PlayChoiceResult:
    """Judge laying ``card``; a card the seat may not lay raises the game's `IllegalActionError` and its sentence."""
    view = drill.view
    check_play(card, view.hand, view.count)
    return PlayChoiceResult(drill, card, Decision(view, (card,), drill.advice))
