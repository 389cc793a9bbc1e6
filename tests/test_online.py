"""The terminal shell as an online client, for real: ``audiocrib serve`` on a free loopback port, and shells (the
real prompt_toolkit application on pipe input) that connect to it, meet in the lobby, sit at a table with a
computer player and play a whole match by keys, each hearing the game from their own seat."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import math
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from audiocrib.client.remote import RemoteTable
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.online.lookback import LookBack, PastView
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.shell.servers import SERVERS_FILE
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.telling.narrator import Narrator
from tests.online_driver import Player, play_together, running, until
from tests.test_serve import Running, serving


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    """A server of the test's own, its data in ``tmp_path / "data"``."""
    yield from serving(tmp_path / "data")


async def sign_in(player: Player, port: int) -> None:
    """From the main menu: Play online, the address and the name typed, connected, in the lobby."""
    await player.choose("Play online")
    await player.hears(lambda s: s.startswith("Type the server's address"))
    await player.type(f"127.0.0.1:{port}")
    await player.hears(lambda s: s.startswith("Type the name"))
    await player.type(player.name)
    await player.hears(lambda s: s.startswith("Lobby: "))


def heard_in_order(heard: list[str], expected: list[str]) -> list[str]:
    """The expected lines not found in ``heard`` in their order (empty when each was heard, in order)."""
    missing, at = [], 0
    for line in expected:
        try:
            at = heard.index(line, at) + 1
        except ValueError:
            missing.append(line)
    return missing


