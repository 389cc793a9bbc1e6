"""The shell needs nothing but a `Table`: a whole game played by keys at a table that holds no game (a recording
of one played first at the offline table) is heard word for word as it was at the offline table."""

from __future__ import annotations

import asyncio
import functools
from dataclasses import fields

from audiocrib.engine.actions import Action, Play
from audiocrib.engine.events import CountRequested
from audiocrib.engine.game import Game
from audiocrib.engine.scoring import score_hand
from audiocrib.shell.offline import OfflineTable
from audiocrib.shell.savedgame import SEAT
from audiocrib.shell.table import Table
from audiocrib.shell.tablesetup import TableSetup
from tests.scripted_table import Recording, ScriptedTable, record_through
from tests.shell_driver import FakeClock, play_to_the_end, run
from tests.shell_driver import Table as Running

SETUP = TableSetup(manual_counting=True, levels=("beginner",))
SEED = 8


async def play_by_ear(table: Running) -> None:
    """New game, then answer every question from what the player's seat knows until the match is over; at each
    pause, the show gone over again (from the table's view as it stood then)."""
    await table.press("enter")
    await play_to_the_end(table, at_review=("c", "s", "h", "n", "enter"))


@functools.cache
def play_offline() -> tuple[list[str], Recording]:
    """The game played at the offline table: what was heard, and its recording."""
    moves: list[tuple[int, Action, int, frozenset[int]]] = []
    made: list[OfflineTable] = []

    def new_table(setup: TableSetup) -> Table:
        table = OfflineTable.new(setup.rules(), setup.names(), setup.levels, SEED, None)
        made.append(table)
        start, waiting = len(table.game.events), table.game.waiting_for()
        made_at.append((start, waiting))
        return record_through(table, moves)

    made_at: list[tuple[int, frozenset[int]]] = []
    heard = run(play_by_ear, setup=SETUP, new_table=new_table).said
    (table,), ((start, waiting),) = made, made_at
    assert table.game.over
    return heard, Recording.of(table.game, moves, start, waiting, table.name, table.levels)


def test_a_whole_game_at_a_table_with_no_game_is_heard_as_at_the_offline_table() -> None:
    heard, recording = play_offline()
    scripted: list[ScriptedTable] = []

    def new_table(setup: TableSetup) -> Table:
        scripted.append(ScriptedTable(recording))
        return scripted[-1]

    again = run(play_by_ear, setup=SETUP, new_table=new_table).said
    (table,) = scripted
    held = (*vars(table).values(), *(getattr(recording, field.name) for field in fields(recording)))
    assert not any(isinstance(value, Game) for value in held)
    assert table.made == len(recording.steps) > 50 and not table.refused  # every recorded move, and no other
    assert "Press Enter for the main menu." in again
    assert again == heard


def test_a_scripted_table_refuses_a_move_it_has_not_recorded_in_one_sentence() -> None:
    _, recording = play_offline()
    table = ScriptedTable(recording)
    table.caught_up()  # the computer player lays away
    card = table.view().hand[0]
    assert table.send(Play(SEAT, card)) == "That is not the move this recorded game goes on with."
    assert table.made == 1 and table.refused == [Play(SEAT, card)]


def test_a_table_that_keeps_the_counting_clock_is_followed_not_overruled() -> None:
    """A table played elsewhere keeps the clock that counts: the shell says its time and warnings, does not stop it
    in the game menu, and never sends a timeout of its own (the table's would come as news)."""
    _, recording = play_offline()
    clock = FakeClock()
    scripted: list[ScriptedTable] = []

    def new_table(setup: TableSetup) -> Table:
        scripted.append(ScriptedTable(recording, count_seconds=20.0))
        return scripted[-1]

    async def script(table: Running) -> None:
        await table.press("enter")
        await play_to_the_end(table, until="count")
        assert "Twenty seconds left to count." in await table.answer("t")
        await table.press("escape")  # the game menu: this table's clock goes on
        clock.now += 11
        back = await table.press("escape")
        assert back[0].startswith("Back to the game.")
        for _ in range(100):  # the warning that fell due in the menu is said back at the table, by the next tick
            if table.said[-1] == "Nine seconds left to count.":
                break
            await asyncio.sleep(0.01)
        assert table.said[-1] == "Nine seconds left to count."
        assert "Nine seconds left to count." in await table.answer("t")
        clock.now += 5
        for _ in range(100):
            await asyncio.sleep(0.01)
            if table.said[-1] == "Four seconds left to count.":
                break
        assert table.said[-1] == "Four seconds left to count."
        clock.now += 10  # past this table's time: its own timeout has not come, so the count is still asked
        await asyncio.sleep(0.2)
        assert table.session.moment == "count"
        asked = next(e for e in reversed(table.session.view().events) if isinstance(e, CountRequested))
        made = scripted[0].made
        await table.press(*str(score_hand(asked.cards, asked.starter, crib=asked.crib).total), "enter")
        assert scripted[0].made == made + 1

    run(script, setup=SETUP, clock=clock, new_table=new_table)
    assert not scripted[0].refused  # no CountTimeout was sent, nor anything else off the recording
