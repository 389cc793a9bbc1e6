"""Computer players: legal moves at every table, repeatable for a seed, only their own view, and the analysis."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from audiocrib import DECK, Card, Game, IllegalActionError, Rules, parse_cards, score_hand
from audiocrib.bots.beginner import Beginner
from audiocrib.bots.discards import analyse, points_without_starter
from audiocrib.bots.easy import Easy
from audiocrib.bots.levels import LEVELS
from audiocrib.bots.player import Player, PlayerError, drive, load_player
from audiocrib.engine.events import GameWon, HandShown, PointsGiven
from audiocrib.engine.views import PlayerView
from tests.helpers import TABLES


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("rules", TABLES, ids=[r.describe() for r in TABLES])
def test_bots_play_whole_matches_at_every_table_without_an_illegal_move(level: str, rules: Rules) -> None:
    for seed in range(3):
        game = Game(rules, seed=seed)
        players = [load_player(level, seed=seed * 10 + s) for s in range(rules.players)]
        drive(game, players)  # an illegal move would raise IllegalActionError
        assert game.over
        assert any(isinstance(e, GameWon) for e in game.events)


@pytest.mark.parametrize("rules", TABLES, ids=[r.describe() for r in TABLES])
def test_no_bot_makes_an_illegal_move_over_thousands_of_deals(rules: Rules) -> None:
    """12 tables x 24 seeds x 8 deals: 2,304 deals, every level in every seat in turn (an illegal move raises)."""
    levels = list(LEVELS)
    deals = 0
    for seed in range(24):
        game = Game(rules.__class__(**{**rules.to_json(), "target": 1000}), seed=seed)
        players = [load_player(levels[(seed + s) % len(levels)], seed=seed * 8 + s) for s in range(rules.players)]
        drive(game, players, until_deals=8)
        deals += game.deal_number - 1
    assert deals == 24 * 8


@pytest.mark.parametrize("level", list(LEVELS))
def test_bots_count_correctly_when_counting_by_hand(level: str) -> None:
    rules = Rules(players=3, manual_counting=True)
    game = Game(rules, seed=5, manual_seats=[0, 1, 2])
    drive(game, [load_player(level, seed=s) for s in range(3)])
    shown = [e for e in game.events if isinstance(e, HandShown)]
    assert shown and all(e.claimed == e.score.total for e in shown)
    assert not any(isinstance(e, PointsGiven) for e in game.events)


@pytest.mark.parametrize("level", list(LEVELS))
def test_a_bot_is_repeatable_for_a_seed(level: str) -> None:
    def run(seed: int) -> tuple[object, ...]:
        game = Game(Rules(players=4, team_size=2), seed=77)
        return drive(game, [load_player(level, seed=seed + s) for s in range(4)]).events

    assert run(1) == run(1)


class Spy(Beginner):
    """Records every argument the game gives it."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen: list[object] = []

    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        self.seen.append(view)
        return super().discard(view)

    def play(self, view: PlayerView) -> Card:
        self.seen.append(view)
        return super().play(view)


def test_a_bot_is_given_its_own_view_and_nothing_else() -> None:
    game = Game(Rules(players=3), seed=3)
    spies = [Spy(seed) for seed in range(3)]
    drive(game, spies, until_deals=2)
    for seat, spy in enumerate(spies):
        assert spy.seen
        for view in spy.seen:
            assert type(view) is PlayerView and view.seat == seat
            hand_in_view = set(view.hand)
            # What the view names of the current deal is only its own cards and public ones.
            others = {c for e in view.events[-1:] for c in getattr(e, "cards", ())}
            assert hand_in_view.isdisjoint(others - hand_in_view)


def test_a_bot_that_answers_illegally_is_refused_like_a_person() -> None:
    class Cheat(Beginner):
        def discard(self, view: PlayerView) -> tuple[Card, ...]:
            return (next(c for c in DECK if c not in view.hand),)

    with pytest.raises(IllegalActionError):
        drive(Game(seed=1), [Cheat(1), Cheat(2)])


def test_loading_players_by_name() -> None:
    assert isinstance(load_player("beginner", seed=1), Beginner)
    assert isinstance(load_player("audiocrib.bots.easy:Easy", seed=1), Easy)
    assert isinstance(load_player("easy"), Player)
    with pytest.raises(PlayerError, match="the levels are beginner, easy"):
        load_player("grandmaster")
    with pytest.raises(PlayerError, match="does not have the discard, play and count methods"):
        load_player("collections:OrderedDict")


class TestEasy:
    def test_takes_the_points_in_front_of_it(self) -> None:
        from audiocrib.engine.actions import Play
        from tests.helpers import stacked, start_play

        game = stacked(["7C 2S 9S KH QS JS", "8H 2C 3C 9D 4D 5D"], dealer=1)
        game = start_play(game, ["QS JS", "4D 5D"], "AS")
        game.apply(Play(0, Card.parse("7C")))
        assert game.view(1).playable == parse_cards("8H 2C 3C 9D")
        for seed in range(5):
            assert Easy(seed=seed).play(game.view(1)) == Card.parse("8H")  # fifteen two; nothing else scores

    def test_prefers_thirty_one_and_a_run(self) -> None:
        from audiocrib.engine.actions import Play
        from tests.helpers import stacked, start_play

        game = stacked(["7C 7S 9D KH QS JS", "7D 8H 2C 3C 4D 5D"], dealer=0)
        game = start_play(game, ["QS JS", "4D 5D"], "AS")
        game.apply(Play(1, Card.parse("7D")))
        game.apply(Play(0, Card.parse("7C")))
        game.apply(Play(1, Card.parse("8H")))
        # Count 22 on 7D 7C 8H: the 9D makes 31 and a run of three (5); the 7S scores nothing.
        assert game.view(0).playable == parse_cards("7S 9D")
        for seed in range(5):
            assert Easy(seed=seed).play(game.view(0)) == Card.parse("9D")

    def test_keeps_what_already_scores_best(self) -> None:
        hand = parse_cards("5H 5S 5C JD 4H 6C")
        best = max(points_without_starter(k) for k in combinations(hand, 4))
        for seed in range(5):
            thrown = Easy(seed=seed).discard(_discard_view(hand))
            kept = [c for c in hand if c not in thrown]
            assert points_without_starter(kept) == best == 14


