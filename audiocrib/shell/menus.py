"""The menus: the main menu, the table setup, the settings (with the sound test), and the game menu."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from audiocrib.client.remote import RemoteTable
from audiocrib.shell.core import SessionCore
from audiocrib.shell.drills import PRACTICE_ITEMS
from audiocrib.shell.keys import CREATE_ITEMS, GAME_MENU_ITEMS, ONLINE_GAME_MENU_ITEMS, ONLINE_MENUS, Mode
from audiocrib.shell.settings import SETTING_NAMES
from audiocrib.telling.cues import CUES

if TYPE_CHECKING:
    from audiocrib.shell.progressbook import ProgressBook


class Menus(SessionCore):
    """The menus' items, how they are said, moved through, changed and chosen."""

    if TYPE_CHECKING:  # `keeping`'s, found after this class: a stub here would stand in its way

        @property
        def progress(self) -> ProgressBook:
            """The progress figures."""

    def _escape_text(self) -> str:
        return {
            Mode.MAIN: "Quit.", Mode.SETUP: "Back to the main menu.", Mode.SETTINGS: "Back.",
            Mode.GAME_MENU: "Back to the game.", Mode.GAME: "The game menu.", Mode.PRACTICE: "Back to the main menu.",
            **({Mode.SETUP: "Back to the new table."} if self.return_mode is Mode.CREATE else {}),
            Mode.DRILL: "Stop the drills.", Mode.SOUND_TEST: "Back to the settings.",
            Mode.LOBBY: "Says that the lobby is the first screen." if self.online_only else "Back to the main menu.",
            Mode.CREATE: "Back to the lobby.",
            Mode.WAITING_ROOM: "Leave the table.", Mode.TYPING: "Cancel.", Mode.CONNECTING: "Stop connecting.",
            Mode.PEOPLE: "Back.", Mode.PAST_MATCHES: "Back to the main menu.", Mode.REPLAY: "Back.",
        }[self.mode]

    def _items(self) -> tuple[str, ...]:
        if self.mode in ONLINE_MENUS:
            return self._online_items()
        if self.mode is Mode.MAIN:
            return self._main_items()
        if self.mode is Mode.SETUP:
            return (*self.setup.menu_settings(), "start the game")
        if self.mode is Mode.SETTINGS:
            return (*SETTING_NAMES, "sound test", "back")
        if self.mode is Mode.SOUND_TEST:
            return tuple(CUES)
        if self.mode is Mode.PRACTICE:
            return PRACTICE_ITEMS
        if isinstance(self.table, RemoteTable):
            leave = () if self.client is not None and self.client.watching else ONLINE_GAME_MENU_ITEMS[-1:]
            return (*ONLINE_GAME_MENU_ITEMS[:-1], *self._seat_items(), *leave)
        return GAME_MENU_ITEMS

    def _item_text(self, item: str) -> str:
        if self.mode in ONLINE_MENUS:
            return self._online_item_text(item)
        if self.mode is Mode.SETUP and item != "start the game":
            return f"{self.setup.label(item)}: {self.setup.value_text(item)}"
        if self.mode is Mode.SOUND_TEST:
            return f"{item[0].upper()}{item[1:]}: {CUES[item]}"
        if self.mode is Mode.SETTINGS and item not in ("back", "sound test"):
            text = f"{self.settings.label(item)}: {self.settings.value_text(item)}"
            if item == "sounds" and self.settings.sounds and self._no_sound():
                text += f", but nothing plays: {self._no_sound()}"
            if item == "show_text" and not self.settings.show_text and not self.announcer.speaking:
                text += ", but the lines still show while there is no speech but text lines"
            return text
        if self.mode is Mode.PRACTICE:
            return self.drills.item_text(item)
        if item == "table setup":
            return f"Table setup: {self.setup.rules().describe()}"
        if item == "new game" and self.elsewhere:
            return "New game, not kept: another copy of audiocrib keeps the games in this folder"
        if item == "save and quit" and self.elsewhere:
            return "Save and quit: this game cannot be kept here, another copy of audiocrib keeps the games"
        return item[0].upper() + item[1:]

    def _say_item(self, prefix: str = "") -> None:
        items = self._items()
        self.menu_index %= len(items)
        if self.mode is Mode.SOUND_TEST:  # the sound itself, then its name
            self.cue(items[self.menu_index])
        self.say(f"{prefix}{self._item_text(items[self.menu_index])}. {self.menu_index + 1} of {len(items)}.")

    def _menu_up(self, key: str) -> None:
        self.menu_index -= 1
        self._say_item()

    def _menu_down(self, key: str) -> None:
        self.menu_index += 1
        self._say_item()

    def _menu_first(self, key: str) -> None:
        self.menu_index = 0
        self._say_item()

    def _menu_last(self, key: str) -> None:
        self.menu_index = len(self._items()) - 1
        self._say_item()

    def _menu_forward(self, key: str) -> None:
        self._change(1)

    def _menu_back(self, key: str) -> None:
        self._change(-1)

    def _change(self, direction: int) -> None:
        if self.mode in ONLINE_MENUS:
            self._online_change(direction)
            return
        item = self._items()[self.menu_index % len(self._items())]
        if self.mode is Mode.PRACTICE:
            if self.drills.change(item, direction):
                self.say(f"{self._item_text(item)}.")
            else:
                self.say("This item has no setting to change; press Enter to choose it.")
            return
        if item in ("start the game", "back", "sound test"):
            self.say("This item has no setting to change; press Enter to choose it.")
            return
        if self.mode is Mode.SETUP:
            self.setup, note = self.setup.step(item, direction)
            self._keep_settings()
            items = self._items()
            self.menu_index = items.index(item) if item in items else min(self.menu_index, len(items) - 1)
            self.say(f"{self._item_text(item)}." + (f" {note}" if note else ""))
            return
        self.settings.step(item, direction)
        self._keep_settings(item)
        if item == "speech":
            self._switch_speech()
            return
        self._apply_settings()
        self.say(f"{self._item_text(item)}.")

    def _menu_choose(self, key: str) -> None:
        if self.mode in ONLINE_MENUS:
            self._online_choose(key)
            return
        items = self._items()
        item = items[self.menu_index % len(items)]
        if self.mode is Mode.SOUND_TEST:
            self._say_item()
            return
        if item == "sound test":
            silent = self._no_sound()
            self._enter_menu(Mode.SOUND_TEST, f"Sound test: {silent}, so you hear only the names. " if silent
                             else "Sound test: ")
            return
        if self.mode in (Mode.SETUP, Mode.SETTINGS) and item not in ("start the game", "back"):
            self._change(1)
            return
        if self.mode is Mode.PRACTICE:
            self._practice_choose(item)
            if item == "figures":  # after the drills' figures, the coach's from the games
                for line in self.progress.words():
                    self.say(line)
            return
        if self.mode is Mode.SETUP and item == "start the game" and self.return_mode is Mode.CREATE:
            self._start_new_table()  # the new table's setup: the game is the server's
            return
        if self.online_only and self.mode is Mode.SETUP and item == "start the game":  # no game on the host's computer
            self._menu_escape(key)
            return
        if self.mode is Mode.GAME_MENU and item in self._seat_items():
            self._seat_item_choose(item)
            return
        choices: dict[str, Callable[[], None]] = {
            "new game": self._new_game, "start the game": self._new_game,
            "resume the unfinished game": self._resume_saved,
            "statistics": self._say_statistics, "past matches": self._open_past_matches,
            "table setup": lambda: self._enter_menu(Mode.SETUP, "Table setup: "),
            "practice": lambda: self._enter_menu(Mode.PRACTICE, "Practice: "),
            "settings": self._open_settings, "keys": lambda: self._every_key(key),
            "quit": lambda: self._quit_now(key), "back": self._leave_settings,
            "resume": self._resume, "save and quit": self._save_and_quit,
            "abandon the game and quit": self._confirm_abandon,
            "play online": self._play_online, "leave the table for now": self._leave_online_game,
        }
        choices[item]()

    def _menu_escape(self, key: str) -> None:
        if self.mode in ONLINE_MENUS:
            self._online_escape(key)
        elif self.mode is Mode.MAIN:
            self._quit_now(key)
        elif self.mode is Mode.SETUP and self.return_mode is Mode.CREATE:
            self.return_mode = Mode.MAIN
            self.mode = Mode.CREATE
            self.menu_index = CREATE_ITEMS.index("setup")
            self._say_item(prefix="New table: ")
        elif self.mode in (Mode.SETUP, Mode.PRACTICE):
            self._enter_menu(Mode.MAIN, "Main menu: ")
        elif self.mode is Mode.SETTINGS:
            self._leave_settings()
        elif self.mode is Mode.SOUND_TEST:
            self.mode = Mode.SETTINGS
            self.menu_index = len(SETTING_NAMES)  # back on "Sound test"
            self._say_item(prefix="Settings: ")
        else:
            self._resume()

    def _enter_menu(self, mode: Mode, prefix: str) -> None:
        if mode is Mode.MAIN and self.online_only:  # a browser's session has no main menu: the lobby stands in
            if self.client is not None and self.client.connected:
                self._to_lobby()
            else:
                self._online_home()
            return
        self.mode = mode
        self.menu_index = 0
        self._say_item(prefix=prefix)

    def _open_settings(self) -> None:
        self.return_mode = self.mode
        self._enter_menu(Mode.SETTINGS, "Settings: ")

    def _leave_settings(self) -> None:
        self.mode = self.return_mode
        self.menu_index = 0
        if self.mode is Mode.GAME_MENU:
            self._say_item(prefix="Game menu: ")
        elif self.mode is Mode.LOBBY:
            self._say_lobby_item()
        else:
            self._say_item(prefix="Main menu: ")

    def _switch_speech(self) -> None:
        """Speak from now on in the mode just chosen (or, with no way to start it here, from the next start)."""
        text = f"{self._item_text('speech')}."
        if self.open_speech is None:
            self.say(f"{text} This takes effect the next time audiocrib starts.")
            return
        try:
            speaker = self.open_speech(self.settings.speech)
        except Exception as error:  # a backend that cannot start leaves the speech as it was
            self.say(f"That speech could not start ({type(error).__name__}); the speech stays as it was.")
            return
        self.announcer.replace_speaker(speaker)
        self._apply_settings()
        self.say(text)

    def _apply_settings(self) -> None:
        self.announcer.show_text = self.settings.show_text
        if self.narrator is not None:
            self.narrator.verbosity = self.settings.verbosity
        try:
            self.player.set_volume(self.settings.sound_volume / 100)
        except Exception:  # a device that cannot change volume still plays
            pass
        speaker = self.announcer.speaker  # a speech chain hands rate and volume to the voice, now or when it starts
        for name, value in (("set_rate", self.settings.rate), ("set_volume", self.settings.volume / 100)):
            setter: Callable[[float], None] | None = getattr(speaker, name, None)
            if setter is not None:
                try:
                    setter(value)
                except Exception:  # a voice that cannot change its rate still speaks
                    pass

    def _open_game_menu(self, key: str) -> None:
        self.mode = Mode.GAME_MENU
        self.menu_index = 0
        self.count_clock.pause()  # the counting clock stops while the game is paused
        self._say_item(prefix="Game menu: ")

    def _resume(self) -> None:
        self.mode = Mode.GAME
        self.count_clock.resume()
        self.say("Back to the game. " + self._prompt_text())
