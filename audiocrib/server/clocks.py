"""A table's clocks on the server: the counting clock and each person's move time limit, and the words said when a
person's move time runs out.

`Clocks` keeps, for one table, when the count now due runs out and when each person the game waits on runs out of
move time (and whether they were warned ten seconds before). In memory the times are on `time.monotonic` (a
change of the computer's clock does not move them); each change is written to the store as wall-clock times, so a
server started again goes on with the time that was left rather than starting every clock afresh. A clock read
back after a restart never has less than `RESTORED_SECONDS` left: the person may have been cut off by the restart
and needs a moment to come back. What was written for another point of the game (a count since made) is not used.

>>> from audiocrib.server.store import Store
>>> clocks = Clocks(Store(":memory:"), 1)
>>> clocks.keep_moves(None, {0}, 60) is not None, clocks.moved(0), clocks.moves
(True, None, {})
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Set
from dataclasses import dataclass

from audiocrib.engine.actions import CountTimeout
from audiocrib.engine.game import Game, Phase
from audiocrib.online.messages import MAX_COUNT_MS, MAX_MOVE_MS
from audiocrib.server.records import StoreError
from audiocrib.server.store import Store

__all__ = ["LATE_LEVEL", "RESTORED_SECONDS", "SHOW_SECONDS", "TEN_SECONDS", "WARNING_SECONDS", "YOU_WERE_LATE",
           "Clocks", "Deadline", "late_count", "late_sentence"]

LATE_LEVEL = "medium"
"""The computer player that moves for a person who took longer than the table's move time limit."""
TEN_SECONDS = "Ten seconds left to move."
"""Said to a person ten seconds before their move time limit runs out."""
YOU_WERE_LATE = "You took too long; a computer player made your move."
"""Said to the person a computer player moved for."""
WARNING_SECONDS = 10
"""How long before the move time limit runs out the person is warned (for limits of twice that or more)."""
SHOW_SECONDS = 30
"""Added to the move time limit for laying away after a show: the player hears the show, goes on from the pause
after it, and then hears the new hand, before the lay-away is theirs to make."""
RESTORED_SECONDS = 10
"""The least time a clock has left when it is read back after a restart."""
_log = logging.getLogger(__name__)


def late_sentence(name: str) -> str:
    """What the table hears when a computer player made ``name``'s move for them."""
    return f"{name} took too long; a computer player made the move."


def late_count(game: Game) -> CountTimeout | None:
    """A late person's move when it is a count the rules time: a timeout, as the counting clock's; else None."""
    if game.phase is Phase.COUNT and game.rules.count_timer is not None and game.counting is not None:
        return CountTimeout(game.counting[0])
    return None


@dataclass(slots=True)
class Deadline:
    """When a person's move time runs out (`time.monotonic`), and whether they were warned."""

    at: float
    warned: bool


