"""Watching a table in the terminal, for real: ``audiocrib serve`` on a free loopback port and two shells (the real
prompt_toolkit application on pipe input): Ann plays a computer player, Carol watches from the lobby with the
table's keys (every move heard, the questions answered, a move key answered in one sentence, chat among the
watchers), then Ann's game menu sends the watchers away and allows none; and a private table watched by its code,
the watcher caught up when the connection comes back after the server was killed and started again."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from audiocrib.engine.views import watcher_seat
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.telling.answers import WATCHING_HAND
from audiocrib.telling.narrator import Narrator
from tests.online_driver import Player, running, until
from tests.test_online import heard_in_order, sign_in
from tests.test_serve import Running, serving


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


def test_a_watcher_hears_the_game_with_the_tables_keys_and_the_host_sends_watchers_away(
        server: Running, tmp_path: Path) -> None:
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=2, target=61, levels=("easy",)))
    carol = Player("Carol", tmp_path / "carol")
    found: dict[str, object] = {}

    async def script() -> None:
        async with running(ann, carol):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.press("left")  # seats for people: one, Ann's
            await ann.choose("Create the table")
            await ann.choose("Start the game")
            await until(lambda: ann.session.moment == "discard", "Ann's first question")
            await ann.move()
            await sign_in(carol, server.port)
            await carol.choose("Table 1, Ann's: six-card cribbage, two players, to 61; under way, one computer"
                               " player; the coach's advice allowed; Enter to watch")
            await carol.hears("You are watching table 1. At table 1: Ann, the host; and Easy, a computer player."
                              " The coach's advice is allowed.")  # said once
            await ann.hears("Carol is watching.")
            assert carol.session.moment == "watching"
            found["keys"] = [(await carol.press(key))[-1] for key in ("enter", "2", "m")]
            found["w"] = (await carol.press("w"))[-1]
            await carol.press("/")
            await carol.type("Ann should keep the fives.")
            await carol.hears("You say: Ann should keep the fives.")
            loop = asyncio.get_running_loop()
            end = loop.time() + 60
            while sum(line.startswith(("Ann plays", "Easy plays")) for line in carol.said) < 4:
                assert loop.time() < end, f"Carol heard fewer than four plays; last: {carol.said[-8:]}"
                await ann.move()  # Ann plays on while Carol listens
                await asyncio.sleep(0.02)
            found["ann heard chat"] = [s for s in ann.said if "keep the fives" in s]
            found["s"] = (await carol.press("s"))[-1]
            await ann.press("escape")
            await ann.choose("Ask the watchers to leave")
            await carol.hears("Ann asked the watchers to leave.")
            await ann.hears("You asked the watchers to leave.")
            await carol.hears(lambda s: s.startswith("Lobby: "))
            await ann.press("escape")
            await ann.choose("Allow no watchers")
            await ann.hears("You allow no watchers at this table.")
            await carol.choose("Refresh the list")
            await carol.choose("Table 1, Ann's: six-card cribbage, two players, to 61; under way, one computer player;"
                               " the coach's advice allowed; no watchers.")  # no "Enter to watch" now
            await carol.hears("Table 1 has no watchers allowed.")

    asyncio.run(script())
    assert found["keys"] == [WATCHING_HAND] * 3
    assert found["w"] == ("At table 1: Ann, the host; and Easy, a computer player. The coach's advice is allowed."
                          " You are watching.")
    assert not any("watchers' chat goes" in line for line in ann.said)  # with no watchers, said only what changed
    assert found["ann heard chat"] == []  # the watchers' chat stays among the watchers
    assert str(found["s"]).startswith(("Ann ", "Easy ", "Nobody has scored", "The scores"))
    with Store(tmp_path / "data" / STORE_FILE) as store:
        game = store.game(1)
    seat = watcher_seat(game.rules)
    narrator = Narrator(game.view(0).names, game.rules, seat)
    heard = [line for event in game.view(seat).events for line in narrator.tell(event)]
    start = next(i for i, line in enumerate(heard) if line in carol.said)  # she came in mid-game
    told = [line for line in heard[start:] if line in carol.said or line.startswith(("Ann plays", "Easy plays"))]
    assert heard_in_order(carol.said, told[:8]) == []  # each move heard, in order, as the watchers' seat hears it
    assert not any("your hand" in line.lower() for line in carol.said)


def test_a_private_tables_watcher_by_its_code_is_caught_up_when_the_connection_comes_back(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    servers = [Running(folder)]
    port = servers[0].port
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=2, target=61, levels=("easy",)))
    carol = Player("Carol", tmp_path / "carol")

    async def script() -> None:
        async with running(ann, carol):
            await sign_in(ann, port)
            await ann.choose("Create a table")
            await ann.press("left")
            await ann.press("down")
            assert (await ann.press("right")) == ["Listed in the lobby: no, joined by its code."]  # watched by it too
            await ann.choose("Create the table")
            await ann.choose("Start the game")
            await until(lambda: ann.session.moment == "discard", "Ann's first question")
            assert ann.session.client is not None and ann.session.client.state is not None
            code = ann.session.client.state.code
            assert code is not None
            await sign_in(carol, port)
            await carol.choose("Join a table by its code")
            await carol.type(code)
            await carol.hears(lambda s: s.startswith("You are watching table 1."))
            servers[-1].stop(signal.SIGKILL)
            await carol.hears(lambda s: s.startswith("The connection to the server was lost"))
            servers.append(Running(folder, "--port", str(port)))
            await carol.hears("Connected again.")
            carol.mark = carol.said.index("Connected again.")
            await carol.hears(lambda s: s.startswith("Waiting for"))  # whose turn, as on arrival
            mark = len(carol.said)
            for _ in range(300):  # Ann plays on: Carol, watching again, hears it
                if any(s.startswith(("Ann plays", "Easy plays", "Easy cuts")) for s in carol.said[mark:]):
                    break
                await ann.move()
                await asyncio.sleep(0.02)
            assert carol.session.moment in ("watching", "review"), carol.said[-5:]
            assert any(s.startswith(("Ann plays", "Easy plays", "Easy cuts")) for s in carol.said[mark:]), \
                carol.said[mark:]

    try:
        asyncio.run(script())
    finally:
        servers[-1].stop()


def test_a_watchers_game_goes_on_by_itself_past_the_show(server: Running, tmp_path: Path) -> None:
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=2, target=61, levels=("easy",)))
    carol = Player("Carol", tmp_path / "carol")
    found: dict[str, object] = {}

    async def script() -> None:
        async with running(ann, carol):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.press("left")
            await ann.choose("Create the table")
            await ann.choose("Start the game")
            await until(lambda: ann.session.moment == "discard", "Ann's first question")
            await sign_in(carol, server.port)
            await carol.choose("Table 1, Ann's")
            await carol.hears(lambda s: s.startswith("You are watching table 1."))
            found["tab"] = " ".join(await carol.press("tab"))
            pages = await carol.press("?")
            for _ in range(12):
                pages += await carol.press(".")
            found["every key"] = " ".join(pages)
            found["chat prompt"] = (await carol.press("/"))[-1]
            await carol.type("nice pair")
            await carol.hears("Nobody else is watching, so nobody heard that.")
            for _ in range(400):  # Ann plays the deal through its show and on; Carol presses nothing
                if any(s.startswith("Deal two") for s in carol.said):
                    break
                if ann.session.moment == "review":
                    found["t at the show"] = (await carol.press("t"))[-1]
                await ann.move()
                await asyncio.sleep(0.02)
            await carol.press("escape")
            await carol.choose("Stop watching")
            await ann.hears("Carol stopped watching.")
            await carol.choose("Table 1, Ann's")
            await ann.hears("Carol is watching again.")

    asyncio.run(script())
    assert any(s.startswith("Deal two") for s in carol.said), carol.said[-5:]
    assert not any(s.startswith(("Press Enter", "Yours")) for s in carol.said), carol.said
    assert not str(found.get("t at the show", "")).startswith("Yours")
    tab = str(found["tab"])
    for words in ("w: Who is at the table, and who is watching.", "slash: Chat", "Escape: The game menu: resume,"
                  " settings, stop watching."):
        assert words in tab, tab
    every = str(found["every key"])
    assert "Escape: The game menu: resume, settings, stop watching." in every, every
    for words in ("h: Your hand.", "Advice:", "The previous card in your hand", "leave the table for now",
                  "everyone at the table"):
        assert words not in every, (words, every)
    assert found["chat prompt"] == ("Your message goes to the other watchers only. Type it, then press Enter to"
                                    " send it; Escape cancels.")


def test_a_full_table_not_yet_begun_says_there_is_nothing_to_watch_yet(server: Running, tmp_path: Path) -> None:
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=2, target=61))
    bob = Player("Bob", tmp_path / "bob")
    carol = Player("Carol", tmp_path / "carol")

    async def script() -> None:
        async with running(ann, bob, carol):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.choose("Create the table")
            await sign_in(bob, server.port)
            await bob.choose("Table 1, Ann's")
            await ann.hears(lambda s: "Bob" in s)
            await sign_in(carol, server.port)
            await carol.press("down")  # the lobby as it is now, Bob seated
            await carol.choose("Table 1, Ann's")
            await carol.hears("Table 1 has not begun; there is nothing to watch yet.")

    asyncio.run(script())
