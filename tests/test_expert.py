"""The expert: its pegging search against the engine, its discards for either side's crib, and the board."""

from __future__ import annotations

import copy
import random
from functools import partial

import pytest

from audiocrib import DECK, Card, Game, Rules, parse_cards
from audiocrib.bots.crib import crib_value
from audiocrib.bots.discards import analyse, hand_points
from audiocrib.bots.expert import Expert, _go_floors
from audiocrib.bots.medium import Medium
from audiocrib.bots.pegging import PlaySearch, peg_points
from audiocrib.bots.player import drive
from audiocrib.engine.actions import Discard, Play
from audiocrib.engine.events import LastCard, Played
from audiocrib.engine.game import Phase
from audiocrib.engine.rules import Variant
from audiocrib.engine.scoring import score_play
from audiocrib.engine.views import PlayerView
from tests.helpers import plays, stacked, start_play


def test_peg_points_agree_with_the_scorer_on_random_series() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 3000:
        cards = rng.sample(DECK, rng.randint(1, 8))
        counts = [sum(c.value for c in cards[: i + 1]) for i in range(len(cards))]
        if counts[-1] > 31:
            continue
        ranks = tuple(int(c.rank) for c in cards)
        assert peg_points(ranks, counts[-1]) == score_play(cards).total, cards
        checked += 1


def _engine_best(game: Game, my_side: int) -> int:
    """Exhaustive best play by the engine itself: my side's pegging less the other's, to the end of the play."""
    if game.phase is not Phase.PLAY:
        return 0
    seat = game.turn
    assert seat is not None
    mine = game.rules.side_of(seat) == my_side
    values = []
    for card in {c.rank: c for c in game.playable(seat)}.values():
        child = copy.deepcopy(game)
        before = len(child.events)
        child.apply(Play(seat, card))
        gained = 0
        for event in child.events[before:]:
            if isinstance(event, Played | LastCard):
                gained += event.points if game.rules.side_of(event.seat) == my_side else -event.points
        values.append(gained + _engine_best(child, my_side))
    return max(values) if mine else min(values)


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3), Rules(variant=Variant.FIVE_CARD)],
                         ids=["two", "three", "five-card"])
def test_the_search_plays_the_play_exactly_as_the_engine_does(rules: Rules) -> None:
    """With every hand known and no depth limit, the search's value is the engine's own minimax value."""
    rng = random.Random(rules.players)
    for trial in range(12):
        game = Game(rules, seed=trial)
        while game.phase is Phase.DISCARD:
            seat = min(game.waiting_for())
            view = game.view(seat)
            game.apply(Discard(seat, tuple(rng.sample(view.hand, view.must_discard))))
        if game.phase is not Phase.PLAY:
            continue
        # Play some cards at random so the search starts mid-play, with fewer cards to look through.
        while game.phase is Phase.PLAY and sum(len(game.hand(s)) for s in range(rules.players)) > 5:
            seat = game.turn
            assert seat is not None
            game.apply(Play(seat, rng.choice(game.playable(seat))))
        if game.phase is not Phase.PLAY:
            continue
        seat = game.turn
        assert seat is not None
        side = rules.side_of(seat)
        search = PlaySearch(
            sides=tuple(rules.side_of(s) for s in range(rules.players)), my_side=side, needs=(999,) * rules.sides,
            depth=99, single_series=rules.single_series,
            leaf=partial(_net, side=side),
        )
        view = game.view(seat)
        hands = tuple(tuple(int(c.rank) for c in game.hand(s)) for s in range(rules.players))
        last = view.series[-1][0] if view.series else None
        series = tuple(int(c.rank) for _, c in view.series)
        values = search.root(hands, series, view.count, seat, last, frozenset(view.said_go))
        assert max(values.values()) == _engine_best(game, side)


def _net(gains: tuple[int, ...], over: bool, side: int) -> float:
    return gains[side] - sum(g for i, g in enumerate(gains) if i != side)


def _view_after(hands: list[str], discards: list[str], moves: str, dealer: int = 1, starter: str = "AS",
                scores: tuple[int, ...] = ()) -> PlayerView:
    game = start_play(stacked(hands, dealer=dealer, scores=scores), discards, starter)
    if moves:
        plays(game, moves)
    assert game.turn is not None
    return game.view(game.turn)


class TestPegging:
    def test_takes_thirty_one(self) -> None:
        # Count 22 on 7D 7C 8H: the nine makes 31 and a run of three.
        view = _view_after(["7C 7S 9D KH QS JS", "7D 8H 2C 3C 4D 5D"], ["QS JS", "4D 5D"], "1:7D 0:7C 1:8H",
                           dealer=0)
        for seed in range(3):
            assert Expert(seed=seed).play(view) == Card.parse("9D")

    def test_does_not_lead_a_five(self) -> None:
        view = _view_after(["5C 9S KH 3D QS JS", "8H 2C 3C 9D 4D 5D"], ["QS JS", "4D 5D"], "")
        for seed in range(3):
            assert Expert(seed=seed).play(view) != Card.parse("5C")

    def test_pegs_out_when_it_can_instead_of_taking_more_points_later(self) -> None:
        # Seat 0 needs 2 to win; the eight on the seven makes fifteen and the game, whatever follows, and so does
        # the seven (a pair); the six scores nothing.
        view = _view_after(["7C 8S 6S KH QS JS", "7D 8H 2C 3C 4D 5D"], ["QS JS", "4D 5D"], "1:7D",
                           dealer=0, scores=(119, 100))
        assert view.scores == (119, 100)
        assert Expert(seed=1).play(view) in (Card.parse("8S"), Card.parse("7C"))

    def test_reads_a_go_no_card_of_the_player_fits(self) -> None:
        # Seat 1 said go at 29: it holds no ace or two.
        game = start_play(stacked(["TC JC 2S AS 3S 4S", "9D 9H 8C 7C 6S 5H"], dealer=0), ["3S 4S", "6S 5H"], "KH")
        plays(game, "1:9D 0:TC 1:8C 0:2S")
        assert game.turn == 0 and game.count == 29
        view = game.view(0)
        assert _go_floors(view) == {1: 3}
        worlds = Expert(seed=3)._worlds(view)
        assert len(worlds) > 1 and all(min(hands[1]) >= 3 for hands, _, _ in worlds)
        assert any(min(hands[1]) < 3 for hands, _, _ in Expert(seed=3)._worlds(game.view(0), floors={}))


