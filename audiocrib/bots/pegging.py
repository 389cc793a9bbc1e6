"""Looking ahead in the play: a small game-tree search over card ranks, the way the engine runs the play.

Pegging depends only on ranks (suits never score in the play), so the search works on ranks 1 (ace) to 13
(king). Each seat holds a tuple of ranks; the seat to move lays one of its ranks that fits under 31, or says go
when none fits, exactly as `audiocrib.engine.game` does: the player who laid the last card takes one for last unless the
count is 31, and the next series is led by the player after them. Seats on the searcher's side choose the line
best for that side; every other seat the line worst for it (a "paranoid" search, which is exact for two sides).

``leaf`` turns what each side pegged along a line into a value for the searcher's side; a side that reaches
its ``needs`` ends the game at once, as in the engine.

>>> peg_points((10, 5), 15), peg_points((4, 4, 4), 12), peg_points((3, 5, 4), 12)
(2, 6, 3)
>>> search = PlaySearch(sides=(0, 1), my_side=0, needs=(99, 99), depth=2, single_series=False,
...                     leaf=lambda gains, over: gains[0] - gains[1])
>>> # Leading the five lets the opponent's ten make fifteen; leading the four risks nothing.
>>> search.root(hands=((5, 4), (10, 3)), series=(), count=0, turn=0, last=None)
{4: 0, 5: -2}
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["RANK_VALUE", "Leaf", "PlaySearch", "peg_points"]

RANK_VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""A rank's value in the count, indexed by rank (ace 1 ... king 13)."""

_PAIRS = (0, 0, 2, 6, 12)

Leaf = Callable[[tuple[int, ...], bool], float]
"""Value of a line for the searcher: points pegged by each side along it, and whether the game ended."""


def peg_points(series: tuple[int, ...], count: int) -> int:
    """Points for the last rank laid in ``series`` (ranks of this series, in order), the count now ``count``.

    The same as `audiocrib.engine.scoring.score_play`'s total, on ranks: fifteen or thirty-one, pairs, runs.
    """
    points = 2 if count == 15 or count == 31 else 0
    n = len(series)
    last = series[-1]
    same = 1
    while same < n and series[n - 1 - same] == last:
        same += 1
    points += _PAIRS[same]
    if same == 1 and n >= 3:
        for length in range(n, 2, -1):
            tail = series[n - length :]
            if max(tail) - min(tail) == length - 1 and len(set(tail)) == length:
                points += length
                break
    return points


class PlaySearch:
    """A depth-limited search of the play for one side; ``depth`` counts the cards laid (goes are free)."""

    def __init__(
        self,
        sides: tuple[int, ...],
        my_side: int,
        needs: tuple[int, ...],
        depth: int,
        single_series: bool,
        leaf: Leaf,
        caution: float = 1.0,
    ) -> None:
        self.sides = sides
        """The side of each seat."""
        self.my_side = my_side
        self.needs = needs
        """Points each side still needs to win the game."""
        self.depth = depth
        self.single_series = single_series
        self.leaf = leaf
        self.caution = caution
        """1 for opponents who always find the reply worst for the searcher; less mixes in their average reply."""

    def root(
        self,
        hands: tuple[tuple[int, ...], ...],
        series: tuple[int, ...],
        count: int,
        turn: int,
        last: int | None,
        out: frozenset[int] = frozenset(),
    ) -> dict[int, float]:
        """The value of each rank ``turn`` may lay now (a seat of the searcher's side)."""
        gains = (0,) * len(self.needs)
        hand = hands[turn]
        values = {}
        for rank in sorted(set(hand)):
            if RANK_VALUE[rank] + count <= 31:
                values[rank] = self._lay(hands, series, count, turn, out, gains, self.depth, rank)
        return values

    def _score(self, gains: tuple[int, ...], seat: int, points: int) -> tuple[tuple[int, ...], bool]:
        side = self.sides[seat]
        changed = list(gains)
        changed[side] += points
        return tuple(changed), changed[side] >= self.needs[side]

    def _lay(
        self,
        hands: tuple[tuple[int, ...], ...],
        series: tuple[int, ...],
        count: int,
        seat: int,
        out: frozenset[int],
        gains: tuple[int, ...],
        depth: int,
        rank: int,
    ) -> float:
        held = list(hands[seat])
        held.remove(rank)
        new_hands = (*hands[:seat], tuple(held), *hands[seat + 1 :])
        series = (*series, rank)
        count += RANK_VALUE[rank]
        points = peg_points(series, count)
        if points:
            gains, won = self._score(gains, seat, points)
            if won:
                return self.leaf(gains, True)
        if depth <= 1:
            return self.leaf(gains, False)
        if count == 31:
            return self._new_series(new_hands, seat, gains, depth - 1)
        turn = self._next_turn(new_hands, count, seat, out, seat)
        return self._move(new_hands, series, count, turn, out, seat, gains, depth - 1)

    def _move(
        self,
        hands: tuple[tuple[int, ...], ...],
        series: tuple[int, ...],
        count: int,
        turn: int | None,
        out: frozenset[int],
        last: int,
        gains: tuple[int, ...],
        depth: int,
    ) -> float:
        limit = 31 - count
        while turn is not None:
            options = {r for r in hands[turn] if RANK_VALUE[r] <= limit}
            if options:
                values = [self._lay(hands, series, count, turn, out, gains, depth, rank) for rank in options]
                if self.sides[turn] == self.my_side:
                    return max(values)
                worst = min(values)
                if self.caution == 1.0:
                    return worst
                return self.caution * worst + (1.0 - self.caution) * sum(values) / len(values)
            out = out | {turn}
            turn = self._next_turn(hands, count, turn, out, last)
        if count < 31:
            gains, won = self._score(gains, last, 1)
            if won:
                return self.leaf(gains, True)
        return self._new_series(hands, last, gains, depth)

    def _new_series(self, hands: tuple[tuple[int, ...], ...], last: int, gains: tuple[int, ...], depth: int) -> float:
        leader = self._next_active(hands, last, frozenset())
        if leader is None or self.single_series:
            return self.leaf(gains, False)
        return self._move(hands, (), 0, leader, frozenset(), last, gains, depth)

    def _next_active(self, hands: tuple[tuple[int, ...], ...], after: int, out: frozenset[int]) -> int | None:
        n = len(hands)
        for step in range(1, n + 1):
            seat = (after + step) % n
            if hands[seat] and seat not in out:
                return seat
        return None

    def _next_turn(
        self, hands: tuple[tuple[int, ...], ...], count: int, after: int, out: frozenset[int], last: int
    ) -> int | None:
        seat = self._next_active(hands, after, out)
        if seat is not None and seat == last and all(RANK_VALUE[r] + count > 31 for r in hands[seat]):
            return None
        return seat
