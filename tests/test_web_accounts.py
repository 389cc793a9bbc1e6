"""Signing in from a browser by keys: Ann protected her name from another computer; in headless Chromium the page
asks for her name, hears it is protected, takes the password in a password box (never spoken, never shown, never
sent back), and keeps the token of this sign-in; from the lobby she signs out everywhere else, and the page keeps
the new token."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from audiocrib.server.serve import STORE_FILE
from tests.browser_driver import Browser, browser_fixture, wait_until  # noqa: F401 (a fixture)
from tests.test_serve import Running, ask, hello, refused, serving

PASSWORD = "Correct Horse 7"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


async def protect(url: str) -> str:
    """Ann, from another computer: her name protected by `PASSWORD`; her token there."""
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as socket:
        token: str = (await ask(socket, hello("Ann")))["token"]
        answer = await ask(socket, {"type": "set_password", "old_password": None, "new_password": PASSWORD})
        assert answer["type"] == "account_state" and answer["protected"], answer
    return token


async def still_good(url: str, token: str) -> bool:
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as socket:
        answer = await ask(socket, hello("Ann", token))
        return answer["type"] == "welcome" or "does not know your token" not in refused(answer)


def tokens(server: Running) -> int:
    """How many tokens the server's store holds (read beside the running server: SQLite in WAL mode lets a reader
    in)."""
    arguments = list(server.process.args)  # type: ignore[arg-type]
    raw = sqlite3.connect(Path(arguments[arguments.index("--data-dir") + 1]) / STORE_FILE)
    try:
        return int(raw.execute("SELECT COUNT(*) FROM tokens").fetchone()[0])
    finally:
        raw.close()


def test_a_browser_signs_in_to_a_protected_name_by_keys_and_signs_out_everywhere(server: Running,
                                                                                 browser: Browser) -> None:
    page = browser
    elsewhere = asyncio.run(protect(server.url))
    page.open(f"http://127.0.0.1:{server.port}/")
    page.forget()
    page.reload()
    page.hears(lambda text: "name" in text.lower())
    page.script("document.activeElement.value = '';")
    page.type_line("Ann")
    page.hears("The name Ann is protected by a password; sign in with it, or choose another name.")
    page.hears(lambda text: text.startswith("Type the password of the name Ann"))
    wait_until(lambda: (page.screen().get("typing") or {}).get("secret"), "the password box")
    assert page.script("return document.activeElement.type;") == "password"
    page.type_line("wrong horse 7")
    page.hears("That is not the password of the name Ann.")
    wait_until(lambda: (page.screen().get("typing") or {}).get("secret"), "the password box again")
    page.type_line(PASSWORD)
    page.hears(lambda text: text.startswith("Lobby: "))
    wait_until(lambda: page.frames("keep") and page.frames("keep")[-1]["token"], "the token kept")
    signed_in = page.frames("keep")[-1]["token"]
    assert signed_in != elsewhere and page.frames("keep")[-1]["name"] == "Ann"
    assert tokens(server) == 2  # signing in here signed nobody out (asking the server would: one connection each)

    wait_until(lambda: page.screen().get("mode") == "lobby", "the lobby on screen")
    page.choose("Your name and password")
    page.hears("Your name, Ann, is protected by a password. Change your password. 1 of 4.")
    page.choose("Sign out everywhere else")
    page.hears(lambda text: text.startswith("You are signed out everywhere else"))
    wait_until(lambda: page.frames("keep")[-1]["token"] not in (signed_in, elsewhere), "the new token kept")
    kept = page.frames("keep")[-1]["token"]
    assert tokens(server) == 1
    assert not asyncio.run(still_good(server.url, elsewhere))
    assert not asyncio.run(still_good(server.url, signed_in))
    assert asyncio.run(still_good(server.url, kept))
    shown = page.script("return document.body.innerText;") + str(page.frames()) + " ".join(page.heard)
    assert "Horse" not in shown and "wrong horse" not in shown
