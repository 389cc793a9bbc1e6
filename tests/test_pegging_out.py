"""Pegging out: a computer player that holds a card which wins the game the moment it is laid always lays it."""

from __future__ import annotations

import random

import pytest

from audiocrib import Card, Game, Rules
from audiocrib.bots.base import points_now, winning_card
from audiocrib.bots.beginner import Beginner
from audiocrib.bots.levels import LEVELS
from audiocrib.engine.actions import Play
from audiocrib.engine.events import GameWon, HandShown
from audiocrib.engine.game import Phase
from tests.helpers import TABLES, plays, random_action, stacked, start_play

SENSIBLE = [level for level, cls in LEVELS.items() if cls.takes_the_game]


def test_every_level_but_the_beginner_takes_the_game() -> None:
    # The beginner plays at random on purpose (docs/bots.md); every other level must peg out when it can.
    assert SENSIBLE == ["easy", "medium", "expert"]
    assert not Beginner.takes_the_game


@pytest.mark.parametrize("level", SENSIBLE)
def test_the_reported_position_at_120_of_121(level: str) -> None:
    # The expert at 120 held 7S 9S 5D after 4D 6S 5S and laid the 9S; the 7S (a run of four) or the 5D (a pair)
    # wins at once.
    game = start_play(stacked(["6S 7S 9S 5D KH QH", "4D 5S 2C 3C JD JC"], dealer=0, scores=(120, 100)),
                      ["KH QH", "JD JC"], "AS")
    plays(game, "1:4D 0:6S 1:5S")
    view = game.view(0)
    assert view.scores[0] == 120 and view.count == 15
    assert [points_now(view, Card.parse(c)) for c in ("7S", "9S", "5D")] == [4, 0, 2]
    for seed in range(5):
        card = LEVELS[level](seed=seed).play(view)
        assert card in (Card.parse("7S"), Card.parse("5D")), (seed, card)
        assert any(isinstance(e, GameWon) and e.side == 0 for e in game.replayed().apply(Play(0, card)))


def test_one_for_last_counts_when_nobody_else_can_lay_a_card() -> None:
    # At 22 seat 1 holds only ten-cards and has said go; seat 0 holds 7C and KS: the seven makes 29, nobody can
    # follow it, and the last card takes one: enough from 120, not from 119.
    for start, wins in ((120, True), (119, False)):
        game = start_play(stacked(["9C 3H 7C KS QH JH", "TD QC KC KD 8S 8D"], dealer=1, scores=(start, 100)),
                          ["QH JH", "8S 8D"], "AS")
        plays(game, "0:9C 1:TD 0:3H")
        view = game.view(0)
        assert view.said_go == {1} and view.count == 22
        assert points_now(view, Card.parse("7C")) == 1
        assert winning_card(view) == (Card.parse("7C") if wins else None)


def _wins_at_once(game: Game, seat: int, card: Card) -> bool:
    """The engine's own answer: laying ``card`` wins the game for ``seat``'s side before any hand is shown."""
    for event in game.replayed().apply(Play(seat, card)):
        if isinstance(event, HandShown):
            return False
        if isinstance(event, GameWon):
            return event.side == game.rules.side_of(seat)
    return False


def test_a_winning_card_is_always_laid_in_random_positions() -> None:
    """Random matches to 31 (three games each) at every table; wherever a card laid would score enough to win the
    game at once, every sensible level must lay one that does."""
    rng = random.Random(17)
    bots = {level: LEVELS[level](seed=1) for level in SENSIBLE}
    checked = 0
    for round_ in range(40):
        if checked >= 200:
            break
        for rules in TABLES:
            table = Rules(variant=rules.variant, players=rules.players, team_size=rules.team_size, target=31,
                          match_games=3)
            game = Game(table, seed=rng.getrandbits(32))
            while not game.over:
                if game.phase is Phase.PLAY and game.turn is not None:
                    seat = game.turn
                    view = game.view(seat)
                    need = table.target - view.scores[view.side]
                    scoring = [c for c in view.playable if points_now(view, c) >= need]
                    winners = [c for c in view.playable if _wins_at_once(game, seat, c)]
                    assert set(scoring) <= set(winners)
                    if scoring:
                        checked += 1
                        for level, bot in bots.items():
                            bot.reseed(round_, checked)
                            card = bot.play(view)
                            assert card in winners, (level, table.describe(), view.series, view.playable, card)
                game.apply(random_action(game, rng))
    assert checked >= 200
