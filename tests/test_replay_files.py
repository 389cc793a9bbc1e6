"""The files of hearing a match again: the folder of past matches read back as hostile (each damaged file set
aside with one sentence, never a crash), only the newest kept, a write that fails said once; and the transcript,
plain ASCII, every hand shown, never written over another file or through a link."""

from __future__ import annotations

import io
import json
import os
import re
from pathlib import Path

import pytest

from audiocrib.bots.player import drive, load_player
from audiocrib.engine.events import Dealt, Discarded
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.shell import pastmatches
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.keys import Mode
from audiocrib.shell.offline import OfflineTable
from audiocrib.shell.pastmatches import FOLDER, PastMatchFolder
from audiocrib.shell.savedgame import SavedTable
from audiocrib.shell.session import Session
from audiocrib.speech import RecordingSpeaker
from audiocrib.telling.narrator import Verbosity
from audiocrib.telling.replaying import told

ENDED = 1795795200.0


def finished(seed: int = 5, names: tuple[str, ...] = ("You", "Bob")) -> Game:
    game = Game(Rules(target=61), names, seed=seed)
    drive(game, [load_player("medium", seed=seed), load_player("medium", seed=seed + 1)])
    return game


def session_on(folder: Path) -> tuple[Session, RecordingSpeaker]:
    speaker = RecordingSpeaker()
    session = Session(Announcer(speaker, io.StringIO()), save_path=folder / "saved-game.json")
    session.wall_clock = lambda: ENDED + 60  # type: ignore[method-assign]  # "Today at", whatever today is
    session.start()
    return session, speaker


def press(session: Session, speaker: RecordingSpeaker, *keys: str) -> list[str]:
    before = len(speaker.said)
    for key in keys:
        session.press(key)
    return speaker.said[before:]


def test_damaged_past_matches_are_set_aside_with_one_sentence_each(tmp_path: Path) -> None:
    folder = PastMatchFolder(tmp_path / FOLDER)
    good = folder.keep(finished(), ("", "medium"), ENDED, "good").name
    text = (tmp_path / FOLDER / good).read_text()
    data = json.loads(text)
    edited = json.loads(text)
    events = edited["game"]["events"]
    dealt = next(e for e in events if e.get("kind") == "dealt" or e.get("type") == "dealt")
    dealt["hands"][0], dealt["hands"][1] = dealt["hands"][1], dealt["hands"][0]  # a hand swapped: not this game
    unfinished = {**data, "game": json.loads(Game(Rules(), ("You", "Bob"), seed=3).dumps())}
    hostile = {
        "20260101-000000-00000000000000a1.json": b"\x00garbage",
        "20260101-000000-00000000000000a2.json": text[: len(text) // 2].encode(),
        "20260101-000000-00000000000000a3.json": json.dumps(edited).encode(),
        "20260101-000000-00000000000000a4.json": json.dumps(unfinished).encode(),
        "20260101-000000-00000000000000a5.json": json.dumps({**data, "levels": ["", "grandmaster"]}).encode(),
        "20260101-000000-00000000000000a6.json": json.dumps({**data, "ended": 1e300}).encode(),
        "20260101-000000-00000000000000a7.json": b" " * (SavedTable.MAX_BYTES + 1),
    }
    for name, raw in hostile.items():
        (tmp_path / FOLDER / name).write_bytes(raw)
    (tmp_path / FOLDER / "20260101-000000-00000000000000a8.json").mkdir()
    os.symlink("/dev/zero", tmp_path / FOLDER / "20260101-000000-00000000000000a9.json")
    (tmp_path / FOLDER / "notes.json").write_text("not a past match's name: never read")
    session, speaker = session_on(tmp_path)
    said = press(session, speaker, "down", "down", "down", "down", "enter")
    assert said[-2] == "Past matches. 5 of 9."
    assert said[-1].startswith("Past matches, ten, newest first. Today at ")  # the newest: the good one
    said = press(session, speaker, "down")
    notices = said[:-1]
    assert len(notices) == 9 and all(n.startswith("Your past match file ") for n in notices)
    assert all(re.fullmatch(r"Your past match file [a-z ',]+, so it is left out of the list; the file is kept "
                            r"aside as [0-9a-f-]+\.json\.damaged\.", n) for n in notices), notices
    assert said[-1].startswith("Today at ") and said[-1].endswith(" 1 of 1.")
    assert sorted(p.name for p in (tmp_path / FOLDER).iterdir()) == sorted(
        [good, "notes.json", *(f"{name}.damaged" for name in (*hostile, "20260101-000000-00000000000000a8.json",
                                                                "20260101-000000-00000000000000a9.json"))])
    assert press(session, speaker, "enter")[0].startswith("Hearing the match again: you against Bob (medium)")


def test_only_the_newest_past_matches_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pastmatches, "KEEP", 3)
    folder = PastMatchFolder(tmp_path)
    game = finished()
    names = [folder.keep(game, ("", "medium"), ENDED + 60 * n, f"table {n}").name for n in range(5)]
    assert folder.names() == names[:-4:-1]


