"""Offline edges an independent audit found (issue 24): a save that asks a computer player a question it cannot
answer, a lock that cannot be taken, a damaged file that cannot be set aside, invisible characters, a computer
player called by the player's own word, and an unreadable data folder.

The installed program runs in a terminal (`tests.test_kill.Program`) where the player meets the edge; the rest use
the real session on real files.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from audiocrib.bots.player import load_player
from audiocrib.engine.actions import ClaimCount, Discard, Go, Play
from audiocrib.engine.game import Game, Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import score_play
from audiocrib.server.records import StoreError
from audiocrib.server.store import Store
from audiocrib.shell import files
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.main import Folders, open_session
from audiocrib.shell.offline import OfflineTable
from audiocrib.shell.savedgame import SavedTable
from audiocrib.shell.session import Session
from audiocrib.speech import RecordingSpeaker, TranscriptSpeaker
from tests.autoplay import keys_for
from tests.shell_driver import Table, run
from tests.test_kill import PROGRAM, Program

SAVE = "saved-game.json"
MENU = "Main menu: New game. 1 of 8."
OFFERED = "An unfinished game is waiting"


def _wait_for_menu(program: Program) -> str:
    program.wait_for("Main menu:", time.monotonic() + 60)
    time.sleep(0.3)  # anything said with the menu has come
    return program.text()


# ------------------------------------------------------------------ 1: a save no game could have written
def _save_owing_a_claim(folder: Path) -> bytes:
    """The audit's save: manual pegging with the computer player's seat among the manual ones."""
    game = Game(Rules(manual_pegging=True), names=("You", "Bob"), seed=5, manual_seats=(0, 1))
    text = SavedTable(game, ("expert",), 0, frozenset(), -1, "a table", ()).dumps("discard")
    (folder / SAVE).write_text(text)
    return text.encode()


def test_a_save_giving_a_computer_seat_a_claim_is_set_aside_at_the_start(tmp_path: Path) -> None:
    bad = _save_owing_a_claim(tmp_path)
    program = Program(tmp_path, seed=3)
    try:
        text = _wait_for_menu(program)
        assert OFFERED not in text
        assert ("Your saved game file is not in audiocrib's format, so it cannot be resumed; the file is kept aside "
                "as saved-game.json.damaged.") in text
        assert MENU in text
        assert (tmp_path / "saved-game.json.damaged").read_bytes() == bad
    finally:
        program.kill()


def test_a_save_with_settings_the_shell_never_uses_is_refused() -> None:
    game = Game(Rules(), names=("You", "Bob"), seed=5, auto_go=False)  # the shell always lets the game say go
    data = json.loads(SavedTable(game, ("easy",), 0, frozenset(), -1, "a table", ()).dumps("discard"))
    with pytest.raises(ValueError, match="settings"):
        SavedTable.from_json(data)


def _to_a_claim_of(game: Game, seat: int) -> None:
    """Play on (every seat by hand, each claim the truth) until ``seat`` owes a claim in the play."""
    for _ in range(200):
        if game.phase is Phase.PEG_CLAIM and seat in game.waiting_for():
            return
        turn = min(game.waiting_for())
        view = game.view(turn)
        if game.phase is Phase.DISCARD:
            game.apply(Discard(turn, view.hand[:2]))
        elif game.phase is Phase.PLAY:
            game.apply(Play(turn, view.playable[0]) if view.playable else Go(turn))
        else:
            game.apply(ClaimCount(turn, score_play([card for _, card in view.series]).total))
    raise AssertionError("the seat never owed a claim")


def test_a_computer_player_owing_a_claim_claims_the_true_points() -> None:
    game = Game(Rules(manual_pegging=True), names=("You", "Bob"), seed=5, manual_seats=(0, 1))
    table = OfflineTable(SavedTable(game, ("expert",), 0, frozenset(), -1, "a table", ()), None)
    _to_a_claim_of(game, 1)
    before = len(game.events)
    stamp, action = table.bot_move()
    assert isinstance(action, ClaimCount)
    table.apply_bot_move(stamp, action, lambda: True)
    assert len(game.events) > before and game.events[before].kind == "play claimed"


class _Broken:
    """A computer player that lays away but cannot play (as one asked a question it has no answer for)."""

    def __init__(self) -> None:
        self.discard = load_player("easy", seed=1).discard

    def play(self, view: object) -> object:
        raise RuntimeError("no answer")

    count = play


def test_a_game_that_cannot_go_on_says_so_and_the_run_ends_with_failure() -> None:
    def broken(setup: object) -> OfflineTable:
        table = OfflineTable.new(Rules(), ("You", "Bob"), ("easy",), 3, None)
        table.players[1] = _Broken()  # type: ignore[assignment]
        return table

    async def script(table: Table) -> None:
        await table.press("enter")
        for _ in range(20):
            if table.session.finished:
                return
            await table.press(*keys_for(table.session.moment, table.session.table.game))  # type: ignore[union-attr]

    played = run(script, new_table=broken)
    assert played.session.finished
    assert "A computer player failed to move (RuntimeError); the game cannot go on." in played.said
    assert played.session.exit_status == 1


# ------------------------------------------------------------------ 2: a lock that cannot be taken
LOCKED_OUT = ("The data folder's lock, audiocrib.lock, cannot be taken ({reason}), so this copy neither offers nor "
              "keeps a game in progress. Here you can practise, or play a game that is not kept, or quit.")


@pytest.mark.parametrize(("form", "reason"), [("a folder", "Is a directory"),
                                              ("a link", "Too many levels of symbolic links")])
def test_a_lock_that_cannot_be_taken_keeps_nothing_and_says_why(form: str, reason: str, tmp_path: Path) -> None:
    game = Game(Rules(), ("You", "Bob"), seed=3)
    kept = SavedTable(game, ("easy",), 0, frozenset(), -1, "a table", ("Welcome.",)).dumps("discard")
    (tmp_path / SAVE).write_text(kept)
    lock = tmp_path / "audiocrib.lock"
    if form == "a folder":
        lock.mkdir()
    else:
        (tmp_path / "elsewhere").write_text("")
        lock.symlink_to(tmp_path / "elsewhere")
    copies = [Program(tmp_path, seed=3), Program(tmp_path, seed=4)]
    try:
        for program in copies:
            text = _wait_for_menu(program)
            assert LOCKED_OUT.format(reason=reason) in text
            assert OFFERED not in text and MENU in text
        for program in copies:
            program.press("enter")  # a new game each, not kept
        for program in copies:
            program.wait_for("Lay away two cards", time.monotonic() + 30)
            for key in "12":
                program.press(key)
            program.press("enter")
        time.sleep(1)
        assert (tmp_path / SAVE).read_text() == kept  # neither wrote over the game in the folder
    finally:
        for program in copies:
            program.kill()


# ------------------------------------------------------------------ 3: a damaged file that cannot be set aside
def _change_a_setting(session: Session) -> None:
    for key in ("down", "enter", "right", "escape"):  # Table setup, three players: the settings are written
        session.press(key)


def test_a_damaged_file_with_every_numbered_name_taken_is_still_kept(tmp_path: Path) -> None:
    damaged = b'{"version": 1, "ra'
    (tmp_path / "settings.json").write_bytes(damaged)
    earlier = {tmp_path / "settings.json.damaged": b"first"}
    earlier.update({tmp_path / f"settings.json.damaged-{n}": f"copy {n}".encode() for n in range(2, 1000)})
    for path, data in earlier.items():
        path.write_bytes(data)
    speaker = RecordingSpeaker()
    session = open_session(Folders(tmp_path, tmp_path), speaker=speaker, announcer_options={"screen": io.StringIO()})
    session.start()
    notice = speaker.said[1]
    assert notice.startswith("Your settings file is cut short, so the defaults are used; the file is kept aside as "
                             "settings.json.damaged-"), notice
    aside = tmp_path / notice.rsplit(" as ", 1)[1].removesuffix(".")
    assert aside.read_bytes() == damaged and aside not in earlier
    _change_a_setting(session)
    session.close()
    assert aside.read_bytes() == damaged
    assert json.loads((tmp_path / "settings.json").read_text())["table"]["players"] == 3
    assert all(path.read_bytes() == data for path, data in earlier.items())


def test_a_damaged_file_that_cannot_be_renamed_is_never_written_over(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    damaged = b'{"version": 1, "ra'
    (tmp_path / "settings.json").write_bytes(damaged)

    def refused(path: Path) -> Path:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(files, "set_aside", refused)
    speaker = RecordingSpeaker()
    session = open_session(Folders(tmp_path, tmp_path), speaker=speaker, announcer_options={"screen": io.StringIO()})
    session.start()
    assert speaker.said[1] == ("Your settings file is cut short, so the defaults are used; it could not be kept aside "
                               "(Operation not permitted), so audiocrib leaves it as it is and writes nothing over "
                               "it.")
    _change_a_setting(session)
    session.close()
    assert (tmp_path / "settings.json").read_bytes() == damaged
    assert [line for line in speaker.said if "cannot be saved" in line] == [
        "Your settings cannot be saved (a damaged file there is kept as it is); audiocrib goes on without it."]


# ------------------------------------------------------------------ 4: one rule for invisible characters
INVISIBLE = {"arabic letter mark": "\u061c", "tag characters": "\U000e0041\U000e007f", "soft hyphen": "\u00ad",
             "interlinear annotation": "\ufff9\ufffa\ufffb", "private use": "\ue000", "unassigned": "\U000e0080",
             "zero-width joiner": "\u200d", "line separator": "\u2028", "control": "\x1b", "surrogate": "\ud800"}


def test_the_one_rule_is_every_other_and_separator_character_but_the_space() -> None:
    from audiocrib.engine.text import clean, printable

    for code in range(sys.maxunicode + 1):
        char = chr(code)
        unsafe = unicodedata.category(char)[0] in "CZ" and char != " "
        assert printable(char) is not unsafe, hex(code)
        assert clean(f"a{char}b") == ("a b" if unsafe else f"a{char}b"), hex(code)


def test_invisible_characters_never_reach_the_screen_speech_transcript_or_history(tmp_path: Path) -> None:
    screen, speaker = io.StringIO(), RecordingSpeaker()
    transcript = TranscriptSpeaker(tmp_path / "transcript.txt")
    announcer = Announcer(speaker, screen, transcript)
    for name, chars in INVISIBLE.items():
        announcer.say(f"Bob{chars}plays.")
        assert speaker.said[-1] == "Bob plays.", name
    transcript.close()
    lines = (tmp_path / "transcript.txt").read_text().splitlines()
    assert lines == ["Bob plays."] * len(INVISIBLE) == screen.getvalue().splitlines()
    assert announcer.history.messages == ("Bob plays.",) * len(INVISIBLE)


# ------------------------------------------------------------------ 6: a data folder that cannot be opened
class _Powerless(Program):
    """The installed program in a terminal, run without root's power to open any folder (setpriv drops it)."""

    def __init__(self, folder: Path) -> None:
        powerless = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
        super().__init__(folder, 0, command=[*powerless, str(PROGRAM), "--speech", "none", "--no-sound",
                                             "--data-dir", str(folder)], home=folder.parent)


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="folder permissions of this kind are POSIX")
def test_a_data_dir_that_cannot_be_opened_is_one_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "settings.json").write_text("{}")
    folder.chmod(0)
    program = _Powerless(folder)
    try:
        text = _wait_for_menu(program)
    finally:
        program.kill()
        folder.chmod(0o755)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if line.startswith("Welcome"))
    assert lines[start + 1:start + 3] == [
        f"Your data folder, {folder}, cannot be opened (Permission denied), so no game can be resumed and nothing "
        "is kept this time.", MENU], lines
    assert sorted(p.name for p in folder.iterdir()) == ["settings.json"]


