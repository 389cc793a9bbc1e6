"""The counting timer: a deadline, warnings at half time, ten and five seconds, and a pause.

Shared by the manual count in a game and the count drills. The clock is any function giving seconds (a test
replaces it), so nothing here sleeps.

>>> now = [100.0]
>>> timer = CountClock(lambda: now[0])
>>> timer.start(30)
>>> now[0] += 16
>>> timer.check()
([14], False)
>>> now[0] += 20
>>> timer.check()
([], True)
>>> timer.running
False
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["CountClock"]


class CountClock:
    """A count's time limit on ``clock``."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.deadline: float | None = None
        self._warnings: list[float] = []
        self._paused_at: float | None = None
        self.elsewhere = False
        """The clock that counts is the table's own: this one only follows it (it never pauses)."""

    @property
    def running(self) -> bool:
        """Whether a count is being timed."""
        return self.deadline is not None

    def start(self, seconds: float, elsewhere: bool = False) -> None:
        """Time a count of ``seconds``, with warnings at half time, ten and five seconds left; ``elsewhere``: the
        table keeps the clock that counts, and this one follows it."""
        self.elsewhere = elsewhere
        now = self.clock()
        self.deadline = now + seconds
        self._warnings = sorted({now + seconds / 2, now + seconds - 10, now + seconds - 5}, reverse=True)
        self._paused_at = None

    def stop(self) -> None:
        """Stop timing (the count was given)."""
        self.deadline = None
        self._paused_at = None

    def left(self) -> int:
        """Whole seconds left (0 when not running or run out)."""
        return 0 if self.deadline is None else round(max(0.0, self.deadline - self.clock()))

    def check(self) -> tuple[list[int], bool]:
        """The warnings now due (seconds left, each said once) and whether the time has run out (then stopped)."""
        if self.deadline is None or self._paused_at is not None:
            return [], False
        now = self.clock()
        due = []
        while self._warnings and now >= self._warnings[-1]:
            self._warnings.pop()
            if now < self.deadline:
                due.append(round(self.deadline - now))
        if now >= self.deadline:
            self.deadline = None
            return due, True
        return due, False

    def pause(self) -> None:
        """Stop the clock (the game menu is open), unless the table keeps it."""
        if self.deadline is not None and self._paused_at is None and not self.elsewhere:
            self._paused_at = self.clock()

    def resume(self) -> None:
        """Start it again where it stopped."""
        if self.deadline is not None and self._paused_at is not None:
            away = self.clock() - self._paused_at
            self.deadline += away
            self._warnings = [when + away for when in self._warnings]
        self._paused_at = None
