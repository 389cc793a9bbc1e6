"""Hostile files: each of the player's four files in many damaged and malicious forms, and links planted where
audiocrib writes.

Every form must let the program start, say one sentence, set the file aside (renamed, never deleted or followed)
and go on. Most cases run the real session in this process; a few run the installed program in a terminal.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from audiocrib.engine.game import Game
from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.progress.statistics import Statistics
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.history import LINE_LIMIT
from audiocrib.shell.main import Folders, open_session
from audiocrib.shell.savedgame import SavedTable
from audiocrib.shell.session import Session
from audiocrib.speech import RecordingSpeaker, TranscriptSpeaker
from tests.test_keeping import FALLBACK, WHAT, _valid
from tests.test_kill import Program

ROOT = Path(__file__).resolve().parent.parent
SAVE = "saved-game.json"
FILES = ("settings.json", SAVE, "statistics.json", "practice.json")


def _session(folder: Path) -> tuple[Session, RecordingSpeaker]:
    speaker = RecordingSpeaker()
    session = open_session(Folders(folder, folder), speaker=speaker, announcer_options={"screen": io.StringIO()})
    return session, speaker


# ------------------------------------------------------------------ writing never follows a planted file
def _practise_one(session: Session) -> None:
    """From the main menu: Practice, Start counting, an answer (the practice figures are written), and back."""
    session.settings.typed_ahead = 0.0  # keys sent at once, with no news to hear first
    for key in ("home", "down", "down", "enter", "down", "down", "enter", "0", "enter", "escape", "escape"):
        session.press(key)


@pytest.mark.parametrize("how", ["symlink", "hard link"])
def test_a_link_planted_as_the_partial_copy_is_replaced_never_written_through(how: str, tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    victims = {}
    for name in ("settings.json", SAVE, "statistics.json", "practice.json"):
        victim = tmp_path / f"victim-of-{name}"
        victim.write_text("precious\n")
        victims[name] = victim
        partial = folder / f"{name}.partial"
        if how == "symlink":
            partial.symlink_to(victim)
        else:
            os.link(victim, partial)
    session, _ = _session(folder)
    session.start()
    session.press("down")
    session.press("enter")  # table setup
    session.press("right")  # three players: the settings are written
    session.press("escape")
    _practise_one(session)
    session.press("home")
    session.press("enter")  # a new game: the game is written
    assert session.table is not None
    for name, victim in victims.items():
        if name == "statistics.json":
            continue  # written only when a game ends; files.save is the same code
        assert victim.read_text() == "precious\n", f"{name} was written through its planted partial copy"
        assert json.loads((folder / name).read_text())["version"] >= 1
        assert not (folder / f"{name}.partial").exists()


# ------------------------------------------------------------------ reading: every file in many hostile forms
INVISIBLE = {"arabic letter mark": "\u061c", "tag characters": "\U000e0020\U000e007f", "soft hyphen": "\u00ad",
             "interlinear annotation": "\ufff9\ufffa\ufffb", "private use": "\ue000", "unassigned": "\U000e0080"}
"""Characters a screen does not show and a screen reader may not read (or reads out of order): issue 24."""
BIG = "9" * 5000
"""More digits than Python turns into a number (4,300)."""
LONG = "9" * 4000
"""A count that Python reads, and that once recursed without end when said in words."""


def _edit(good: bytes, path: tuple[str | int, ...], value: Any) -> bytes:
    """``good`` with the value at ``path`` (keys and indexes) replaced; a ``@NAME@`` string is written raw."""
    data = json.loads(good)
    place = data
    for step in path[:-1]:
        place = place[step]
    place[path[-1]] = value
    text = json.dumps(data)
    return re.sub(r'"@([^@"]*)@"', lambda match: match.group(1), text).encode()


Form = Callable[[bytes], bytes]


def _setting(path: tuple[str | int, ...], value: Any) -> Form:
    """The form with the value at ``path`` set to ``value``."""
    return lambda good: _edit(good, path, value)


COMMON: dict[str, Form] = {
    "empty": lambda good: b"",
    "only spaces": lambda good: b"  \n\t ",
    "cut short": lambda good: good[: len(good) // 2],
    "binary": lambda good: bytes(range(256)) * 8,
    "NUL bytes": lambda good: b"\0" * 100,
    "UTF-16": lambda good: good.decode().encode("utf-16"),
    "a list": lambda good: b"[1, 2, 3]",
    "a number": lambda good: b"42",
    "null": lambda good: b"null",
    "a 5,000-digit number": lambda good: _edit(good, ("version",), f"@{BIG}@"),
    "100,000 nested [": lambda good: b"[" * 100_000,
    "100,000 nested {": lambda good: b'{"a":' * 100_000,
    "deep nesting in a value": lambda good: _edit(good, ("version",), "@" + "[" * 50_000 + "]" * 50_000 + "@"),
    "NaN version": lambda good: _edit(good, ("version",), "@NaN@"),
    "Infinity version": lambda good: _edit(good, ("version",), "@-Infinity@"),
    "1e999 version": lambda good: _edit(good, ("version",), "@1e999@"),
    "version true": lambda good: _edit(good, ("version",), True),
    "version 1.0": lambda good: _edit(good, ("version",), "@1.0@"),
    "version as text": lambda good: _edit(good, ("version",), "1"),
    "version 99": lambda good: _edit(good, ("version",), 99),
    "a lone surrogate": lambda good: _edit(good, ("version",), "\ud800"),
}
SPECIFIC: dict[str, dict[str, Form]] = {
    "settings.json": {
        "rate 200.0": lambda good: _edit(good, ("rate",), "@200.0@"),
        "rate true": lambda good: _edit(good, ("rate",), True),
        "rate 10**30": lambda good: _edit(good, ("rate",), 10**30),
        "rate of 5,000 digits": lambda good: _edit(good, ("rate",), f"@{BIG}@"),
        "pace NaN": lambda good: _edit(good, ("pace",), "@NaN@"),
        "pace -1": lambda good: _edit(good, ("pace",), -1),
        "pace as text": lambda good: _edit(good, ("pace",), "fast"),
        "volume a list": lambda good: _edit(good, ("volume",), [100]),
        "speech a number": lambda good: _edit(good, ("speech",), 7),
        "speech a lone surrogate": lambda good: _edit(good, ("speech",), "\ud800"),
        "verbosity a list": lambda good: _edit(good, ("verbosity",), ["normal"]),
        "sounds 1": lambda good: _edit(good, ("sounds",), 1),
        "players 10**30": lambda good: _edit(good, ("table", "players"), 10**30),
        "players -10**30": lambda good: _edit(good, ("table", "players"), -(10**30)),
        "players true": lambda good: _edit(good, ("table", "players"), True),
        "target 10**30": lambda good: _edit(good, ("table", "target"), 10**30),
        "table null": lambda good: _edit(good, ("table",), None),
        "levels unknown": lambda good: _edit(good, ("table", "levels"), ["grandmaster"]),
    },
    SAVE: {
        "levels unknown": lambda good: _edit(good, ("levels",), ["grandmaster"]),
        "told -1": lambda good: _edit(good, ("told",), -1),
        "told 10**30": lambda good: _edit(good, ("told",), 10**30),
        "told true": lambda good: _edit(good, ("told",), True),
        "told of 4,000 digits": lambda good: _edit(good, ("told",), f"@{LONG}@"),
        "history not text": lambda good: _edit(good, ("history",), [1, 2]),
        "seed of 5,000 digits": lambda good: _edit(good, ("game", "seed"), f"@{BIG}@"),
        "seed as text": lambda good: _edit(good, ("game", "seed"), "7"),
        "seed NaN": lambda good: _edit(good, ("game", "seed"), "@NaN@"),
        "players 10**30": lambda good: _edit(good, ("game", "rules", "players"), 10**30),
        "players true": lambda good: _edit(good, ("game", "rules", "players"), True),
        "target -1": lambda good: _edit(good, ("game", "rules", "target"), -1),
        "events not a list": lambda good: _edit(good, ("game", "events"), {"a": 1}),
        "an event of garbage": lambda good: _edit(good, ("game", "events", 0), [None, 10**30, "x"]),
        "names not text": lambda good: _edit(good, ("game", "names"), [1, 2]),
        # what the game never writes (issue 24): a computer player's seat claiming by hand, a setting the shell
        # never uses, a computer player called by the player's own word, and invisible characters in text
        "a computer seat pegging by hand": lambda good: _edit(
            _edit(good, ("game", "rules", "manual_pegging"), True), ("game", "manual_seats"), [0, 1]),
        "a computer seat counting by hand": lambda good: _edit(
            _edit(good, ("game", "rules", "manual_counting"), True), ("game", "manual_seats"), [0, 1]),
        "no manual seat at a manual table": lambda good: _edit(good, ("game", "rules", "manual_pegging"), True),
        "auto go off": lambda good: _edit(good, ("game", "auto_go"), False),
        **{f"a computer player named {name}": _setting(("game", "names", 1), name)
           for name in ("You", "you", "YOU", "\uff39\uff4f\uff55", "You\u200d")},
        **{f"a name with {what}": _setting(("game", "names", 1), f"Bob{chars}") for what, chars in INVISIBLE.items()},
        **{f"history with {what}": _setting(("history",), [f"Hi{chars}."]) for what, chars in INVISIBLE.items()},
        "a table name with a soft hyphen": lambda good: _edit(good, ("table",), "a\u00adtable"),
    },
    "statistics.json": {
        "games of 4,000 digits": lambda good: _edit(good, ("total", "games"), f"@{LONG}@"),
        "games of 5,000 digits": lambda good: _edit(good, ("total", "games"), f"@{BIG}@"),
        "games 10**30": lambda good: _edit(good, ("total", "games"), 10**30),
        "games -1": lambda good: _edit(good, ("total", "games"), -1),
        "games true": lambda good: _edit(good, ("total", "games"), True),
        "games 3.0": lambda good: _edit(good, ("total", "games"), "@3.0@"),
        "more wins than games": lambda good: _edit(good, ("total",), {"games": 1, "wins": 40}),
        "a level that does not exist": lambda good: _edit(good, ("by_level",), {"god": {"games": 0}}),
        "totals that do not add up": lambda good: _edit(good, ("by_variant",), {"six-card": {"games": 9}}),
        "matches true": lambda good: _edit(good, ("matches",), True),
        "counted not text": lambda good: _edit(good, ("counted",), [1, 2]),
        "counted without end": lambda good: _edit(good, ("counted",), [f"t/{i}" for i in range(10_000)]),
    },
    "practice.json": {
        "counts of 4,000 digits": lambda good: _edit(good, ("counts",), f"@{LONG}@"),
        "counts of 5,000 digits": lambda good: _edit(good, ("counts",), f"@{BIG}@"),
        "counts true": lambda good: _edit(good, ("counts",), True),
        "counts -3": lambda good: _edit(good, ("counts",), -3),
        "1000 percent right": lambda good: _edit(good, ("right",), 30),
        "seconds NaN": lambda good: _edit(good, ("seconds",), "@NaN@"),
        "seconds Infinity": lambda good: _edit(good, ("seconds",), "@Infinity@"),
        "seconds -5": lambda good: _edit(good, ("seconds",), -5),
        "seconds as text": lambda good: _edit(good, ("seconds",), "slow"),
        "a streak longer than the counts": lambda good: _edit(good, ("best_streak",), 50),
        "missed a kind that does not exist": lambda good: _edit(good, ("missed",), {"\u001b[2J": 1}),
        "missed 10**30": lambda good: _edit(good, ("missed",), {"runs": 10**30}),
        "points lost NaN": lambda good: _edit(good, ("points_lost",), "@NaN@"),
    },
}
PLACED = ("a folder", "a FIFO", "a link to /dev/zero", "a link to nowhere", "a sparse file of 4 GB")
"""Forms that are not contents but things put in the file's place."""
REASON = {"a folder": "is a folder, not a file", "a FIFO": "is not an ordinary file",
          "a link to /dev/zero": "is not an ordinary file", "a link to nowhere": "cannot be read",
          "a sparse file of 4 GB": "is too big to be audiocrib's"}


