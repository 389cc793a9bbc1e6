"""Every settlement of a manual count (rules.md, "Manual counting"), at every kind of table.

Under-count, over-count (with and without its penalty) and the timer, for two players, two teams, and three
players each for themselves; and points given away that end the game.
"""

from __future__ import annotations

import random

import pytest

from audiocrib.engine.actions import ClaimCount, CountTimeout
from audiocrib.engine.events import CountRequested, GameWon, HandShown, PointsGiven
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import score_hand
from tests.helpers import random_action, stacked, start_play

TABLES = {
    "two players": (Rules(manual_counting=True, count_timer=30), ["7H 8H 8C 2D QS KS", "AC 3C 9D TD 4S 6S"],
                    ["QS KS", "4S 6S"], 1),
    "teams": (Rules(players=4, team_size=2, manual_counting=True, count_timer=30),
              ["7H 8H 8C 2D QS", "AC 3C 9D TD 4S", "KD QD JC 6D 6C", "9S 9H AD 2C 3D"], ["QS", "4S", "6C", "3D"], 3),
    "three players": (Rules(players=3, manual_counting=True, count_timer=30),
                      ["7H 8H 8C 2D QS", "AC 3C 9D TD 4S", "KD QD JC 6D 6C"], ["QS", "4S", "6C"], 2),
}


def to_count(rules: Rules, hands: list[str], discards: list[str], dealer: int, scores: tuple[int, ...] = ()) -> Game:
    game = stacked(hands, dealer=dealer, rules=rules, manual_seats=[0], scores=scores,
                   crib="9S" if rules.players == 3 else "")
    game = start_play(game, discards, "5S")
    rng = random.Random(0)
    while game.phase is Phase.PLAY:
        game.apply(random_action(game, rng))
    return game


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("settlement", ["right", "under", "over", "over without penalty", "timer"])
def test_each_settlement_pegs_and_gives_as_the_rules_say(table: str, settlement: str) -> None:
    rules, hands, discards, dealer = TABLES[table]
    if settlement == "over without penalty":
        rules = Rules(**{**rules.to_json(), "overcount_penalty": False})
    game = to_count(rules, hands, discards, dealer)
    assert game.counting == (0, False)
    asked = game.events[-1]
    assert isinstance(asked, CountRequested)
    true = score_hand(asked.cards, asked.starter).total
    assert true == 10  # 7H 8H 8C 2D with the 5S
    claim = {"right": 10, "under": 7, "over": 13, "over without penalty": 13}.get(settlement)
    before = game.scores
    events = game.apply(CountTimeout(0) if claim is None else ClaimCount(0, claim))
    shown = events[0]
    assert isinstance(shown, HandShown)
    given = [e for e in events if isinstance(e, PointsGiven)]
    expected_peg, expected_given, reason = {
        "right": (10, 0, ""), "under": (7, 3, "missed"), "over": (10, 3, "over-counted"),
        "over without penalty": (10, 0, ""), "timer": (5, 5, "timer"),
    }[settlement]
    assert shown.pegged == expected_peg
    receiver = rules.opponent_of(0)
    assert [(g.seat, g.offender, g.given, g.reason) for g in given] == (
        [(receiver, 0, expected_given, reason)] if expected_given else [])
    assert rules.side_of(receiver) != rules.side_of(0)
    if table == "three players":
        assert receiver == 1  # the next opponent clockwise
    mine, theirs = rules.side_of(0), rules.side_of(receiver)
    if rules.team_size == 1:  # at a team table the partner's hand, shown next, adds to the same score
        assert game.scores[mine] - before[mine] == expected_peg
    assert game.scores[theirs] - before[theirs] >= expected_given


@pytest.mark.parametrize("table", TABLES)
def test_points_given_away_end_the_game_for_the_receivers(table: str) -> None:
    rules, hands, discards, dealer = TABLES[table]
    receiver_side = rules.side_of(rules.opponent_of(0))
    scores = tuple(112 if side == receiver_side else 0 for side in range(rules.sides))
    game = to_count(rules, hands, discards, dealer, scores=scores)
    assert not game.over and game.counting == (0, False)  # the seeded play leaves them short of 121
    assert game.scores[receiver_side] + 10 >= 121
    events = game.apply(ClaimCount(0, 0))
    won = [e for e in events if isinstance(e, GameWon)]
    assert won and won[0].side == receiver_side
    assert isinstance(events[1], PointsGiven) and events[1].given == 10
