"""Watching a table on a real server over loopback: what is refused in one sentence (a table not under way, a
private one by its number, a table with no watchers allowed, one watcher too many, watching too fast, a watcher's
move, the host's say asked by anyone else), what the players hear of watchers (once, not again on a return; `w`),
where the watchers' chat goes, the host sending them away, and the host's settings kept over a restart."""

from __future__ import annotations

import contextlib
import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.online.fields import ProtocolError
from audiocrib.online.messages import TableState, decode_from_server
from audiocrib.online.watching import MAX_WATCHERS, WATCHER_MAKES_NO_MOVES
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.server.watching import WATCH_BURST, WATCH_EVERY, WATCH_TOO_FAST
from tests.netplayers import session_from
from tests.test_serve import Running, ask, create, hello, refused, run

Socket = aiohttp.ClientWebSocketResponse


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("watch") / "data"


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[Running]:
    running = Running(folder)
    yield running
    if running.process.poll() is None:
        running.stop()


async def heard(socket: Socket) -> list[dict[str, Any]]:
    """Everything sent to ``socket`` until now (a ping's pong marks the end)."""
    await socket.send_str(json.dumps({"type": "ping", "number": 7}))
    got = []
    while True:
        frame = await socket.receive(timeout=10)
        assert frame.type is aiohttp.WSMsgType.TEXT, frame
        message = json.loads(frame.data)
        if message["type"] == "pong":
            return got
        got.append(message)


def sentences(messages: list[dict[str, Any]]) -> list[str]:
    return [m["sentence"] for m in messages if m["type"] == "notice"]


def chats(messages: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(m["sender"], m["text"]) for m in messages if m["type"] == "chat_from"]


def listed(lobby: dict[str, Any], number: int) -> bool:
    """Whether the lobby lists table ``number`` as one that may be watched."""
    assert lobby["type"] == "lobby_list", lobby
    return bool(next(t["watch"] for t in lobby["tables"] if t["number"] == number))


async def playing(ann: Socket, bob: Socket, public: bool = True) -> dict[str, Any]:
    """A two-person table of Ann's with Bob, its game begun; its state as Ann had it."""
    table = await ask(ann, create(public))
    await ask(bob, {"type": "join", "table": str(table["number"]) if public else table["code"]})
    await ask(ann, {"type": "start"})
    await heard(ann)
    await heard(bob)
    return table


async def watch(socket: Socket, table: str) -> dict[str, Any]:
    """Watch ``table``: the first answer (the table's state, or the refusal), the rest of the catch-up read."""
    answer = await ask(socket, {"type": "watch", "table": table})
    await heard(socket)
    return answer


def test_watching_is_refused_where_it_may_not_be_and_a_watcher_makes_no_move(server: Running, folder: Path) -> None:
    async def go() -> dict[str, Any]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as ann, \
                session.ws_connect(server.url) as bob, session.ws_connect(server.url) as cy:
            for socket, name in ((ann, "Ann1"), (bob, "Bob1"), (cy, "Cy1")):
                await ask(socket, hello(name))
            found: dict[str, Any] = {}
            table = await ask(ann, create(True))
            number = str(table["number"])
            found["open"] = refused(await ask(cy, {"type": "watch", "table": number}))
            await ask(bob, {"type": "join", "table": number})
            await ask(ann, {"type": "start"})
            await heard(ann)
            found["none"] = refused(await ask(cy, {"type": "watch", "table": "999999"}))
            state = await watch(cy, number)
            found["state"] = state
            with Store(folder / STORE_FILE) as store:
                before = store.length(table["number"])
            found["moves"] = [refused(await ask(cy, message)) for message in (
                {"type": "move", "action": {"kind": "go", "seat": 0}}, {"type": "start"},
                {"type": "give_seat", "seat": 1, "level": "easy"}, {"type": "take_seat_back"})]
            with Store(folder / STORE_FILE) as store:
                found["log"] = before, store.length(table["number"])
            await heard(bob)
            found["host only"] = [refused(await ask(bob, message)) for message in (
                {"type": "watchers_leave"}, {"type": "watch_settings", "allowed": False, "chat": False})]
            found["watcher host"] = refused(await ask(cy, {"type": "watchers_leave"}))
            found["join"] = refused(await ask(cy, {"type": "join", "table": number}))
            found["stopped"] = (await ask(cy, {"type": "stop_watching"}))["type"]
            found["not watching"] = refused(await ask(cy, {"type": "stop_watching"}))
            return found

    found = run(go())
    number = found["state"]["number"]
    assert found["open"] == f"Table {number} has not begun; there is nothing to watch yet."
    assert found["none"] == "There is no table 999999 being played on this server."
    state = found["state"]
    assert state["type"] == "table" and state["you"] == 2 and state["watch"] == {
        "names": [], "allowed": True, "chat": False}
    assert found["moves"] == [WATCHER_MAKES_NO_MOVES] * 4
    assert found["log"][0] == found["log"][1] > 0  # nothing changed
    assert found["host only"] == ["Only the host can ask the watchers to leave.",
                                  "Only the host can choose who may watch the table."]
    assert found["watcher host"] == "Only the host can ask the watchers to leave."
    assert found["join"] == f"You are watching table {number}; stop watching it first."
    assert found["stopped"] == "lobby_list" and found["not watching"] == "You are not watching a table."


