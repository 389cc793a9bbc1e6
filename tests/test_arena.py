"""The arena: repeatable for a seed with any number of processes, fair first deals, and tallies that add up."""

from __future__ import annotations

import subprocess
import sys

import pytest

from audiocrib import Game, Rules
from audiocrib.bots.arena import ArenaResult, play_game, player_seed, run_arena, seat_players, wilson
from audiocrib.engine.events import Dealt
from audiocrib.engine.rules import Variant


def test_the_same_seed_gives_the_same_result_with_one_process_or_several() -> None:
    one = run_arena(["easy", "beginner"], games=12, seed=5, jobs=1)
    two = run_arena(["easy", "beginner"], games=12, seed=5, jobs=2)
    assert one.to_json() == two.to_json()
    other = run_arena(["easy", "beginner"], games=12, seed=6, jobs=1)
    assert other.to_json() != one.to_json()


def test_each_player_deals_first_in_one_game_of_each_pair() -> None:
    rules = Rules()
    for seed in range(4):
        first = play_game(["easy", "beginner"], rules, seed, turn=0)
        second = play_game(["easy", "beginner"], rules, seed, turn=1)
        assert first.seats == ("easy", "beginner") and second.seats == ("beginner", "easy")
        assert first.first_dealer == second.first_dealer  # the same cards...
        assert first.seats[first.first_dealer] != second.seats[second.first_dealer]  # ...other player dealing


def test_the_two_games_of_a_self_play_pair_are_two_games() -> None:
    # The same player named twice: the seats swap between the two games of a pair, and each game's players get
    # seeds of their own, so the pair is two different games on the same cards, not one game counted twice.
    names = ["beginner", "audiocrib.bots.beginner:Beginner"]
    rules = Rules()
    for seed in range(3):
        first = play_game(names, rules, seed, turn=0)
        second = play_game(names, rules, seed, turn=1)
        assert first.first_dealer == second.first_dealer
        by_seat = [[(role, peg, hand, crib) for _, role, peg, hand, crib in r.deals] for r in (first, second)]
        assert by_seat[0] != by_seat[1]
        assert play_game(names, rules, seed, turn=0) == first  # still repeatable


def test_every_complete_deal_is_tallied_by_role_and_part() -> None:
    rules = Rules()
    record = play_game(["medium", "easy"], rules, 3, turn=0)
    game = Game(rules, seed=3)
    from audiocrib.bots.player import drive, load_player

    drive(game, [load_player("medium", seed=player_seed(3, 0, 0)), load_player("easy", seed=player_seed(3, 0, 1))])
    last_deal = max(i for i, e in enumerate(game.events) if isinstance(e, Dealt))
    before_last = Game.from_events(game.events[:last_deal], rules)
    assert sum(peg + hand + crib for *_, peg, hand, crib in record.deals) == sum(before_last.scores)
    roles = [role for _, role, *_ in record.deals]
    assert roles.count("dealer") == roles.count("pone") == len(record.deals) // 2
    assert all(crib == 0 for _, role, _, _, crib in record.deals if role == "pone")


def test_the_tally_adds_up() -> None:
    result = run_arena(["medium", "easy"], games=10, seed=2, jobs=1)
    assert result.games == 10 and sum(b.wins for b in result.bots) == 10
    assert all(b.games == 10 for b in result.bots)
    medium, easy = result.bots
    assert medium.deals["dealer"] == easy.deals["pone"] and medium.deals["pone"] == easy.deals["dealer"]
    report = result.report()
    assert "medium won" in report and "The first dealer won" in report and "medium as pone:" in report
    assert report.isascii()


def test_teams_and_larger_tables() -> None:
    rules = Rules(players=6, team_size=3)
    assert seat_players(["easy", "beginner"], rules, 0) == ("easy", "beginner") * 3
    record = play_game(["easy", "beginner"], rules, 1, turn=1)
    assert len(record.winner_seats) == 3 and len({record.seats[s] for s in record.winner_seats}) == 1
    result = run_arena(["easy", "beginner", "medium"], games=3, rules=Rules(players=3), seed=1, jobs=1)
    assert sum(b.wins for b in result.bots) == 3
    five = run_arena(["easy", "beginner"], games=2, rules=Rules(variant=Variant.FIVE_CARD), seed=1, jobs=1)
    assert five.games == 2


def test_the_wilson_interval() -> None:
    low, high = wilson(5600, 10_000)
    assert low < 0.56 < high and high - low == pytest.approx(0.0195, abs=0.0005)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_bad_arenas_are_refused() -> None:
    from audiocrib import RulesError
    from audiocrib.bots.player import PlayerError

    with pytest.raises(PlayerError, match="two or more different players"):
        run_arena(["easy", "easy"], games=2)
    with pytest.raises(PlayerError, match="no computer player called wizard"):
        run_arena(["easy", "wizard"], games=2)
    with pytest.raises(RulesError, match="too few"):
        run_arena(["easy", "beginner", "medium"], games=2, rules=Rules())
    assert isinstance(ArenaResult(("a", "b"), Rules(), 1).report(), str)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "audiocrib", "arena", *args], capture_output=True, text=True,
                          timeout=300)


def test_the_command_reports_and_shows_progress_on_long_runs() -> None:
    result = _cli("easy", "beginner", "--games", "100", "--jobs", "2", "--seed", "4")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("easy against beginner: 100 games of six-card cribbage, 2 players, to 121")
    progress = result.stderr.splitlines()
    assert len(progress) == 10 and progress[-1].startswith("100 games played; easy has won")
    quiet = _cli("easy", "beginner", "--games", "100", "--jobs", "1", "--seed", "4", "--quiet")
    assert quiet.stdout == result.stdout and quiet.stderr == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["easy"], "The arena needs two or more different players."),
        (["easy", "beginner", "--games", "0"], "--games takes a whole number of games from 1 to 1,000,000, not 0."),
        (["easy", "beginner", "--variant", "nine-card"],
         "--variant takes five-card, six-card or seven-card, not nine-card."),
        (["easy", "beginner", "--players", "3", "--teams", "2"], "Teams need 4 or 6 players, not 3."),
        (["easy", "beginner", "--teams", "4"], "--teams takes 2 or 3, not 4."),
        (["easy", "beginner", "--games", "many"],
         "--games takes a whole number of games from 1 to 1,000,000, not many."),
        (["easy", "sage"], "There is no computer player called sage; the levels are beginner, easy, medium, expert."),
    ],
)
def test_bad_commands_are_one_sentence(args: list[str], message: str) -> None:
    result = _cli(*args)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", f"audiocrib: {message}\n")
