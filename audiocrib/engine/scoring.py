"""Scoring a hand in the show and a card laid in the play, item by item.

Every result is a `Score`: the total and the `ScoreItem` s that make it, in the order a player counts them
(fifteens, pairs, runs, flush, nobs), each naming the cards that make it.

>>> s = score_hand(parse_cards("5H 5D 5S JC"), Card.parse("5C"))
>>> s.total
29
>>> [item.kind.value for item in s.items].count("fifteen")
8
>>> score_play(parse_cards("6S 4D 5H")).total  # fifteen two and a run of three
5
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from itertools import combinations, product

from audiocrib.engine.cards import Card, Rank, parse_cards
from audiocrib.engine.errors import CardError

__all__ = [
    "HAND_SIZES",
    "MAX_SCORE",
    "Score",
    "ScoreItem",
    "ScoreKind",
    "rank_points",
    "score_hand",
    "score_kept",
    "score_play",
    "sorted_rank_points",
]

HAND_SIZES = (3, 4, 5)
"""The hand and crib sizes the show scores (five-card, six-card and seven-card cribbage, six-player crib)."""

MAX_SCORE = {3: 20, 4: 29, 5: 46}
"""The best possible count of a hand or crib of 3, 4 or 5 cards with the starter.

Derived by exhaustive search in ``tests/test_max_scores.py``: 5-5-5 with a 5 starter (20); 5-5-5-J with the
fourth 5 of the jack's suit (29); 4-4-5-5-6 with a 6 starter, or 4-5-5-6-6 with a 4 (46: eight runs of three,
three pairs, eight fifteens). The PlayRoom page gives 39 for five cards (5-5-5-J-J with the fourth 5), which is
beaten.
"""


class ScoreKind(StrEnum):
    """What a scoring item is, in the words cribbage players use."""

    FIFTEEN = "fifteen"
    """Cards adding up to fifteen: 2."""
    PAIR = "pair"
    """Two cards of a rank: 2."""
    PAIR_ROYAL = "pair royal"
    """Three cards of a rank (three pairs): 6."""
    DOUBLE_PAIR_ROYAL = "double pair royal"
    """Four cards of a rank (six pairs): 12."""
    RUN = "run"
    """Three or more consecutive ranks: one point a card."""
    FLUSH = "flush"
    """Every hand card of one suit (the crib needs the starter too): one point a card."""
    NOBS = "nobs"
    """A jack of the starter's suit in the hand or crib: 1."""
    THIRTY_ONE = "thirty-one"
    """The count of the play reaches exactly 31: 2."""


_PAIR_KINDS = {2: ScoreKind.PAIR, 3: ScoreKind.PAIR_ROYAL, 4: ScoreKind.DOUBLE_PAIR_ROYAL}
_PAIR_POINTS = {2: 2, 3: 6, 4: 12}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that make it and the points it is worth."""

    kind: ScoreKind
    cards: tuple[Card, ...]
    points: int

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict: ``{"kind": "fifteen", "cards": ["5H", "TC"], "points": 2}``."""
        return {"kind": self.kind.value, "cards": [str(c) for c in self.cards], "points": self.points}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ScoreItem:
        """The inverse of `to_json`."""
        cards = data["cards"]
        points = data["points"]
        if not isinstance(cards, list) or not isinstance(points, int):
            raise ValueError("A score item needs a list of cards and a number of points.")
        return cls(ScoreKind(str(data["kind"])), parse_cards([str(c) for c in cards]), points)