def test_a_private_table_is_watched_only_by_its_code_and_the_players_hear_a_watcher_once(server: Running) -> None:
    async def go() -> dict[str, Any]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as ann, \
                session.ws_connect(server.url) as bob:
            await ask(ann, hello("Ann2"))
            await ask(bob, hello("Bob2"))
            table = await playing(ann, bob, public=False)
            found: dict[str, Any] = {}
            async with session.ws_connect(server.url) as cy:
                token = (await ask(cy, hello("Cy2")))["token"]
                found["by number"] = refused(await ask(cy, {"type": "watch", "table": str(table["number"])}))
                found["by code"] = (await watch(cy, table["code"].lower()))["type"]
            found["first"] = sentences(await heard(ann)) + sentences(await heard(bob))
            async with session.ws_connect(server.url) as cy:  # back on a new connection: caught up, not announced
                await ask(cy, hello("Cy2", token))
                await cy.send_str(json.dumps({"type": "watch", "table": table["code"]}))
                back = await heard(cy)
                found["back"] = [m["type"] for m in back]
                found["again"] = sentences(await heard(ann))
                async with session.ws_connect(server.url) as dan:
                    await ask(dan, hello("Dan2"))
                    await watch(dan, table["code"])
                    found["dan"] = sentences(await heard(ann)) + sentences(await heard(cy))
                    found["w"] = [(await ask(s, {"type": "who"}))["watch"]["names"] for s in (ann, cy, dan)]
            return found

    found = run(go())
    assert found["by number"].endswith(" is private; watch it by its code.")
    assert found["by code"] == "table"
    assert found["first"] == ["Cy2 is watching."] * 2
    assert found["back"][0] == "table" and "news" in found["back"] and found["back"][-1] == "view"
    assert found["again"] == []
    assert found["w"] == [["Cy2", "Dan2"], ["Dan2"], ["Cy2"]]
    assert found["dan"] == ["Dan2 is watching."] * 2


def test_the_watchers_chat_goes_to_the_watchers_unless_the_host_lets_it_through(server: Running) -> None:
    async def go() -> dict[str, Any]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as ann, \
                session.ws_connect(server.url) as bob, session.ws_connect(server.url) as cy, \
                session.ws_connect(server.url) as dan:
            for socket, name in ((ann, "Ann3"), (bob, "Bob3"), (cy, "Cy3"), (dan, "Dan3")):
                await ask(socket, hello(name))
            table = await playing(ann, bob)
            for socket in (cy, dan):
                await watch(socket, str(table["number"]))
            await heard(ann)
            found: dict[str, Any] = {}
            await cy.send_str(json.dumps({"type": "chat", "text": "Bob should peg the five."}))
            await ann.send_str(json.dumps({"type": "chat", "text": "Good luck."}))
            found["among"] = [chats(await heard(s)) for s in (ann, bob, cy, dan)]
            await ann.send_str(json.dumps({"type": "watch_settings", "allowed": True, "chat": True}))
            found["told"] = [sentences(await heard(s)) for s in (ann, cy)]
            await dan.send_str(json.dumps({"type": "chat", "text": "Well played."}))
            found["through"] = [chats(await heard(s)) for s in (ann, bob, cy, dan)]
            return found

    found = run(go())
    watchers = ("Cy3", "Bob should peg the five.")
    players = ("Ann3", "Good luck.")
    assert found["among"] == [[players], [players], [watchers, players], [watchers, players]]
    assert found["told"] == [["You let the watchers' chat through to the players."],  # the host, in her own words
                             ["Ann3 lets the watchers' chat through to the players."]]
    assert found["through"] == [[("Dan3", "Well played.")]] * 4


