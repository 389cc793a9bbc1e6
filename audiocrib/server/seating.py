"""Who sits at a table on the server, who of them is here, and what each is told of that: the part of a `Room`
that does not need its game (`TableSeats`, which `Room` extends with the game).

Each person hears when another's connection is lost or they leave the table for now, and, only if they heard
that, when that person is back (`connected`, `step_away`); each gets the table as their seat sees it with it.
"""

from __future__ import annotations

from audiocrib.engine.game import Game
from audiocrib.engine.views import watcher_seat
from audiocrib.online.messages import Message, Notice, TableState, TableSummary
from audiocrib.online.messages import Seat as SeatState
from audiocrib.online.sayings import back_line, gone_line, left_for_now_line
from audiocrib.server.ratings import rating_of
from audiocrib.server.records import Status, Table
from audiocrib.server.store import Store
from audiocrib.server.watchers import TableWatch

__all__ = ["Outgoing", "TableSeats"]

Outgoing = list[tuple[int, Message]]
"""What to send: ``(player id, message)`` pairs, in order."""


class TableSeats:
    """The seats of table ``table`` of ``store`` and who of its people is connected; ``game`` once begun."""

    def __init__(self, store: Store, table: Table, game: Game | None) -> None:
        self._store = store
        self._table = table
        self.game = game
        self._connected: set[int] = set()
        self._heard_gone: dict[int, set[int]] = {}  # an absent person -> the people who heard they were gone
        self.watch = TableWatch.load(store, table.id)
        """Who watches (connected, at the watchers' seat) and the host's settings for watchers."""

    @property
    def playing(self) -> bool:
        """True while the game is on (begun, not over)."""
        return self.game is not None and not self.game.over

    # ------------------------------------------------------------ facts
    @property
    def table_id(self) -> int:
        """The table's number."""
        return self._table.id

    @property
    def code(self) -> str:
        """The table's join code."""
        return self._table.code

    @property
    def public(self) -> bool:
        """True if the table is listed in the lobby."""
        return self._table.public

    @property
    def status(self) -> Status:
        """Open, playing or over."""
        return self._table.status

    @property
    def move_limit(self) -> int | None:
        """The seconds a person has for a move (kept with the table), or None for no limit."""
        return self._table.move_limit

    @property
    def host(self) -> int:
        """The host's player id."""
        return self._table.host

    def seat_of(self, player_id: int) -> int | None:
        """The seat of this person at this table, or None."""
        for index, seat in enumerate(self._table.seats):
            if seat.player is not None and seat.player == player_id:
                return index
        return None

    def people(self) -> list[int]:
        """The player ids of the people seated here, in seat order."""
        return [seat.player for seat in self._table.seats if seat.player is not None]

    def listeners(self) -> list[int]:
        """Everyone who hears the table: the people seated here, then the watchers."""
        return [*self.people(), *self.watch.people]

    def summary(self) -> TableSummary:
        """The table as the lobby lists it."""
        host = self._store.player(self._table.host)
        computers = sum(seat.computer is not None or seat.stand_in is not None for seat in self._table.seats)
        return TableSummary(self._table.id, host.name if host else "Nobody", self._table.rules,
                            len(self._table.open_seats), computers, self._table.status is not Status.OPEN,
                            self._table.advice_allowed, watch=self.watch.allowed)

    def table_state(self, player_id: int) -> TableState | str:
        """The table as this seated person (or watcher) sees it: every seat's holder and who is connected."""
        you = self.seat_of(player_id)
        if you is None and player_id not in self.watch.people:
            return "You are not at this table."
        seats = []
        for seat in self._table.seats:
            if seat.computer is not None:
                seats.append(SeatState(seat.name or None, seat.computer, True, person=False))
            else:
                seats.append(SeatState(seat.name or None, seat.stand_in, seat.player in self._connected,
                                       rating=None if seat.player is None else rating_of(self._store.reading,
                                                                                         seat.player)))
        return TableState(self._table.id, None if self._table.public or you is None else self._table.code,
                          self.seat_of(self._table.host) or 0, self._seat(player_id), self._table.rules, tuple(seats),
                          self._table.status is not Status.OPEN, self.move_limit, self._table.advice_allowed,
                          self.watch.info(player_id))

    def _state(self, player_id: int) -> TableState:
        state = self.table_state(player_id)
        assert isinstance(state, TableState)
        return state

    def _to_all(self, make: Message | None = None, but: int | None = None, states: bool = False) -> Outgoing:
        """``make`` (and each person's table state) for every seated person and watcher but ``but``."""
        out: Outgoing = []
        for person in self.listeners():
            if person == but:
                continue
            if states:
                out.append((person, self._state(person)))
            if make is not None:
                out.append((person, make))
        return out

    def person_at(self, seat: int) -> int | None:
        """The player id of the person at ``seat``, or None."""
        return self._table.seats[seat].player if 0 <= seat < len(self._table.seats) else None

    def computer_at(self, seat: int) -> str | None:
        """The level of the computer player at ``seat`` (its own, or keeping a person's seat), or None."""
        return self._table.seats[seat].computer or self._table.seats[seat].stand_in

    def _refreshed(self) -> Table:
        table = self._store.table(self._table.id)
        assert table is not None
        return table

    def _seat(self, player_id: int) -> int:
        """The person's seat, or a watcher's (one past the last)."""
        seat = self.seat_of(player_id)
        if seat is None and player_id in self.watch.people:
            return watcher_seat(self._table.rules)
        assert seat is not None
        return seat

    # ------------------------------------------------------------ connections
    def connected(self, player_id: int, connected: bool) -> Outgoing:
        """The network side says this person's connection is up or down: the others connected hear it went, and
        those of them who heard that hear when it is back (everyone gets the table)."""
        seat = self.seat_of(player_id)
        if seat is None or (player_id in self._connected) == connected:
            return []
        name = self._table.seats[seat].name
        if not connected:
            return self._gone(player_id, gone_line(name, self.playing))
        self._connected.add(player_id)
        heard = self._heard_gone.pop(player_id, set())
        back = Notice(back_line(name))
        return [pair for person in self.listeners() if person != player_id
                for pair in ((person, self._state(person)), *([(person, back)] if person in heard else []))]

    def step_away(self, player_id: int) -> Outgoing:
        """The person chose to leave the table for now while the game is on: the others hear so, and that they
        are back when they are; their seat stays theirs."""
        seat = self.seat_of(player_id)
        if seat is None or player_id not in self._connected:
            return []
        return self._gone(player_id, left_for_now_line(self._table.seats[seat].name))

    def _gone(self, player_id: int, sentence: str) -> Outgoing:
        """The person is gone from the table: ``sentence`` for the others, who are remembered as having heard it."""
        self._connected.discard(player_id)
        self._heard_gone[player_id] = (self._connected | self.watch.people.keys()) - {player_id}
        return self._to_all(Notice(sentence), but=player_id, states=True)
