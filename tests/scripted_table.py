"""A table that holds no game: it plays back a recording, so a test shows the shell needs nothing but a `Table`.

`record_through` sits a session at a real offline table and notes every move made at it (whose, which, and how
many events the log held once it was made); `Recording.of` then keeps, from that finished game, only what the
player's seat may know: its view after each event. A `ScriptedTable` serves those views, accepts the player's
recorded move (refusing any other with a sentence), and makes the computer players' recorded moves when the shell
lets them move, just as the offline table would.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from audiocrib.engine.actions import Action, Discard
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.views import PlayerView
from audiocrib.shell.offline import OfflineTable
from audiocrib.shell.savedgame import SEAT
from audiocrib.shell.table import Heard


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the recorded game: ``seat``'s ``action``, after which the log held ``after`` events and the
    game waited on ``waiting``."""

    seat: int
    action: Action
    after: int
    waiting: frozenset[int]


@dataclass(frozen=True, slots=True)
class Recording:
    """A whole game as the player's seat saw it: ``frames[n]`` is the view after ``n`` events; ``steps`` the moves
    in order, ``start`` the events before the first and ``waiting`` the seats the game first waited on."""

    name: str
    levels: tuple[str, ...]
    frames: tuple[PlayerView, ...]
    steps: tuple[Step, ...]
    start: int
    waiting: frozenset[int]

    @classmethod
    def of(cls, game: Game, moves: list[tuple[int, Action, int, frozenset[int]]], start: int,
           waiting: frozenset[int], name: str, levels: tuple[str, ...]) -> Recording:
        """The recording of ``game`` (finished) from its ``moves`` as `record_through` noted them."""
        frames = tuple(game.at(n).view(SEAT) for n in range(len(game.events) + 1))
        return cls(name, levels, frames, tuple(Step(*move) for move in moves), start, waiting)


def record_through(table: OfflineTable, moves: list[tuple[int, Action, int, frozenset[int]]]) -> OfflineTable:
    """Note in ``moves`` every move made at ``table`` from now on: (seat, action, events after, seats waited on)."""
    game = table.game
    apply = game.apply

    def noted(action: Action) -> object:
        made = apply(action)
        moves.append((action.seat, action, len(game.events), game.waiting_for()))
        return made

    game.apply = noted  # type: ignore[method-assign,assignment]
    return table


class ScriptedTable:
    """A `Table` played from a `Recording`, with no `Game` behind it."""

    def __init__(self, recording: Recording, count_seconds: float | None = None) -> None:
        self.recording = recording
        self.count_seconds = count_seconds
        """The seconds this table gives each count on its own clock (None: it leaves the clock to the shell)."""
        self.made = 0
        """How many of the recorded moves have been made."""
        self.refused: list[Action] = []
        self.hurried = False
        self._news: Callable[[], None] = lambda: None

    def _now(self) -> int:
        return self.recording.steps[self.made - 1].after if self.made else self.recording.start

    def _next(self) -> Step | None:
        steps = self.recording.steps
        return steps[self.made] if self.made < len(steps) else None

    def _make(self) -> None:
        self.made += 1
        self.hurried = False

    @property
    def name(self) -> str:
        return self.recording.name

    @property
    def levels(self) -> tuple[str, ...]:
        return self.recording.levels

    @property
    def phase(self) -> Phase:
        return self.view().phase

    def waiting_for(self) -> frozenset[int]:
        return self.recording.steps[self.made - 1].waiting if self.made else self.recording.waiting

    def view(self) -> PlayerView:
        return self.recording.frames[self._now()]

    def view_after(self, told: int, early: frozenset[int]) -> PlayerView:
        assert not {i for i in early if i >= told}, "the recording has no muggins called at a pause"
        return self.recording.frames[told]

    def send(self, action: Action) -> str | None:
        step = self._next()
        if step is None or step.seat != SEAT or action != step.action:
            self.refused.append(action)
            return "That is not the move this recorded game goes on with."
        self._make()
        return None

    def count_time(self) -> float | None:
        return self.count_seconds

    def move_time(self) -> tuple[int, float] | None:
        return None

    def caught_up(self) -> bool:
        laid = False
        while (step := self._next()) is not None and step.seat != SEAT and isinstance(step.action, Discard):
            self._make()
            laid = True
        return laid

    def hurry(self) -> None:
        self.hurried = True

    def listen(self, news: Callable[[], None]) -> None:
        self._news = news

    async def others_move(self, pace: float, ready: Callable[[], bool]) -> None:
        await asyncio.sleep(0)  # the keys are read between moves, as while the offline table's players think
        waited = 0.0
        while waited < pace and not self.hurried:
            await asyncio.sleep(0.01)
            waited += 0.01
        step = self._next()
        if not ready() or step is None or step.seat == SEAT:
            return
        self._make()
        self._news()

    def keep(self, heard: Heard, moment: str, history: tuple[str, ...]) -> None:
        """Nowhere to keep a recorded game."""
