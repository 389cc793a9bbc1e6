"""Discard analysis: every way to lay cards away, with its exact expected hand over every possible starter.

For a dealt hand, each choice of cards to keep is scored with every card the player has not seen as the starter
(46 of them after a six-card deal), and the mean is the expected hand. The crib's side of the question (what the
discards are worth in the crib) comes from a crib table and is added for the dealer or taken away for the pone.

>>> from audiocrib.engine.cards import parse_cards
>>> best = analyse(parse_cards("5H 5S 5C JD 4H 6C"), 2)[0]
>>> [str(c) for c in best.keep], round(best.expected_hand, 3)
(['5C', '5H', '5S', 'JD'], 16.652)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from audiocrib.engine.cards import DECK, Card, Rank
from audiocrib.engine.errors import CardError
from audiocrib.engine.scoring import sorted_rank_points

__all__ = ["DiscardOption", "analyse", "expected_hand", "hand_points", "points_without_starter"]


def hand_points(keep: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """The show count of ``keep`` with ``starter`` (same as `score_hand`'s total, without the items).

    >>> from audiocrib.engine.cards import parse_cards
    >>> hand_points(parse_cards("5H 5D 5S JC"), Card.parse("5C"))
    29
    """
    points = sorted_rank_points(tuple(sorted([int(c.rank) for c in keep] + [int(starter.rank)])))
    suit = keep[0].suit
    if all(c.suit is suit for c in keep):
        if starter.suit is suit:
            points += len(keep) + 1
        elif not crib:
            points += len(keep)
    for card in keep:
        if card.rank is Rank.JACK and card.suit is starter.suit:
            points += 1
    return points


def points_without_starter(keep: Sequence[Card]) -> int:
    """What ``keep`` is worth before the starter is known: fifteens, pairs, runs and a flush.

    >>> from audiocrib.engine.cards import parse_cards
    >>> points_without_starter(parse_cards("5H 5S 5C JD"))
    14
    """
    points = sorted_rank_points(tuple(sorted(int(c.rank) for c in keep)))
    if len({c.suit for c in keep}) == 1:
        points += len(keep)
    return points


def expected_hand(keep: Sequence[Card], seen: Sequence[Card]) -> float:
    """The exact mean count of ``keep`` over every starter not among the ``seen`` cards."""
    excluded = set(seen) | set(keep)
    starters = [c for c in DECK if c not in excluded]
    return sum(hand_points(keep, s) for s in starters) / len(starters)


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One way to lay away: the cards kept and discarded, and what each side of it is worth on average.

    ``expected_crib`` is what the discards add to the crib (None when no crib values were used); ``net`` is
    the expected hand plus the crib for the dealer, minus it for the pone.
    """

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    expected_hand: float
    expected_crib: float | None
    net: float

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "expected_hand": round(self.expected_hand, 4),
            "expected_crib": None if self.expected_crib is None else round(self.expected_crib, 4),
            "net": round(self.net, 4),
        }


CribValue = Callable[[tuple[Card, ...], bool], float]
"""Expected crib points that ``discards`` bring, given whether the crib is one's own (dealer's side)."""


def analyse(
    hand: Sequence[Card], discard: int, dealer: bool | None = None, crib_value: CribValue | None = None
) -> list[DiscardOption]:
    """Every way to lay ``discard`` cards away from ``hand``, best first.

    ``dealer`` True or False says whose crib it is; with ``crib_value`` the crib is added (dealer) or taken
    away (pone). Ties keep a fixed order (by the cards kept), so the answer is deterministic.
    """
    cards = tuple(hand)
    if len(set(cards)) != len(cards):
        raise CardError("A card is given twice.")
    if not 0 <= discard < len(cards) or len(cards) - discard not in (3, 4, 5):
        raise CardError(f"Laying {discard} away from {len(cards)} cards does not leave a hand of 3, 4 or 5.")
    options = []
    for kept in combinations(sorted(cards), len(cards) - discard):
        thrown = tuple(c for c in sorted(cards) if c not in kept)
        hand_ev = expected_hand(kept, cards)
        crib_ev: float | None = None
        net = hand_ev
        if crib_value is not None and dealer is not None and thrown:
            crib_ev = crib_value(thrown, dealer)
            net = hand_ev + crib_ev if dealer else hand_ev - crib_ev
        options.append(DiscardOption(kept, thrown, hand_ev, crib_ev, net))
    options.sort(key=lambda o: -o.net)
    return options
