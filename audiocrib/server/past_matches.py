"""A server's past matches: how and when each table ended (kept as it ends, in order), the list of the matches a
player sat in, one public match by its table number, and a match's whole log once it is won; and the answers to
the questions about them.

A match is past once it is won: a table closed by its host or a moderator before that is kept as closed and never
listed. Its log is sent to those who sat there, and of a public table to anyone, with every card (after the match
every hand may be shown) and never the seed. The seat it is heard from is the player's own, or the watchers' seat
(one past the last) for a match they did not play.

>>> import sqlite3
>>> from audiocrib.server.store import Store
>>> store = Store(":memory:")
>>> ann, _ = store.add_player("Ann")
>>> answer(store.reading, ann.id, AskMatchLog(5))
Traceback (most recent call last):
...
audiocrib.online.fields.ProtocolError: There is no table 5 on this server.
"""

from __future__ import annotations

import json
import sqlite3
import time

from audiocrib.engine.errors import SaveError
from audiocrib.engine.events import Event, GameWon, MatchWon, event_from_json
from audiocrib.engine.rules import Rules
from audiocrib.engine.saving import read_save, reading_save
from audiocrib.online.base import Message
from audiocrib.online.fields import ProtocolError
from audiocrib.online.matches import PAST_PAGE, AskMatchLog, AskPastMatches, MatchLog, PastMatchList, PastMatchSummary

__all__ = ["ASKED", "TOO_MANY_LOGS", "answer", "match_end", "record_end"]

ASKED = (AskPastMatches, AskMatchLog)
"""The messages `answer` answers."""

STILL_PLAYING = "Table {} is still being played; its match can be heard again once it is over."
NOT_BEGUN = "Table {} has not begun its match; it can be heard again once it is over."
PRIVATE = "Table {} was private; only its players can hear its match again."
CLOSED = "Table {} was closed before its match was won; there is no match to hear again."
NO_SUCH = "There is no table {} on this server."
TOO_MANY_LOGS = "You have asked for many matches just now; wait a few seconds, then ask again."
"""Refusal of a past match's whole log past the address's limit (`Limits.match_logs_rate`)."""


def record_end(db: sqlite3.Connection, table: int, how: str) -> None:
    """Keep that ``table`` ended now, ``how`` ("won" or "closed"), after every table that ended before it (inside
    the transaction that ends it)."""
    db.execute("INSERT OR IGNORE INTO endings (table_id, ended, how) VALUES (?, ?, ?)", (table, time.time(), how))


def match_end(db: sqlite3.Connection, table: int) -> tuple[MatchWon, GameWon] | None:
    """How a table's match was won (its `MatchWon` and its last `GameWon`), or None if it was not."""
    ends = [event_from_json(json.loads(text)) for (text,) in db.execute(
        "SELECT event FROM events WHERE table_id = ? AND (event LIKE '{\"kind\":\"match won\"%'"
        " OR event LIKE '{\"kind\":\"game won\"%') ORDER BY idx DESC LIMIT 2", (table,))]
    won = next((e for e in ends if isinstance(e, MatchWon)), None)
    game = next((e for e in ends if isinstance(e, GameWon)), None)
    return None if won is None or game is None else (won, game)


def answer(db: sqlite3.Connection, player: int, message: Message) -> Message:
    """The answer to `AskPastMatches` or `AskMatchLog` (`audiocrib.online.matches`); a refusal is a
    `ProtocolError` with its sentence."""
    if isinstance(message, AskPastMatches):
        return _past(db, player, message)
    if isinstance(message, AskMatchLog):
        return _log(db, player, message.table)
    raise TypeError(message)


def _seat_of(db: sqlite3.Connection, table: int, player: int) -> int | None:
    row = db.execute("SELECT seat FROM seats WHERE table_id = ? AND player = ?", (table, player)).fetchone()
    return None if row is None else int(row[0])