def _discard_view(hand: tuple[Card, ...]) -> PlayerView:
    from tests.helpers import stacked

    rest = [c for c in DECK if c not in hand]
    other = " ".join(str(c) for c in rest[:6])
    game = stacked([" ".join(str(c) for c in hand), other], dealer=1)
    return game.view(0)


class TestAnalysis:
    @pytest.mark.parametrize(("dealt", "discard"), [(6, 2), (5, 2), (5, 1), (7, 2), (6, 1), (4, 1)])
    def test_agrees_with_brute_force_on_sampled_deals(self, dealt: int, discard: int) -> None:
        rng = random.Random(dealt * 10 + discard)
        for _ in range(3):
            hand = tuple(rng.sample(DECK, dealt))
            options = analyse(hand, discard)
            assert len(options) == len(list(combinations(hand, dealt - discard)))
            unseen = [c for c in DECK if c not in hand]
            for option in options[:3] + options[-2:]:
                brute = sum(score_hand(option.keep, s).total for s in unseen) / len(unseen)
                assert option.expected_hand == pytest.approx(brute, abs=1e-12)
                assert sorted(option.keep + option.discard) == sorted(hand)
            nets = [o.net for o in options]
            assert nets == sorted(nets, reverse=True)

    def test_crib_is_added_for_the_dealer_and_taken_away_for_the_pone(self) -> None:
        hand = parse_cards("5H 5S 5C JD 4H 6C")

        def crib(cards: tuple[Card, ...], mine: bool) -> float:
            return 10.0 if Card.parse("4H") in cards else 0.0

        dealer = analyse(hand, 2, dealer=True, crib_value=crib)
        pone = analyse(hand, 2, dealer=False, crib_value=crib)
        for options, sign in ((dealer, 1), (pone, -1)):
            for option in options:
                assert option.expected_crib is not None
                assert option.net == pytest.approx(option.expected_hand + sign * option.expected_crib)
        assert Card.parse("4H") in dealer[0].discard
        assert Card.parse("4H") not in pone[0].discard

    def test_bad_requests_are_refused(self) -> None:
        from audiocrib import CardError

        with pytest.raises(CardError):
            analyse(parse_cards("5H 5S 5C"), 2)
        with pytest.raises(CardError):
            analyse((Card.parse("5H"), Card.parse("5H"), *parse_cards("5C 6D 7S 8H")), 2)


class TestMedium:
    def _view_after(self, hands: list[str], discards: list[str], moves: str, dealer: int = 1) -> PlayerView:
        from tests.helpers import plays, stacked, start_play

        game = start_play(stacked(hands, dealer=dealer), discards, "AS")
        if moves:
            plays(game, moves)
        assert game.turn is not None
        return game.view(game.turn)

    def test_does_not_lead_a_five_and_prefers_a_low_lead(self) -> None:
        from audiocrib.bots.medium import Medium

        view = self._view_after(["5C 9S KH 3D QS JS", "8H 2C 3C 9D 4D 5D"], ["QS JS", "4D 5D"], "")
        assert view.playable == parse_cards("5C 9S KH 3D")
        for seed in range(5):
            assert Medium(seed=seed).play(view) == Card.parse("3D")

    def test_avoids_leaving_twenty_one(self) -> None:
        from audiocrib.bots.medium import Medium

        # Count 12 after 7C 5H (seat 0 led the seven): the nine would leave 21, the eight 20.
        view = self._view_after(["7C 2S 9S KH QS JS", "5H 8H 9D 2C 4D 5D"], ["QS JS", "4D 5D"], "0:7C 1:5H")
        assert view.count == 12 and set(view.playable) == set(parse_cards("2S 9S KH"))
        for seed in range(5):
            assert Medium(seed=seed).play(view) != Card.parse("9S")

    def test_takes_the_points_in_front_of_it(self) -> None:
        from audiocrib.bots.medium import Medium

        view = self._view_after(["7C 2S 9S KH QS JS", "8H 2C 3C 9D 4D 5D"], ["QS JS", "4D 5D"], "0:7C")
        for seed in range(5):
            assert Medium(seed=seed).play(view) == Card.parse("8H")

    def test_lays_away_for_the_best_expected_hand(self) -> None:
        from audiocrib.bots.medium import Medium

        hand = parse_cards("5H 5S 5C JD 4H 6C")
        thrown = Medium(seed=1).discard(_discard_view(hand))
        assert set(thrown) == set(parse_cards("4H 6C")) == set(analyse(hand, 2)[0].discard)
