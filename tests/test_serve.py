"""``audiocrib serve`` run for real: the installed program on a free loopback port, real WebSocket clients
(aiohttp's), hostile ones among them, a second server on the same folder, and a server killed and started again."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.cli import main
from audiocrib.online.messages import MAX_MESSAGE_BYTES, decode_from_server
from audiocrib.server.app import HELLO_FIRST, NOT_YET, TEXT_ONLY
from tests.test_cli_hostile import PROGRAM, assert_refused

RULES = {"players": 2}
"""A two-player table's settings (the rest are the defaults)."""


class Running:
    """A running ``audiocrib serve`` on a free loopback port, with the lines it said on start."""

    def __init__(self, folder: Path, *extra: str) -> None:
        env = {**os.environ, "HOME": str(folder.parent), "XDG_DATA_HOME": str(folder.parent / "xdg")}
        self.process = subprocess.Popen([str(PROGRAM), "serve", "--port", "0", "--data-dir", str(folder), *extra],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env=env)
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


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Running]:
    """A server of this test's own (for the tests that exhaust its limits)."""
    running = Running(tmp_path / "data")
    yield running
    if running.process.poll() is None:
        running.stop()


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
    answer: dict[str, Any] = json.loads(frame.data)
    return answer


def refused(answer: dict[str, Any]) -> str:
    assert answer["type"] == "refused", answer
    sentence: str = answer["sentence"]
    return sentence


async def until_closed(socket: aiohttp.ClientWebSocketResponse) -> list[dict[str, Any]]:
    """Every message until the server closes the connection."""
    got = []
    while True:
        frame = await socket.receive(timeout=10)
        if frame.type is not aiohttp.WSMsgType.TEXT:
            assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), frame
            return got
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
            async with session.ws_connect(server.url) as socket:
                again = await ask(socket, hello("Whoever", token))
            assert again == {"type": "welcome", "name": "Ann", "token": token, "version": 1}
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
            private = await ask(dan, create(False))
            code = private["code"]
            assert len(code) == 6 and private["number"] != public["number"]
            lobby = await ask(eve, {"type": "lobby"})
            assert lobby["type"] == "lobby_list" and {"Dan", "Eve"} <= set(lobby["people"])
            listed = {t["number"]: t for t in lobby["tables"]}
            assert private["number"] not in listed
            assert listed[public["number"]] == {"number": public["number"], "host": "Dan", "rules": public["rules"],
                                                "open_seats": 1, "computers": 1, "started": False}
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


def test_ping_is_answered_and_the_tables_play_is_not_open_yet(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
            await ask(socket, hello("Fay"))
            assert await ask(socket, {"type": "ping", "number": 42}) == {"type": "pong", "number": 42}
            for message in ({"type": "start"}, {"type": "chat", "text": "hi"}, {"type": "take_seat_back"},
                            {"type": "move", "action": {"kind": "go", "seat": 0}}, {"type": "leave"},
                            {"type": "give_seat", "seat": 1, "level": "easy"}):
                assert refused(await ask(socket, message)) == NOT_YET
    run(go())


def test_a_player_hosts_only_a_few_open_tables(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
            await ask(socket, hello("Gus"))
            for _ in range(3):
                assert (await ask(socket, create(True)))["type"] == "table"
            assert refused(await ask(socket, create(True))) == (
                "You may host at most three tables that have not begun; start or close one first.")
    run(go())
