"""The command line attacked: every command and option given bad, hostile or missing values.

Each must answer with exit status 2 and one sentence on stderr that names the option (or what was wrong) and what
it takes, in printable ASCII (a control character or other text from the command line is shown escaped, a long
value cut short): no traceback, no usage, nothing on stdout, and the game never starts. A sample runs the
installed ``audiocrib`` as a real process; the rest call `audiocrib.cli.main` in this process.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from audiocrib.cli import main

PROGRAM = Path(sys.executable).parent / ("audiocrib.exe" if sys.platform == "win32" else "audiocrib")
SENTENCE = re.compile(r"audiocrib: [ -~]+[.?]")
"""One line of printable ASCII ending a sentence."""
GAME = ["--speech", "none", "--no-sound"]
"""Options that keep a game that starts by mistake (before a fix) quiet."""


def run(home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The installed program, with no terminal for input and its own home and data folders under ``home``."""
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
           "XDG_DATA_HOME": str(home / "data"), "APPDATA": str(home), "LOCALAPPDATA": str(home)}
    return subprocess.run([str(PROGRAM), *args], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout, env=env, errors="backslashreplace")


def assert_refused(status: int, out: str, err: str, *words: str) -> str:
    """Exit 2, nothing on stdout, one clean sentence on stderr holding every one of ``words``."""
    assert "Traceback" not in err and "usage:" not in err, err
    assert (status, out) == (2, ""), (status, out, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    line = err[:-1]
    assert SENTENCE.fullmatch(line), line
    for word in words:
        assert word in line, (word, line)
    return line


def assert_process_refused(result: subprocess.CompletedProcess[str], *words: str) -> str:
    return assert_refused(result.returncode, result.stdout, result.stderr, *words)


# --- As a real process: the cases the issue reports ---------------------------------------------------------------

def test_crib_cards_5_with_two_laid_away_is_a_sentence_not_a_traceback(tmp_path: Path) -> None:
    result = run(tmp_path, "discards", "5H", "5S", "5C", "JD", "4H", "6C", "--dealer", "--crib-cards", "5")
    assert_process_refused(result, "--crib-cards", "--lay 1")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--verbosity", "xyz"], ["--verbosity", "brief, normal or full", "xyz"]),
        (["--speech", "foo"], ["--speech", "auto, screenreader, tts or none", "foo"]),
        (["play", "--speech", "foo"], ["--speech", "foo"]),
        (["discards", "5H", "5S", "5C", "JD", "4H", "6C", "--dealer", "--crib-cards", "3"],
         ["--crib-cards", "4 or 5", "3"]),
        (["--rate", "50"], ["--rate", "100 to 400", "50"]),
        (["discards", "--dealer"], ["audiocrib discards"]),
    ],
)
def test_a_wrong_value_is_named_with_its_option(tmp_path: Path, args: list[str], words: list[str]) -> None:
    line = assert_process_refused(run(tmp_path, *args), *words)
    assert "not a command" not in line and "audiocrib score" not in line


def test_a_transcript_that_is_a_folder_or_in_no_folder_is_refused(tmp_path: Path) -> None:
    assert_process_refused(run(tmp_path, *GAME, "--transcript", str(tmp_path)), "--transcript", "folder")
    missing = tmp_path / "nowhere" / "game.txt"
    assert_process_refused(run(tmp_path, *GAME, "--transcript", str(missing)), "--transcript", "does not exist")
    assert not missing.parent.exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_transcript_pipe_that_nothing_reads_is_refused_not_waited_on(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    assert_process_refused(run(tmp_path, *GAME, "--transcript", str(pipe), timeout=20), "--transcript", "pipe")


def test_a_seed_of_thousands_of_digits_is_refused_before_the_game(tmp_path: Path) -> None:
    for digits in (19, 4300, 5000):
        result = run(tmp_path, *GAME, "--data-dir", str(tmp_path / "data"), "--seed", "9" * digits)
        line = assert_process_refused(result, "--seed", "18 digits")
        assert len(line) < 150


def test_a_data_dir_that_is_a_file_or_empty_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "settings.txt"
    file.write_text("not a folder\n")
    assert_process_refused(run(tmp_path, *GAME, "--data-dir", str(file)), "--data-dir", "file")
    assert_process_refused(run(tmp_path, *GAME, "--data-dir", str(file / "inside")), "--data-dir", "file")
    assert_process_refused(run(tmp_path, *GAME, "--data-dir", ""), "--data-dir", "empty")
    assert file.read_text() == "not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.txt"]  # nothing written in the home folder


