"""The state every screen of the shell shares, and the dispatch of keys: `SessionCore`.

It holds what the menus, the table, practice and the keeping of files all read and change; it finds the binding
for a key in the moment (`SessionCore.bindings`), answers the help and the history keys, and plays the cues. The
screens (`menus`, `at_table`, `table_keys`, `keeping`, `practice`) add their methods to it, and `Session` is all of
them together; a method one screen calls on another is declared in `elsewhere` and defined by its own screen.
"""

from __future__ import annotations

import ssl
import time
from collections.abc import Callable
from pathlib import Path

from audiocrib.client.address import Address
from audiocrib.client.link import Link, LinkMaker
from audiocrib.client.remote import OnlineClient
from audiocrib.engine.cards import Card
from audiocrib.engine.rules import Rules
from audiocrib.engine.text import printable
from audiocrib.engine.views import PlayerView
from audiocrib.progress.statistics import Statistics
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.countclock import CountClock
from audiocrib.shell.drills import DRILL_KEYS, Drills
from audiocrib.shell.elsewhere import DefinedElsewhere
from audiocrib.shell.keys import (
    _CONNECTING,
    _HISTORY,
    _MENU,
    _MENU_VALUES,
    _MOMENT_KEYS,
    _ONLINE,
    _PAST_MATCHES,
    _REPLAY,
    _TABLE,
    _TYPING,
    HELP_KEY,
    ONLINE_MENUS,
    Binding,
    Mode,
    does_nothing,
    key_word,
)
from audiocrib.shell.lineedit import LineEdit
from audiocrib.shell.lock import FolderLock
from audiocrib.shell.savedgame import SEAT, SavedTable
from audiocrib.shell.servers import ServerBook
from audiocrib.shell.settings import Settings, SettingsFile
from audiocrib.shell.table import Table
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.shell.typing import TypedCount
from audiocrib.sound.player import Player as SoundPlayer
from audiocrib.sound.player import SilentPlayer
from audiocrib.speech import FallbackSpeaker, Speaker
from audiocrib.telling.narrator import Narrator

_CONNECTING_WEB = (Binding(("escape",), "Stop connecting; your name is asked again.", "_stop_connecting"),)
"""Escape while connecting, in a browser's session (which has no main menu)."""
_POSITION_KEYS = frozenset({"_mark_at", "_select_at", "mark_at", "choose_at"})
"""The methods of the digit keys that pick a card by its position in the hand."""


