"""Muggins (rules.md, "Manual counting"): computer players count aloud, and a person may take their short counts.

The table: the human in seat 0 (``manual_seats=[0]``), a computer player in seat 1 whose claims the tests make
by hand. Hands from issue 5's example: seat 0 keeps 7H 8H 8C 2D (ten with the 5S starter).
"""

from __future__ import annotations

import random

import pytest

from audiocrib.bots.beginner import Beginner
from audiocrib.bots.player import drive
from audiocrib.engine.actions import CallMuggins, ClaimCount, Discard
from audiocrib.engine.errors import IllegalActionError, RulesError
from audiocrib.engine.events import CountRequested, GameWon, HandShown, MugginsCalled, PointsGiven
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import score_hand
from audiocrib.telling.words import count_aloud
from tests.helpers import random_action, stacked, start_play

HANDS = ["7H 8H 8C 2D QS KS", "AC 3C 9D TD 4S 6S"]


def to_the_show(rules: Rules, scores: tuple[int, ...] = (), hands: list[str] | None = None, dealer: int = 1,
                manual: tuple[int, ...] = (0,)) -> Game:
    hands = hands or HANDS
    game = stacked(hands, dealer=dealer, rules=rules, manual_seats=list(manual), scores=scores)
    keep = rules.shape.hand
    game = start_play(game, [" ".join(h.split()[keep:]) for h in hands], "5S")
    rng = random.Random(0)
    while game.phase is Phase.PLAY:
        game.apply(random_action(game, rng))
    return game


def asked(game: Game) -> CountRequested:
    event = game.events[-1]
    assert isinstance(event, CountRequested)
    return event


def true_count(event: CountRequested) -> int:
    return score_hand(event.cards, event.starter, crib=event.crib).total


def test_the_computer_counts_aloud_and_its_short_count_waits_for_a_call() -> None:
    game = to_the_show(Rules(muggins=True))
    # Seat 0 is the pone and no manual counter: its hand is shown by itself; then seat 1 must claim.
    assert game.counting == (1, False)
    request = asked(game)
    true = true_count(request)
    assert true >= 2
    before = game.scores
    events = game.apply(ClaimCount(1, true - 2))
    shown = events[0]
    assert isinstance(shown, HandShown) and shown.claimed == true - 2 and shown.pegged == true - 2
    assert not any(isinstance(e, PointsGiven) for e in events)  # nothing given away by itself
    assert game.scores[1] - before[1] == true - 2
    # The crib too, then the next deal is dealt; the call is still open.
    game.apply(ClaimCount(1, true_count(asked(game))))
    assert game.phase is Phase.DISCARD
    scores = game.scores
    events = game.apply(CallMuggins(0))
    assert events == (MugginsCalled(0, 1, False, 2),)
    assert game.scores == (scores[0] + 2, scores[1])
    with pytest.raises(IllegalActionError, match="The missed points were taken already"):
        game.apply(CallMuggins(0))  # taken once only


def test_a_second_call_on_a_miss_already_taken_is_refused_free_even_where_wrong_calls_cost() -> None:
    game = to_the_show(Rules(muggins=True, wrong_muggins=1))
    request = asked(game)
    game.apply(ClaimCount(1, true_count(request) - 2))
    game.apply(CallMuggins(0))
    before = game.state_key()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(CallMuggins(0))
    assert str(refused.value) == ("The missed points were taken already; there is nothing more to call muggins on.")
    assert game.state_key() == before  # no point given for it
    # A miss found later in the same show is still open to a call; then the refusal comes again.
    crib = next(e for e in reversed(game.events) if isinstance(e, CountRequested))
    assert crib.crib and true_count(crib) >= 1
    game.apply(ClaimCount(1, true_count(crib) - 1))
    assert game.apply(CallMuggins(0)) == (MugginsCalled(0, 1, True, 1),)
    with pytest.raises(IllegalActionError, match="taken already"):
        game.apply(CallMuggins(0))
    assert game.replayed().state_key() == game.state_key()