def test_an_option_of_the_game_before_play_is_checked_too(tmp_path: Path) -> None:
    # `audiocrib --rate 50 play`: play's own options used to hide those given before it, unchecked and unused.
    assert_process_refused(run(tmp_path, *GAME, "--rate", "50", "play"), "--rate", "100 to 400")


def test_the_game_without_a_terminal_is_one_sentence(tmp_path: Path) -> None:
    transcript = tmp_path / "game.txt"
    result = run(tmp_path, *GAME, "--data-dir", str(tmp_path / "data"), "--transcript", str(transcript))
    assert_process_refused(result, "terminal")
    assert not transcript.exists() and not (tmp_path / "data").exists()


def test_an_arena_player_of_an_empty_name_is_a_sentence(tmp_path: Path) -> None:
    assert_process_refused(run(tmp_path, "arena", "easy", ":", "--games", "2", "--jobs", "1"), ":")


@pytest.mark.parametrize("games", ["1000001", "9" * 30])
def test_a_huge_number_of_games_is_refused_not_played_for_ever(tmp_path: Path, games: str) -> None:
    result = run(tmp_path, "arena", "easy", "beginner", "--jobs", "1", "--games", games, timeout=30)
    assert_process_refused(result, "--games", "1 to 1,000,000")


def _group_size(group: int) -> int:
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                count += os.getpgid(int(entry)) == group
            except OSError:
                continue
    return count


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts processes in /proc")
def test_arena_jobs_are_capped_at_the_cores(tmp_path: Path) -> None:
    # --jobs 100000 once started processes without end. The run is watched, and its process group killed as soon
    # as it holds more than the cores' worth (the workers, the program itself and multiprocessing's tracker).
    cores = os.cpu_count() or 1
    most = cores + 2
    process = subprocess.Popen([str(PROGRAM), "arena", "beginner", "easy", "--games", "8", "--jobs", "100000",
                                "--quiet"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    peak = 0
    deadline = time.monotonic() + 240
    while process.poll() is None and time.monotonic() < deadline:
        peak = max(peak, _group_size(process.pid))
        if peak > most:
            break
        time.sleep(0.02)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    out, err = process.communicate(timeout=60)
    assert peak <= most, f"{peak} processes for {cores} cores"
    assert process.returncode == 0, err
    assert out.startswith("beginner against easy: 8 games")


@pytest.mark.skipif(sys.platform == "win32", reason="sends SIGINT as a terminal's Ctrl+C does")
def test_ctrl_c_in_a_long_arena_run_is_one_line() -> None:
    def interruptible() -> None:  # a job started in the background may inherit Ctrl+C ignored
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    process = subprocess.Popen([str(PROGRAM), "arena", "easy", "beginner", "--games", "100000", "--jobs", "1",
                                "--quiet"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, preexec_fn=interruptible)
    try:
        time.sleep(5)  # well into the games
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:  # a run that did not stop must not go on using the machine
            process.kill()
            process.communicate()
    assert (process.returncode, out, err) == (130, "", "audiocrib: Stopped.\n")


def _interrupt_arena_on_two_processes(wait: float) -> tuple[int, str, str]:
    """Start an arena run on two processes, wait until its workers exist and then ``wait`` seconds more, and send
    Ctrl+C to the whole run as the terminal does; (exit status, standard output, standard error)."""
    process = subprocess.Popen([str(PROGRAM), "arena", "easy", "beginner", "--games", "100000", "--jobs", "2",
                                "--quiet"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while _group_size(process.pid) < 4 and time.monotonic() < deadline:  # the run, its tracker, two workers
            time.sleep(0.002)
        time.sleep(wait)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    return process.returncode, out, err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts processes in /proc; sends SIGINT to the group")
def test_ctrl_c_in_an_arena_run_on_several_processes_is_one_line_too() -> None:
    # four seconds: the workers have imported everything and are playing
    assert _interrupt_arena_on_two_processes(4.0) == (130, "", "audiocrib: Stopped.\n")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts processes in /proc; sends SIGINT to the group")
@pytest.mark.parametrize("wait", [0.0, 0.05, 0.1, 0.2, 0.3])
def test_ctrl_c_while_the_arena_starts_its_workers_is_one_line(wait: float) -> None:
    """Ctrl+C as the workers are being started (they have not yet set Ctrl+C aside) stops the run with the same one
    line: no worker's traceback."""
    assert _interrupt_arena_on_two_processes(wait) == (130, "", "audiocrib: Stopped.\n")


# --- In this process: every command and option ---------------------------------------------------------------------

HAND = ["5H", "5D", "5S", "JC"]
DEALT = ["5H", "5S", "5C", "JD", "4H", "6C"]
ARENA = ["arena", "easy", "beginner", "--games", "2", "--jobs", "1"]
"""Later options win, so a case's own --games or --jobs replaces these (which keep a run short before a fix)."""
ALL_CARDS = [r + s for r in "A23456789TJQK" for s in "CDHS"]

CASES: list[tuple[list[str], list[str]]] = [
    # score
    (["score"], ["Give 3, 4 or 5 cards"]),
    (["score", *HAND], ["--starter"]),
    (["score", *HAND, "--starter"], ["--starter needs a value", "a card"]),
    (["score", *HAND, "--starter", "\x07"], ["\\x07", "not a card"]),
    (["score", "5H\x1b[31m", "5D", "5S", "JC", "--starter", "5C"], ["5H\\x1b[31m", "not a card"]),
    (["score", "\uff15H", "5D", "5S", "JC", "--starter", "5C"], ["\\uff15H", "not a card"]),
    (["score", "5\u2665", "5D", "5S", "JC", "--starter", "5C"], ["5\\u2665", "not a card"]),
    (["score", "\udcff", "5D", "5S", "JC", "--starter", "5C"], ["\\udcff", "not a card"]),
    (["score", "\u0665H", "5D", "5S", "JC", "--starter", "5C"], ["\\u0665H", "not a card"]),
    (["score", "Z" * 100_000, "5D", "5S", "JC", "--starter", "5C"], ["characters more", "not a card"]),
    (["score", *["5H"] * 10_000, "--starter", "5C"], ["five of hearts is given twice"]),
    (["score", *[c for c in ALL_CARDS if c != "5C"], "--starter", "5C"], ["3, 4 or 5 cards, not 51"]),
    (["score", "5H", "5D", "--starter", "5C"], ["3, 4 or 5 cards, not 2"]),
    (["score", *HAND, "--starter", "5H"], ["also in the hand"]),
    (["score", *HAND, "--starter", "5C", "--crib=yes"], ["--crib takes no value"]),
    (["score", *HAND, "--starter", "5C", "--rate", "300"], ["does not know --rate 300"]),
    # discards
    (["discards", "--dealer"], ["Give the 5, 6 or 7 cards you were dealt"]),
    (["discards", *DEALT], ["--dealer", "--pone"]),
    (["discards", *DEALT, "--dealer", "--pone"], ["Give --dealer or --pone, not both"]),
    (["discards", *DEALT, "--dealer", "--lay", "3"], ["--lay takes 1 or 2, not 3"]),
    (["discards", *DEALT, "--dealer", "--lay", "0"], ["--lay takes 1 or 2"]),
    (["discards", *DEALT, "--dealer", "--lay", ""], ["--lay takes 1 or 2, not an empty value"]),
    (["discards", *DEALT, "--dealer", "--lay", "1\n"], ["--lay takes 1 or 2, not 1\\x0a"]),
    (["discards", *DEALT, "--dealer", "--crib-cards", "6"], ["--crib-cards takes 4 or 5"]),
    (["discards", *DEALT, "--dealer", "--crib-cards", "x"], ["--crib-cards takes 4 or 5"]),
    (["discards", *DEALT, "--dealer", "--crib-cards", "5"], ["--crib-cards 5", "--lay 1"]),
    (["discards", *DEALT, "--dealer", "--crib-cards", "5", "--lay", "2"], ["--crib-cards 5", "--lay 1"]),
    (["discards", *DEALT[:4], "--dealer"], ["5, 6 or 7 cards", "not 4"]),
    (["discards", *ALL_CARDS[:8], "--dealer"], ["5, 6 or 7 cards", "not 8"]),
    (["discards", *["5H"] * 10_000, "--pone"], ["given twice"]),
    (["discards", *DEALT, "7C", "--dealer", "--lay", "1"], ["does not leave a hand"]),
    (["discards", "\x1b]0;title\x07", *DEALT[1:], "--dealer"], ["\\x1b]0;title\\x07"]),
    # table
    (["table"], ["Say which table"]),
    (["table", "x\x1b[2J"], ["There is no table of x\\x1b[2J"]),
    (["table", "hands", "cribs"], ["does not know cribs"]),
    # arena
    (["arena"], ["Name two or more players"]),
    (["arena", "easy"], ["two or more different players"]),
    (["arena", "easy", "easy", "--games", "2"], ["two or more different players"]),
    (["arena", "easy", "\x1b[2J"], ["\\x1b[2J"]),
    (["arena", *[f"p{i}" for i in range(10_000)]], ["too few for 10000"]),
    *[([*ARENA, "--games", value], ["--games", "1 to 1,000,000"]) for value in
      ("0", "-5", "nan", "inf", "1e3", "2.5", "", "\u0662")],
    *[([*ARENA, "--players", value], ["--players", "2 to 6"]) for value in ("1", "7", "9" * 30, "two", "-2")],
    *[([*ARENA, "--target", value], ["--target", "31 to 1000"]) for value in ("30", "1001", "-1", "9" * 30, "nan")],
    *[([*ARENA, "--teams", value], ["--teams takes 2 or 3"]) for value in ("1", "4", "two")],
    ([*ARENA, "--variant", "nine-card"], ["--variant", "six-card", "nine-card"]),
    *[([*ARENA, "--seed", value], ["--seed", "18 digits"]) for value in ("9" * 19, "1.5", "nan", "inf", "0x10")],
    *[([*ARENA, "--jobs", value], ["--jobs", "1 or more"]) for value in ("0", "-1", "many", "2.0")],
    ([*ARENA, "--games"], ["--games needs a value"]),
    (["--seed", "5", *ARENA], ["--seed", "after its players"]),
    (["--no-sound", *ARENA], ["--no-sound is an option of the game, not of arena"]),
    # the game's options (each refused before the game could start)
    (["bogus\x1b[31m"], ["bogus\\x1b[31m is not a command"]),
    (["bogus"], ["the commands are play, online, score, discards, table, arena, serve, web, backup, restore and"
                 " admin"]),
    (["score", *HAND, "--starter", ""], ["An empty entry is not a card"]),
    (["--frob"], ["does not know --frob"]),
    (["--s", "1"], ["--s could be --speech, --sound-volume or --seed"]),
    (["--no-text=1"], ["--no-text takes no value"]),
    (["--rate"], ["--rate needs a value", "100 to 400"]),
    (["--rate", "300", "score", *HAND, "--starter", "5C"], ["--rate is an option of the game, not of score"]),
    (["--transcript", "x.txt", "score", *HAND, "--starter", "5C"], ["--transcript is an option of the game"]),
    *[(["--rate", value], ["--rate", "100 to 400"]) for value in ("abc", "50", "401", "nan", "", "-200", "9" * 30)],
    *[(["--volume", value], ["--volume", "10 to 100"]) for value in ("5", "101", "-10", "inf", "1e2")],
    *[(["--sound-volume", value], ["--sound-volume", "10 to 100"]) for value in ("0", "inf", "50%", "\x00")],
    *[(["--pace", value], ["--pace", "0 to 10"]) for value in ("nan", "inf", "-1", "11", "1e3", "-inf", "0x1", "")],
    *[(["--verbosity", value], ["--verbosity", "brief, normal or full"]) for value in ("xyz", "\x1b[31m", "Brief")],
    *[(["play", "--speech", value], ["--speech", "auto, screenreader"]) for value in ("foo", "", "none\x08")],
]


@pytest.mark.parametrize(("argv", "words"), CASES, ids=[repr(c[0])[:60] for c in CASES])
def test_every_bad_value_is_one_sentence(capsys: pytest.CaptureFixture[str], argv: list[str],
                                         words: list[str]) -> None:
    status = main(argv)
    captured = capsys.readouterr()
    assert_refused(status, captured.out, captured.err, *words)


# --- issue 24: serve's files and addresses -----------------------------------------------------------------------

@pytest.mark.parametrize(("name", "words"), [("/dev/zero", ["--password-file", "not an ordinary file"]),
                                              ("/dev/null", ["--password-file", "not an ordinary file"])])
def test_a_password_file_that_is_a_device_is_named_as_one(capsys: pytest.CaptureFixture[str], name: str,
                                                          words: list[str]) -> None:
    status = main(["serve", "--password-file", name])
    captured = capsys.readouterr()
    line = assert_refused(status, captured.out, captured.err, *words)
    assert "does not exist" not in line


@pytest.mark.parametrize("host", ["999.1.1.1", "no-such-host.invalid", "192.0.2.77"])
def test_a_host_that_cannot_be_listened_on_is_one_sentence_and_makes_no_folder(
        capsys: pytest.CaptureFixture[str], host: str, tmp_path: Path) -> None:
    new = tmp_path / "new"
    status = main(["serve", "--data-dir", str(new), "--host", host, "--port", "0"])
    captured = capsys.readouterr()
    line = assert_refused(status, captured.out, captured.err, "--host", host)
    assert "unknown error" not in line.lower()
    assert not new.exists()
