"""End to end online: a real ``audiocrib serve``, and two people each running the installed ``audiocrib online`` in a
real terminal (tmux) that speaks through a Speech Dispatcher of their own, at a table with a computer player,
playing a whole match by keys. Each person's daemon records what that person heard: the game from their own seat,
the other person's moves and chat, and nothing of the other's hand.

The keys are chosen as a steady player would, from the game as the server's store holds it (read beside the
running server: SQLite in WAL mode lets a reader in), and pressed only into the terminal of the person whose move
it is; a pause after a show is gone on from when that person has heard it.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from audiocrib.engine.game import Phase
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.shell.settings import Settings, SettingsFile
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.telling.narrator import Narrator
from tests.speechd import SpeechDispatcher
from tests.test_online import heard_in_order
from tests.test_serve import Running
from tests.test_terminal import PROGRAM, Terminal, require_tools


def person(name: str, folder: Path, daemon: SpeechDispatcher, port: int, setup: TableSetup) -> Terminal:
    """``name``'s terminal running ``audiocrib online`` with their own data folder and speech."""
    folder.mkdir(parents=True)
    SettingsFile(folder / "settings.json").save(Settings(typed_ahead=0.0), setup)
    env = {**daemon.env(), "TERM": "xterm-256color", "HOME": str(folder), "PATH": os.environ.get("PATH", "")}
    command = [str(PROGRAM), "online", f"127.0.0.1:{port}", "--speech", "screenreader", "--no-sound",
               "--data-dir", str(folder)]
    return Terminal(f"audiocrib-online-{name}-{os.getpid()}", command, env, folder / "raw.bin")


def heard(daemon: SpeechDispatcher, text: str, timeout: float = 15.0) -> list[str]:
    """Wait until ``daemon`` has spoken a line starting with ``text``."""
    return daemon.wait_for(lambda lines: any(line.startswith(text) for line in lines), timeout=timeout)


def keys_for(game: object, seat: int) -> tuple[str, ...]:
    """The keys of a steady player at ``seat`` now, if the game waits on them: the first cards laid away, the
    lowest card that can be played (by its place in the sorted hand)."""
    from audiocrib.engine.game import Game

    assert isinstance(game, Game)
    if seat not in game.waiting_for():
        return ()
    view = game.view(seat)
    hand = sorted(view.hand)
    if view.phase is Phase.DISCARD:
        return (*(str(i) for i in range(1, view.must_discard + 1)), "Enter")
    if view.phase is Phase.PLAY and view.playable:
        return (str(hand.index(sorted(view.playable)[0]) + 1), "Enter")
    return ()


def test_two_people_and_a_computer_player_play_online_in_real_terminals(tmp_path: Path) -> None:
    require_tools()
    server = Running(tmp_path / "server")
    setup = TableSetup(players=3, target=61, levels=("easy", "easy"))
    with SpeechDispatcher() as ann_speech, SpeechDispatcher() as bob_speech:
        ann = person("ann", tmp_path / "ann", ann_speech, server.port, setup)
        bob = person("bob", tmp_path / "bob", bob_speech, server.port, setup)
        try:
            for terminal, daemon, name in ((ann, ann_speech, "Ann"), (bob, bob_speech, "Bob")):
                heard(daemon, "Type the name the others will hear")
                terminal.keys(name, "Enter")
                heard(daemon, "Lobby: ")
            ann.keys("Enter")  # Create a table
            heard(ann_speech, "New table: Seats for people: 2 of 3")
            ann.keys("End", "Enter")
            heard(ann_speech, "At table 1: you, the host; an open seat; and Easy, a computer player.")
            bob.keys("Down", "Down")  # the list was read before the table was made: refresh it
            heard(bob_speech, "Refresh the list. 3 of 10.")
            bob.keys("Enter")
            heard(bob_speech, "Lobby, again: one table open.")  # and the cursor on the table
            heard(bob_speech, "Table 1, Ann's: six-card cribbage, three players, to 61; one seat open")
            bob.keys("Enter")
            heard(bob_speech, "At table 1: Ann, the host; you, Bob; and Easy, a computer player.")
            heard(ann_speech, "Bob sits down at the table.")
            bob.keys("/")
            heard(bob_speech, "Type your message")
            bob.keys("Hi Ann, <b>good luck</b>", "Enter")
            heard(ann_speech, "Bob says: Hi Ann, <b>good luck</b>")
            ann.keys("Home", "Enter")  # Start the game
            heard(ann_speech, "The game begins.")
            heard(bob_speech, "The game begins.")
            play(tmp_path / "server" / STORE_FILE, ann, ann_speech, bob, bob_speech)
        finally:
            ann.close()
            bob.close()
            server.stop()
        spoken = {0: ann_speech.spoken(), 1: bob_speech.spoken()}
    with Store(tmp_path / "server" / STORE_FILE) as store:
        game = store.game(1)
    assert game.over
    names = game.view(0).names
    for seat in (0, 1):
        narrator = Narrator(names, game.rules, seat)
        expected = [line for event in game.view(seat).events for line in narrator.tell(event)]
        assert heard_in_order(spoken[seat], expected) == []
        other = names[1 - seat]
        assert any(line.startswith(f"{other} plays") for line in spoken[seat])
        # the other's hands: never said to this seat before they are shown in the show
        other_hands = {line for line in Narrator(names, game.rules, 1 - seat).tell_all(game.view(1 - seat).events)
                       if line.startswith("Your hand: ")}
        assert other_hands and not other_hands & set(spoken[seat])
    assert "Bob says: Hi Ann, <b>good luck</b>" in spoken[0]


def play(store_file: Path, ann: Terminal, ann_speech: SpeechDispatcher, bob: Terminal,
         bob_speech: SpeechDispatcher, timeout: float = 240.0) -> None:
    """Press each person's keys when the game waits on them, until both have heard the match end."""
    store = Store(store_file)
    people = ((0, ann, ann_speech), (1, bob, bob_speech))
    sent: dict[int, tuple[int, float]] = {}
    end = time.monotonic() + timeout
    try:
        while not all(any("Press Enter for the lobby." in line for line in d.spoken()) for _, _, d in people):
            assert time.monotonic() < end, "the match did not end"
            game = store.game(1)
            for seat, terminal, daemon in people:
                lines = daemon.spoken()
                keys = keys_for(game, seat)
                if not keys and lines and lines[-1].startswith("Press Enter for the next"):
                    keys = ("Enter",)
                stamp = (len(game.events) * 10 + len(keys), time.monotonic())
                last = sent.get(seat)
                if keys and (last is None or last[0] != stamp[0] or stamp[1] - last[1] > 3):
                    sent[seat] = stamp
                    terminal.keys(*keys)
            time.sleep(0.2)
    finally:
        store.close()
