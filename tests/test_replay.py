"""Hearing a match again, on this computer: a match played through the real shell is kept as it ends, found in the
list of past matches, and its replay says event for event what the player heard in play; the review from the replay
is the one heard at the match's end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from audiocrib.engine.events import Event, MatchWon
from audiocrib.shell.keys import Mode
from audiocrib.shell.pastmatches import FOLDER
from audiocrib.shell.session import Session
from audiocrib.shell.settings import Settings
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.telling.narrator import Verbosity
from tests.shell_driver import Table, play_to_the_end, run

LIVE = tuple[tuple[Event, tuple[str, ...]], ...]
DAYS = ("Today", "Yesterday")
"""How the list names the day a match just played ended (yesterday when it ended just before midnight)."""


def spy_on_the_narration(session: Session, live: list[tuple[Event, tuple[str, ...]]]) -> None:
    """Record what the real shell says for each event it tells, in the order told."""
    tell: Callable[[Event], None] = session._tell

    def spy(event: Event) -> None:
        before = len(speaker_said(session))
        tell(event)
        live.append((event, tuple(speaker_said(session)[before:])))

    setattr(session, "_tell", spy)  # noqa: B010 - an instance's method replaced, for this test only


def speaker_said(session: Session) -> list[str]:
    said: list[str] = session.announcer.speaker.said  # type: ignore[union-attr]
    return said


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    """True if ``part`` is ``whole`` with some lines left out, the rest in the same order."""
    lines = iter(whole)
    return all(any(line == said for said in lines) for line in part)


async def replay_by_right_arrow(table: Table) -> list[tuple[Event, tuple[str, ...]]]:
    """Press the right arrow to the end of the replay; each event it told, with what it said."""
    heard: list[tuple[Event, tuple[str, ...]]] = []
    session = table.session
    while True:
        said = await table.press("right")
        if said and said[-1].startswith("The end of the match"):
            return heard
        heard.append((session._replay_told_event(), tuple(said)))


@pytest.mark.parametrize(("verbosity", "players", "muggins"),
                         [(Verbosity.NORMAL, 2, False), (Verbosity.BRIEF, 2, False), (Verbosity.NORMAL, 3, False),
                          (Verbosity.NORMAL, 2, True)],
                         ids=["normal", "brief", "three players", "muggins called at the pauses"])
def test_the_replay_says_event_for_event_what_the_player_heard(tmp_path: Path, verbosity: Verbosity,
                                                               players: int, muggins: bool) -> None:
    live: list[tuple[Event, tuple[str, ...]]] = []
    review: list[str] = []

    async def script(table: Table) -> None:
        session = table.session
        spy_on_the_narration(session, live)
        assert "Past matches" not in " ".join(table.said)  # none yet: the main menu does not offer them
        await table.press("enter")
        await play_to_the_end(table, at_review=("m", "enter") if muggins else ("enter",))
        review.extend(session.match_review)
        said = await table.press("enter")
        assert said[-1].startswith("Main menu: New game. 1 of 9.")
        assert (await table.press("down", "down", "down", "down"))[-1] == "Past matches. 5 of 9."
        listed = await table.answer("enter")
        assert listed.startswith(tuple(f"Past matches, one, newest first. {day} at " for day in DAYS)), listed
        opponents = "Bob (expert)" if players == 2 else "Bob (expert) and Carol (expert)"
        assert listed.endswith(" 1 of 1.") and f", six-card, you against {opponents}: " in listed
        opened = await table.answer("enter")
        assert opened.startswith("Hearing the match again: you against Bob")
        assert session.mode is Mode.REPLAY
        replayed = await replay_by_right_arrow(table)
        assert replayed == [(event, lines) for event, lines in live if lines]
        log = session.replaying.view_at(len(session.replaying.events)).events  # type: ignore[union-attr]
        assert ([event for event, _ in live] != list(log)) is muggins  # calls at a pause: heard before the deal
        # Enter tells the deals through as the game did: the same words in the same order, with its pauses
        await table.press("home")
        through: list[str] = []
        while session.replay_at < len(session._replay_told.order):
            through += await table.press("enter")
        assert through[-1].startswith("The end of the match: ")
        heard = [line for _, lines in live for line in lines]
        assert [line for line in through if line in set(heard)] == heard
        assert is_subsequence(through[:-1], speaker_said(session)[: speaker_said(session).index(opened)])
        if verbosity is Verbosity.NORMAL:  # the scores at each pause, as the game said them there
            assert any(line.startswith("You have ") for line in through)
        # the coach's review from the replay is the one heard at the match's end
        said = await table.press("g")
        assert said[0].startswith("The coach's review of the match")
        assert tuple(review) == session._review_pages()
        assert review and review[0] in said[0]
        back = await table.answer("escape")
        assert back.startswith(tuple(f"Past matches: {day} at " for day in DAYS)) and back.endswith(" 1 of 1.")
        assert await table.answer("escape") == "Main menu: Past matches. 5 of 9."

    setup = TableSetup(players=players, target=61, levels=("expert",) * (players - 1), muggins=muggins)
    table = run(script, setup=setup, settings=Settings(pace=0.0, typed_ahead=0.0, verbosity=verbosity),
                save_path=tmp_path / "saved-game.json")
    assert not (tmp_path / "saved-game.json").exists()
    assert len(list((tmp_path / FOLDER).iterdir())) == 1
    assert isinstance(live[-1][0], MatchWon) and table.session.mode is Mode.MAIN
