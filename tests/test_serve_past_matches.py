"""A server's past matches with a real server process on loopback: the list of the matches a player sat in (newest
first, each with when it ended, the names and the result the store holds), one public match by its table number,
and a match's whole log, whose events are the store's exactly (every card, never the seed), heard from the
player's seat or the watchers' seat; refused in one sentence for a private match one did not play, a match still
being played, a table closed before its match was won, no such table, and every hostile value."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.engine.events import GameWon, MatchWon, event_from_json
from audiocrib.engine.pastmatch import PastMatch
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import watcher_seat
from audiocrib.online.matches import MatchLog
from audiocrib.online.messages import MAX_SERVER_MESSAGE_BYTES, decode_from_server
from audiocrib.server.past_matches import CLOSED, NO_SUCH, PRIVATE, STILL_PLAYING, TOO_MANY_LOGS
from tests.test_serve import Client, Running, ask, hello, refused, serving, until
from tests.test_serve_ratings import TOKENS, login, play_match, store_of

pytestmark = pytest.mark.slow

Socket = aiohttp.ClientWebSocketResponse
TWO = {"players": 2, "target": 31}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    running = Running(tmp_path_factory.mktemp("past") / "data")
    yield running
    running.stop()


def stored(path: Path, table: int) -> tuple[list[Any], float, bool]:
    """The table's events as the store holds them, when it ended, and whether it was public."""
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        events = [event_from_json(json.loads(text)) for (text,) in db.execute(
            "SELECT event FROM events WHERE table_id = ? ORDER BY idx", (table,))]
        ended, public = db.execute("SELECT e.ended, t.public FROM endings e JOIN tables t ON t.id = e.table_id"
                                   " WHERE t.id = ?", (table,)).fetchone()
        return events, ended, bool(public)
    finally:
        db.close()


def header(path: Path, table: int) -> dict[str, Any]:
    db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
    try:
        found: dict[str, Any] = json.loads(db.execute("SELECT header FROM games WHERE table_id = ?",
                                                      (table,)).fetchone()[0])
        return found
    finally:
        db.close()


async def raw_ask(socket: Socket, message: dict[str, Any]) -> str:
    """The text of the answer (to measure it, and look for what it must not hold)."""
    await socket.send_str(json.dumps(message))
    frame = await socket.receive(timeout=10)
    assert frame.type is aiohttp.WSMsgType.TEXT
    return str(frame.data)


def test_the_list_and_the_whole_log_of_past_matches(server: Running) -> None:
    url, path = server.url, store_of(server)
    began = time.time()
    public, _ = asyncio.run(play_match(server, ["Ann", "Bob"], ("person", "person"), TWO))
    private, _ = asyncio.run(play_match(server, ["Bob", "Ann"], ("person", "person"), TWO, public=False))
    ended = time.time()

    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ann, \
                session.ws_connect(url) as cy:
            await login(ann, "Ann", server)
            await login(cy, "Cy", server)
            listed = await ask(ann, {"type": "past_matches"})
            assert [entry["number"] for entry in listed["matches"]] == [private, public]  # newest first
            assert (listed["page"], listed["pages"]) == (1, 1)
            for entry, seat in zip(listed["matches"], (1, 0), strict=True):
                events, at, _ = stored(path, entry["number"])
                won = next(e for e in events if isinstance(e, MatchWon))
                last = next(e for e in reversed(events) if isinstance(e, GameWon))
                assert entry["names"] == (["Bob", "Ann"] if entry["number"] == private else ["Ann", "Bob"])
                assert (entry["seat"], entry["side"], entry["match_scores"], entry["last_scores"]) == \
                    (seat, won.side, list(won.match_scores), list(last.scores))
                assert entry["ended"] == int(at) and began - 1 <= at <= ended
            assert (await ask(cy, {"type": "past_matches"}))["matches"] == []  # Cy played none
            by_number = await ask(cy, {"type": "past_matches", "table": public})
            assert [(e["number"], e["seat"]) for e in by_number["matches"]] == [(public, None)]
            assert refused(await ask(cy, {"type": "past_matches", "table": private})) == PRIVATE.format(private)
            assert refused(await ask(cy, {"type": "match_log", "table": private})) == PRIVATE.format(private)

            for socket, table, seat in ((cy, public, watcher_seat(Rules())), (ann, private, 1), (ann, public, 0)):
                text = await raw_ask(socket, {"type": "match_log", "table": table})
                log = decode_from_server(text)
                assert isinstance(log, MatchLog)
                events, at, _ = stored(path, table)
                assert log.events == tuple(events) and log.seat == seat and log.ended == int(at)
                assert log.rules == Rules(players=2, target=31) and log.auto_go
                assert list(log.manual_seats) == header(path, table)["manual_seats"]
                assert "seed" not in text and len(text) < MAX_SERVER_MESSAGE_BYTES
                match = log.past_match(f"table {table}")
                assert isinstance(match, PastMatch) and match.result is not None
                assert match.result.side == next(e for e in events if isinstance(e, MatchWon)).side
                assert match.game_at(len(log.events)).over  # folded from the log alone, to the end
            assert refused(await ask(ann, {"type": "match_log", "table": 999_999})) == NO_SUCH.format(999_999)

    asyncio.run(go())


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Running]:
    """A server of the test's own: the module's has just been asked for many logs from this address, and an address
    may ask for only so many in a few seconds."""
    yield from serving(tmp_path / "data")


