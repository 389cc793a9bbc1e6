"""What a watcher hears: the narration and every one-key answer from the watchers' seat (`watcher_seat`), over
whole matches at several table shapes. A watcher is nobody at the table: nothing is said to them as "you" except
that they are watching, and nothing they hear can crash on a seat that holds no cards."""

from __future__ import annotations

import re
from functools import cache

import pytest

from audiocrib.bots.player import drive, load_player
from audiocrib.engine.events import MatchWon
from audiocrib.engine.game import Game
from audiocrib.engine.phase import Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import watcher_seat
from audiocrib.telling import answers
from audiocrib.telling.listener import Verbosity
from audiocrib.telling.narrator import Narrator

NAMES = ("Ann", "Bob", "Carol", "Dave", "Eve", "Fay")
SHAPES = {
    "2 players": Rules(players=2, target=61),
    "3 players": Rules(players=3, target=61),
    "4 in two teams": Rules(players=4, team_size=2, target=61),
    "6 in two teams of three": Rules(players=6, team_size=3, target=61),
    "five-card": Rules(players=2, variant="five-card", target=61),
    "manual counting with muggins": Rules(players=3, manual_counting=True, muggins=True, target=61),
}
ANSWERS = ("count", "crib_owner", "starter", "table", "scores", "turn", "hand", "held", "last_play", "prompt")
YOU = re.compile(r"\byou(r|rs)?\b", re.IGNORECASE)


@cache
def played(shape: str) -> Game:
    rules = SHAPES[shape]
    game = Game(rules, NAMES[:rules.players], seed=11, manual_seats=(0,) if rules.manual_counting else ())
    return drive(game, [load_player("easy", seed=seat) for seat in range(rules.players)])  # the same match each run


@pytest.mark.parametrize("shape", SHAPES)
def test_a_watcher_is_never_spoken_to_as_a_player(shape: str) -> None:
    game = played(shape)
    watcher = watcher_seat(game.rules)
    heard: list[str] = []
    for verbosity in Verbosity:
        narrator = Narrator(game.names, game.rules, watcher, verbosity)
        heard += narrator.tell_all(event.seen_by(watcher) for event in game.events)
    phases = set()
    for n in range(len(game.events) + 1):
        view = game.at(n).view(watcher)
        phases.add(view.phase)
        heard += [getattr(answers, name)(view) for name in ANSWERS]
    assert {Phase.DISCARD, Phase.PLAY, Phase.MATCH_OVER} <= phases
    spoken_to = {line for line in heard if YOU.search(line)}
    assert spoken_to == {answers.WATCHING_HAND}
    assert any("plays the" in line for line in heard) and any("hand:" in line for line in heard)


def test_a_watcher_hears_who_is_still_to_lay_away_and_holds_nothing() -> None:
    game = played("3 players")
    watcher = watcher_seat(game.rules)
    first = next(n for n in range(len(game.events)) if game.at(n).phase is Phase.DISCARD)
    view = game.at(first).view(watcher)
    assert answers.turn(view) == "Waiting for Ann, Bob and Carol to lay away."
    assert answers.prompt(view) == "Waiting for Ann, Bob and Carol to lay away."
    assert answers.hand(view) == "You are watching, and hold no cards."
    assert answers.held(view) == "Ann holds five cards; Bob holds five cards; Carol holds five cards."
    player = game.at(first).view(0)
    assert answers.turn(player) == "You must lay away one card to your crib. Bob and Carol must lay away too."
    ended = game.view(watcher)
    side = next(e for e in game.events if isinstance(e, MatchWon)).side  # (a skunk wins two game points, not one)
    winner = game.names[next(seat for seat in range(3) if game.rules.side_of(seat) == side)]
    assert answers.turn(ended) == answers.prompt(ended) == f"The match is over; {winner} won."


def test_the_narrator_takes_the_watchers_seat_and_no_other_past_the_table() -> None:
    rules = SHAPES["2 players"]
    assert Narrator(NAMES[:2], rules, watcher_seat(rules)).seat == 2
    with pytest.raises(ValueError, match="There is no such seat at this table"):
        Narrator(NAMES[:2], rules, 3)
