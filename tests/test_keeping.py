"""Never lose a game: autosave and resume, statistics, settings kept between runs, and damaged files set aside.

Everything here uses real files in a temporary folder and the real session; the in-process tests drive the real
prompt_toolkit application through `tests.shell_driver`. The SIGKILL test of the whole program is in
`tests/test_kill.py`.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from audiocrib.engine.game import Game
from audiocrib.progress.practice import PracticeRecord
from audiocrib.progress.statistics import Statistics
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.main import Folders, open_session
from audiocrib.shell.savedgame import SAVE_VERSION
from audiocrib.shell.session import Session
from audiocrib.shell.settings import Settings, SettingsFile
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.speech import RecordingSpeaker
from tests.autoplay import keys_for, read_save
from tests.shell_driver import Table, run

ROOT = Path(__file__).resolve().parent.parent
SAVE = "saved-game.json"
TABLE = TableSetup(target=61, manual_counting=True, muggins=True, levels=("medium",))
"""A table where every random source of the computer players matters: their play and their slips in counting."""


async def autoplay(table: Table, until: int | None = None, limit: int = 3000) -> None:
    """Press a steady player's keys until the game has ``until`` events (or the match is over)."""
    for _ in range(limit):
        game = getattr(table.session.table, "game", None)
        assert game is not None
        moment = table.session.moment
        if moment == "over" or (until is not None and len(game.events) >= until):
            return
        keys = keys_for(moment, game)
        assert keys, f"nothing to press at {moment}"
        await table.press(*keys)
    raise AssertionError("the game did not get there")


def reference_game(tmp: Path, setup: TableSetup = TABLE, seed: int = 11) -> Game:
    """The whole game played without a break, for comparison."""
    result: list[Game] = []

    async def script(table: Table) -> None:
        await table.press("enter")
        await autoplay(table)
        assert table.session.table is not None
        result.append(table.session.table.game)

    run(script, setup=setup, seed=seed, save_path=tmp / SAVE)
    return result[0]


def test_every_move_is_kept_at_once_and_a_restart_resumes_the_identical_game(tmp_path: Path) -> None:
    reference = reference_game(tmp_path / "reference")
    save = tmp_path / SAVE
    before: dict[str, object] = {}

    async def first(table: Table) -> None:
        await table.press("enter")
        for _ in range(400):
            game = getattr(table.session.table, "game", None)
            assert game is not None
            if len(game.events) > len(reference.events) // 2:
                break
            await table.press(*keys_for(table.session.moment, game))
            data = json.loads(save.read_text())
            assert data["game"]["events"] == game.to_json()["events"]  # kept after every move, before the next key
            assert data["moment"] == table.session.moment
        game = getattr(table.session.table, "game", None)
        assert game is not None
        before.update(key=game.state_key(), history=table.session.announcer.history.messages,
                      told=table.session.told)
        # the program is stopped here without a word: no save and quit

    run(first, setup=TABLE, seed=11, save_path=save)

    async def second(table: Table) -> None:
        assert table.said[1].startswith("An unfinished game is waiting: six-card cribbage, 2 players, to 61.")
        assert table.said[1].endswith("Press Enter to resume it.")
        assert table.said[2] == "Main menu: Resume the unfinished game. 1 of 9."
        said = await table.press("enter")
        assert said[0] == "Resuming the unfinished game."
        session = table.session
        assert session.table is not None and session.table.game.state_key() == before["key"]
        assert session.told == before["told"]
        history = session.announcer.history.messages
        assert history[: len(before["history"])] == before["history"]  # type: ignore[arg-type]
        await table.press("<")
        assert table.said[-1] == history[0] == before["history"][0]  # type: ignore[index]
        await autoplay(table)
        events = session.table.game.to_json()["events"]
        assert events == reference.to_json()["events"]  # the same cards, the same choices

    run(second, save_path=save)
    assert not save.exists()  # the match is over: nothing left to resume


def test_a_new_game_over_an_unfinished_one_asks_first_and_abandoning_lets_it_go(tmp_path: Path) -> None:
    save = tmp_path / SAVE

    async def first(table: Table) -> None:
        await table.press("enter")
        await autoplay(table, until=12)

    run(first, setup=TABLE, save_path=save)
    kept = save.read_bytes()

    async def second(table: Table) -> None:
        said = await table.press("down", "enter")
        assert said[-1] == ("A new game replaces your unfinished one. Press Enter again to start it, "
                            "or choose Resume the unfinished game.")
        assert table.session.table is None and save.read_bytes() == kept
        await table.press("up", "down", "enter")  # another key between: asks again
        assert table.session.table is None
        said = await table.press("enter")
        assert said[0].startswith("New game: ")
        assert save.read_bytes() != kept
        said = await table.press("escape", "end", "enter")
        assert said[-1].startswith("Abandoning deletes this game for good. Press Enter again")
        said = await table.press("enter")
        assert said[-1] == "The game is abandoned. Goodbye."

    run(second, setup=TABLE, save_path=save, seed=12)
    assert not save.exists()