def test_a_wrong_call_costs_nothing_by_default_and_changes_nothing() -> None:
    game = to_the_show(Rules(muggins=True))
    game.apply(ClaimCount(1, true_count(asked(game))))
    before = game.state_key()
    with pytest.raises(IllegalActionError, match="Every count was right"):
        game.apply(CallMuggins(0))
    assert game.state_key() == before


def test_a_wrong_call_can_cost_points_to_the_next_opponent() -> None:
    game = to_the_show(Rules(muggins=True, wrong_muggins=2))
    game.apply(ClaimCount(1, true_count(asked(game))))
    before = game.scores
    events = game.apply(CallMuggins(0))
    assert events == (PointsGiven(1, 0, 2, "wrong muggins"),)
    assert game.scores == (before[0], before[1] + 2)


def test_a_wrong_call_is_paid_once_until_another_hand_is_counted() -> None:
    game = to_the_show(Rules(muggins=True, wrong_muggins=1))
    game.apply(ClaimCount(1, true_count(asked(game))))  # the hand, counted right
    assert game.apply(CallMuggins(0)) == (PointsGiven(1, 0, 1, "wrong muggins"),)
    before = game.state_key()
    with pytest.raises(IllegalActionError) as refused:
        game.apply(CallMuggins(0))
    assert str(refused.value) == ("You called muggins already, and every count was right; nothing has been "
                                  "counted since.")
    assert game.state_key() == before  # the second call is free
    crib = next(e for e in reversed(game.events) if isinstance(e, CountRequested))
    game.apply(ClaimCount(1, true_count(crib)))  # the crib, counted right: a new count to judge
    assert game.apply(CallMuggins(0)) == (PointsGiven(1, 0, 1, "wrong muggins"),)
    assert game.replayed().state_key() == game.state_key()


def test_the_call_closes_when_the_next_deal_is_laid_away_and_is_refused_before_any_count() -> None:
    game = to_the_show(Rules(muggins=True))
    game.apply(ClaimCount(1, 0))
    game.apply(ClaimCount(1, 0))
    assert game.phase is Phase.DISCARD
    hand = game.view(1).hand
    game.apply(Discard(1, hand[:2]))
    with pytest.raises(IllegalActionError, match="Muggins is called after a count"):
        game.apply(CallMuggins(0))
    fresh = stacked(HANDS, dealer=1, rules=Rules(muggins=True), manual_seats=[0])
    with pytest.raises(IllegalActionError, match="Muggins is called after a count"):
        fresh.apply(CallMuggins(0))


def test_only_a_table_that_plays_muggins_takes_the_call() -> None:
    game = to_the_show(Rules(manual_counting=True))
    with pytest.raises(IllegalActionError, match="This table does not play muggins"):
        game.apply(CallMuggins(0))
    with pytest.raises(RulesError, match="needs muggins to be on"):
        Rules(wrong_muggins=2)
    with pytest.raises(RulesError, match="from 0 to 5 points"):
        Rules(muggins=True, wrong_muggins=9)


def test_the_human_counting_by_hand_is_still_settled_at_once() -> None:
    game = to_the_show(Rules(manual_counting=True, muggins=True), dealer=0)
    assert game.counting == (1, False)  # the computer first (it is the pone)
    game.apply(ClaimCount(1, true_count(asked(game))))
    assert game.counting == (0, False)
    events = game.apply(ClaimCount(0, 8))  # the hand is ten
    assert events[1] == PointsGiven(1, 0, 2, "missed")
    with pytest.raises(IllegalActionError, match="Every count was right"):
        game.apply(CallMuggins(1))  # a person's miss is not open to a call


def test_a_partner_cannot_take_a_partners_miss() -> None:
    rules = Rules(players=4, team_size=2, muggins=True)
    hands = ["7H 8H 8C 2D QS", "AC 3C 9D TD 4S", "KD QD JC 6D 6C", "9S 9H AD 2C 3D"]
    game = to_the_show(rules, hands=hands, dealer=3)
    assert game.counting == (1, False)  # seat 0 is a person; seats 1 to 3 count aloud
    game.apply(ClaimCount(1, 0))
    request = asked(game)
    assert request.seat == 2
    missed_by_2 = true_count(request)
    game.apply(ClaimCount(2, 0))  # seat 0's partner under-counts
    game.apply(ClaimCount(3, true_count(asked(game))))
    game.apply(ClaimCount(3, true_count(asked(game))))
    events = game.apply(CallMuggins(0))
    assert [e.offender for e in events if isinstance(e, MugginsCalled)] == [1]
    assert missed_by_2 >= 0
    assert all(e.offender != 2 for e in events if isinstance(e, MugginsCalled))


