"""The server's desk for watchers: watching a table under way, what a watcher may send there, and the host's say
over the watchers (`audiocrib.online.watching` has the messages).

A watcher is one more listener of the table's room (`TableSeats.watch`), at the watchers' seat, one past the last
(`watcher_seat`): the room sends them each move's news and view as that seat sees it (no hand, no crib before it
is shown), the notices and the players' chat. A watcher makes no move: a move, a start, or a seat given or taken
back from one is refused with `WATCHER_MAKES_NO_MOVES`. Their chat goes to the other watchers only, unless the
host lets it through to the players. The players hear "Carol is watching." the first time Carol watches the table,
not when she comes back after a drop (her client watches again on its new connection and is caught up).

Watching is refused in one sentence: a table not under way, a private table asked for by its number, a table the
host made "no watchers", one with `MAX_WATCHERS` watching, and watching too often from one address (as many tables
as `WATCH_BURST` at once, then one every `WATCH_EVERY` seconds: each is the whole game so far to send).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from audiocrib.engine.views import watcher_seat
from audiocrib.online import messages as m
from audiocrib.online.fields import ProtocolError
from audiocrib.online.watching import (
    MAX_WATCHERS,
    WATCH_CLIENT_MESSAGES,
    WATCHER_MAKES_NO_MOVES,
    StopWatching,
    Watch,
    WatchersLeave,
    WatchSettings,
    full_line,
)
from audiocrib.server.limits import TokenBucket
from audiocrib.server.records import Player, Status, Table
from audiocrib.server.room import Outgoing, Room
from audiocrib.server.sending import past_view
from audiocrib.server.store import Store
from audiocrib.server.tables import NO_TABLE, Tables

__all__ = ["NOBODY_HEARD", "WATCH_BURST", "WATCH_EVERY", "WATCH_TOO_FAST", "Watching"]

WATCH_BURST = 10
WATCH_EVERY = 3.0
WATCH_TOO_FAST = "You are starting to watch tables too fast; wait a few seconds."
AT_A_TABLE = "You are at a table; leave it first to watch another."
NOT_WATCHING = "You are not watching a table."
_WATCHER_SENDS = (m.Start, m.Move, m.Leave, m.GiveSeat, m.TakeSeatBack, m.Chat, m.LookBack, m.Join, m.CreateTable)
"""What a watcher sends about the table they watch that is answered here, not as a seated person's."""


class Connection(Protocol):
    """What the desk reads and changes of a connection (`audiocrib.server.app`'s)."""

    player: Player | None
    table: int | None
    remote: str
    chats: TokenBucket


Answers = list[tuple[int | None, m.Message]]


NOBODY_HEARD = "Nobody else is watching, so nobody heard that."
"""To a watcher whose chat went to the other watchers only, when there are none."""


