"""Playing to the board: a two-player estimate of the chance to win from the scores and the order of the show.

Near the end of a game a point is not always worth a point: a pone who will count out first needs only its
hand, and a dealer who cannot outcount the pone must peg its way home or stop the pone pegging. These estimates
let the expert weigh a line of play by its chance of winning instead of its points.

The model: the pone shows first, then the dealer's hand, then the crib, and the first to reach the target wins.
Hands known to the searcher are exact; the crib is taken as a normal spread around its expected value. When
nobody goes out in this show, the rest of the game is a race, estimated from the points each side still needs,
with the next dealer's edge (about six points a deal, half of it kept over the deals that follow). When both are
close, dealing next is no edge: the pone counts first.

>>> round(race(10, 10, i_deal_next=False), 2), round(race(10, 30, i_deal_next=False), 2)
(0.5, 0.96)
>>> round(race(60, 60, i_deal_next=True), 2)
0.56
>>> show_chance(i_am_pone=True, my_need=8, opp_need=3, my_show=8, opp_show=12, crib_mean=4.5)
1.0
>>> show_chance(i_am_pone=False, my_need=8, opp_need=3, my_show=20, opp_show=4, crib_mean=4.5)
0.0
"""

from __future__ import annotations

import math

__all__ = ["CRIB_SPREAD", "race", "show_chance"]

CRIB_SPREAD = 4.0
"""Standard deviation of a crib's count around its expected value (the spread of all cribs is about 3.9)."""

_DEAL_SPREAD = 9.0  # standard deviation of one deal's point difference between dealer and pone
_DEALER_EDGE = 3.0  # what dealing next is worth in the race, in points


def _normal_at_least(points: int, mean: float, spread: float) -> float:
    """P(X >= points) for a whole-number count X spread normally around ``mean``."""
    z = (points - 0.5 - mean) / spread
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def race(my_need: float, opp_need: float, i_deal_next: bool) -> float:
    """Chance to win a race to the target when neither side can finish this deal."""
    deals = max(1.0, (my_need + opp_need) / 26.0)
    edge = 0.0 if my_need + opp_need <= 40 else _DEALER_EDGE if i_deal_next else -_DEALER_EDGE
    z = (opp_need - my_need + edge) / (_DEAL_SPREAD * math.sqrt(deals))
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _crib_short_of(need: int, mean: float) -> float:
    """A crib's expected count given that it stays short of ``need`` (roughly: the mean, capped below need)."""
    return max(0.0, min(mean, need - 1 - 0.5 * CRIB_SPREAD))


def show_chance(
    i_am_pone: bool, my_need: int, opp_need: int, my_show: int, opp_show: float, crib_mean: float
) -> float:
    """Chance to win from here, after the play: each side's need and hand, and the dealer's expected crib."""
    if i_am_pone:
        if my_show >= my_need:
            return 1.0
        opp_left = math.ceil(opp_need - opp_show)
        if opp_left <= 0:
            return 0.0
        crib_wins = _normal_at_least(opp_left, crib_mean, CRIB_SPREAD)
        rest = race(my_need - my_show, opp_left - _crib_short_of(opp_left, crib_mean), i_deal_next=True)
        return (1.0 - crib_wins) * rest
    if opp_show >= opp_need:
        return 0.0
    my_left = my_need - my_show
    if my_left <= 0:
        return 1.0
    crib_wins = _normal_at_least(my_left, crib_mean, CRIB_SPREAD)
    rest = race(my_left - _crib_short_of(my_left, crib_mean), opp_need - opp_show, i_deal_next=False)
    return crib_wins + (1.0 - crib_wins) * rest
