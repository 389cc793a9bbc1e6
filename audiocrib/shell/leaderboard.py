"""Lists read in the lobby's place, and the first of them, "Top players": the leaderboard of the server's rated
players (place, name, rating, rated matches; the top twenty) with this player's own rating said first, in a
sentence. Up and down read the lines, Escape (or "back to the lobby") goes back to the lobby.

`LobbyList` is the list shown while one is open (`LobbyLists.lobby_list`); the online screens ask it for its items
and their words, and hand it Enter and Escape. Every sentence comes from `audiocrib.online.ratings`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from audiocrib.online.ratings import (
    AskRating,
    AskTopPlayers,
    RatingOf,
    TopPlayers,
    rated_line,
    rating_sentence,
    top_players_count,
)
from audiocrib.shell.typedline import TypedLines

__all__ = ["BACK_TO_LOBBY", "TOP_PLAYERS_ITEM", "LobbyList", "LobbyLists"]

TOP_PLAYERS_ITEM = "top players"
"""The lobby's item that opens the leaderboard."""
BACK_TO_LOBBY = "back to the lobby"


@dataclass(frozen=True, slots=True)
class LobbyList:
    """A list in the lobby's place: its items (unique keys) and the words of each, and what Enter on an item does
    (None: Enter reads it again)."""

    items: tuple[str, ...]
    words: dict[str, str] = field(default_factory=dict)
    choose: Callable[[str], None] | None = None

    def text(self, item: str) -> str:
        said = self.words.get(item, item).rstrip(".")  # the menu adds its own full stop
        return said[0].upper() + said[1:]


class LobbyLists(TypedLines):
    """The lists read in the lobby's place (the leaderboard here; past matches in `audiocrib.shell.pastonline`)."""

    lobby_list: LobbyList | None = None
    """The list shown in the lobby's place, while one is open."""

    def _to_lobby(self, prefix: str = "Lobby: ", page: int = 1) -> None:  # pragma: no cover - the online screens'
        raise NotImplementedError

    def _say_lobby_item(self) -> None:  # pragma: no cover - the online screens'
        raise NotImplementedError

    def _show_list(self, opening: str, shown: LobbyList) -> None:
        """Open ``shown`` in the lobby's place: say ``opening``, then its first item."""
        self.lobby_list, self.menu_index = shown, 0
        self.say(opening)
        self._say_lobby_item()

    def _lobby_list_choose(self, item: str) -> None:
        shown = self.lobby_list
        if shown is None or item == BACK_TO_LOBBY:
            self._lobby_list_close()
        elif shown.choose is not None:
            shown.choose(item)
        else:
            self._say_lobby_item()

    def _lobby_list_close(self) -> None:
        self.lobby_list = None
        self._to_lobby()

    def _top_players_open(self) -> None:
        """The lobby's Top players: this player's rating in a sentence, then the leaderboard, a line each."""
        client = self.client
        if client is None:
            return
        top = client.ask_for(AskTopPlayers(), TopPlayers)
        own = client.ask_for(AskRating(), RatingOf)
        if isinstance(top, str) or isinstance(own, str):
            self.say(top if isinstance(top, str) else str(own))
            return
        lines = {f"player {n}": rated_line(player) for n, player in enumerate(top.players, 1)}
        words = {"your rating": rating_sentence(own, own=True), **lines}
        self._show_list(top_players_count(top), LobbyList(("your rating", *lines, BACK_TO_LOBBY), words))