def test_save_and_quit_says_goodbye_and_the_game_waits(tmp_path: Path) -> None:
    save = tmp_path / SAVE

    async def script(table: Table) -> None:
        await table.press("enter")
        await autoplay(table, until=12)
        said = await table.press("escape", "down", "down", "enter")
        assert said[-1] == "Game saved. Goodbye."

    table = run(script, setup=TABLE, save_path=save)
    assert table.session.finished
    data = json.loads(save.read_text())
    assert data["version"] == SAVE_VERSION and data["moment"] in ("discard", "play", "count", "review")


def test_a_finished_match_is_counted_once_in_the_statistics(tmp_path: Path) -> None:
    save = tmp_path / SAVE
    setup = TableSetup(target=61, levels=("easy",))

    async def script(table: Table) -> None:
        await table.press("enter")
        await autoplay(table)
        game = getattr(table.session.table, "game", None)
        assert game is not None
        table.session._count_games()  # looking again never counts the game twice
        table.session.stats_seen = 0
        table.session._count_games()

    table = run(script, setup=setup, save_path=save)
    stats = json.loads((tmp_path / "statistics.json").read_text())
    assert stats["total"]["games"] == 1 and stats["by_level"]["easy"]["games"] == 1
    assert stats["by_variant"]["six-card"]["games"] == 1
    game = getattr(table.session.table, "game", None)
    assert game is not None
    won = game.events[-1].side == 0  # type: ignore[attr-defined]
    assert stats["total"]["wins"] == int(won)

    async def second(table: Table) -> None:
        said = await table.press("down", "down", "down", "enter")
        said = said[said.index("No practice yet.") - 3:]  # after them, the coach's progress and review
        assert said[0].startswith("One game finished; you won " + ("one" if won else "none"))
        assert said[1] == "By the strongest opponent: easy, one game, won " + ("one." if won else "none.")
        assert said[2] == "By variant: six-card, one game, won " + ("one." if won else "none.")

    run(second, save_path=save)


@pytest.mark.parametrize("moved", [False, True], ids=["at once", "after a move"])
def test_save_and_quit_that_cannot_write_says_what_failed_and_what_to_do(moved: bool, tmp_path: Path) -> None:
    save = tmp_path / SAVE
    blocked = tmp_path / (SAVE + ".partial")

    async def script(table: Table) -> None:
        await table.press("enter")
        await autoplay(table, until=12)
        blocked.mkdir()  # the new copy cannot be made
        if moved:
            await autoplay(table, until=20)  # the autosave fails, and says so once
        said = await table.press("escape", "down", "down", "enter")
        assert said[-1] == ("Your game could not be saved (Is a directory). It is still open: free some space or "
                            "check the folder's permissions and choose Save and quit again, or choose Resume to "
                            "play on.")
        assert said[-2] == "Save and quit. 3 of 4."  # nothing more: not back to the game behind the player's back
        assert not table.session.finished and table.session.mode == "game menu"
        blocked.rmdir()
        said = await table.press("enter")  # Save and quit again
        assert said == ["Game saved. Goodbye."]

    table = run(script, setup=TABLE, save_path=save)
    assert table.session.finished
    saved = read_save(save)
    assert saved is not None and saved[0].game.events == table.session.table.game.events  # type: ignore[union-attr]


def test_abandon_that_cannot_let_the_game_go_says_it_will_come_back(tmp_path: Path) -> None:
    """A folder that may not be changed; root may change any, so as root the program runs without that power."""
    child = ("import sys; from pathlib import Path; from audiocrib.shell.main import Folders, open_session;"
             "from audiocrib.speech import SilentSpeaker;"
             "folder = Path(sys.argv[1]);"
             "s = open_session(Folders(folder, folder), speaker=SilentSpeaker(), seed=5);"
             "s.settings.typed_ahead = 0.0;"  # keys sent at once, with nothing to hear first
             "s.start(); s.press('enter'); folder.chmod(0o555); s.press('escape'); s.press('end');"
             "[s.press('enter') for _ in range(3) if not s.finished]")
    powerless = ["setpriv", "--bounding-set", "-dac_override"] if os.geteuid() == 0 else []
    try:
        done = subprocess.run([*powerless, sys.executable, "-c", child, str(tmp_path)], capture_output=True,
                              text=True, timeout=60, cwd=ROOT)
    finally:
        tmp_path.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (
        "Your game could not be let go (Permission denied): audiocrib will offer it again at the next start, "
        "where you can abandon it or start a new game over it. Goodbye.")
    again, speaker = _session(tmp_path)
    again.start()
    assert speaker.said[-1] == "Main menu: Resume the unfinished game. 1 of 9."  # as it said


