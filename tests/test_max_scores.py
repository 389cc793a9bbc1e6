"""The best possible count of a hand or crib of 3, 4 and 5 cards, derived by exhaustive search, not from any text.

Fifteens, pairs and runs depend only on ranks (`rank_points`); suits add at most a flush (n + 1 points for n hand
cards) and nobs (1: only one jack can match the starter's suit). So ``rank_points + (n + 1) + 1`` bounds every
deal of a rank multiset. The search visits the multisets of n + 1 ranks in descending bound order and scores
every real choice of suits and starter with `score_hand` while the bound can still beat the best found; once no
bound can, the best found is the best there is.

The texts' claims checked here: seed 001 (classic) "The highest possible single score (29) in Five-Card Cribbage
is obtainable in a Crib containing J,5,5,5 with the Start card another 5 the same suit as the Jack"; seed 002
(Hoyle) "The highest possible score ... is 29"; seed 003 (PlayRoom) the same 29, "there isn't any hand totalizing
19 points", and for six players (five-card hands) "The best possible hand in that setting is 39 points", which
the search beats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement, product

import pytest

from audiocrib import Card, ScoreKind, Suit, parse_cards, score_hand
from audiocrib.engine.cards import Rank
from audiocrib.engine.scoring import HAND_SIZES, MAX_SCORE, rank_points
from audiocrib.engine.tables import distribution


def rank_multisets(size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` ranks (1-13), sorted, with no rank more than four times."""
    for ranks in combinations_with_replacement(range(1, 14), size):
        if max(Counter(ranks).values()) <= 4:
            yield ranks


def deals_of(ranks: tuple[int, ...]) -> Iterator[tuple[tuple[Card, ...], Card]]:
    """Every (hand, starter) with exactly these ranks: each choice of suits, each card as the starter."""
    counts = sorted(Counter(ranks).items())
    suit_choices = [list(combinations(tuple(Suit), count)) for _, count in counts]
    for picked in product(*suit_choices):
        cards = tuple(
            Card(Rank(rank), suit) for (rank, _), suits in zip(counts, picked, strict=True) for suit in suits
        )
        for i, starter in enumerate(cards):
            yield cards[:i] + cards[i + 1:], starter


@dataclass(frozen=True)
class Best:
    """The outcome of a search: the best count, a deal that makes it, and how much work the bound saved."""

    points: int
    hand: tuple[Card, ...]
    starter: Card
    multisets: int
    searched: int