@pytest.fixture(scope="module")
def good_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """A good copy of each file as audiocrib writes it (the practice figures: three counts, two right)."""
    folder = tmp_path_factory.mktemp("good")
    return {name: _valid(name, folder) for name in FILES}


def _place(path: Path, form: str, good: bytes) -> bytes | None:
    """Put the hostile ``form`` at ``path``; its bytes if it is a file's contents."""
    if form == "a folder":
        path.mkdir()
        (path / "inside").write_text("kept")
    elif form == "a FIFO":
        os.mkfifo(path)
    elif form == "a link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif form == "a link to nowhere":
        path.symlink_to(path.with_name("nowhere"))
    elif form == "a sparse file of 4 GB":
        with open(path, "wb") as file:
            file.truncate(4 << 30)
    else:
        bad = {**COMMON, **SPECIFIC[path.name]}[form](good)
        assert bad != good
        path.write_bytes(bad)
        return bad
    return None


def _start(folder: Path) -> tuple[Session, RecordingSpeaker]:
    """Start a session on ``folder``; it must not raise, and must not hang (a FIFO once blocked it for ever)."""
    result: list[tuple[Session, RecordingSpeaker]] = []
    failure: list[BaseException] = []

    def start() -> None:
        try:
            session, speaker = _session(folder)
            session.start()
            result.append((session, speaker))
        except BaseException as error:  # handed to the test below
            failure.append(error)

    thread = threading.Thread(target=start, daemon=True)
    thread.start()
    thread.join(20)
    assert not thread.is_alive(), "the start hangs"
    if failure:
        raise AssertionError(f"the start raised {failure[0]!r}") from failure[0]
    return result[0]


