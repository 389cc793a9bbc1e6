"""The table option "Advice allowed" on a real server over loopback: kept with its table in the store and over a
restart, told to each seat in its table's state and in the lobby's summaries, always on at a table of one person
and computer players, off for a table made by a client that does not send it; a hostile value refused in one
sentence, with no table made."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any, cast

import aiohttp

from audiocrib.client.link import Link
from audiocrib.client.remote import OnlineClient
from audiocrib.engine.rules import Rules
from audiocrib.online import messages as m
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from tests.test_serve import Running, ask, create, hello, refused, run, server, until

__all__ = ["server"]  # the module's server fixture, shared from tests/test_serve.py


def advised(public: bool, seats: tuple[str, ...], advice: object) -> dict[str, Any]:
    """A create_table message with the advice option."""
    return {**create(public, seats), "advice": advice}


def test_the_advice_option_is_kept_over_a_restart_and_told_to_each_seat(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    first = Running(folder)

    async def before() -> dict[str, Any]:
        async with aiohttp.ClientSession() as session, session.ws_connect(first.url) as ann, \
                session.ws_connect(first.url) as bob, session.ws_connect(first.url) as cy:
            found: dict[str, Any] = {"ann": (await ask(ann, hello("Ann")))["token"],
                                     "bob": (await ask(bob, hello("Bob")))["token"]}
            await ask(cy, hello("Cy"))
            allowed = await ask(ann, advised(True, ("person", "person"), True))
            await ask(bob, {"type": "join", "table": str(allowed["number"])})
            told_ann = await until(ann, "table")  # Ann hears Bob sit down, with the table as her seat sees it
            found["seats"] = [allowed["advice"], (await ask(bob, {"type": "who"}))["advice"], told_ann["advice"]]
            # a client written before the option leaves it out: the table is made without advice
            older = await ask(cy, create(True, ("person", "person")))
            alone = await ask(cy, advised(True, ("person", "easy"), False))  # one person: advice all the same
            found["made"] = [older["advice"], alone["advice"]]
            found["numbers"] = [allowed["number"], older["number"], alone["number"]]
            lobby = await ask(cy, {"type": "lobby"})
            found["lobby"] = {t["number"]: t["advice"] for t in lobby["tables"]}
            return found

    try:
        found = run(before())
    finally:
        status, _, _ = first.stop(signal.SIGTERM)
    assert status == 0
    assert found["seats"] == [True, True, True]
    assert found["made"] == [False, True]
    allowed, older, alone = found["numbers"]
    assert found["lobby"] == {allowed: True, older: False, alone: True}
    with Store(folder / STORE_FILE) as store:  # the host's choice as the store keeps it
        kept = {number: store.table(number) for number in found["numbers"]}
    assert {n: (t.advice, t.advice_allowed) for n, t in kept.items() if t is not None} == {
        allowed: (True, True), older: (False, False), alone: (False, True)}
    second = Running(folder)

    async def after() -> tuple[list[bool], dict[int, bool]]:
        async with aiohttp.ClientSession() as session, session.ws_connect(second.url) as ann, \
                session.ws_connect(second.url) as bob:
            told = []
            for who, name in ((ann, "Ann"), (bob, "Bob")):
                await ask(who, hello(name, found[name.lower()]))
                await who.send_str(json.dumps({"type": "who"}))  # still at the table, as it stands now
                told.append((await until(who, "table"))["advice"])
            await ann.send_str(json.dumps({"type": "lobby"}))
            lobby = await until(ann, "lobby_list")
            return told, {t["number"]: t["advice"] for t in lobby["tables"]}
    try:
        told, lobby = run(after())
    finally:
        second.stop()
    assert told == [True, True]
    assert lobby == found["lobby"]


def test_a_hostile_advice_value_is_refused_in_one_sentence_and_makes_no_table(server: Running) -> None:
    async def go() -> tuple[list[str], dict[str, Any], dict[str, Any]]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as dee:
            await ask(dee, hello("Dee"))
            before = await ask(dee, {"type": "lobby"})
            sentences = []
            values: tuple[object, ...] = ("yes", "true", 1, 0, None, [], {}, 1.5, "\u202etrue")
            for value in values:
                sentences.append(refused(await ask(dee, json.dumps(advised(True, ("person", "person"), value)))))
            return sentences, before, await ask(dee, {"type": "who"})
    sentences, before, who = run(go())
    assert set(sentences) == {"The advice in the create table message must be true or false."}, sentences
    assert who["type"] == "lobby_list" and who["tables"] == before["tables"]  # still in the lobby, nothing made


def test_the_client_allows_advice_only_as_its_tables_state_says() -> None:
    """A table's state with advice allowed sets it; one from a server written before the option (no field) and
    leaving the table for the lobby do not."""
    client = OnlineClient("ws://127.0.0.1:1/play", "Ann", link=lambda *parts: cast(Link, None))
    state = m.TableState(4, None, 0, 0, Rules(), (m.Seat("Ann", None, True), m.Seat("Bob", None, True)), True, None,
                         advice=True)
    older = json.loads(m.encode(state))
    del older["advice"]
    told = []
    for message in (state, m.decode_from_server(json.dumps(older)), state, m.Lobby((), 0, ())):
        client._deliver(message)
        told.append(client.advice_allowed)
    assert told == [True, False, True, False]  # the last: a moderator closed the table
