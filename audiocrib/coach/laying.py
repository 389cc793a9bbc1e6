"""Advice at the lay-away: the expert's choice and the next best, each with the facts a reason is made of.

Every way to lay away is valued as the expert values it (`audiocrib.bots.expert`): the exact expected hand over
every starter not seen, plus the expected crib for one's own side's crib or minus it for another side's. Near the
end of a game the expert lays away to make the points it needs with its hand alone, and the advice says so.

>>> from audiocrib.engine.cards import parse_cards
>>> advice = lay_away_facts(parse_cards("5H 5S 5C JD 4H 6C"), discard=2, my_crib=False, crib_size=4)
>>> [str(c) for c in advice.choices[0].discard], round(advice.choices[0].expected_hand, 2)
(['4H', '6C'], 16.65)
>>> advice.choices[0].most_hand, advice.choices[0].holds.total
(True, 14)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from audiocrib.bots.crib import crib_value
from audiocrib.bots.discards import DiscardOption, analyse
from audiocrib.bots.expert import Expert, board_chance, to_the_board
from audiocrib.engine.cards import DECK, Card, Rank, Suit
from audiocrib.engine.scoring import Score, score_kept
from audiocrib.engine.views import PlayerView

__all__ = ["KeepChoice", "LayAwayAdvice", "lay_away_advice", "lay_away_facts"]

SHOWN = 3
"""How many choices the advice names: the expert's and the next two."""


@dataclass(frozen=True, slots=True)
class KeepChoice:
    """One way to lay away, as the expert weighs it.

    ``loss`` is how far its net falls short of the expert's choice (0 for that choice); ``holds`` what the kept
    cards score before the starter; ``most_hand`` and ``best_crib`` whether no other keep has a bigger expected
    hand, or gives the crib less (more, when it is one's own); ``chance``, when the expert plays to the board, the
    share of starters with which the hand (and one's own crib, on average) makes the points needed. ``flush`` and
    ``nobs`` are the parts of ``expected_hand`` that a flush kept and a jack kept (one more when its suit is cut)
    bring on average.
    """

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    expected_hand: float
    expected_crib: float
    net: float
    loss: float
    holds: Score
    most_hand: bool
    best_crib: bool
    chance: float | None = None
    flush: float = 0.0
    nobs: float = 0.0

    @property
    def jacks(self) -> tuple[Card, ...]:
        """The jacks kept: each scores one for nobs when a card of its suit is cut."""
        return tuple(c for c in self.keep if c.rank is Rank.JACK)


@dataclass(frozen=True, slots=True)
class LayAwayAdvice:
    """The expert's choice first, then the next best (up to `SHOWN`), and what the whole choice turned on.

    ``need`` is set when the expert lays away to the board: the points its hand should make (what the side needs
    to win, ``to_win``, less a little for pegging).
    """

    choices: tuple[KeepChoice, ...]
    my_crib: bool
    need: int | None
    ways: int
    """How many ways there were to lay away."""
    everything: tuple[KeepChoice, ...]
    """Every way, in the order of ``choices`` and then best net first."""
    to_win: int | None = None
    """With ``need``: the points the side needs to win."""

    @property
    def best(self) -> KeepChoice:
        """The expert's choice."""
        return self.choices[0]

    def choice_of(self, discard: Sequence[Card]) -> KeepChoice:
        """The choice that lays ``discard`` away."""
        wanted = set(discard)
        return next(c for c in self.everything if set(c.discard) == wanted)


def _starter_shares(hand: Sequence[Card]) -> dict[Suit, float]:
    """For each suit, the share of the starters not among ``hand`` that are of it."""
    held = set(hand)
    starters = [c for c in DECK if c not in held]
    return {suit: sum(1 for c in starters if c.suit is suit) / len(starters) for suit in Suit}


def _flush(keep: Sequence[Card], shares: dict[Suit, float]) -> float:
    """What a flush kept brings on average: a point a card, one more when the starter is of its suit."""
    if len({c.suit for c in keep}) != 1:
        return 0.0
    return len(keep) + shares[keep[0].suit]


def _choices(
    options: list[DiscardOption], first: DiscardOption, hand: Sequence[Card], my_crib: bool, need: int | None
) -> tuple[KeepChoice, ...]:
    most_hand = max(o.expected_hand for o in options)
    cribs = [o.expected_crib or 0.0 for o in options]
    best_crib = max(cribs) if my_crib else min(cribs)
    shares = _starter_shares(hand)
    ordered = [first, *(o for o in options if o is not first)]
    chances = {id(o): board_chance(o, hand, my_crib, need) for o in options} if need is not None else {}
    if need is not None:
        ordered = [first, *sorted(ordered[1:], key=lambda o: -chances[id(o)] - o.net / 40.0)]
    return tuple(
        KeepChoice(
            keep=o.keep,
            discard=o.discard,
            expected_hand=o.expected_hand,
            expected_crib=o.expected_crib or 0.0,
            net=o.net,
            loss=max(0.0, first.net - o.net),
            holds=score_kept(o.keep),
            most_hand=o.expected_hand >= most_hand - 1e-9,
            best_crib=abs((o.expected_crib or 0.0) - best_crib) < 1e-9,
            chance=chances.get(id(o)),
            flush=_flush(o.keep, shares),
            nobs=sum(shares[c.suit] for c in o.keep if c.rank is Rank.JACK),
        )
        for o in ordered
    )


def _distinct(everything: tuple[KeepChoice, ...]) -> tuple[KeepChoice, ...]:
    """The first `SHOWN` choices that keep different ranks: the advice names the cards kept by rank, so keeping
    the five of hearts or of spades is said once, the better of them."""
    shown: list[KeepChoice] = []
    seen: set[tuple[int, ...]] = set()
    for choice in everything:
        key = tuple(int(c.rank) for c in choice.keep)
        if key not in seen:
            seen.add(key)
            shown.append(choice)
            if len(shown) == SHOWN:
                break
    return tuple(shown)


def lay_away_facts(
    hand: Sequence[Card], discard: int, my_crib: bool, crib_size: int, need: int | None = None
) -> LayAwayAdvice:
    """The advice for a hand dealt outside a game (the discard drills): ``need`` plays to the board."""
    options = analyse(hand, discard, dealer=my_crib, crib_value=partial(crib_value, crib_size=crib_size))
    first = options[0]
    if need is not None:
        first = to_the_board(hand, my_crib, options, need)
    everything = _choices(options, first, hand, my_crib, need)
    return LayAwayAdvice(_distinct(everything), my_crib, need, len(options), everything)


def lay_away_advice(view: PlayerView, expert: Expert | None = None) -> LayAwayAdvice:
    """The advice for the seat of ``view``, which must lay away now: the expert's own choice first."""
    expert = expert or Expert()
    options, need = expert.discard_options(view)
    first = options[0] if need is None else to_the_board(view.hand, view.my_crib, options, need)
    everything = _choices(options, first, view.hand, view.my_crib, need)
    to_win = None if need is None else view.rules.target - view.scores[view.side]
    return LayAwayAdvice(_distinct(everything), view.my_crib, need, len(options), everything, to_win)
