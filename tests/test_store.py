"""The server's store, on real files: players and their tokens, tables and their join codes, each game's log
appended move by move and rebuilt by the engine, secrets kept, and nothing committed lost when the process
writing it is killed (SIGKILL, in a child process, at random moments)."""

from __future__ import annotations

import dataclasses
import json
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from audiocrib.engine.errors import SaveError
from audiocrib.engine.events import event_to_json
from audiocrib.engine.game import Game
from audiocrib.engine.rules import Rules
from audiocrib.server.records import CODE_DIGITS, CODE_LETTERS
from audiocrib.server.schema import SCHEMA
from audiocrib.server.store import SCHEMA_VERSION, Seat, Status, Store, StoreError, Table
from tests.helpers import TABLES, random_action

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(f"[{CODE_LETTERS}][{CODE_DIGITS}]" * 3)


def open_table(store: Store, rules: Rules | None = None, public: bool = True) -> tuple[Table, list[int]]:
    """A table whose even seats are people (new players) and odd seats computer players, not yet begun."""
    rules = rules or Rules()
    seats, people = [], []
    for i in range(rules.players):
        if i % 2 == 0:
            player, _token = store.add_player(f"Person {len(store.tables()) * 10 + i}")
            seats.append(Seat(player.id, name=player.name))
            people.append(player.id)
        else:
            seats.append(Seat(computer="easy", name=f"Easy {i}"))
    return store.add_table(people[0], rules, seats, public), people


def choose(game: Game) -> Any:
    """A legal move that depends only on the game's seed and position, so a game cut off and picked up again
    goes on as it would have without the break."""
    return random_action(game, random.Random(f"{game.seed}/{len(game.events)}"))


def move(store: Store, table: int, game: Game) -> None:
    """One move in ``game``, its events appended to the table's log."""
    first = len(game.events)
    game.apply(choose(game))
    store.append(table, first, game.events[first:])


def reference(game: Game, length: int) -> list[Any]:
    """The log of ``game``'s match played again without a break (the same chooser), up to ``length`` events."""
    fresh = Game(game.rules, game.names, game.seed, game.manual_seats, game.auto_go)
    while len(fresh.events) < length and not fresh.over:
        fresh.apply(choose(fresh))
    return list(fresh.events)


# ----------------------------------------------------------------- the file
def test_the_file_is_in_wal_mode_with_full_sync_and_its_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "data" / "server.sqlite3"
    with Store(path) as store:
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert store._db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    with Store(path, later=True) as store:  # the server's: NORMAL, and the outbox's thread syncs
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 1
        assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.execute("PRAGMA user_version = 99")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"^This server's data is from another version of audiocrib\.$"):
        Store(path)
    other = tmp_path / "other.sqlite3"
    raw = sqlite3.connect(other)
    raw.execute("CREATE TABLE notes (text TEXT)")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"^This file is not an audiocrib server's data\.$"):
        Store(other)