CASES = [(name, form) for name in FILES for form in (*COMMON, *SPECIFIC[name], *PLACED)]


@pytest.mark.parametrize(("name", "form"), CASES, ids=[f"{n}-{f}" for n, f in CASES])
def test_a_hostile_file_is_set_aside_with_one_sentence_and_the_game_goes_on(
        name: str, form: str, good_files: dict[str, bytes], tmp_path: Path) -> None:
    path = tmp_path / name
    bad = _place(path, form, good_files[name])
    session, speaker = _start(tmp_path)
    aside = tmp_path / f"{name}.damaged"
    reason = REASON.get(form, r"(is [^,;]+|is not in audiocrib's format)")
    sentence = (rf"Your {WHAT[name]} file {reason}[^.;]*, so {FALLBACK[name]}; the file is kept aside as "
                rf"{re.escape(aside.name)}\.")
    assert re.fullmatch(sentence, speaker.said[1]), speaker.said[1:3]
    assert speaker.said[2] == "Main menu: New game. 1 of 8."  # one sentence, then the menu
    assert not os.path.lexists(path)
    kept = os.lstat(aside)
    if bad is not None:
        assert aside.read_bytes() == bad  # kept as it was
    elif form == "a FIFO":
        assert stat.S_ISFIFO(kept.st_mode)
    elif form.startswith("a link"):
        assert stat.S_ISLNK(kept.st_mode)  # the link itself was set aside, not what it points to
    # the game goes on, and the file is written afresh when there is something to keep
    for key in ("home", "down", "down", "down", "enter"):
        session.press(key)  # the statistics, read out
    assert speaker.said[-2:] == ["No games finished yet.", "No practice yet."]
    _practise_one(session)
    assert json.loads((tmp_path / "practice.json").read_text())["counts"] == 1
    session.press("home")
    session.press("enter")
    assert session.table is not None and speaker.said[-1].startswith("Lay away")
    assert json.loads((tmp_path / SAVE).read_text())["version"] >= 1