class SessionCore(DefinedElsewhere):
    """The shared state of a `Session` and the dispatch of its keys (see `Session`)."""

    def __init__(
        self,
        announcer: Announcer,
        settings: Settings | None = None,
        setup: TableSetup | None = None,
        seed: int | None = None,
        save_path: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        player: SoundPlayer | None = None,
        settings_file: SettingsFile | None = None,
        open_speech: Callable[[str], Speaker | FallbackSpeaker] | None = None,
        new_table: Callable[[TableSetup], Table] | None = None,
        online_address: str | None = None,
    ) -> None:
        self.announcer = announcer
        self.settings = settings if settings is not None else Settings()
        self.setup = setup if setup is not None else TableSetup()
        self.seed = seed
        self.save_path = save_path
        self.clock = clock
        self.player: SoundPlayer = player if player is not None else SilentPlayer()
        self.start_notices: list[str] = []
        """Sentences to say once at the start, after the welcome (say, that there is no sound device)."""
        self.mode = Mode.MAIN
        self.return_mode = Mode.MAIN
        self.menu_index = 0
        self.table: Table | None = None
        """The game being played, as the player's seat sees and plays it."""
        self.seat = SEAT
        """The player's own seat at the table (always 0 at a table in this process)."""
        self.client: OnlineClient | None = None
        """The connection to a server while playing online."""
        self.online_address = online_address
        """The server's address given on the command line (``audiocrib online ADDRESS``), until it is used."""
        self.online_only = False
        """True for a session a browser plays through the server's gateway (`audiocrib.web`): it has no main menu
        and starts no game on the host's computer; the lobby stands in for the main menu (when not connected,
        the name question: Enter connects again)."""
        self.help_key = HELP_KEY
        """The help key the sentences name: Tab, which every terminal passes in every moment (F1 is help too, where
        the terminal lets it through); a browser's session names F1 (`keys.BROWSER_HELP_KEY`)."""
        self.online_ssl: ssl.SSLContext | None = None
        self.online_link: LinkMaker = Link
        """Makes the connection to the server (a browser's session runs as a task: `audiocrib.web`)."""
        """What the connection's TLS trusts (None: the system's authorities), for the gateway's own loopback."""
        self.book = ServerBook()
        """The servers played on: the last address and name, and the tokens."""
        self.address = Address("", "")
        """The server being played on."""
        self.password: str | None = None
        """The server's password, as typed this run."""
        self.line = LineEdit("")
        """The line being typed (an address, a name, a code, a message)."""
        self.line_then: Callable[[str], None] = lambda text: None
        self.line_back: Callable[[], None] = lambda: None
        self.line_from = Mode.MAIN
        """The screen the line is typed over, and back to once it is done."""
        self.online_people = 2
        self.online_listed = True
        self.online_limit: int | None = None
        """A new online table's seats for people, whether the lobby lists it, and its time for each move."""
        self.rules = Rules()
        """The rules of the table being played."""
        self.narrator: Narrator | None = None
        self.told = 0
        """How many of the game's events have been narrated."""
        self.early: set[int] = set()
        """Events told ahead of their place in the log (during a pause), not to be told again."""
        self.passed = -1
        """The pause point the player has gone on from (so it does not stop the narration twice)."""
        self.holding = False
        self.next_up = "deal"
        """What Enter goes on to from a pause: the next "deal" or "game"."""
        self.snapshot: PlayerView | None = None
        self.cursor = 0
        self.marked: list[Card] = []
        self.typed = TypedCount()
        self.count_clock = CountClock(clock)
        self.count_asked = -1
        self.discard_asked: tuple[int, int] = (-1, -1)
        """The game and deal whose laying away was last asked for."""
        self.resuming = False
        """True while a saved game is being taken up again (its question is asked afresh)."""
        self.stand: tuple[object, ...] = ()
        self.refused_at = float("-inf")
        """When (by ``clock``) a move key was last refused as typed ahead."""
        self.quiet_refusals = 0
        """How many keys of a burst typed ahead were refused with the buzz alone (the first of it is said)."""
        self.told_at = float("-inf")
        """When (by ``clock``) the game last brought news: the start of the typed-ahead guard."""
        self.hurried_at = -1
        """The number of events when Enter last hurried the computer players (said once a wait)."""
        self._finished = False
        self.exit_status = 0
        """The run's exit status: 1 once a game could not go on."""
        self.keys_pressed = 0
        self.settings_file = settings_file
        self.open_speech = open_speech
        self.new_table = new_table
        """Makes the table of a new game at a setup (None: an offline table, kept at ``save_path``)."""
        self.saved: SavedTable | None = None
        """An unfinished game found at the start, offered for resume."""
        self.statistics = Statistics()
        self.statistics_path = save_path.with_name("statistics.json") if save_path is not None else None
        self.stats_seen = 0
        """How many of the game's events the statistics have looked at."""
        self.unsaved: set[str] = set()
        """The files whose failure to be written the player has heard about (said once each)."""
        self.write_error = ""
        """Why the last write that failed failed ("No space left on device")."""
        self.lock: FolderLock | None = None
        """The data folder's lock, held while this copy keeps the game in progress there."""
        self.elsewhere = False
        """True when another copy of audiocrib keeps the games on this data folder (this one keeps none)."""
        self.confirm_at = -1
        """The key press that asked to confirm (a new game over an unfinished one, abandoning the game)."""
        self.confirm_said = float("-inf")
        """When (by ``clock``) the question to confirm was said."""
        record = save_path.with_name("practice.json") if save_path is not None else None
        self.drills = Drills(self.say, clock, record, seed, say_pages=self._say_pages)

    def say(self, text: str) -> None:
        """Announce ``text``."""
        self.announcer.say(text)

    @property
    def moment(self) -> str:
        """The key map in force: a menu's name, or in the game "discard", "play", "count", "review",
        "waiting" or "over"."""
        if self.mode is Mode.DRILL:
            return self.drills.moment
        if self.mode is not Mode.GAME:
            return self.mode.value
        return self._game_moment()

    def bindings(self) -> tuple[Binding, ...]:
        """Every binding in force now, the moment's own first."""
        moment = self.moment
        online = _ONLINE if self.client is not None and self.client.state is not None else ()
        if self.mode is Mode.GAME:
            return (*_MOMENT_KEYS[moment], *_TABLE, *online, *_HISTORY)
        if self.mode is Mode.TYPING:
            return _TYPING
        if self.mode in (Mode.PAST_MATCHES, Mode.REPLAY):
            return (*self._own_keys(), *_HISTORY)
        if self.mode is Mode.CONNECTING:
            return (*(_CONNECTING_WEB if self.online_only else _CONNECTING), *_HISTORY)
        if self.mode is Mode.DRILL:
            own = tuple(Binding(b.keys, b.description, "drills." + b.method) for b in DRILL_KEYS[moment])
            return (*own, *_HISTORY)
        values = _MENU_VALUES if self.mode in (Mode.SETUP, Mode.SETTINGS, Mode.PRACTICE, Mode.CREATE) else ()
        back = Binding(("escape",), self._escape_text(), "_menu_escape")
        return (*values, *_MENU, back, *(online if self.mode in ONLINE_MENUS else ()), *_HISTORY)

    def press(self, key: str) -> None:
        """Do what ``key`` does now; an unknown key gets one sentence and changes nothing; a key that makes a move
        typed ahead of the news that brought this moment does nothing and is answered after that news."""
        self.keys_pressed += 1
        if self.table is not None:
            self.table.hurry()
        if self.mode is Mode.TYPING and (key == "space" or (len(key) == 1 and printable(key))):
            self._typing_key(key)
            return
        bindings = self.bindings()
        if self._typed_ahead(next((b for b in bindings if key in b.keys), None)):
            burst = self.clock() - self.refused_at < self.settings.typed_ahead
            self.told_at = self.refused_at = self.clock()  # a burst of them is refused whole
            self.cue("illegal")
            if burst:  # said once a burst: the buzz alone for the rest
                self.quiet_refusals += 1
            else:
                self.say(f"That {key_word(key)} came before you heard the news, so it did nothing.")
            return
        if self.settings.silence_on_key:
            self.announcer.silence()
        for binding in bindings:
            if key in binding.keys:
                if binding.method.startswith("drills."):
                    getattr(self.drills, binding.method.removeprefix("drills."))(key)
                    self._note_news()
                    if self.drills.finished:
                        self.drills.finished = False
                        self._enter_menu(Mode.PRACTICE, "Practice: ")
                else:
                    getattr(self, binding.method)(key)
                return
        self.cue("illegal")
        self.say(does_nothing(key, self.help_key))

    def _own_keys(self) -> tuple[Binding, ...]:
        """This moment's own keys, in the game or a drill; the digits that pick a card by its position name only
        the positions the hand has (1 to 6 for six cards), as F1 and question mark say them."""
        if self.mode is Mode.DRILL:
            own = tuple(Binding(d.keys, d.description, d.method) for d in DRILL_KEYS.get(self.moment, ()))
            held = self.drills.held()
        elif self.mode is Mode.GAME:
            own = _MOMENT_KEYS.get(self.moment, ())
            held = len(self._hand()) if self.moment in ("discard", "play") else 0
        elif self.mode in (Mode.PAST_MATCHES, Mode.REPLAY):
            return _PAST_MATCHES if self.mode is Mode.PAST_MATCHES else _REPLAY
        else:
            return ()
        if not held:
            return own
        positions = tuple(str(n) for n in range(1, min(held, 9) + 1))
        return tuple(Binding(positions, b.description, b.method) if b.method in _POSITION_KEYS else b for b in own)

    def _say_pages(self, intro: str, pages: list[str]) -> None:
        """Say ``intro`` and the first page; the history keys step through the rest, which are not said now."""
        self.say(f"{intro} {pages[0]}" if pages else intro)
        self.announcer.history.add_pages(pages[1:])

    def _history_older(self, key: str) -> None:
        self.announcer.say(self.announcer.history.older(), keep=False)

    def _history_newer(self, key: str) -> None:
        self.announcer.say(self.announcer.history.newer(), keep=False)

    def _history_oldest(self, key: str) -> None:
        self.announcer.say(self.announcer.history.oldest(), keep=False)

    def _history_newest(self, key: str) -> None:
        self.announcer.say(self.announcer.history.newest(), keep=False)

    def _history_last(self, key: str) -> None:
        self.announcer.say(self.announcer.history.last(), keep=False)

    def _quit_now(self, key: str) -> None:
        self.say("Goodbye.")
        self.finished = True

    @property
    def finished(self) -> bool:
        """True once the player has quit; the data folder is let go then, for a copy started next."""
        return self._finished

    @finished.setter
    def finished(self, value: bool) -> None:
        self._finished = value
        if value:
            self.close()

    def cue(self, *names: str) -> None:
        """Play sound cues (unless sounds are off); a failing device never stops the game."""
        if not self.settings.sounds or not names:
            return
        try:
            self.player.play(names)
        except Exception:  # the device went away: the game goes on in words
            self.player = SilentPlayer("The sound device stopped working")
            self.say("The sound device stopped working; the game goes on without sounds.")

    def _no_sound(self) -> str | None:
        """Why no cue can sound though the player did not turn them off ("No sound device could be opened")."""
        reason = getattr(self.player, "reason", None)
        return reason if isinstance(reason, str) else None

    def _toggle_sounds(self, key: str) -> None:
        self.settings.sounds = not self.settings.sounds
        self._keep_settings("sounds")
        silent = self._no_sound()
        self.say(("Sounds on, but nothing plays: " + silent + "." if silent else "Sounds on.")
                 if self.settings.sounds else "Sounds off.")
        self.cue("card")
