"""Names that last, against a real ``audiocrib serve`` on loopback: a password protects a name, a second computer
signs in with it (each keeping its own token), wrong passwords are limited per address and per name, the password
changes and comes off, signing out everywhere revokes every token and closes the other connection, names without
a password work as before, and a store of version 4 keeps its players and tokens."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.online.messages import AccountState, decode_from_server
from audiocrib.server.accounts import ADDRESS_TOO_MANY, SIGNED_OUT, WRONG_OLD
from audiocrib.server.records import new_token, token_hash
from audiocrib.server.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION
from audiocrib.server.serve import STORE_FILE
from tests.test_serve import Running, ask, hello, refused, run, serving, until_closed

PASSWORD = "correct horse 1"
PROTECTED = "The name {} is protected by a password; sign in with it, or choose another name."


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    """A server of this test's own: each password tried counts against the address's limit, which one server for
    every test would exhaust."""
    yield from serving(tmp_path / "data")


def sign_in(name: str, name_password: str) -> dict[str, Any]:
    return {**hello(name), "type": "sign_in", "name_password": name_password}


def set_password(old: str | None, new: str | None) -> dict[str, Any]:
    return {"type": "set_password", "old_password": old, "new_password": new}


def state(answer: dict[str, Any]) -> AccountState:
    message = decode_from_server(json.dumps(answer))
    assert isinstance(message, AccountState), answer
    return message


async def protect(session: aiohttp.ClientSession, url: str, name: str) -> str:
    """A new player called ``name`` whose name is protected by `PASSWORD`; returns their first token."""
    async with session.ws_connect(url) as socket:
        welcome = await ask(socket, hello(name))
        assert welcome["type"] == "welcome", welcome
        assert state(await ask(socket, set_password(None, PASSWORD))).protected
    token: str = welcome["token"]
    return token


def test_a_protected_name_is_signed_in_to_from_a_second_computer_and_both_tokens_work(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(server.url) as socket:
                first = await ask(socket, hello("Ann"))
                assert state(await ask(socket, {"type": "account"})) == AccountState("Ann", False, None, None)
                assert refused(await ask(socket, set_password(None, "short"))) == (
                    "A password must be from eight to one hundred twenty-eight printable characters; spaces are"
                    " fine.")
                done = state(await ask(socket, set_password(None, PASSWORD)))
                assert done.protected and done.token is None and done.sentence == (
                    "Your name Ann is now protected by a password; sign in with it from any other computer or"
                    " browser.")
            async with session.ws_connect(server.url) as socket:  # a second computer, without the token
                assert refused(await ask(socket, hello("ann"))) == PROTECTED.format("ann")
                assert refused(await ask(socket, sign_in("Ann", "wrong horse 1"))) == (
                    "That is not the password of the name Ann.")
                second = await ask(socket, sign_in("ANN", PASSWORD))
                assert second["type"] == "welcome" and second["name"] == "Ann"
                assert second["token"] != first["token"]
                assert state(await ask(socket, {"type": "account"})).protected
            for token in (first["token"], second["token"]):  # signing in elsewhere signed nobody out
                async with session.ws_connect(server.url) as socket:
                    assert (await ask(socket, hello("Ann", token)))["name"] == "Ann"
            async with session.ws_connect(server.url) as socket:
                assert refused(await ask(socket, sign_in("Nobody", PASSWORD))) == (
                    "No player on this server is called Nobody; connect without a password to choose the name.")
                assert "sign in message has no token" in refused(await ask(socket, {**sign_in("Ann", PASSWORD),
                                                                                     "token": first["token"]}))
    run(go())


def test_names_without_a_password_work_as_before(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(server.url) as socket:
                token = (await ask(socket, hello("Bea")))["token"]
            async with session.ws_connect(server.url) as socket:
                assert refused(await ask(socket, hello("bea"))) == (
                    "The name bea is taken on this server; choose another.")
                assert refused(await ask(socket, sign_in("Bea", PASSWORD))) == (
                    "The name Bea has no password; connect from the computer that has it, or choose another name.")
                assert (await ask(socket, hello("Bea", token)))["token"] == token
                assert refused(await ask(socket, set_password(PASSWORD, None))) == (
                    "Your name has no password to take off.")
                assert refused(await ask(socket, {"type": "sign_out_everywhere"})).startswith(
                    "Protect your name with a password first")
    run(go())


def test_the_password_is_changed_and_taken_off_with_the_old_one(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            token = await protect(session, server.url, "Cy")
            async with session.ws_connect(server.url) as socket:
                await ask(socket, hello("Cy", token))
                assert refused(await ask(socket, set_password(None, "new horse 2"))) == (
                    "Give the password your name has now, then the new one.")
                assert refused(await ask(socket, set_password("wrong horse 1", "new horse 2"))) == WRONG_OLD
                assert state(await ask(socket, set_password(PASSWORD, "new horse 2"))).sentence == (
                    "Your password is changed.")
            async with session.ws_connect(server.url) as socket:
                assert refused(await ask(socket, sign_in("Cy", PASSWORD))) == "That is not the password of the name Cy."
                assert (await ask(socket, sign_in("Cy", "new horse 2")))["type"] == "welcome"
                off = state(await ask(socket, set_password("new horse 2", None)))
                assert not off.protected and off.sentence == "Your name Cy is no longer protected by a password."
            async with session.ws_connect(server.url) as socket:
                assert "has no password" in refused(await ask(socket, sign_in("Cy", "new horse 2")))
                assert (await ask(socket, hello("Cy", token)))["type"] == "welcome"  # the token still works
    run(go())


def test_signing_out_everywhere_revokes_every_token_and_closes_the_other_connection(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            first = await protect(session, server.url, "Dee")
            async with session.ws_connect(server.url) as other:
                second = (await ask(other, sign_in("Dee", PASSWORD)))["token"]
                async with session.ws_connect(server.url) as here:
                    # the first computer's connection: connected again, it closes the second's (one at a time) ...
                    await ask(here, sign_in("Dee", PASSWORD))
                    assert await until_closed(other) == ([], 1008, "You connected again from elsewhere.")
            async with session.ws_connect(server.url) as other, session.ws_connect(server.url) as here:
                # ... so a connection left behind (its close not yet seen) is the one to be closed with the sentence
                await ask(other, hello("Dee", second))
                third = (await ask(here, sign_in("Dee", PASSWORD)))["token"]
                out = state(await ask(here, {"type": "sign_out_everywhere"}))
                assert out.sentence == ("You are signed out everywhere else: every other computer and browser must"
                                        " sign in again with your password.")
                assert out.token is not None and out.token not in (first, second, third)
                _, code, reason = await until_closed(other)
                assert code == 1008 and reason in (SIGNED_OUT, "You connected again from elsewhere.")
            for token in (first, second, third):
                async with session.ws_connect(server.url) as socket:
                    assert "does not know your token" in refused(await ask(socket, hello("Dee", token)))
            async with session.ws_connect(server.url) as socket:
                assert (await ask(socket, hello("Dee", out.token)))["name"] == "Dee"
    run(go())


def test_wrong_passwords_are_limited_per_name_from_any_address(server: Running) -> None:
    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            await protect(session, server.url, "Eve")
            async with session.ws_connect(server.url) as socket:
                for guess in range(5):
                    assert refused(await ask(socket, sign_in("Eve", f"guess {guess:04}"))) == (
                        "That is not the password of the name Eve.")
        wait = "Too many password tries for the name Eve; wait a few minutes and try again."
        elsewhere = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))  # another address (Linux: all 127/8 is local)
        async with aiohttp.ClientSession(connector=elsewhere) as session:
            async with session.ws_connect(server.url) as socket:
                assert refused(await ask(socket, sign_in("Eve", "guess 0005"))) == wait
                assert refused(await ask(socket, sign_in("eve", PASSWORD))) == wait  # even the right one, for now
                assert (await ask(socket, hello("Fay")))["type"] == "welcome"  # names without one go on as before
    run(go())


def test_wrong_passwords_are_limited_per_address_across_names(server: Running) -> None:
    names = ("Gus", "Hal", "Ivy", "Jon")

    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            for name in names:  # a hash each: setting a password costs the address too
                await protect(session, server.url, name)
            tries, answer = 0, ""
            async with session.ws_connect(server.url) as socket:
                for guess in range(4):  # fewer than a name's limit, for each name
                    for name in names:
                        answer = refused(await ask(socket, sign_in(name, f"guess {guess:04}")))
                        if answer == ADDRESS_TOO_MANY:
                            break
                        assert answer.startswith("That is not the password"), answer
                        tries += 1
                    if answer == ADDRESS_TOO_MANY:
                        break
            # ten at once, less the four passwords set, and the few the address regained meanwhile (one each 5 s)
            assert answer == ADDRESS_TOO_MANY and 6 <= tries < 12, (answer, tries)
            async with session.ws_connect(server.url) as socket:
                assert (await ask(socket, hello("Kim")))["type"] == "welcome"  # names without one go on as before
    run(go())


def test_a_store_of_version_four_keeps_its_players_and_their_tokens(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    raw = sqlite3.connect(folder / STORE_FILE)  # the file as the server of version 4 left it
    raw.executescript(SCHEMA)
    for statements in MIGRATIONS[:3]:
        for statement in statements:
            raw.execute(statement)
    tokens = {name: new_token() for name in ("Ann", "Bob")}
    for number, (name, token) in enumerate(tokens.items(), 1):
        raw.execute("INSERT INTO players VALUES (?, ?, ?, ?, 0)", (number, name, name.casefold(), token_hash(token)))
    raw.execute("PRAGMA user_version = 4")
    raw.commit()
    raw.close()
    running = Running(folder)

    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            for name, token in tokens.items():
                async with session.ws_connect(running.url) as socket:
                    assert await ask(socket, hello("Whoever", token)) == {
                        "type": "welcome", "name": name, "token": token, "version": 1, "light": True}
                    if name == "Ann":
                        assert state(await ask(socket, set_password(None, PASSWORD))).protected
            async with session.ws_connect(running.url) as socket:
                assert (await ask(socket, sign_in("Ann", PASSWORD)))["name"] == "Ann"
            async with session.ws_connect(running.url) as socket:
                assert refused(await ask(socket, hello("bob"))) == (
                    "The name bob is taken on this server; choose another.")
    try:
        run(go())
    finally:
        running.stop()
    raw = sqlite3.connect(folder / STORE_FILE)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION  # and on to the latest version
    assert raw.execute("SELECT COUNT(*) FROM tokens").fetchone()[0] == 3  # Ann's, Bob's, and Ann's sign-in
    kept = b"".join(row[0].encode() for row in raw.execute("SELECT password_hash FROM players WHERE name = 'Ann'"))
    assert kept.startswith(b"$argon2id$v=19$m=65536,t=3,p=4$") and PASSWORD.encode() not in kept
    raw.close()