@dataclass(frozen=True, slots=True)
class Score:
    """An itemised count; ``total`` is the sum of the items' points."""

    items: tuple[ScoreItem, ...] = ()
    total: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "total", sum(item.points for item in self.items))

    def of_kind(self, *kinds: ScoreKind) -> tuple[ScoreItem, ...]:
        """The items of the given kinds, in counting order."""
        return tuple(item for item in self.items if item.kind in kinds)

    def to_json(self) -> dict[str, object]:
        """``{"total": 29, "items": [...]}``."""
        return {"total": self.total, "items": [item.to_json() for item in self.items]}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Score:
        """The inverse of `to_json`; the total is recomputed and must agree."""
        items = data.get("items", [])
        if not isinstance(items, list):
            raise ValueError("A score needs a list of items.")
        score = cls(tuple(ScoreItem.from_json(item) for item in items))
        if "total" in data and data["total"] != score.total:
            raise ValueError("A score's total does not match its items.")
        return score


def _check_distinct(cards: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"The {card.name} is given twice.")
        seen.add(card)


def _fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    ordered = sorted(cards)
    values = [c.value for c in ordered]
    items = []
    for size in range(2, len(ordered) + 1):
        for combo in combinations(range(len(ordered)), size):
            if sum(values[i] for i in combo) == 15:
                items.append(ScoreItem(ScoreKind.FIFTEEN, tuple(ordered[i] for i in combo), 2))
    return items


def _pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    by_rank: dict[Rank, list[Card]] = {}
    for card in sorted(cards):
        by_rank.setdefault(card.rank, []).append(card)
    return [
        ScoreItem(_PAIR_KINDS[len(group)], tuple(group), _PAIR_POINTS[len(group)])
        for group in by_rank.values()
        if len(group) >= 2
    ]


def _runs(cards: Sequence[Card]) -> list[ScoreItem]:
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards):
        by_rank.setdefault(int(card.rank), []).append(card)
    items = []
    rank = 1
    while rank <= 13:
        if rank not in by_rank:
            rank += 1
            continue
        end = rank
        while end + 1 in by_rank:
            end += 1
        if end - rank + 1 >= 3:
            groups = [by_rank[r] for r in range(rank, end + 1)]
            for run in product(*groups):
                items.append(ScoreItem(ScoreKind.RUN, tuple(run), len(run)))
        rank = end + 1
    return items


def score_hand(hand: Iterable[Card], starter: Card, crib: bool = False) -> Score:
    """Count a hand (or with ``crib=True`` a crib) of 3, 4 or 5 cards with the starter, as in the show.

    Raises `CardError` for a wrong number of cards, a repeated card, or a starter that is also in the hand.

    >>> s = score_hand(parse_cards("4C 5S 6D JH"), Card.parse("4H"))  # the PlayRoom example
    >>> [(i.kind.value, i.points) for i in s.items]
    [('fifteen', 2), ('fifteen', 2), ('fifteen', 2), ('pair', 2), ('run', 3), ('run', 3), ('nobs', 1)]
    >>> s.total
    15
    >>> score_hand(parse_cards("4H 5H 6H JH"), Card.parse("4H"))
    Traceback (most recent call last):
    ...
    audiocrib.engine.errors.CardError: The starter, the four of hearts, is also in the hand.
    """
    cards_in_hand = tuple(hand)
    if len(cards_in_hand) not in HAND_SIZES:
        raise CardError(f"A hand to count has 3, 4 or 5 cards, not {len(cards_in_hand)}.")
    _check_distinct(cards_in_hand)
    if starter in cards_in_hand:
        raise CardError(f"The starter, the {starter.name}, is also in the hand.")
    everything = (*cards_in_hand, starter)
    items = _fifteens(everything) + _pairs(everything) + _runs(everything)
    suits = {c.suit for c in cards_in_hand}
    if len(suits) == 1:
        n = len(cards_in_hand)
        if starter.suit in suits:
            items.append(ScoreItem(ScoreKind.FLUSH, tuple(sorted(everything)), n + 1))
        elif not crib:
            items.append(ScoreItem(ScoreKind.FLUSH, tuple(sorted(cards_in_hand)), n))
    for card in cards_in_hand:
        if card.rank is Rank.JACK and card.suit is starter.suit:
            items.append(ScoreItem(ScoreKind.NOBS, (card,), 1))
    return Score(tuple(items))


