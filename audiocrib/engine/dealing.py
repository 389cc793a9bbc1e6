"""The cards from the seed: the cut for deal, each deal and each starter, and who deals the next game.

Every shuffle is made from its own `random.Random`, seeded with the game's seed and what is being shuffled,
so a deal depends on nothing but the seed, the game number and the deal number.

>>> from audiocrib.engine.rules import Rules
>>> first = deal(Rules(), 7, 1, 1, 0)
>>> first == deal(Rules(), 7, 1, 1, 0), [len(h) for h in first.hands], len(first.stock)
(True, [6, 6], 40)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from audiocrib.engine.cards import DECK, Card
from audiocrib.engine.events import CutForDeal, Dealt, StarterCut
from audiocrib.engine.rules import Rules

__all__ = ["cut_for_deal", "cut_starter", "deal", "next_game_dealer", "shuffled"]


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random("/".join(str(p) for p in (seed, *parts)))


def _below(rng: random.Random, n: int) -> int:
    """A uniform number in ``range(n)`` from ``getrandbits`` by rejection, stable across Python versions."""
    bits = n.bit_length()
    while True:
        value = rng.getrandbits(bits)
        if value < n:
            return value


def shuffled(seed: int, *parts: object) -> list[Card]:
    """The deck shuffled for ``parts``: Fisher-Yates on ``getrandbits``, which every Python version keeps,
    where ``random.shuffle``'s and ``sample``'s algorithms are not promised to stay the same."""
    rng = _rng(seed, *parts)
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = _below(rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def cut_for_deal(seed: int, cut: int, seats: tuple[int, ...]) -> CutForDeal:
    """The ``cut``-th cut for deal (from 0): ``seats`` take the top cards of that shuffle."""
    return CutForDeal(seats, tuple(shuffled(seed, "cut", cut)[: len(seats)]))


def deal(rules: Rules, seed: int, game: int, number: int, dealer: int) -> Dealt:
    """Deal ``number`` of game ``game``, dealt by ``dealer``."""
    n = rules.players
    shape = rules.shape
    deck = shuffled(seed, game, number, "deal")
    hands: list[list[Card]] = [[] for _ in range(n)]
    # One card at a time, from the dealer's left, to each player who still needs one.
    needed = [shape.dealt_to(s == dealer) for s in range(n)]
    position = 0
    while any(len(hands[s]) < needed[s] for s in range(n)):
        for step in range(1, n + 1):
            s = (dealer + step) % n
            if len(hands[s]) < needed[s]:
                hands[s].append(deck[position])
                position += 1
    crib = deck[position:position + shape.crib_from_deck]
    position += shape.crib_from_deck
    return Dealt(number, dealer, tuple(tuple(h) for h in hands), tuple(crib), tuple(deck[position:]))


def cut_starter(seed: int, game: int, number: int, cutter: int, stock: Sequence[Card]) -> StarterCut:
    """The starter of deal ``number`` of game ``game``, cut by ``cutter`` from what is left of the pack."""
    index = _below(_rng(seed, game, number, "starter"), len(stock))
    return StarterCut(cutter, stock[index])


def next_game_dealer(rules: Rules, dealer: int, scores: Sequence[int]) -> int:
    """Who deals first in the next game: the first seat after the last ``dealer`` on a side with the lowest
    score."""
    lowest = min(scores)
    n = rules.players
    for step in range(1, n + 1):
        seat = (dealer + step) % n
        if scores[rules.side_of(seat)] == lowest:
            return seat
    raise AssertionError("some side has the lowest score")  # pragma: no cover
