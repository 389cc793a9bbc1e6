"""The server's store: players, tables and every game's log in one SQLite file, written so that nothing answered
is ever lost.

The file is in WAL mode. By default (``synchronous=FULL``) a write returns only once it is on disk. The server's
store is opened with ``later=True`` (``synchronous=NORMAL``): a write returns once it is in the write-ahead log,
which a killed process cannot lose, and `sync` (called by the server's `audiocrib.server.outbox` on a thread of its
own, before anyone is told of the write) puts every write so far on disk with one ``fsync``; its checkpoints are
made on that thread too, with a connection of their own (`checkpointer`). Either way, whatever the server has told
anyone survives a kill or a power cut. Each game is kept as its header (rules, names, settings) and its
events, one row each, in order; a game is rebuilt by the engine's own loading, which plays the moves again from
the seed and refuses a log that does not follow (`audiocrib.engine.errors.SaveError`).

Secrets: a player's tokens are kept only as their SHA-256, a password only as its Argon2id hash
(`audiocrib.server.account_store`); a game's seed is kept in its table's row and leaves the
store only inside the `Game` that `start` and `game` rebuild.

One `Store` holds one connection, for one thread (the server's event loop); only `sync` and `checkpointer` may
be called from another.

>>> from audiocrib.engine.rules import Rules
>>> store = Store(":memory:")
>>> ann, token = store.add_player("Ann")
>>> store.player_by_token(token) == ann
True
>>> table = store.add_table(ann.id, Rules(), [Seat(ann.id, name="Ann"), Seat(computer="easy", name="Easy")])
>>> game = store.start(table.id)
>>> store.game(table.id).state_key() == game.state_key()
True
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from audiocrib.engine.events import Event, MatchWon, event_row
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.engine.saving import save_value
from audiocrib.engine.text import own_word
from audiocrib.online.accounts import protected_name
from audiocrib.server.account_store import AccountStore
from audiocrib.server.past_matches import record_end
from audiocrib.server.rating_schema import RATINGS_VERSION
from audiocrib.server.ratings import rate_match, rebuild
from audiocrib.server.records import (
    Player,
    Seat,
    Status,
    StoreError,
    Table,
    name_key,
    new_code,
    new_token,
    read_code,
    token_hash,
)
from audiocrib.server.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION

__all__ = ["SCHEMA_VERSION", "Player", "Seat", "Status", "Store", "StoreError", "Table"]

_TABLE_COLUMNS = "id, code, host, public, rules, auto_go, status, move_limit, advice"


class Store(AccountStore):
    """The server's SQLite file at ``path`` (created with its folder if new; ":memory:" for a store that
    vanishes). Refuses a file of another schema version with a `StoreError`."""

    def __init__(self, path: str | os.PathLike[str], later: bool = False) -> None:
        self._path = str(path)
        if self._path != ":memory:":
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._db = sqlite3.connect(path, isolation_level=None)  # transactions are begun and committed by hand
        self._playing: dict[int, int] = {}  # playing table -> its log's length, as this store last wrote it
        self.commits = 0
        """Write transactions committed through this store (each in the log when counted)."""
        self.on_table: Callable[[int], None] | None = None
        """Told the id of each table made or changed (seats, start, end), once written: the lobby's summary."""
        self.later = later and self._path != ":memory:"
        """True when a commit is on disk only after `sync` (the server's store); False when each is at once (or,
        in memory, never)."""
        self._log_handle: int | None = None
        self._handle_lock = threading.Lock()
        try:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute(f"PRAGMA synchronous = {'NORMAL' if self.later else 'FULL'}")
            if self.later:  # the outbox's thread checkpoints; here one would stop every table for it
                self._db.execute("PRAGMA wal_autocheckpoint = 0")
                self._db.execute(f"PRAGMA journal_size_limit = {64 * 2**20}")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA busy_timeout = 5000")
            self._open_schema()
        except BaseException:
            self._db.close()
            raise

    def _open_schema(self) -> None:
        with self._writing():
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                if self._db.execute("SELECT COUNT(*) FROM sqlite_schema").fetchone()[0]:
                    raise StoreError("This file is not an audiocrib server's data.")
                for statement in SCHEMA.split(";\n"):  # one by one: executescript would commit midway
                    if statement.strip():
                        self._db.execute(statement)
                version = 1
            elif not 1 <= version <= SCHEMA_VERSION:
                raise StoreError("This server's data is from another version of audiocrib.")
            for statements in MIGRATIONS[version - 1:]:
                for statement in statements:
                    self._db.execute(statement)
            if version < RATINGS_VERSION:  # the matches won before ratings were kept count too
                rebuild(self._db)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        """Close the file (everything written is on disk already, or put there now)."""
        with self._handle_lock:
            if self._log_handle is not None:
                os.close(self._log_handle)
                self._log_handle = None
        self._db.close()

    def sync(self) -> None:
        """Put every write committed so far on disk (one ``fsync`` of the write-ahead log); nothing to do for a
        store that writes each to disk at once. Safe from any thread; an `OSError` if the disk refuses."""
        if not self.later:
            return
        with self._handle_lock:
            if self._log_handle is None:  # the log exists from the first write on (the schema's, at the latest)
                self._log_handle = os.open(self._path + "-wal", os.O_RDWR | getattr(os, "O_BINARY", 0))
            os.fsync(self._log_handle)

    def checkpointer(self) -> sqlite3.Connection:
        """A connection of its own to this store's file, for the thread that checkpoints it."""
        connection = sqlite3.connect(self._path, isolation_level=None)
        connection.execute("PRAGMA busy_timeout = 5000")
        return connection

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One transaction, committed (and on disk) when the block ends, rolled back if it raises."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")
            self.commits += 1
        except BaseException:
            if self._db.in_transaction:  # a refusal, or a commit that failed (a full disk): nothing is kept
                self._db.execute("ROLLBACK")
            raise

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One transaction on the store's connection, for the records kept beside the games (moderation's,
        `audiocrib.server.moderation`): committed when the block ends, rolled back if it raises."""
        with self._writing():
            yield self._db

    @property
    def reading(self) -> sqlite3.Connection:
        """The store's connection, for reading the records kept beside the games."""
        return self._db

    # ----------------------------------------------------------------- players
    def add_player(self, name: str) -> tuple[Player, str]:
        """A new player called ``name`` and their secret token (given once: the store keeps only its hash).

        The caller checks the name's length and characters; the store refuses one already taken, whatever its
        case or Unicode form.
        """
        if own_word(name):
            raise StoreError(f"The name {name} is what every player hears for themselves; choose another.")
        key = name_key(name)
        token = new_token()
        digest = token_hash(token)
        with self._writing():
            taken = self._db.execute("SELECT password_hash FROM players WHERE name_key = ?", (key,)).fetchone()
            if taken and taken[0] is not None:
                raise StoreError(protected_name(name))
            if taken:
                raise StoreError(f"The name {name} is taken on this server; choose another.")
            cursor = self._db.execute(
                "INSERT INTO players (name, name_key, token_hash, created) VALUES (?, ?, ?, ?)",
                (_nfc(name), key, digest, time.time()),
            )
            assert cursor.lastrowid is not None
            self._keep_token(cursor.lastrowid, token)
        return Player(cursor.lastrowid, _nfc(name)), token

    def player(self, player_id: int) -> Player | None:
        """The player with this id, or None (for anything that is not an id too)."""
        if not _is_id(player_id):
            return None
        row = self._db.execute("SELECT id, name FROM players WHERE id = ?", (player_id,)).fetchone()
        return Player(*row) if row else None

    # ----------------------------------------------------------------- tables
    def add_table(self, host: int, rules: Rules, seats: Sequence[Seat], public: bool = True,
                  auto_go: bool = True, move_limit: int | None = None, advice: bool = False) -> Table:
        """A new open table set up by ``host``, with a fresh join code and a secret seed; ``move_limit`` is the
        seconds a person has for a move (None: no limit), and ``advice`` whether the host allows the coach's
        advice, both kept with the table."""
        if len(seats) != rules.players:
            raise StoreError(f"This table needs {rules.players} seats, not {len(seats)}.")
        if move_limit is not None and not (type(move_limit) is int and 0 < move_limit < 2**31):
            raise StoreError("A move time limit is a whole number of seconds.")
        if type(advice) is not bool:
            raise StoreError("Whether advice is allowed is true or false.")
        with self._writing():
            if self.player(host) is None:
                raise StoreError("The host of a table must be a player of this server.")
            code = self._free_code()
            cursor = self._db.execute(
                "INSERT INTO tables (code, host, public, rules, auto_go, status, seed, created, move_limit, advice)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (code, host, public, json.dumps(rules.to_json()), auto_go, Status.OPEN, secrets.randbits(63),
                 time.time(), move_limit, advice),
            )
            assert cursor.lastrowid is not None
            for index, seat in enumerate(seats):
                self._write_seat(cursor.lastrowid, index, seat, new=True)
        table = self.table(cursor.lastrowid)
        assert table is not None
        self.changed(table.id)
        return table

    def changed(self, table: int) -> None:
        """Tell the lobby's board (``on_table``) that table ``table`` changed, as the store does of its own changes."""
        if self.on_table is not None:
            self.on_table(table)

    def _free_code(self) -> str:
        for _ in range(100):
            code = new_code()
            if not self._db.execute("SELECT 1 FROM tables WHERE code = ? AND status != 'over'", (code,)).fetchone():
                return code
        raise StoreError("The server has too many open tables to make another.")

    def _write_seat(self, table: int, index: int, seat: Seat, new: bool = False) -> None:
        if seat.stand_in is not None:  # kept by `set_stand_in` alone, once the game is on
            raise StoreError("A computer player can keep a seat only once the game is on.")
        if seat.player is not None and self.player(seat.player) is None:
            raise StoreError("A seat can be taken only by a player of this server.")
        sql = ("INSERT INTO seats (player, computer, name, table_id, seat) VALUES (?, ?, ?, ?, ?)" if new else
               "UPDATE seats SET player = ?, computer = ?, name = ? WHERE table_id = ? AND seat = ?")
        self._db.execute(sql, (seat.player, seat.computer, seat.name, table, index))

    def set_seat(self, table: int, index: int, seat: Seat) -> Table:
        """Give seat ``index`` of an open table to a person or a computer player, or open it again."""
        with self._writing():
            found = self._table_row(table)
            if Status(found["status"]) is not Status.OPEN:
                raise StoreError(f"Table {table} has begun; its seats are settled.")
            if not 0 <= index < Rules.from_json(json.loads(found["rules"])).players:
                raise StoreError(f"Table {table} has no seat {index + 1}.")
            self._write_seat(table, index, seat)
        self.changed(table)
        updated = self.table(table)
        assert updated is not None
        return updated

    def set_stand_in(self, table: int, index: int, level: str | None) -> Table:
        """Have a computer player of ``level`` keep the person's seat ``index`` of a playing table, or (None) give
        it back to its person; kept over a restart until it is given back."""
        if level is not None and (not isinstance(level, str) or not level):
            raise StoreError("There is no computer player of that level.")
        with self._writing():
            found = self._table_row(table)
            if Status(found["status"]) is not Status.PLAYING:
                raise StoreError(f"Table {table} is not playing.")
            seat = self._db.execute("SELECT player FROM seats WHERE table_id = ? AND seat = ?",
                                    (table, index)).fetchone() if type(index) is int else None
            if seat is None or seat[0] is None:
                raise StoreError("Only a person's seat can be kept by a computer player.")
            self._db.execute("UPDATE seats SET stand_in = ? WHERE table_id = ? AND seat = ?", (level, table, index))
        self.changed(table)
        updated = self.table(table)
        assert updated is not None
        return updated

    def table(self, table: int) -> Table | None:
        """The table with this id, or None (for anything that is not an id too)."""
        if not _is_id(table):
            return None
        row = self._db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table,)).fetchone()
        return self._record(row) if row else None

    def table_by_code(self, code: str) -> Table | None:
        """The table that is not over with this join code (typed in any case, spaces or hyphens), or None."""
        wanted = read_code(code)
        if wanted is None:
            return None
        row = self._db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE code = ? AND status != 'over'",
                               (wanted,)).fetchone()
        return self._record(row) if row else None

    def tables(self, *statuses: Status) -> list[Table]:
        """Every table in one of ``statuses`` (all tables if none is given), oldest first."""
        wanted = [s.value for s in statuses or tuple(Status)]
        marks = ", ".join("?" * len(wanted))
        rows = self._db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ({marks}) ORDER BY id",
                                wanted).fetchall()
        return [self._record(row) for row in rows]

    def tables_of(self, player: int) -> list[Table]:
        """The tables not over where ``player`` has a seat (to find their seats again after a disconnect)."""
        if not _is_id(player):
            return []
        rows = self._db.execute(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status != 'over' AND id IN"
            " (SELECT table_id FROM seats WHERE player = ?) ORDER BY id", (player,)).fetchall()
        return [self._record(row) for row in rows]

    def untold_ends(self, player: int) -> list[Table]:
        """The tables whose match ended while ``player`` may not have heard the end (their connection was down,
        or the server stopped after writing the last move and before sending its news)."""
        if not _is_id(player):
            return []
        rows = self._db.execute(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status = 'over' AND id IN"
            " (SELECT table_id FROM seats WHERE player = ? AND untold = 1) ORDER BY id", (player,)).fetchall()
        return [self._record(row) for row in rows]

    def told_end(self, table: int, players: Iterable[int]) -> None:
        """``players`` have been sent how the table's match ended (`untold_ends` no longer gives it them)."""
        players = [p for p in players if _is_id(p)]
        if not _is_id(table) or not players:
            return
        with self._writing():
            self._db.executemany("UPDATE seats SET untold = 0 WHERE table_id = ? AND player = ? AND untold = 1",
                                 [(table, player) for player in players])

    def _record(self, row: Sequence[Any]) -> Table:
        table_id, code, host, public, rules, auto_go, status, move_limit, advice = row
        seats = tuple(Seat(*seat) for seat in self._db.execute(
            "SELECT player, computer, name, stand_in FROM seats WHERE table_id = ? ORDER BY seat", (table_id,)))
        return Table(table_id, code, host, bool(public), Rules.from_json(json.loads(rules)), seats, Status(status),
                     bool(auto_go), move_limit, bool(advice))

    def _table_row(self, table: int) -> sqlite3.Row:
        if not _is_id(table):
            raise StoreError("There is no such table.")
        cursor = self._db.execute("SELECT * FROM tables WHERE id = ?", (table,))
        cursor.row_factory = sqlite3.Row
        row: sqlite3.Row | None = cursor.fetchone()
        if row is None:
            raise StoreError(f"There is no table {table}.")
        return row

    def end(self, table: int) -> None:
        """Close a table (its game, if any, is kept): it leaves the lobby and its join code is free again."""
        with self._writing():
            if Status(self._table_row(table)["status"]) is not Status.OVER:
                self._db.execute("UPDATE tables SET status = 'over' WHERE id = ?", (table,))
                record_end(self._db, table, "closed")
        self._playing.pop(table, None)
        self.changed(table)

    # ----------------------------------------------------------------- clocks
    def clocks(self, table: int) -> str | None:
        """The table's clocks as `set_clocks` last wrote them, or None."""
        if not _is_id(table):
            return None
        row = self._db.execute("SELECT clocks FROM clocks WHERE table_id = ?", (table,)).fetchone()
        return None if row is None else str(row[0])

    def set_clocks(self, table: int, text: str | None) -> None:
        """Keep the table's clocks (`audiocrib.server.clocks` makes and reads the text), or (None) forget them."""
        with self._writing():
            if text is None:
                self._db.execute("DELETE FROM clocks WHERE table_id = ?", (table,))
            else:
                self._db.execute("INSERT OR REPLACE INTO clocks (table_id, clocks) VALUES (?, ?)", (table, text))

    # ----------------------------------------------------------------- games
    def start(self, table: int) -> Game:
        """Begin the game of an open table whose seats are all taken; its header and first events (up to the
        first decision) are committed when this returns (on disk too, unless ``later``: then after `sync`).
        People's seats are the game's manual seats."""
        with self._writing():
            row = self._table_row(table)
            if Status(row["status"]) is not Status.OPEN:
                raise StoreError(f"Table {table} has begun already.")
            record = self._record([row[c] for c in _TABLE_COLUMNS.split(", ")])
            if record.open_seats:
                raise StoreError(f"Table {table} still has a seat open.")
            people = [i for i, seat in enumerate(record.seats) if seat.player is not None]
            game = Game(record.rules, [seat.name for seat in record.seats], row["seed"], people, record.auto_go)
            header = {k: v for k, v in game.to_json_header().items() if k != "seed"}  # the seed stays in its row
            self._db.execute("INSERT INTO games (table_id, header) VALUES (?, ?)", (table, json.dumps(header)))
            self._db.execute("UPDATE tables SET status = 'playing' WHERE id = ?", (table,))
            self._insert(table, 0, game.events)
        self._wrote(table, 0, game.events)
        self.changed(table)
        return game

    def append(self, table: int, first_index: int, events: Iterable[Event]) -> None:
        """Add ``events`` to the table's log as numbers ``first_index`` on, all or none, and return once they are
        committed (on disk too, unless ``later``: then after `sync`). ``first_index`` must be the log's length: a
        gap or a repeat is refused. A `MatchWon` among them ends the table."""
        events = tuple(events)
        with self._writing():
            if not _is_id(table) or self._playing.get(table) != first_index:  # else this store wrote the end
                row = self._table_row(table)
                if Status(row["status"]) is not Status.PLAYING:
                    raise StoreError(f"Table {table} is not playing.")
                length = self._length(table)
                if first_index != length:
                    raise StoreError(f"The log of table {table} has {length} events, so the next is number"
                                     f" {length}, not {first_index}.")
            self._insert(table, first_index, events)
        self._wrote(table, first_index, events)

    def _wrote(self, table: int, first_index: int, events: Sequence[Event]) -> None:
        """Remember the length of a playing table's log as this store committed it (the events table's trigger
        still refuses a gap if another connection wrote meanwhile)."""
        if any(isinstance(e, MatchWon) for e in events):
            self._playing.pop(table, None)
            self.changed(table)  # over: out of the lobby
        else:
            self._playing[table] = first_index + len(events)

    def _insert(self, table: int, first_index: int, events: Iterable[Event]) -> None:
        """Write the events; a `MatchWon` among them ends the table."""
        events = list(events)
        rows = [(table, first_index + i, event_row(e)) for i, e in enumerate(events)]
        self._db.executemany("INSERT INTO events (table_id, idx, event) VALUES (?, ?, ?)", rows)
        if any(isinstance(e, MatchWon) for e in events):  # with the end, every person has it yet to be told
            self._db.execute("UPDATE tables SET status = 'over' WHERE id = ?", (table,))
            self._db.execute("UPDATE seats SET untold = 1 WHERE table_id = ? AND player IS NOT NULL", (table,))
            record_end(self._db, table, "won")
            rate_match(self._db, table)  # in the transaction that ends the match (`audiocrib.server.ratings`)

    def _length(self, table: int) -> int:
        length: int = self._db.execute("SELECT COALESCE(MAX(idx) + 1, 0) FROM events WHERE table_id = ?",
                                       (table,)).fetchone()[0]
        return length

    def length(self, table: int) -> int:
        """How many events the table's log holds (0 before its game begins, or for no table)."""
        return self._length(table) if _is_id(table) else 0

    def game(self, table: int) -> Game:
        """The table's game rebuilt from its header and log by playing the moves again from the seed; a log
        that does not follow raises the engine's `SaveError`, a table with no game a `StoreError`."""
        self._db.execute("BEGIN")  # one snapshot for the header and every event
        try:
            row = self._table_row(table)
            found = self._db.execute("SELECT header FROM games WHERE table_id = ?", (table,)).fetchone()
            if found is None:
                raise StoreError(f"Table {table} has not begun its game.")
            events = [row_[0] for row_ in self._db.execute(
                "SELECT event FROM events WHERE table_id = ? ORDER BY idx", (table,))]
        finally:
            self._db.execute("COMMIT")
        header = save_value(found[0])
        if isinstance(header, dict):  # anything else is refused by from_json with its sentence
            header = {**header, "seed": row["seed"], "events": [save_value(text) for text in events]}
        return Game.from_json(header)


def _is_id(value: object) -> bool:
    """True for what can be a row's id: a whole number (not a bool, not text SQLite would turn into one) that
    fits SQLite's integers."""
    return type(value) is int and 0 < value < 2**63


def _nfc(name: str) -> str:
    return unicodedata.normalize("NFC", name)