def test_enough_hostile_forms_of_each_file() -> None:
    for name in FILES:
        assert len([case for case in CASES if case[0] == name]) >= 30


def test_impossible_figures_are_refused_at_load_never_read_out() -> None:
    assert number_words(int(LONG)) == "more than a thousand quintillion"  # it once recursed without end
    with pytest.raises(ValueError, match="do not add up"):
        Statistics.from_json({"total": {"games": 3, "wins": 2, "skunks_given": 3}})


def test_hostile_files_through_the_installed_program(tmp_path: Path) -> None:
    """All four at once, in the real program in a terminal: a FIFO as the game, a link to /dev/zero as the
    statistics, a number of 5,000 digits in the settings and 100,000 nested brackets as the practice figures."""
    os.mkfifo(tmp_path / SAVE)
    (tmp_path / "statistics.json").symlink_to("/dev/zero")
    (tmp_path / "settings.json").write_text(f'{{"version": 1, "rate": {BIG}}}')
    (tmp_path / "practice.json").write_text("[" * 100_000)
    program = Program(tmp_path, seed=3)
    try:
        end = time.monotonic() + 60
        program.wait_for("Main menu: New game. 1 of 8.", end)
        text = program.text()
        for name, reason in (("settings.json", "is not in audiocrib's format"), (SAVE, "is not an ordinary file"),
                             ("statistics.json", "is not an ordinary file"),
                             ("practice.json", "is not in audiocrib's format")):
            assert (f"Your {WHAT[name]} file {reason}, so {FALLBACK[name]}; the file is kept aside as "
                    f"{name}.damaged.") in text
        program.press("enter")
        program.wait_for("Lay away two cards", end)
        assert "Traceback" not in program.text()
        while not (tmp_path / SAVE).exists() and time.monotonic() < end:
            time.sleep(0.01)  # written just after the words are shown
        assert stat.S_ISREG(os.lstat(tmp_path / SAVE).st_mode)  # a new save, where the FIFO was
    finally:
        program.kill()


