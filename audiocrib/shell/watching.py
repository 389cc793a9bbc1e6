"""Watching a table from the online screens: the lobby's Enter on a table under way (or its code, for a private
one) watches it; the watcher hears where the game stands, then every move as a seat that holds no cards would,
with the one-key questions; a key that would make a move says so (`WATCHING_HAND`) and sends nothing; Escape's game
menu stops watching. The host's game menu asks the watchers to leave, allows or refuses watchers, and lets their
chat through or not.

The browser's page runs this same session, so all of it is the browser's too.
"""

from __future__ import annotations

from audiocrib.client.remote import RemoteTable
from audiocrib.online import messages as m
from audiocrib.online.sayings import who_is_here
from audiocrib.shell.keys import Mode
from audiocrib.shell.table import Heard
from audiocrib.shell.typedline import TypedLines
from audiocrib.telling.answers import WATCHING_HAND

__all__ = ["STOP_WATCHING", "WatchingScreens"]

STOP_WATCHING = "stop watching"
"""The watcher's item of the game menu, in place of leaving the table for now."""
SEND_AWAY = "ask the watchers to leave"
NO_WATCHERS = "allow no watchers"
LET_WATCHERS = "allow watchers"
CHAT_THROUGH = "let the watchers' chat through to the players"
CHAT_AMONG = "keep the watchers' chat among the watchers"


class WatchingScreens(TypedLines):
    """The watcher's side of the online screens, and the host's items for watchers."""

    def _seated(self, answer: m.TableState | str) -> None:
        """Defined in `online`: sit down at a table (its waiting room, or the game under way)."""
        raise NotImplementedError

    @property
    def watching(self) -> bool:
        """True while this player watches a table."""
        return self.client is not None and self.client.watching

    def _table_chosen(self, number: str) -> None:
        """Enter on a table of the lobby: watch it if its game is under way, else sit down at it."""
        client = self.client
        if client is None:
            return
        lobby = client.lobby
        found = next((t for t in (lobby.tables if lobby else ()) if str(t.number) == number), None)
        if found is not None and found.started:
            self._watch_answer(client.watch(number))
        else:
            self._join_or_watch(number)

    def _join_or_watch(self, reference: str) -> None:
        """Sit at the table ``reference`` names, or watch it if its game is under way; a full table not yet begun
        is refused as watching one is ("has not begun; there is nothing to watch yet"), any other as the seat's."""
        client = self.client
        if client is None:
            return
        joined = client.join(reference)
        if isinstance(joined, str):
            watched = client.watch(reference)
            if isinstance(watched, m.TableState):
                self._watch_answer(watched)
                return
            if joined.endswith("has no seat open.") and watched.endswith("nothing to watch yet."):
                joined = watched
        self._seated(joined)

    def _join_by_code(self, code: str) -> None:
        """A code typed in the lobby: sit at that table, or watch it if its game is under way (refused as
        `_join_or_watch` says)."""
        self._join_or_watch(code)

    def _watch_answer(self, answer: m.TableState | str) -> None:
        """The server's answer to watching: begin watching where the game stands (at one's own table, sit there)."""
        client = self.client
        if isinstance(answer, str) or client is None or not client.watching:
            self._seated(answer)
            return
        if client.view is None:  # the catch-up comes before the answer's end: never, unless the server failed
            self.say("The server did not send the game; try again.")
            client.leave()
            return
        here = who_is_here(answer).replace(" You are watching, with ", " Watching with you: ")
        self.say(f"You are watching table {answer.number}. {here.replace(' You are watching.', '')}")  # said once
        self.say("You hear every move; the question keys answer, w says who is here, slash chats with the other"
                 " watchers, and Escape, then Stop watching, goes back to the lobby.")
        events = client.view.events
        self.resuming = True  # heard as far as now: where it stands, not the whole game again
        try:
            self._sit_at(RemoteTable(client, self.address.said), Heard(len(events), frozenset(), len(events)))
        finally:
            self.resuming = False
        self._say_where_it_stands()
        self.say(self.turn_text())

    def turn_text(self) -> str:
        """Defined in `table_keys`."""
        raise NotImplementedError

    def _watcher_move(self, key: str) -> None:
        """A key that would make a move, pressed by a watcher: one sentence, nothing sent."""
        self.cue("illegal")
        self.say(WATCHING_HAND)

    def _stop_watching(self) -> None:
        client = self.client
        refused = client.leave() if client is not None else None
        if refused is not None:
            self.say(refused)
        self.table = None
        self._to_lobby("You stopped watching. Lobby: ")

    # ----------------------------------------------------------------- the game menu's items
    def _watch_items(self) -> tuple[str, ...]:
        """The game menu's items for watchers: the watcher's Stop watching; the host's say over the watchers."""
        client = self.client
        state = client.state if client is not None else None
        if state is None:
            return ()
        if self.watching:
            return (STOP_WATCHING,)
        if state.host != state.you or state.watch is None:
            return ()
        watch = state.watch
        return (SEND_AWAY, LET_WATCHERS if not watch.allowed else NO_WATCHERS,
                *((CHAT_AMONG if watch.chat else CHAT_THROUGH,) if watch.allowed else ()))

    def _watch_item_choose(self, item: str) -> None:
        client = self.client
        state = client.state if client is not None else None
        if client is None or state is None or state.watch is None:
            return
        if item == STOP_WATCHING:
            self._stop_watching()
            return
        if item == SEND_AWAY:
            refused = client.watchers_leave()
        else:
            allowed = item != NO_WATCHERS and (item == LET_WATCHERS or state.watch.allowed)
            chat = item == CHAT_THROUGH or (item != CHAT_AMONG and state.watch.chat)
            refused = client.watch_settings(allowed, chat)
        if refused is not None:
            self.say(refused)
            return
        self.mode = Mode.GAME
        self.say("Back to the game.")  # the table's notice says what was done
