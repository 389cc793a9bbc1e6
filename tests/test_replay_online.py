"""Hearing a server's match again, end to end: ``audiocrib serve`` on loopback, Ann playing a computer player in the
real shell and Carol watching from the start of the play; once the match is won each finds it in the lobby's Past
matches (Ann among her own, Carol as a public match by its table number) and the replay says, event for event, what
each heard at the table (Carol: from the moment she came to watch)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from audiocrib.engine.events import Event, MatchWon
from audiocrib.shell.keys import Mode
from audiocrib.shell.tablesetup import TableSetup
from tests.online_driver import Player, play_together, running, until
from tests.test_online import sign_in
from tests.test_replay import spy_on_the_narration
from tests.test_serve import Running, serving

pytestmark = pytest.mark.slow

Told = list[tuple[Event, tuple[str, ...]]]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Running]:
    yield from serving(tmp_path / "data")


async def replayed(player: Player) -> Told:
    """Press the right arrow to the end of the replay: each event told, with what was said for it."""
    heard: Told = []
    while True:
        said = await player.press("right")
        if said and said[-1].startswith("The end of the match"):
            return heard
        heard.append((player.session._replay_told_event(), tuple(said)))


def test_a_servers_match_heard_again_says_what_the_player_and_the_watcher_heard(server: Running,
                                                                             tmp_path: Path) -> None:
    ann = Player("Ann", tmp_path / "ann", setup=TableSetup(players=2, target=61, levels=("easy",)))
    carol = Player("Carol", tmp_path / "carol")
    live: dict[str, Told] = {"Ann": [], "Carol": []}
    again: dict[str, Told] = {}

    async def script() -> None:
        async with running(ann, carol):
            spy_on_the_narration(ann.session, live["Ann"])
            spy_on_the_narration(carol.session, live["Carol"])
            await sign_in(ann, server.port)
            await ann.choose("Create a table")
            await ann.press("left")  # one seat for a person: the other is the computer player's
            await ann.choose("Create the table")
            await ann.choose("Start the game")
            await until(lambda: ann.session.moment == "discard", "Ann's first question")
            await sign_in(carol, server.port)
            await carol.choose("Table 1, Ann's")
            await carol.hears(lambda s: s.startswith("You are watching table 1."))
            await play_together([ann])
            await ann.hears("Press Enter for the lobby.")
            for _ in range(400):  # a watcher goes over each show at their own pace: Enter for the next deal
                if any(isinstance(event, MatchWon) for event, _ in live["Carol"]):
                    break
                if carol.session.moment == "review":
                    await carol.press("enter")
                await asyncio.sleep(0.02)

            await ann.press("enter")
            await ann.hears(lambda s: s.startswith("Lobby: "))
            await ann.choose("Past matches")
            await ann.hears(lambda s: s.startswith(("Today at ", "Yesterday at "))  # the match may end before midnight
                            and ", table 1, six-card, you against Easy: " in s)
            await ann.press("enter")
            await ann.hears(lambda s: s.startswith("Hearing the match again: you against Easy, "))
            assert ann.session.mode is Mode.REPLAY
            again["Ann"] = await replayed(ann)

            await carol.hears("Press Enter for the lobby.")
            await carol.press("enter")
            await carol.hears(lambda s: s.startswith("Lobby: "))
            await carol.choose("Past matches")
            await carol.hears("Past matches: none yet; a match is listed here once it is won.")
            await carol.choose("A public match by its table number")
            await carol.type("1")
            await carol.hears(lambda s: ", table 1, six-card, Ann against Easy: " in s)
            await carol.press("enter")
            await carol.hears(lambda s: s.startswith("Hearing the match again: Ann against Easy, "))
            again["Carol"] = await replayed(carol)

    asyncio.run(script())
    ann_heard = [(event, lines) for event, lines in live["Ann"] if lines]
    assert again["Ann"] == ann_heard  # every event Ann was told, with her very words, in order
    carol_heard = [(event, lines) for event, lines in live["Carol"] if lines]
    assert len(carol_heard) > 20 and again["Carol"][-len(carol_heard):] == carol_heard
    assert not any("your hand" in line.lower() for _, lines in again["Carol"] for line in lines)
