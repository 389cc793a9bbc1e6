"""Scripted watchers for the tests of the real server: each a `NetPlayer` that watches a table (by its number or
code) instead of sitting at it, keeps every message it received as a seat's client does, watches again on each new
connection (after a drop), and once tries a move, which the server must refuse."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import aiohttp

from audiocrib.engine.actions import Action
from audiocrib.engine.views import PlayerView
from audiocrib.online.watching import WATCHER_MAKES_NO_MOVES
from tests.netplayers import NetPlayer


class NetWatcher(NetPlayer):
    """A watcher of the table ``table`` (its number or code); ``drop_after``: close its own connection once it has
    been told that many events, then connect again by itself and watch again."""

    def __init__(self, name: str, url: str, table: str, drop_after: int | None = None) -> None:
        super().__init__(name, url, reconnect=True, pace=10)
        self.watching = table
        self.drop_after = drop_after
        self.tried_move = False

    async def connect(self, session: aiohttp.ClientSession) -> dict[str, Any]:
        welcome = await super().connect(session)
        await self.send({"type": "watch", "table": self.watching})
        return welcome

    async def play(self, until: Callable[[dict[str, Any]], bool] | None = None) -> None:
        """Listen until the match is won (dropping once, if asked)."""
        await super().play(until=self._drop_now)

    def _drop_now(self, message: dict[str, Any]) -> bool:
        if self.drop_after is not None and len(self.told) >= self.drop_after and self._socket is not None:
            self.drop_after = None
            asyncio.get_running_loop().create_task(self._socket.close())  # the next receive finds it closed
        return False

    async def _answer(self, view: PlayerView) -> None:
        if not self.tried_move and view.events:  # once: a move for seat 0, which a watcher may not make
            self.tried_move = True
            await self.send({"type": "move", "action": {"kind": "go", "seat": 0}})

    def move(self, view: PlayerView) -> Action | None:
        return None

    @property
    def refused_move(self) -> bool:
        """True if the server refused the watcher's move in its one sentence."""
        return WATCHER_MAKES_NO_MOVES in self.refusals