def looked_back_light(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Each look back at a pause, checked: the view put together from the server's light answer and the client's
    own log (True) is the one the server's whole answer holds."""
    checked: list[bool] = []
    light = RemoteTable.view_after

    def both(table: RemoteTable, told: int, early: frozenset[int]) -> PlayerView:
        view = light(table, told, early)
        answers = table.client.link.request(LookBack(told, tuple(sorted(i for i in early if i >= told))))
        assert not isinstance(answers, str) and table.client.welcome is not None and table.client.welcome.light
        checked.append(next(a.view for a in answers if isinstance(a, PastView) and a.whole) == view)
        return view

    monkeypatch.setattr(RemoteTable, "view_after", both)
    return checked


def test_two_people_and_a_computer_player_play_a_match_online(server: Running, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    looked = looked_back_light(monkeypatch)
    setup = TableSetup(players=3, target=61, levels=("easy", "easy"))
    ann = Player("Ann", tmp_path / "ann", setup=setup)
    bob = Player("Bob", tmp_path / "bob")

    async def script() -> None:
        async with running(ann, bob):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.choose("Create the table")
            await ann.hears("At table 1: you, the host; an open seat; and Easy, a computer player. "
                            "The game has not begun.")
            await sign_in(bob, server.port)
            await bob.choose("Table 1, Ann's: six-card cribbage, three players, to 61; one seat open")
            await bob.hears("At table 1: Ann, the host; you, Bob; and Easy, a computer player. "
                            "The game has not begun.")
            await ann.hears("Bob sits down at the table.")
            assert await bob.press("w") == [bob.said[-1]]
            assert bob.said[-1].startswith("At table 1: Ann, the host; you, Bob")
            await ann.press("/")
            await ann.type("Good luck, <b>Bob</b>!")
            await bob.hears("Ann says: Good luck, <b>Bob</b>!")
            await ann.hears("You say: Good luck, <b>Bob</b>!")
            await ann.choose("Start the game")
            await ann.hears("The game begins.")
            await bob.hears("The game begins.")
            await until(lambda: bob.session.moment == "discard", "Bob's first question")
            who = await bob.press("w")
            assert who == ["At table 1: Ann, the host; you, Bob; and Easy, a computer player."], who
            await play_together([ann, bob])
            await ann.hears("Press Enter for the lobby.")
            await bob.hears("Press Enter for the lobby.")
            await ann.press("enter")
            said = await ann.hears(lambda s: s.startswith("Lobby: ") or s.startswith("You left"))
            assert said.startswith("Lobby: "), ann.said[-4:]

    asyncio.run(script())
    assert len(looked) >= 4 and all(looked), looked  # both looked back at every show, light, and saw it whole
    with Store(tmp_path / "data" / STORE_FILE) as store:
        game = store.game(1)
    assert game.over
    names = game.view(0).names
    assert names == ("Ann", "Bob", "Easy")
    for seat, player in ((0, ann), (1, bob)):
        narrator = Narrator(names, game.rules, seat)
        expected = [line for event in game.view(seat).events for line in narrator.tell(event)]
        assert heard_in_order(player.said, expected) == []
        # the match's end, then how the rating moved, then what the keys do now: the last words are Enter's
        end = max(i for i, line in enumerate(player.said) if line == expected[-1])
        rating = next(i for i, line in enumerate(player.said) if line.startswith("Your rating went"))
        assert end < rating and player.said[rating + 1:rating + 3] == [
            "Press g to hear the coach go over the match.", "Press Enter for the lobby."], player.said[end:]
        assert any(line.startswith("Easy plays") for line in player.said)
    assert any(line.startswith("Bob plays") for line in ann.said)
    assert any(line.startswith("Ann plays") for line in bob.said)
    book = json.loads((tmp_path / "ann" / SERVERS_FILE).read_text())
    assert book["name"] == "Ann" and book["address"] == f"127.0.0.1:{server.port}"
    assert book["servers"][0]["name"] == "Ann" and len(book["servers"][0]["token"]) >= 16
    assert game.rules == Rules(players=3, target=61)


def test_a_server_killed_mid_game_is_reconnected_to_and_the_game_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "server"
    first = Running(folder)
    port = first.port
    setup = TableSetup(players=2, target=61, levels=("easy",))
    ann = Player("Ann", tmp_path / "ann", setup=setup)
    servers = [first]

    async def script() -> None:
        async with running(ann):
            await sign_in(ann, port)
            await ann.choose("Create a table")
            await ann.press("left")  # one seat for a person: the other is the computer player's
            await ann.choose("Create the table")
            await ann.choose("Start the game")
            await ann.hears("The game begins.")
            for _ in range(3):
                await until(lambda: ann.session.moment in ("discard", "play", "count"), "Ann's turn", 60)
                await ann.move()
                servers[-1].stop(signal.SIGKILL)
                await ann.hears(lambda s: s.startswith("The connection to the server was lost"))
                servers.append(Running(folder, "--port", str(port)))
                back = await ann.hears("Connected again.")
                at = ann.said.index(back, len(ann.said) - 40)
                await until(lambda at=at: len(ann.said) > at + 1, "where the game stands")
                assert ann.said[at + 1].startswith("You have "), ann.said[at:]
            await play_together([ann])

    try:
        asyncio.run(script())
    finally:
        servers[-1].stop()
    assert sum(line.startswith("The connection to the server was lost") for line in ann.said) == 3
    with Store(folder / STORE_FILE) as store:
        game = store.game(1)
    assert game.over
    narrator = Narrator(game.view(0).names, game.rules, 0)
    expected = [line for event in game.view(0).events for line in narrator.tell(event)]
    assert heard_in_order(ann.said, expected) == []


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_a_server_restarted_while_the_player_is_in_the_lobby_is_connected_to_again_and_said_so(
        tmp_path: Path, how: signal.Signals) -> None:
    """In the lobby (no table), a restart of the server is heard as lost and then as "Connected again.", and the
    lobby works again; the same in a text box over the lobby, and in a table's waiting room."""
    folder = tmp_path / "server"
    servers = [Running(folder)]
    port = servers[0].port
    ann = Player("Ann", tmp_path / "ann")

    async def script() -> None:
        async with running(ann):
            await sign_in(ann, port)
            for typing in (False, True):
                if typing:  # the line typed over the lobby is still being typed when it comes back
                    await ann.choose("Join a table by its code")
                    await ann.hears("Type the table's code, then press Enter.")
                ann.mark = len(ann.said)
                servers[-1].stop(how)
                await ann.hears(lambda s: s.startswith("The connection to the server was lost"))
                servers.append(Running(folder, "--port", str(port)))
                await ann.hears("Connected again.")
                assert ann.session.mode.value == ("typing" if typing else "lobby")
            await ann.press("escape")
            await ann.hears(lambda s: s.startswith("Join a table by its code"))
            await ann.choose("Refresh the list")
            await ann.hears("Lobby, again: no tables open.")
            await ann.choose("Create a table")  # two seats for people: it waits for Bob
            await ann.choose("Create the table")
            await ann.hears(lambda s: s.startswith("At table 1: you, the host; and an open seat."))
            ann.mark = len(ann.said)
            servers[-1].stop(how)
            await ann.hears(lambda s: s.startswith("The connection to the server was lost"))
            servers.append(Running(folder, "--port", str(port)))
            await ann.hears("Connected again.")
            assert ann.session.mode.value == "waiting room"
            assert (await ann.press("w"))[-1].startswith("At table 1: you, the host; and an open seat.")

    try:
        asyncio.run(script())
    finally:
        servers[-1].stop()
    assert sum(line.startswith("The connection to the server was lost") for line in ann.said) == 3
    assert ann.said.count("Connected again.") == 3


def test_a_private_table_by_its_code_a_seat_given_away_and_taken_back(server: Running, tmp_path: Path) -> None:
    setup = TableSetup(players=2, target=61, levels=("easy",))
    ann = Player("Ann", tmp_path / "ann", setup=setup)
    bob = Player("Bob", tmp_path / "bob")
    again = Player("Bob", tmp_path / "bob")  # Bob's audiocrib started again, on the same data folder

    async def script() -> None:
        async with running(ann, bob):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            assert ann.said[-1] == "New table: Seats for people: 2 of 2, no computer players. 1 of 6."
            assert await ann.press("down") == ["Listed in the lobby: yes. 2 of 6."]
            assert await ann.press("right") == ["Listed in the lobby: no, joined by its code."]
            await ann.choose("Create the table")
            state = ann.session.client.state if ann.session.client else None
            assert state is not None and state.code is not None
            spoken_code = " ".join(state.code)
            await ann.hears(f"At table 1: you, the host; and an open seat. The game has not begun. "
                            f"The code is {spoken_code}.")
            await sign_in(bob, server.port)
            assert not any(line.startswith("Table 1") for line in bob.said)  # private: not listed
            await bob.choose("Join a table by its code")
            await bob.hears("Type the table's code, then press Enter.")
            await bob.press("X", "backspace")
            assert bob.said[-1] == "X deleted."
            await bob.press(*state.code.lower())
            assert await bob.press("up") == [f"Table code: {spoken_code}."]  # spelt, not read as a word
            await bob.press("enter")
            await bob.hears(lambda s: s.startswith("At table 1: Ann, the host; and you, Bob."))
            await ann.choose("Start the game")
            await bob.hears("The game begins.")
            # Bob leaves for now; the host gives his seat to a computer player, which plays it.
            await until(lambda: bob.session.moment in ("discard", "waiting"), "Bob at the table")
            await bob.press("escape")
            await bob.choose("Leave the table for now")
            await bob.hears("You left the table; your seat is kept for you. Choose Play online to go back to it.")
            await ann.hears("Bob has left the table for now; the table waits.")
            await ann.press("escape")
            await ann.choose("Give Bob's seat to a computer player")
            await ann.hears("A medium computer player plays for Bob until Bob is back.")
            for _ in range(3):  # Ann plays on against the computer player keeping Bob's seat
                await until(lambda: ann.session.moment in ("discard", "play", "review"), "Ann's turn", 30)
                await ann.move()
            await bob.stop()
            async with running(again):  # Bob starts audiocrib again: Play online goes straight back to the table
                await again.choose("Play online")
                await again.hears("Back at table 1.")
                await ann.hears("Bob is back.")
                await again.press("escape")
                await again.choose("Take your seat back")
                await ann.hears("Bob has the seat back.")
                await again.hears("You have your seat back.")
                await play_together([ann, again])

    asyncio.run(script())
    assert not any("Type the server's address" in line for line in again.said)  # remembered
    with Store(tmp_path / "data" / STORE_FILE) as store:
        game = store.game(1)
    assert game.over


def test_typing_and_connecting_say_each_step_and_refusals_ask_again(tmp_path: Path) -> None:
    password = tmp_path / "password.txt"
    password.write_text("open sesame\n")
    server = Running(tmp_path / "server", "--password-file", str(password))
    taken = Player("Ann", tmp_path / "first")
    ann = Player("Ann", tmp_path / "ann")

    async def script() -> None:
        async with running(ann, taken):
            await ann.choose("Play online")
            await ann.type("not a server!")
            await ann.hears("A server address is a name or a number such as localhost or 192.168.1.20, with a "
                            "colon and the port if it is not 4121.")
            await ann.hears(lambda s: s.startswith("Type the server's address"))
            assert await ann.press("f1") == [
                "You are typing: Server address. Type it, Enter takes it, Escape goes back.",
                "Backspace: Delete the character before the cursor.",
                "up arrow or down arrow: Read back everything you typed.",
                "left arrow: Move back one character and say it.",
                "right arrow: Say the next character and move past it.",
                "Home: To the start of the line.", "End: To the end of the line."]
            assert await ann.press("enter") == [
                "Server address: nothing typed yet. Type it, or press Escape to go back."]
            await ann.type("127.0.0.1:1")  # nothing listens on port 1
            await ann.type("Ann")
            await ann.hears(lambda s: s.startswith("Could not connect to 127.0.0.1, port 1 (nothing answers at"
                                                   " that address). Trying again; Escape stops."))
            await ann.press("escape")
            await ann.hears("Main menu: New game. 1 of 8.")
            # The first Ann takes the name; the second is asked for the password, then for another name.
            for player in (taken, ann):
                if player is ann:
                    await ann.choose("Play online")
                    await ann.hears(lambda s: s.startswith("Type the server's address"))
                    assert await ann.press("up") == ["Server address: nothing typed yet."]  # none answered
                    await ann.type(f"127.0.0.1:{server.port}")
                    await ann.hears(lambda s: s.startswith("Type the name"))
                    await ann.type("Ann")
                else:
                    await sign_in_to_password(taken, server.port)
                await player.hears("This server has a password; ask whoever runs it.")
                await player.hears("Type the server's password, then Enter.")
                await player.press("o", "p")
                assert player.said[-2:] == ["star", "star"]
                await player.press(*"en sesame")
                assert await player.press("up") == ["Password: star star star star star star star star star "
                                                    "star star."]
                await player.press("enter")
            await taken.hears(lambda s: s.startswith("Lobby: "))
            await ann.hears(lambda s: "name" in s and "taken" in s)
            await ann.hears(lambda s: s.startswith("Type the name the others will hear"))
            await ann.press(*["backspace"] * 3)
            await ann.type("Ann B")
            await ann.hears(lambda s: s.startswith("Lobby: "))

    try:
        asyncio.run(script())
    finally:
        server.stop()


async def sign_in_to_password(player: Player, port: int) -> None:
    await player.choose("Play online")
    await player.type(f"127.0.0.1:{port}")
    await player.type(player.name)


def test_the_servers_counting_clock_is_the_one_the_player_hears(server: Running, tmp_path: Path) -> None:
    setup = TableSetup(players=2, target=61, levels=("easy",), manual_counting=True, count_timer=15)
    ann = Player("Ann", tmp_path / "ann", setup=setup)

    async def script() -> None:
        async with running(ann):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.press("left")  # one seat for a person
            await ann.choose("Create the table")
            await ann.choose("Start the game")
            await ann.hears("The game begins.")
            waited_on, seen = time.monotonic(), -1
            while ann.session.moment != "count":
                events = len(ann.session.view().events)
                if ann.session.moment in ("discard", "play") and events != seen:
                    # news of a move the server waits on Ann for: her count's clock has not begun
                    waited_on, seen = time.monotonic(), events
                await ann.move()
                await asyncio.sleep(0.01)
            assert ann.session.count_clock.elsewhere  # the server's clock, not one of the shell's own
            turn = (await ann.press("t"))[-1]
            least = round(15 - (time.monotonic() - waited_on))  # however slowly the news came and the key went
            assert turn.endswith("seconds left to count."), turn
            assert turn.split(" ")[-5].lower() in {number_words(n) for n in range(max(0, least), 16)}, (turn, least)
            await ann.hears("Ten seconds left to count.")
            await ann.hears("Five seconds left to count.")
            await ann.hears(lambda s: s.startswith("Your time is up."), timeout=10)
            await until(lambda: ann.session.moment != "count", "the count timed out")
            while not (ann.session.moment == "count" and ann.session.count_clock.running):
                await ann.move()  # on to the next count of Ann's
                await asyncio.sleep(0.01)
            ann.session.finished = True  # quitting with the crib's clock running: the table is let go
            ann.session.tick()  # and the tick that ends the application asks nothing of it

    asyncio.run(script())


def test_chat_is_said_with_its_sender_or_with_the_setting_off_only_kept_in_the_history() -> None:
    import io

    from audiocrib.client.remote import OnlineClient, Said
    from audiocrib.shell.announcer import Announcer
    from audiocrib.shell.session import Session
    from audiocrib.shell.settings import Settings
    from audiocrib.speech import RecordingSpeaker
    from tests.shell_driver import RecordingPlayer

    speaker, player = RecordingSpeaker(), RecordingPlayer()
    session = Session(Announcer(speaker, io.StringIO()), settings=Settings(), player=player)
    session.client = OnlineClient("ws://127.0.0.1:9/play", "Ann")  # never started: its inbox is filled by hand
    session.client.inbox.append(Said("chat", "<script>alert(1)</script> gg", "Bob"))
    session.tick()
    assert speaker.said[-1] == "Bob says: <script>alert(1)</script> gg" and player.played[-1] == "chat"
    session.settings.step("chat", 1)  # Chat messages from other players: off
    assert session.settings.value_text("chat") == "off"
    session.client.inbox.append(Said("chat", "well played", "Bob"))
    heard = len(speaker.said)
    session.tick()
    assert len(speaker.said) == heard
    assert session.announcer.history.messages[-2:] == ("Bob says: <script>alert(1)</script> gg",
                                                        "Bob says: well played")
    session.press(">")  # the history's newest message, said on request
    assert speaker.said[-1] == "Bob says: well played"


def test_t_says_the_time_left_for_a_move_at_a_table_with_a_move_time_limit(server: Running, tmp_path: Path) -> None:
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=2, target=61, levels=("easy",)))

    async def script() -> None:
        async with running(ann):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.press("left")  # one seat for a person
            assert await ann.press("down", "down", "right") == ["Listed in the lobby: yes. 2 of 6.",
                                                                 "Time for each move: no limit. 3 of 6.",
                                                                 "Time for each move: 30 seconds."]
            await ann.choose("Create the table")
            asked = time.monotonic()  # the server starts her clock once it has the start, after this
            await ann.choose("Start the game")
            await ann.hears("The game begins.")
            await until(lambda: ann.session.moment == "discard", "Ann to lay away")
            turn = (await ann.press("t"))[-1]
            least = math.ceil(30 - (time.monotonic() - asked))  # however slowly the game began and the key went
            assert turn.startswith("You must lay away two cards"), turn
            assert turn.endswith(tuple(f" {number_words(n).capitalize()} seconds left for your move."
                                       for n in range(max(0, least), 31))), (turn, least)
            await ann.press("?")  # every key: the keys at the table always are the second page, t among them
            always = (await ann.press("."))[-1]
            t_words = "t: Whose turn it is, and at a table with a time limit for each move the time left for it."
            assert always.startswith("At the table, always: ") and t_words in always, always

    asyncio.run(script())