def _past_one(db: sqlite3.Connection, player: int, table: int) -> tuple[int | None, float]:
    """This player's seat at a past match they may hear (None: a public one they did not play), and when it
    ended; a `ProtocolError` with the reason otherwise."""
    row = db.execute("SELECT t.public, t.status, e.how, e.ended FROM tables t LEFT JOIN endings e"
                     " ON e.table_id = t.id WHERE t.id = ?", (table,)).fetchone()
    if row is None:
        raise ProtocolError(NO_SUCH.format(table))
    public, status, how, ended = row
    seat = _seat_of(db, table, player)
    if seat is None and not public:
        raise ProtocolError(PRIVATE.format(table))
    if status != "over":
        raise ProtocolError((NOT_BEGUN if status == "open" else STILL_PLAYING).format(table))
    if how != "won":
        raise ProtocolError(CLOSED.format(table))
    return seat, float(ended)


def _summary(db: sqlite3.Connection, table: int, seat: int | None, ended: float) -> PastMatchSummary | None:
    rules_row = db.execute("SELECT rules FROM tables WHERE id = ?", (table,)).fetchone()
    end = match_end(db, table)
    if rules_row is None or end is None:
        return None
    names = tuple(name for (name,) in db.execute("SELECT name FROM seats WHERE table_id = ? ORDER BY seat",
                                                  (table,)))
    won, game = end
    return PastMatchSummary(table, int(ended), Rules.from_json(json.loads(rules_row[0])), names, seat, won.side,
                            won.match_scores, game.scores)


def _readable(db: sqlite3.Connection, table: int, seat: int | None, ended: float) -> PastMatchSummary | None:
    """`_summary`, or None (left out of the list) for a match whose rows cannot be read."""
    try:
        return _summary(db, table, seat, ended)
    except (ValueError, KeyError, TypeError, IndexError):  # the engine's errors are ValueErrors
        return None


def _past(db: sqlite3.Connection, player: int, asked: AskPastMatches) -> PastMatchList:
    """A page of the matches this player sat in, newest first; or the one match at ``asked.table``."""
    if asked.table is not None:
        seat, ended = _past_one(db, player, asked.table)
        entry = _readable(db, asked.table, seat, ended)
        return PastMatchList((entry,) if entry else (), 1, 1, asked.table)
    mine = ("FROM endings e JOIN seats s ON s.table_id = e.table_id AND s.player = ? WHERE e.how = 'won'")
    total = db.execute(f"SELECT COUNT(*) {mine}", (player,)).fetchone()[0]
    pages = max(1, -(-total // PAST_PAGE))
    page = min(asked.page, pages)
    rows = db.execute(f"SELECT e.table_id, s.seat, e.ended {mine} ORDER BY e.seq DESC LIMIT ? OFFSET ?",
                      (player, PAST_PAGE, (page - 1) * PAST_PAGE)).fetchall()
    entries = tuple(e for e in (_readable(db, table, seat, ended) for table, seat, ended in rows) if e is not None)
    return PastMatchList(entries, page, pages)


def _log(db: sqlite3.Connection, player: int, table: int) -> MatchLog:
    """The whole log of a past match this player may hear, every card in it."""
    seat, ended = _past_one(db, player, table)
    header_row = db.execute("SELECT header FROM games WHERE table_id = ?", (table,)).fetchone()
    rows = [json.loads(text) for (text,) in db.execute(
        "SELECT event FROM events WHERE table_id = ? ORDER BY idx", (table,))]
    try:
        with reading_save():
            saved = read_save({**json.loads(header_row[0]), "seed": 0, "events": rows})
    except (SaveError, TypeError):
        raise ProtocolError(f"The log of table {table} cannot be read on this server.") from None
    events: tuple[Event, ...] = tuple(saved.events)
    looker = saved.rules.players if seat is None else seat
    return MatchLog(table, int(ended), saved.rules, tuple(saved.names), looker, tuple(sorted(saved.manual_seats)),
                    saved.auto_go, events)