def score_kept(kept: Iterable[Card]) -> Score:
    """What cards kept for the show score before the starter is known: fifteens, pairs, runs, and a flush when
    four or more are of one suit (the starter can only add to it).

    >>> [(i.kind.value, i.points) for i in score_kept(parse_cards("5H 5S 5C JD")).items][-1]
    ('pair royal', 6)
    >>> score_kept(parse_cards("2H 4H 8H KH")).total
    4
    """
    cards = tuple(kept)
    _check_distinct(cards)
    items = _fifteens(cards) + _pairs(cards) + _runs(cards)
    if len(cards) >= 4 and len({c.suit for c in cards}) == 1:
        items.append(ScoreItem(ScoreKind.FLUSH, tuple(sorted(cards)), len(cards)))
    return Score(tuple(items))


def score_play(series: Sequence[Card]) -> Score:
    """Points scored by the last card of a series in the play (fifteen, thirty-one, pairs, run).

    ``series`` is every card of the current series in the order laid. The go and the last-card point are
    the game's business, not this function's. Raises `CardError` if the count passes 31 or a card repeats.

    >>> [(i.kind.value, i.points) for i in score_play(parse_cards("3S 3H 3D")).items]
    [('pair royal', 6)]
    >>> score_play(parse_cards("8S 7H 7D 6C")).total  # a pair broken up: no run
    0
    >>> score_play(parse_cards("9S 6H 8D 7C")).total  # a run of four on the seven
    4
    >>> score_play(parse_cards("KS QH 6D 5C")).of_kind(ScoreKind.THIRTY_ONE)[0].points
    2
    """
    cards = tuple(series)
    if not cards:
        return Score()
    _check_distinct(cards)
    count = sum(c.value for c in cards)
    if count > 31:
        raise CardError(f"The count would be {count}, past 31.")
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(ScoreKind.FIFTEEN, cards, 2))
    last = cards[-1]
    same = 1
    while same < len(cards) and same < 4 and cards[-same - 1].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem(_PAIR_KINDS[same], cards[-same:], _PAIR_POINTS[same]))
    for k in range(len(cards), 2, -1):
        ranks = sorted(int(c.rank) for c in cards[-k:])
        if ranks[-1] - ranks[0] == k - 1 and len(set(ranks)) == k:
            items.append(ScoreItem(ScoreKind.RUN, cards[-k:], k))
            break
    if count == 31:
        items.append(ScoreItem(ScoreKind.THIRTY_ONE, cards, 2))
    return Score(tuple(items))


def rank_points(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of cards given only by rank (1-13): what suits cannot change.

    Fast and unitemised, for tables and computer players.

    >>> rank_points((5, 5, 5, 11, 5))
    28
    >>> rank_points((4, 4, 5, 5, 6))
    24
    """
    counts = Counter(ranks)
    points = 0
    for c in counts.values():
        points += c * (c - 1)  # 2 points a pair, c*(c-1)/2 pairs
    run_len = 0
    multiplier = 1
    for r in range(1, 15):
        c = counts.get(r, 0)
        if c:
            run_len += 1
            multiplier *= c
        else:
            if run_len >= 3:
                points += run_len * multiplier
            run_len = 0
            multiplier = 1
    # Ways to make fifteen: subset-sum counting over pip values.
    ways = [0] * 16
    ways[0] = 1
    for r in ranks:
        v = min(r, 10)
        for total in range(15, v - 1, -1):
            ways[total] += ways[total - v]
    return points + 2 * ways[15]


@cache
def sorted_rank_points(ranks: tuple[int, ...]) -> int:
    """`rank_points` of ranks given in ascending order, remembered: the tables and the discard analysis score the
    same few thousand rank patterns over and over.

    >>> sorted_rank_points((4, 4, 5, 5, 6))
    24
    """
    return rank_points(ranks)