def test_muggins_points_can_win_the_game() -> None:
    game = to_the_show(Rules(muggins=True), scores=(110, 0))
    assert game.scores[0] == 120 and not game.over  # the play and seat 0's hand brought it to 120
    true = true_count(asked(game))
    game.apply(ClaimCount(1, true - 2))
    events = game.apply(CallMuggins(0))
    assert isinstance(events[0], MugginsCalled)
    assert any(isinstance(e, GameWon) and e.side == 0 for e in events)


def test_a_game_with_muggins_saves_and_loads_to_the_same_state() -> None:
    game = Game(Rules(muggins=True, wrong_muggins=1), seed=5, manual_seats=[0])
    rng = random.Random(1)
    calls = 0
    while game.deal_number < 6 and not game.over:
        if game.phase is Phase.COUNT:
            request = asked(game)
            game.apply(ClaimCount(request.seat, max(0, true_count(request) - 1)))
        else:
            if game.can(CallMuggins(0)):
                game.apply(CallMuggins(0))  # right or wrong: both are in the log
                calls += 1
            game.apply(random_action(game, rng))
    assert calls >= 3
    assert any(isinstance(e, MugginsCalled) for e in game.events)
    loaded = Game.loads(game.dumps())
    assert loaded.state_key() == game.state_key()


def test_bots_with_counting_mistakes_play_whole_muggins_games() -> None:
    rules = Rules(muggins=True)
    for seed in range(3):
        game = Game(rules, seed=seed, manual_seats=())
        drive(game, [Beginner(seed=1, count_mistakes=0.5), Beginner(seed=2, count_mistakes=0.5)])
        shown = [e for e in game.events if isinstance(e, HandShown)]
        assert all(e.claimed is not None for e in shown)  # every seat counted aloud
        assert any(e.claimed < e.score.total for e in shown if e.claimed is not None)
        assert Game.loads(game.dumps()).state_key() == game.state_key()


def narrate(game: Game, verbosity: str = "normal") -> list[str]:
    from audiocrib.telling.narrator import Narrator, Verbosity

    return Narrator(("You", "Bob"), game.rules, 0, Verbosity(verbosity)).tell_all(game.view(0).events)


def test_the_computers_count_is_heard_and_the_truth_only_when_muggins_is_called() -> None:
    game = to_the_show(Rules(muggins=True))
    game = Game.from_events(game.events, game.rules, ("You", "Bob"), game.seed, [0])
    request = asked(game)
    true = true_count(request)
    game.apply(ClaimCount(1, true - 2))
    lines = narrate(game)
    cards = " and ".join(c.name for c in sorted(request.cards)).replace(" and ", ", ", len(request.cards) - 2)
    assert lines[-1] == f"Bob's hand: {cards}. Bob counts {number_words(true - 2)}."
    assert narrate(game, "brief")[-1] == f"Bob's hand, {number_words(true - 2)} by Bob's count."
    game.apply(ClaimCount(1, true_count(asked(game))))
    game.apply(CallMuggins(0))
    shown = next(e for e in game.events if isinstance(e, HandShown) and e.seat == 1 and not e.crib)
    assert narrate(game)[-1] == (f"Muggins! You take two that Bob missed. Bob's hand is {number_words(true)}: "
                                 f"{count_aloud(shown.score)}.")
    assert narrate(game, "brief")[-1] == "Muggins! You take two that Bob missed."


def test_a_wrong_call_that_costs_points_is_explained() -> None:
    game = to_the_show(Rules(muggins=True, wrong_muggins=2))
    game = Game.from_events(game.events, game.rules, ("You", "Bob"), game.seed, [0])
    game.apply(ClaimCount(1, true_count(asked(game))))
    game.apply(CallMuggins(0))
    assert narrate(game)[-1] == "You called muggins, but every count was right; Bob pegs two."