# ------------------------------------------------------------------ settings
def _session(folder: Path, **options: object) -> tuple[Session, RecordingSpeaker]:
    speaker = RecordingSpeaker()
    session = open_session(Folders(folder, folder), speaker=speaker,
                           announcer_options={"screen": io.StringIO()}, **options)  # type: ignore[arg-type]
    return session, speaker


def test_settings_and_the_default_table_are_kept_and_command_line_options_last_one_run(tmp_path: Path) -> None:
    session, _ = _session(tmp_path)
    session.start()
    for key in ("down", "down", "down", "down", "enter", "down", "right", "down", "down", "down", "down",
                "right"):
        session.press(key)  # settings: verbosity full, voice rate 225
    session.press("escape")
    session.press("down")
    session.press("enter")  # table setup
    session.press("right")  # three players
    text = (tmp_path / "settings.json").read_text()
    assert '\n  "verbosity": "full",\n' in text  # a file a person can read
    data = json.loads(text)
    assert data["rate"] == 225 and data["table"]["players"] == 3

    again, _ = _session(tmp_path, overrides={"rate": 300, "pace": 0.0})
    assert again.settings.verbosity.value == "full" and again.setup.players == 3
    assert again.settings.rate == 300 and again.settings.pace == 0.0  # for this run
    again.start()
    for key in ("down", "down", "down", "down", "enter", "end", "up", "up", "up", "up", "up", "left"):
        again.press(key)  # sound volume down one (below it: at brief verbosity, typed ahead, the coach's review)
    data = json.loads((tmp_path / "settings.json").read_text())
    assert data["sound_volume"] == 70
    assert data["rate"] == 225 and data["pace"] == 1.5  # the command line's values were never kept


def test_choosing_another_speech_starts_it_at_once_and_keeps_it(tmp_path: Path) -> None:
    session, speaker = _session(tmp_path, speech="none")
    started: list[str] = []
    voice = RecordingSpeaker()

    def open_speech(mode: str) -> RecordingSpeaker:
        started.append(mode)
        return voice

    session.open_speech = open_speech
    session.start()
    for key in ("down", "down", "down", "down", "enter"):
        session.press(key)
    assert speaker.said[-1] == "Settings: Speech: none, text lines only. 1 of 15."
    session.press("left")
    assert started == ["tts"] and session.announcer.speaker is voice
    assert voice.said == ["Speech: the built-in voice."]
    assert json.loads((tmp_path / "settings.json").read_text())["speech"] == "tts"


# ------------------------------------------------------------------ damaged files
def _valid(name: str, folder: Path) -> bytes:
    """A good copy of the file ``name``, as audiocrib writes it."""
    if name == "settings.json":
        SettingsFile(folder / name).save(Settings(), TableSetup())
    elif name == "statistics.json":
        (folder / name).write_text(json.dumps({"version": 1, **Statistics().to_json()}))
    elif name == "practice.json":
        (folder / name).write_text(json.dumps({"version": 1, **PracticeRecord(counts=3, right=2).to_json()}))
    else:
        session = Session(Announcer(RecordingSpeaker(), io.StringIO()), setup=TableSetup(levels=("easy",)),
                          save_path=folder / name, seed=3)
        session.start()
        session.press("enter")
        session.close()  # as a copy does when it ends: the folder is free for the next
    return (folder / name).read_bytes()


WHAT = {"settings.json": "settings", "statistics.json": "statistics", "practice.json": "practice figures",
        SAVE: "saved game"}
FALLBACK = {"settings.json": "the defaults are used", "statistics.json": "they start afresh",
            "practice.json": "they start afresh", SAVE: "it cannot be resumed"}
