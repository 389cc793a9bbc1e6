"""``audiocrib serve`` run for real: the installed program on a free loopback port, real WebSocket clients
(aiohttp's), hostile ones among them, a second server on the same folder, and a server killed and started again."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import sqlite3
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.cli import main
from audiocrib.engine.actions import Action, Discard, Go, Play
from audiocrib.engine.events import Discarded, HandShown, MatchWon, event_to_json
from audiocrib.engine.game import Phase
from audiocrib.engine.viewcodec import view_to_json
from audiocrib.engine.views import PlayerView
from audiocrib.online.messages import (
    MAX_MESSAGE_BYTES,
    Message,
    Move,
    News,
    Notice,
    Refused,
    TableState,
    ViewOf,
    decode_from_server,
    encode,
)
from audiocrib.server.app import CHAT_TOO_FAST, HELLO_FIRST, NO_TABLE, TEXT_ONLY
from audiocrib.server.room import ALL_SEATED
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from tests.protocol_check import client_sent, server_said
from tests.test_cli_hostile import PROGRAM, assert_refused
from tests.test_viewcodec import cards_in, known_by_deal, leaks

RULES = {"players": 2}
"""A two-player table's settings (the rest are the defaults)."""


class Running:
    """A running ``audiocrib serve`` on a free loopback port, with the lines it said on start."""

    def __init__(self, folder: Path, *extra: str, log: Path | None = None) -> None:
        self.folder = folder.resolve()
        """The server's data folder (where its players and their tokens are kept)."""
        env = {**os.environ, "HOME": str(folder.parent), "XDG_DATA_HOME": str(folder.parent / "xdg")}
        errors: Any = subprocess.PIPE if log is None else log.open("a")  # a file is never full, nor lost at a kill
        self.process = subprocess.Popen([str(PROGRAM), "serve", "--port", "0", "--data-dir", str(folder), *extra],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                                        text=True, env=env)
        if log is not None:
            errors.close()
        assert self.process.stdout is not None
        self.lines: list[str] = []
        while not any(line.startswith("Stop the server") for line in self.lines):
            line = self.process.stdout.readline()
            assert line, (self.lines, self.process.stderr.read() if self.process.stderr else "")
            self.lines.append(line.rstrip("\n"))
        first = self.lines[0]
        assert first.startswith("audiocrib server listening on 127.0.0.1, port "), first
        self.port = int(first.rsplit(" ", 1)[1].rstrip("."))
        self.url = f"ws://127.0.0.1:{self.port}/play"

    def stop(self, how: signal.Signals = signal.SIGTERM) -> tuple[int, str, str]:
        self.process.send_signal(how)
        out, err = self.process.communicate(timeout=30)
        return self.process.returncode, out, err


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    running = Running(tmp_path_factory.mktemp("serve") / "data")
    yield running
    running.stop()


def serving(folder: Path) -> Iterator[Running]:
    """A server on ``folder`` while the fixture lasts, stopped after unless it is gone already."""
    running = Running(folder)
    yield running
    if running.process.poll() is None:
        running.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Running]:
    """A server of this test's own (for the tests that exhaust its limits)."""
    yield from serving(tmp_path / "data")


def hello(name: str, token: str | None = None, password: str | None = None) -> dict[str, Any]:
    return {"type": "hello", "name": name, "token": token, "password": password, "version": 1}


def create(public: bool, seats: tuple[str, ...] = ("person", "person")) -> dict[str, Any]:
    return {"type": "create_table", "rules": {"players": len(seats)}, "seats": list(seats), "public": public,
            "move_limit": None}