# ------------------------------------------------------------------ 5: the player's own word as another's name
@pytest.mark.parametrize("name", ["You", "you", "\uff39\uff4f\uff55", "YOUR", "Yours"])
def test_no_one_on_a_server_may_take_the_word_every_player_hears_for_themselves(name: str, tmp_path: Path) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        with pytest.raises(StoreError, match="what every player hears for themselves"):
            store.add_player(name)
        store.add_player("Yolanda")


@pytest.mark.skipif(not hasattr(os, "geteuid"), reason="folder permissions of this kind are POSIX")
def test_a_configuration_folder_that_cannot_be_opened_is_its_own_one_sentence(tmp_path: Path) -> None:
    config, data = tmp_path / "config", tmp_path / "data"
    config.mkdir()
    data.mkdir()
    (config / "settings.json").write_text("{}")
    config.chmod(0)
    child = ("import sys; from pathlib import Path; from audiocrib.shell.main import Folders, open_session;"
             "from audiocrib.speech import SilentSpeaker;"
             "s = open_session(Folders(Path(sys.argv[1]), Path(sys.argv[2])), speaker=SilentSpeaker());"
             "s.start(); [s.press(k) for k in ('down', 'enter', 'right', 'escape')]")
    powerless = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
    try:
        done = subprocess.run([*powerless, sys.executable, "-c", child, str(config), str(data)],
                              capture_output=True, text=True, timeout=60)
    finally:
        config.chmod(0o755)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1:3] == [f"Your configuration folder, {config}, cannot be opened (Permission denied), so the "
                          "default settings are used and none are kept this time.", MENU]
    assert not [line for line in lines if "cannot be saved" in line]
    assert sorted(p.name for p in config.iterdir()) == ["settings.json"]