class Watching:
    """The watchers of the server's tables: ``tables``'s rooms, ``send`` to deliver, ``lobby`` for a page of it,
    ``join`` for a watch of a table where the player has a seat, ``connection_of`` a player's live connection,
    ``chat_refusal`` a muted player's refusal (or None)."""

    def __init__(self, store: Store, tables: Tables, send: Callable[[Outgoing], Awaitable[None]],
                 lobby: Callable[[], m.Lobby], join: Callable[[Any, m.Join], Answers],
                 connection_of: Callable[[int], Connection | None],
                 chat_refusal: Callable[[str], str | None]) -> None:
        self._store = store
        self._tables = tables
        self._send = send
        self._lobby = lobby
        self._join = join
        self._connection_of = connection_of
        self._chat_refusal = chat_refusal
        self._watching: dict[int, int] = {}  # player id -> the table they watch
        self._buckets: dict[str, TokenBucket] = {}  # address -> its watches lately

    def routes(self, connection: Connection, message: m.Message) -> bool:
        """True for a message this desk answers: a watch message, or a watcher's message about their table."""
        if isinstance(message, WATCH_CLIENT_MESSAGES):
            return True
        if connection.player is None or connection.player.id not in self._watching:
            return False
        if connection.table != self._watching[connection.player.id]:  # the table was closed under them
            self.stop(connection, connection.player.id)
            return False
        return isinstance(message, _WATCHER_SENDS)

    async def answer(self, connection: Connection, message: m.Message) -> Answers:
        """The answers to ``message`` for the connection (others are sent theirs); a refusal raises
        `ProtocolError` with its sentence."""
        player = connection.player
        if player is None:
            raise ProtocolError("Say hello first: the first message on a connection is hello.")
        if isinstance(message, Watch):
            return await self._watch(connection, player, message.table)
        if isinstance(message, WatchersLeave | WatchSettings):
            await self._host(connection, player, message)
            return []
        table = self._watching.get(player.id)
        if isinstance(message, StopWatching | m.Leave):
            if table is None:
                raise ProtocolError(NOT_WATCHING)
            room = self._tables.room(table)
            went = room.watch.went(player.id)
            self.stop(connection, player.id)
            if went:
                await self._send([(person, m.Notice(went)) for person in room.people()])
            return [(None, self._lobby())]
        if table is None:  # pragma: no cover - `routes` sends only a watcher's messages on
            raise ProtocolError(NOT_WATCHING)
        room = self._tables.room(table)
        if isinstance(message, m.Join | m.CreateTable):
            raise ProtocolError(f"You are watching table {table}; stop watching it first.")
        if isinstance(message, m.Chat):
            await self._chat(connection, player, room, message.text)
            return []
        if isinstance(message, m.LookBack):
            if room.game is None:
                raise ProtocolError("The game at this table has not begun.")
            past = past_view(room.game, watcher_seat(room.game.rules), message.told, message.early,
                             light=message.light)
            if isinstance(past, str):
                raise ProtocolError(past)
            return [(None, past)]
        raise ProtocolError(WATCHER_MAKES_NO_MOVES)

    # ----------------------------------------------------------------- watching and stopping
    async def _watch(self, connection: Connection, player: Player, reference: str) -> Answers:
        bucket = self._bucket(connection.remote)
        if not bucket.take():
            raise ProtocolError(WATCH_TOO_FAST)
        table = self._find(reference)
        if any(seat.player == player.id for seat in table.seats):  # one's own table: back to the seat
            self.stop(connection, player.id)
            return self._join(connection, m.Join(reference))
        if connection.table is not None and self._watching.get(player.id) != connection.table:
            raise ProtocolError(AT_A_TABLE)
        if table.status is Status.OPEN:
            raise ProtocolError(f"Table {table.id} has not begun; there is nothing to watch yet.")
        room = self._tables.room(table.id)
        if room.status is not Status.PLAYING or room.game is None:
            raise ProtocolError(f"The match at table {table.id} is over; there is nothing to watch.")
        if not room.watch.allowed:
            raise ProtocolError(f"Table {table.id} has no watchers allowed.")
        if player.id not in room.watch.people and len(room.watch.people) >= MAX_WATCHERS:
            raise ProtocolError(full_line(table.id))
        if self._watching.get(player.id, table.id) != table.id:
            self.stop(connection, player.id)  # watching another table: that one first
        self._watching[player.id] = connection.table = table.id
        heard = room.watch.add(player.id, player.name)
        caught = room.catch_up(player.id, since=0)
        assert isinstance(caught, list)
        told = m.Notice(heard)
        # the catch-up and the news that follows it are sent in order: nothing awaits between here and the outbox
        await self._send([*caught, *((person, told) for person in room.listeners() if heard and person != player.id)])
        return []

    def _find(self, reference: str) -> Table:
        """The table asked for by number (a public one) or code, or the sentence that refuses it."""
        if reference.isdigit():
            found = self._store.table(int(reference)) if len(reference) <= 18 else None
            if found is None or found.status is Status.OVER:
                raise ProtocolError(f"There is no table {reference} being played on this server.")
            if not found.public:
                raise ProtocolError(f"Table {reference} is private; watch it by its code.")
            return found
        found = self._store.table_by_code(reference)
        if found is None or found.status is Status.OVER:
            raise ProtocolError(f"No table being played on this server has the code {reference}.")
        return found

    def _bucket(self, address: str) -> TokenBucket:
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) > 10_000:  # forget the addresses that have not watched lately
                self._buckets = {a: b for a, b in self._buckets.items() if not b.full}
            bucket = self._buckets[address] = TokenBucket(1 / WATCH_EVERY, WATCH_BURST)
        return bucket

    def stop(self, connection: Connection | None, player: int) -> None:
        """``player`` watches no more (they stopped, were asked to leave, or their connection is gone)."""
        table = self._watching.pop(player, None)
        if table is None:
            return
        if connection is not None and connection.table == table:
            connection.table = None
        room = self._tables.loaded_room(table)
        if room is not None:
            room.watch.people.pop(player, None)

    def gone(self, player: int) -> None:
        """The player's connection is closed: they watch no more (their client watches again when back)."""
        self.stop(None, player)

    # ----------------------------------------------------------------- a watcher's chat
    async def _chat(self, connection: Connection, player: Player, room: Room, text: str) -> None:
        if not connection.chats.take():
            raise ProtocolError("You are chatting too fast; wait a few seconds before the next line.")
        muted = self._chat_refusal(player.name)
        if muted is not None:
            raise ProtocolError(muted)
        said = m.ChatFrom(player.name, text)
        hearers = room.listeners() if room.watch.chat else list(room.watch.people)
        alone = hearers == [player.id]  # said, but to nobody else: the watcher is told so
        await self._send([*((person, said) for person in hearers),
                          *(((player.id, m.Notice(NOBODY_HEARD)),) if alone else ())])

    # ----------------------------------------------------------------- the host's say
    async def _host(self, connection: Connection, player: Player, message: WatchersLeave | WatchSettings) -> None:
        if connection.table is None:
            raise ProtocolError(NO_TABLE)
        room = self._tables.room(connection.table)
        if room.host != player.id or room.seat_of(player.id) is None:
            raise ProtocolError("Only the host can ask the watchers to leave." if isinstance(message, WatchersLeave)
                                else "Only the host can choose who may watch the table.")
        if isinstance(message, WatchersLeave):
            if not room.watch.people:
                await self._send([(player.id, m.Notice("Nobody is watching this table."))])
                return
            await self._send_away(room, f"{player.name} asked the watchers to leave.", player.id)
            return
        if (message.allowed, message.chat) == (room.watch.allowed, room.watch.chat):
            await self._send([(player.id, m.Notice("The table's watchers are as you ask already."))])
            return
        was = room.watch.allowed, room.watch.chat
        room.watch.keep(message.allowed, message.chat)
        said: dict[bool, list[str]] = {False: [], True: []}  # to the others, and to the host herself
        for host, who in ((False, player.name), (True, "You")):
            if message.allowed != was[0]:
                said[host].append(f"{who} {'allow' if host else 'allows'} {'' if message.allowed else 'no '}watchers"
                                  " at this table.")
            if message.chat != was[1] and message.allowed:  # with no watchers, where their chat goes is moot
                said[host].append(f"{who} {'let' if host else 'lets'} the watchers' chat through to the players."
                                  if message.chat else f"The watchers' chat goes to the other watchers only, as"
                                  f" {'you ask' if host else player.name + ' asks'}.")
        out: Outgoing = []
        for person in room.listeners():
            state = room.table_state(person)
            notice = m.Notice(" ".join(said[person == player.id]))
            out += [(person, notice)] if isinstance(state, str) else [(person, state), (person, notice)]
        await self._send(out)
        if not message.allowed and room.watch.people:
            await self._send_away(room, "")

    async def _send_away(self, room: Room, said: str, host: int | None = None) -> None:
        """Every watcher of ``room`` to the lobby, told ``said`` (and the players too; ``host``, who asked, is
        told in her own words)."""
        watchers = list(room.watch.people)
        for watcher in watchers:
            room.watch.went(watcher)  # their return is told
            self.stop(self._connection_of(watcher), watcher)
        out: Outgoing = [(watcher, m.Notice(said)) for watcher in watchers] if said else []
        out += [(watcher, self._lobby()) for watcher in watchers]  # a lobby unasked: the table is gone for them
        mine = "You asked the watchers to leave."
        out += [(person, m.Notice(mine if person == host else said)) for person in room.people()] if said else []
        await self._send(out)
