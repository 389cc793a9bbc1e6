"""One table on the server: its game, its computer players, and what each person is sent; who sits where and who
is here is `TableSeats`'s (`audiocrib.server.seating`), which a `Room` extends, and its clocks are `Clocks`'s.

A `Room` is synchronous and knows nothing of the network: the network side calls it from its event loop and sends
what it returns, a list of ``(player id, message)`` pairs (`Outgoing`), or shows the one sentence it returns when
it refuses. Every move is written to the `Store` (committed) before anything about it is returned, and each person
is sent only what their seat may know: the new events as that seat sees them (`Event.seen_by`) and the seat's own
view; never another seat's hidden cards, never the seed.

The game's seats never change once it has begun: a person's seat given to a computer player (`give_seat`) is
played by it from that seat's own view until the person takes it back (`take_seat_back`); the seat still counts by
hand as the person's did. Which computer player keeps which seat is written to the store before anyone hears of
it, so a room loaded after a restart goes on playing those seats. A computer player's random source is set afresh
from the game's seed, the seat and the number of events before each move (as offline), so a server started again
makes the same choices.

The clocks are the network side's to run, but the room says what they time and keeps them (`clocks`, kept in the
store): `count_deadline` (the counting clock, which every view's ``count_ms`` reads), `keep_deadlines` (each
person's move time, which ``move_ms`` reads) and `late_move` (a computer player's move for a person past the
table's move time limit). `look_back` is a seat's view at an earlier point of its own log.

>>> from audiocrib.engine.actions import Discard
>>> from audiocrib.engine.rules import Rules
>>> from audiocrib.server.store import Store
>>> store = Store(":memory:")
>>> ann, _ = store.add_player("Ann")
>>> room = Room.create(store, ann.id, Rules(), ("person", "easy"))
>>> isinstance(room.start(ann.id), list), room.due_computer()
(True, 1)
>>> room.move(ann.id, Discard(1, ()))
'You can make moves only for your own seat.'
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterable, Sequence

from audiocrib.engine.actions import Action, CountTimeout
from audiocrib.engine.errors import IllegalActionError
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.online.fields import COMPUTER_LEVELS
from audiocrib.online.messages import (
    PERSON,
    Message,
    Notice,
    PastView,
    ViewOf,
)
from audiocrib.server.clocks import LATE_LEVEL, YOU_WERE_LATE, Clocks, late_count, late_sentence
from audiocrib.server.computers import Computers
from audiocrib.server.ratings import rating_news
from audiocrib.server.records import Seat, Status, StoreError, Table, name_key
from audiocrib.server.seating import Outgoing, TableSeats
from audiocrib.server.sending import chunks, past_view
from audiocrib.server.store import Store

__all__ = ["ALL_SEATED", "OWN_TIMEOUT", "Outgoing", "Room"]

ALL_SEATED = Notice("Every seat is taken; you can start the game.")
"""Said to the host when the last open seat is taken."""
OWN_TIMEOUT = "Only the table's clock can run out a count; claim your points, or let the clock run out."
"""Refusal of a person's own ``timeout``: the counting clock is the server's alone (a client sending one with time
left would give its count away, or be a way to skip the count without its penalty)."""


class Room(TableSeats):
    """The table ``table`` of ``store``, with its game once begun (``game``: for tests and tools; never sent)."""

    def __init__(self, store: Store, table: Table, game: Game | None) -> None:
        super().__init__(store, table, game)
        self._computers = Computers()
        self.clocks = Clocks(store, table.id)
        """The counting clock and the move time limit's deadlines (the network side runs them)."""
        self._replayed: tuple[Game, int, frozenset[int], Game] | None = None
        """The last game replayed for a look back: (the game, events told, events later, the replay)."""

    @classmethod
    def create(cls, store: Store, host: int, rules: Rules, seats: Sequence[str], public: bool = True,
               move_limit: int | None = None, auto_go: bool = True, advice: bool = False) -> Room:
        """A new table set up by ``host``: each seat ``"person"`` (open) or a computer level; the host takes the
        first person's seat. Raises `StoreError` for what the store refuses (the caller checked the message)."""
        player = store.player(host)
        if player is None:
            raise StoreError("The host of a table must be a player of this server.")
        if PERSON not in seats or any(s != PERSON and s not in COMPUTER_LEVELS for s in seats):
            raise StoreError("A table needs a seat for a person, and each other seat a person's or a computer's.")
        first = list(seats).index(PERSON)
        records = [Seat(host, name=player.name) if i == first else
                   Seat() if kind == PERSON else Seat(computer=kind, name=kind.capitalize())
                   for i, kind in enumerate(seats)]
        table = store.add_table(host, rules, records, public, auto_go, move_limit, advice)
        return cls(store, table, None)

    @classmethod
    def load(cls, store: Store, table_id: int) -> Room:
        """The room of a table already in the store (after a restart): its seats (and the computer players
        keeping people's seats) and move time limit from the store, its game rebuilt and checked by `Store.game`.
        Raises `StoreError` for no such table, `SaveError` for a damaged log."""
        table = store.table(table_id)
        if table is None:
            raise StoreError("There is no such table.")
        game = store.game(table_id) if store.length(table_id) else None
        return cls(store, table, game)

    # ------------------------------------------------------------ before the game
    def join(self, player_id: int, seat: int | None = None) -> Outgoing | str:
        """Sit this person at an open seat (``seat``, or the first open one)."""
        player = self._store.player(player_id)
        if player is None:
            return "Only a player of this server can sit at a table."
        if self.seat_of(player_id) is not None:
            return "You are at this table already."
        if self._table.status is not Status.OPEN:
            return f"Table {self._table.id} has begun; its seats are settled."
        open_seats = self._table.open_seats
        if not open_seats:
            return f"Table {self._table.id} has no seat open."
        if seat is None:
            seat = open_seats[0]
        elif seat not in open_seats:
            return "That seat is not open."
        self._table = self._store.set_seat(self._table.id, seat, Seat(player_id, name=player.name))
        self._connected.add(player_id)  # one sits down from a connection: the others' tables say so at once
        full = [] if self._table.open_seats else [(self._table.host, ALL_SEATED)]
        return [(player_id, self._state(player_id)),
                *self._to_all(Notice(f"{player.name} sits down at the table."), but=player_id, states=True), *full]

    def leave(self, player_id: int) -> Outgoing | str:
        """Leave before the game begins; the host leaving closes the table."""
        seat = self.seat_of(player_id)
        if seat is None:
            return "You are not at this table."
        if self._table.status is not Status.OPEN:
            return "The game has begun; your seat is kept for you until the match is over."
        name = self._table.seats[seat].name
        if player_id == self._table.host:
            others = self._to_all(Notice(f"{name} closed table {self._table.id}."), but=player_id)
            self._store.end(self._table.id)
            self._table = self._refreshed()
            return others
        self._table = self._store.set_seat(self._table.id, seat, Seat())
        return self._to_all(Notice(f"{name} left the table."), states=True)

    def start(self, player_id: int) -> Outgoing | str:
        """The host begins the game once every seat is taken: each person gets the table and their view."""
        if player_id != self._table.host:
            return "Only the host can start the game."
        if self._table.status is not Status.OPEN:
            return f"Table {self._table.id} has begun already."
        if self._table.open_seats:
            return "Every seat must be taken before the game can start."
        try:
            self._name_computers()
            self.game = self._store.start(self._table.id)
        except StoreError as error:
            return str(error)
        self._table = self._refreshed()
        return [pair for person in self.people()
                for pair in ((person, self._state(person)), (person, self._view_of(self._seat(person))))]

    def _name_computers(self) -> None:
        """Give each computer player a name no other seat has (case-blind), now that the people are known."""
        taken = {name_key(s.name) for s in self._table.seats if s.player is not None}
        for index, seat in enumerate(self._table.seats):
            if seat.computer is None:
                continue
            name, number = seat.computer.capitalize(), 1
            while name_key(name) in taken:
                number += 1
                name = f"{seat.computer.capitalize()} {number}"
            taken.add(name_key(name))
            if name != seat.name:
                self._table = self._store.set_seat(self._table.id, index, Seat(computer=seat.computer, name=name))

    # ------------------------------------------------------------ seats kept by computer players
    def give_seat(self, player_id: int, seat: int, level: str) -> Outgoing | str:
        """The host gives an absent person's seat to a computer player of ``level`` until they take it back."""
        if player_id != self._table.host:
            return "Only the host can give a seat to a computer player."
        if not self.playing:
            return "A seat can be given to a computer player only while the game is on."
        if not 0 <= seat < len(self._table.seats) or self._table.seats[seat].player is None:
            return "Only a person's seat can be given to a computer player."
        if self._table.seats[seat].player in self._connected:
            return f"{self._table.seats[seat].name} is here; only an absent player's seat can be given."
        return self.stand_in(seat, level)

    def stand_in(self, seat: int, level: str) -> Outgoing | str:
        """A computer player of ``level`` keeps a person's ``seat`` (for the host, or a move time limit)."""
        if level not in COMPUTER_LEVELS:
            return "There is no computer player of that level."
        if not self.playing or not 0 <= seat < len(self._table.seats) or self._table.seats[seat].player is None:
            return "Only a person's seat can be given to a computer player while the game is on."
        if self._table.seats[seat].stand_in == level:
            return "A computer player of that level has the seat already."
        refused = self._set_stand_in(seat, level)
        if refused:
            return refused
        name = self._table.seats[seat].name
        article = "An" if level[0] in "aeiou" else "A"
        return self._to_all(Notice(f"{article} {level} computer player plays for {name} until {name} is back."),
                            states=True)

    def take_seat_back(self, player_id: int) -> Outgoing | str:
        """The person takes back the seat a computer player kept; they get their view."""
        seat = self.seat_of(player_id)
        if seat is None or self._table.seats[seat].stand_in is None:
            return "No computer player is keeping a seat of yours."
        refused = self._set_stand_in(seat, None)
        if refused:
            return refused
        assert self.game is not None
        name = self._table.seats[seat].name
        return [*self._to_all(Notice(f"{name} has the seat back."), but=player_id, states=True),
                (player_id, self._state(player_id)), (player_id, Notice("You have your seat back.")),
                (player_id, self._view_of(seat))]

    def _set_stand_in(self, seat: int, level: str | None) -> str | None:
        """Write who keeps ``seat`` (committed before anyone hears of it); a sentence if it could not be kept."""
        try:
            self._table = self._store.set_stand_in(self._table.id, seat, level)
        except (StoreError, sqlite3.Error):
            self._table = self._refreshed()  # as written: nobody heard of the change
            return "The server could not keep that change to the seat; please ask again."
        return None

    # ------------------------------------------------------------ moves
    def move(self, player_id: int, action: Action) -> Outgoing | str:
        """A person's move: theirs, legal, written; then what each person is sent."""
        seat = self.seat_of(player_id)
        if seat is None:
            return "You are not at this table."
        if self.game is None:
            return "The game at this table has not begun."
        if not isinstance(action, Action) or type(action.seat) is not int:
            try:
                self.game.verify(action)
            except IllegalActionError as error:
                return str(error)
            return "That is not something a player can do."
        if action.seat != seat:
            return "You can make moves only for your own seat."
        if isinstance(action, CountTimeout):
            return OWN_TIMEOUT
        if self._table.seats[seat].stand_in is not None:
            return "A computer player is keeping your seat; take it back first."
        return self._apply(action)

    def _apply(self, action: Action) -> Outgoing | str:
        """Carry out a move, write its events, and say what each person is sent."""
        game = self.game
        assert game is not None
        first = len(game.events)
        try:
            events = game.apply(action)
        except IllegalActionError as error:
            return str(error)
        try:
            self._store.append(self._table.id, first, events)
        except (StoreError, sqlite3.Error):
            self.game = self._store.game(self._table.id)  # back to what is written: nobody heard of this move
            return "The server could not keep that move; please make it again."
        self.clocks.moved(action.seat)  # their move time starts afresh when the game next waits on them
        if game.over:
            self._table = self._refreshed()
            return [*self._news(first), *rating_news(self._store.reading, self._table.id, self.people())]
        return self._news(first)

    def _news(self, first: int) -> Outgoing:
        """For each person and watcher: the events from ``first`` on as their seat sees them, and their view (the
        watchers' made once for them all, the same messages)."""
        game = self.game
        assert game is not None
        out: Outgoing = []
        due = self.people_due()  # the same for every seat's view
        made: dict[int, list[Message]] = {}
        for person in self.listeners():  # the watchers too, at the watchers' seat
            seat = self._seat(person)
            if seat not in made:
                view = game.view(seat)  # made once for both messages
                made[seat] = [*chunks(view.events, first),
                              self._view(seat, dataclasses.replace(view, events=()), False, due)]
            out.extend((person, said) for said in made[seat])
        return out

    def catch_up(self, player_id: int, since: int = 0) -> Outgoing | str:
        """What a (re)connected person needs: the table, their events from number ``since`` on, and their view."""
        state = self.table_state(player_id)
        if isinstance(state, str):
            return state
        out: Outgoing = [(player_id, state)]
        if self.game is not None:
            seat = self._seat(player_id)
            since = min(max(since, 0), len(self.game.events))
            view = self.game.view(seat)
            out.extend((player_id, news) for news in chunks(view.events, since))
            out.append((player_id, self._view(seat, view)))
        return out

    # ------------------------------------------------------------ computer players
    def due_computer(self) -> int | None:
        """The seat of a computer player the game waits on (the lowest), or None."""
        if not self.playing:
            return None
        assert self.game is not None
        waiting = self.game.waiting_for()
        due = [seat for seat in waiting if self.computer_at(seat) is not None]
        if due and any(self.computer_at(seat) is None and self.game.muggins_open_to(seat) for seat in waiting):
            return None  # a computer laying away would close muggins before a person has even heard the count
        return min(due, default=None)

    def computer_move(self) -> tuple[int, Action]:
        """The due computer player's move from its seat's own view: (events so far, action). Only reads, so it
        may run off the event loop; `apply_computer` checks the game has not moved since."""
        seat = self.due_computer()
        if seat is None or self.game is None:
            raise ValueError("No computer player is due to move.")
        level = self.computer_at(seat)
        assert level is not None
        return self._choice(seat, level)

    def _choice(self, seat: int, level: str) -> tuple[int, Action]:
        """The move a computer player of ``level`` makes at ``seat`` from that seat's view: (events so far, move)."""
        assert self.game is not None
        return self._computers.choice(self.game, seat, level)

    def apply_computer(self, stamp: int, action: Action) -> Outgoing:
        """Make a move from `computer_move` if the game is where it was and that computer player is still due."""
        game = self.game
        if game is None or len(game.events) != stamp or self.computer_at(action.seat) is None:
            return []
        if action.seat not in game.waiting_for():
            return []
        result = self._apply(action)
        return result if isinstance(result, list) else []

    def count_timeout(self, stamp: int) -> Outgoing:
        """The counting clock ran out (the network side keeps it): the seat being counted loses its count, if the
        game is still where it was at ``stamp``."""
        game = self.game
        if game is None or len(game.events) != stamp or game.counting is None:
            return []
        result = self._apply(CountTimeout(game.counting[0]))
        return result if isinstance(result, list) else []

    # ------------------------------------------------------------ the move time limit
    def people_due(self) -> frozenset[int]:
        """The seats of people (not kept by a computer player) the game waits on."""
        if not self.playing:
            return frozenset()
        assert self.game is not None
        return frozenset(seat for seat in self.game.waiting_for()
                         if self._table.seats[seat].player is not None and self.computer_at(seat) is None)

    def keep_deadlines(self) -> float | None:
        """Keep the move deadlines of the people the game waits on (`Clocks.keep_moves`); when the next warning
        or deadline falls, or None."""
        return self.clocks.keep_moves(self.game, self.people_due(), self.move_limit)

    def late_move(self, seat: int) -> Outgoing:
        """The person at ``seat`` took longer than the table's move time limit: a computer player of level
        "medium" makes that one move for them (a count timed by the rules is a timeout, as the counting clock's),
        and everyone hears of it before the move's news. Nothing if the game no longer waits on them."""
        game = self.game
        if game is None or seat not in self.people_due():
            return []
        action = late_count(game) or self._choice(seat, LATE_LEVEL)[1]
        name = self._table.seats[seat].name
        result = self._apply(action)
        if isinstance(result, str):  # pragma: no cover - the computer's move is legal; a store failure is said
            return []
        late = self.person_at(seat)
        return [*self._to_all(Notice(late_sentence(name)), but=late),
                *([(late, Notice(YOU_WERE_LATE))] if late is not None else []), *result]

    # ------------------------------------------------------------ the counting clock
    def count_due(self, due: frozenset[int] | None = None) -> int | None:
        """The log's length if the game waits on a person's manual count and the rules time it, else None
        (``due``: `people_due`, when the caller has it)."""
        return self.clocks.count_due(self.game, self.people_due() if due is None else due)

    def count_deadline(self, due: frozenset[int] | None = None) -> float | None:
        """When (on `time.monotonic`) the count now due runs out, or None (`Clocks.count_deadline`)."""
        return self.clocks.count_deadline(self.count_due(due), self.game.rules.count_timer if self.game else None)

    def count_ms(self, seat: int, due: frozenset[int] | None = None) -> int | None:
        """The milliseconds left on the counting clock when the game waits on ``seat``'s timed count, else None."""
        return self.clocks.count_ms(self.count_deadline(due), self.game, seat)

    def _view(self, seat: int, view: PlayerView, whole: bool = True, due: frozenset[int] | None = None) -> ViewOf:
        """The seat's view with what its clocks say (``due``: `people_due`, when the caller has it)."""
        due = self.people_due() if due is None else due
        self.clocks.keep_moves(self.game, due, self.move_limit)
        return ViewOf(view, self.count_ms(seat, due), whole, *self.clocks.move_ms(seat, due))

    def _view_of(self, seat: int) -> ViewOf:
        """The seat's whole view, with its log (on starting and on taking a seat back). After a move `_news` sends
        the view without its log, which the news just sent carries: the log grows with every move, and sending it
        all again each time would cost the server most of its time."""
        assert self.game is not None
        return self._view(seat, self.game.view(seat))

    # ------------------------------------------------------------ looking back
    def look_back(self, player_id: int, told: int, early: Iterable[int], light: bool = False) -> PastView | str:
        """This person's view as it stood after the first ``told`` events of their log, then those at ``early``
        that come later (ones they heard first): never more than their view now, since it is built from their own
        log's start and events of it (``light``: without them, which the client has)."""
        seat = self.seat_of(player_id)
        if seat is None:
            return "You are not at a table; join one first."
        if self.game is None:
            return "The game at this table has not begun."
        return past_view(self.game, seat, told, tuple(early), self._replay, light)

    def _replay(self, told: int, later: frozenset[int]) -> Game:
        """The game as it stood after ``told`` events and those at ``later``, made once for every person at the
        table: each looks back at the same show when it pauses there, and a replay takes a millisecond or so."""
        game = self.game
        assert game is not None
        kept = self._replayed
        if kept is None or kept[0] is not game or kept[1] != told or kept[2] != later:
            kept = self._replayed = (game, told, later, game.at(told, later))
        return kept[3]