def test_a_match_not_over_or_closed_is_refused(own_server: Running) -> None:
    url = own_server.url

    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as dee, \
                session.ws_connect(url) as eli, session.ws_connect(url) as fay:
            for socket, name in ((dee, "Dee"), (eli, "Eli"), (fay, "Fay")):
                await login(socket, name, own_server)
            closed = await ask(dee, {"type": "create_table", "rules": TWO, "seats": ["person", "person"],
                                     "public": True, "move_limit": None})
            await ask(dee, {"type": "leave"})  # closed by its host before it began
            assert refused(await ask(fay, {"type": "match_log", "table": closed["number"]})) == \
                CLOSED.format(closed["number"])
            playing = await ask(dee, {"type": "create_table", "rules": TWO, "seats": ["person", "person"],
                                      "public": True, "move_limit": None})
            number = playing["number"]
            await ask(eli, {"type": "join", "table": str(number)})
            await until(dee, "notice")
            await dee.send_str(json.dumps({"type": "start"}))
            await asyncio.gather(Client().play(dee, views=2), Client().play(eli, views=2))
            for message in ({"type": "match_log", "table": number}, {"type": "past_matches", "table": number}):
                assert refused(await ask(fay, message)) == STILL_PLAYING.format(number)
            await dee.send_str(json.dumps({"type": "match_log", "table": number}))  # one who sits there, too
            assert refused(await until(dee, "refused")) == STILL_PLAYING.format(number)

    asyncio.run(go())


HOSTILE: list[dict[str, Any]] = [
    {"type": "past_matches", "page": 0}, {"type": "past_matches", "page": "2"}, {"type": "past_matches", "page": 1.5},
    {"type": "past_matches", "page": 10**7}, {"type": "past_matches", "table": 0}, {"type": "past_matches",
                                                                                    "table": -3},
    {"type": "past_matches", "table": 2**63}, {"type": "past_matches", "table": True},
    {"type": "past_matches", "colour": "red"}, {"type": "match_log"}, {"type": "match_log", "table": None},
    {"type": "match_log", "table": "12"}, {"type": "match_log", "table": [12]}, {"type": "match_log", "table": 12,
                                                                                 "seed": 1},
    {"type": "match_record", "number": 1}, {"type": "past_match_list", "matches": []},
]


def test_hostile_values_in_the_past_match_messages_are_refused_in_one_sentence(server: Running) -> None:
    async def go(messages: list[dict[str, Any]]) -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as socket:
            assert refused(await ask(socket, {"type": "past_matches"})).startswith("Say hello first")
            welcome = await ask(socket, hello("Gus", TOKENS.get((server.folder, "Gus"))))
            assert welcome["type"] == "welcome"
            TOKENS[server.folder, "Gus"] = welcome["token"]
            for message in messages:
                said = refused(await ask(socket, message))
                assert said.isascii() and said.endswith(".") and ". " not in said and len(said) < 200, said
            assert (await ask(socket, {"type": "past_matches"}))["type"] == "past_match_list"  # it goes on

    for first in range(0, len(HOSTILE), 8):  # a connection is closed after ten refusals in a row
        asyncio.run(go(HOSTILE[first:first + 8]))


def test_a_match_whose_rows_cannot_be_read_is_left_out_and_stops_nothing(tmp_path: Path) -> None:
    """A table's row damaged by hand: the list leaves its match out (its log is still read from its game's own
    header), and a rebuild of the ratings passes over it as the live rating would have."""
    import random

    from audiocrib.online.matches import AskMatchLog, AskPastMatches
    from audiocrib.server import past_matches, ratings
    from audiocrib.server.room import Room
    from audiocrib.server.store import Store
    from tests.helpers import random_action

    with Store(tmp_path / "server.sqlite3") as store:
        ann, bob = store.add_player("Ann")[0], store.add_player("Bob")[0]
        rng = random.Random(2)
        for _ in range(2):
            room = Room.create(store, ann.id, Rules(target=31), ("person", "person"))
            room.join(bob.id)
            room.start(ann.id)
            assert room.game is not None
            while not room.game.over:
                action = random_action(room.game, rng)
                assert isinstance(room.move((ann, bob)[action.seat].id, action), list)
        with store.writing() as db:
            db.execute("UPDATE tables SET rules = '{\"players\": 9}' WHERE id = 1")
        listed = past_matches.answer(store.reading, ann.id, AskPastMatches())
        assert [entry.number for entry in listed.matches] == [2]  # type: ignore[attr-defined]
        log = past_matches.answer(store.reading, ann.id, AskMatchLog(1))  # its game's own header is whole
        assert isinstance(log, MatchLog) and log.rules == Rules(target=31)
        assert ratings.computed(store.reading)[ann.id].matches == 1


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[Running]:
    """A server of this test's own: its limits are spent by the test."""
    yield from serving(tmp_path / "data")


def test_whole_logs_asked_for_too_fast_are_refused_so_one_client_cannot_busy_the_server(fresh_server: Running) -> None:
    """A whole log is read, checked and sent in one piece (megabytes for a long match of six): an address may ask
    for five at once, then one every five seconds; the sixth at once is refused, and other requests go on."""
    async def go() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(fresh_server.url) as ann:
            await login(ann, "Ann", fresh_server)
            said = [refused(await ask(ann, {"type": "match_log", "table": 999_999})) for _ in range(6)]
            assert said == [NO_SUCH.format(999_999)] * 5 + [TOO_MANY_LOGS]
            assert (await ask(ann, {"type": "past_matches"}))["matches"] == []  # the list is cheap and goes on

    asyncio.run(go())
