"""The coach's choice is the expert's: a seat that follows the advice at every decision plays as the expert plays.

Whole matches at every table shape (`tests.helpers.TABLES`, short targets so they take seconds): seat 0 lays away
and lays the cards the coach advises, and at each of those decisions an expert reseeded from the same position
(`advice_seed`) is asked too; they must agree every time. The other seats are medium players, which makes varied
positions quickly.
"""

from __future__ import annotations

import dataclasses

import pytest

from audiocrib.bots.expert import Expert
from audiocrib.bots.medium import Medium
from audiocrib.bots.player import drive
from audiocrib.coach import Coach, LayAwayAdvice, PlayAdvice, advice_seed
from audiocrib.engine.cards import Card
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from tests.helpers import TABLES


class Coached(Expert):
    """A seat that does what the coach advises, and checks it against a freshly reseeded expert each time."""

    def __init__(self) -> None:
        super().__init__()
        self.coach = Coach()
        self.decisions = {"lay-away": 0, "play": 0}
        self.disagreements: list[str] = []

    def _expert(self, view: PlayerView) -> Expert:
        expert = Expert()
        expert.reseed(*advice_seed(view))
        return expert

    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        advice = self.coach.advise(view)
        assert isinstance(advice, LayAwayAdvice)
        expert = set(self._expert(view).discard(view))
        self.decisions["lay-away"] += 1
        if set(advice.best.discard) != expert:
            self.disagreements.append(f"deal {view.deal_number}: lay away {advice.best.discard} / {expert}")
        return advice.best.discard

    def play(self, view: PlayerView) -> Card:
        advice = self.coach.advise(view)
        assert isinstance(advice, PlayAdvice)
        expert = self._expert(view).play(view)
        self.decisions["play"] += 1
        if advice.best.card != expert:
            self.disagreements.append(f"deal {view.deal_number}, count {view.count}: {advice.best.card} / {expert}")
        return advice.best.card


def _short(rules: Rules) -> Rules:
    """The same table to 61: a match of a few deals."""
    return dataclasses.replace(rules, target=61)


@pytest.mark.parametrize("rules", TABLES, ids=[_short(r).describe() for r in TABLES])
def test_following_the_advice_is_playing_as_the_expert(rules: Rules) -> None:
    coached = Coached()
    for seed in (27, 28):
        others = [Medium(seed=seat) for seat in range(1, rules.players)]
        assert drive(Game(_short(rules), seed=seed), [coached, *others]).over
    assert coached.disagreements == []
    assert coached.decisions["lay-away"] >= 4 and coached.decisions["play"] >= 10
