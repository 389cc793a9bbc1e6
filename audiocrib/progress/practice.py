"""Practice: counting drills (hands, cribs, and cards in the play), discard drills and play drills (in
`audiocrib.progress.play_choice`), with the figures a player wants to see improve.

Pure: the drills come from a seeded `random.Random`, the answers are judged here, and `PracticeRecord` keeps the
figures (and turns them into JSON to be kept between sessions by the shell).

A count drill is a hand (3, 4 or 5 cards) or crib and a starter; the player says a total. A play drill, for manual
pegging, is the cards of a series in the play: the player says what the last card made. When it is short, the
points missed are put down to the scoring items that make up the difference, the easiest to overlook first
(nobs, a flush, fifteens of three or more cards, runs, then the rest), so the record can say which combinations
a player most often misses.

>>> import random
>>> drill = count_drill(random.Random(1), cards=4, crib=False)
>>> len(drill.cards), drill.crib
(4, False)
>>> result = judge_count(drill, drill.score.total - 1 if drill.score.total else 0)
>>> result.right == (drill.score.total == 0)
True
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from typing import Any

from audiocrib.bots.crib import crib_value
from audiocrib.bots.discards import DiscardOption, analyse
from audiocrib.coach import MISTAKE
from audiocrib.engine.cards import DECK, Card
from audiocrib.engine.scoring import Score, ScoreItem, ScoreKind, score_hand, score_play
from audiocrib.progress.play_choice import PlayChoiceResult

__all__ = ["CountDrill", "CountResult", "DiscardDrill", "DiscardResult", "PlayDrill", "PracticeRecord", "count_drill",
           "discard_drill", "judge_count", "judge_discard", "missed_items", "play_drill"]


@dataclass(frozen=True, slots=True)
class CountDrill:
    """A hand (or crib) and a starter to count."""

    cards: tuple[Card, ...]
    starter: Card
    crib: bool

    @property
    def score(self) -> Score:
        """The true count."""
        return score_hand(self.cards, self.starter, self.crib)


@dataclass(frozen=True, slots=True)
class PlayDrill:
    """The cards of a series in the play, in the order laid: what did the last one make?"""

    series: tuple[Card, ...]

    @property
    def score(self) -> Score:
        """What the last card truly made."""
        return score_play(self.series)

    @property
    def count(self) -> int:
        """The count after the last card."""
        return sum(card.value for card in self.series)


@dataclass(frozen=True, slots=True)
class CountResult:
    """The judgement of one count: what was said (None: the time ran out), the truth, and what was missed."""

    drill: CountDrill | PlayDrill
    claimed: int | None
    missed: tuple[ScoreItem, ...]
    """The items the shortfall is put down to (empty when right, over or unexplained)."""

    @property
    def right(self) -> bool:
        """True when the claim is the true count."""
        return self.claimed == self.drill.score.total


def count_drill(rng: random.Random, cards: int = 4, crib: bool = False) -> CountDrill:
    """A random hand of ``cards`` cards (3, 4 or 5) and a starter, as a hand or a crib."""
    if cards not in (3, 4, 5):
        raise ValueError("A count drill is a hand of three, four or five cards.")
    dealt = rng.sample(DECK, cards + 1)
    return CountDrill(tuple(sorted(dealt[:cards])), dealt[cards], crib)


def play_drill(rng: random.Random) -> PlayDrill:
    """A random series of two to six cards that stays within thirty-one; the last card makes something about
    two times in three (most cards in a real play make nothing, which would teach little).

    >>> drill = play_drill(random.Random(2))
    >>> 2 <= len(drill.series) <= 6 and drill.count <= 31
    True
    """
    while True:
        deck = rng.sample(DECK, len(DECK))
        series: list[Card] = []
        for card in deck:
            if sum(c.value for c in series) + card.value <= 31:
                series.append(card)
            if len(series) == 6:
                break
        length = rng.randint(2, len(series))
        head = series[: length - 1]
        count = sum(c.value for c in head)
        fits = [c for c in deck if c not in head and count + c.value <= 31]
        scoring = [c for c in fits if score_play([*head, c]).total]
        if not fits:
            continue
        last = rng.choice(scoring if scoring and rng.random() < 2 / 3 else fits)
        return PlayDrill((*head, last))


_OVERLOOKED_FIRST = {ScoreKind.NOBS: 0, ScoreKind.FLUSH: 1, ScoreKind.FIFTEEN: 2, ScoreKind.RUN: 4,
                     ScoreKind.PAIR: 5, ScoreKind.PAIR_ROYAL: 6, ScoreKind.DOUBLE_PAIR_ROYAL: 7}


def _how_easy_to_miss(item: ScoreItem) -> int:
    if item.kind is ScoreKind.FIFTEEN and len(item.cards) == 2:
        return 3  # a two-card fifteen is seldom missed; three or more cards are
    return _OVERLOOKED_FIRST.get(item.kind, 8)


def missed_items(score: Score, shortfall: int) -> tuple[ScoreItem, ...]:
    """The scoring items that most plausibly make up ``shortfall`` missed points: the fewest items whose points
    sum to it, the easiest to overlook first; () if no set of items sums to it.

    >>> from audiocrib.engine.cards import Card, parse_cards
    >>> score = score_hand(parse_cards("5H 5D JS 6C"), Card.parse("4S"))
    >>> [item.kind.value for item in missed_items(score, 1)]
    ['nobs']
    """
    if shortfall <= 0:
        return ()
    items = sorted(score.items, key=_how_easy_to_miss)
    for size in range(1, len(items) + 1):
        for group in combinations(items, size):
            if sum(item.points for item in group) == shortfall:
                return group
    return ()


def judge_count(drill: CountDrill | PlayDrill, claimed: int | None) -> CountResult:
    """Judge a claim (None when the time ran out)."""
    true = drill.score.total
    short = true - claimed if claimed is not None else 0
    return CountResult(drill, claimed, missed_items(drill.score, short))


@dataclass(frozen=True, slots=True)
class DiscardDrill:
    """Cards dealt and whose crib it is: lay away ``lay`` of them."""

    cards: tuple[Card, ...]
    dealer: bool
    lay: int


@dataclass(frozen=True, slots=True)
class DiscardResult:
    """The player's discard against every option, best first."""

    drill: DiscardDrill
    chosen: DiscardOption
    options: tuple[DiscardOption, ...]

    @property
    def rank(self) -> int:
        """1 for the best choice (or one as good), 2 for the next, ..."""
        return 1 + sum(1 for o in self.options if o.net > self.chosen.net + 1e-9)

    @property
    def loss(self) -> float:
        """Expected points given up against the best choice."""
        return self.options[0].net - self.chosen.net