class Clocks:
    """The clocks of table ``table``, read from ``store`` (as a restart left them) and written back on each
    change."""

    def __init__(self, store: Store, table: int) -> None:
        self._store = store
        self._table = table
        self.count: tuple[int, float] | None = None
        """The log's length and the time the count due then runs out, or None."""
        self.moves: dict[int, Deadline] = {}
        """Seat -> when its person's move time runs out."""
        self._written: str | None = None
        self._read()

    # ------------------------------------------------------------ the counting clock
    @staticmethod
    def count_due(game: Game | None, people_due: Set[int]) -> int | None:
        """The log's length if ``game`` waits on a person's manual count (of ``people_due``, the people it waits
        on) and the rules time it, else None."""
        if game is None or game.counting is None or game.rules.count_timer is None:
            return None
        return len(game.events) if game.counting[0] in people_due else None

    @staticmethod
    def count_ms(deadline: float | None, game: Game | None, seat: int) -> int | None:
        """The milliseconds left to ``deadline`` (the counting clock's) if ``game`` waits on ``seat``'s count."""
        if deadline is None or game is None or game.counting is None or game.counting[0] != seat:
            return None
        return min(MAX_COUNT_MS, max(0, round((deadline - time.monotonic()) * 1000)))

    def count_deadline(self, stamp: int | None, seconds: int | None) -> float | None:
        """When the count due at log length ``stamp`` runs out: set to ``seconds`` from now the first time it is
        asked for at that point of the log; None (and the clock stopped) when no count is due."""
        if stamp is None or seconds is None:
            if self.count is not None:
                self.count = None
                self._write()
            return None
        if self.count is None or self.count[0] != stamp:
            self.count = stamp, time.monotonic() + seconds
            self._write()
        return self.count[1]

    # ------------------------------------------------------------ the move time limit
    def keep_moves(self, game: Game | None, due: Set[int], limit: int | None) -> float | None:
        """Keep a deadline for each seat in ``due`` (the people ``game`` waits on), forgetting the others; a new
        one is ``limit`` seconds from now, with `SHOW_SECONDS` more for laying away after a show. When (on
        `time.monotonic`) the next warning or deadline falls, or None."""
        after_show = (game is not None and game.phase is Phase.DISCARD
                      and (game.deal_number > 1 or game.game_number > 1))
        changed = False
        for seat in [s for s in self.moves if limit is None or s not in due]:
            del self.moves[seat]
            changed = True
        if limit is not None:
            for seat in due - self.moves.keys():
                self.moves[seat] = Deadline(time.monotonic() + limit + (SHOW_SECONDS if after_show else 0),
                                            warned=limit < 2 * WARNING_SECONDS)
                changed = True
        if changed:
            self._write()
        return min((d.at if d.warned else d.at - WARNING_SECONDS for d in self.moves.values()), default=None)

    def moved(self, seat: int) -> None:
        """The person at ``seat`` has moved: their move time starts afresh when the game next waits on them."""
        if self.moves.pop(seat, None) is not None:
            self._write()

    def ring(self, now: float) -> tuple[int | None, list[int]]:
        """At ``now``: the seat whose move time ran out first (its deadline forgotten), else the seats to warn
        (marked warned)."""
        warn = []
        for seat, deadline in sorted(self.moves.items(), key=lambda item: item[1].at):
            if deadline.at <= now:
                del self.moves[seat]
                self._write()
                return seat, []
            if not deadline.warned and deadline.at - WARNING_SECONDS <= now:
                deadline.warned = True
                warn.append(seat)
        if warn:
            self._write()
        return None, warn

    def move_ms(self, seat: int, due: Set[int]) -> tuple[int | None, int | None]:
        """The milliseconds left for a move, and whose: ``seat``'s own if it has a deadline, else that of the
        person of ``due`` (those the game waits on) with least time left; (None, None) if none."""
        timed = {s: d.at for s, d in self.moves.items() if s in due}
        if not timed:
            return None, None
        whose = seat if seat in timed else min(timed, key=lambda s: (timed[s], s))
        return min(MAX_MOVE_MS, max(0, round((timed[whose] - time.monotonic()) * 1000))), whose

    # ------------------------------------------------------------ kept in the store
    def _write(self) -> None:
        """Write the clocks as wall-clock times (a failure is logged: the clocks go on in memory)."""
        shift = time.time() - time.monotonic()
        kept = {"count": None if self.count is None else [self.count[0], self.count[1] + shift],
                "moves": [[seat, d.at + shift, d.warned] for seat, d in sorted(self.moves.items())]}
        text = json.dumps(kept) if self.count is not None or self.moves else None
        if text == self._written:
            return
        try:
            self._store.set_clocks(self._table, text)
        except (StoreError, sqlite3.Error):
            _log.exception("The clocks of table %d could not be kept.", self._table)
            return
        self._written = text

    def _read(self) -> None:
        """The clocks as the store has them, each with at least `RESTORED_SECONDS` left; anything malformed is
        left out (that clock starts afresh)."""
        text = self._store.clocks(self._table)
        self._written = text
        try:
            kept = json.loads(text) if text is not None else {}
        except ValueError:
            return
        if not isinstance(kept, dict):
            return
        now = time.monotonic()
        shift = now - time.time()
        least = now + RESTORED_SECONDS
        count = kept.get("count")
        if (isinstance(count, list) and len(count) == 2 and type(count[0]) is int
                and isinstance(count[1], int | float)):
            self.count = count[0], max(least, float(count[1]) + shift)
        moves = kept.get("moves")
        for item in moves if isinstance(moves, list) else []:
            if (isinstance(item, list) and len(item) == 3 and type(item[0]) is int and 0 <= item[0] < 6
                    and isinstance(item[1], int | float) and type(item[2]) is bool):
                at = float(item[1]) + shift
                self.moves[item[0]] = Deadline(max(least, at), item[2] and at >= least)
