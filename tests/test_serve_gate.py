"""Every connection counted and bounded from its first byte, against the real ``audiocrib serve`` on loopback with
a lowered open-file limit: hundreds of silent sockets from one address are closed or refused while a player on
another address connects, plays and comes back; silent, trickling and idle sockets are closed after the request
deadline; a server at its most sockets, or out of files, refuses new ones with a line a second at most and no
traceback, while the player already in plays on; a client that gives up during the upgrade leaves no traceback
(issue 25's reproductions)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.server.limits import Limits
from tests.netplayers import NetPlayer, session_from
from tests.test_cli_hostile import PROGRAM
from tests.test_serve import create

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="loopback addresses beyond 127.0.0.1, prlimit")

FILES = 256
"""The server's open-file limit in these tests (its soft and hard limit: it cannot raise it)."""
LIMITS = Limits()
PLAYER = "127.0.0.2"


class Serving:
    """``audiocrib serve`` on a free loopback port with ``files`` open files at most, its error output in a file."""

    def __init__(self, folder: Path, files: int = FILES) -> None:
        self.log = folder.parent / "stderr.txt"
        env = {**os.environ, "HOME": str(folder.parent), "XDG_DATA_HOME": str(folder.parent / "xdg")}

        def lowered() -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

        with self.log.open("w") as errors:
            self.process = subprocess.Popen([str(PROGRAM), "serve", "--port", "0", "--data-dir", str(folder)],
                                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors,
                                            text=True, env=env, preexec_fn=lowered)
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        assert first.startswith("audiocrib server listening on 127.0.0.1, port "), (first, self.errors())
        self.port = int(first.rsplit(" ", 1)[1].rstrip(".\n"))
        self.url = f"ws://127.0.0.1:{self.port}/play"
        while not self.process.stdout.readline().startswith("Stop the server"):
            pass

    def errors(self) -> str:
        return self.log.read_text()

    def open_files(self) -> int:
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self) -> None:
        self.process.terminate()
        self.process.communicate(timeout=30)


@pytest.fixture
def serving(tmp_path: Path) -> Iterator[Serving]:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # this process holds the silent sockets
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    running = Serving(tmp_path / "data")
    yield running
    running.stop()


def silent(port: int, local: str, count: int) -> list[socket.socket]:
    """``count`` sockets from ``local`` that connect and never send a byte (connected without waiting: the
    system completes them while the server may not be accepting)."""
    made = []
    for _ in range(count):
        raw = socket.socket()
        raw.setblocking(False)
        raw.bind((local, 0))
        raw.connect_ex(("127.0.0.1", port))
        made.append(raw)
    return made


def close_all(sockets: list[socket.socket]) -> None:
    for raw in sockets:
        raw.close()


def traceback_free(text: str) -> None:
    assert "Traceback" not in text and "Cannot write" not in text, text[-3000:]


def lines_a_second(text: str, seconds: float) -> None:
    """The server said at most about a line a second over ``seconds``."""
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) <= seconds + 3, (len(lines), seconds, lines[:10])


async def sit_with_a_computer(player: NetPlayer, session: aiohttp.ClientSession) -> None:
    await asyncio.wait_for(player.connect(session), 10)
    await player.send(create(False, ("person", "easy")))
    await player.expect("table")
    await player.send({"type": "start"})


async def plays_on(player: NetPlayer, events: int) -> None:
    """``player`` plays until its seat has been told ``events`` more events (within half a minute)."""
    goal = len(player.told) + events
    await asyncio.wait_for(player.play(until=lambda _: len(player.told) >= goal), 30)


# ---------------------------------------------------------------------- the reproduction

def test_silent_sockets_from_one_address_leave_room_for_a_player_who_plays_and_comes_back(serving: Serving) -> None:
    before = serving.open_files()
    crowd = silent(serving.port, "127.0.0.3", 600)
    time.sleep(1.0)
    held: list[int] = []  # read once the crowd has come in: while it comes, refused sockets are still closing

    async def go() -> None:
        async with session_from(PLAYER) as session:
            ann = NetPlayer("Ann", serving.url)
            await sit_with_a_computer(ann, session)
            await plays_on(ann, 6)
            await ann.close()
            await asyncio.wait_for(ann.connect(session), 10)  # dropped, and back on a new connection
            await plays_on(ann, 4)
            await ann.close()

    try:
        asyncio.run(go())
        held.append(serving.open_files())
        # What the server holds, read from its own open files: a client's socket may look connected while the
        # system never passed it to the server (its listening queue was full), so the client's side cannot tell.
        assert held[0] <= before + LIMITS.sockets_per_address + 2, (before, held)
    finally:
        close_all(crowd)
    traceback_free(serving.errors())


# ---------------------------------------------------------------------- the deadlines

def request_head(port: int) -> bytes:
    return f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode("ascii")


def closed_within(raw: socket.socket, seconds: float, trickle: bytes = b"") -> float | None:
    """Seconds until the server closes ``raw`` (sending ``trickle`` a byte a second meanwhile), or None if it is
    still open after ``seconds``; whatever it answers is read and passed over."""
    began = time.monotonic()
    raw.settimeout(1.0)
    sent = 0
    while time.monotonic() - began < seconds:
        if sent < len(trickle):
            with contextlib.suppress(OSError):
                raw.sendall(trickle[sent:sent + 1])
            sent += 1
        try:
            if raw.recv(65536) == b"":
                return time.monotonic() - began
        except TimeoutError:
            continue
        except OSError:
            return time.monotonic() - began
    return None