def test_the_host_sends_the_watchers_away_and_no_watchers_is_kept_over_a_restart(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    first = Running(folder)

    async def before() -> dict[str, Any]:
        async with aiohttp.ClientSession() as session, session.ws_connect(first.url) as ann, \
                session.ws_connect(first.url) as bob, session.ws_connect(first.url) as cy:
            found: dict[str, Any] = {"token": (await ask(cy, hello("Cy")))["token"]}
            await ask(ann, hello("Ann"))
            await ask(bob, hello("Bob"))
            table = await playing(ann, bob)
            found["number"] = number = str(table["number"])
            found["listed before"] = listed(await ask(cy, {"type": "lobby"}), table["number"])
            found["nobody"] = sentences(await heard(ann) + [await ask(ann, {"type": "watchers_leave"})])
            await watch(cy, number)
            await heard(ann)
            await heard(bob)
            await ann.send_str(json.dumps({"type": "watchers_leave"}))
            found["sent away"] = [(m["type"], m.get("sentence")) for m in await heard(cy)]
            found["players"] = sentences(await heard(bob))
            await watch(cy, number)
            await ann.send_str(json.dumps({"type": "watch_settings", "allowed": False, "chat": False}))
            told = [m for m in await heard(cy) if m["type"] != "table"]
            found["no watchers"] = [(m["type"], m.get("sentence")) for m in told]
            found["listed after"] = listed(told[-1], table["number"])
            found["refused"] = refused(await ask(cy, {"type": "watch", "table": number}))
            return found

    try:
        found = run(before())
    finally:
        first.stop(signal.SIGTERM)
    number = found["number"]
    assert found["nobody"] == ["Nobody is watching this table."]
    assert found["sent away"] == [("notice", "Ann asked the watchers to leave."), ("lobby_list", None)]
    assert found["players"] == ["Ann asked the watchers to leave."]
    assert found["no watchers"] == [("notice", "Ann allows no watchers at this table."), ("lobby_list", None)]
    assert found["refused"] == f"Table {number} has no watchers allowed."
    second = Running(folder)

    async def after() -> tuple[str, bool]:
        async with aiohttp.ClientSession() as session, session.ws_connect(second.url) as cy:
            await ask(cy, hello("Cy", found["token"]))
            return (refused(await ask(cy, {"type": "watch", "table": number})),
                    listed(await ask(cy, {"type": "lobby"}), int(number)))

    assert (found["listed before"], found["listed after"]) == (True, False)  # the lobby says whether one may watch
    try:
        assert run(after()) == (f"Table {number} has no watchers allowed.", False)
    finally:
        second.stop(signal.SIGTERM)


def test_a_table_takes_fifty_watchers_and_an_address_watches_at_a_bounded_rate(server: Running) -> None:
    async def go() -> tuple[list[str], str, list[str], float]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as ann, \
                session.ws_connect(server.url) as bob, contextlib.AsyncExitStack() as stack:
            await ask(ann, hello("Ann5"))
            await ask(bob, hello("Bob5"))
            number = str((await playing(ann, bob))["number"])
            fresh = await stack.enter_async_context(session_from("127.0.0.29"))  # an address that has not watched
            quick = await stack.enter_async_context(fresh.ws_connect(server.url))
            await ask(quick, hello("Quick5"))
            tries: list[str] = []  # until one is refused: a token comes back every few seconds, however slow
            first = time.monotonic()
            while not tries or tries[-1] == "watching":
                assert len(tries) <= 3 * WATCH_BURST, "watching is never refused"
                elapsed = time.monotonic() - first  # when the last try was sent
                tries.append((await watch(quick, number)).get("sentence", "watching"))
            await ask(quick, {"type": "stop_watching"})
            answers: list[str] = []
            for n in range(MAX_WATCHERS + 1):  # nine an address: each address may begin to watch ten at once
                if n % 9 == 0:
                    elsewhere = await stack.enter_async_context(session_from(f"127.0.0.{30 + n // 9}"))
                socket = await stack.enter_async_context(elsewhere.ws_connect(server.url))
                await ask(socket, hello(f"W5 {n}"))
                answer = await ask(socket, {"type": "watch", "table": number})
                answers.append(answer.get("sentence", answer["type"]))
            return answers, number, tries, elapsed

    answers, number, tries, elapsed = run(go())
    assert answers[:MAX_WATCHERS] == ["table"] * MAX_WATCHERS
    assert answers[MAX_WATCHERS:] == [f"Table {number} has fifty watchers, as many as a table takes."]
    # WATCH_BURST at once, then one more for each WATCH_EVERY seconds the tries took (none in under that)
    watched = len(tries) - 1
    assert tries == ["watching"] * watched + [WATCH_TOO_FAST]
    assert WATCH_BURST <= watched <= WATCH_BURST + elapsed // WATCH_EVERY, (watched, elapsed)


def test_a_table_state_names_the_watchers_seat_only_for_a_watcher() -> None:
    """One past the last seat is a watcher's ``you``, with the table's watchers told; without them, it is refused
    as a seat the table does not have (a client reading a server's message checks it)."""
    seats = [{"name": "Ann", "computer": None, "connected": True, "person": True},
             {"name": "Easy", "computer": "easy", "connected": True, "person": False}]
    state = {"type": "table", "number": 4, "code": None, "host": 0, "you": 2, "rules": {"players": 2},
             "seats": seats, "started": True, "move_limit": None}
    watched = decode_from_server(json.dumps({**state, "watch": {"names": ["Dan"], "allowed": True, "chat": False}}))
    assert isinstance(watched, TableState) and watched.you == 2 and watched.watch is not None
    for wrong in (state, {**state, "watch": None},
                  {**state, "you": 3, "watch": {"names": [], "allowed": True, "chat": False}}):
        with pytest.raises(ProtocolError, match=r"The host and your seat must be seats of the table\."):
            decode_from_server(json.dumps(wrong))