def test_a_match_ended_here_is_kept_once_and_a_failing_write_is_said(tmp_path: Path) -> None:
    session, speaker = session_on(tmp_path)
    game = finished()
    session.table = OfflineTable(SavedTable(game, ("medium",), 0, frozenset(), -1, "the table", ()),
                                 session.save_path)
    session._autosave()
    session._autosave()
    assert len(PastMatchFolder(tmp_path / FOLDER).names()) == 1
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / FOLDER).write_text("a file where the folder goes")
    session, speaker = session_on(tmp_path / "other")
    session.table = OfflineTable(SavedTable(game, ("medium",), 0, frozenset(), -1, "the table", ()),
                                 session.save_path)
    session._autosave()
    session._autosave()
    failed = [line for line in speaker.said if line.startswith("Your past matches cannot be saved")]
    assert len(failed) == 1 and failed[0].endswith("; audiocrib goes on without it.")


def test_the_transcript_is_plain_ascii_with_every_hand_and_never_written_through_a_link(tmp_path: Path) -> None:
    game = finished(names=("You", "Jos\u00e9"))
    PastMatchFolder(tmp_path / FOLDER).keep(game, ("", "medium"), ENDED, "t")
    session, speaker = session_on(tmp_path)
    session.transcript_folder = tmp_path / "documents"
    press(session, speaker, "down", "down", "down", "down", "enter")
    assert press(session, speaker, "tab") == [
        "You are in the list of past matches, newest first; Enter hears the one you are on again.",
        "up arrow: The newer match.", "down arrow: The older match.", "Home: The newest match.",
        "End: The oldest match.", "Enter or space: Hear this match again.", "Escape: Back to the main menu."]
    press(session, speaker, "enter")
    assert session.mode is Mode.REPLAY
    said = press(session, speaker, "p")
    assert len(said) == 1
    match = re.fullmatch(r"The match is written out as (audiocrib-\d{4}-\d\d-\d\d-\d{4}-You-Jos\.txt), in (.+)\.",
                         said[0])
    assert match is not None and Path(match[2]) == tmp_path / "documents"
    raw = (tmp_path / "documents" / match[1]).read_bytes()
    assert raw.isascii() and b"\r" not in raw
    text = raw.decode()
    assert text.startswith("audiocrib: six-card cribbage, 2 players, to 61.\nOn ")
    assert "you against Jose (medium)" in text
    assert text.splitlines()[2] == 'Heard by the player at this computer, who is "you" below.'
    replay = session.replaying
    assert replay is not None
    lines = text.splitlines()
    spoken = [line.replace("\u00e9", "e") for told_lines in told(replay, Verbosity.NORMAL).lines
              for line in told_lines]
    it = iter(lines)
    assert all(any(line == written for written in it) for line in spoken)  # every line told, in order
    for start in replay.deal_starts():
        dealt = game.events[start]
        assert isinstance(dealt, Dealt)
        for seat, hand in enumerate(dealt.hands):
            who = "You" if seat == 0 else "Jose"
            cards = [f"the {c.name}" for c in sorted(hand)]
            assert f"{who} held {', '.join(cards[:-1])} and {cards[-1]}" in text
        laid = [e for e in game.events[start:] if isinstance(e, Discarded)][:2]
        assert all(f"laid away the {sorted(e.cards)[0].name} and the {sorted(e.cards)[1].name}." in text
                   for e in laid)
    secret = tmp_path / "secret.txt"
    secret.write_text("mine")
    os.symlink(secret, tmp_path / "documents" / match[1].replace(".txt", "-2.txt"))
    again = press(session, speaker, "p")[0]
    assert again.endswith(match[1].replace(".txt", "-3.txt") + f", in {tmp_path / 'documents'}.")
    assert secret.read_text() == "mine"
    assert (tmp_path / "documents" / match[1].replace(".txt", "-3.txt")).read_bytes() == raw
