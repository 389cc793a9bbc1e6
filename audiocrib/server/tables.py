"""The server's tables at play: each table's room, its lock, and its task that keeps the computer players moving
and the counting clock running; starting, moves, leaving, chat and seats given to computer players.

`Tables` is the network side's part for what happens at a table. It knows players by id, not connections: what a
room returns is handed to ``send``, which delivers each message to its player's live connection (a player not
connected misses it and catches up when back). A refusal is raised as `ProtocolError` with its one sentence.

The counting clock is the server's: when the game waits on a person's manual count and the table's rules have a
``count_timer``, the room's clock task waits that many seconds on the server's own (monotonic) clock and then
calls `Room.count_timeout` with the log's length it started at; a count made in time moves the log on, so the
timeout finds the game elsewhere and does nothing (and the waiting task is cancelled at once).

The move time limit is the server's too: when a table has one (``move_limit`` seconds), each person the game
waits on has a deadline from the moment it began waiting on them (kept while others move, as when laying away,
and set afresh once they move and are asked again). Ten seconds before it runs out (when the limit is twenty
seconds or more) that person alone hears `TEN_SECONDS`; when it runs out, `Room.late_move` has a computer player
make that one move for them, and the table hears so. One alarm task per room sleeps until the next of these. The
deadlines are the room's `Clocks`, kept in the store: after a restart each clock goes on with the time it had
left (`audiocrib.server.clocks`).

When the server starts, `wake_all` sets going every game under way (computer players and clocks), so nothing
waits for a person to reconnect. A table whose match is over is let go from memory once its final news is sent,
and loaded from the store for the one use if touched again.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable
from functools import partial

from audiocrib.engine.errors import SaveError
from audiocrib.online import messages as m
from audiocrib.online.fields import ProtocolError
from audiocrib.server.clocks import TEN_SECONDS
from audiocrib.server.limits import Limits
from audiocrib.server.ratings import rating_news
from audiocrib.server.records import Status, StoreError
from audiocrib.server.room import Outgoing, Room
from audiocrib.server.store import Store

__all__ = ["NO_TABLE", "Tables"]

NO_TABLE = "You are not at a table; join one first."
Send = Callable[[Outgoing], Awaitable[None]]
Connected = Callable[[int], bool]
AfterSent = Callable[[int, Callable[[], None]], None]
"""Call the function once everything sent so far to the player's live connection has gone out (never, if that
connection closes first)."""
"""Whether a player (by id) has a live connection now."""
_log = logging.getLogger(__name__)


class Tables:
    """The rooms of ``store``'s tables, loaded as they are touched, and each room's computer and clock tasks."""

    def __init__(self, store: Store, limits: Limits, send: Send, connected: Connected = lambda player: False,
                 after_sent: AfterSent = lambda player, then: then()) -> None:
        self.store = store
        self.limits = limits
        self._send = send
        self._is_connected = connected
        self._after_sent = after_sent
        self._rooms: dict[int, Room] = {}
        self._locks: dict[int, asyncio.Lock] = {}  # one per room: its moves and their sending, one at a time
        self._computers: dict[int, asyncio.Task[None]] = {}
        self._clocks: dict[int, tuple[int, asyncio.Task[None]]] = {}  # table -> (log's length, its clock)
        self._alarms: dict[int, tuple[float, asyncio.Task[None]]] = {}  # table -> (when, its task)

    def room(self, table: int, but: int | None = None) -> Room:
        """The table's room, loaded from the store the first time it is touched (since the server started, or
        since it was let go), knowing which of its people are connected (all but ``but``, who is coming back).
        A table that is over is loaded for the one use and not kept."""
        room = self._rooms.get(table)
        if room is None:
            room = Room.load(self.store, table)
            for person in room.people():
                if person != but and self._is_connected(person):
                    room.connected(person, True)  # nobody is told: they were here all along
            if room.status is not Status.OVER:
                self._rooms[table] = room
        return room

    def loaded_room(self, table: int) -> Room | None:
        """The table's room if it is in memory (never loaded for this)."""
        return self._rooms.get(table)

    @property
    def loaded(self) -> frozenset[int]:
        """The tables with anything in memory: a room (with its deadlines), a lock or a task."""
        return frozenset({*self._rooms, *self._locks, *self._computers, *self._clocks, *self._alarms})

    def _let_go(self, room: Room) -> None:
        """Forget a table whose match is over (its final news sent): its room, lock and tasks."""
        table = room.table_id
        for person in room.people():  # the others are told when they are back (`back`)
            if self._is_connected(person):
                self._after_sent(person, partial(self.told_end, person, [table]))
        clock, alarm = self._clocks.pop(table, None), self._alarms.pop(table, None)
        for held in (self._computers.pop(table, None), clock and clock[1], alarm and alarm[1]):
            if held is not None and held is not asyncio.current_task():
                held.cancel()
        if self._rooms.get(table) is room:
            del self._rooms[table]
        lock = self._locks.get(table)
        if lock is not None and not lock.locked():
            del self._locks[table]

    def add(self, room: Room) -> None:
        """A room made with its table."""
        self._rooms[room.table_id] = room

    def _lock(self, room: Room) -> asyncio.Lock:
        return self._locks.setdefault(room.table_id, asyncio.Lock())

    def _at(self, table: int | None) -> Room:
        if table is None:
            raise ProtocolError(NO_TABLE)
        return self.room(table)

    # ----------------------------------------------------------------- what a person does at the table
    async def act(self, player: int, table: int | None, message: m.Message) -> bool:
        """Start, move, leave, give a seat or take it back at the player's table, sending what the room returns;
        True if the player has left the table (for the lobby; during the game, for now: the seat stays theirs and
        the others hear so). The room's refusal is raised as `ProtocolError`."""
        room = self._at(table)
        async with self._lock(room):
            if isinstance(message, m.Start):
                out = room.start(player)
            elif isinstance(message, m.Move):
                out = room.move(player, message.action)
            elif isinstance(message, m.Leave):
                if room.status is Status.OVER:  # nothing to keep a seat for
                    out = [] if room.seat_of(player) is not None else NO_TABLE
                elif room.status is Status.PLAYING and room.seat_of(player) is not None:
                    out = room.step_away(player)  # for now: the seat stays theirs
                else:
                    out = room.leave(player)
            elif isinstance(message, m.GiveSeat):
                out = room.give_seat(player, message.seat, message.level)
            elif isinstance(message, m.TakeSeatBack):
                out = room.take_seat_back(player)
            else:  # pragma: no cover - the caller sends only these
                raise TypeError(message)
            if isinstance(out, str):
                raise ProtocolError(out)
            await self._send(out)
        self.go(room)
        return isinstance(message, m.Leave)

    async def chat(self, sender: int, name: str, table: int | None, text: str) -> None:
        """The line to every connected person at the sender's table, the sender and the watchers included; never
        stored."""
        room = self._at(table)
        if room.seat_of(sender) is None:
            raise ProtocolError(NO_TABLE)
        said = m.ChatFrom(name, text)
        await self._send([(person, said) for person in room.listeners()])

    async def close_table(self, table: int, said: str) -> list[int]:
        """End a table now, whatever its state (a moderator's act): its people are told ``said``, its game is kept
        as it stands, and its room is let go. The people who sat there."""
        room = self.room(table)
        async with self._lock(room):
            people = room.listeners()
            self.store.end(table)
            await self._send([(person, m.Notice(said)) for person in people])
            self._let_go(room)
        return people

    async def connected(self, player: int, up: bool) -> None:
        """The player's connection is up or down: each room they sit in that is loaded tells the others."""
        for room in list(self._rooms.values()):
            if room.seat_of(player) is not None:
                async with self._lock(room):
                    await self._send(room.connected(player, up))

    def back(self, player: int) -> tuple[Outgoing, int | None, list[int]]:
        """A player who said hello is back at each table they sit at: the others hear it, and at a game under
        way the player gets the table, the game so far and their view. So they do for a game that ended while
        they may not have heard its end (`Store.untold_ends`). Also the table to be at (or None), and the tables
        whose end they are sent (`told_end` once it is sent)."""
        out: Outgoing = []
        at: int | None = None
        for table in self.store.tables_of(player):
            room = self.room(table.id, but=player)
            out.extend(room.connected(player, True))
            if room.game is not None:
                caught = room.catch_up(player, since=0)
                out.extend(caught if isinstance(caught, list) else [])
            if at is None or room.game is not None:
                at = table.id
        ended = []
        for table in self.store.untold_ends(player):
            caught = self.room(table.id).catch_up(player, since=0)  # over: loaded for this one use
            if isinstance(caught, list):
                caught += rating_news(self.store.reading, table.id, [player])  # as heard at the end
                out[:0] = caught  # before the tables under way, so the last table heard of is the one to be at
                ended.append(table.id)
        return out, at, ended

    def told_end(self, player: int, tables: list[int]) -> None:
        """The player was sent how these tables' matches ended (written once it went out: `AfterSent`)."""
        for table in tables:
            try:
                self.store.told_end(table, [player])
            except (StoreError, sqlite3.Error):
                _log.exception("Table %d: who heard its end could not be written.", table)

    def wake_all(self) -> int:
        """Set going every table whose game is under way (when the server starts): its computer players, its
        counting clock and its move time limit, so a table of computer players and absent people goes on without
        waiting for someone to come back. A table whose log cannot be read is left as it is (and said in the
        log). How many tables were woken."""
        woken = 0
        for table in self.store.tables(Status.PLAYING):
            try:
                room = self.room(table.id)
            except (StoreError, SaveError):
                _log.exception("Table %d could not be loaded.", table.id)
                continue
            self.go(room)
            woken += 1
        return woken

    def wake(self, player: int) -> None:
        """Set going whatever waits at the player's tables (after a restart, rooms wake as people come back)."""
        for table in self.store.tables_of(player):
            self.go(self.room(table.id))

    # ----------------------------------------------------------------- the rooms' tasks
    def go(self, room: Room) -> None:
        """Set the room's computer players moving if the game waits on one (one task per room, never two), and
        its counting clock running if it waits on a person's count with a timer (or stop a clock no longer due)."""
        if room.status is Status.OVER:
            self._let_go(room)
            return
        self._clock(room)
        self._alarm(room)
        if room.due_computer() is None:
            return
        running = self._computers.get(room.table_id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self._computers_play(room))
        self._computers[room.table_id] = task
        task.add_done_callback(self._done)

    async def _computers_play(self, room: Room) -> None:
        """The computer players' moves, one after another at a person's pace, while the game waits on them."""
        loop = asyncio.get_running_loop()
        while room.due_computer() is not None:
            await asyncio.sleep(self.limits.computer_pace)
            async with self._lock(room):
                if room.due_computer() is None:
                    return
                stamp, action = await loop.run_in_executor(None, room.computer_move)  # only reads the game
                await self._send(room.apply_computer(stamp, action))
            self._clock(room)
            self._alarm(room)
        if room.status is Status.OVER:
            self._let_go(room)

    def _clock(self, room: Room) -> None:
        stamp = room.count_due()
        held = self._clocks.get(room.table_id)
        if held is not None and held[0] == stamp and not held[1].done():
            return
        if held is not None:
            del self._clocks[room.table_id]
            if held[1] is not asyncio.current_task():
                held[1].cancel()
        if stamp is None:
            return
        task = asyncio.get_running_loop().create_task(self._count_clock(room, stamp))
        self._clocks[room.table_id] = stamp, task
        task.add_done_callback(self._done)

    async def _count_clock(self, room: Room, stamp: int) -> None:
        """Wait the table's counting time, then the count not made in time is the timer's."""
        deadline = room.count_deadline()
        if deadline is not None:  # the same clock the views' count_ms reads
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        async with self._lock(room):
            await self._send(room.count_timeout(stamp))
        self.go(room)

    def _alarm(self, room: Room) -> None:
        """Keep the room's deadline for each person the game waits on (at a table with a move time limit), and its
        alarm task set for the next warning or deadline (or stop it when none is due)."""
        when = room.keep_deadlines()
        held = self._alarms.get(room.table_id)
        if held is not None and held[0] == when and not held[1].done():
            return
        if held is not None:
            del self._alarms[room.table_id]
            if held[1] is not asyncio.current_task():
                held[1].cancel()
        if when is None:
            return
        task = asyncio.get_running_loop().create_task(self._ring(room, when))
        self._alarms[room.table_id] = when, task
        task.add_done_callback(self._done)

    async def _ring(self, room: Room, when: float) -> None:
        """At ``when``: warn whoever has ten seconds left, or have a computer player move for one who ran out (one
        move; the game may then wait on others, whose deadlines are looked at afresh)."""
        await asyncio.sleep(max(0.0, when - time.monotonic()))
        async with self._lock(room):
            late, warn = room.clocks.ring(time.monotonic())
            out = room.late_move(late) if late is not None else []
            for seat in warn:
                person = room.person_at(seat)
                if person is not None:
                    out.append((person, m.Notice(TEN_SECONDS)))
            await self._send(out)
        self.go(room)

    def _done(self, task: asyncio.Task[None]) -> None:
        for table, running in list(self._computers.items()):
            if running is task:
                del self._computers[table]
        for table, (_, clock) in list(self._clocks.items()):
            if clock is task:
                del self._clocks[table]
        for table, (_, alarm) in list(self._alarms.items()):
            if alarm is task:
                del self._alarms[table]
        if not task.cancelled() and task.exception() is not None:
            _log.error("A table's task failed.", exc_info=task.exception())

    def close(self) -> None:
        """Stop every room's tasks (on shutdown)."""
        for task in [*self._computers.values(), *(clock for _, clock in self._clocks.values()),
                     *(alarm for _, alarm in self._alarms.values())]:
            task.cancel()