def test_silent_trickling_and_idle_sockets_are_closed_after_the_deadline_and_keep_alive_works(
        serving: Serving) -> None:
    deadline = LIMITS.request_seconds
    quiet = socket.create_connection(("127.0.0.1", serving.port), source_address=("127.0.0.4", 0))
    trickling = socket.create_connection(("127.0.0.1", serving.port), source_address=("127.0.0.4", 0))
    trickling.sendall(b"GET / HTTP/1.1\r\n")
    kept = socket.create_connection(("127.0.0.1", serving.port), source_address=("127.0.0.4", 0))
    for _ in range(2):  # two requests on one connection: keep-alive works
        kept.sendall(request_head(serving.port))
        answer = b""
        while b"audiocrib" not in answer:
            answer += kept.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200"), answer
    began = time.monotonic()
    try:
        assert (closed_within(quiet, deadline + 5) or 99) <= deadline + 5
        assert (closed_within(trickling, deadline + 5 - (time.monotonic() - began), b"X-Slow: y" * 4) or 99) \
            <= deadline + 5
        assert (closed_within(kept, deadline + 5 - (time.monotonic() - began)) or 99) <= deadline + 5
        assert time.monotonic() - began >= deadline - 1  # not before the deadline
    finally:
        close_all([quiet, trickling, kept])
    traceback_free(serving.errors())


# ---------------------------------------------------------------------- a server at its most, and out of files

def test_a_full_server_refuses_new_sockets_in_a_line_a_second_and_its_player_plays_on(serving: Serving) -> None:
    crowds: list[socket.socket] = []

    async def go() -> float:
        async with session_from(PLAYER) as session:
            ann = NetPlayer("Ann", serving.url)
            await sit_with_a_computer(ann, session)
            await plays_on(ann, 4)
            began = time.monotonic()
            for last in range(10, 20):  # under each address's own limit, over the server's in all
                crowds.extend(silent(serving.port, f"127.0.0.{last}", 40))
            await asyncio.sleep(1.0)
            async with session_from("127.0.0.5") as late:  # a new player now: the server has no room
                with pytest.raises(aiohttp.ClientError):
                    await late.ws_connect(serving.url, timeout=aiohttp.ClientWSTimeout(ws_close=5))
            await plays_on(ann, 6)
            assert FILES - serving.open_files() >= LIMITS.files_reserve // 2, serving.open_files()
            await asyncio.sleep(LIMITS.request_seconds + 1)  # the silent ones are closed: room again
            bea = NetPlayer("Bea", serving.url)
            async with session_from("127.0.0.5") as late:
                await sit_with_a_computer(bea, late)
                await plays_on(bea, 2)
            await plays_on(ann, 2)
            return time.monotonic() - began

    try:
        seconds = asyncio.run(go())
    finally:
        close_all(crowds)
    said = serving.errors()
    traceback_free(said)
    assert "turned away" in said and "with the server full" in said, said
    lines_a_second(said, seconds)


def test_out_of_files_new_connections_wait_with_a_line_a_second_and_no_traceback(serving: Serving) -> None:
    crowd: list[socket.socket] = []

    async def go() -> float:
        async with session_from(PLAYER) as session:
            ann = NetPlayer("Ann", serving.url)
            await sit_with_a_computer(ann, session)
            await plays_on(ann, 8)  # the computer player has moved: what it needs is open
            spare = 3  # files for a few accepts; then the system refuses them
            resource.prlimit(serving.process.pid, resource.RLIMIT_NOFILE, (serving.open_files() + spare, FILES))
            began = time.monotonic()
            for round_ in range(4):  # new sockets knocking for a few seconds while the server has no file left
                crowd.extend(silent(serving.port, f"127.0.0.{30 + round_}", 40))
                await asyncio.sleep(1.0)
            seconds = time.monotonic() - began
            resource.prlimit(serving.process.pid, resource.RLIMIT_NOFILE, (FILES, FILES))
            close_all(crowd)
            await plays_on(ann, 2)
            bea = NetPlayer("Bea", serving.url)  # files again: a new player comes in
            async with session_from("127.0.0.5") as late:
                await sit_with_a_computer(bea, late)
            return seconds

    try:
        seconds = asyncio.run(go())
    finally:
        close_all(crowd)
    said = serving.errors()
    traceback_free(said)
    assert "out of open files" in said, said
    lines_a_second(said, seconds + 2)


# ---------------------------------------------------------------------- giving up during the handshake

def upgrade_request(port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode("ascii")
    return (f"GET /play HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode("ascii")


def test_a_client_that_gives_up_during_the_upgrade_leaves_no_traceback(serving: Serving) -> None:
    for index in range(60):
        raw = socket.create_connection(("127.0.0.1", serving.port), source_address=("127.0.0.6", 0))
        if index % 2:  # gone at once, with a reset
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        raw.sendall(upgrade_request(serving.port))
        raw.close()
        time.sleep(0.02)

    async def go() -> Any:
        async with session_from(PLAYER) as session:
            ann = NetPlayer("Ann", serving.url)
            return await asyncio.wait_for(ann.connect(session), 10)

    assert asyncio.run(go())["name"] == "Ann"
    time.sleep(0.5)
    traceback_free(serving.errors())
