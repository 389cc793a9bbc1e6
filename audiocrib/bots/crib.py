"""What cards laid away are worth in the crib, computed from audiocrib's own scorer.

``crib_average(discards)`` is exact: every pair of other crib cards and every starter, drawn from the cards not
yet seen, scored as a crib and averaged. That is the value of a discard when the other cards in the crib are
random; players who lay away with a purpose make cribs worth somewhat more or less (the published tables assume
such players).

A two-card discard's value depends only on the two ranks and on whether the cards share a suit, so the shipped
table ``data/crib_two_card.json`` holds the 169 classes, written by ``python -m audiocrib.bots.crib --write``.

Tables of three or more lay away one card each. Into a four-card crib, a card's value is exactly the mean of the
two-card values over every partner card; into the five-card crib of six players it is estimated by seeded
sampling (200,000 cribs a rank) and shipped in the same file.

>>> from audiocrib.engine.cards import parse_cards
>>> round(crib_value(parse_cards("5H 5S")), 2)
8.99
>>> crib_value(parse_cards("KH 9S")) < crib_value(parse_cards("5H JS"))
True
>>> round(crib_value(parse_cards("5H")), 2), round(crib_value(parse_cards("5H"), crib_size=5), 2)
(6.65, 10.58)
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from functools import cache
from importlib import resources
from itertools import combinations

from audiocrib.bots.discards import hand_points
from audiocrib.engine.cards import DECK, Card, Rank

__all__ = ["crib_average", "crib_class", "crib_table", "crib_value", "one_card_sample"]

_DATA = "crib_two_card.json"
_SAMPLES = 200_000


def crib_average(discards: Sequence[Card], seen: Sequence[Card] = ()) -> float:
    """The exact mean crib count of a two-card discard, the other two cards and the starter uniform over the rest.

    ``seen`` are other cards known not to be in the crib or the stock (the player's own hand).
    """
    if len(discards) != 2:
        raise ValueError("The crib average is for two cards laid away.")
    unseen = [c for c in DECK if c not in set(discards) | set(seen)]
    total = 0
    ways = 0
    for others in combinations(unseen, 2):
        crib = (*discards, *others)
        for starter in unseen:
            if starter is others[0] or starter is others[1]:
                continue
            total += hand_points(crib, starter, crib=True)
            ways += 1
    return total / ways


def crib_class(discards: Sequence[Card]) -> str:
    """The table's key for two cards: ranks low then high, and ``s`` when they share a suit: ``"5-J s"``.

    >>> from audiocrib.engine.cards import parse_cards
    >>> crib_class(parse_cards("JH 5H")), crib_class(parse_cards("5C 5D"))
    ('5-J s', '5-5')
    """
    low, high = sorted(discards, key=lambda c: c.rank)
    key = f"{low.rank.letter}-{high.rank.letter}"
    return key + (" s" if low.suit is high.suit else "")


def _representative(key: str) -> tuple[Card, Card]:
    ranks, _, suited = key.partition(" ")
    low, high = ranks.split("-")
    first = Card.parse(low + "H")
    second = Card.parse(high + ("H" if suited else "S"))
    return first, second


def _all_classes() -> list[str]:
    keys = []
    for low in Rank:
        for high in Rank:
            if high < low:
                continue
            keys.append(f"{low.letter}-{high.letter}")
            if high != low:
                keys.append(f"{low.letter}-{high.letter} s")
    return keys


def one_card_sample(rank: Rank, samples: int, seed: int) -> float:
    """Mean count of a five-card crib holding a card of ``rank``, by seeded sampling of the other four and the
    starter (the six-player crib)."""
    rng = random.Random(seed)
    card = Card(rank, _representative(f"{rank.letter}-{rank.letter}")[0].suit)
    rest = [c for c in DECK if c != card]
    total = 0
    for _ in range(samples):
        *others, starter = rng.sample(rest, 5)
        total += hand_points((card, *others), starter, crib=True)
    return total / samples


@cache
def _data() -> dict[str, dict[str, float]]:
    text = resources.files("audiocrib.bots").joinpath("data", _DATA).read_text(encoding="utf-8")
    data: dict[str, dict[str, float]] = json.loads(text)
    return data


def crib_table() -> dict[str, float]:
    """The shipped table: crib class -> exact average crib points (other cards random)."""
    return _data()["values"]


@cache
def _one_card(rank: Rank, crib_size: int) -> float:
    if crib_size == 5:
        return _data()["one_card_five_crib"][rank.letter]
    card = Card(rank, _representative(f"{rank.letter}-{rank.letter}")[0].suit)
    return sum(crib_table()[crib_class((card, other))] for other in DECK if other != card) / 51


def crib_value(discards: Sequence[Card], dealer: bool = True, crib_size: int = 4) -> float:
    """Average crib points that ``discards`` (one or two cards) bring to a crib of ``crib_size`` cards.

    The values are the same for either side's crib: the other cards are taken as random. ``dealer`` is part of
    the signature that `audiocrib.bots.discards.analyse` calls, for tables that tell the two sides apart.
    """
    if len(discards) == 2 and crib_size == 4:
        return crib_table()[crib_class(discards)]
    if len(discards) == 1 and crib_size in (4, 5):
        return _one_card(discards[0].rank, crib_size)
    raise ValueError(f"There is no crib value for {len(discards)} cards in a crib of {crib_size}.")


def _write(path: str) -> None:
    values = {key: round(crib_average(_representative(key)), 6) for key in _all_classes()}
    one_card = {rank.letter: round(one_card_sample(rank, _SAMPLES, seed=int(rank)), 6) for rank in Rank}
    data = {
        "method": (
            "values: exact mean crib count over every pair of other crib cards and every starter drawn from the 50 "
            "cards not laid away, scored as a crib (a flush needs all five). one_card_five_crib: mean count of a "
            f"six-player crib (five cards) holding a card of each rank, {_SAMPLES} seeded samples a rank (seed = "
            "rank number). Computed by python -m audiocrib.bots.crib --write."
        ),
        "values": values,
        "one_card_five_crib": one_card,
    }
    with open(path, "w", encoding="utf-8") as out:
        json.dump(data, out, indent=1, sort_keys=True)
        out.write("\n")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m audiocrib.bots.crib --write [PATH]`` computes the table (about a minute)."""
    parser = argparse.ArgumentParser(prog="python -m audiocrib.bots.crib", description=main.__doc__)
    parser.add_argument("--write", nargs="?", const=str(resources.files("audiocrib.bots").joinpath("data", _DATA)))
    args = parser.parse_args(argv)
    if args.write:
        _write(args.write)
        print(f"wrote {args.write}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
