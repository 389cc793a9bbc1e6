"""Drive the real shell application with prompt_toolkit's pipe input and a recording speaker.

Keys are sent as the bytes a terminal sends; after each key the driver waits until the session has handled it and
the computer players have finished moving, so tests read the game and the speech at a settled moment.

    async def script(table: Table) -> None:
        await table.press("enter")            # New game
        assert table.session.moment == "discard"

    run(script)
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path

from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from audiocrib.shell.announcer import Announcer
from audiocrib.shell.app import run_session
from audiocrib.shell.session import SEAT, Session
from audiocrib.shell.settings import Settings
from audiocrib.shell.table import Table as GameTable
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.speech import RecordingSpeaker

KEY_BYTES = {
    "enter": "\r", "escape": "\x1b", "left": "\x1b[D", "right": "\x1b[C", "up": "\x1b[A", "down": "\x1b[B",
    "home": "\x1b[H", "end": "\x1b[F", "f1": "\x1bOP", "f2": "\x1bOQ", "space": " ", "backspace": "\x7f", "c-c": "\x03",
    "f5": "\x1b[15~", "tab": "\t",
}


class FakeClock:
    """A clock the test moves by hand, for the counting timer."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class RecordingPlayer:
    """A sound player that keeps the names of the cues it was asked to play."""

    def __init__(self) -> None:
        self.muted = False
        self.played: list[str] = []
        self.volume = 1.0

    def play(self, names: Iterable[str]) -> None:
        self.played.extend(names)

    def set_volume(self, volume: float) -> None:
        self.volume = volume

    def close(self) -> None:
        pass


class Table:
    """A running shell: ``session``, what was ``said``, what the ``screen`` shows, and `press` to send keys."""

    def __init__(self, session: Session, pipe: PipeInput, speaker: RecordingSpeaker, screen: io.StringIO) -> None:
        self.session = session
        self.pipe = pipe
        self.speaker = speaker
        self.screen = screen

    @property
    def said(self) -> list[str]:
        """Everything spoken so far, in order."""
        return self.speaker.said

    async def settle(self, timeout: float = 60.0) -> None:
        """Wait until the computer players have moved and nothing more is due."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.session.bot_waiting() and not self.session.finished:
            if loop.time() > end:
                raise TimeoutError("the computer players did not finish moving")
            await asyncio.sleep(0.005)
        await asyncio.sleep(0)

    async def press(self, *keys: str) -> list[str]:
        """Send ``keys`` one by one, each after the last was handled; returns what was said meanwhile."""
        before = len(self.said)
        loop = asyncio.get_running_loop()
        for key in keys:
            count = self.session.keys_pressed
            self.pipe.send_text(KEY_BYTES.get(key, key))
            end = loop.time() + 10
            while self.session.keys_pressed == count:
                if loop.time() > end:
                    raise TimeoutError(f"the key {key!r} was not handled")
                await asyncio.sleep(0.002)
            await self.settle()
        return self.said[before:]

    async def answer(self, key: str) -> str:
        """The one thing said in answer to ``key``."""
        said = await self.press(key)
        assert len(said) == 1, said
        return said[0]


def run(
    script: Callable[[Table], Awaitable[None]],
    setup: TableSetup | None = None,
    settings: Settings | None = None,
    seed: int = 1,
    save_path: Path | None = None,
    clock: Callable[[], float] | None = None,
    player: object | None = None,
    new_table: Callable[[TableSetup], GameTable] | None = None,
) -> Table:
    """Run the shell with ``script`` pressing keys; returns the table (the session has quit or been left)."""
    speaker = RecordingSpeaker()
    screen = io.StringIO()
    session = Session(
        Announcer(speaker, screen), settings=settings or Settings(pace=0.0, typed_ahead=0.0), setup=setup, seed=seed,
        save_path=save_path, **({"clock": clock} if clock is not None else {}),
        **({"player": player} if player is not None else {}), new_table=new_table,
    )
    result: list[Table] = []

    async def main() -> None:
        with create_pipe_input() as pipe:
            app_task = asyncio.ensure_future(run_session(session, input=pipe, output=DummyOutput()))
            table = Table(session, pipe, speaker, screen)
            result.append(table)
            try:
                while not speaker.said:
                    await asyncio.sleep(0.002)
                await script(table)
            finally:
                if not app_task.done():
                    session.finished = True  # the pacer sees this and ends the application
                await asyncio.wait_for(app_task, 10)

    asyncio.run(main())
    return result[0]


async def play_a_card(table: Table, highest: bool = False) -> None:
    """In the play: go to the lowest card that can be laid (or the highest) by its position, and play it."""
    view = table.session.view()
    hand = sorted(view.hand)
    position = hand.index(sorted(view.playable)[-1 if highest else 0]) + 1
    await table.press(str(position), "enter")


async def lay_away_first(table: Table) -> None:
    """In the discard: mark the first cards by position and lay them away."""
    need = table.session.view().must_discard
    await table.press(*(str(i) for i in range(1, need + 1)), "enter")


async def play_to_the_end(table: Table, limit: int = 2000, until: str = "over",
                          at_review: tuple[str, ...] = ("enter",)) -> None:
    """Answer every question the game asks, from what the player's seat knows (its view), until the match is over
    (or the moment ``until`` comes): the first cards laid away, the lowest card played, every manual count right;
    at each pause after a show, the keys ``at_review``."""
    from audiocrib.engine.events import CountRequested
    from audiocrib.engine.scoring import score_hand

    for _ in range(limit):
        moment = table.session.moment
        if moment == until:
            return
        if moment == "discard":
            await lay_away_first(table)
        elif moment == "play":
            await play_a_card(table)
        elif moment == "count":
            asked = next(e for e in reversed(table.session.view().events) if isinstance(e, CountRequested))
            assert asked.seat == SEAT
            total = score_hand(asked.cards, asked.starter, crib=asked.crib).total
            await table.press(*str(total), "enter")
        elif moment == "review":
            await table.press(*at_review)
        elif moment == "waiting":
            await table.press("enter")
        else:
            raise AssertionError(f"unexpected moment {moment}")
    raise AssertionError(f"the moment {until!r} did not come")
