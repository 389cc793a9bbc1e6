"""The lobby's board: the public tables as the lobby lists them, kept up to date as tables change, and each page of
the lobby made once until something on it changes.

Answering ``lobby`` from the store cost a query for the tables and one for each host's name, for every request:
10.7 ms and 34 KB at 100 tables, so a few connections asking as fast as they may starved every table. The board is
told of each change by the store (`Store.on_table`: a table made, a seat taken or given, a game begun or ended,
the host's watchers allowed or not), reads that one table again, and forgets the pages it made; a page asked again
before the next change is the same message, made once. Who is connected is kept the same way (`people_changed`).

>>> from audiocrib.engine.rules import Rules
>>> from audiocrib.server.store import Seat, Store
>>> store = Store(":memory:")
>>> board = Board(store)
>>> ann, _ = store.add_player("Ann")
>>> table = store.add_table(ann.id, Rules(players=2), [Seat(ann.id, name="Ann"), Seat()])
>>> page = board.page(1, lambda: ["Ann"])
>>> [(t.number, t.host, t.open_seats) for t in page.tables], page.page, page.pages
([(1, 'Ann', 1)], 1, 1)
>>> board.page(1) is page  # nothing changed: the same page
True
>>> store.end(table.id)
>>> board.page(1).tables
()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from audiocrib.online import messages as m
from audiocrib.server.ratings import rating_of
from audiocrib.server.records import Status, Table
from audiocrib.server.store import Store
from audiocrib.server.watchers import TableWatch

__all__ = ["TOO_MANY_NAMES", "TOO_MANY_TABLES", "Board", "wait_words"]

TOO_MANY_NAMES = "Too many new names have been made from your address this hour; use one you made, or try again in {}."
TOO_MANY_TABLES = "Too many tables have been opened from your address this hour; join one, or try again in {}."


def wait_words(seconds: float) -> str:
    """How long to wait, as said in a refusal: "a few seconds", "a minute", "7 minutes".

    >>> wait_words(4.0), wait_words(61.0), wait_words(400.0)
    ('a few seconds', 'a minute', '7 minutes')
    """
    if seconds < 50:
        return "a few seconds"
    minutes = max(1, round(seconds / 60))
    return "a minute" if minutes == 1 else f"{minutes} minutes"



class Board:
    """The public tables of ``store`` that are open or playing, by number, as `m.TableSummary` values, and the
    lobby's pages made from them (`m.LOBBY_PAGE` tables a page)."""

    def __init__(self, store: Store, per_page: int = m.LOBBY_PAGE) -> None:
        self._store = store
        self._per_page = per_page
        self._tables: dict[int, m.TableSummary] = {}
        self._order: list[int] | None = None
        self._hosts: dict[int, str] = {}
        self._pages: dict[int, m.Lobby] = {}
        self._texts: dict[int, tuple[m.Lobby, str]] = {}  # page number -> the page and its JSON text
        self._people: tuple[str, ...] | None = None
        for table in store.tables(Status.OPEN, Status.PLAYING):
            self._put(table)
        store.on_table = self.table_changed

    def __len__(self) -> int:
        return len(self._tables)

    def table_changed(self, table_id: int) -> None:
        """The store changed this table: read it again (gone from the board once over or not public)."""
        table = self._store.table(table_id)
        self._tables.pop(table_id, None)
        if table is not None:
            self._put(table)
        if table is not None and table.status is Status.OVER:  # its end may have moved its people's ratings
            for person in {seat.player for seat in table.seats if seat.player is not None}:
                for hosted in self._store.tables_of(person):
                    if hosted.host == person:
                        self._put(hosted)
        self._order = None
        self._pages.clear()
        self._texts.clear()

    def people_changed(self) -> None:
        """Someone said hello or went: the people on every page are made again when next asked."""
        self._people = None
        self._pages.clear()
        self._texts.clear()

    def page(self, number: int, people: Callable[[], Iterable[str]] = tuple) -> m.Lobby:
        """Page ``number`` of the lobby (the last page if there are fewer), with the names ``people`` gives
        (asked, sorted and cut to `m.MAX_PEOPLE` only after `people_changed`)."""
        if self._people is None:
            self._people = tuple(sorted(set(people()), key=str.casefold)[: m.MAX_PEOPLE])
        if self._order is None:
            self._order = sorted(self._tables)
        pages = max(1, -(-len(self._order) // self._per_page))
        number = min(max(1, number), pages)
        found = self._pages.get(number)
        if found is None:
            first = (number - 1) * self._per_page
            shown = self._order[first:first + self._per_page]
            found = m.Lobby(tuple(self._tables[t] for t in shown), len(self._order) - first - len(shown),
                            self._people, number, pages)
            self._pages[number] = found
        return found

    def text(self, lobby: m.Lobby) -> str:
        """``lobby`` as JSON text: encoded once for a page of this board until it changes (a flood of ``lobby``
        then costs a look-up each), any other lobby each time."""
        kept = self._texts.get(lobby.page)
        if kept is not None and kept[0] is lobby:
            return kept[1]
        text = m.encode(lobby)
        if self._pages.get(lobby.page) is lobby:
            self._texts[lobby.page] = (lobby, text)
        return text

    def _put(self, table: Table) -> None:
        if not table.public or table.status is Status.OVER:
            return
        self._tables[table.id] = m.TableSummary(
            table.id, self._host(table.host), table.rules, len(table.open_seats),
            sum(1 for s in table.seats if s.computer is not None or s.stand_in is not None),
            table.status is Status.PLAYING, table.advice_allowed, rating_of(self._store.reading, table.host),
            TableWatch.load(self._store, table.id).allowed)

    def _host(self, player_id: int) -> str:
        name = self._hosts.get(player_id)
        if name is None:
            player = self._store.player(player_id)
            name = player.name if player is not None else "Nobody"
            if len(self._hosts) < 100_000:
                self._hosts[player_id] = name
        return name
