"""``audiocrib backup`` of a real server's store taken while the server runs and writes a game's moves, and
``audiocrib restore`` of it into a new data folder: a server started there has the players, the tables and the
game as they were at the backup, and the player reconnects by token, is caught up, and plays the game to its end.
Also what either refuses, each with one sentence (docs/server.md, "Hosting a public room")."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
from pathlib import Path

import aiohttp

from audiocrib.engine.events import event_to_json
from audiocrib.online.messages import News, TableState
from audiocrib.server.serve import STORE_FILE
from tests.test_cli_hostile import PROGRAM, assert_process_refused
from tests.test_serve import Client, Running, ask, create, hello, run


def audiocrib(*words: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(PROGRAM), *map(str, words)], capture_output=True, text=True, timeout=120)


def read(path: Path, query: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return db.execute(query).fetchall()


def logged(path: Path, table: int) -> int:
    """How many events of the table's game the store file ``path`` holds."""
    return int(read(path, f"SELECT COUNT(*) FROM events WHERE table_id = {table}")[0][0])


def test_a_backup_taken_while_the_server_plays_restores_into_a_new_folder(tmp_path: Path) -> None:
    first = Running(tmp_path / "data")
    backup = tmp_path / "backups" / "server.sqlite3"
    backup.parent.mkdir()
    client = Client()

    async def before() -> tuple[str, int, int, int, subprocess.CompletedProcess[str]]:
        async with aiohttp.ClientSession() as session, session.ws_connect(first.url) as ada, \
                session.ws_connect(first.url) as bea:
            token = (await ask(ada, hello("Ada")))["token"]
            await ask(bea, hello("Bea"))
            await ask(bea, create(True))  # an open public table, in the lobby
            table = await ask(ada, {**create(False, ("person", "easy")), "rules": {"players": 2, "target": 61}})
            await ada.send_str(json.dumps({"type": "start"}))
            await client.play(ada, views=6)
            began = client.length
            # the backup runs while Ada and the computer player go on moving
            taking = asyncio.create_task(asyncio.to_thread(audiocrib, "backup", "--data-dir", tmp_path / "data",
                                                           backup))
            await client.play(ada, views=6)
            done = await taking
            await client.play(ada, views=2)
            return token, table["number"], began, client.length, done
    try:
        token, number, began, ended, done = run(before())
    finally:
        first.stop()
    assert done.returncode == 0 and done.stderr == "", done
    assert done.stdout == f"Backed up 2 players and 2 tables (1 under way) to {backup}.\n"
    kept = logged(backup, number)
    assert began <= kept <= ended, (began, kept, ended)
    assert not Path(f"{backup}-wal").exists()  # a file of its own
    assert read(backup, "PRAGMA integrity_check") == [("ok",)]

    again = tmp_path / "again"
    restored = audiocrib("restore", "--data-dir", again, backup)
    assert restored.returncode == 0 and restored.stderr == "", restored
    assert restored.stdout == (f"Restored 2 players and 2 tables (1 under way) from {backup} into {again}.\n"
                               "Start the server.\n")
    second = Running(again)
    refused = audiocrib("restore", "--data-dir", again, backup)  # not while a server runs there
    assert_process_refused(refused, "Stop the server first: a server is using this data folder.")
    caught_up = Client()

    async def after() -> list[str]:
        async with aiohttp.ClientSession() as session, session.ws_connect(second.url) as socket:
            assert (await ask(socket, hello("Anyone", token)))["name"] == "Ada"
            await caught_up.play(socket, until=lambda message: isinstance(message, News))
            lobby_socket = await session.ws_connect(second.url)
            await ask(lobby_socket, hello("Cy"))
            lobby = await ask(lobby_socket, {"type": "lobby"})
            await lobby_socket.close()
            await caught_up.play(socket)  # and on to the end of the match
            return [t["host"] for t in lobby["tables"]]
    try:
        hosts = run(after())
    finally:
        second.stop()
    table = next(m for _, m in caught_up.got if isinstance(m, TableState))
    news = next(m for _, m in caught_up.got if isinstance(m, News))
    assert table.number == number
    # the game as it stood at the backup, then what the computer player has moved since the server started
    assert news.since == 0 and len(news.events) >= kept
    backed_up = [json.loads(str(row[0])) for row in read(backup, "SELECT event FROM events WHERE table_id ="
                                                          f" {number} ORDER BY idx")]
    seen = [json.loads(json.dumps(event_to_json(event))) for event in news.events[:kept]]
    assert [(e["kind"], e.get("seat")) for e in seen] == [(e["kind"], e.get("seat")) for e in backed_up]  # hands hidden
    assert hosts == ["Bea"]
    assert caught_up.won
    assert logged(again / STORE_FILE, number) > kept


def test_backup_and_restore_refuse_what_they_cannot_do_with_one_sentence(tmp_path: Path) -> None:
    data = tmp_path / "data"
    assert_process_refused(audiocrib("backup", "--data-dir", data, tmp_path / "copy"),
                           "There is no server's data in that folder to back up (server.sqlite3 is not in it).")
    Running(data).stop()  # a stopped server's store, with a player-less lobby
    copy = tmp_path / "copy.sqlite3"
    assert audiocrib("backup", "--data-dir", data, copy).stdout == (
        f"Backed up 0 players and 0 tables (0 under way) to {copy}.\n")
    assert audiocrib("backup", "--data-dir", data, copy).returncode == 0  # an earlier backup is replaced
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    for target, sentence in ((notes, "is a file that is not a backup"), (tmp_path, "is a folder's"),
                             (data / STORE_FILE, "is the server's own store"),
                             (tmp_path / "gone" / "copy", "in a folder that does not exist")):
        assert_process_refused(audiocrib("backup", "--data-dir", data, target), sentence)
    assert notes.read_text() == "my notes\n"
    for source, sentence in ((tmp_path / "nothing", "There is no backup file"),
                             (notes, "The backup is not an audiocrib server's data.")):
        assert_process_refused(audiocrib("restore", "--data-dir", tmp_path / "other", source), sentence)
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(copy.read_bytes()[:4096] + b"\xff" * 4096)
    assert_process_refused(audiocrib("restore", "--data-dir", data, damaged), "The backup ")
    assert sorted(p.name for p in data.iterdir() if p.name.startswith(STORE_FILE)) == [STORE_FILE]  # untouched

    done = audiocrib("restore", "--data-dir", data, copy)  # over a store: it is put aside, not lost
    assert done.returncode == 0, done
    aside = [p for p in data.iterdir() if p.name.startswith(f"{STORE_FILE}.before-restore-")]
    assert len(aside) == 1 and f"What was there is kept as {aside[0].name}." in done.stdout
    assert read(aside[0], "PRAGMA integrity_check") == [("ok",)]