@cache
def bounded_multisets(n: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """``(bound, ranks)`` for every multiset of n + 1 ranks, highest bound first."""
    return tuple(sorted(((rank_points(r) + (n + 1) + 1, r) for r in rank_multisets(n + 1)), reverse=True))


@cache
def best_count(n: int, crib: bool) -> Best:
    """The best count of an ``n``-card hand (or crib) with a starter, by bounded exhaustive search."""
    bounded = bounded_multisets(n)
    best: tuple[int, tuple[Card, ...], Card] | None = None
    searched = 0
    for bound, ranks in bounded:
        if best is not None and bound <= best[0]:
            break
        searched += 1
        rank_only = rank_points(ranks)
        for hand, starter in deals_of(ranks):
            score = score_hand(hand, starter, crib)
            suited = sum(item.points for item in score.of_kind(ScoreKind.FLUSH, ScoreKind.NOBS))
            # The bound is sound only if the rank-only part is exactly rank_points and suits add at most n + 2.
            assert score.total - suited == rank_only, (hand, starter)
            assert suited <= (n + 1) + 1
            if best is None or score.total > best[0]:
                best = (score.total, hand, starter)
    assert best is not None
    return Best(best[0], best[1], best[2], len(bounded), searched)


class TestExhaustiveMaximum:
    @pytest.mark.parametrize("crib", [False, True], ids=["hand", "crib"])
    @pytest.mark.parametrize("n", HAND_SIZES)
    def test_max_score_table_is_the_searched_best(self, n: int, crib: bool) -> None:
        best = best_count(n, crib)
        assert best.points == MAX_SCORE[n]
        assert score_hand(best.hand, best.starter, crib).total == best.points
        assert 0 < best.searched < best.multisets  # the bound did prune, and something was searched

    def test_max_score_table_values(self) -> None:
        assert MAX_SCORE == {3: 20, 4: 29, 5: 46}

    def test_multiset_counts(self) -> None:
        """Sizes of the search spaces: multisets of 4, 5 and 6 ranks with at most four of a rank."""
        assert [sum(1 for _ in rank_multisets(n + 1)) for n in HAND_SIZES] == [1820, 6175, 18395]

    def test_every_deal_of_a_multiset_is_enumerated(self) -> None:
        """5-5-5-5-J: one way to suit the fives, four for the jack, five choices of starter."""
        deals = list(deals_of((5, 5, 5, 5, 11)))
        assert len(deals) == 4 * 5
        assert len({(frozenset(hand), starter) for hand, starter in deals}) == 20
        assert len(list(deals_of((1, 2, 3, 4)))) == 4**4 * 4


class TestWitnesses:
    def test_three_cards_5_5_5_with_a_5_is_20(self) -> None:
        score = score_hand(parse_cards("5C 5D 5H"), Card.parse("5S"))
        assert score.total == 20 == MAX_SCORE[3]

    @pytest.mark.parametrize("crib", [False, True], ids=["hand", "crib"])
    def test_29_is_5_5_5_j_with_the_fourth_5_of_the_jacks_suit(self, crib: bool) -> None:
        score = score_hand(parse_cards("5C 5D 5H JS"), Card.parse("5S"), crib)
        assert score.total == 29 == MAX_SCORE[4]
        assert len(score.of_kind(ScoreKind.FIFTEEN)) == 8
        assert [item.points for item in score.of_kind(ScoreKind.NOBS)] == [1]

    def test_the_same_hand_with_a_jack_of_another_suit_is_28(self) -> None:
        assert score_hand(parse_cards("5C 5D 5S JH"), Card.parse("5H")).total == 29
        assert score_hand(parse_cards("5C 5D 5S JC"), Card.parse("5H")).total == 28

    def test_only_four_deals_make_29(self) -> None:
        """The four 29s of the published table are all 5-5-5-5-J deals with the jack of the starter's suit."""
        nines = [deal for deal in deals_of((5, 5, 5, 5, 11)) if score_hand(*deal).total == 29]
        assert len(nines) == 4 == distribution()[29]
        assert all(starter.rank == Rank.FIVE for _, starter in nines)

    @pytest.mark.parametrize("crib", [False, True], ids=["hand", "crib"])
    def test_46_is_4_4_5_5_6_with_a_6(self, crib: bool) -> None:
        score = score_hand(parse_cards("4C 4D 5H 5S 6C"), Card.parse("6D"), crib)
        assert score.total == 46 == MAX_SCORE[5]
        runs = score.of_kind(ScoreKind.RUN)
        assert len(runs) == 8 and all(item.points == 3 for item in runs)  # eight runs of three: 24
        assert len(score.of_kind(ScoreKind.PAIR)) == 3  # three pairs: 6
        assert len(score.of_kind(ScoreKind.FIFTEEN)) == 8  # eight fifteens: 16

    def test_46_needs_two_of_each_rank(self) -> None:
        """4-5-5-6-6 with a 4 starter is the same 46; 4-4-5-5-6 with a 4 starter is not (it is 4-4-4-5-5-6)."""
        assert score_hand(parse_cards("4C 5H 5S 6C 6D"), Card.parse("4D")).total == 46
        assert score_hand(parse_cards("4C 4D 5H 5S 6C"), Card.parse("4H")).total == 38


class TestTextClaims:
    def test_seed_001_the_five_card_best_is_29_in_the_crib(self) -> None:
        """seed 001 (classic): in five-card cribbage the hand has 3 cards and the crib 4, so the best single count,
        29, can only be a crib's."""
        assert best_count(3, False).points == 20 < 29
        assert best_count(4, True).points == 29

    def test_seed_002_and_003_the_best_hand_is_29(self) -> None:
        assert best_count(4, False).points == 29
        best = best_count(4, False)
        assert sorted(int(c.rank) for c in (*best.hand, best.starter)) == [5, 5, 5, 5, 11]

    def test_seed_003_playrooms_39_is_not_the_maximum(self) -> None:
        """seed 003 (PlayRoom), line 97: with six players "all hands as well as the cribe have 5 cards ... The best
        possible hand in that setting is 39 points." 5-5-5-J-J with the fourth 5 of a jack's suit is indeed 39
        (the best of the fives and jacks), but 4-4-5-5-6 with a 6 is 46."""
        playroom = score_hand(parse_cards("5C 5D 5H JS JH"), Card.parse("5S"))
        assert playroom.total == 39
        assert max(score_hand(*deal).total for deal in deals_of((5, 5, 5, 5, 11, 11))) == 39
        best = best_count(5, False)
        assert best.points == 46 > 39
        assert sorted(int(c.rank) for c in (*best.hand, best.starter)) == [4, 4, 5, 5, 6, 6]


class TestImpossibleFourCardScores:
    @pytest.mark.parametrize("crib", [False, True], ids=["hands", "cribs"])
    def test_19_25_26_27_are_impossible_and_nothing_else_is(self, crib: bool) -> None:
        """seed 003 (PlayRoom), line 87: "there isn't any hand totalizing 19 points"; rules.md adds 25, 26, 27."""
        table = distribution(crib)
        assert len(table) == 30  # 0 to 29
        assert sum(table) == 12_994_800
        assert {points for points, ways in enumerate(table) if ways == 0} == {19, 25, 26, 27}
