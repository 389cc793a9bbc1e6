"""A person who was away when their game ended hears its end when they are back: the server may be killed after the
last move is on disk and before its news goes out, or the person's connection may drop just then. On their next
hello they get the table, the game to its end and their view (once: a hello after that hears nothing of it)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp

from audiocrib.engine.events import MatchWon, event_to_json
from audiocrib.engine.rules import Rules
from audiocrib.server.computers import Computers
from audiocrib.server.room import Room
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from tests.protocol_check import server_said
from tests.test_serve import Running, hello


def ended_while_away(folder: Path) -> tuple[str, int, list[dict[str, Any]]]:
    """A table of one person (Ann) and a computer player played to its end in the store, as a server killed after
    writing the last move (and before sending its news) leaves it: Ann's token, the table and her seat's log."""
    with Store(folder / STORE_FILE) as store:
        ann, token = store.add_player("Ann")
        room = Room.create(store, ann.id, Rules(players=2, target=61), ["person", "easy"])
        assert isinstance(room.start(ann.id), list)
        hers = Computers()
        while room.game is not None and not room.game.over:
            if room.due_computer() is not None:
                assert room.apply_computer(*room.computer_move())
            else:
                assert isinstance(room.move(ann.id, hers.choice(room.game, 0, "easy")[1]), list)
        assert room.game is not None and isinstance(room.game.events[-1], MatchWon)
        return token, room.table_id, [event_to_json(e.seen_by(0)) for e in room.game.events]


async def next_message(socket: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    frame = await socket.receive(timeout=10)
    assert frame.type is aiohttp.WSMsgType.TEXT, frame
    server_said(frame.data)
    message: dict[str, Any] = json.loads(frame.data)
    return message


def test_a_person_away_when_their_game_ended_hears_its_end_on_their_next_hello(tmp_path: Path) -> None:
    token, number, log = ended_while_away(tmp_path / "data")
    running = Running(tmp_path / "data")

    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(running.url) as socket:
                await socket.send_str(json.dumps(hello("Ann", token)))
                assert (await next_message(socket))["type"] == "welcome"
                table = await next_message(socket)
                assert (table["type"], table["number"], table["you"]) == ("table", number, 0)
                news = await next_message(socket)
                assert (news["type"], news["since"], news["events"]) == ("news", 0, log)
                view = await next_message(socket)
                assert view["type"] == "view" and view["whole"] and view["view"]["events"] == log
            async with session.ws_connect(running.url) as socket:  # told once: the next hello hears nothing of it
                await socket.send_str(json.dumps(hello("Ann", token)))
                assert (await next_message(socket))["type"] == "welcome"
                await socket.send_str(json.dumps({"type": "ping", "number": 7}))
                assert await next_message(socket) == {"type": "pong", "number": 7}
    try:
        asyncio.run(go())
    finally:
        running.stop()