def test_start_the_game_at_the_end_of_a_new_tables_setup_starts_it_at_the_server(server: Running,
                                                                                  tmp_path: Path) -> None:
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=2, target=61, levels=("easy",)))

    async def script() -> None:
        async with running(ann):
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.press("left")  # one seat for a person, the other a computer player's
            await ann.choose("Table setup")
            await ann.hears(lambda s: s.startswith("Table setup: "))
            await ann.choose("Start the game")
            await ann.hears("The game begins.")
            await until(lambda: ann.session.moment == "discard", "Ann to lay away")
            assert ann.session.client is not None and ann.session.client.state is not None
            assert ann.session.client.state.started
            assert not any(line.startswith("New game: ") for line in ann.said), "no game on Ann's own computer"

    asyncio.run(script())


@pytest.mark.parametrize("apart", [False, True])
def test_news_and_the_notice_after_it_taken_in_one_tick_are_said_in_their_order(apart: bool) -> None:
    """A browser's session takes what its connection brought in one go: the match's last news, its view, then the
    rating's notice. The game is told first, then the rating, then what the keys do now (nothing waits for a
    notice already come). ``apart``: the notice comes later, the player having opened the game menu meanwhile:
    the closing words still follow it."""
    import io

    from audiocrib.bots.player import load_player, next_action
    from audiocrib.client.remote import OnlineClient
    from audiocrib.engine.events import MatchWon
    from audiocrib.engine.game import Game
    from audiocrib.online import messages as m
    from audiocrib.shell.announcer import Announcer
    from audiocrib.shell.session import Session
    from audiocrib.shell.settings import Settings
    from audiocrib.speech import RecordingSpeaker

    game = Game(Rules(target=61), ("Ann", "Bea"), seed=11)
    players = [load_player("easy", seed=seat) for seat in (0, 1)]
    before = game
    while not game.over:  # the last move is Ann's or the show's: Bea hears its news as the others' doing
        before = game.at(len(game.events))
        game.apply(next_action(game, min(game.waiting_for()), players[min(game.waiting_for())]))
    speaker = RecordingSpeaker()
    session = Session(Announcer(speaker, io.StringIO()), settings=Settings())
    client = session.client = OnlineClient("ws://127.0.0.1:9/play", "Bea")  # never started: fed by hand
    seats = (m.Seat("Ann", None, True), m.Seat("Bea", None, True))
    client._deliver(m.TableState(1, None, 0, 1, game.rules, seats, True, None))
    client._deliver(m.ViewOf(before.view(1)))
    session._maybe_begin()  # back at a game under way
    session.tick()
    told = len(speaker.said)
    first = len(before.events)
    client._deliver(m.News(first, game.view(1).events[first:]))
    client._deliver(m.ViewOf(dataclasses.replace(game.view(1), events=()), whole=False))
    if apart:
        session.tick()
        session.press("escape")
    client._deliver(m.Notice("Your rating went up from 1,000 to 1,032."))
    session.tick()
    said = speaker.said[told:]
    narrator = Narrator(game.names, game.rules, 1)
    last = narrator.tell(next(e for e in game.view(1).events if isinstance(e, MatchWon)))[-1]
    assert last in said and said[-3:] == [
        "Your rating went up from 1,000 to 1,032.", "Press g to hear the coach go over the match.",
        "Press Enter for the lobby."], said