async def ask(socket: aiohttp.ClientWebSocketResponse, message: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """Send ``message`` and return the answer, checked as the client's own decoder checks it."""
    if isinstance(message, bytes):
        await socket.send_bytes(message)
    else:
        await socket.send_str(message if isinstance(message, str) else json.dumps(message))
    frame = await socket.receive(timeout=10)
    assert frame.type is aiohttp.WSMsgType.TEXT, frame
    decode_from_server(frame.data)  # a valid message of the server's
    server_said(frame.data)
    answer: dict[str, Any] = json.loads(frame.data)
    if isinstance(message, dict) and answer["type"] != "refused":
        client_sent(json.dumps(message))  # a message the server took is one the published schema takes
    return answer


def refused(answer: dict[str, Any]) -> str:
    assert answer["type"] == "refused", answer
    sentence: str = answer["sentence"]
    return sentence


async def until_closed(socket: aiohttp.ClientWebSocketResponse) -> tuple[list[dict[str, Any]], int, str]:
    """Every message until the server closes the connection, then the close's code and reason."""
    got = []
    while True:
        frame = await socket.receive(timeout=10)
        if frame.type is not aiohttp.WSMsgType.TEXT:
            assert frame.type is aiohttp.WSMsgType.CLOSE, frame
            return got, frame.data, frame.extra or ""
        got.append(json.loads(frame.data))


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


# --- Hello, the token, names and the password ----------------------------------------------------------------------

def test_a_new_name_is_welcomed_with_a_token_that_finds_the_player_again(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(server.url) as socket:
                welcome = await ask(socket, hello(" Ann "))
            assert welcome["type"] == "welcome" and welcome["name"] == "Ann" and welcome["version"] == 1
            token = welcome["token"]
            async with session.ws_connect(server.url) as socket, session.ws_connect(server.url) as later:
                again = await ask(socket, hello("Whoever", token))
                assert again == {"type": "welcome", "name": "Ann", "token": token, "version": 1, "light": True}
                assert await ask(later, hello("Ann", token)) == again  # the same player from elsewhere...
                assert await until_closed(socket) == ([], 1008, "You connected again from elsewhere.")  # ...wins
            async with session.ws_connect(server.url) as socket:
                assert "does not know your token" in refused(await ask(socket, hello("Ann", "x" * 43)))
    run(go())


def test_a_name_taken_in_any_case_is_refused(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
            assert (await ask(socket, hello("Bea")))["type"] == "welcome"
            async with session.ws_connect(server.url) as other:
                sentence = refused(await ask(other, hello("bEA")))
                assert sentence == "The name bEA is taken on this server; choose another."
                assert (await ask(other, hello("Bea 2")))["name"] == "Bea 2"  # refused, then welcomed
    run(go())


def test_a_server_with_a_password_lets_in_only_who_gives_it(tmp_path: Path) -> None:
    secret = tmp_path / "password.txt"
    secret.write_text("open sesame\n")
    running = Running(tmp_path / "data", "--password-file", str(secret))
    assert "Friends need the server's password to connect." in running.lines

    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(running.url) as socket:
            assert refused(await ask(socket, hello("Cy"))) == "This server has a password; ask whoever runs it."
            assert refused(await ask(socket, hello("Cy", password="open sesame!"))) == (
                "That is not this server's password.")
            assert refused(await ask(socket, {"type": "lobby"})) == HELLO_FIRST
            assert (await ask(socket, hello("Cy", password="open sesame")))["type"] == "welcome"
    try:
        run(go())
    finally:
        running.stop()


# --- The lobby, tables, ping ---------------------------------------------------------------------------------------

def test_tables_made_public_and_private_are_listed_and_joined(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as dan, \
                session.ws_connect(server.url) as eve:
            await ask(dan, hello("Dan"))
            await ask(eve, hello("Eve"))
            public = await ask(dan, create(True, ("person", "easy", "person")))
            assert public["type"] == "table" and public["code"] is None and public["you"] == 0
            assert [s["name"] for s in public["seats"]] == ["Dan", "Easy", None]
            private = await ask(dan, {**create(False), "move_limit": 60})
            assert private["move_limit"] == 60 and public["move_limit"] is None  # kept with the table
            code = private["code"]
            assert len(code) == 6 and private["number"] != public["number"]
            lobby = await ask(eve, {"type": "lobby"})
            assert lobby["type"] == "lobby_list" and {"Dan", "Eve"} <= set(lobby["people"])
            listed = {t["number"]: t for t in lobby["tables"]}
            assert private["number"] not in listed
            assert listed[public["number"]] == {"number": public["number"], "host": "Dan", "rules": public["rules"],
                                                "open_seats": 1, "computers": 1, "started": False, "advice": False,
                                                "host_rating": None, "watch": True}
            assert "private; join it by its code" in refused(
                await ask(eve, {"type": "join", "table": str(private["number"])}))
            typed = f"{code[:3].lower()}-{code[3:].lower()}"
            joined = await ask(eve, {"type": "join", "table": typed})
            assert joined["type"] == "table" and joined["number"] == private["number"] and joined["you"] == 1
            assert [s["name"] for s in joined["seats"]] == ["Dan", "Eve"] and joined["host"] == 0
            by_number = await ask(eve, {"type": "join", "table": str(public["number"])})
            assert by_number["you"] == 2 and [s["name"] for s in by_number["seats"]] == ["Dan", "Easy", "Eve"]
            async with session.ws_connect(server.url) as hal:
                await ask(hal, hello("Hal"))
                assert refused(await ask(hal, {"type": "join", "table": str(public["number"])})) == (
                    f"Table {public['number']} has no seat open.")
                assert refused(await ask(hal, {"type": "join", "table": "K4R7W2"})).startswith("No table")
    run(go())


def test_ping_is_answered_and_what_is_done_at_a_table_needs_one(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
            await ask(socket, hello("Fay"))
            assert await ask(socket, {"type": "ping", "number": 42}) == {"type": "pong", "number": 42}
            for message in ({"type": "chat", "text": "hi"}, {"type": "take_seat_back"}, {"type": "leave"},
                            {"type": "give_seat", "seat": 1, "level": "easy"}, {"type": "start"},
                            {"type": "move", "action": {"kind": "go", "seat": 0}}):
                assert refused(await ask(socket, message)) == NO_TABLE
    run(go())


async def until(socket: aiohttp.ClientWebSocketResponse, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (those before it are passed over)."""
    while True:
        frame = await socket.receive(timeout=10)
        assert frame.type is aiohttp.WSMsgType.TEXT, frame
        decode_from_server(frame.data)
        server_said(frame.data)
        message: dict[str, Any] = json.loads(frame.data)
        if message["type"] == kind:
            return message


async def received(socket: aiohttp.ClientWebSocketResponse, count: int) -> list[dict[str, Any]]:
    return [json.loads((await socket.receive(timeout=10)).data) for _ in range(count)]


# --- At the table: chat, leaving, seats given to computer players, the counting clock ------------------------------

def test_people_at_a_table_chat_with_their_names_and_a_flood_is_refused(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as uma, \
                session.ws_connect(server.url) as vic, session.ws_connect(server.url) as wes:
            for socket, name in ((uma, "Uma"), (vic, "Vic"), (wes, "Wes")):
                await ask(socket, hello(name))
            table = await ask(uma, create(False))
            assert (await ask(vic, {"type": "join", "table": table["code"]}))["you"] == 1
            assert (await until(uma, "notice"))["sentence"] == "Vic sits down at the table."
            assert (await until(uma, "notice"))["sentence"] == "Every seat is taken; you can start the game."
            line = "<b>Hi</b> & <script>alert('x')</script> \u00e9t\u00e9"
            await uma.send_str(json.dumps({"type": "chat", "text": line}))
            said = {"type": "chat_from", "sender": "Uma", "text": line}
            assert await received(uma, 1) == [said] and await received(vic, 1) == [said]  # the same characters
            for number in range(7):
                await vic.send_str(json.dumps({"type": "chat", "text": f"line {number}"}))
            answers = await received(vic, 7)
            lines = [a["text"] for a in answers if a["type"] == "chat_from"]
            assert lines == [f"line {n}" for n in range(5)], answers
            assert {refused(a) for a in answers if a["type"] != "chat_from"} == {CHAT_TOO_FAST}
            assert [a["sender"] for a in answers if a["type"] == "chat_from"] == ["Vic"] * len(lines)
            assert [a["text"] for a in await received(uma, len(lines))] == lines  # the refused ones went nowhere
            # Wes, not at the table, heard none of it
            assert await ask(wes, {"type": "ping", "number": 1}) == {"type": "pong", "number": 1}
    run(go())


def test_leaving_before_the_start_frees_the_seat_and_after_it_is_for_now(server: Running) -> None:
    """Leaving once the game has begun is for now: the seat stays yours, and the others hear that you left (not
    that your connection was lost), then that you are back."""
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as xia, \
                session.ws_connect(server.url) as yul:
            zed = await session.ws_connect(server.url)
            tokens = {}
            for socket, name in ((xia, "Xia"), (yul, "Yul"), (zed, "Zed")):
                tokens[name] = (await ask(socket, hello(name)))["token"]
            table = await ask(xia, create(False))
            join = {"type": "join", "table": table["code"]}
            await ask(yul, join)
            told = await until(xia, "table")  # the table as the host has it now: Yul is there, and connected
            assert [(s["name"], s["connected"]) for s in told["seats"]] == [("Xia", True), ("Yul", True)], told
            assert (await until(xia, "notice"))["sentence"] == "Yul sits down at the table."
            assert (await until(xia, "notice"))["sentence"] == "Every seat is taken; you can start the game."
            assert (await ask(yul, {"type": "leave"}))["type"] == "lobby_list"
            assert (await until(xia, "notice"))["sentence"] == "Yul left the table."
            assert refused(await ask(yul, {"type": "chat", "text": "still here?"})) == NO_TABLE
            seated = await ask(zed, join)
            assert seated["you"] == 1 and [s["name"] for s in seated["seats"]] == ["Xia", "Zed"]
            await xia.send_str(json.dumps({"type": "start"}))
            await until(zed, "view")
            assert (await ask(zed, {"type": "leave"}))["type"] == "lobby_list"
            await zed.close()  # as the shell's Leave the table for now does
            heard = [(await until(xia, "notice"))["sentence"] for _ in range(3)]
            assert heard == ["Zed sits down at the table.", "Every seat is taken; you can start the game.",
                             "Zed has left the table for now; the table waits."]
            async with session.ws_connect(server.url) as again:
                await ask(again, hello("Zed", tokens["Zed"]))
                assert (await until(xia, "notice"))["sentence"] == "Zed is back."
                await until(again, "view")  # back at the table
    run(go())


def test_an_absent_players_seat_is_played_by_a_computer_until_they_take_it_back(server: Running) -> None:
    host, away = Client(), Client()

    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as ava:
            await ask(ava, hello("Ava"))
            table = await ask(ava, {**create(False), "rules": {"players": 2, "target": 61}})
            async with session.ws_connect(server.url) as bo:
                token = (await ask(bo, hello("Bo")))["token"]
                await ask(bo, {"type": "join", "table": table["code"]})
                await ava.send_str(json.dumps({"type": "start"}))
                await until(bo, "view")
            await host.play(ava, until=lambda x: isinstance(x, Notice) and "lost the connection" in x.sentence)
            await ava.send_str(json.dumps({"type": "give_seat", "seat": 0, "level": "easy"}))
            assert refused(await until(ava, "refused")) == "Ava is here; only an absent player's seat can be given."
            await ava.send_str(json.dumps({"type": "give_seat", "seat": 1, "level": "easy"}))
            await host.play(ava, until=lambda x: isinstance(x, News) and any(
                isinstance(e, Discarded) and e.seat == 1 for e in x.events))  # the computer laid away for Bo
            async with session.ws_connect(server.url) as bo:
                assert (await ask(bo, hello("Bo", token)))["name"] == "Bo"
                await bo.send_str(json.dumps({"type": "give_seat", "seat": 0, "level": "easy"}))
                assert refused(await until(bo, "refused")) == "Only the host can give a seat to a computer player."
                await bo.send_str(json.dumps({"type": "take_seat_back"}))
                await away.play(bo, until=lambda x: isinstance(x, Notice) and "your seat back" in x.sentence)
                await asyncio.gather(host.play(ava), away.play(bo))  # the game goes on to its end
    run(go())
    assert host.won and away.won
    assert not any("keeping your seat" in r for r in away.refusals), away.refusals
    notices = [x.sentence for _, x in host.got if isinstance(x, Notice)]
    assert notices[:4] == ["Bo sits down at the table.", "Every seat is taken; you can start the game.",
                           "Bo has lost the connection; the table waits.",
                           "An easy computer player plays for Bo until Bo is back."]
    assert "Bo is back." in notices and "Bo has the seat back." in notices


def counting_mine(message: Message) -> bool:
    """A view in which the game waits on this seat's own count."""
    return isinstance(message, ViewOf) and message.view.counting is not None and \
        message.view.counting[0] == message.view.seat


def test_the_servers_counting_clock_times_out_a_count_not_made(server: Running) -> None:
    client = Client()
    left: list[int | None] = []
    rejoined: list[Message] = []

    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(server.url) as cal:
                token = (await ask(cal, hello("Cal")))["token"]
                rules = {"players": 2, "target": 61, "manual_counting": True, "count_timer": 15}
                await ask(cal, {**create(False, ("person", "easy")), "rules": rules})
                await cal.send_str(json.dumps({"type": "start"}))
                await client.play(cal, until=counting_mine)
            await asyncio.sleep(1.5)  # away while the clock runs
            async with session.ws_connect(server.url) as cal:
                assert (await ask(cal, hello("Cal", token)))["name"] == "Cal"
                await client.play(cal, until=counting_mine)  # the catch-up's view
                client.views -= 1
                heard = len(client.got)
                await cal.send_str(json.dumps({"type": "join", "table": str(client.table)}))
                await client.play(cal, until=counting_mine)  # and again, asked for: the table and the whole game
                rejoined.extend(x for _, x in client.got[heard:])
                left.extend(x.count_ms for _, x in client.got if isinstance(x, ViewOf))
                await client.play(cal, until=lambda x: isinstance(x, News) and any(
                    isinstance(e, HandShown) and e.seat == 0 for e in x.events))
    run(go())
    shown = [e for _, x in client.got if isinstance(x, News) for e in x.events if isinstance(e, HandShown)]
    mine = [e for e in shown if e.seat == 0]
    assert len(mine) == 1 and mine[0].timed_out and mine[0].claimed is None, shown
    *before, asked, back, again = left
    assert set(before) == {None}  # nothing to count yet
    assert asked is not None and 14_000 <= asked <= 15_000  # the clock just started: the rules' fifteen seconds
    assert back is not None and again is not None and 0 < again <= back <= asked - 1_400  # what is left of it
    first, *news, view = rejoined
    assert isinstance(first, TableState) and first.you == 0 and first.seats[0].connected
    assert isinstance(view, ViewOf) and news and all(isinstance(x, News) for x in news)
    assert news[0].since == 0 and tuple(e for x in news for e in x.events) == view.view.events


async def heard_until(socket: aiohttp.ClientWebSocketResponse, done: Callable[[Message], bool],
                      seconds: float = 30) -> list[tuple[float, Message]]:
    """Every message (with the time it came, on `time.monotonic`) up to the first that ``done`` picks."""
    got: list[tuple[float, Message]] = []
    while True:
        frame = await socket.receive(timeout=seconds)
        assert frame.type is aiohttp.WSMsgType.TEXT, frame
        got.append((time.monotonic(), decode_from_server(frame.data)))
        server_said(frame.data)
        if done(got[-1][1]):
            return got


def laid_away(seat: int) -> Callable[[Message], bool]:
    return lambda x: isinstance(x, News) and any(isinstance(e, Discarded) and e.seat == seat for e in x.events)


def test_a_person_who_takes_too_long_has_a_computer_move_for_them(server: Running) -> None:
    """Two tables at once: one with the shortest limit (ten seconds: no warning) and a computer player, and one
    with twenty seconds where Zia lays away after three seconds and Yara never does."""

    async def alone(session: aiohttp.ClientSession) -> tuple[float, list[tuple[float, Message]]]:
        async with session.ws_connect(server.url) as cid:
            await ask(cid, hello("Cid"))
            await ask(cid, {**create(False, ("person", "easy")), "rules": {"players": 2, "target": 61},
                            "move_limit": 10})
            await cid.send_str(json.dumps({"type": "start"}))
            began = time.monotonic()
            return began, await heard_until(cid, laid_away(0))

    async def pair(session: aiohttp.ClientSession) -> tuple[float, list[tuple[float, Message]], list[Message]]:
        async with session.ws_connect(server.url) as yara, session.ws_connect(server.url) as zia:
            await ask(yara, hello("Yara"))
            table = await ask(yara, {**create(False), "rules": {"players": 2, "target": 61}, "move_limit": 20})
            await ask(zia, hello("Zia"))
            await ask(zia, {"type": "join", "table": table["code"]})
            await yara.send_str(json.dumps({"type": "start"}))
            began = time.monotonic()
            view = decode_from_server(json.dumps(await until(zia, "view")))
            assert isinstance(view, ViewOf)
            await asyncio.sleep(3)
            await zia.send_str(encode(Move(Discard(1, view.view.hand[:2]))))
            yaras, zias = await asyncio.gather(heard_until(yara, laid_away(0)), heard_until(zia, laid_away(0)))
            return began, yaras, [x for _, x in zias]

    async def go() -> Any:
        async with aiohttp.ClientSession() as session:
            return await asyncio.gather(alone(session), pair(session))

    (began, cids), (started, yaras, zias) = run(go())
    notices = [(at - began, x.sentence) for at, x in cids if isinstance(x, Notice)]
    assert [n for _, n in notices] == ["You took too long; a computer player made your move."], notices
    assert 9.5 <= notices[0][0] <= 15 and cids[-1][0] - began <= 15  # the move at once after the notice
    heard = [(at - started, x.sentence) for at, x in yaras
             if isinstance(x, Notice) and "sits down" not in x.sentence and x != ALL_SEATED]  # (before the start)
    assert [n for _, n in heard] == ["Ten seconds left to move.",
                                     "You took too long; a computer player made your move."]
    assert 9.5 <= heard[0][0] <= 15 and 19.5 <= heard[1][0] <= 25, heard  # from the start: Zia's move kept it
    assert [x.sentence for x in zias if isinstance(x, Notice)] == [  # the warning is Yara's alone
        "Yara took too long; a computer player made the move."]


# --- A game played through the server ------------------------------------------------------------------------------

def my_move(view: PlayerView) -> Action | None:
    """The client's move from its view: lay away the first cards, play the first playable card, go when none."""
    if view.must_discard:
        return Discard(view.seat, tuple(view.hand[:view.must_discard]))
    if view.phase is Phase.PLAY and view.turn == view.seat:
        return Play(view.seat, view.playable[0]) if view.playable else Go(view.seat)
    return None


MOVE_PAUSE = 0.06
"""Seconds a scripted person waits before each move: the server's limit is twenty messages a second a connection,
and with light views the server answers fast enough for two clients playing flat out to pass it."""


class Client:
    """One person's side of a game: every message received (with the log's length it speaks of) and the moves
    made from each view."""

    def __init__(self) -> None:
        self.got: list[tuple[int, Message]] = []
        self.length = 0
        self.views = 0
        self.moved_at = -1  # the log's length when the last move was sent
        self.won = False
        self.refusals: list[str] = []
        self.refused_at: list[int] = []  # the log's length when each refusal came
        self.probed_at = -1  # the log's length when the move out of turn was sent
        self.table = 0  # the table's number, from the last table state

    async def play(self, socket: aiohttp.ClientWebSocketResponse, views: int | None = None,
                   probe: bool = False, until: Callable[[Message], bool] | None = None) -> None:
        """Read and answer until the match is won (or ``views`` more views came, or a message ``until`` picks
        came); with ``probe``, send a move for the other seat and one out of turn once, each to be refused. The
        one out of turn is a go while every card in hand fits, even after the other seat's next card: refused
        out of turn, and refused as well if that seat's move comes first (the player can play a card)."""
        stop = None if views is None else self.views + views
        while not self.won and (stop is None or self.views < stop):
            frame = await socket.receive(timeout=20)
            assert frame.type is aiohttp.WSMsgType.TEXT, frame
            message = decode_from_server(frame.data)
            server_said(frame.data)
            if isinstance(message, ViewOf) and message.whole:
                self.length = len(message.view.events)
            if isinstance(message, News):
                self.length = max(self.length, message.since + len(message.events))
                self.won = self.won or any(isinstance(e, MatchWon) for e in message.events)
            self.got.append((self.length, message))
            if isinstance(message, Refused):
                self.refusals.append(message.sentence)
                self.refused_at.append(self.length)
            if isinstance(message, TableState):
                self.table = message.number
            if until is not None and until(message):
                return
            if not isinstance(message, ViewOf):
                continue
            self.views += 1
            view = message.view
            if probe and view.must_discard and not self.refusals:
                other = Discard(1 - view.seat, tuple(view.hand[:view.must_discard]))
                await socket.send_str(encode(Move(other)))
            if (probe and view.phase is Phase.PLAY and view.turn != view.seat and len(self.refusals) == 1
                    and self.probed_at < 0 and view.hand and view.count + 10 + min(c.value for c in view.hand) <= 31):
                self.probed_at = self.length
                await socket.send_str(encode(Move(Go(view.seat))))
            move = my_move(view)
            seen = len(view.events) if message.whole else self.length  # a light view: the news's log
            if move is not None and seen != self.moved_at:
                self.moved_at = seen
                await asyncio.sleep(MOVE_PAUSE)  # a person's pace: flat out, two clients outrun the message limit
                await socket.send_str(encode(Move(move)))


def test_a_game_with_a_computer_player_is_played_to_the_end_over_a_killed_server(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    first = Running(folder)
    client = Client()

    async def before() -> tuple[str, int]:
        async with aiohttp.ClientSession() as session, session.ws_connect(first.url) as socket:
            token = (await ask(socket, hello("Ada")))["token"]
            table = await ask(socket, {**create(False, ("person", "easy")), "rules": {"players": 2, "target": 61}})
            await socket.send_str(json.dumps({"type": "start"}))
            await client.play(socket, views=12, probe=True)
            return token, table["number"]

    token, number = run(before())
    assert client.refusals[0] == "You can make moves only for your own seat."
    assert len(client.refusals) == 2 and client.refusals[1] != client.refusals[0]  # the engine's sentence
    out_of_turn = re.fullmatch(r"It is \w+'s turn to play, not yours\.", client.refusals[1])
    if client.refused_at[1] == client.probed_at:  # before news of the computer player's move: out of turn
        assert out_of_turn, client.refusals
    else:  # or the computer player moved first, and Ada had a card to play
        assert out_of_turn or client.refusals[1].startswith("You cannot say go: you can play "), client.refusals
    assert not client.won
    assert first.stop(signal.SIGKILL)[0] == -signal.SIGKILL
    second = Running(folder)

    async def after() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(second.url) as socket:
            assert (await ask(socket, hello("Ada", token)))["name"] == "Ada"
            client.moved_at = -1  # a move sent just before the kill may not have been kept: make it again
            await client.play(socket)
    try:
        run(after())
    finally:
        second.stop()
    assert client.won
    with Store(folder / STORE_FILE) as store:
        game = store.game(number)
    assert game.over
    for length, message in client.got:  # what the seat could know when each message was sent, from the whole log
        text = encode(message)
        assert str(game.seed) not in text and '"seed"' not in text
        if isinstance(message, News):
            deal_of, cards = known_by_deal(game.events[:length], 0)
            for index, event in enumerate(message.events, start=message.since):
                assert cards_in(event_to_json(event)) <= cards[deal_of[index]], (index, event)
        elif isinstance(message, ViewOf):  # a view after a move is the state after the news before it
            at = len(message.view.events) if message.whole else length
            assert message.whole or message.view.events == ()
            assert leaks(game.at(at), 0, view_to_json(message.view)) == []
        else:
            assert cards_in(json.loads(text)) == set(), text


def discards(path: Path, table: int) -> list[int]:
    """The seats that have laid away at the table so far, read from the running server's store file."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT event FROM events WHERE table_id = ? ORDER BY idx", (table,)).fetchall()
    return [event["seat"] for event in map(json.loads, (row[0] for row in rows)) if event["kind"] == "discarded"]


def test_after_a_restart_a_game_goes_on_with_nobody_connected(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    first = Running(folder)

    async def before() -> int:
        async with aiohttp.ClientSession() as session, session.ws_connect(first.url) as socket:
            await ask(socket, hello("Ada"))
            table = await ask(socket, {**create(False, ("person", "easy")), "rules": {"players": 2, "target": 61},
                                       "move_limit": 10})
            await socket.send_str(json.dumps({"type": "start"}))
            await until(socket, "view")
            assert first.stop(signal.SIGKILL)[0] == -signal.SIGKILL  # before the computer player's move
            number: int = table["number"]
            return number

    number = run(before())
    store = folder / STORE_FILE
    laid = discards(store, number)
    assert laid in ([], [1])  # the computer player has had half a second at most: almost always []
    time.sleep(2)  # a clock kept from the killed server's deal would have eight seconds left at the restart
    started = time.monotonic()  # before the second server reads the clocks back
    second = Running(folder)
    try:
        began = time.monotonic()
        while discards(store, number) != [1]:  # the computer player lays away, though nobody came back
            assert time.monotonic() - began < 5
            time.sleep(0.1)
        while discards(store, number) != [1, 0]:  # and the move time limit moves for Ada, away
            assert time.monotonic() - began < 20
            time.sleep(0.2)
        assert time.monotonic() - started >= 10  # what her clock had left, never under ten seconds from the restart
    finally:
        second.stop()


def test_a_player_hosts_only_a_few_open_tables(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
            await ask(socket, hello("Gus"))
            for _ in range(3):
                assert (await ask(socket, create(True)))["type"] == "table"
            assert refused(await ask(socket, create(True))) == (
                "You may host at most three tables that have not begun; start or close one first.")
    run(go())


# --- Hostile clients -----------------------------------------------------------------------------------------------

def test_each_wrong_message_gets_one_sentence_and_the_connection_goes_on(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
            assert refused(await ask(socket, {"type": "ping", "number": 1})) == HELLO_FIRST
            assert refused(await ask(socket, b'{"type": "ping", "number": 1}')) == TEXT_ONLY
            await ask(socket, hello("Ivy"))
            assert refused(await ask(socket, b"\xff\xfe")) == TEXT_ONLY
            assert refused(await ask(socket, "{nope")) == "A message must be one JSON object."
            assert refused(await ask(socket, '{"type": "dance"}')) == (
                "That type of message is not part of the protocol.")
            assert refused(await ask(socket, {"type": "welcome", "name": "Ivy", "token": "x" * 20, "version": 1})) \
                == "A player does not send a welcome message."
            assert refused(await ask(socket, hello("Ivy"))) == "You have said hello already on this connection."
            assert await ask(socket, {"type": "ping", "number": 7}) == {"type": "pong", "number": 7}
    run(go())


def test_a_client_that_keeps_sending_garbage_is_disconnected(own_server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(own_server.url) as socket, \
                session.ws_connect(own_server.url) as bystander:
            await ask(bystander, hello("Jo"))
            for _ in range(30):
                await socket.send_str("garbage")
            got, code, reason = await until_closed(socket)
            assert [refused(a) for a in got] == ["A message must be one JSON object."] * 10
            assert (code, reason) == (1008, "Too many refused messages.")
            assert await ask(bystander, {"type": "ping", "number": 1}) == {"type": "pong", "number": 1}
    run(go())


def test_a_flood_is_cut_off_and_the_others_go_on(own_server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(own_server.url) as socket, \
                session.ws_connect(own_server.url) as bystander:
            await ask(bystander, hello("Kim"))
            await ask(socket, hello("Lou"))
            ping = json.dumps({"type": "ping", "number": 3})
            for _ in range(1000):
                await socket.send_str(ping)
            got, code, reason = await until_closed(socket)
            assert 30 <= len(got) <= 60 and all(a == {"type": "pong", "number": 3} for a in got), len(got)
            assert (code, reason) == (1008, "Too many messages; slow down.")
            assert await ask(bystander, {"type": "ping", "number": 1}) == {"type": "pong", "number": 1}
    run(go())


def test_many_connections_from_one_address_share_its_limit(own_server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            sockets = [await session.ws_connect(own_server.url) for _ in range(10)]
            for number, socket in enumerate(sockets):
                await ask(socket, hello(f"Pat {number}"))
            ping = json.dumps({"type": "ping", "number": 5})
            for socket in sockets:  # each stays under its own limit of forty at once; together they do not
                for _ in range(35):
                    await socket.send_str(ping)
            closed, answered = [], []
            for socket in sockets:
                pongs = 0
                while pongs < 35:
                    frame = await socket.receive(timeout=10)
                    if frame.type is not aiohttp.WSMsgType.TEXT:
                        closed.append((frame.data, frame.extra))
                        break
                    assert json.loads(frame.data) == {"type": "pong", "number": 5}
                    pongs += 1
                else:
                    answered.append(socket)

            async def close_of(socket: aiohttp.ClientWebSocketResponse) -> None:
                with contextlib.suppress(asyncio.TimeoutError):
                    frame = await socket.receive(timeout=0.5)
                    if frame.type is not aiohttp.WSMsgType.TEXT:
                        closed.append((frame.data, frame.extra))

            # the connection cut (the one that sent most) may have had all its pings answered: its close follows
            await asyncio.gather(*(close_of(s) for s in answered))
            assert 1 <= len(closed) <= 8, closed  # 200 at once and 100 a second for the address: 350 are too many
            assert set(closed) == {(1008, "Too many messages from your address; slow down.")}, closed
    run(go())


def test_a_frame_over_the_size_limit_closes_its_connection_only(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket, \
                session.ws_connect(server.url) as bystander:
            await ask(socket, hello("Max"))
            await ask(bystander, hello("Ned"))
            await socket.send_str(json.dumps({"type": "chat", "text": "x" * MAX_MESSAGE_BYTES}))
            got, code, _ = await until_closed(socket)
            assert (got, code) == ([], 1009)
            assert await ask(bystander, {"type": "ping", "number": 2}) == {"type": "pong", "number": 2}
            async with session.ws_connect(server.url) as big:  # the largest frame allowed is read, and refused
                await ask(big, hello("Olga"))
                answer = await ask(big, json.dumps({"type": "chat", "text": "x" * (MAX_MESSAGE_BYTES - 40)}))
                assert refused(answer).startswith("The text in the chat message must be from one to three hundred")
    run(go())


def test_a_connection_that_never_says_hello_is_closed() -> None:
    """In this process (the wait is thirty seconds in the real server; here half of one), on a real socket."""
    from aiohttp import web

    from audiocrib.server.app import Server, make_app
    from audiocrib.server.limits import Limits
    from audiocrib.server.store import Store

    async def go() -> None:
        with Store(":memory:") as store:
            runner = web.AppRunner(make_app(Server(store, limits=Limits(hello_seconds=0.5))))
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = runner.addresses[0][1]
            try:
                async with aiohttp.ClientSession() as session, \
                        session.ws_connect(f"ws://127.0.0.1:{port}/play") as silent, \
                        session.ws_connect(f"ws://127.0.0.1:{port}/play") as speaker:
                    await ask(speaker, hello("Tam"))
                    assert await until_closed(silent) == ([], 1008, "No hello came in time.")
                    await asyncio.sleep(0.6)  # past the wait: one who said hello may be quiet as long as they like
                    assert await ask(speaker, {"type": "ping", "number": 9}) == {"type": "pong", "number": 9}
            finally:
                await runner.cleanup()
    run(go())


# --- The process: its folder's lock, a kill, a stop ----------------------------------------------------------------

def test_a_second_server_on_the_same_folder_is_refused(server: Running) -> None:
    folder = Path(server.lines[-2].removeprefix("The server's data is in ").removesuffix("."))
    second = subprocess.run([str(PROGRAM), "serve", "--port", "0", "--data-dir", str(folder)], capture_output=True,
                            text=True, timeout=60, stdin=subprocess.DEVNULL)
    line = assert_refused(second.returncode, second.stdout, second.stderr, "Another audiocrib server")
    assert line == "audiocrib: Another audiocrib server is using this data folder; give each server its own --data-dir."


def test_a_killed_server_starts_again_with_its_players_and_tables(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    first = Running(folder)

    async def before() -> tuple[str, int, str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(first.url) as socket:
            token = (await ask(socket, hello("Quin")))["token"]
            public = await ask(socket, create(True))
            private = await ask(socket, create(False))
            return token, public["number"], private["code"]

    token, number, code = run(before())
    status, _, _ = first.stop(signal.SIGKILL)
    assert status == -signal.SIGKILL
    second = Running(folder)  # the lock went with the killed process

    async def after() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(second.url) as socket:
            assert (await ask(socket, hello("Anyone", token)))["name"] == "Quin"
            lobby = await ask(socket, {"type": "lobby"})
            assert [(t["number"], t["host"], t["open_seats"]) for t in lobby["tables"]] == [(number, "Quin", 1)]
            rejoined = await ask(socket, {"type": "join", "table": code})
            assert (rejoined["code"], rejoined["you"], rejoined["seats"][0]["connected"]) == (code, 0, True)
    try:
        run(after())
    finally:
        second.stop()


def test_a_stopped_server_closes_its_connections_and_says_so(tmp_path: Path) -> None:
    running = Running(tmp_path / "data")

    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(running.url) as socket:
            await ask(socket, hello("Rae"))
            async with session.get(f"http://127.0.0.1:{running.port}/") as page:
                assert page.status == 200 and "audiocrib" in await page.text()  # the browser's page (audiocrib.web)
            running.process.send_signal(signal.SIGINT if sys.platform == "win32" else signal.SIGTERM)
            assert await until_closed(socket) == ([], 1001, "The server is stopping.")
    run(go())
    out, err = running.process.communicate(timeout=30)
    assert (running.process.returncode, err) == (0, "")
    assert out.splitlines() == ["Stopping: closing the connections.", "The server has stopped."]


def test_a_server_beyond_this_computer_without_tls_warns(tmp_path: Path) -> None:
    env = {**os.environ, "HOME": str(tmp_path)}
    process = subprocess.Popen([str(PROGRAM), "serve", "--host", "0.0.0.0", "--port", "0", "--data-dir",
                                str(tmp_path / "data")], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env, stdin=subprocess.DEVNULL)
    assert process.stdout is not None
    lines = [process.stdout.readline() for _ in range(3)]
    process.terminate()
    process.communicate(timeout=30)
    assert lines[0].startswith("audiocrib server listening on every address of this computer, port ")
    assert lines[2].startswith("Warning: without --certfile and --keyfile nothing is encrypted")


def test_with_a_certificate_the_server_speaks_tls(tmp_path: Path) -> None:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make the test's certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)
    running = Running(tmp_path / "data", "--certfile", str(cert), "--keyfile", str(key))
    assert running.lines[1] == f"Friends connect to wss://127.0.0.1:{running.port}/play."
    trusted = ssl.create_default_context(cafile=str(cert))

    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(f"wss://127.0.0.1:{running.port}/play", ssl=trusted) as socket:
                assert (await ask(socket, hello("Sol")))["type"] == "welcome"
            with pytest.raises(aiohttp.ClientError):  # plain WebSocket finds no server there
                await session.ws_connect(running.url)
    try:
        run(go())
    finally:
        running.stop()


# --- The command line's options ------------------------------------------------------------------------------------

def _options(tmp_path: Path) -> list[tuple[list[str], str]]:
    empty, huge, two_lines, folder = (tmp_path / n for n in ("empty", "huge", "two", "folder"))
    empty.write_text("")
    huge.write_text("x" * 5000)
    two_lines.write_text("one\ntwo\n")
    folder.mkdir()
    latin = tmp_path / "latin"
    latin.write_bytes("s\xe9same".encode("latin-1"))
    missing = str(tmp_path / "missing.pem")
    return [
        (["--port", "65536"], "--port takes a port number from 0 to 65535 (0 picks a free one), not 65536."),
        (["--port", "-1"], "--port takes a port number from 0 to 65535"),
        (["--port", "eighty"], "not eighty."),
        (["--port"], "--port needs a value: a port number"),
        (["--host", ""], "--host takes an address of this computer"),
        (["--host", "a b\x1b[2J"], "not a b\\x1b[2J."),
        (["--certfile", str(empty)], "Give --certfile and --keyfile together"),
        (["--certfile", missing, "--keyfile", missing], "--certfile names a file that does not exist"),
        (["--certfile", str(empty), "--keyfile", str(empty)], "could not be read as a certificate"),
        (["--password-file", missing], "--password-file names a file that does not exist"),
        (["--password-file", str(folder)], "--password-file names a folder; give a file."),
        (["--password-file", str(empty)], "--password-file must hold the password on one line"),
        (["--password-file", str(two_lines)], "--password-file must hold the password on one line"),
        (["--password-file", str(huge)], "--password-file is too big for a password"),
        (["--password-file", str(latin)], "--password-file must be text in UTF-8."),
        (["--password-file", ""], "--password-file takes the name of a file, not an empty value."),
        (["--data-dir", str(empty)], "--data-dir names a file, not a folder"),
        (["--data-dir", ""], "--data-dir takes the name of a folder, not an empty value."),
    ]


def test_every_wrong_option_is_one_sentence_and_status_2(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    for args, words in _options(tmp_path):
        status = main(["serve", "--data-dir", str(tmp_path / "data"), *args])
        captured = capsys.readouterr()
        assert_refused(status, captured.out, captured.err, words)
    assert not (tmp_path / "data").exists()  # nothing was started


def test_a_port_in_use_is_one_sentence(server: Running, tmp_path: Path) -> None:
    result = subprocess.run([str(PROGRAM), "serve", "--port", str(server.port), "--data-dir", str(tmp_path)],
                            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert_refused(result.returncode, result.stdout, result.stderr,
                   f"The server cannot listen on 127.0.0.1 port {server.port}: address already in use.")
