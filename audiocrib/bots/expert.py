"""The expert: lays away for hand and crib together, pegs by looking ahead, and plays to the board at the end.

Laying away: every choice is valued exactly over every starter it has not seen, as its expected hand plus the
expected crib when the crib is its side's (its own or its partner's) and minus it when the crib is another side's
(`audiocrib.bots.crib` has the crib values and how they were computed). When the game is close to its end the expert
weighs the chance that the hand alone brings it home instead.

Pegging: the cards it has not seen are dealt to the other players many times over ("worlds"), each world weighted
by what the play so far says: a player who said go holds nothing that fits under 31 at that count, and a player who
laid cards away kept a hand that scores, so hands that score together are more likely. In each world a search
(`audiocrib.bots.pegging`) looks six cards ahead (four at larger tables and in the seven-card game), each
opponent's reply valued half as its worst for the expert and half as its average (the real opponent cannot see the
expert's cards); the card with the best weighted value is laid. With two players near the end, a line is valued by
its chance of winning (the show's order, the hands and the crib, see `audiocrib.bots.board`) instead of its points.

>>> from audiocrib import Game
>>> from audiocrib.bots.medium import Medium
>>> from audiocrib.bots.player import drive
>>> drive(Game(seed=8), [Expert(seed=1), Medium(seed=2)]).over
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import partial

from audiocrib.bots.base import Bot
from audiocrib.bots.board import show_chance
from audiocrib.bots.crib import crib_value
from audiocrib.bots.discards import DiscardOption, analyse, hand_points, points_without_starter
from audiocrib.bots.pegging import RANK_VALUE, PlaySearch
from audiocrib.engine.cards import DECK, Card
from audiocrib.engine.events import Dealt, Played, SaidGo, SeriesEnded
from audiocrib.engine.scoring import MAX_SCORE
from audiocrib.engine.views import PlayerView

__all__ = ["Expert", "board_chance", "to_the_board"]

_KEEP_WEIGHT = 0.3  # how much more likely, per point, a kept hand that scores together is than one that does not
_END_ZONE = 30  # a side this close to the target makes the expert play to the board
_PEG_ALLOWANCE = 2  # points a player may expect to peg before its hand is shown, when laying away near the end


class Expert(Bot):
    """Hand plus or minus crib for the discard; a weighted look-ahead for the play; the board at the end.

    ``worlds`` is how many deals of the unseen cards the pegging search tries (fewer at larger tables).
    """

    level = "expert"

    def __init__(
        self,
        seed: int | None = None,
        count_mistakes: float = 0.0,
        worlds: int = 16,
        depth: int | None = None,
        caution: float = 0.5,
    ) -> None:
        super().__init__(seed, count_mistakes)
        self.worlds = worlds
        self.depth = depth
        self.caution = caution

    # ----------------------------------------------------------------- laying away
    def discard(self, view: PlayerView) -> tuple[Card, ...]:
        """The discard with the best expected hand plus (own side's crib) or minus (another's) crib."""
        options, board_need = self.discard_options(view)
        if board_need is not None:
            return to_the_board(view.hand, view.my_crib, options, board_need).discard
        return options[0].discard

    def discard_options(self, view: PlayerView) -> tuple[list[DiscardOption], int | None]:
        """Every way to lay away, best net first, and the points the hand must make when the expert plays to the
        board instead (None when it does not: the first option is its choice)."""
        shape = view.rules.shape
        value = partial(crib_value, crib_size=shape.crib)
        options = analyse(view.hand, view.must_discard, dealer=view.my_crib, crib_value=value)
        need = view.rules.target - view.scores[view.side]
        if need - _PEG_ALLOWANCE <= MAX_SCORE[shape.hand]:
            return options, need - _PEG_ALLOWANCE
        return options, None

    # ----------------------------------------------------------------- the play
    def choose_play(self, view: PlayerView) -> Card:
        """The card whose look-ahead over the weighted worlds is best."""
        by_rank: dict[int, Card] = {}
        for card in view.playable:
            by_rank.setdefault(int(card.rank), card)
        if len(by_rank) == 1:
            return next(iter(by_rank.values()))
        totals, _ = self.play_values(view)
        # Other things equal, keep the low cards for the go.
        best = max(totals, key=lambda rank: (round(totals[rank], 9), RANK_VALUE[rank]))
        return by_rank[best]

    def plays_to_the_board(self, view: PlayerView) -> bool:
        """True when the look-ahead values lines by the chance of winning (two players near the end) instead of
        their points."""
        needs = tuple(view.rules.target - score for score in view.scores)
        return view.rules.players == 2 and min(needs) <= _END_ZONE and view.starter is not None

    def play_values(self, view: PlayerView) -> tuple[dict[int, float], float]:
        """The look-ahead value of each rank the seat may lay, summed over the worlds by their weights, and the
        weights' total: divided by it, a value is the points its side pegs less the average of each other side's
        (or, `plays_to_the_board`, a chance of winning in percent). Draws the worlds from ``self.rng``."""
        totals = dict.fromkeys((int(card.rank) for card in view.playable), 0.0)
        # Six cards ahead while two players hold eight cards or fewer (the six-card game); otherwise four, which
        # keeps every decision quick (seven-card hands, larger tables).
        depth = self.depth or (6 if view.rules.players == 2 and sum(view.held) <= 8 else 4)
        sides = tuple(view.rules.side_of(s) for s in range(view.rules.players))
        needs = tuple(view.rules.target - score for score in view.scores)
        last = view.series[-1][0] if view.series else None
        series = tuple(int(card.rank) for _, card in view.series)
        weights = 0.0
        for hands, weight, leaf in self._worlds(view):
            search = PlaySearch(sides, view.side, needs, depth, view.rules.single_series, leaf, self.caution)
            values = search.root(hands, series, view.count, view.seat, last, frozenset(view.said_go))
            for rank, value in values.items():
                totals[rank] += weight * value
            weights += weight
        return totals, weights

    def _worlds(
        self, view: PlayerView, floors: dict[int, int] | None = None
    ) -> list[tuple[tuple[tuple[int, ...], ...], float, _Leaf]]:
        """Deals of the unseen cards to the other seats, each with its weight and how its lines are valued.

        ``floors`` (read from the goes said this deal unless given) is the lowest card value each seat can hold.
        """
        players = view.rules.players
        others = [s for s in range(players) if s != view.seat and view.held[s]]
        known = {*view.hand, *(view.discards or ()), *(c for cards in view.played for c in cards)}
        if view.starter is not None:
            known.add(view.starter)
        unseen = [c for c in DECK if c not in known]
        floors = _go_floors(view) if floors is None else floors
        count = max(1, self.worlds if players == 2 else self.worlds // 2)
        if not others:
            count = 1
        chose = {s for s in others if view.rules.shape.discards_of(s == view.dealer) > 0}
        merged: dict[tuple[tuple[tuple[int, ...], ...], float], tuple[float, _Leaf]] = {}
        fits = {s: [c for c in unseen if RANK_VALUE[c.rank] >= floors.get(s, 0)] for s in others}
        for _ in range(count):
            held = self._deal_unseen(view, others, unseen, fits)
            weight = 1.0
            for seat in chose:
                kept = (*view.played[seat], *held[seat])
                weight *= math.exp(_KEEP_WEIGHT * points_without_starter(kept))
            hands = tuple(
                tuple(sorted(int(c.rank) for c in (view.hand if s == view.seat else held.get(s, ()))))
                for s in range(players)
            )
            leaf = self._leaf(view, held)
            key = (hands, leaf.opp_show)
            old = merged.get(key)
            merged[key] = (weight + (old[0] if old else 0.0), leaf)
        return [(key[0], weight, leaf) for key, (weight, leaf) in merged.items()]

    def _deal_unseen(
        self, view: PlayerView, others: Sequence[int], unseen: Sequence[Card], fits: dict[int, list[Card]]
    ) -> dict[int, tuple[Card, ...]]:
        """One random deal of the unseen cards to ``others``, each holding only cards that fit what it has shown
        (``fits``: nothing below its go floor) when there are enough of them."""
        if len(others) == 1:
            seat = others[0]
            source = fits[seat] if len(fits[seat]) >= view.held[seat] else unseen
            return {seat: tuple(self.rng.sample(source, view.held[seat]))}
        taken: set[Card] = set()
        held: dict[int, tuple[Card, ...]] = {}
        for seat in sorted(others, key=lambda s: len(fits[s])):
            need = view.held[seat]
            source = [c for c in fits[seat] if c not in taken]
            if len(source) < need:
                source = [c for c in unseen if c not in taken]
            cards = tuple(self.rng.sample(source, need))
            held[seat] = cards
            taken.update(cards)
        return held

    def _leaf(self, view: PlayerView, held: dict[int, tuple[Card, ...]]) -> _Leaf:
        needs = tuple(view.rules.target - score for score in view.scores)
        my_side = view.side
        if self.plays_to_the_board(view) and view.starter is not None:
            opp = 1 - view.seat
            starter = view.starter
            opp_kept = (*view.played[opp], *held.get(opp, ()))
            my_show = hand_points(view.kept, starter) if view.kept else 0
            opp_show = hand_points(opp_kept, starter) if len(opp_kept) == len(view.kept) else 0
            crib_mean = crib_value(view.discards, True, view.rules.shape.crib) if view.discards else 4.5
            return _BoardLeaf(my_side, needs, view.seat != view.dealer, my_show, opp_show, crib_mean)
        return _PointsLeaf(my_side, needs)


class _Leaf:
    """Values a line of play for the searcher (see `audiocrib.bots.pegging.Leaf`)."""

    opp_show = 0.0

    def __call__(self, gains: tuple[int, ...], over: bool) -> float:
        raise NotImplementedError


class _PointsLeaf(_Leaf):
    """Points pegged by the searcher's side less the average of each other side's."""

    def __init__(self, my_side: int, needs: tuple[int, ...]) -> None:
        self.my_side = my_side
        self.needs = needs
        self.others = len(needs) - 1

    def __call__(self, gains: tuple[int, ...], over: bool) -> float:
        mine = gains[self.my_side]
        if over:  # the search stops at the first side to reach its need
            return 1000.0 if mine >= self.needs[self.my_side] else -1000.0
        return mine - (sum(gains) - mine) / self.others


class _BoardLeaf(_Leaf):
    """Two players near the end: the chance of winning after this line, in percent."""

    def __init__(
        self, my_side: int, needs: tuple[int, ...], pone: bool, my_show: int, opp_show: int, crib_mean: float
    ) -> None:
        self.my_side = my_side
        self.needs = needs
        self.pone = pone
        self.my_show = my_show
        self.opp_show = float(opp_show)
        self.crib_mean = crib_mean

    def __call__(self, gains: tuple[int, ...], over: bool) -> float:
        me, opp = self.my_side, 1 - self.my_side
        my_need = self.needs[me] - gains[me]
        opp_need = self.needs[opp] - gains[opp]
        if over:
            return 100.0 if my_need <= 0 else 0.0
        # A game won now is surer than one the model says the show will win.
        return 99.0 * show_chance(self.pone, my_need, opp_need, self.my_show, self.opp_show, self.crib_mean)


def _go_floors(view: PlayerView) -> dict[int, int]:
    """For each seat that said go this deal, the lowest card value it can still hold (above 31 less the count)."""
    floors: dict[int, int] = {}
    count = 0
    start = len(view.events) - 1
    while start > 0 and not isinstance(view.events[start], Dealt):
        start -= 1
    for event in view.events[start:]:
        if isinstance(event, Played):
            count = event.count
        elif isinstance(event, SeriesEnded):
            count = 0
        elif isinstance(event, SaidGo):
            floors[event.seat] = max(floors.get(event.seat, 0), 32 - count)
    return floors


def board_chance(option: DiscardOption, hand: Sequence[Card], my_crib: bool, need: int) -> float:
    """The share of the starters not among ``hand`` with which ``option``'s hand (with one's own crib, on
    average) makes ``need``."""
    seen = set(hand)
    starters = [c for c in DECK if c not in seen]
    crib = (option.expected_crib or 0.0) if my_crib else 0.0
    return sum(1 for s in starters if hand_points(option.keep, s) + crib >= need) / len(starters)


def to_the_board(hand: Sequence[Card], my_crib: bool, options: list[DiscardOption], need: int) -> DiscardOption:
    """Near the end: the option most likely to make ``need`` with its hand (with the crib for the dealer)."""
    # A point of expected value is worth about two and a half hundredths of a game this close to the end.
    return max(options, key=lambda o: (board_chance(o, hand, my_crib, need) + o.net / 40.0, o.net))
