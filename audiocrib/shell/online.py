"""Playing online: the server's address and the player's name (asked once, then remembered), connecting, the
lobby, making a table, the waiting room, chat and who is here, a game played at a `RemoteTable`, and a dropped
connection said once and picked up again by itself.

What the server sends arrives on the connection's own thread; `OnlineScreens._poll_online`, run by the shell's
tick on its own loop, says it and moves the screens on.
"""

from __future__ import annotations

from audiocrib.client.address import Address, read_address
from audiocrib.client.remote import OnlineClient, RemoteTable, Said
from audiocrib.engine.game import Phase
from audiocrib.online import messages as m
from audiocrib.online.fields import NAME, ProtocolError
from audiocrib.online.sayings import chat_line, lobby_count, lobby_people, table_line, who_is_here
from audiocrib.shell.account import ACCOUNT_ITEM, AccountScreens
from audiocrib.shell.keys import CREATE_ITEMS, Mode
from audiocrib.shell.leaderboard import TOP_PLAYERS_ITEM
from audiocrib.shell.lineedit import LineEdit
from audiocrib.shell.moderating import PEOPLE_ITEM, Moderating
from audiocrib.shell.newtable import NewTableScreens
from audiocrib.shell.pastonline import PAST_MATCHES_ITEM, PastOnline
from audiocrib.shell.servers import load_book, save_book
from audiocrib.shell.table import Heard
from audiocrib.shell.watching import WatchingScreens

__all__ = ["OnlineScreens"]

NEEDS_PASSWORD = "This server has a password; ask whoever runs it."
LOBBY_IS_FIRST = "This is the lobby, the first screen here; Settings and Quit are at the end of its list."
UNKNOWN_TOKEN = "This server does not know your token; connect without one to choose a name."


