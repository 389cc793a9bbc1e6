"""The ``audiocrib`` command as a user runs it: the installed console script, in a real process."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from tests.test_scoring import REFERENCE_CRIBS, REFERENCE_HANDS


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "audiocrib", *args], capture_output=True, text=True,
                          timeout=120)


def test_score_prints_items_then_total() -> None:
    result = run("score", "5H", "5D", "5S", "JC", "--starter", "5C")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[-1] == "total: 29"
    assert lines[0] == "fifteen for 2: 5C JC (running total 2)"
    assert "a double pair royal for 12: 5C 5D 5H 5S (running total 28)" in lines
    assert lines[-2].startswith("said: fifteen two, fifteen four,")
    assert lines[-2].endswith("and nobs is twenty-nine")


def test_score_json() -> None:
    result = run("score", "4c", "5s", "6d", "jh", "--starter", "4h", "--json")
    data = json.loads(result.stdout)
    assert data["total"] == 15
    assert sum(item["points"] for item in data["items"]) == 15
    assert data["items"][-1] == {"kind": "nobs", "cards": ["JH"], "points": 1}


def test_score_crib_flush_needs_the_starter() -> None:
    hand = ["2H", "4H", "6H", "8H"]
    assert run("score", *hand, "--starter", "KC").stdout.splitlines()[-1] == "total: 4"
    assert run("score", *hand, "--starter", "KC", "--crib").stdout.splitlines()[-1] == "total: 0"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["5H", "5D", "5S", "ZZ", "--starter", "5C"],
         "ZZ is not a card: write a rank (A, 2 to 9, T, J, Q or K) then a suit (C, D, H or S), like 5H."),
        (["", "5D", "5S", "JC", "--starter", "5C"], "An empty entry is not a card."),
        (["5H", "5D", "5S", "5H", "--starter", "5C"], "The five of hearts is given twice."),
        (["5H", "5D", "--starter", "5C"], "A hand to count has 3, 4 or 5 cards, not 2."),
        (["5H", "5D", "5S", "JC", "--starter", "5H"], "The starter, the five of hearts, is also in the hand."),
        (["5H", "5D", "5S", "JC"], "Give the starter with --starter, like --starter 5C."),
        (["--starter", "5C"], "Give 3, 4 or 5 cards and the starter, like: audiocrib score 5H 5D 5S JC --starter 5C."),
        (["5H", "5D", "5S", "JC", "--starter", "5C", "--frob"], "audiocrib does not know --frob."),
    ],
)
def test_bad_input_is_one_sentence_and_status_2(args: list[str], message: str) -> None:
    result = run("score", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == f"audiocrib: {message}\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["table", "bogus"], "There is no table of bogus; say hands or cribs."),
        (["table"], "Say which table: audiocrib table hands, or audiocrib table cribs."),
        (["bogus"], "bogus is not a command; the commands are play, online, score, discards, table, arena, serve,"
                    " web, backup, restore and admin."),
    ],
)
def test_bad_commands_are_one_sentence(args: list[str], message: str) -> None:
    result = run(*args)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"audiocrib: {message}\n")


def test_cards_may_be_separated_by_commas() -> None:
    result = run("score", "5H,5D", "5S", "JC", "--starter", "5C")
    assert result.stdout.splitlines()[-1] == "total: 29"


@pytest.mark.parametrize(("which", "reference"), [("hands", REFERENCE_HANDS), ("cribs", REFERENCE_CRIBS)])
def test_table_command(which: str, reference: tuple[int, ...]) -> None:
    result = run("table", which)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[:30] == [f"{points} {count}" for points, count in enumerate(reference)]
    assert lines[30] == ("mean 4.769152" if which == "hands" else "mean 4.734819")


def test_console_script_is_installed() -> None:
    beside = pathlib.Path(sys.executable).parent / ("audiocrib.exe" if sys.platform == "win32" else "audiocrib")
    script = str(beside) if beside.exists() else shutil.which("audiocrib")
    assert script is not None, "the audiocrib console script is not installed"
    result = subprocess.run([script, "score", "7H", "8H", "8C", "2D", "--starter", "5S"],
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.splitlines()[-1] == "total: 10"
