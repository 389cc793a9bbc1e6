"""A name protected by a password, by ear in real terminals: Ann protects her name from the lobby of ``audiocrib
online`` in tmux, then signs in with it from a second computer (a data folder of its own, without her token), and
signs out everywhere from there. The password is never spoken nor shown: each character typed is a star."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import aiohttp

from audiocrib.server.serve import STORE_FILE
from audiocrib.shell.tablesetup import TableSetup
from tests.speechd import SpeechDispatcher
from tests.test_online_terminal import heard, person
from tests.test_serve import Running, ask, hello, refused
from tests.test_terminal import require_tools

PASSWORD = "Correct Horse 9"


def test_a_name_is_protected_in_one_terminal_and_signed_in_to_from_another(tmp_path: Path) -> None:
    require_tools()
    server = Running(tmp_path / "server")
    setup = TableSetup(players=2)
    with SpeechDispatcher() as first_speech, SpeechDispatcher() as second_speech:
        first = person("ann1", tmp_path / "first", first_speech, server.port, setup)
        second = None
        try:
            heard(first_speech, "Type the name the others will hear")
            first.keys("Ann", "Enter")
            heard(first_speech, "Lobby: ")
            first.keys("Down", "Down", "Down", "Down", "Down", "Down")
            heard(first_speech, "Your name and password. 7 of 10.")
            first.keys("Enter")
            heard(first_speech, "Your name, Ann, has no password. Protect your name with a password. 1 of 2.")
            first.keys("Enter")
            heard(first_speech, "Type the new password")
            first.keys("short", "Enter")
            heard(first_speech, "A password must be from eight to one hundred twenty-eight printable characters")
            heard(first_speech, "Type the new password")
            first.keys(PASSWORD, "Enter")
            heard(first_speech, "Type the new password again")
            first.keys(PASSWORD, "Enter")
            heard(first_speech, "Your name Ann is now protected by a password")
            heard(first_speech, "Your name, Ann, is protected by a password. Change your password. 1 of 4.")
            first_token = json.loads((tmp_path / "first" / "online.json").read_text())["servers"][0]["token"]

            second = person("ann2", tmp_path / "second", second_speech, server.port, setup)  # another computer
            heard(second_speech, "Type the name the others will hear")
            second.keys("Ann", "Enter")
            heard(second_speech, "The name Ann is protected by a password; sign in with it, or choose another name.")
            heard(second_speech, "Type the password of the name Ann")
            second.keys("wrong horse 9", "Enter")
            heard(second_speech, "That is not the password of the name Ann.")
            second.keys(PASSWORD, "Enter")
            heard(second_speech, "Lobby: ")
            heard(first_speech, "You connected to this server from another copy of audiocrib")
            second_token = json.loads((tmp_path / "second" / "online.json").read_text())["servers"][0]["token"]
            assert second_token != first_token

            second.keys("Down", "Down", "Down", "Down", "Down", "Down", "Enter")
            heard(second_speech, "Your name, Ann, is protected by a password. Change your password. 1 of 4.")
            second.keys("Down", "Down")
            heard(second_speech, "Sign out everywhere else. 3 of 4.")
            second.keys("Enter")
            heard(second_speech, "You are signed out everywhere else")
            screens = first.screen() + second.screen()
        finally:
            first.close()
            if second is not None:
                second.close()
            server.stop()
        spoken = first_speech.spoken() + second_speech.spoken()
    kept = json.loads((tmp_path / "second" / "online.json").read_text())["servers"][0]["token"]
    assert kept not in (first_token, second_token)  # the new token of this computer, kept for next time
    for said in (*spoken, screens, (tmp_path / "first" / "raw.bin").read_bytes().decode("utf-8", "replace"),
                 (tmp_path / "second" / "raw.bin").read_bytes().decode("utf-8", "replace")):
        assert PASSWORD not in said and "Horse" not in said and "wrong horse" not in said
    assert any(line == "star" for line in spoken)
    raw = sqlite3.connect(tmp_path / "server" / STORE_FILE)
    assert raw.execute("SELECT COUNT(*) FROM tokens").fetchone()[0] == 1  # only the one kept just now
    raw.close()
    again = Running(tmp_path / "server")

    async def go() -> None:
        async with aiohttp.ClientSession() as session:
            for token in (first_token, second_token):
                async with session.ws_connect(again.url) as socket:
                    assert "does not know your token" in refused(await ask(socket, hello("Ann", token)))
            async with session.ws_connect(again.url) as socket:
                assert (await ask(socket, hello("Ann", kept)))["name"] == "Ann"
    try:
        asyncio.run(go())
    finally:
        again.stop()
