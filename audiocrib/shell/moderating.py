"""The people menu of the online screens: choose a player from a list, then mute their chat for yourself (every
player may), or, for a moderator, kick, mute for everyone, ban or ban their address, with a reason typed; and close
the table a moderator sits at. Opened by x at a table (and its waiting room), or by the lobby's item.

The server says whether this player is a moderator (`MODERATOR_WELCOME`, right after its welcome), and what was
done (a notice, said as it comes); a refusal is said here.
"""

from __future__ import annotations

from collections.abc import Callable

from audiocrib.client.remote import OnlineClient
from audiocrib.online.moderation import MODERATOR_WELCOME, OFFERED_ACTS
from audiocrib.shell.keys import Mode
from audiocrib.shell.lineedit import LineEdit
from audiocrib.shell.typedline import TypedLines

__all__ = ["PEOPLE_ITEM", "Moderating"]

PEOPLE_ITEM = "mute or moderate a player"
"""The lobby's item that opens the people menu."""
CLOSE_TABLE = "close this table"
BACK = "back"
NOBODY = "There is nobody else here."


class Moderating(TypedLines):
    """The people menu (Mode.PEOPLE): its list of players, then what to do about the one chosen."""

    people: tuple[str, ...] = ()
    """The players listed (the first step), or empty while the acts for `chosen` are listed."""
    chosen: str = ""
    people_from: Mode = Mode.LOBBY
    moderator_of: OnlineClient | None = None
    """The connection whose server said this player is a moderator."""

    @property
    def moderator(self) -> bool:
        return self.client is not None and self.moderator_of is self.client

    def _noticed(self, text: str) -> None:
        """A notice from the server (said already): the one that says this player is a moderator is kept."""
        if text == MODERATOR_WELCOME:
            self.moderator_of = self.client

    def _people_open(self, key: str = "x") -> None:
        """x, or the lobby's item: the list of the other players here."""
        client = self.client
        if client is None:
            self.say("You are not connected to a server.")
            return
        if client.state is not None:
            state = client.state
            names = tuple(s.name for i, s in enumerate(state.seats) if s.name and s.person and i != state.you)
        else:
            answer = client.ask_lobby()
            if isinstance(answer, str):
                self.say(answer)
                return
            names = tuple(n for n in answer.people if n.casefold() != (client.name or "").casefold())
        closing = (CLOSE_TABLE,) if self.moderator and client.state is not None else ()
        if not names and not closing:
            self.say(NOBODY)
            return
        if self.mode is not Mode.PEOPLE:
            self.people_from = self.mode
        self.mode, self.people, self.chosen, self.menu_index = Mode.PEOPLE, (*names, *closing, BACK), "", 0
        self.say(f"Players: {self._people_item_text(self.people[0])}. 1 of {len(self.people)}.")

    def _people_items(self) -> tuple[str, ...]:
        if self.chosen:
            own = (f"stop hearing {self.chosen}'s chat", f"hear {self.chosen}'s chat again")
            acts = tuple(words.format(name=self.chosen) for _, words, _ in OFFERED_ACTS) if self.moderator else ()
            return (*own, *acts, BACK)
        return self.people or (BACK,)

    def _people_item_text(self, item: str) -> str:
        return item[0].upper() + item[1:]

    def _people_choose(self, item: str) -> None:
        client = self.client
        if client is None or item == BACK:
            self._people_back()
            return
        if item == CLOSE_TABLE:
            state = client.state
            if state is None:
                self._people_back()
                return
            self._ask_reason(f"table {state.number}", lambda reason: client.moderate(
                "close", str(state.number), None, reason))
            return
        if not self.chosen:
            self.chosen, self.menu_index = item, 0
            items = self._people_items()
            self.say(f"{item}: {self._people_item_text(items[0])}. 1 of {len(items)}.")
            return
        name = self.chosen
        if item in (f"stop hearing {name}'s chat", f"hear {name}'s chat again"):
            self._people_done(client.mute(name, item.startswith("stop")))
            return
        act, _, minutes = next(a for a in OFFERED_ACTS if a[1].format(name=name) == item)
        self._ask_reason(name, lambda reason: client.moderate(act, name, minutes, reason))

    def _ask_reason(self, whom: str, send: Callable[[str], str | None]) -> None:
        def then(reason: str) -> None:
            self._people_done(send(reason))

        self._ask_line(LineEdit("Reason", 200), f"Type the reason, kept in the server's records and told to"
                       f" {whom}; then press Enter. Escape cancels.", then, lambda: self._people_back("Not done."))

    def _people_done(self, refused: str | None) -> None:
        """After an act: the refusal said, or the server's notice (said as it comes); back where the player was."""
        self._people_back(refused or "")

    def _people_escape(self) -> None:
        if self.chosen:
            self.chosen, self.menu_index = "", 0
            self.say(f"Players: {self._people_item_text(self.people[0])}. 1 of {len(self.people)}.")
            return
        self._people_back()

    def _people_back(self, said: str = "") -> None:
        """Back to the lobby, the waiting room or the game, saying ``said`` first."""
        self.chosen, self.people = "", ()
        if said:
            self.say(said)
        if self.client is None:
            return
        if self.people_from is Mode.GAME and self.table is not None and self.client.state is not None:
            self.mode = Mode.GAME
            self.say("Back to the game.")
        elif self.people_from is Mode.WAITING_ROOM and self.client.state is not None:
            self.mode, self.menu_index = Mode.WAITING_ROOM, 0
            self._say_lobby_item()
        else:
            self._to_lobby("Lobby: ")

    def _table_closed(self) -> None:
        """A moderator closed this player's table (its notice said already): back to the lobby."""
        self.table = None
        self.chosen, self.people = "", ()
        self._to_lobby("Lobby: ")
