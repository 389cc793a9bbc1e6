"""The server's desk for tables: making a table and joining one, as asked by a player who said hello.

`Server` (`audiocrib.server.app`) takes these from `TableDesk`; each refusal is a `ProtocolError` with its
sentence. The room (`audiocrib.server.room`) writes the seats; this side finds the table and checks it can be sat at.
"""

from __future__ import annotations

from collections.abc import Iterable

from audiocrib.engine.numbers import number_words
from audiocrib.online import messages as m
from audiocrib.online.fields import ProtocolError
from audiocrib.server.limits import Limits
from audiocrib.server.records import Player, Seat, Status, Table
from audiocrib.server.room import Room
from audiocrib.server.store import Store
from audiocrib.server.tables import Tables

__all__ = ["Answers", "TableDesk"]

Answers = list[tuple[int | None, m.Message]]
"""What to send after a message: ``(player id, message)`` pairs, None for the connection that sent it."""


class TableDesk:
    """Making and joining tables (a part of `Server`, which has the store, the tables and the limits)."""

    store: Store
    tables: Tables
    limits: Limits

    def _create(self, player: Player, asked: m.CreateTable) -> Table:
        hosting = [t for t in self.store.tables_of(player.id) if t.host == player.id and t.status is Status.OPEN]
        most = self.limits.open_tables_per_player
        if len(hosting) >= most:
            raise ProtocolError(f"You may host at most {number_words(most)} tables that have not begun; start or"
                                " close one first.")
        seats, creator_seated = [], False
        for kind, name in zip(asked.seats, _computer_names(asked.seats), strict=True):
            if kind != m.PERSON:
                seats.append(Seat(computer=kind, name=name))
            elif not creator_seated:
                seats.append(Seat(player.id, name=player.name))
                creator_seated = True
            else:
                seats.append(Seat())
        table = self.store.add_table(player.id, asked.rules, seats, public=asked.public, move_limit=asked.move_limit,
                                     advice=asked.advice)
        room = Room(self.store, table, None)
        self.tables.add(room)
        room.connected(player.id, True)  # nobody else is at the table to hear it
        return table

    def _join(self, player: Player, reference: str) -> tuple[Table, Answers | None]:
        """The table asked for, with the player seated (by its room, which writes the seat), and what the others
        at the table are told (None if the player sat there already)."""
        if reference.isdigit():
            found = self.store.table(int(reference)) if len(reference) <= 18 else None
            if found is None or found.status is Status.OVER:
                raise ProtocolError(f"There is no table {reference} open on this server.")
            if not found.public and _seat_of(found, player) is None:
                raise ProtocolError(f"Table {reference} is private; join it by its code.")
        else:
            found = self.store.table_by_code(reference)
            if found is None:
                raise ProtocolError(f"No table on this server has the code {reference}.")
        table = found
        if _seat_of(table, player) is not None:
            return table, None
        if table.status is not Status.OPEN:
            raise ProtocolError(f"Table {table.id} has begun; its seats are taken.")
        if not table.open_seats:
            raise ProtocolError(f"Table {table.id} has no seat open.")
        room = self.tables.room(table.id)
        out = room.join(player.id)
        if isinstance(out, str):
            raise ProtocolError(out)
        seated = self.store.table(table.id)
        assert seated is not None
        return seated, [(to, message) for to, message in out if to != player.id]

    def _table_state(self, table: int, player: Player) -> m.TableState:
        """The table as its room tells it to this seated player (who is connected is the room's to know)."""
        state = self.tables.room(table).table_state(player.id)
        if isinstance(state, str):
            raise ProtocolError(state)
        return state


def _seat_of(table: Table, player: Player) -> int | None:
    return next((i for i, s in enumerate(table.seats) if s.player == player.id), None)


def _computer_names(kinds: Iterable[str]) -> list[str]:
    """The names of the computer seats: the level ("Easy"), numbered when a table has two of one ("Easy 2")."""
    kinds = list(kinds)
    names, seen = [], dict[str, int]()
    for kind in kinds:
        if kind == m.PERSON:
            names.append("")
            continue
        seen[kind] = seen.get(kind, 0) + 1
        several = kinds.count(kind) > 1
        names.append(kind.capitalize() + (f" {seen[kind]}" if several else ""))
    return names
