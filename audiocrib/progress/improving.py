"""Progress over time: what the player's lay-aways and plays cost a deal, against the expert, week by week.

Pure: the shell weighs each deal once (the coach's review of it) and gives `Progress.add` the deal's cost with its
date; `Progress.figures` averages them over the weeks before a given day, and `to_json` and `from_json` keep them
between sessions (the shell's file, ``progress.json``). Only points of expectation are kept: a card weighed by the
chance of winning (the expert playing to the board) or with the game's end in sight is left out, and so is the
counting. The figures are kept by day, for a year; and beside them the words of the last match's review.

>>> from datetime import date
>>> progress = Progress()
>>> progress.add(DealCost(date(2026, 11, 2), lay_away=1.5, play=0.5))
>>> progress.add(DealCost(date(2026, 11, 26), lay_away=0.75, play=None))
>>> progress.add(DealCost(date(2026, 11, 27), lay_away=0.85, play=0.25))
>>> [(f.period, f.deals, round(f.average, 2)) for f in progress.figures("lay_away", date(2026, 11, 27))]
[('this week', 2, 0.8), ('last week', 0, 0.0), ('the month before', 1, 1.5)]
>>> Progress.from_json(progress.to_json()) == progress
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from audiocrib.engine.text import printable

__all__ = ["KEPT_DAYS", "KINDS", "PERIODS", "DealCost", "Figure", "Progress", "Tally"]

KINDS = ("lay_away", "play")
"""What is weighed: the lay-aways, and the cards laid in the play."""
PERIODS = (("this week", 0, 7), ("last week", 7, 14), ("the month before", 14, 45))
"""The periods the figures are said for: a name, and the days before today it runs from and to (today is 0)."""
KEPT_DAYS = 366
"""Days kept: the figures of a day older than this are let go when the file is written."""
MOST_DEALS = 10**7
"""More deals than anyone plays in a day: a count beyond it is not a real record."""
MOST_LOST = 200.0
"""Points of expectation a deal's lay-away or play can give up at most: far beyond the worst real choice."""
MOST_LINES = 40
"""The most messages the last match's review is kept in (it has a handful)."""
LINE_LENGTH = 4000
"""The longest message of it kept."""


@dataclass(frozen=True, slots=True)
class DealCost:
    """One deal weighed: its date, and what its lay-away and its cards laid gave up in points of expectation
    (None when none of that kind was weighed in points: the game resumed after the lay-away, say, or every card
    was weighed by the chance of winning)."""

    day: date
    lay_away: float | None
    play: float | None


@dataclass(slots=True)
class Tally:
    """Deals weighed, and the points of expectation they gave up in all."""

    deals: int = 0
    points: float = 0.0

    @property
    def average(self) -> float:
        """Points a deal (0 with no deals)."""
        return self.points / self.deals if self.deals else 0.0


@dataclass(frozen=True, slots=True)
class Figure:
    """One period's figure for one kind: its name, the deals weighed in it and their average cost."""

    period: str
    deals: int
    average: float


@dataclass(slots=True)
class Progress:
    """The costs of the deals weighed, by day and kind, and the words of the last match's review."""

    days: dict[date, dict[str, Tally]] = field(default_factory=dict)
    last_match: tuple[str, ...] = ()
    """The last match's review, one message each (kept until the next match ends)."""

    def add(self, cost: DealCost) -> None:
        """Count one deal's cost on its day."""
        day = self.days.setdefault(cost.day, {kind: Tally() for kind in KINDS})
        for kind, points in (("lay_away", cost.lay_away), ("play", cost.play)):
            if points is not None:
                tally = day[kind]
                tally.deals += 1
                tally.points += max(0.0, min(MOST_LOST, points))

    def figures(self, kind: str, today: date) -> list[Figure]:
        """The average cost a deal of ``kind`` ("lay_away" or "play") in each of `PERIODS` before ``today``."""
        figures = []
        for name, start, end in PERIODS:
            tally = Tally()
            for day, tallies in self.days.items():
                if start <= (today - day).days < end:
                    tally.deals += tallies[kind].deals
                    tally.points += tallies[kind].points
            figures.append(Figure(name, tally.deals, tally.average))
        return figures

    def plus(self, other: Progress) -> Progress:
        """These figures with ``other``'s added (the deals one copy of audiocrib weighed, added to the file's);
        ``other``'s last match review, if it has one."""
        merged = Progress({day: {kind: Tally(t.deals, t.points) for kind, t in tallies.items()}
                           for day, tallies in self.days.items()}, other.last_match or self.last_match)
        for day, tallies in other.days.items():
            mine = merged.days.setdefault(day, {kind: Tally() for kind in KINDS})
            for kind, tally in tallies.items():
                mine[kind].deals += tally.deals
                mine[kind].points += tally.points
        return merged

    def recent(self, today: date) -> Progress:
        """Only the days of the last `KEPT_DAYS` before ``today``, or before the latest day kept if that is later:
        a clock set back (years, when a computer's clock battery fails) never lets the real days go.

        >>> progress = Progress()
        >>> progress.add(DealCost(date(2026, 11, 27), 1.0, 1.0))
        >>> list(progress.recent(date(2000, 1, 1)).days), list(progress.recent(date(2027, 12, 1)).days)
        ([datetime.date(2026, 11, 27)], [])
        """
        latest = max([today, *self.days])
        return Progress({day: tallies for day, tallies in self.days.items() if (latest - day).days < KEPT_DAYS},
                        self.last_match)

    def to_json(self) -> dict[str, Any]:
        """The figures by day ("2026-11-27": {"lay_away": [deals, points], "play": [...]}) and the last match."""
        return {"days": {day.isoformat(): {kind: [t.deals, round(t.points, 4)] for kind, t in tallies.items()}
                         for day, tallies in sorted(self.days.items())},
                "last_match": list(self.last_match)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Progress:
        """The inverse of `to_json`; ValueError or TypeError on anything malformed or impossible (a date that is
        not one, a count of deals that is not a whole number, points given up beyond any real deal's, a review
        that is not printable text).

        >>> Progress.from_json({"days": {"2026-11-27": {"lay_away": [2, 900.0], "play": [0, 0]}}})
        Traceback (most recent call last):
        ...
        ValueError: the points given up do not add up
        """
        days, lines = data.get("days", {}), data.get("last_match", [])
        if not isinstance(days, dict) or len(days) > 4 * KEPT_DAYS:
            raise ValueError("the days are not in their usual shape")
        progress = cls()
        for key, tallies in days.items():
            if not (isinstance(key, str) and len(key) == 10 and isinstance(tallies, dict)
                    and set(tallies) == set(KINDS)):
                raise ValueError("a day is not in its usual shape")
            progress.days[date.fromisoformat(key)] = {kind: _tally(tallies[kind]) for kind in KINDS}
        if not isinstance(lines, list) or len(lines) > MOST_LINES or not all(
                isinstance(line, str) and 0 < len(line) <= LINE_LENGTH and printable(line) for line in lines):
            raise ValueError("the last match's review is not audiocrib's words")
        progress.last_match = tuple(lines)
        return progress


def _tally(value: Any) -> Tally:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("a tally is a count of deals and the points they gave up")
    deals, points = value
    if type(deals) is not int or not 0 <= deals <= MOST_DEALS:
        raise ValueError("a count of deals is not a whole number of deals")
    if type(points) not in (int, float) or not math.isfinite(points) or points < 0:
        raise ValueError("the points given up are not a number")
    if points > deals * MOST_LOST:
        raise ValueError("the points given up do not add up")
    return Tally(deals, float(points))