class OnlineScreens(AccountScreens, Moderating, NewTableScreens, WatchingScreens, PastOnline):
    """The online screens and the chat and who keys."""

    # ----------------------------------------------------------------- address, name, connecting
    def _play_online(self) -> None:
        """The main menu's Play online: connect with what is remembered, or ask for it first."""
        if not self.online_only:  # a browser's book is the one its hello gave, kept by the browser
            self.book, notice = load_book(self.save_path.parent if self.save_path is not None else None)
            if notice:
                self.say(notice)
        given, self.online_address = self.online_address, None
        if given:
            self.book.address = given
        if not self.book.address:
            self._ask_address()
        else:
            self._address_chosen(self.book.address)

    def _back_to_main(self) -> None:
        self._close_online()
        self._enter_menu(Mode.MAIN, "Main menu: ")

    def _online_home(self) -> None:
        """A browser's stand-in for the main menu when it is not connected: the name question, with the name
        typed already (Enter connects again)."""
        self._close_online()
        self._ask_name()

    def _ask_address(self) -> None:
        self._ask_line(LineEdit("Server address", 200, self.book.address),
                       "Type the server's address, then press Enter: localhost for a server on this computer, or "
                       "the name or number your host gave, such as 192.168.1.20. Up arrow reads back what you typed;"
                       " Escape goes back.", self._address_chosen, self._back_to_main)

    def _address_chosen(self, text: str) -> None:
        try:
            address = read_address(text)
        except ValueError as error:
            self.say(str(error))
            self._ask_address()
            return
        if self.online_only:  # the gateway's own loopback address means nothing to a browser's player
            address = Address(address.url, "this server")
        if address != self.address:
            self.password = None
        self.book.address, self.address = text, address
        if not self.book.name:
            self._ask_name()
        else:
            self._connect()

    def _ask_name(self, typed: str | None = None) -> None:
        self._ask_line(LineEdit("Your name", 24, self.book.name if typed is None else typed),
                       "Type the name the others will hear, up to twenty-four letters, digits and spaces, then press"
                       " Enter.", self._name_chosen, self._back_to_main)

    def _name_chosen(self, text: str) -> None:
        try:
            name = NAME.read(text, "a name")
        except ProtocolError as error:
            self.say(str(error))
            self._ask_name(text)
            return
        self.book.name = name
        self._connect()

    def _connect(self, password: str | None = None, fresh: bool = False, name_password: str | None = None) -> None:
        self._close_online()
        address: Address = self.address
        kept = None if fresh else self.book.token_for(address.url)
        token = kept[1] if kept is not None and kept[0].casefold() == self.book.name.casefold() else None
        if password is not None:
            self.password = password  # kept for this run, for a reconnection under another name
        self.client = OnlineClient(address.url, self.book.name, token, self.password, ssl_context=self.online_ssl,
                                   link=self.online_link)
        self.client.name_password = name_password
        self.mode = Mode.CONNECTING
        self.say(f"Connecting to {address.said}, as {self.book.name}. Escape stops.")
        self.client.start()

    def _close_online(self) -> None:
        client = self.client
        if client is not None:
            self.client = None
            client.close()
        if isinstance(self.table, RemoteTable):
            self.table = None
            self.count_clock.stop()
            if self.mode in (Mode.GAME, Mode.GAME_MENU) or self.line_from in (Mode.GAME, Mode.GAME_MENU):
                self.mode = self.line_from = Mode.MAIN  # the table is gone: nothing may ask it any more

    def _stop_connecting(self, key: str) -> None:
        self.say("Stopped.")
        self._back_to_main()

    # ----------------------------------------------------------------- what the server sends
    def _poll_online(self) -> None:
        """Say what has come from the server, and move the screens on with it (run by the tick)."""
        client = self.client
        if client is None:
            return
        while client.inbox and self.client is client:
            self._take(client.inbox.popleft())
        if self.client is not client:
            return
        self._maybe_close_match()
        if isinstance(self.table, RemoteTable):
            if client.view is not None:
                self.table.poll()
        elif self.mode in (Mode.WAITING_ROOM, Mode.CONNECTING) or self.line_from is Mode.WAITING_ROOM:
            self._maybe_begin()

    def _take(self, said: Said) -> None:
        if said.kind == "chat":
            own = self.client is not None and said.sender == self.client.name
            line = f"You say: {said.text}" if own else chat_line(said.sender, said.text)
            if self.settings.chat:
                self.cue("chat")
                self.say(line)
            else:
                self.announcer.history.add(line)
        elif said.kind == "news":
            if isinstance(self.table, RemoteTable) and self.client is not None and self.client.view is not None:
                self.table.poll()  # the game as far as this view, told before the notices that came after it
        elif said.kind == "notice":
            self.say(said.text)
            self._noticed(said.text)
            self._maybe_close_match(now=True)
        elif said.kind == "closed":
            self._table_closed()
        elif said.kind == "lost":
            self._lost(said.text)
        elif said.kind == "connected":
            self._connected(said.text)
        elif said.kind == "refused":
            self._refused(said.text)

    def _lost(self, reason: str) -> None:
        why = f" ({reason})" if reason else ""
        if self.mode is Mode.CONNECTING:
            self.say(f"Could not connect to {self.address.said}{why}. Trying again; Escape stops.")
        else:
            self.say(f"The connection to the server was lost{why}. Trying again by itself.")

    def _connected(self, name: str) -> None:
        client = self.client
        assert client is not None and client.token is not None
        self.book.remember(self.address.url, self.book.address, name, client.token)
        try:
            save_book(self.save_path.parent if self.save_path is not None else None, self.book)
        except OSError:
            self.say("Your name on this server could not be kept; you will choose it again next time.")
        if isinstance(self.table, RemoteTable):
            self.say("Connected again.")
            self._seat_kept()
            if self.mode is Mode.GAME and not self.holding:
                self._say_where_it_stands()
            self.table.poll()  # what happened meanwhile, then the question, once
            if self.watching and self.mode is Mode.GAME and not self.holding:
                self.say(self.turn_text())  # whose turn, as on arrival
            return
        if self.mode is not Mode.CONNECTING:  # back in the lobby, a new table's menu, the waiting room, a line
            self.say("Connected again.")
            return
        renamed = f"; this server knows you as {name}" if name != self.book.name else ""
        self.say(f"Connected{renamed}.")
        here = client.who()  # answered after whatever the server sends a player back at a table
        if isinstance(here, m.TableState) and here.started and client.view is not None:
            self._maybe_begin()
        elif isinstance(here, m.TableState):
            self._seated(here)
        else:
            self._to_lobby()

    def _refused(self, sentence: str) -> None:
        if self._account_refused(sentence) or self._account_signed_out(sentence):
            return
        if sentence == UNKNOWN_TOKEN:
            self.book.forget(self.address.url)
            self._connect(fresh=True)
            return
        self.say(sentence)
        if sentence == NEEDS_PASSWORD or sentence.startswith("That is not this server's password"):
            self._ask_line(LineEdit("Password", 128, secret=True), "Type the server's password, then Enter.",
                           lambda text: self._connect(password=text), self._back_to_main)
        elif "name" in sentence.casefold():
            self._ask_name()
        else:
            self._back_to_main()

    # ----------------------------------------------------------------- the lobby
    def _to_lobby(self, prefix: str = "Lobby: ", page: int = 1) -> None:
        """Ask for page ``page`` of the lobby and say it: how many tables (which, past one page), then the first
        table, if any."""
        client = self.client
        if client is None:
            return
        self.account_open = self.lobby_list = None
        answer = client.ask_lobby(page)
        if isinstance(answer, str):
            self.say(answer)
        tables = client.lobby.tables if client.lobby else ()
        self.mode, self.menu_index = Mode.LOBBY, 1 if tables else 0  # on the first table, if any
        counted = lobby_count(client.lobby) if client.lobby else "no tables open"
        said = f"{prefix}{counted}."
        self.say(said[0].upper() + said[1:])
        self._say_lobby_item()

    def _lobby_page_items(self) -> tuple[str, ...]:
        """"next tables" and "earlier tables", where the lobby has pages after or before this one."""
        lobby = self.client.lobby if self.client is not None else None
        if lobby is None:
            return ()
        return (*(("next tables",) if lobby.page < lobby.pages else ()),
                *(("earlier tables",) if lobby.page > 1 else ()))

    def _say_lobby_item(self) -> None:
        items = self._online_items()
        self.menu_index %= len(items)
        self.say(f"{self._online_item_text(items[self.menu_index])}. {self.menu_index + 1} of {len(items)}.")

    def _online_items(self) -> tuple[str, ...]:
        """The items of the lobby, the new table's menu or the waiting room."""
        if self.mode is Mode.PEOPLE:
            return self._people_items()
        if self.mode is Mode.LOBBY and self.account_open is not None:
            return self._account_items()
        if self.mode is Mode.LOBBY and self.lobby_list is not None:
            return self.lobby_list.items
        if self.mode is Mode.LOBBY:
            lobby = self.client.lobby if self.client is not None else None
            tables = (*(f"table {t.number}" for t in (lobby.tables if lobby else ())), *self._lobby_page_items())
            if self.online_only:  # a browser's first screen: its settings and quit are here, its server is fixed
                return ("create a table", *tables, "join a table by its code", "refresh the list", "who is here",
                        TOP_PLAYERS_ITEM, PAST_MATCHES_ITEM, ACCOUNT_ITEM, PEOPLE_ITEM, "change your name",
                        "settings", "quit")
            return ("create a table", *tables, "join a table by its code", "refresh the list", "who is here",
                    TOP_PLAYERS_ITEM, PAST_MATCHES_ITEM, ACCOUNT_ITEM, PEOPLE_ITEM, "change server or name",
                    "back to the main menu")
        if self.mode is Mode.CREATE:
            return CREATE_ITEMS
        host = self.client is not None and self.client.state is not None and \
            self.client.state.host == self.client.state.you
        return (*(("start the game",) if host else ()), "who is at the table", "leave the table")

    def _online_item_text(self, item: str) -> str:
        if self.mode is Mode.PEOPLE:
            return self._people_item_text(item)
        if self.mode is Mode.LOBBY and self.lobby_list is not None:
            return self.lobby_list.text(item)
        lobby = self.client.lobby if self.client is not None else None
        if item.startswith("table ") and lobby is not None:
            found = next((t for t in lobby.tables if f"table {t.number}" == item), None)
            if found is not None:
                return table_line(found).rstrip(".") + ("; Enter to watch" if found.started and found.watch else "")
        if self.mode is Mode.CREATE:
            return self._create_item_text(item)
        return item[0].upper() + item[1:]

    def _online_choose(self, key: str) -> None:
        items = self._online_items()
        item = items[self.menu_index % len(items)]
        client = self.client
        if client is None:
            self._back_to_main()
            return
        if self.mode is Mode.CREATE:
            self._create_choose(item)
        elif self.mode is Mode.PEOPLE:
            self._people_choose(item)
        elif item == PEOPLE_ITEM:
            self._people_open()
        elif self.mode is Mode.LOBBY and (self.account_open is not None or item == ACCOUNT_ITEM):
            self._account_choose(item)
        elif self.mode is Mode.LOBBY and self.lobby_list is not None:
            self._lobby_list_choose(item)
        elif item == TOP_PLAYERS_ITEM:
            self._top_players_open()
        elif item == PAST_MATCHES_ITEM:
            self._past_matches_open()
        elif item == "create a table":
            self.online_people = min(self.online_people, self.setup.rules().players)
            self.mode, self.menu_index = Mode.CREATE, 0
            self.say(f"New table: {self._create_item_text(CREATE_ITEMS[0])}. 1 of {len(CREATE_ITEMS)}.")
        elif item.startswith("table "):
            self._table_chosen(item.removeprefix("table "))
        elif item == "join a table by its code":
            self._ask_line(LineEdit("Table code", 16, spell=True), "Type the table's code, then press Enter.",
                           self._join_by_code, lambda: self._say_lobby_item())
        elif item == "refresh the list":
            self._to_lobby("Lobby, again: ", client.lobby.page if client.lobby else 1)
        elif item in ("next tables", "earlier tables"):
            page = client.lobby.page if client.lobby else 1
            self._to_lobby("", page + 1 if item == "next tables" else page - 1)
        elif item in ("who is here", "who is at the table"):
            self._who("w")
        elif item == "change server or name":
            self._close_online()
            self._ask_address()
        elif item == "change your name":
            self._online_home()
        elif item == "settings":
            self._open_settings()
        elif item == "quit":
            self._quit_now(key)
        elif item == "back to the main menu":
            self._back_to_main()
        elif item == "start the game":
            refused = client.start_game()
            if refused is not None:
                self.say(refused)
        elif item == "leave the table":
            refused = client.leave()
            self.say(refused) if refused is not None else self._to_lobby("You left the table. Lobby: ")

    def _online_escape(self, key: str) -> None:
        if self.mode is Mode.PEOPLE:
            self._people_escape()
        elif self.mode is Mode.LOBBY and self.account_open is not None:
            self._account_close()
        elif self.mode is Mode.LOBBY and self.lobby_list is not None:
            self._lobby_list_close()
        elif self.mode is Mode.LOBBY and self.online_only:
            self.say(LOBBY_IS_FIRST)
        elif self.mode is Mode.LOBBY:
            self._back_to_main()
        elif self.mode is Mode.CREATE:
            self._to_lobby()
        else:
            self._online_choose_item("leave the table")

    def _online_choose_item(self, item: str) -> None:
        items = self._online_items()
        self.menu_index = items.index(item)
        self._online_choose("enter")

    # ----------------------------------------------------------------- at a table
    def _seated(self, answer: m.TableState | str) -> None:
        if isinstance(answer, str):
            self.say(answer)
            return
        self.mode, self.menu_index = Mode.WAITING_ROOM, 0
        self.say(who_is_here(answer))
        self._maybe_begin()
        if self.mode is Mode.WAITING_ROOM:
            self._say_lobby_item()

    def _maybe_begin(self) -> None:
        """Once the table's game has begun and its view has come, sit down at it."""
        client = self.client
        if client is None or client.state is None or not client.state.started or client.view is None:
            return
        fresh = Mode.WAITING_ROOM in (self.mode, self.line_from)
        typing = self.mode is Mode.TYPING
        table = RemoteTable(client, self.address.said)
        events = client.view.events
        if not fresh:  # back at a game under way: where it stands, not the whole game again
            self.say(f"Back at table {client.state.number}.")
            self._seat_kept()
            self.resuming = True
            try:
                self._sit_at(table, Heard(len(events), frozenset(), len(events)))
            finally:
                self.resuming = False
            if self.moment not in ("discard", "play", "count", "peg"):
                self._say_where_it_stands()
                self.say(self._prompt_text())
        else:
            self.say("The game begins.")
            self._sit_at(table, Heard(0, frozenset(), -1))
        if typing:  # the line being typed is still being typed, over the game now
            self.mode, self.line_from = Mode.TYPING, Mode.GAME

    def _seat_kept(self) -> None:
        """Say so if a computer player keeps the player's seat."""
        state = self.client.state if self.client is not None else None
        if state is not None and state.you < len(state.seats) and state.seats[state.you].computer is not None:
            self.say("A computer player is playing your seat; Escape, then Take your seat back.")

    def _leave_online_game(self) -> None:
        """The game menu's Leave the table for now, or Enter after the match: off to the lobby or the main menu."""
        client = self.client
        if client is not None and client.state is not None and isinstance(self.table, RemoteTable) \
                and self.table.phase is Phase.MATCH_OVER:
            self.table = None
            refused = client.leave()
            if refused is None:
                self._to_lobby("Lobby: ")
                return
        elif client is not None and client.state is not None and client.connected:
            client.leave()  # so the others hear you left for now, not that your connection was lost
        self._close_online()
        if self.online_only:
            self.say("You left the table; your seat is kept for you, and connecting again takes you back to it.")
            self._online_home()
            return
        self.say("You left the table; your seat is kept for you. Choose Play online to go back to it.")
        self._enter_menu(Mode.MAIN, "Main menu: ")

    def _seat_items(self) -> tuple[str, ...]:
        """The game menu's items for seats at an online table: the host gives an absent person's seat to a
        computer player; a player whose seat a computer player keeps takes it back."""
        state = self.client.state if self.client is not None else None
        if state is None or self.watching:
            return self._watch_items()
        items = []
        if state.seats[state.you].computer is not None:
            items.append("take your seat back")
        if state.host == state.you:
            items += [f"give {seat.name}'s seat to a computer player" for seat in state.seats
                      if seat.name and seat.computer is None and not seat.connected]
        return (*items, *self._watch_items())

    def _seat_item_choose(self, item: str) -> None:
        client, state = self.client, self.client.state if self.client is not None else None
        if client is None or state is None:
            return
        if item in self._watch_items():
            self._watch_item_choose(item)
            return
        if item == "take your seat back":
            refused = client.take_seat_back()
        else:
            seat = next(i for i, s in enumerate(state.seats) if item == f"give {s.name}'s seat to a computer player")
            refused = client.give_seat(seat, "medium")
        if refused is not None:
            self.say(refused)
            return
        self.mode = Mode.GAME
        self.say("Back to the game.")  # the table's news says what was done

    def _chat_open(self, key: str) -> None:
        client = self.client
        if client is None or client.state is None:
            self.say("Chat is for the people at your table; sit at a table first.")
            return
        watch = client.state.watch if client.watching else None
        where = "" if watch is None else ("Your message goes to the players and the other watchers. " if watch.chat
                                          else "Your message goes to the other watchers only. ")
        ask = f"{where}Type it, then press Enter to send it; Escape cancels." if where else \
            "Type your message, then press Enter to send it; Escape cancels."
        self._ask_line(LineEdit("Message", 300), ask,
                       self._chat_send, lambda: self.say("Not sent."))

    def _chat_send(self, text: str) -> None:
        client = self.client
        refused = client.chat(text) if client is not None else "You are not connected."
        if refused is not None:
            self.say(refused)

    def _who(self, key: str) -> None:
        client = self.client
        if client is None:
            self.say("You are not connected to a server.")
            return
        answer = client.who() if client.connected else (client.state or "You are not connected just now.")
        if isinstance(answer, str):
            self.say(answer)
        elif isinstance(answer, m.TableState):
            self.say(who_is_here(answer))
        else:
            self.say(lobby_people(answer))