def test_a_data_folder_that_cannot_be_opened_is_one_sentence_and_the_game_goes_on(tmp_path: Path) -> None:
    """Root may open any folder, so as root the program runs without that power (setpriv drops it)."""
    config, data = tmp_path / "config", tmp_path / "data"
    config.mkdir()
    data.mkdir()
    for name in FILES[1:]:
        (data / name).write_text("{}")
    data.chmod(0)
    child = ("import sys; from pathlib import Path; from audiocrib.shell.main import Folders, open_session;"
             "from audiocrib.speech import SilentSpeaker;"
             "s = open_session(Folders(Path(sys.argv[1]), Path(sys.argv[2])), speaker=SilentSpeaker());"
             "s.start(); s.press('enter'); s.press('1'); s.press('2'); s.press('enter')")
    powerless = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
    try:
        done = subprocess.run([*powerless, sys.executable, "-c", child, str(config), str(data)],
                              capture_output=True, text=True, timeout=60, cwd=ROOT)
    finally:
        data.chmod(0o755)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1:3] == [f"Your data folder, {data}, cannot be opened (Permission denied), so no game can be "
                          "resumed and nothing is kept this time.", "Main menu: New game. 1 of 8."]
    assert any(line.startswith("New game: ") for line in lines)
    assert not [line for line in lines if "cannot be saved" in line]  # said once, at the start
    assert sorted(p.name for p in data.iterdir()) == sorted(FILES[1:])  # untouched


# ------------------------------------------------------------------ text from files never reaches the terminal raw
ESCAPES = "\x1b[2J\x1b]0;owned\x07\x1b[31m"
"""Clear the screen, retitle the window, turn the text red: what a hostile name could do to a terminal."""


def _save_with(folder: Path, names: tuple[str, ...] = ("You", "Bob"), history: tuple[str, ...] = ("Welcome.",),
               table: str = "a table") -> None:
    game = Game(Rules(), names, seed=3)
    saved = SavedTable(game, ("easy",), 0, frozenset(), -1, table, history)
    (folder / SAVE).write_text(saved.dumps("discard"))


@pytest.mark.parametrize("where", ["name", "history", "table", "long history", "long line", "long name"])
def test_text_in_a_save_is_checked_like_every_other_value(where: str, tmp_path: Path) -> None:
    if where == "name":
        _save_with(tmp_path, names=("You", f"{ESCAPES}Bob"))
    elif where == "history":
        _save_with(tmp_path, history=("Welcome.", f"Bob{ESCAPES} deals.", "\ud800"))
    elif where == "table":
        _save_with(tmp_path, table=ESCAPES)
    elif where == "long history":
        _save_with(tmp_path, history=tuple(f"Line {i}." for i in range(100_000)))
    elif where == "long line":
        _save_with(tmp_path, history=("x" * 100_000,))
    else:
        _save_with(tmp_path, names=("You", "B" * 1000))
    screen = io.StringIO()
    speaker = RecordingSpeaker()
    session = open_session(Folders(tmp_path, tmp_path), speaker=speaker, announcer_options={"screen": screen})
    session.start()
    assert speaker.said[1:3] == [
        "Your saved game file is not in audiocrib's format, so it cannot be resumed; the file is kept aside as "
        "saved-game.json.damaged.", "Main menu: New game. 1 of 8."]
    assert "\x1b" not in screen.getvalue()


def test_every_line_said_is_cleaned_of_control_characters_in_one_place(tmp_path: Path) -> None:
    screen = io.StringIO()
    speaker = RecordingSpeaker()
    transcript = TranscriptSpeaker(tmp_path / "transcript.txt")
    announcer = Announcer(speaker, screen, transcript)
    announcer.say(f"Bob{ESCAPES} plays\r\nthe five\u202e of hearts.\x00")
    clean = "Bob [2J ]0;owned [31m plays the five  of hearts. "
    assert speaker.said == [clean]
    assert announcer.history.messages == (clean,)
    assert screen.getvalue() == clean + "\n"
    transcript.close()
    assert (tmp_path / "transcript.txt").read_text() == clean + "\n"
    # the lines kept without being said (a sound said them) and a resumed game's lines go through it too
    announcer.history.add(f"Go{ESCAPES}.")
    announcer.history.restore(["Old\x1b[1m line.", "x" * 100_000])
    assert all(line.isprintable() and len(line) <= LINE_LIMIT for line in announcer.history.messages)
    assert announcer.history.messages[-1] == "Go [2J ]0;owned [31m."
