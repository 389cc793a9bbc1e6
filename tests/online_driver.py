"""Drive real shells as online players: each a real prompt_toolkit application on pipe input with a recording
speaker, all on one event loop, against a real ``audiocrib serve`` process.

Unlike `tests.shell_driver`, a key press here does not wait for the other players: at an online table they are
people (other shells of the same test) or the server's computer players.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from audiocrib.engine.events import CountRequested
from audiocrib.engine.scoring import score_hand, score_play
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.app import run_session
from audiocrib.shell.session import Session
from audiocrib.shell.settings import Settings
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.speech import RecordingSpeaker
from tests.shell_driver import KEY_BYTES


class Player:
    """One person's shell: ``session``, what was ``said``, and keys to press."""

    def __init__(self, name: str, folder: Path, setup: TableSetup | None = None,
                 settings: Settings | None = None) -> None:
        self.name = name
        self.speaker = RecordingSpeaker()
        self.screen = io.StringIO()
        folder.mkdir(parents=True, exist_ok=True)
        self.session = Session(Announcer(self.speaker, self.screen),
                               settings=settings or Settings(pace=0.0, typed_ahead=0.0), setup=setup,
                               save_path=folder / "saved-game.json")
        self.pipe: PipeInput | None = None
        self.mark = 0
        """Where `hears` starts looking: what was said from the last key pressed on."""
        self.task: asyncio.Future[None] | None = None

    @property
    def said(self) -> list[str]:
        return self.speaker.said

    def start(self, pipe: PipeInput) -> None:
        """Run the shell's application on ``pipe`` (on the running loop)."""
        self.pipe = pipe
        self.task = asyncio.ensure_future(run_session(self.session, input=pipe, output=DummyOutput()))

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.session.finished = True
            await asyncio.wait_for(self.task, 10)
        self.session._close_online()

    async def press(self, *keys: str) -> list[str]:
        """Send ``keys`` one by one, each once the last was handled; what was said meanwhile."""
        assert self.pipe is not None
        before = self.mark = len(self.said)
        for key in keys:
            count = self.session.keys_pressed
            self.pipe.send_text(KEY_BYTES.get(key, key))
            await until(lambda count=count: self.session.keys_pressed > count, f"{self.name}: key {key!r}")
        return self.said[before:]

    async def type(self, text: str) -> None:
        """Type ``text`` and press Enter."""
        await self.press(*("space" if c == " " else c for c in text), "enter")

    async def hears(self, sentence: str | Callable[[str], bool], timeout: float = 20.0) -> str:
        """Wait until ``sentence`` (or a sentence it accepts) is said, since the last key pressed; returns it."""
        start = self.mark
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        test = sentence if callable(sentence) else (lambda said: said == sentence)
        while True:
            for line in self.said[start:]:
                if test(line):
                    return line
            start = len(self.said)
            if loop.time() > end:
                raise AssertionError(f"{self.name} never heard {sentence!r}; last: {self.said[-8:]}")
            await asyncio.sleep(0.01)

    async def choose(self, item: str) -> None:
        """In a menu, go down to the item whose words start with ``item`` and press Enter."""
        for _ in range(30):
            said = await self.press("down")
            if said and said[-1].startswith(item):
                await self.press("enter")
                return
        raise AssertionError(f"{self.name}: no item {item!r}; last: {self.said[-5:]}")

    async def move(self) -> bool:
        """Answer the question the game asks now, from the seat's view, if it asks one; True if a key was sent."""
        session = self.session
        moment = session.moment
        if moment == "discard":
            need = session.view().must_discard
            await self.press(*(str(i) for i in range(1, need + 1)), "enter")
        elif moment == "play":
            view = session.view()
            hand = sorted(view.hand)
            await self.press(str(hand.index(sorted(view.playable)[0]) + 1), "enter")
        elif moment == "count":
            asked = next(e for e in reversed(session.view().events) if isinstance(e, CountRequested))
            await self.press(*str(score_hand(asked.cards, asked.starter, crib=asked.crib).total), "enter")
        elif moment == "peg":
            view = session.view()
            await self.press(*str(score_play([card for _, card in view.series]).total), "enter")
        elif moment == "review":
            await self.press("enter")
        else:
            return False
        return True


@asynccontextmanager
async def running(*players: Player) -> AsyncIterator[None]:
    """Run each player's shell on a pipe of its own until the block ends, and wait for their main menus."""
    async with AsyncExitStack() as stack:
        for player in players:
            player.start(stack.enter_context(create_pipe_input()))
        try:
            await until(lambda: all(player.said for player in players), "the main menus")
            yield
        finally:
            for player in players:
                await player.stop()


async def until(test: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    """Wait until ``test()`` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        if loop.time() > end:
            raise TimeoutError(f"waited in vain for {what}")
        await asyncio.sleep(0.005)


async def play_together(players: list[Player], timeout: float = 300.0) -> None:
    """Every player answers what their game asks, until each has heard the match end."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not all(p.session.moment == "over" for p in players):
        if loop.time() > end:
            raise TimeoutError("the match did not end: " + "; ".join(f"{p.name} {p.session.moment}" for p in players))
        for player in players:
            await player.move()
        await asyncio.sleep(0.01)