def discard_drill(rng: random.Random, cards: int = 6) -> DiscardDrill:
    """A random two-player deal of ``cards`` (5, 6 or 7), as dealer or pone at random; lay away two."""
    if cards not in (5, 6, 7):
        raise ValueError("A discard drill deals five, six or seven cards.")
    return DiscardDrill(tuple(sorted(rng.sample(DECK, cards))), rng.random() < 0.5, 2)


def judge_discard(drill: DiscardDrill, laid: tuple[Card, ...]) -> DiscardResult:
    """Judge laying ``laid`` away: the exact expected hand plus or minus the crib, against every choice."""
    options = tuple(analyse(drill.cards, drill.lay, dealer=drill.dealer, crib_value=partial(crib_value)))
    chosen = next(o for o in options if set(o.discard) == set(laid))
    return DiscardResult(drill, chosen, options)


@dataclass
class PracticeRecord:
    """Running figures for counting and discarding; `to_json` and `from_json` keep them between sessions."""

    counts: int = 0
    right: int = 0
    seconds: float = 0.0
    streak: int = 0
    best_streak: int = 0
    missed: Counter[str] = field(default_factory=Counter)
    """Points-carrying items missed, by kind ("fifteen", "run", "nobs", ...)."""
    discards: int = 0
    best_discards: int = 0
    points_lost: float = 0.0
    plays: int = 0
    """Cards laid in play drills."""
    right_plays: int = 0
    """Of them, the best card or one within a tenth of a point of it."""
    play_points_lost: float = 0.0
    """Points of expectation the cards laid gave up (a loss weighed as a chance of winning adds nothing)."""
    mistakes: list[CountResult | DiscardResult | PlayChoiceResult] = field(default_factory=list)
    """This session's wrong counts, lay-aways more than a tenth of a point short and cards laid wrong, for review
    (not kept between sessions)."""

    def add_count(self, result: CountResult, seconds: float, keep: bool = True) -> None:
        """Record one count and how long it took (``keep``: a wrong one goes in `mistakes` for review)."""
        self.counts += 1
        self.seconds += seconds
        if result.right:
            self.right += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        else:
            self.streak = 0
            if keep:
                self.mistakes.append(result)
            self.missed.update(_kind_name(item) for item in result.missed)

    def add_discard(self, result: DiscardResult, keep: bool = True) -> None:
        """Record one discard drill (``keep``: one more than a tenth of a point short goes in `mistakes`)."""
        self.discards += 1
        self.best_discards += result.rank == 1
        self.points_lost += result.loss
        if keep and result.loss > MISTAKE:
            self.mistakes.append(result)

    def add_play(self, result: PlayChoiceResult, keep: bool = True) -> None:
        """Record one play drill (``keep``: a mistake goes in `mistakes` for review)."""
        self.plays += 1
        self.right_plays += result.right
        self.play_points_lost += result.points
        if keep and not result.right:
            self.mistakes.append(result)

    def since(self, before: PracticeRecord) -> PracticeRecord:
        """What was added to these figures since they were ``before`` (their news, to add to a fresher copy).

        >>> before = PracticeRecord(counts=5, right=4, streak=2, best_streak=3)
        >>> now = PracticeRecord(counts=7, right=6, streak=4, best_streak=4)
        >>> news = now.since(before)
        >>> news.counts, news.right, news.streak
        (2, 2, 2)
        """
        return PracticeRecord(
            counts=self.counts - before.counts, right=self.right - before.right,
            seconds=max(0.0, self.seconds - before.seconds),
            streak=self.streak if self.streak < self.counts - before.counts else self.counts - before.counts,
            best_streak=self.best_streak, missed=self.missed - before.missed,
            discards=self.discards - before.discards, best_discards=self.best_discards - before.best_discards,
            points_lost=max(0.0, self.points_lost - before.points_lost), plays=self.plays - before.plays,
            right_plays=self.right_plays - before.right_plays,
            play_points_lost=max(0.0, self.play_points_lost - before.play_points_lost))

    def plus(self, news: PracticeRecord) -> PracticeRecord:
        """These figures with ``news`` (from `since`) added: the counts and times add up; the streak goes on from
        this one's if every count since was right.

        >>> kept = PracticeRecord(counts=10, right=9, streak=3, best_streak=5)
        >>> both = kept.plus(PracticeRecord(counts=2, right=2, streak=2, best_streak=6))
        >>> both.counts, both.right, both.streak, both.best_streak
        (12, 11, 5, 6)
        """
        unbroken = news.right == news.counts
        streak = self.streak + news.streak if unbroken else news.streak
        right = self.right + news.right  # a best streak from figures since set aside cannot outrun the counts
        return PracticeRecord(
            counts=self.counts + news.counts, right=right, seconds=self.seconds + news.seconds,
            streak=streak, best_streak=min(right, max(self.best_streak, news.best_streak, streak)),
            missed=self.missed + news.missed, discards=self.discards + news.discards,
            best_discards=self.best_discards + news.best_discards, points_lost=self.points_lost + news.points_lost,
            plays=self.plays + news.plays, right_plays=self.right_plays + news.right_plays,
            play_points_lost=self.play_points_lost + news.play_points_lost)

    def to_json(self) -> dict[str, Any]:
        """The figures kept between sessions (not this session's mistakes)."""
        return {"counts": self.counts, "right": self.right, "seconds": round(self.seconds, 3),
                "streak": self.streak, "best_streak": self.best_streak, "missed": dict(self.missed),
                "discards": self.discards, "best_discards": self.best_discards,
                "points_lost": round(self.points_lost, 4), "plays": self.plays, "right_plays": self.right_plays,
                "play_points_lost": round(self.play_points_lost, 4)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PracticeRecord:
        """The inverse of `to_json`; raises ValueError or TypeError on anything malformed or impossible (more
        right than counted, a streak longer than the counts right, NaN or a day a count).

        >>> PracticeRecord.from_json({"counts": 4, "right": 40})
        Traceback (most recent call last):
        ...
        ValueError: the practice figures do not add up
        """
        if not isinstance(data, dict):
            raise TypeError("the practice record must be an object")
        whole = {k: data.get(k, 0) for k in ("counts", "right", "streak", "best_streak", "discards",
                                                "best_discards", "plays", "right_plays")}
        if not all(type(v) is int and 0 <= v <= MOST_DRILLS for v in whole.values()):
            raise ValueError("counts must be whole numbers")
        missed = data.get("missed", {})
        if not isinstance(missed, dict) or not set(missed) <= _MISSABLE or not all(
                type(v) is int and 0 <= v <= MOST_DRILLS for v in missed.values()):
            raise ValueError("missed must map kinds to counts")
        seconds, points_lost = data.get("seconds", 0), data.get("points_lost", 0)
        play_lost = data.get("play_points_lost", 0)
        if not all(type(v) in (int, float) and math.isfinite(v) and v >= 0 for v in (seconds, points_lost,
                                                                                      play_lost)):
            raise ValueError("the time and the points given up must be numbers")
        counts, right, wrong = whole["counts"], whole["right"], whole["counts"] - whole["right"]
        if not (right <= counts and whole["streak"] <= whole["best_streak"] <= right
                and seconds <= counts * _LONGEST_COUNT and whole["best_discards"] <= whole["discards"]
                and points_lost <= whole["discards"] * _MOST_LOST
                and whole["right_plays"] <= whole["plays"] and play_lost <= whole["plays"] * _MOST_LOST
                and all(v <= wrong * _MOST_ITEMS for v in missed.values())):
            raise ValueError("the practice figures do not add up")
        return cls(counts=counts, right=right, seconds=float(seconds), streak=whole["streak"],
                   best_streak=whole["best_streak"], missed=Counter(missed), discards=whole["discards"],
                   best_discards=whole["best_discards"], points_lost=float(points_lost), plays=whole["plays"],
                   right_plays=whole["right_plays"], play_points_lost=float(play_lost))


MOST_DRILLS = 10**8
"""More drills than anyone does in a lifetime: a figure beyond it is not a real record."""
_LONGEST_COUNT = 7 * 86400
"""Seconds: no count takes a week on average (without the timer a drill waits, but not that long)."""
_MOST_LOST = 200
"""Points a deal (or a card laid) given up at most: far beyond the worst discard's or card's expected loss."""
_MOST_ITEMS = 20
"""Scoring items a count can miss at most (a hand and starter hold at most eight fifteens, and so on)."""
_KIND_NAMES = {ScoreKind.RUN: "runs", ScoreKind.FLUSH: "flushes", ScoreKind.NOBS: "nobs", ScoreKind.PAIR: "pairs",
               ScoreKind.PAIR_ROYAL: "pairs royal", ScoreKind.DOUBLE_PAIR_ROYAL: "double pairs royal",
               ScoreKind.THIRTY_ONE: "thirty-ones", ScoreKind.FIFTEEN: "fifteens of three or more cards"}
_MISSABLE = frozenset({"fifteens", *_KIND_NAMES.values()})


def _kind_name(item: ScoreItem) -> str:
    if item.kind is ScoreKind.FIFTEEN and len(item.cards) == 2:
        return "fifteens"
    return _KIND_NAMES[item.kind]
