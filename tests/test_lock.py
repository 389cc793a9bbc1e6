"""Two copies of audiocrib on one data folder: the second is told at once and keeps no game; nothing is lost.

Both are the installed program, in terminals of their own, with text lines only. The first plays a game kept in
the folder (its keys chosen from its own autosave, `tests.autoplay`); the second starts while that game is in
progress, practises, and plays a game of its own to the end (its keys pressed blind: illegal keys change
nothing). Then the first finishes its game and practises too. The first's game must be untouched by the second,
and the statistics and practice figures must hold both copies' games and counts.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from audiocrib.engine.rules import Variant
from audiocrib.progress.practice import PracticeRecord
from audiocrib.shell.drills import Drills
from audiocrib.shell.settings import Settings, SettingsFile
from audiocrib.shell.tablesetup import TableSetup
from tests.autoplay import keys_for, read_save, where_it_stands
from tests.test_kill import Program, wait_for_change

SAVE = "saved-game.json"
NOTICE = ("Another copy of audiocrib is open on this data folder and keeps the game in progress. Here you can "
          "practise, or play a game that is not kept, or quit.")


def press(program: Program, *keys: str) -> None:
    """Press each key and wait for the program to finish answering (no new output for a moment)."""
    for key in keys:
        before = len(program.output)
        program.press(key)
        end = time.monotonic() + 5
        while len(program.output) == before and time.monotonic() < end:
            time.sleep(0.005)
        quiet_since, size = time.monotonic(), len(program.output)
        while time.monotonic() - quiet_since < 0.05 and time.monotonic() < end:
            time.sleep(0.005)
            if len(program.output) != size:
                quiet_since, size = time.monotonic(), len(program.output)


def practise_one_count(program: Program) -> None:
    """From the main menu: Practice, Start counting, an answer, and back to the main menu."""
    press(program, "home", "down", "down", "enter", "down", "down", "enter", "0", "enter", "escape", "escape")


def games_counted(folder: Path) -> int:
    try:
        return int(json.loads((folder / "statistics.json").read_text())["total"]["games"])
    except FileNotFoundError:
        return 0


def counts_practised(folder: Path) -> int:
    return int(json.loads((folder / "practice.json").read_text())["counts"])


def test_two_copies_on_one_folder_lose_no_game_and_no_figures(tmp_path: Path) -> None:
    SettingsFile(tmp_path / "settings.json").save(Settings(typed_ahead=0.0), TableSetup(variant=Variant.FIVE_CARD,
                                                                         levels=("beginner",)))
    save = tmp_path / SAVE
    first = Program(tmp_path, seed=3)
    second: Program | None = None
    try:
        end = time.monotonic() + 300
        first.wait_for("Main menu: New game. 1 of 8.", end)
        press(first, "enter")
        while (found := read_save(save)) is None or len(found[0].game.events) < 12:
            if found is None:
                time.sleep(0.01)
                continue
            press(first, *keys_for(found[1], found[0].game))
            wait_for_change(save, where_it_stands(found[0], found[1]), end, first)
        kept = save.read_bytes()

        second = Program(tmp_path, seed=4)
        second.wait_for("Main menu: New game, not kept: another copy of audiocrib keeps the games in this folder. "
                        "1 of 8.", end)
        text = second.text()
        assert text.index(NOTICE) < text.index("Main menu:")  # said at once, after the welcome
        assert "unfinished game" not in text  # the first copy's game is not offered

        practise_one_count(second)
        assert counts_practised(tmp_path) == 1
        press(second, "enter")
        second.wait_for("It is not kept.", end)
        cycle = ["1", "enter", "2", "enter", "3", "enter", "4", "enter", "5", "enter", "enter"]
        presses = 0
        while games_counted(tmp_path) < 1:  # the second copy's game, played to its end
            press(second, cycle[presses % len(cycle)])
            presses += 1
            assert time.monotonic() < end, "the second copy's game did not end"
        assert save.read_bytes() == kept  # the second copy never wrote the first's game
        press(second, "escape", "down", "down", "enter")  # Save and quit: this copy keeps no game
        assert "This game is not kept: another copy of audiocrib keeps the games on this data folder." in (
            second.text())
        press(second, "c-c")
        second.process.wait(timeout=10)
        assert save.read_bytes() == kept

        # the first copy goes on with its game, to the end; then practises
        while (found := read_save(save)) is not None:
            current, moment, _ = found
            press(first, *keys_for(moment, current.game))
            if save.exists():
                wait_for_change(save, where_it_stands(current, moment), end, first)
        assert games_counted(tmp_path) == 2  # both copies' games
        press(first, "enter")
        first.wait_for("Main menu:", end)
        practise_one_count(first)
        assert counts_practised(tmp_path) == 2  # both copies' counts
        press(first, "c-c")
        first.process.wait(timeout=10)
        assert not list(tmp_path.glob("*.damaged*"))
    finally:
        first.kill()
        if second is not None:
            second.kill()


def test_practice_figures_from_two_copies_are_both_kept(tmp_path: Path) -> None:
    """Each copy read the file at its start; each adds its own counts to what the file holds when it writes."""
    record = tmp_path / "practice.json"
    said: list[str] = []
    copies = [Drills(said.append, time.monotonic, record, seed) for seed in (1, 2)]
    for drills in copies:
        assert drills.load() is None
    for drills in (*copies, copies[0]):
        drills.start("counting")
        drills.type_digit("0")
        drills.answer_count("enter")
        drills.stop("escape")
    kept = PracticeRecord.from_json(json.loads(record.read_text()))
    assert kept.counts == 3 and kept.right == sum(d.session.right for d in copies)
    assert copies[0].all_time is not None and copies[0].all_time.counts == 3  # and it says so


def test_two_copies_changing_different_settings_keep_both(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    first, second = SettingsFile(path), SettingsFile(path)
    mine, my_table, _ = first.load()
    theirs, their_table, _ = second.load()
    mine.step("verbosity", 1)  # full
    first.changed("verbosity")
    first.save(mine, my_table)
    theirs.step("rate", 1)  # 225, in the other copy, which still holds the old verbosity
    second.changed("rate")
    second.override(theirs, "pace", 0.0)  # for its run only
    second.save(theirs, their_table)
    kept, table, notice = SettingsFile(path).load()
    assert notice is None
    assert (kept.verbosity.value, kept.rate, kept.pace) == ("full", 225, 1.5)  # neither change lost
    assert table == my_table
