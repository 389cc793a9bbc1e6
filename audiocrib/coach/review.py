"""Going over what a player decided: each lay-away and card laid beside the expert's choice, by deal and by match.

The shell notes each decision as it is made (`Notebook.note`: the view the player decided from, and what they
chose); the coach weighs it only when a review is asked for. Every loss is in points of expectation, the measure
of the discard analysis and of the expert's look-ahead, except near the end of a two-player game, where the expert
plays to the board and a card's loss is a share of the chance of winning, and a card that would have won the game
at once. A choice within `MISTAKE` of the best is never a mistake.

>>> from audiocrib import Game
>>> from audiocrib.engine.actions import Discard
>>> game, notebook = Game(seed=2), Notebook()
>>> view = game.view(0)
>>> advice = notebook.coach.advise(view)
>>> _ = game.apply(Discard(0, advice.best.discard))
>>> notebook.note(view, advice.best.discard)
>>> deal = notebook.deal_review(game.view(0).events, game_number=1, deal=1)
>>> deal.decisions[0].loss, deal.decisions[0].mistake
(0.0, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from audiocrib.coach.coach import Advice, Coach
from audiocrib.coach.laying import LayAwayAdvice
from audiocrib.engine.cards import Card
from audiocrib.engine.events import Dealt, Discarded, Event, HandShown, MatchWon, Played, PointsGiven, SeriesEnded
from audiocrib.engine.views import PlayerView

__all__ = ["MISTAKE", "DealReview", "Decision", "MatchReview", "Measure", "Notebook"]

MISTAKE = 0.1
"""Points of expectation a choice may give up and still not be called a mistake (a tenth of a point)."""
MISTAKE_CHANCE = 1.5
"""The same for a choice weighed by the chance of winning: under two in a hundred (said rounded, "about one in a
hundred" is never a mistake)."""
POINTS_PER_CHANCE = 2.5
"""Hundredths of the chance of winning worth about a point of expectation near the end of a game (the expert's
own exchange when it lays away to the board), for ranking losses of both kinds together."""


class Measure(StrEnum):
    """What a decision's loss is measured in."""

    POINTS = "points"
    """Points of expectation."""
    CHANCE = "chance"
    """A chance of winning, in hundredths (the expert plays to the board)."""
    GAME = "game"
    """1 when a card that would have won the game at once was not laid."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: the position as it stood, what was chosen, the coach's advice there, and (for a card laid)
    the card the next player laid on it, if any."""

    view: PlayerView
    chosen: tuple[Card, ...]
    advice: Advice
    reply: Played | None = None

    @property
    def laying_away(self) -> bool:
        """True for the lay-away, False for a card laid in the play."""
        return isinstance(self.advice, LayAwayAdvice)

    @property
    def measure(self) -> Measure:
        """What `loss` is measured in."""
        if isinstance(self.advice, LayAwayAdvice):
            return Measure.POINTS
        if self.advice.wins:
            return Measure.GAME
        return Measure.CHANCE if self.advice.board else Measure.POINTS

    @property
    def loss(self) -> float:
        """What the choice gave up against the expert's, in `measure`."""
        if isinstance(self.advice, LayAwayAdvice):
            return self.advice.choice_of(self.chosen).loss
        return self.advice.choice_of(self.chosen[0]).loss

    @property
    def mistake(self) -> bool:
        """The choice gave up more than a tenth of a point (or, weighed by the chance to win, more than
        `MISTAKE_CHANCE`)."""
        limit = {Measure.POINTS: MISTAKE, Measure.CHANCE: MISTAKE_CHANCE, Measure.GAME: 0.5}[self.measure]
        return self.loss > limit

    @property
    def points(self) -> float:
        """The loss in points of expectation, or 0 when it is measured otherwise."""
        return self.loss if self.measure is Measure.POINTS else 0.0


@dataclass(frozen=True, slots=True)
class DealReview:
    """One deal's decisions, and the points the seat's own counting gave away."""

    game_number: int
    deal: int
    decisions: tuple[Decision, ...]
    counting: int
    """Points left uncounted in the seat's own counts, and points given away for counts or calls wrong."""

    @property
    def lay_away(self) -> float:
        """Points of expectation the lay-away gave up."""
        return sum(d.points for d in self.decisions if d.laying_away)

    @property
    def play(self) -> float:
        """Points of expectation the cards laid gave up."""
        return sum(d.points for d in self.decisions if not d.laying_away)

    @property
    def cost(self) -> float:
        """Everything this deal gave up in points: lay-away, play and counting."""
        return self.lay_away + self.play + self.counting

    @property
    def mistakes(self) -> tuple[Decision, ...]:
        """The decisions that were mistakes, in the order they were made."""
        return tuple(d for d in self.decisions if d.mistake)


@dataclass(frozen=True, slots=True)
class MatchReview:
    """Every deal reviewed in a match, and where its points went."""

    deals: tuple[DealReview, ...]

    @property
    def lay_away(self) -> float:
        """Points of expectation the lay-aways gave up."""
        return sum(d.lay_away for d in self.deals)

    @property
    def play(self) -> float:
        """Points of expectation the play gave up."""
        return sum(d.play for d in self.deals)

    @property
    def counting(self) -> int:
        """Points the seat's counting gave away."""
        return sum(d.counting for d in self.deals)

    def costliest(self, most: int = 5) -> tuple[Decision, ...]:
        """The costliest mistakes of the match, at most ``most`` of them: missed wins, then the rest by what they
        gave up, a chance of winning counted at `POINTS_PER_CHANCE` hundredths a point."""
        mistakes = [d for deal in self.deals for d in deal.mistakes]
        return tuple(sorted(mistakes, key=_cost_order)[:most])


def _cost_order(decision: Decision) -> tuple[int, float]:
    if decision.measure is Measure.GAME:
        return (0, 0.0)
    loss = decision.loss / POINTS_PER_CHANCE if decision.measure is Measure.CHANCE else decision.loss
    return (1, -loss)


@dataclass
class Notebook:
    """A seat's decisions as they were made, for the reviews. Each is weighed by the coach when first reviewed."""

    coach: Coach = field(default_factory=Coach)
    _noted: list[tuple[PlayerView, tuple[Card, ...]]] = field(default_factory=list)
    _weighed: dict[int, Advice] = field(default_factory=dict)

    def note(self, view: PlayerView, chosen: tuple[Card, ...]) -> None:
        """The player chose ``chosen`` (cards laid away, or the one card laid) at ``view``, and the game took it."""
        self._noted.append((view, tuple(chosen)))

    def recall(self, log: tuple[Event, ...], seat: int, view_before: Callable[[int], PlayerView]) -> int:
        """Note the decisions ``seat`` made in this match before the notebook was begun (a game resumed from a
        save), each at the view just before its move in ``log`` (``view_before(index)``, which must be that view
        exactly: the game took the move the moment it was made). Returns how many were noted."""
        if self._weighed:
            raise ValueError("Decisions are recalled only into a notebook not yet reviewed.")
        start = max((i + 1 for i, e in enumerate(log) if isinstance(e, MatchWon)), default=0)
        noted = {len(view.events) for view, _ in self._noted}
        recalled: list[tuple[PlayerView, tuple[Card, ...]]] = []
        for index in range(start, len(log)):
            event = log[index]
            if isinstance(event, Discarded) and event.seat == seat:
                chosen = event.cards
            elif isinstance(event, Played) and event.seat == seat:
                chosen = (event.card,)
            else:
                continue
            if index not in noted:
                recalled.append((view_before(index), chosen))
        self._noted[:0] = recalled
        self._noted.sort(key=lambda entry: len(entry[0].events))
        return len(recalled)

    def clear(self) -> None:
        """Forget every decision (a new match)."""
        self._noted.clear()
        self._weighed.clear()

    def _advice(self, index: int) -> Advice:
        advice = self._weighed.get(index)
        if advice is None:
            view = self._noted[index][0]
            found = self.coach.advise(view)
            if found is None:
                raise ValueError("A decision was noted where the view waits for none.")
            advice = self._weighed[index] = found
        return advice

    def deal_review(self, log: tuple[Event, ...], game_number: int, deal: int) -> DealReview:
        """The review of one deal, from the decisions noted in it and the seat's log since (for what followed a
        card, and the counting)."""
        decisions = []
        seat: int | None = None
        start: int | None = None
        for index, (view, chosen) in enumerate(self._noted):
            if (view.game_number, view.deal_number) != (game_number, deal):
                continue
            seat = view.seat
            start = len(view.events) if start is None else min(start, len(view.events))
            reply = None if len(chosen) != 1 or view.must_discard else _reply(log, len(view.events), view.seat)
            decisions.append(Decision(view, chosen, self._advice(index), reply))
        counting = 0
        if seat is not None and start is not None:
            counting = _counting_lost(log[start:_deal_end(log, start)], seat)
        return DealReview(game_number, deal, tuple(decisions), counting)

    def match_review(self, log: tuple[Event, ...]) -> MatchReview:
        """The review of every deal noted."""
        deals = sorted({(v.game_number, v.deal_number) for v, _ in self._noted})
        return MatchReview(tuple(self.deal_review(log, g, d) for g, d in deals))


def _reply(log: tuple[Event, ...], at: int, seat: int) -> Played | None:
    """The card the next player laid on the card the seat laid at ``at`` in ``log``, in the same series."""
    for event in log[at + 1:]:
        if isinstance(event, SeriesEnded):
            return None
        if isinstance(event, Played):
            return event if event.seat != seat else None
    return None


def _deal_end(log: tuple[Event, ...], start: int) -> int:
    """The index just past a deal's events that starts before ``start``: the next deal, or the end of the log."""
    for index in range(start, len(log)):
        if isinstance(log[index], Dealt):
            return index
    return len(log)


def _counting_lost(events: tuple[Event, ...], seat: int) -> int:
    lost = 0
    for event in events:
        if isinstance(event, HandShown) and event.seat == seat and event.claimed is not None:
            lost += max(0, event.score.total - event.claimed)
        elif isinstance(event, PointsGiven) and event.offender == seat:
            lost += event.given
    return lost

