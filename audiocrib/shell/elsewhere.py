"""The methods one screen of the shell calls on another, declared for `SessionCore` (and the type checker) and
defined by the screen each names: `DefinedElsewhere`."""

from __future__ import annotations

from collections.abc import Callable

from audiocrib.engine.actions import Action
from audiocrib.engine.cards import Card
from audiocrib.engine.pastmatch import PastMatch
from audiocrib.engine.views import PlayerView
from audiocrib.shell.keys import Binding, Mode
from audiocrib.shell.table import Heard, Table

__all__ = ["DefinedElsewhere"]


class DefinedElsewhere:
    """Each method here is defined by the screen its docstring names; `Session` has them all."""

    def _keep_settings(self, name: str | None = None) -> None:
        """Defined in `keeping`."""
        raise NotImplementedError

    def _game_moment(self) -> str:
        """Defined in `at_table`: the game's moment, whatever menu is open over it."""
        raise NotImplementedError

    def _typed_ahead(self, binding: Binding | None) -> bool:
        """Defined in `at_table`."""
        raise NotImplementedError

    def _note_news(self) -> None:
        """Defined in `at_table`."""
        raise NotImplementedError

    def _escape_text(self) -> str:
        """Defined in `menus`."""
        raise NotImplementedError

    def _every_key(self, key: str) -> None:
        """Defined in `helping`."""
        raise NotImplementedError

    def _item_text(self, item: str) -> str:
        """Defined in `menus`."""
        raise NotImplementedError

    def _practice_choose(self, item: str) -> None:
        """Defined in `practice`."""
        raise NotImplementedError

    def _enter_menu(self, mode: Mode, prefix: str) -> None:
        """Defined in `menus`."""
        raise NotImplementedError

    def _confirmed(self, question: str) -> bool:
        """Defined in `at_table`."""
        raise NotImplementedError

    def _new_game(self) -> None:
        """Defined in `keeping`."""
        raise NotImplementedError

    def _sit_at(self, table: Table, heard: Heard) -> None:
        """Defined in `at_table`: play at ``table``, the player having heard it as far as ``heard``."""
        raise NotImplementedError

    def _autosave(self) -> None:
        """Defined in `keeping`."""
        raise NotImplementedError

    def _count_games(self) -> None:
        """Defined in `keeping`: add the games won since last looked to the statistics, and keep them."""
        raise NotImplementedError

    def _save_and_quit(self) -> None:
        """Defined in `keeping`."""
        raise NotImplementedError

    def _confirm_abandon(self) -> None:
        """Defined in `keeping`."""
        raise NotImplementedError

    def _resume_saved(self) -> None:
        """Defined in `keeping`."""
        raise NotImplementedError

    def _say_where_it_stands(self) -> None:
        """Defined in `at_table`."""
        raise NotImplementedError

    def _say_statistics(self) -> None:
        """Defined in `keeping`."""
        raise NotImplementedError

    def close(self) -> None:
        """Defined in `keeping`: let the data folder go (at the end of the run)."""
        raise NotImplementedError

    def view(self) -> PlayerView:
        """Defined in `at_table`."""
        raise NotImplementedError

    def _settle(self) -> None:
        """Defined in `at_table`."""
        raise NotImplementedError

    def _prompt_text(self) -> str:
        """Defined in `at_table`."""
        raise NotImplementedError

    def _hand(self) -> list[Card]:
        """Defined in `table_keys`: the cards held, in the order their positions count."""
        raise NotImplementedError

    def _act(self, action: Action) -> bool:
        """Defined in `at_table`."""
        raise NotImplementedError

    def _typing_key(self, key: str) -> None:
        """Defined in `online`: a character typed into the line."""
        raise NotImplementedError

    def _play_online(self) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _poll_online(self) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _online_items(self) -> tuple[str, ...]:
        """Defined in `online`."""
        raise NotImplementedError

    def _online_item_text(self, item: str) -> str:
        """Defined in `online`."""
        raise NotImplementedError

    def _online_change(self, direction: int) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _online_choose(self, key: str) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _online_escape(self, key: str) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _start_new_table(self) -> None:
        """Defined in `online`: Start the game, at the end of a new table's setup."""
        raise NotImplementedError

    def _leave_online_game(self) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _close_online(self) -> None:
        """Defined in `online`: let the server's connection go."""
        raise NotImplementedError

    def _seat_items(self) -> tuple[str, ...]:
        """Defined in `online`."""
        raise NotImplementedError

    def _seat_item_choose(self, item: str) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _to_lobby(self, prefix: str = "Lobby: ", page: int = 1) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _say_lobby_item(self) -> None:
        """Defined in `online`."""
        raise NotImplementedError

    def _online_home(self) -> None:
        """Defined in `online`: a browser's stand-in for the main menu when not connected."""
        raise NotImplementedError

    def _open_settings(self) -> None:
        """Defined in `menus`."""
        raise NotImplementedError

    def _main_items(self) -> tuple[str, ...]:
        """Defined in `pastmatches`: the main menu's items."""
        raise NotImplementedError

    def _open_past_matches(self) -> None:
        """Defined in `pastmatches`."""
        raise NotImplementedError

    def _keep_past_match(self) -> None:
        """Defined in `pastmatches`: keep the match just ended among the past matches."""
        raise NotImplementedError

    def _replay(self, match: PastMatch, back: Callable[[], None] | None = None) -> None:
        """Defined in `replaying`: hear ``match`` again (Escape then calls ``back``; None: back to this screen)."""
        raise NotImplementedError

    def _maybe_close_match(self, now: bool = False) -> None:
        """Defined in `coaching`: a rated match's closing words, once the rating is said or waited for."""
        raise NotImplementedError

    def _replay_where(self) -> str:
        """Defined in `replaying`: where the replay stands, for the help."""
        raise NotImplementedError