# ----------------------------------------------------------------- players
def test_players_and_their_tokens_survive_a_reopening(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    with Store(path) as store:
        ann, ann_token = store.add_player("Ann")
        bob, bob_token = store.add_player("Bob")
    assert ann != bob and ann_token != bob_token
    assert len(ann_token) >= 43
    with Store(path) as store:
        assert store.player_by_token(ann_token) == ann
        assert store.player_by_token(bob_token) == bob
        assert store.player(ann.id) == ann
        assert store.player(999) is None
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert ann_token.encode() not in stored and bob_token.encode() not in stored


@pytest.mark.parametrize(("first", "second"), [
    ("Ann", "ann"), ("Ann", "ANN"), ("\u00c5sa", "A\u030asa"), ("\u00c5sa", "a\u030aSA"), ("Strau\u00df", "STRAUSS"),
])
def test_a_name_taken_in_another_case_or_unicode_form_is_refused_with_a_sentence(
        tmp_path: Path, first: str, second: str) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        player, _token = store.add_player(first)
        with pytest.raises(StoreError) as refused:
            store.add_player(second)
        assert str(refused.value) == f"The name {second} is taken on this server; choose another."
        assert len(store._db.execute("SELECT * FROM players").fetchall()) == 1
        assert store.player(player.id) == player


def test_a_name_is_kept_in_nfc(tmp_path: Path) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        player, _token = store.add_player("A\u030asa")
        assert player.name == "\u00c5sa"
        assert store.player(player.id) == player


@pytest.mark.parametrize("token", [
    "", "x", "A" * 43, "\u00e9" * 43, "\ud800" * 43, "\x00", "a" * 10_000_000, " ", "\u0661" * 43,
])
def test_a_wrong_token_finds_nobody(tmp_path: Path, token: str) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        _player, real = store.add_player("Ann")
        assert store.player_by_token(token) is None
        assert store.player_by_token(real[:-1]) is None
        assert store.player_by_token(real + "x") is None
        assert store.player_by_token(" " + real) is None
        assert store.player_by_token(None) is None  # type: ignore[arg-type]
        assert store.player_by_token(real.encode()) is None  # type: ignore[arg-type]


# ----------------------------------------------------------------- tables
def test_tables_round_trip_and_their_seats_fill(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    with Store(path) as store:
        ann, _ = store.add_player("Ann")
        bob, _ = store.add_player("Bob")
        rules = Rules(players=4, team_size=2, manual_counting=True, count_timer=30)
        seats = [Seat(ann.id, name="Ann"), Seat(), Seat(computer="expert", name="Expert"), Seat()]
        table = store.add_table(ann.id, rules, seats, public=False)
        assert (table.host, table.public, table.rules, table.seats, table.status) == (
            ann.id, False, rules, tuple(seats), Status.OPEN)
        assert table.open_seats == (1, 3)
        with pytest.raises(StoreError, match=r"^Table \d+ still has a seat open\.$"):
            store.start(table.id)
        table = store.set_seat(table.id, 1, Seat(bob.id, name="Bob"))
        table = store.set_seat(table.id, 3, Seat(computer="easy", name="Easy"))
        assert table.open_seats == ()
        with pytest.raises(StoreError, match=r"^Table \d+ has no seat 5\.$"):
            store.set_seat(table.id, 4, Seat(computer="easy", name="Easy"))
        with pytest.raises(StoreError, match=r"^A seat holds a person or a computer player, not both\.$"):
            Seat(bob.id, "easy", "Bob")
        with pytest.raises(StoreError, match=r"^A seat can be taken only by a player of this server\.$"):
            store.set_seat(table.id, 3, Seat(999, name="Nobody"))
        assert store.table(table.id) == table
        assert [t.id for t in store.tables_of(bob.id)] == [table.id]
    with Store(path) as store:
        assert store.table(table.id) == table
        assert store.table_by_code(table.code.lower()) == table
        assert store.table_by_code(" ".join(table.code)) == table
        assert store.table_by_code("-".join((table.code[:3], table.code[3:]))) == table
        assert store.tables(Status.OPEN) == [table] and store.tables(Status.PLAYING) == []
        game = store.start(table.id)
        assert game.manual_seats == {0, 1} and game.names == ("Ann", "Bob", "Expert", "Easy")
        assert store.table(table.id).status is Status.PLAYING  # type: ignore[union-attr]
        with pytest.raises(StoreError, match=r"^Table \d+ has begun already\.$"):
            store.start(table.id)
        with pytest.raises(StoreError, match=r"^Table \d+ has begun; its seats are settled\.$"):
            store.set_seat(table.id, 3, Seat())
        store.end(table.id)
        assert store.table_by_code(table.code) is None and store.tables_of(bob.id) == []
        assert store.table(table.id).status is Status.OVER  # type: ignore[union-attr]
        assert store.game(table.id).state_key() == game.state_key()
        with pytest.raises(StoreError, match=r"^There is no table 999\.$"):
            store.start(999)


def test_a_table_is_refused_with_a_sentence_when_it_does_not_fit(tmp_path: Path) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        ann, _ = store.add_player("Ann")
        with pytest.raises(StoreError, match=r"^This table needs 3 seats, not 2\.$"):
            store.add_table(ann.id, Rules(players=3), [Seat(ann.id, name="Ann"), Seat()])
        with pytest.raises(StoreError, match=r"^The host of a table must be a player of this server\.$"):
            store.add_table(999, Rules(), [Seat(), Seat()])
        assert store.tables() == []


def test_a_move_limit_and_a_seat_kept_by_a_computer_player_survive_a_reopening(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    with Store(path) as store:
        ann, _ = store.add_player("Ann")
        bob, _ = store.add_player("Bob")
        seats = [Seat(ann.id, name="Ann"), Seat(bob.id, name="Bob"), Seat(computer="easy", name="Easy")]
        for wrong in (0, -5, True, "60", 1.5, 2**40):
            with pytest.raises(StoreError, match=r"^A move time limit is a whole number of seconds\.$"):
                store.add_table(ann.id, Rules(players=3), seats, move_limit=wrong)  # type: ignore[arg-type]
        with pytest.raises(StoreError, match=r"^A computer player can keep a seat only once the game is on\.$"):
            store.add_table(ann.id, Rules(players=3), [Seat(ann.id, name="Ann", stand_in="easy"), *seats[1:]])
        with pytest.raises(StoreError, match=r"^A computer player can keep only a person's seat\.$"):
            Seat(computer="easy", name="Easy", stand_in="hard")
        table = store.add_table(ann.id, Rules(players=3), seats, move_limit=90)
        untimed = store.add_table(ann.id, Rules(), [Seat(ann.id, name="Ann"), Seat()])
        assert table.move_limit == 90 and untimed.move_limit is None
        with pytest.raises(StoreError, match=rf"^Table {table.id} is not playing\.$"):
            store.set_stand_in(table.id, 1, "medium")
        store.start(table.id)
        for index in (2, 3, -1, "1"):
            with pytest.raises(StoreError, match=r"^Only a person's seat can be kept by a computer player\.$"):
                store.set_stand_in(table.id, index, "medium")  # type: ignore[arg-type]
        with pytest.raises(StoreError, match=r"^There is no computer player of that level\.$"):
            store.set_stand_in(table.id, 1, "")
        assert store.table(table.id) == dataclasses.replace(table, status=Status.PLAYING)
        kept = store.set_stand_in(table.id, 1, "medium")
        assert kept.seats[1] == Seat(bob.id, name="Bob", stand_in="medium") and kept.seats[0].stand_in is None
    with Store(path) as store:
        reopened = store.table(table.id)
        assert reopened == kept and reopened is not None and reopened.move_limit == 90
        assert store.table(untimed.id).move_limit is None  # type: ignore[union-attr]
        assert store.set_stand_in(table.id, 1, None).seats[1] == Seat(bob.id, name="Bob")
    with Store(path) as store:
        assert store.table(table.id).seats[1].stand_in is None  # type: ignore[union-attr]


def test_a_file_of_version_one_is_brought_up_to_date_and_a_newer_one_refused(tmp_path: Path) -> None:
    fresh, old = tmp_path / "fresh.sqlite3", tmp_path / "old.sqlite3"
    Store(fresh).close()
    raw = sqlite3.connect(old)  # a file as the first version of the store left it, with a table in it
    raw.executescript(SCHEMA)
    raw.execute("INSERT INTO players VALUES (1, 'Ann', 'ann', x'00', 0)")
    raw.execute("INSERT INTO tables VALUES (1, 'K4R7W2', 1, 1, ?, 1, 'playing', 7, 0)",
                (json.dumps(Rules().to_json()),))
    raw.execute("INSERT INTO seats VALUES (1, 0, 1, NULL, 'Ann'), (1, 1, NULL, 'easy', 'Easy')")
    raw.execute("PRAGMA user_version = 1")
    raw.commit()
    raw.close()
    with Store(old) as store:
        table = store.table(1)
        assert table is not None and table.move_limit is None and table.status is Status.PLAYING
        assert table.seats == (Seat(1, name="Ann"), Seat(computer="easy", name="Easy"))
        assert store.set_stand_in(1, 0, "hard").seats[0].stand_in == "hard"
    layouts = []
    for path in (fresh, old):
        raw = sqlite3.connect(path)
        assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 9
        layouts.append(sorted(raw.execute("SELECT type, name, sql FROM sqlite_schema")))
        raw.close()
    assert layouts[0] == layouts[1]  # brought up to date, an old file is laid out as a new one
    raw = sqlite3.connect(old)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"^This server's data is from another version of audiocrib\.$"):
        Store(old)


def test_join_codes_are_unique_and_of_the_promised_alphabet(tmp_path: Path) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        ann, _ = store.add_player("Ann")
        codes = [store.add_table(ann.id, Rules(), [Seat(), Seat()], public=i % 2 == 0).code for i in range(400)]
        assert len(set(codes)) == len(codes)
        assert all(CODE.fullmatch(code) for code in codes)
        assert not set("IOSZBG01") & set("".join(codes))
        assert store.table_by_code("K4R7W") is None and store.table_by_code("0" * 6) is None
        assert store.table_by_code("\u00e9" * 6) is None and store.table_by_code("") is None


def test_no_result_of_the_store_holds_the_seed(tmp_path: Path) -> None:
    """The seed deals every card: it leaves the store only inside a rebuilt Game."""
    with Store(tmp_path / "server.sqlite3") as store:
        table, people = open_table(store, Rules(players=3))
        results: list[object] = [table, store.table(table.id), store.table_by_code(table.code), store.tables(),
                                 store.tables(Status.OPEN), store.tables_of(people[0])]
        game = store.start(table.id)
        for _ in range(10):
            move(store, table.id, game)
        results += [store.table(table.id), store.tables(), store.tables_of(people[0]), store.length(table.id),
                    store.player(people[0]), store.add_player("Zed")]
        seed = store.game(table.id).seed
        assert seed == game.seed and len(str(seed)) >= 10
        text = json.dumps([_plain(r) for r in results], default=str) + repr(results)
        assert str(seed) not in text
        header = store._db.execute("SELECT header FROM games").fetchone()[0]
        assert "seed" not in json.loads(header) and str(seed) not in header
        assert not any(str(seed) in row[0] for row in store._db.execute("SELECT event FROM events"))


def _plain(value: object) -> object:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# ----------------------------------------------------------------- the log
@pytest.mark.parametrize("rules", TABLES, ids=lambda r: r.describe())
def test_a_whole_game_appended_move_by_move_is_rebuilt_equal(tmp_path: Path, rules: Rules) -> None:
    path = tmp_path / "server.sqlite3"
    with Store(path) as store:
        table, _people = open_table(store, rules)
        game = store.start(table.id)
        moves = 0
        while not game.over:
            move(store, table.id, game)
            moves += 1
            if moves % 40 == 0:
                rebuilt = store.game(table.id)
                assert rebuilt.state_key() == game.state_key() and rebuilt.events == game.events
    with Store(path) as store:
        rebuilt = store.game(table.id)
        assert rebuilt.state_key() == game.state_key() and rebuilt.events == game.events
        assert store.length(table.id) == len(game.events)
        assert store.table(table.id).status is Status.OVER  # type: ignore[union-attr]
        assert store.table_by_code(table.code) is None


def test_a_gap_a_repeat_or_a_closed_table_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    with Store(tmp_path / "server.sqlite3") as store:
        table, _ = open_table(store)
        with pytest.raises(StoreError, match=r"^Table \d+ is not playing\.$"):
            store.append(table.id, 0, [])
        game = store.start(table.id)
        first = len(game.events)
        game.apply(choose(game))
        new = game.events[first:]
        with pytest.raises(StoreError) as refused:
            store.append(table.id, first + 1, new)
        assert str(refused.value) == (f"The log of table {table.id} has {first} events, so the next is number "
                                      f"{first}, not {first + 1}.")
        with pytest.raises(StoreError, match=r"^The log of table \d+ has \d+ events, so the next is number"):
            store.append(table.id, first - 1, new)
        assert store.length(table.id) == first
        store.append(table.id, first, new)
        with pytest.raises(StoreError):
            store.append(table.id, first, new)
        assert store.game(table.id).events == game.events
        with pytest.raises(sqlite3.IntegrityError):  # and the file itself refuses a gap or a change
            store._db.execute("INSERT INTO events VALUES (?, ?, ?)", (table.id, len(game.events) + 1, "{}"))
        with pytest.raises(sqlite3.IntegrityError):
            store._db.execute("UPDATE events SET event = '{}' WHERE idx = 0")
        store.end(table.id)
        with pytest.raises(StoreError, match=r"^Table \d+ is not playing\.$"):
            store.append(table.id, len(game.events), [])


@pytest.mark.parametrize("damage", ["forged score", "not json", "cut mid-move", "header"])
def test_a_damaged_log_is_refused_with_the_engines_sentence(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "server.sqlite3"
    with Store(path) as store:
        table, _ = open_table(store)
        game = store.start(table.id)
        while not any(e.kind == "played" and e.points for e in game.events):  # type: ignore[attr-defined]
            move(store, table.id, game)
    raw = sqlite3.connect(path)
    last = len(game.events) - 1
    if damage == "forged score":
        index = max(i for i, e in enumerate(game.events) if e.kind == "played" and e.points)  # type: ignore
        data = event_to_json(game.events[index])
        data["score"]["total"] += 2
        raw.execute("DROP TRIGGER events_kept")
        raw.execute("UPDATE events SET event = ? WHERE idx = ?", (json.dumps(data), index))
    elif damage == "not json":
        raw.execute("DELETE FROM events WHERE idx = ?", (last,))
        raw.execute("INSERT INTO events VALUES (?, ?, ?)", (table.id, last, "{not json"))
    elif damage == "cut mid-move":  # a deal without its starter: no real moment of a game ends there
        cut = next(i for i, e in enumerate(game.events) if e.kind == "starter cut")
        raw.execute("DELETE FROM events WHERE idx >= ?", (cut,))
    else:
        raw.execute("UPDATE games SET header = '[1, 2]'")
    raw.commit()
    raw.close()
    with Store(path) as store, pytest.raises(SaveError, match=r"^This saved game is damaged and cannot be read\.$"):
        store.game(table.id)


# ----------------------------------------------------------------- kills
def child(path: str) -> None:
    """The process the kill test kills: begins the open tables, then plays every table's game a move at a time,
    appending each move and printing "table index" once the move is committed."""
    store = Store(path)
    for table in store.tables(Status.OPEN):
        game = store.start(table.id)
        print(table.id, len(game.events) - 1, flush=True)
    games = {table.id: store.game(table.id) for table in store.tables(Status.PLAYING)}
    while games:
        for table_id, game in list(games.items()):
            move(store, table_id, game)
            print(table_id, len(game.events) - 1, flush=True)
            if game.over:
                del games[table_id]
    print("done", flush=True)


def check_after_kill(path: Path, reported: dict[int, int], verified: dict[int, int]) -> None:
    """Every table loads; every index reported committed is there; no gap; each log is the same game played
    without a break from the same seed."""
    with Store(path) as store:
        rows = store._db.execute("SELECT table_id, COUNT(*), MAX(idx) FROM events GROUP BY table_id").fetchall()
        assert all(count == top + 1 for _table, count, top in rows), rows
        for table in store.tables(Status.PLAYING, Status.OVER):
            game = store.game(table.id)
            if table.id in verified:  # finished and compared after an earlier kill; it must still load the same
                assert len(game.events) == verified[table.id]
                continue
            assert len(game.events) > reported.get(table.id, -1), (table.id, reported)
            assert list(game.events) == reference(game, len(game.events))
            assert (table.status is Status.OVER) == game.over
            if game.over:
                verified[table.id] = len(game.events)
        for table_id in reported:
            assert store.table(table_id) is not None


@pytest.mark.slow
def test_a_process_killed_at_random_moments_loses_nothing_it_reported(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    rng = random.Random(15)
    script = "import sys; from tests.test_store import child; child(sys.argv[1])"
    reported: dict[int, int] = {}
    verified: dict[int, int] = {}
    kills = runs = 0
    started = time.monotonic()
    while kills < 32:
        with Store(path) as store:
            while len(store.tables(Status.OPEN, Status.PLAYING)) < 3:
                open_table(store, TABLES[len(store.tables()) % len(TABLES)])
        process = subprocess.Popen([sys.executable, "-c", script, str(path)], cwd=ROOT, stdout=subprocess.PIPE,
                                   text=True)
        runs += 1
        assert process.stdout is not None
        if rng.random() < 0.8:  # most kills in the middle of the moves, some while starting or resuming
            process.stdout.readline()
        time.sleep(rng.uniform(0, 0.3))
        process.send_signal(signal.SIGKILL)
        out, _ = process.communicate(timeout=30)
        assert process.returncode in (0, -signal.SIGKILL), process.returncode
        kills += process.returncode == -signal.SIGKILL
        for line in out.split("\n")[:-1]:  # the last piece is "" or a line the kill cut short: not reported
            if line != "done":
                table_id, index = map(int, line.split())
                assert index > reported.get(table_id, -1)
                reported[table_id] = index
        check_after_kill(path, reported, verified)
    elapsed = time.monotonic() - started
    print(f"{kills} kills in {runs} runs, {len(reported)} tables, {len(verified)} finished, {elapsed:.1f} s")
    assert len(verified) >= 1 and sum(reported.values()) > 500


@pytest.mark.parametrize("wrong", [2**70, -(2**70), -1, 0, "1", 1.0, None, True, [1], "x" * 1_000_000])
def test_an_id_or_code_that_cannot_be_one_finds_nothing(tmp_path: Path, wrong: Any) -> None:
    """Ids and codes come from the network in the end: whatever they are, the store answers None."""
    with Store(tmp_path / "server.sqlite3") as store:
        table, _people = open_table(store)
        assert store.player(wrong) is None and store.table(wrong) is None and store.table_by_code(wrong) is None
        assert store.tables_of(wrong) == [] and store.length(wrong) == 0
        for refused in (store.start, store.game, store.end, lambda t: store.append(t, 0, []),
                        lambda t: store.set_seat(t, 0, Seat())):
            with pytest.raises(StoreError, match=r"^There is no (such )?table( \d+)?\.$"):
                refused(wrong)
        assert store.table(table.id) == table