class TestDiscards:
    def test_weighs_the_crib_for_its_own_side_and_against_the_other(self) -> None:
        hand = parse_cards("3C TC KC 2C 5C 2S")
        value = partial(crib_value, crib_size=4)
        for dealer in (0, 1):
            game = stacked([" ".join(map(str, hand)), "AC AD AH 2D 3D 4D"], dealer=dealer)
            view = game.view(0)
            best = analyse(hand, 2, dealer=dealer == 0, crib_value=value)[0]
            assert set(Expert(seed=1).discard(view)) == set(best.discard)
        mine = analyse(hand, 2, dealer=True, crib_value=value)[0].discard
        theirs = analyse(hand, 2, dealer=False, crib_value=value)[0].discard
        assert set(mine) != set(theirs)

    def test_feeds_its_partners_crib_and_never_the_other_teams(self) -> None:
        rules = Rules(players=4, team_size=2)
        hand = "5H 5S JD 9C 2H"
        others = ["AC AD AH 2D 3D", "4D 6D 7D 8D TD", "KC KD KH KS QH"]
        for dealer, mine in ((2, True), (1, False), (0, True), (3, False)):
            hands = [hand, *others]
            game = stacked(hands, dealer=dealer, rules=rules)
            view = game.view(0)
            assert view.my_crib is mine
            best = analyse(parse_cards(hand), 1, dealer=mine, crib_value=partial(crib_value, crib_size=4))[0]
            assert Expert(seed=1).discard(view) == best.discard
            if not mine:
                assert Card.parse("5H") not in best.discard and Card.parse("5S") not in best.discard

    def test_near_the_end_the_pone_lays_away_to_count_out(self) -> None:
        hand = parse_cards("7H 8H 8S 9D KC QC")
        view = stacked([" ".join(map(str, hand)), "AC AD AH 2D 3D 4D"], dealer=1, scores=(111, 60)).view(0)
        need = 121 - 111 - 2  # two points expected from the play
        options = analyse(hand, 2, dealer=False, crib_value=partial(crib_value, crib_size=4))
        unseen = [c for c in DECK if c not in hand]

        def chance(keep: tuple[Card, ...]) -> float:
            return sum(hand_points(keep, s) >= need for s in unseen) / len(unseen)

        chosen = Expert(seed=1).discard(view)
        kept = tuple(c for c in hand if c not in chosen)
        assert chance(kept) == max(chance(o.keep) for o in options)


def test_counting_mistakes_are_short_counts_at_the_given_rate_and_never_change_the_play() -> None:
    from audiocrib.engine.events import Discarded, HandShown

    def first_deal(rate: float) -> tuple[object, ...]:
        game = Game(Rules(manual_counting=True), seed=11, manual_seats=[0, 1])
        drive(game, [Expert(seed=1, count_mistakes=rate), Medium(seed=2)], until_deals=1)
        first_show = next(i for i, e in enumerate(game.events) if isinstance(e, HandShown))
        return tuple(e for e in game.events[:first_show] if isinstance(e, Discarded | Played))

    assert first_deal(0.0) == first_deal(0.5) == first_deal(1.0)
    game = Game(Rules(manual_counting=True, target=241), seed=3, manual_seats=[0, 1])
    drive(game, [Medium(seed=1, count_mistakes=1.0), Medium(seed=2, count_mistakes=0.25)])
    shown = [e for e in game.events if isinstance(e, HandShown)]
    sure = [e for e in shown if e.seat == 0 and e.score.total > 0]
    assert sure and all(e.claimed is not None and e.claimed < e.score.total for e in sure)
    sometimes = [e for e in shown if e.seat == 1 and e.score.total > 0]
    short = sum(e.claimed is not None and e.claimed < e.score.total for e in sometimes)
    assert 0 < short < len(sometimes)
    with pytest.raises(ValueError, match="share from 0 to 1"):
        Medium(count_mistakes=1.5)


def test_the_expert_is_repeatable_and_plays_every_variant() -> None:
    def run(rules: Rules) -> tuple[object, ...]:
        game = Game(rules, seed=4)
        return drive(game, [Expert(seed=s) for s in range(rules.players)], until_deals=2).events

    for rules in (Rules(variant=Variant.FIVE_CARD), Rules(variant=Variant.SEVEN_CARD), Rules(players=6)):
        assert run(rules) == run(rules)
