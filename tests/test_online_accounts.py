"""The account screen in the shell (real prompt_toolkit applications on pipes, a real server): protecting a name
asks the password twice and says when the two differ, a wrong old password is said and the screen comes back,
Escape in a password box goes back without saying the last change again, and the password comes off. A second
computer signs in with the password; once Ann signs out everywhere, its token is refused and it asks the password
again."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from audiocrib.shell.servers import SERVERS_FILE
from tests.online_driver import Player, running
from tests.test_online import sign_in
from tests.test_serve import Running, serving

PASSWORD = "long enough 1"
PROTECTED = "Your name, Ann, is protected by a password. Change your password. 1 of 4."


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


async def secret(player: Player, text: str) -> None:
    """Type a password: each key is answered "star", never with the character."""
    said = await player.press(*("space" if c == " " else c for c in text))
    assert said == ["star"] * len(text), said
    await player.press("enter")


def test_the_account_screen_by_keys(server: Running, tmp_path: Path) -> None:
    ann = Player("Ann", tmp_path / "ann")
    other = Player("Ann", tmp_path / "other")

    async def script() -> None:
        async with running(ann, other):
            await sign_in(ann, server.port)
            await ann.choose("Your name and password")
            await ann.hears("Your name, Ann, has no password. Protect your name with a password. 1 of 2.")
            await ann.press("enter")
            await ann.hears(lambda s: s.startswith("Type the new password"))
            await secret(ann, PASSWORD)
            await secret(ann, PASSWORD + "x")
            await ann.hears("The two passwords differ; nothing is changed.")
            await ann.hears("Your name, Ann, has no password. Protect your name with a password. 1 of 2.")
            await ann.press("enter")
            await secret(ann, PASSWORD)
            await secret(ann, PASSWORD)
            await ann.hears("Your name Ann is now protected by a password; sign in with it from any other computer"
                            " or browser.")
            await ann.hears(PROTECTED)
            await ann.press("enter")  # Change your password
            await secret(ann, "not the one 1")
            await secret(ann, "new password 2")
            await secret(ann, "new password 2")
            await ann.hears("That is not your password; give the one your name has now.")
            await ann.hears(PROTECTED)
            said = await ann.press("down", "enter", "escape")  # Take the password off; then go back
            assert said[-1] == PROTECTED and not any("protected by a password;" in s for s in said), said

            await other.choose("Play online")  # a second computer, signing in while Ann's first is connected
            await other.type(f"127.0.0.1:{server.port}")
            await other.type("Ann")
            await other.hears("Type the password of the name Ann, then press Enter; Escape to choose another name.")
            await secret(other, PASSWORD)
            await other.hears(lambda s: s.startswith("Lobby: "))
            await ann.hears(lambda s: s.startswith("You connected to this server from another copy"))
            await sign_in_again(ann)  # and so Ann's first computer takes the connection back
            await ann.hears(lambda s: s.startswith("Lobby: "))
            await ann.choose("Your name and password")
            await ann.hears(PROTECTED)
            await other.hears(lambda s: s.startswith("You connected to this server from another copy"))
            await ann.press("down", "down", "enter")  # Sign out everywhere else
            await ann.hears(lambda s: s.startswith("You are signed out everywhere else"))
            await other.hears(lambda s: s.startswith("Main menu"))
            await other.choose("Play online")  # its token was revoked meanwhile: forgotten, and the password asked
            await other.hears("The name Ann is protected by a password; sign in with it, or choose another name.")
            await other.hears("Type the password of the name Ann, then press Enter; Escape to choose another name.")
            assert other.session.book.token_for(other.session.address.url) is None  # the revoked token, forgotten
            await secret(other, PASSWORD)
            await other.hears(lambda s: s.startswith("Lobby: "))
            kept = json.loads((tmp_path / "other" / SERVERS_FILE).read_text())["servers"]
            assert [entry["name"] for entry in kept] == ["Ann"]  # the new token of this sign-in, kept
            await ann.hears(lambda s: s.startswith("You connected to this server from another copy"))
            await sign_in_again(ann)  # the first computer's token was kept by signing out everywhere
            await ann.hears(lambda s: s.startswith("Lobby: "))
            await ann.choose("Your name and password")
            await ann.hears(PROTECTED)
            await ann.press("down", "enter")  # Take the password off
            await secret(ann, PASSWORD)
            await ann.hears("Your name Ann is no longer protected by a password.")
            await ann.hears("Your name, Ann, has no password. Protect your name with a password. 1 of 2.")
            await ann.press("escape")
            await ann.hears(lambda s: s.startswith("Lobby: "))
        for player in (ann, other):
            assert not any(PASSWORD in said or "password 2" in said for said in player.said)
    asyncio.run(script())


async def sign_in_again(player: Player) -> None:
    """After another copy took the connection: Play online again from the main menu (the token is kept)."""
    await player.hears(lambda s: s.startswith("Main menu") or "Play online" in s)
    await player.choose("Play online")
