"""Scoring in the show and the play: exhaustive figures, rules.md's rows, and invariants."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audiocrib import DECK, Card, CardError, ScoreKind, parse_cards, score_hand, score_play
from audiocrib.engine.scoring import rank_points
from audiocrib.engine.tables import distribution, mean, pattern_distribution, table_lines

# reference-figures.md: "Every four-card hand with a starter", hand and crib columns.
REFERENCE_HANDS = (
    1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224, 388740, 51680,
    317340, 19656, 90100, 9168, 58248, 11196, 2708, 0, 8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
)
REFERENCE_CRIBS = (
    1022208, 99792, 2839800, 508908, 2868960, 703496, 1787176, 755320, 1118336, 358368, 378240, 43880,
    310956, 16548, 88132, 9072, 57288, 11196, 2264, 0, 7828, 2472, 444, 356, 3680, 0, 0, 0, 76, 4,
)


class TestExhaustiveDistribution:
    """reference-figures.md: all 12,994,800 hands, as hands and as cribs."""

    def test_hands_match_the_published_table(self) -> None:
        assert distribution(crib=False) == REFERENCE_HANDS

    def test_cribs_match_the_reproduced_table(self) -> None:
        assert distribution(crib=True) == REFERENCE_CRIBS

    def test_means(self) -> None:
        assert f"{mean(distribution(False)):.6f}" == "4.769152"
        assert f"{mean(distribution(True)):.6f}" == "4.734819"

    def test_table_lines_format(self) -> None:
        lines = table_lines(crib=True)
        assert len(lines) == 31
        assert lines[0] == "0 1022208"
        assert lines[-1] == "mean 4.734819"

    @pytest.mark.parametrize("crib", [False, True])
    def test_pattern_counts_agree_with_scoring_every_suit_choice(self, crib: bool) -> None:
        """The suit-pattern counting agrees with score_hand over every real card choice, for sampled patterns."""
        rng = random.Random(5)
        patterns = [((5, 5, 5, 11), 5), ((1, 2, 3, 11), 4), ((11, 11, 7, 8), 11), ((2, 3, 4, 6), 9)]
        while len(patterns) < 40:
            ranks = tuple(sorted(rng.choices(range(1, 14), k=4)))
            starter = rng.randint(1, 13)
            if max((*ranks, starter).count(r) for r in range(1, 14)) <= 4:
                patterns.append((ranks, starter))
        for ranks, starter_rank in patterns:
            expected: dict[int, int] = {}
            by_rank = {r: [c for c in DECK if c.rank == r] for r in set(ranks)}
            picks = [combinations(by_rank[r], ranks.count(r)) for r in sorted(set(ranks))]
            hands = [[]]  # type: list[list[Card]]
            for options in picks:
                options = list(options)
                hands = [h + list(o) for h in hands for o in options]
            for hand in hands:
                for starter in (c for c in DECK if c.rank == starter_rank and c not in hand):
                    points = score_hand(hand, starter, crib).total
                    expected[points] = expected.get(points, 0) + 1
            assert pattern_distribution(ranks, starter_rank, crib) == dict(sorted(expected.items())), ranks


class TestShowRules:
    """rules.md, "The show": one row per rule, with the cards that show it."""

    @pytest.mark.parametrize(
        ("hand", "starter", "crib", "total", "kinds"),
        [
            pytest.param("5H 5D 5S JC", "5C", False, 29, {"fifteen": 8, "double pair royal": 1, "nobs": 1},
                         id="rules.md: best four-card hand is 29"),
            pytest.param("9C 9D TH JS", "2D", False, 8, {"pair": 1, "run": 2}, id="double run of three is 8"),
            pytest.param("2C 2D 3H 4S", "KD", False, 12, {"fifteen": 2, "pair": 1, "run": 2},
                         id="double run with 2-3-K fifteens"),
            pytest.param("2C 3D 3H 4S", "4D", False, 16, {"pair": 2, "run": 4},
                         id="double-double run is 16"),
            pytest.param("2C 2D 2H 3S", "4D", False, 15, {"pair royal": 1, "run": 3}, id="triple run is 15"),
            pytest.param("4C 4D 5H 5S", "6D", False, 24, {"fifteen": 4, "pair": 2, "run": 4},
                         id="seed 000: a 24 hand, 4-4-5-5-6"),
            pytest.param("6C 7D 7H 8S", "8D", False, 24, {"fifteen": 4, "pair": 2, "run": 4},
                         id="seed 000: a 24 hand, 6-7-7-8-8"),
            pytest.param("2H 4H 6H 8H", "KC", False, 4, {"flush": 1}, id="four-card flush in hand"),
            pytest.param("2H 4H 6H 8H", "QH", False, 5, {"flush": 1}, id="five-card flush in hand"),
            pytest.param("2H 4H 6H 8H", "KC", True, 0, {}, id="crib: no four-card flush"),
            pytest.param("2H 4H 6H 8H", "QH", True, 5, {"flush": 1}, id="crib: five-card flush"),
            pytest.param("2H 4H 6H 8C", "KH", False, 0, {}, id="three of a suit plus the starter is no flush"),
            pytest.param("AH 2H 3H", "KC", False, 8, {"fifteen": 1, "run": 1, "flush": 1},
                         id="three-card hand flush is 3"),
            pytest.param("JD AC 3S 7H", "9D", False, 1, {"nobs": 1}, id="nobs: jack of the starter's suit"),
            pytest.param("JD AC 3S 7H", "JS", False, 2, {"pair": 1}, id="no nobs with a jack starter"),
            pytest.param("QC KD AH 2S", "3C", False, 7, {"fifteen": 2, "run": 1},
                         id="ace is low: Q-K-A is no run"),
            pytest.param("JC QD KH 5S", "5D", False, 17, {"fifteen": 6, "pair": 1, "run": 1},
                         id="J-Q-K run, three tens with each five"),
            pytest.param("AC 3D 9H QS", "7C", False, 0, {}, id="a nineteen hand: nothing"),
            pytest.param("5C 5D 5H 5S JD", "JH", False, 38, {"fifteen": 12, "double pair royal": 1, "pair": 1},
                         id="five cards: 5-5-5-5-J with a jack starter"),
            pytest.param("5C 5D 5H JS JH", "5S", False, 39,
                         {"fifteen": 12, "double pair royal": 1, "pair": 1, "nobs": 1},
                         id="seed 003: PlayRoom's 39, 5-5-5-J-J with the fourth 5"),
            pytest.param("4C 5C 5D 6C 6D", "4D", False, 46, {"fifteen": 8, "pair": 3, "run": 8},
                         id="five cards: 4-4-5-5-6-6 is 46, more than PlayRoom's 39"),
        ],
    )
    def test_row(self, hand: str, starter: str, crib: bool, total: int, kinds: dict[str, int]) -> None:
        score = score_hand(parse_cards(hand), Card.parse(starter), crib)
        assert score.total == total
        found: dict[str, int] = {}
        for item in score.items:
            found[item.kind.value] = found.get(item.kind.value, 0) + 1
        assert found == kinds

    def test_items_come_in_counting_order_with_their_cards(self) -> None:
        score = score_hand(parse_cards("4C 5S 6D JH"), Card.parse("4H"))
        order = [item.kind for item in score.items]
        assert order == [ScoreKind.FIFTEEN] * 3 + [ScoreKind.PAIR] + [ScoreKind.RUN] * 2 + [ScoreKind.NOBS]
        assert score.items[0].cards == parse_cards("5S JH")
        assert score.items[-1].cards == (Card.parse("JH"),)
        for item in score.items:
            if item.kind is ScoreKind.FIFTEEN:
                assert sum(c.value for c in item.cards) == 15

    @pytest.mark.parametrize(
        ("hand", "starter", "message"),
        [
            ("5H 5D", "5C", "A hand to count has 3, 4 or 5 cards, not 2."),
            ("5H 5D 5S 5C 4C 4D", "5C", "A hand to count has 3, 4 or 5 cards, not 6."),
            ("5H 5D 5S", "5H", "The starter, the five of hearts, is also in the hand."),
        ],
    )
    def test_bad_hands_are_refused_with_a_sentence(self, hand: str, starter: str, message: str) -> None:
        with pytest.raises(CardError) as error:
            score_hand(parse_cards(hand), Card.parse(starter))
        assert str(error.value) == message

    def test_repeated_card_in_a_hand_is_refused(self) -> None:
        card = Card.parse("5H")
        with pytest.raises(CardError, match="given twice"):
            score_hand((card, card, Card.parse("6D")), Card.parse("7C"))


class TestPlayRules:
    """rules.md, "The play": points for the card just laid."""

    @pytest.mark.parametrize(
        ("series", "total", "kinds"),
        [
            pytest.param("TH 5S", 2, ["fifteen"], id="fifteen"),
            pytest.param("7C 7D", 2, ["pair"], id="pair"),
            pytest.param("7C 7D 7H", 6, ["pair royal"], id="pair royal"),
            pytest.param("7C 7D 7H 7S", 12, ["double pair royal"], id="double pair royal"),
            pytest.param("6S 4D 5H", 5, ["fifteen", "run"], id="rules.md: 6, 4, 5 is a run of 3"),
            pytest.param("8S 7H 7D 6C", 0, [], id="rules.md: 8, 7, 7, 6 is no run"),
            pytest.param("9S 6H 8D 7C", 4, ["run"], id="rules.md: 9, 6, 8, 7 scores 4 on the 7"),
            pytest.param("KS QH 6D 5C", 2, ["thirty-one"], id="thirty-one"),
            pytest.param("TS JH 5D 6C", 2, ["thirty-one"], id="no run across 10-J then 5-6"),
            pytest.param("5S 5H 5D", 8, ["fifteen", "pair royal"], id="5-5-5 makes fifteen and a pair royal"),
            pytest.param("AS 2H 3D 4C 5S 6H 7D", 7, ["run"], id="run of seven"),
            pytest.param("3S 4H 3D", 0, [], id="a pair broken by another card"),
        ],
    )
    def test_row(self, series: str, total: int, kinds: list[str]) -> None:
        score = score_play(parse_cards(series))
        assert score.total == total
        assert [item.kind.value for item in score.items] == kinds

    def test_count_past_31_is_refused(self) -> None:
        with pytest.raises(CardError, match="past 31"):
            score_play(parse_cards("KD QC JS 4H"))

    def test_pair_royal_names_the_last_three_cards(self) -> None:
        score = score_play(parse_cards("2C 9H 9D 9S"))
        assert score.items[0].cards == parse_cards("9H 9D 9S")

    def test_empty_series_scores_nothing(self) -> None:
        assert score_play(()).total == 0


_ALL = list(DECK)


@st.composite
def hand_and_starter(draw: st.DrawFn, size: int) -> tuple[list[Card], Card]:
    cards = draw(st.permutations(_ALL))[: size + 1]
    return list(cards[:size]), cards[size]


class TestInvariants:
    """Hypothesis: properties every count has."""

    @settings(max_examples=400, deadline=None)
    @given(st.sampled_from([3, 4, 5]).flatmap(hand_and_starter), st.booleans())
    def test_total_is_rank_points_plus_flush_and_nobs(self, deal: tuple[list[Card], Card], crib: bool) -> None:
        hand, starter = deal
        score = score_hand(hand, starter, crib)
        suit_points = sum(i.points for i in score.of_kind(ScoreKind.FLUSH, ScoreKind.NOBS))
        assert score.total == rank_points([int(c.rank) for c in (*hand, starter)]) + suit_points
        assert score.total == sum(i.points for i in score.items)

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from([3, 4, 5]).flatmap(hand_and_starter), st.booleans(), st.randoms())
    def test_order_of_cards_does_not_matter(self, deal: tuple[list[Card], Card], crib: bool,
                                            rnd: random.Random) -> None:
        hand, starter = deal
        shuffled = list(hand)
        rnd.shuffle(shuffled)
        assert score_hand(shuffled, starter, crib) == score_hand(hand, starter, crib)

    @settings(max_examples=300, deadline=None)
    @given(st.sampled_from([3, 4, 5]).flatmap(hand_and_starter))
    def test_crib_never_scores_more_than_the_same_hand(self, deal: tuple[list[Card], Card]) -> None:
        hand, starter = deal
        assert score_hand(hand, starter, crib=True).total <= score_hand(hand, starter).total

    @settings(max_examples=300, deadline=None)
    @given(st.permutations(_ALL))
    def test_play_points_are_the_sum_of_their_parts(self, deck: list[Card]) -> None:
        series: list[Card] = []
        for card in deck:
            if sum(c.value for c in series) + card.value > 31:
                break
            series.append(card)
            score = score_play(series)
            count = sum(c.value for c in series)
            assert (count == 15) == bool(score.of_kind(ScoreKind.FIFTEEN))
            assert (count == 31) == bool(score.of_kind(ScoreKind.THIRTY_ONE))
            for item in score.items:
                assert item.cards[-1] == card
