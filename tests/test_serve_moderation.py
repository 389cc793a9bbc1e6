"""Moderation with real server processes on loopback: each act by a moderator (and refused to anyone else), kept in
the store with who did it and why; bans of names and of addresses (127.0.0.2 and its neighbours stand for other
computers), and a time-limited ban ending (its end moved in the store, as a clock would move it); ``audiocrib
admin`` as a real process against a running server and a stopped one; and a player's own mutes."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from audiocrib.online.moderation import MODERATOR_WELCOME
from audiocrib.server.moderating import NOT_A_MODERATOR
from audiocrib.server.moderation import ask_server
from audiocrib.server.serve import STORE_FILE
from audiocrib.shell.tablesetup import TableSetup
from tests.netplayers import session_from
from tests.online_driver import Player
from tests.online_driver import running as shells
from tests.online_driver import until as shell_until
from tests.speechd import SpeechDispatcher
from tests.test_cli_hostile import PROGRAM, assert_refused
from tests.test_online import sign_in
from tests.test_online_terminal import heard, person
from tests.test_serve import Running, ask, create, hello, refused, run, until, until_closed
from tests.test_serve_watch import heard as sent_so_far
from tests.test_terminal import require_tools
from tests.web_client import Page
from tests.web_client import sign_in as web_sign_in

Socket = aiohttp.ClientWebSocketResponse


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A server whose moderators are Mo and Max (one named by option, one by file)."""
    folder = tmp_path_factory.mktemp("moderated")
    listed = folder / "moderators.txt"
    listed.write_text("# the club's moderators\n\nMax\n", encoding="utf-8")
    running = Running(folder / "data", "--moderator", "Mo", "--moderators", str(listed))
    yield running
    running.stop()


TOKENS: dict[tuple[Path, str], str] = {}
"""Each name's token on each server, by its data folder (not its port, which the system may give a later server
again): the moderators say hello in many tests."""


async def login(socket: Socket, name: str, server: Running) -> dict[str, Any]:
    """Hello as ``name``, with the token this name was given before on that server."""
    welcome = await ask(socket, hello(name, TOKENS.get((server.folder, name))))
    TOKENS[server.folder, name] = welcome["token"]
    assert await notice(socket) == MODERATOR_WELCOME  # and the client offers the moderator's acts
    return welcome


def moderate(act: str, target: str, minutes: int | None = None, reason: str = "Spam in the chat.") -> dict[str, Any]:
    return {"type": "moderate", "act": act, "target": target, "minutes": minutes, "reason": reason}


def acts(running: Running) -> list[tuple[str, str, str, int | None, str]]:
    """The acts kept in the store: who, what, whom, minutes, why."""
    db = sqlite3.connect(store_of(running))
    try:
        return [tuple(r) for r in db.execute(  # type: ignore[misc]
            "SELECT done_by, act, target, minutes, reason FROM moderation_acts ORDER BY id")]
    finally:
        db.close()


def store_of(running: Running) -> Path:
    return Path(running.lines[-2].removeprefix("The server's data is in ").rstrip(".")) / STORE_FILE


async def notice(socket: Socket) -> str:
    sentence: str = (await until(socket, "notice"))["sentence"]
    return sentence


def test_the_start_names_the_moderators(server: Running) -> None:
    assert "Moderators: Mo, Max." in server.lines


