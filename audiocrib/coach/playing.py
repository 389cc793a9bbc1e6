"""Advice in the play: the card the expert would lay, what each card the seat may lay scores now, and what it
lets the next opponent score on it.

The choice and its value are the expert's own (`audiocrib.bots.expert`: a look-ahead over many deals of the
unseen cards, or near the end of a two-player game the chance of winning). The facts beside them are exact and
need no guessing: what a card pegs now, the count it leaves, and for every rank still unseen whether the next
opponent could score by laying it, and how many of the unseen cards are of that rank.

>>> from audiocrib import Game
>>> from audiocrib.engine.actions import Discard
>>> game = Game(seed=3)
>>> for seat in (0, 1):
...     _ = game.apply(Discard(seat, game.view(seat).hand[:2]))
>>> advice = play_advice(game.view(game.turn))
>>> advice.lead, advice.choices[0].count == advice.choices[0].card.value
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from audiocrib.bots.base import points_now, winning_card
from audiocrib.bots.expert import Expert
from audiocrib.bots.pegging import RANK_VALUE
from audiocrib.engine.cards import DECK, Card, Rank
from audiocrib.engine.scoring import Score, ScoreKind, score_play
from audiocrib.engine.views import PlayerView

__all__ = ["DANGEROUS_COUNTS", "CardChoice", "PlayAdvice", "Reply", "play_advice"]

DANGEROUS_COUNTS = (5, 10, 21)
"""Counts that any ten-card (five, twenty-one) or any five (ten) makes fifteen or thirty-one on."""


@dataclass(frozen=True, slots=True)
class Reply:
    """A rank the next opponent could lay on a card, and what it would score there."""

    rank: Rank
    score: Score
    cards: int
    """How many of the unseen cards are of this rank (each of them could be in the opponent's hand)."""


@dataclass(frozen=True, slots=True)
class CardChoice:
    """One card the seat may lay, with the expert's value of it and the facts about it.

    ``value`` is what the expert's look-ahead makes of it: points its side pegs less the average of each other
    side's, or (``PlayAdvice.board``) the chance of winning, in percent. ``loss`` is how far it falls short of the
    expert's choice. ``score`` is what it pegs now, ``last`` whether it is sure to take one for the last card too.
    ``replies`` are the ranks with which the next opponent would score on it, most points first; ``fits`` is how
    many unseen cards could be laid on it at all, and ``go_chance`` the chance that none of the opponent's cards
    fits (they must say go), counting every unseen card as equally likely to be in their hand. ``final`` is set
    when it is the last card of the play (nobody holds another), ``backed`` when the seat holds another card of
    its rank and could answer a pair with a pair royal.
    """

    card: Card
    value: float
    loss: float
    count: int
    score: Score
    last: bool
    replies: tuple[Reply, ...]
    fits: int
    go_chance: float = 0.0
    final: bool = False
    backed: bool = False

    @property
    def pegs(self) -> int:
        """Points it is sure to peg now."""
        return self.score.total + (1 if self.last else 0)

    @property
    def danger(self) -> int:
        """The most the next opponent could score on it."""
        return max((r.score.total for r in self.replies), default=0)

    @property
    def dangerous_count(self) -> bool:
        """It leaves one of the counts players avoid, five, ten or twenty-one, and a card the seat has not seen
        makes fifteen or thirty-one on it there."""
        return self.count in DANGEROUS_COUNTS and any(
            r.score.of_kind(ScoreKind.FIFTEEN, ScoreKind.THIRTY_ONE) for r in self.replies)


@dataclass(frozen=True, slots=True)
class PlayAdvice:
    """The expert's card first, then the seat's other cards best first (one card of each rank)."""

    choices: tuple[CardChoice, ...]
    count: int
    """The count before the card."""
    lead: bool
    """No card is on the table in this series."""
    wins: bool
    """The first card wins the game now."""
    board: bool
    """Values are chances of winning, in percent: two players near the end. (With ``wins``, a value is 1 for a
    card that wins now and 0 for one that does not.)"""
    need: int
    """Points the seat's side needs to win."""
    opponent: int | None
    """The opponent who lays next, whose replies are counted (None when a partner or nobody lays next)."""
    opponent_need: int
    """Points the next opponent's side (or, with none, the closest other side) needs to win."""
    unseen: int
    """How many cards the seat has not seen."""
    go_ours: bool = False
    """When the next opponent must say go, nobody else can lay before this seat: the go is the seat's."""

    @property
    def best(self) -> CardChoice:
        """The expert's card."""
        return self.choices[0]

    def choice_of(self, card: Card) -> CardChoice:
        """The choice of ``card``'s rank (every card of a rank plays alike)."""
        return next(c for c in self.choices if c.card.rank is card.rank)


def _unseen(view: PlayerView) -> list[Card]:
    known = {*view.hand, *(view.discards or ()), *(c for cards in view.played for c in cards)}
    if view.starter is not None:
        known.add(view.starter)
    return [c for c in DECK if c not in known]


def _next_to_lay(view: PlayerView) -> int | None:
    """The seat that lays after this one's card, if anyone can (a seat that said go or holds nothing is passed)."""
    players = view.rules.players
    for step in range(1, players):
        seat = (view.seat + step) % players
        if view.held[seat] and seat not in view.said_go:
            return seat
    return None


def _replies(view: PlayerView, card: Card, unseen: Sequence[Card]) -> tuple[tuple[Reply, ...], int]:
    series = [c for _, c in view.series] + [card]
    count = view.count + card.value
    by_rank: dict[Rank, list[Card]] = {}
    for other in unseen:
        if count + other.value <= 31:
            by_rank.setdefault(other.rank, []).append(other)
    replies = []
    for rank, cards in by_rank.items():
        score = score_play([*series, cards[0]])
        if score.total:
            replies.append(Reply(rank, score, len(cards)))
    replies.sort(key=lambda r: (-r.score.total, -r.cards, r.rank))
    return tuple(replies), sum(len(cards) for cards in by_rank.values())


def play_advice(view: PlayerView, expert: Expert | None = None) -> PlayAdvice:
    """The advice for the seat of ``view``, which must lay a card now. The expert's random source is used as it
    stands (reseed it first for advice that can be heard again alike)."""
    expert = expert or Expert()
    by_rank: dict[Rank, Card] = {}
    for card in view.playable:
        by_rank.setdefault(card.rank, card)
    winner = winning_card(view)
    need = view.rules.target - view.scores[view.side]
    if winner is not None:  # a card that wins now is the choice; a card that does not is worth nothing beside it
        values = {int(r): 1.0 if points_now(view, c) >= need else 0.0 for r, c in by_rank.items()}
        chosen = winner
    elif len(by_rank) == 1:
        values = dict.fromkeys((int(r) for r in by_rank), 0.0)
        chosen = next(iter(by_rank.values()))
    else:
        totals, weights = expert.play_values(view)
        values = {rank: total / weights for rank, total in totals.items()}
        chosen = by_rank[Rank(max(totals, key=lambda r: (round(totals[r], 9), RANK_VALUE[r])))]
    unseen = _unseen(view)
    opponent = _next_to_lay(view)
    if opponent is not None and view.rules.side_of(opponent) == view.side:
        opponent = None
    best_value = values[int(chosen.rank)]
    held = view.held[opponent] if opponent is not None else 0
    choices = []
    for card in [chosen, *sorted((c for c in by_rank.values() if c.rank is not chosen.rank),
                                 key=lambda c: (-values[int(c.rank)], c))]:
        replies, fits = _replies(view, card, unseen) if opponent is not None else ((), 0)
        score = score_play([*(c for _, c in view.series), card])
        count = view.count + card.value
        choices.append(CardChoice(
            card=card,
            value=values[int(card.rank)],
            loss=max(0.0, best_value - values[int(card.rank)]),
            count=count,
            score=score,
            last=points_now(view, card) > score.total,
            replies=replies,
            fits=fits,
            go_chance=_none_fit(len(unseen), fits, held) if opponent is not None and count < 31 else 0.0,
            final=sum(view.held) == 1,
            backed=any(c.rank is card.rank and c != card for c in view.hand) and count + 2 * card.value <= 31,
        ))
    needs = [view.rules.target - s for s in view.scores]
    others = [n for side, n in enumerate(needs) if side != view.side]
    return PlayAdvice(
        choices=tuple(choices),
        count=view.count,
        lead=not view.series,
        wins=winner is not None,
        board=expert.plays_to_the_board(view) and winner is None,
        need=needs[view.side],
        opponent=opponent,
        opponent_need=needs[view.rules.side_of(opponent)] if opponent is not None else min(others),
        unseen=len(unseen),
        go_ours=opponent is not None and all(
            s in (view.seat, opponent) or s in view.said_go or not view.held[s] for s in range(view.rules.players)),
    )


def _none_fit(unseen: int, fits: int, held: int) -> float:
    """The chance that a hand of ``held`` cards drawn from ``unseen`` holds none of the ``fits`` that fit."""
    if held > unseen:
        return 0.0
    return math.comb(unseen - fits, held) / math.comb(unseen, held)