DAMAGE = {
    "empty": (lambda good: b"", "is empty"),
    "truncated": (lambda good: good[: len(good) // 2], "is cut short"),
    "garbage": (lambda good: bytes(range(256)) * 4, "is not text"),
    "not json": (lambda good: b"[1, 2, 3]", "is not in audiocrib's format"),
    "wrong version": (lambda good: re.sub(rb'"version": ?\d+', b'"version": 99', good, count=1),
                      "is from another version of audiocrib"),
    "bad value": (lambda good: re.sub(rb'"levels": ?\["easy"\]', b'"levels": ["grandmaster"]', good)
                  .replace(b'"rate": 200', b'"rate": 9999').replace(b'"counts": 3', b'"counts": -3')
                  .replace(b'"total": {"games": 0', b'"total": {"games": -1'), "is not in audiocrib's format"),
}


@pytest.mark.parametrize("damage", [*DAMAGE, "a folder"])
@pytest.mark.parametrize("name", list(WHAT))
def test_a_damaged_file_is_set_aside_with_one_sentence_and_the_game_goes_on(
        name: str, damage: str, tmp_path: Path) -> None:
    good = _valid(name, tmp_path)
    path = tmp_path / name
    if damage == "a folder":
        path.unlink()
        path.mkdir()
        (path / "inside").write_text("kept")
        reason = "is a folder, not a file"
    else:
        make, reason = DAMAGE[damage]
        bad = make(good)
        assert bad != good, "the damage must change the file"
        path.write_bytes(bad)
    quick = TableSetup(levels=("beginner",))
    if name != "settings.json":
        SettingsFile(tmp_path / "settings.json").save(Settings(), quick)
    session, speaker = _session(tmp_path)
    if name == "settings.json":
        assert session.settings == Settings() and session.setup == TableSetup()  # the defaults
        session.setup = quick
    session.start()
    aside = tmp_path / f"{name}.damaged"
    sentence = (f"Your {WHAT[name]} file {reason}, so {FALLBACK[name]}; the file is kept aside as {aside.name}.")
    assert speaker.said[1:3] == [sentence, "Main menu: New game. 1 of 8."]
    if damage == "a folder":
        assert (aside / "inside").read_text() == "kept"
    else:
        assert aside.read_bytes() == bad  # kept as it was, never deleted
    # the game goes on with the defaults, and the file is written afresh when it next changes
    session.press("enter")
    assert speaker.said[-1] != sentence and session.table is not None
    assert json.loads((tmp_path / SAVE).read_text())["version"] == SAVE_VERSION
    session.press("escape")
    session.press("down")
    session.press("enter")  # settings from the game menu
    session.press("down")
    session.press("right")  # verbosity
    assert json.loads((tmp_path / "settings.json").read_text())["version"] == 1
    # a second damaged copy never overwrites the first
    if damage != "a folder":
        path.write_bytes(bad)
        session.close()
        again, _ = _session(tmp_path)
        again.start()
        assert (tmp_path / f"{name}.damaged-2").read_bytes() == bad
        assert aside.read_bytes() == bad


def test_a_file_that_may_not_be_read_is_set_aside_too(tmp_path: Path) -> None:
    """Root may read any file, so as root the program runs without that power (setpriv drops it)."""
    folder = tmp_path
    for name in WHAT:
        _valid(name, folder)
        (folder / name).chmod(0)
    child = ("import sys; from pathlib import Path; from audiocrib.shell.main import Folders, open_session;"
             "from audiocrib.speech import SilentSpeaker;"
             "s = open_session(Folders(Path(sys.argv[1]), Path(sys.argv[1])), speaker=SilentSpeaker());"
             "s.start(); s.press('enter')")
    powerless = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
    done = subprocess.run([*powerless, sys.executable, "-c", child, str(folder)], capture_output=True,
                          text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for name in WHAT:
        assert (f"Your {WHAT[name]} file cannot be read: permission is refused, so {FALLBACK[name]}; "
                f"the file is kept aside as {name}.damaged.") in lines
        assert (folder / f"{name}.damaged").exists()
    assert any(line.startswith("New game: ") for line in lines)  # and the game goes on


def test_a_game_that_cannot_be_kept_says_so_once_and_goes_on(tmp_path: Path) -> None:
    save = tmp_path / SAVE
    blocked = tmp_path / (SAVE + ".partial")

    async def script(table: Table) -> None:
        blocked.mkdir()  # the write-then-rename cannot write its new copy
        said = await table.press("enter")
        problem = [line for line in table.said if "cannot be saved" in line]
        assert problem == ["Your game cannot be saved (Is a directory); audiocrib goes on without it."]
        assert said[0].startswith("New game: ")
        await autoplay(table, until=30)
        assert [line for line in table.said if "cannot be saved" in line] == problem  # said once
        blocked.rmdir()
        await autoplay(table, until=40)
        game = getattr(table.session.table, "game", None)
        assert game is not None
        assert json.loads(save.read_text())["game"]["events"] == game.to_json()["events"]

    run(script, setup=TABLE, save_path=save)
