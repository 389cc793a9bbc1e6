"""The exact distribution of all 12,994,800 four-card hands with a starter, as hands and as cribs.

Fifteens, pairs and runs depend only on the five ranks; suits matter only for the flush and nobs. So instead of
scoring 13 million hands, this module walks the 1,820 rank multisets of a four-card hand and the 13 starter ranks,
scores each rank pattern once, and counts how many suit assignments give a flush, nobs, both or neither.

>>> d = distribution()
>>> sum(d), d[29], d[19]
(12994800, 4, 0)
>>> round(mean(d), 6)
4.769152
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import comb

from audiocrib.engine.scoring import sorted_rank_points

__all__ = ["MAX_FOUR_CARD_SCORE", "distribution", "mean", "pattern_distribution", "table_lines"]

MAX_FOUR_CARD_SCORE = 29
_JACK = 11


def pattern_distribution(hand_ranks: Sequence[int], starter_rank: int, crib: bool = False) -> dict[int, int]:
    """Score -> number of ways, over every choice of suits, for a hand given by ranks and a starter rank.

    >>> pattern_distribution((5, 5, 5, 11), 5)  # the 29 hand and its near misses
    {28: 12, 29: 4}
    >>> sum(pattern_distribution((1, 2, 3, 4), 6).values())  # 4**4 hands times 4 starters
    1024
    """
    counts = [0] * 14
    for r in hand_ranks:
        counts[r] += 1
    c_r = counts[starter_rank]
    if c_r >= 4 or max(counts) > 4:
        return {}
    hand_ways = 1
    for c in counts:
        hand_ways *= comb(4, c)
    total = hand_ways * (4 - c_r)
    base = sorted_rank_points(tuple(sorted((*hand_ranks, starter_rank))))

    jacks = counts[_JACK]
    if jacks == 0 or starter_rank == _JACK:
        nobs = 0
    else:
        # Suits of the hand's jacks (set A) and of its starter-rank cards (set B) are chosen independently;
        # nobs needs the starter's suit s to be in A and not in B.
        others = hand_ways // (comb(4, jacks) * comb(4, c_r))
        nobs = others * 4 * comb(3, jacks - 1) * comb(3, c_r)

    result: dict[int, int] = {}

    def add(points: int, ways: int) -> None:
        if ways:
            result[points] = result.get(points, 0) + ways

    flush5 = flush4 = 0
    if max(counts) == 1:  # four different ranks: the hand can be one suit
        flush5 = 4 if c_r == 0 else 0
        flush4 = 4 * (4 - c_r) - flush5
    nobs_in_flush5 = flush5 if (jacks == 1 and starter_rank != _JACK) else 0
    add(base + 5 + (1 if nobs_in_flush5 else 0), flush5)
    add(base + (0 if crib else 4), flush4)
    rest = total - flush5 - flush4
    nobs_rest = nobs - nobs_in_flush5
    add(base + 1, nobs_rest)
    add(base, rest - nobs_rest)
    return dict(sorted(result.items()))


@cache
def distribution(crib: bool = False) -> tuple[int, ...]:
    """How many of the 12,994,800 hands (or cribs) score 0, 1, ... 29 points."""
    table = [0] * (MAX_FOUR_CARD_SCORE + 1)
    for hand in combinations_with_replacement(range(1, 14), 4):
        for starter in range(1, 14):
            for points, ways in pattern_distribution(hand, starter, crib).items():
                table[points] += ways
    return tuple(table)


def mean(table: Sequence[int]) -> float:
    """The mean score of a distribution given as counts by score."""
    return sum(points * ways for points, ways in enumerate(table)) / sum(table)


def table_lines(crib: bool = False) -> list[str]:
    """The lines ``audiocrib table hands`` (or ``cribs``) prints: ``SCORE COUNT`` for 0 to 29, then the mean.

    >>> table_lines()[29], table_lines()[-1]
    ('29 4', 'mean 4.769152')
    """
    table = distribution(crib)
    return [f"{points} {ways}" for points, ways in enumerate(table)] + [f"mean {mean(table):.6f}"]