def test_every_act_is_refused_to_a_player_who_is_not_a_moderator(server: Running) -> None:
    async def go() -> list[str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as pat, \
                session.ws_connect(server.url) as quin:
            await ask(pat, hello("Pat"))
            await ask(quin, hello("Quin"))
            table = await ask(quin, create(True))
            said = [refused(await ask(pat, moderate(act, "Quin", 5))) for act in
                    ("kick", "mute", "unmute", "ban", "ban_address", "unban")]
            said.append(refused(await ask(pat, moderate("close", str(table["number"])))))
            said.append((await ask(quin, {"type": "chat", "text": "still here"}))["type"])
            return said
    said = run(go())
    assert said[:-1] == [NOT_A_MODERATOR] * 7
    assert said[-1] == "chat_from"  # Quin was not touched
    assert not [a for a in acts(server) if a[2] in ("Quin",)]


def test_a_moderator_kicks_a_player_who_is_told_why_and_kept_out_a_minute(server: Running) -> None:
    async def go() -> tuple[str, str, str, int, str, str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as mo, \
                session.ws_connect(server.url) as kim:
            await login(mo, "Mo", server)
            welcome = await ask(kim, hello("Kim"))
            done = await ask(mo, moderate("kick", "kim", reason="Flooding the lobby"))
            got, code, reason = await until_closed(kim)
            async with session.ws_connect(server.url) as again:
                back = refused(await ask(again, hello("Kim", welcome["token"])))
            return done["sentence"], done["type"], got[-1]["sentence"], code, reason, back
    done, kind, told, code, reason, back = run(go())
    assert (kind, done) == ("notice", "Kim is removed from the server.")
    assert told == "A moderator removed you from this server. Reason: Flooding the lobby."
    assert (code, reason) == (1008, "Removed from the server.")
    assert back == "Kim is banned from this server for another minute."
    assert ("Mo", "kick", "Kim", 1, "Flooding the lobby") in acts(server)


def test_a_kicked_players_seat_goes_on_as_a_dropped_players(server: Running) -> None:
    async def go() -> list[bool]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as mo, \
                session.ws_connect(server.url) as lee, session.ws_connect(server.url) as nat:
            await login(mo, "Mo", server)
            await ask(lee, hello("Lee"))
            await ask(nat, hello("Nat"))
            table = await ask(lee, create(False))
            await ask(nat, {"type": "join", "table": table["code"]})
            await lee.send_str(json.dumps({"type": "start"}))
            await until(nat, "view")
            await ask(mo, moderate("kick", "Nat"))
            await until_closed(nat)
            while (await until(lee, "notice"))["sentence"] != "Nat has lost the connection; the table waits.":
                pass
            await sent_so_far(lee)  # all that came before (table states from before the kick among it)
            state = await ask(lee, {"type": "who"})  # so the answer is the table as it is now
            return state["type"], state["started"], [s["connected"] for s in state["seats"]]
    assert run(go()) == ("table", True, [True, False])


def test_a_muted_players_chat_is_refused_until_the_mute_ends_or_is_lifted(server: Running) -> None:
    async def go() -> list[str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as max_, \
                session.ws_connect(server.url) as ola:
            await login(max_, "Max", server)
            await ask(ola, hello("Ola"))
            await ask(ola, create(False, ("person", "easy")))
            said = [(await ask(max_, moderate("mute", "Ola", 30, "Insults.")))["sentence"], await notice(ola)]
            said.append(refused(await ask(ola, {"type": "chat", "text": "hello?"})))
            said.append(refused(await ask(max_, moderate("mute", "Ola"))))  # no time given
            said.append((await ask(max_, moderate("unmute", "Ola", reason="Apologised.")))["sentence"])
            said.append(await notice(ola))
            said.append((await ask(ola, {"type": "chat", "text": "sorry"}))["text"])
            return said
    assert run(go()) == [
        "Ola's chat is muted for another 30 minutes.",
        "A moderator muted your chat for another 30 minutes. Reason: Insults.",
        "Your chat is muted for another 30 minutes.",
        "Say for how many minutes to mute Ola's chat.",
        "Ola may chat again.",
        "A moderator let you chat again.",
        "sorry",
    ]
    kept = acts(server)
    assert ("Max", "mute", "Ola", 30, "Insults.") in kept and ("Max", "unmute", "Ola", None, "Apologised.") in kept


def test_a_name_banned_for_good_is_removed_and_kept_out_until_unbanned(server: Running) -> None:
    async def go() -> list[str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as mo, \
                session.ws_connect(server.url) as pip:
            await login(mo, "Mo", server)
            token = (await ask(pip, hello("Pip")))["token"]
            said = [(await ask(mo, moderate("ban", "Pip", None, "Cheating with a second name.")))["sentence"]]
            got, _, _ = await until_closed(pip)
            said.append(got[-1]["sentence"])
            async with session.ws_connect(server.url) as again:
                said.append(refused(await ask(again, hello("Pip", token))))
                said.append(refused(await ask(again, hello("PIP"))))  # as a new player, in any case
            said.append((await ask(mo, moderate("unban", "Pip", reason="Appeal heard.")))["sentence"])
            async with session.ws_connect(server.url) as again:
                said.append((await ask(again, hello("Pip", token)))["type"])
            return said
    assert run(go()) == [
        "Pip is banned from this server for good.",
        "A moderator banned you from this server for good. Reason: Cheating with a second name.",
        "Pip is banned from this server for good.",
        "PIP is banned from this server for good.",
        "Pip may come back.",
        "welcome",
    ]
    assert ("Mo", "ban", "Pip", None, "Cheating with a second name.") in acts(server)


def test_an_address_ban_keeps_out_every_name_from_it_until_it_ends(server: Running) -> None:
    """The address of a named player is banned for ten minutes: they are removed, a new name from that address is
    refused, another address is not; once the ban's end has passed (moved in the store), the address is let in."""
    async def go(stage: int) -> list[str]:
        async with aiohttp.ClientSession() as mods, session_from("127.0.0.2") as two, \
                session_from("127.0.0.3") as three:
            if stage == 0:
                async with mods.ws_connect(server.url) as mo, two.ws_connect(server.url) as rex:
                    await login(mo, "Mo", server)
                    await ask(rex, hello("Rex"))
                    said = [(await ask(mo, moderate("ban_address", "Rex", 10, "Many throwaway names.")))["sentence"]]
                    got, _, _ = await until_closed(rex)
                    said.append(got[-1]["sentence"])
                    said.append(refused(await ask(mo, moderate("ban_address", "Rex", 10))))  # gone: no address
            else:
                said = []
            async with two.ws_connect(server.url) as other, three.ws_connect(server.url) as neighbour:
                said.append((await ask(other, hello(f"Sid{stage}")))
                            .get("sentence", "welcome"))
                said.append((await ask(neighbour, hello(f"Ted{stage}")))["type"])
            return said
    assert run(go(0)) == [
        "The address of Rex is banned from this server for another 10 minutes.",
        "A moderator banned your address from this server for another 10 minutes. Reason: Many throwaway names.",
        "Rex is not connected, so their address is not known; ban the name.",
        "Your address is banned from this server for another 10 minutes.",
        "welcome",
    ]
    db = sqlite3.connect(store_of(server))
    with db:
        db.execute("UPDATE bans SET until = ? WHERE kind = 'address' AND target = '127.0.0.2'", (time.time() - 1,))
    db.close()
    assert run(go(1)) == ["welcome", "welcome"]
    assert ("Mo", "ban_address", "Rex at 127.0.0.2", 10, "Many throwaway names.") in acts(server)


def test_a_moderator_closes_a_table_and_its_people_are_back_in_the_lobby(server: Running) -> None:
    async def go() -> tuple[str, str, str, str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as max_, \
                session.ws_connect(server.url) as uli:
            await login(max_, "Max", server)
            await ask(uli, hello("Uli"))
            table = await ask(uli, create(True, ("person", "easy")))
            await uli.send_str(json.dumps({"type": "start"}))
            await until(uli, "view")
            done = (await ask(max_, moderate("close", str(table["number"]), reason="A table left running.")))
            told = await notice(uli)
            lobby = await until(uli, "lobby_list")
            assert table["number"] not in [t["number"] for t in lobby["tables"]]
            again = refused(await ask(uli, {"type": "join", "table": str(table["number"])}))
            return done["sentence"], told, again, str(table["number"])
    done, told, again, number = run(go())
    assert done == f"Table {number} is closed."
    assert told == f"A moderator closed table {number}. Reason: A table left running."
    assert again == f"There is no table {number} open on this server."
    assert ("Max", "close", f"table {number}", None, "A table left running.") in acts(server)


def test_a_moderator_cannot_act_on_another(server: Running) -> None:
    async def go() -> list[str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as mo, \
                session.ws_connect(server.url) as max_:
            await login(mo, "Mo", server)
            await login(max_, "Max", server)
            return [refused(await ask(mo, moderate(act, "Max", 5))) for act in ("kick", "mute", "ban")] + \
                [refused(await ask(mo, moderate(act, target))) for act, target in (
                    ("kick", "Nobody Here"), ("kick", "Mo"), ("close", "\u00b2"), ("close", "999999999999999999999"))]
    assert run(go()) == ["Max is a moderator too; only the operator can do that."] * 3 + [
        "There is no player called Nobody Here on this server.", "A moderator does not act on themselves.",
        "There is no such table open on this server.", "There is no table 999999999999999999999 open on this server."]


def test_a_player_mutes_anothers_chat_for_themselves_across_reconnects(server: Running) -> None:
    """Wyn mutes Vi: Vi's lines still reach Vi (and would reach others) but not Wyn, even on a new connection;
    once unmuted, Wyn hears Vi again."""
    async def heard(wyn: Socket, vi: Socket, text: str) -> bool:
        await ask(vi, {"type": "chat", "text": text})  # Vi's own copy: Wyn's was sent before it, if at all
        return (await ask(wyn, {"type": "ping", "number": 7}))["type"] == "chat_from"

    async def go() -> list[Any]:
        async with aiohttp.ClientSession() as session, session.ws_connect(server.url) as wyn, \
                session.ws_connect(server.url) as vi:
            token = (await ask(wyn, hello("Wyn")))["token"]
            await ask(vi, hello("Vi"))
            table = await ask(wyn, create(False))
            await ask(vi, {"type": "join", "table": table["code"]})
            await until(wyn, "notice")
            await until(wyn, "notice")
            said: list[Any] = [await heard(wyn, vi, "first")]
            await until(wyn, "pong")
            said.append((await ask(wyn, {"type": "mute", "name": "vi"}))["sentence"])
            said.append(await heard(wyn, vi, "second"))
            said.append(refused(await ask(wyn, {"type": "mute", "name": "Wyn"})))
            await wyn.close()
            async with session.ws_connect(server.url) as back:
                await ask(back, hello("Wyn", token))
                while (await ask(back, {"type": "ping", "number": 1}))["type"] != "pong":
                    pass
                said.append(await heard(back, vi, "third"))
                said.append((await ask(back, {"type": "unmute", "name": "Vi"}))["sentence"])
                said.append(await heard(back, vi, "fourth"))
            return said
    assert run(go()) == [True, "You will not hear Vi's chat; unmute them to hear it again.", False,
                         "You cannot mute your own chat; just say nothing.", False, "You hear Vi's chat again.", True]


# ----------------------------------------------------------------- audiocrib admin


def admin(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PROGRAM), "admin", "--data-dir", str(folder), *args], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)


def test_admin_acts_on_a_running_server(tmp_path: Path) -> None:
    folder = tmp_path / "data dir #1"  # read as a file URI for the records: a space and a # in it are its own
    running = Running(folder)
    try:
        async def go() -> dict[str, Any]:
            async with session_from("127.0.0.4") as session, session.ws_connect(running.url) as yan, \
                    session.ws_connect(running.url) as zoe:
                await ask(yan, hello("Yan"))
                await ask(zoe, hello("Zoe"))
                table = await ask(zoe, create(True, ("person", "easy")))
                out: dict[str, Any] = {"table": table["number"]}
                who, tables = await asyncio.gather(asyncio.to_thread(admin, folder, "who"),
                                                   asyncio.to_thread(admin, folder, "tables"))
                out["who"], out["tables"] = who.stdout, tables.stdout
                kick = await asyncio.to_thread(admin, folder, "kick", "Yan", "--reason", "Testing the kick")
                out["kick"] = (kick.returncode, kick.stdout, kick.stderr)
                out["told"] = (await until_closed(yan))[0][-1]["sentence"]
                ban = await asyncio.to_thread(admin, folder, "ban", "Zoe", "--minutes", "120")
                out["ban"] = (ban.returncode, ban.stdout)
                out["zoe"] = (await until_closed(zoe))[0][-1]["sentence"]
                again = await asyncio.to_thread(admin, folder, "kick", "Zoe")
                out["again"] = (again.returncode, again.stdout, again.stderr)
                return out
        out = run(go())
        assert out["who"] == "Yan: 127.0.0.4, in the lobby\nZoe: 127.0.0.4, at table" f" {out['table']}\n"
        assert out["tables"].startswith(f"Table {out['table']}, code ") and \
            out["tables"].endswith(", open, listed: Zoe, Easy\n"), out["tables"]
        assert out["kick"] == (0, "Yan is removed from the server.\n", "")
        assert out["told"] == "The operator removed you from this server. Reason: Testing the kick."
        assert out["ban"] == (0, "Zoe is banned from this server for another 2 hours.\n")
        assert out["zoe"] == "The operator banned you from this server for another 2 hours."
        assert out["again"] == (1, "", "audiocrib: Zoe is not connected.\n")
        listed = admin(folder, "acts").stdout.splitlines()
        assert listed[0].endswith(": the operator: kick Yan, 1 minute: Testing the kick")
        assert listed[1].endswith(": the operator: ban Zoe, 120 minutes: no reason given")
    finally:
        running.stop()


def test_admin_works_on_the_store_of_a_stopped_server(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    running = Running(folder)

    async def first() -> str:
        async with aiohttp.ClientSession() as session, session.ws_connect(running.url) as amy:
            token: str = (await ask(amy, hello("Amy")))["token"]
            return token
    token = run(first())
    running.stop()
    kick, who = admin(folder, "kick", "Amy"), admin(folder, "who")
    assert (kick.returncode, kick.stderr) == (1, "audiocrib: The server is not running, so nobody is connected.\n")
    assert (who.returncode, who.stderr) == (1, kick.stderr)
    ban = admin(folder, "ban", "Amy", "--reason", "Offline ban")
    address = admin(folder, "ban", "--address", "127.0.0.5", "--minutes", "60")
    assert (ban.returncode, ban.stdout) == (0, "Amy is banned from this server for good.\n")
    assert (address.returncode, address.stdout) == (0, "The address 127.0.0.5 is banned from this server for"
                                                        " another hour.\n")
    assert admin(folder, "bans").stdout == "address 127.0.0.5, for another hour\nname Amy, for good\n"
    running = Running(folder)
    try:
        async def second() -> list[str]:
            async with aiohttp.ClientSession() as session, session.ws_connect(running.url) as amy, \
                    session_from("127.0.0.5") as far, far.ws_connect(running.url) as bea:
                return [refused(await ask(amy, hello("Amy", token))), refused(await ask(bea, hello("Bea")))]
        assert run(second()) == ["Amy is banned from this server for good.",
                                 "Your address is banned from this server for another hour."]
        lifted = admin(folder, "unban", "Amy")
        assert (lifted.returncode, lifted.stdout) == (0, "Amy may come back.\n")
        lifted = admin(folder, "unban", "--address", "127.0.0.5")
        assert (lifted.returncode, lifted.stdout) == (0, "The address 127.0.0.5 may come back.\n")
        again = admin(folder, "unban", "--address", "127.0.0.5")
        assert (again.returncode, again.stderr) == (1, "audiocrib: The address 127.0.0.5 is not banned.\n")
    finally:
        running.stop()


@pytest.mark.parametrize(("args", "words"), [
    (("shout", "Bob"), ("shout is not something admin does",)),
    (("kick",), ("Say whom to kick",)),
    (("kick", "Bob\x1b[31m"), ("is not a player's name", "\\x1b")),
    (("mute", "Bob"), ("--minutes",)),
    (("mute", "Bob", "--minutes", "0"), ("--minutes takes a whole number of minutes",)),
    (("ban", "Bob", "--minutes", "9" * 40), ("--minutes takes",)),
    (("ban", "--address", "300.1.1.1"), ("--address takes an address",)),
    (("ban", "Bob", "--address", "127.0.0.9"), ("not both",)),
    (("close", "four"), ("Say which table to close",)),
    (("close", "\u00b2"), ("Say which table to close",)),
    (("kick", "Bob", "--reason", "\x07" * 3), ("--reason takes",)),
    (("who", "Bob"), ("admin who takes nothing more",)),
    (("kick", "Bob", "--minutes", "5"), ("--minutes is for mute and ban",)),
    ((), ("Say what to do",)),
])
def test_admin_refuses_what_it_is_given_wrong_in_one_sentence(tmp_path: Path, args: tuple[str, ...],
                                                               words: tuple[str, ...]) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / STORE_FILE).touch()
    result = admin(tmp_path / "data", *args)
    assert_refused(result.returncode, result.stdout, result.stderr, *words)


def test_admin_without_a_servers_data_says_so(tmp_path: Path) -> None:
    result = admin(tmp_path / "nothing", "who")
    assert_refused(result.returncode, result.stdout, result.stderr, "There is no server's data in",
                   "--data-dir")


def test_a_moderators_file_is_checked_as_hostile_input(tmp_path: Path) -> None:
    bad = tmp_path / "mods.txt"
    bad.write_text("Ann\n<script>\n", encoding="utf-8")
    result = subprocess.run([str(PROGRAM), "serve", "--port", "0", "--data-dir", str(tmp_path / "d"),
                             "--moderators", str(bad)], capture_output=True, text=True, timeout=60,
                            stdin=subprocess.DEVNULL)
    assert_refused(result.returncode, result.stdout, result.stderr, "--moderators", "<script>")
    result = subprocess.run([str(PROGRAM), "serve", "--port", "0", "--data-dir", str(tmp_path / "d"),
                             "--moderator", ""], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert_refused(result.returncode, result.stdout, result.stderr, "--moderator")
    assert not (tmp_path / "d").exists()


# ----------------------------------------------------------------- by keys, in a real terminal


def test_a_moderator_kicks_a_player_by_keys_in_a_real_terminal(tmp_path: Path) -> None:
    """Mo, a moderator, runs ``audiocrib online`` in a real terminal (tmux) with a Speech Dispatcher of their own;
    from the lobby's people menu they choose Kim, then remove Kim from the server with a typed reason. Kim, on a
    connection of their own, is told why and closed; the act is kept in the store."""
    require_tools()
    running = Running(tmp_path / "server", "--moderator", "Mo")
    kim_heard: list[str] = []
    kim_in = threading.Event()

    async def kim() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(running.url) as socket:
            await ask(socket, hello("Kim"))
            kim_in.set()
            got, _, _ = await until_closed(socket)
            kim_heard.extend(g["sentence"] for g in got if g["type"] == "notice")

    kim_task = threading.Thread(target=lambda: asyncio.run(kim()))
    kim_task.start()
    try:
        assert kim_in.wait(15)
        with SpeechDispatcher() as speech:
            mo = person("mo", tmp_path / "mo", speech, running.port, TableSetup())
            try:
                heard(speech, "Type the name the others will hear")
                mo.keys("Mo", "Enter")
                heard(speech, "You are a moderator on this server.")
                heard(speech, "Lobby: ")
                mo.keys("Down", "Down", "Down", "Down", "Down", "Down", "Down")
                heard(speech, "Mute or moderate a player. 8 of 10.")
                mo.keys("Enter")
                heard(speech, "Players: Kim. 1 of 2.")
                mo.keys("Enter")
                heard(speech, "Kim: Stop hearing Kim's chat. 1 of 10.")
                mo.keys("Down", "Down")
                heard(speech, "Remove Kim from the server. 3 of 10.")
                mo.keys("Enter")
                heard(speech, "Type the reason")
                mo.keys("Spamming the lobby", "Enter")
                heard(speech, "Kim is removed from the server.")
                heard(speech, "Lobby: ")
            finally:
                mo.close()
        kim_task.join(15)
        assert kim_heard == ["A moderator removed you from this server. Reason: Spamming the lobby."]
        assert ("Mo", "kick", "Kim", 1, "Spamming the lobby") in acts(running)
    finally:
        running.stop()
        kim_task.join(15)


def test_by_keys_a_player_mutes_another_and_a_moderator_closes_their_game(tmp_path: Path) -> None:
    """In the shell (pipe input): at a table with a computer player, Bob mutes Ann's chat from the people menu (x)
    and no longer hears it; Ann, a moderator, closes the table from the same menu with a reason, and Bob, mid-game,
    hears why and is back in the lobby."""
    running = Running(tmp_path / "data", "--moderator", "Ann")
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=3, target=61, levels=("easy", "easy")))
    bob = Player("Bob", tmp_path / "bob")

    async def script() -> None:
        async with shells(ann, bob):
            await sign_in(ann, running.port)
            await ann.hears("You are a moderator on this server.")
            await ann.choose("Create a table")
            await ann.choose("Create the table")
            await sign_in(bob, running.port)
            await bob.choose("Table 1, Ann's")
            await ann.hears("Bob sits down at the table.")
            await bob.press("x")
            await bob.hears("Players: Ann. 1 of 2.")
            await bob.press("enter")
            await bob.hears("Ann: Stop hearing Ann's chat. 1 of 3.")  # no moderator's acts for Bob
            await bob.press("enter")
            await bob.hears("You will not hear Ann's chat; unmute them to hear it again.")
            await ann.press("/")
            await ann.type("Can you hear me?")
            await ann.hears("You say: Can you hear me?")
            await ann.choose("Start the game")
            await bob.hears("The game begins.")
            await ann.hears("The game begins.")
            await ann.press("x")
            await ann.hears("Players: Bob. 1 of 3.")
            await ann.press("down")
            await ann.hears("Close this table. 2 of 3.")
            await ann.press("enter")
            await ann.hears(lambda s: s.startswith("Type the reason"))
            await ann.type("Testing the close")
            await ann.hears("Table 1 is closed.")
            await bob.hears("A moderator closed table 1. Reason: Testing the close.")
            await bob.hears("Lobby: no tables open.")
            await shell_until(lambda: bob.session.mode.value == "lobby" and bob.session.table is None, "Bob's lobby")
            assert not [s for s in bob.said if "Can you hear me" in s]
    try:
        asyncio.run(script())
    finally:
        running.stop()


def test_a_moderator_in_a_browser_kicks_from_the_people_menus_buttons(tmp_path: Path) -> None:
    """The browser's page runs the same session: its screen lists the people menu as buttons, and the act is
    done by choosing them and typing the reason in the page's box."""
    running = Running(tmp_path / "data", "--moderator", "Mo")
    page = Page(running.port)

    async def script() -> tuple[list[str], list[str], str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(running.url) as kim:
            await ask(kim, hello("Kim"))
            try:
                await web_sign_in(page, "Mo")
                await page.hears("You are a moderator on this server.")
                await page.choose("Mute or moderate a player")
                people = await page.screen(lambda s: s["mode"] == "people menu")
                mark = len(page.got)
                await page.choose("Kim")
                acts = await page.screen(lambda s: s["menu"] is not None and "Kim" not in s["menu"]["items"],
                                         since=mark)
                await page.choose("Remove Kim from the server")
                await page.screen(lambda s: s["typing"] is not None and s["typing"]["prompt"] == "Reason")
                mark = await page.send({"type": "line", "text": "Testing from a browser"})
                await page.hears("Kim is removed from the server.", since=mark)
                got, _, _ = await until_closed(kim)
                return people["menu"]["items"], acts["menu"]["items"], got[-1]["sentence"]
            finally:
                await page.close()
    try:
        people, offered, told = run(script())
    finally:
        running.stop()
    assert people == ["Kim", "Back"]
    assert offered[:3] == ["Stop hearing Kim's chat", "Hear Kim's chat again", "Remove Kim from the server"]
    assert told == "A moderator removed you from this server. Reason: Testing from a browser."


def test_a_request_in_the_store_is_checked_as_hostile_input(tmp_path: Path) -> None:
    """Requests written into the store by hand (not by audiocrib admin) are answered, never carried out unchecked,
    and never left to be tried again."""
    running = Running(tmp_path / "data")
    try:
        async def yan() -> None:
            async with aiohttp.ClientSession() as session, session.ws_connect(running.url) as socket:
                await ask(socket, hello("Yan"))
        run(yan())
        path = str(store_of(running))
        answers = [ask_server(path, command) for command in (
            {"act": "ban", "target": "Yan", "minutes": -5, "reason": ""},
            {"act": "ban", "target": "Yan", "minutes": True, "reason": ""},
            {"act": "kick", "target": "<b>", "reason": ""},
            {"nonsense": 1},
            {"act": "who", "target": None},
        )]
        db = sqlite3.connect(path)
        waiting = db.execute("SELECT COUNT(*) FROM admin_requests").fetchone()[0]
        db.close()
    finally:
        running.stop()
    assert answers[:2] == [(False, "That request could not be read.")] * 2
    assert answers[2][0] is False and answers[2][1].startswith("The name must be from one to twenty-four")
    assert answers[3:] == [(False, "That request could not be read."), (True, "Nobody is connected.")]
    assert waiting == 0
