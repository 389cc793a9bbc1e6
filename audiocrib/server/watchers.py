"""Who watches one table, and the host's settings for watchers kept in the store (`TableWatch`): the part of a
table's watching that its room (`audiocrib.server.seating`) holds. The desk that answers watchers' messages is
`audiocrib.server.watching`.

Watchers are kept in memory only: a watcher is one more listener of the table while connected, at the watchers'
seat (`watcher_seat`), and after a drop or a restart their client watches again and is caught up. The settings
(no watchers; the watchers' chat let through to the players) are the store's, in ``watch_settings`` (version 8 of
`audiocrib.server.schema`): a table with no row there has the settings a new table has (watchers allowed, their
chat among themselves).

>>> from audiocrib.server.store import Store
>>> store = Store(":memory:")
>>> watch = TableWatch.load(store, 1)
>>> watch.add(7, "Carol"), watch.add(7, "Carol"), watch.info(None)
('Carol is watching.', '', Watchers(names=('Carol',), allowed=True, chat=False))
>>> watch.went(7), watch.add(7, "Carol")
('Carol stopped watching.', 'Carol is watching again.')
"""

from __future__ import annotations

from audiocrib.online.watching import Watchers
from audiocrib.server.records import name_key
from audiocrib.server.store import Store

__all__ = ["TableWatch"]

class TableWatch:
    """The watchers of table ``table`` (player id to name, in the order they came) and the host's settings."""

    def __init__(self, store: Store, table: int, allowed: bool = True, chat: bool = False) -> None:
        self._store = store
        self._table = table
        self.allowed = allowed
        """Whether anyone may watch (the host's "no watchers" makes it false)."""
        self.chat = chat
        """Whether the watchers' chat goes through to the players (else only to the other watchers)."""
        self.people: dict[int, str] = {}
        self._announced: set[str] = set()  # the name keys the players heard are watching: told once, not on return
        self._left: set[str] = set()  # the name keys that stopped watching or were sent away: their return is told

    @classmethod
    def load(cls, store: Store, table: int) -> TableWatch:
        """The table's watching, with its settings from the store (a new table's if it has none kept)."""
        row = store.reading.execute("SELECT allowed, chat FROM watch_settings WHERE table_id = ?",
                                    (table,)).fetchone()
        return cls(store, table) if row is None else cls(store, table, bool(row[0]), bool(row[1]))

    def keep(self, allowed: bool, chat: bool) -> None:
        """Write the host's settings (committed before anyone hears of them), then hold them."""
        with self._store.writing() as db:
            db.execute("INSERT OR REPLACE INTO watch_settings (table_id, allowed, chat) VALUES (?, ?, ?)",
                       (self._table, int(allowed), int(chat)))
        self.allowed, self.chat = allowed, chat
        self._store.changed(self._table)  # the lobby says whether a table may be watched

    def add(self, player: int, name: str) -> str:
        """``player`` watches now; what the players are to hear of it: the first time they watch this table, and
        again after they left or were sent away ("" when they come back from a dropped connection)."""
        self.people[player] = name
        key = name_key(name)
        if key in self._left:
            self._left.discard(key)
            return f"{name} is watching again."
        if key in self._announced:
            return ""
        self._announced.add(key)
        return f"{name} is watching."

    def went(self, player: int) -> str:
        """``player`` stopped watching or was sent away (not a dropped connection); what the players hear of it."""
        name = self.people.pop(player, None)
        if name is None:
            return ""
        self._left.add(name_key(name))
        return f"{name} stopped watching."

    def info(self, but: int | None) -> Watchers:
        """Who watches and the settings, as a `TableState` carries them (``but``, a watcher, is left out)."""
        return Watchers(tuple(name for person, name in self.people.items() if person != but), self.allowed,
                        self.chat)
