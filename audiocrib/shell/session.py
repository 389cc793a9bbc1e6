"""The shell's state and what every key means in every moment, apart from the terminal.

A `Session` receives key names (``"c"``, ``"left"``, ``"enter"``, ``"f1"``) through `Session.press` and answers
through its `Announcer`. The terminal layer (`audiocrib.shell.app`) only turns key presses into these names and
runs the clock that paces the computer players; everything a player can do is here, so the help a player hears is
the same table of bindings the keys are dispatched from.

The game is narrated from its event log as the human (seat 0) sees it. Narration stops before each new deal and
each new game, so the player can go over the show (``c``, ``s``, history) before pressing Enter; the keys then
answer from the game as it stood at that moment.

>>> from audiocrib.shell.announcer import Announcer
>>> from audiocrib.speech import RecordingSpeaker
>>> import io
>>> speaker = RecordingSpeaker()
>>> session = Session(Announcer(speaker, io.StringIO()), seed=5)
>>> session.start()
>>> speaker.said[-1]
'Main menu: New game. 1 of 7.'
>>> session.press("enter")
>>> session.moment
'discard'
>>> session.press("z")
>>> speaker.said[-1]
'The z key does nothing now. Press F1 for help.'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from audiocrib.engine.actions import Action, CallMuggins, ClaimCount, CountTimeout, Discard, Play
from audiocrib.engine.cards import Card
from audiocrib.engine.events import (
    CountRequested,
    CutForDeal,
    Dealt,
    Event,
    GameStarted,
    GameWon,
    LastCard,
    MatchWon,
    SaidGo,
    ThreeForLast,
)
from audiocrib.engine.game import Phase
from audiocrib.engine.rules import Rules
from audiocrib.engine.views import PlayerView
from audiocrib.progress.statistics import Statistics
from audiocrib.shell import files
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.countclock import CountClock
from audiocrib.shell.drills import DRILL_KEYS, PRACTICE_ITEMS, Drills
from audiocrib.shell.lock import FolderLock, updating
from audiocrib.shell.offline import OfflineTable
from audiocrib.shell.savedgame import SAVE_VERSION, SEAT, SavedTable
from audiocrib.shell.settings import SETTING_NAMES, Settings, SettingsFile
from audiocrib.shell.table import Heard, Table
from audiocrib.shell.tablesetup import TableSetup
from audiocrib.shell.typing import NOTHING_CLAIMED, NOTHING_TYPED, TypedCount, marked_count
from audiocrib.sound.player import Player as SoundPlayer
from audiocrib.sound.player import SilentPlayer
from audiocrib.speech import FallbackSpeaker, Speaker
from audiocrib.telling import answers
from audiocrib.telling.cues import CUES, cues_for
from audiocrib.telling.narrator import Narrator, Verbosity

__all__ = ["SEAT", "Binding", "Mode", "Session"]

WELCOME = "Welcome to audiocrib. Press F1 for help at any time."
STATISTICS_VERSION = 1


class Mode(StrEnum):
    """Which screen the player is on."""

    MAIN = "main menu"
    SETUP = "table setup"
    SETTINGS = "settings"
    GAME_MENU = "game menu"
    GAME = "game"
    PRACTICE = "practice menu"
    DRILL = "drill"
    SOUND_TEST = "sound test"


@dataclass(frozen=True, slots=True)
class Binding:
    """Keys, what they do in one sentence (the spoken help), and the `Session` method that does it."""

    keys: tuple[str, ...]
    description: str
    method: str


DIGITS = tuple("123456789")
_HISTORY = (
    Binding((",",), "An older message.", "_history_older"),
    Binding((".",), "A newer message.", "_history_newer"),
    Binding(("<",), "The oldest message.", "_history_oldest"),
    Binding((">",), "The newest message.", "_history_newest"),
    Binding(("r",), "Repeat the last message.", "_history_last"),
    Binding(("f1",), "Help for this moment.", "_help"),
    Binding(("?",), "Every key, one message each.", "_every_key"),
    Binding(("f2",), "Sounds on or off.", "_toggle_sounds"),
    Binding(("c-c",), "Quit at once.", "_quit_now"),
)
_MENU = (
    Binding(("up",), "The previous item.", "_menu_up"),
    Binding(("down",), "The next item.", "_menu_down"),
    Binding(("home",), "The first item.", "_menu_first"),
    Binding(("end",), "The last item.", "_menu_last"),
    Binding(("enter", "space"), "Choose the item, or change its setting.", "_menu_choose"),
)
_MENU_VALUES = (
    Binding(("right",), "Change the setting forward.", "_menu_forward"),
    Binding(("left",), "Change the setting back.", "_menu_back"),
)
_TABLE = (
    Binding(("c",), "The count: in the play the running count, in the show the hand being counted.", "_key_count"),
    Binding(("b",), "Who owns the crib.", "_key_crib"),
    Binding(("f",), "The starter card.", "_key_starter"),
    Binding(("v",), "The cards on the table in this series.", "_key_table"),
    Binding(("s",), "The scores, and what each side needs to win.", "_key_scores"),
    Binding(("t",), "Whose turn it is.", "_key_turn"),
    Binding(("h",), "Your hand.", "_key_hand"),
    Binding(("n",), "How many cards each player holds.", "_key_held"),
    Binding(("l",), "The last play explained.", "_key_last"),
    Binding(("m",), "Call muggins on a short count, before the next deal.", "_call_muggins"),
    Binding(("left",), "The previous card in your hand.", "_card_left"),
    Binding(("right",), "The next card in your hand.", "_card_right"),
    Binding(("escape",), "The game menu: resume, settings, save and quit.", "_open_game_menu"),
)
_MOMENT_KEYS: dict[str, tuple[Binding, ...]] = {
    "discard": (
        Binding(("space",), "Mark or unmark the card you are on, for the crib.", "_mark"),
        Binding(DIGITS, "Mark or unmark the card at that position.", "_mark_at"),
        Binding(("enter",), "Lay the marked cards away to the crib.", "_lay_away"),
    ),
    "play": (
        Binding(DIGITS, "Go to the card at that position.", "_select_at"),
        Binding(("enter",), "Play the card you are on.", "_play"),
        Binding(("space",), "Play the card you are on.", "_play"),
    ),
    "peg": (
        Binding((*DIGITS, "0"), "Type the points your card made.", "_type_digit"),
        Binding(("backspace",), "Delete the last digit typed.", "_delete_digit"),
        Binding(("enter",), "Claim the points you typed.", "_claim"),
    ),
    "count": (
        Binding((*DIGITS, "0"), "Type your count.", "_type_digit"),
        Binding(("backspace",), "Delete the last digit typed.", "_delete_digit"),
        Binding(("enter",), "Claim the count you typed.", "_claim"),
    ),
    "review": (Binding(("enter",), "Go on.", "_go_on"),),
    "waiting": (Binding(("enter",), "Hurry the computer players.", "_hurry"),),
    "over": (Binding(("enter",), "Back to the main menu.", "_to_main_menu"),),
}
_QUESTIONS = ("discard", "play", "count", "peg")
"""The game's moments that wait for the player's own answer."""
_MOVES = frozenset({"_lay_away", "_play", "_claim", "_go_on", "_to_main_menu", "drills.answer_count",
                    "drills.answer_discard", "drills.next_drill"})
"""The keys that make a move or go on, in the game and the drills: guarded against being typed ahead of the
news."""
_KEY_WORDS = {
    ",": "comma", ".": "period", "<": "less than", ">": "greater than", "?": "question mark", "enter": "Enter",
    "space": "space", "escape": "Escape", "f1": "F1", "f2": "F2", "left": "left arrow", "right": "right arrow",
    "up": "up arrow", "down": "down arrow", "home": "Home", "end": "End", "backspace": "Backspace",
    "c-c": "Control C",
}
MAIN_ITEMS = ("new game", "table setup", "practice", "statistics", "settings", "keys", "quit")
GAME_MENU_ITEMS = ("resume", "settings", "save and quit", "abandon the game and quit")


_PREFIXES = {"c": "Control", "s": "Shift", "a": "Alt"}
_NAMED = {"pageup": "Page Up", "pagedown": "Page Down", "delete": "Delete", "insert": "Insert", "tab": "Tab",
          "c-i": "Tab", "s-tab": "Shift Tab", "c-@": "Control at", "c-m": "Enter", "backtab": "Shift Tab"}


def key_word(key: str) -> str:
    """A key as said: "comma", "F7", "Control X", "Shift left arrow", "Page Up"; "that" for one with no plain name.

    >>> [key_word(k) for k in (",", "f7", "c-x", "s-left", "pageup", "\u00e9", "q")]
    ['comma', 'F7', 'Control X', 'Shift left arrow', 'Page Up', 'that', 'q']
    """
    if key in _KEY_WORDS:
        return _KEY_WORDS[key]
    if key in _NAMED:
        return _NAMED[key]
    if len(key) == 1:
        return key if key.isascii() and key.isprintable() else "that"
    if len(key) in (2, 3) and key[0] == "f" and key[1:].isdigit():
        return key.upper()
    parts = key.split("-")
    if len(parts) > 1 and all(part in _PREFIXES for part in parts[:-1]):
        last = parts[-1]
        name = _KEY_WORDS.get(last) or _NAMED.get(last) or (last.upper() if len(last) == 1 else last)
        if name.isascii() and name.replace(" ", "").isalnum():
            return " ".join([*(_PREFIXES[part] for part in parts[:-1]), name])
    return "that"


def does_nothing(key: str) -> str:
    """The one sentence for a key that does nothing now (or the mouse, or pasted text).

    >>> does_nothing("z")
    'The z key does nothing now. Press F1 for help.'
    >>> does_nothing("\u00e9")
    'That key does nothing now. Press F1 for help.'
    """
    if key == "mouse":
        return "The mouse does nothing in audiocrib; the keys do everything. Press F1 for help."
    if key == "<bracketed-paste>":
        return "Pasting does nothing here. Press F1 for help."
    word = key_word(key)
    return ("That key" if word == "that" else f"The {word} key") + " does nothing now. Press F1 for help."


def key_words(keys: tuple[str, ...]) -> str:
    """Keys as said in the help: ``("1", ..., "9")`` is "1 to 9", ``(",",)`` is "comma"."""
    if len(keys) > 3 and all(k.isdigit() for k in keys):
        return f"{keys[0]} to {keys[-1]}" if keys[-1] != "0" else f"{keys[0]} to {keys[-2]} and 0"
    return " or ".join(_KEY_WORDS.get(k, k) for k in keys)


class Session:
    """One run of the shell: the menus, the table setup, the settings and the game being played.

    ``save_path`` is where the game in progress is kept, written after every move (None: games are not kept);
    the statistics and practice figures are kept beside it. ``settings_file`` keeps the settings and the default
    table when they change. ``open_speech`` starts a speech mode when the player chooses another in the settings
    (None: the choice takes effect at the next start). ``clock`` is read for the counting timer, so a test can
    replace it.
    """

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
        self.keys_pressed = 0
        self.settings_file = settings_file
        self.open_speech = open_speech
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

    # ------------------------------------------------------------ saying
    def say(self, text: str) -> None:
        """Announce ``text``."""
        self.announcer.say(text)

    def start(self) -> None:
        """The first words: the main menu (or the saved game on offer)."""
        self._apply_settings()
        self.say(WELCOME)
        for notice in self.start_notices:
            self.say(notice)
        for notice in self._read_files():
            self.say(notice)
        self.mode = Mode.MAIN
        self.menu_index = 0
        if self.saved is not None:
            self.say(f"An unfinished game is waiting: {self._describe_saved(self.saved)} Press Enter to resume it.")
        self._say_item(prefix="Main menu: ")

    def _read_files(self) -> list[str]:
        """Read the game in progress, the statistics and the practice figures; a sentence for each damaged one."""
        notices: list[str | None] = []
        problem = files.folder_problem(self.save_path.parent) if self.save_path is not None else None
        if problem is not None and self.save_path is not None:
            notices.append(f"Your data folder, {self.save_path.parent}, cannot be opened ({problem}), so no game "
                           "can be resumed and nothing is kept this time.")
            self.save_path = self.statistics_path = self.drills.record_path = None
        if self.save_path is not None and not self._lock_folder(self.save_path.parent):
            notices.append("Another copy of audiocrib is open on this data folder and keeps the game in progress. "
                           "Here you can practise, or play a game that is not kept, or quit.")
        if self.save_path is not None:
            loaded = files.load(self.save_path, "saved game", SAVE_VERSION, SavedTable.from_json,
                                "it cannot be resumed", limit=SavedTable.MAX_BYTES)
            self.saved = loaded.value
            notices.append(loaded.notice)
        notices.append(self._load_statistics())
        notices.append(self.drills.load())
        return [notice for notice in notices if notice]

    def _load_statistics(self) -> str | None:
        """Read the statistics file (another copy of audiocrib may have added to it); a sentence if damaged."""
        if self.statistics_path is None:
            return None
        stats = files.load(self.statistics_path, "statistics", STATISTICS_VERSION, Statistics.from_json,
                           "they start afresh")
        self.statistics = stats.value if stats.value is not None else Statistics()
        return stats.notice

    def _describe_saved(self, saved: SavedTable) -> str:
        rules = saved.game.rules
        view = saved.game.view(SEAT)
        game = f", game {_number(view.game_number)}" if rules.match_games > 1 else ""
        return f"{rules.describe()}{game}. {answers.scores(view)}"

    def _write(self, what: str, write: Callable[[], None]) -> None:
        """Write one of the player's files (``what``: "game", "settings", "statistics"); if it cannot be written,
        say so once (the game goes on)."""
        try:
            write()
        except OSError as error:
            self.write_error = error.strerror or "an error of the system"
            if what not in self.unsaved:
                self.unsaved.add(what)
                self.say(f"Your {what} cannot be saved ({self.write_error}); audiocrib goes on without it.")
        else:
            self.unsaved.discard(what)

    def _keep_settings(self, name: str | None = None) -> None:
        """The player changed a setting (``name``) or the table: keep them for the next start."""
        file = self.settings_file
        if file is None:
            return
        file.changed(name if name is not None else "table")
        self._write("settings", lambda: file.save(self.settings, self.setup))

    # ------------------------------------------------------------ keys
    @property
    def moment(self) -> str:
        """The key map in force: a menu's name, or in the game "discard", "play", "count", "review",
        "waiting" or "over"."""
        if self.mode is Mode.DRILL:
            return self.drills.moment
        if self.mode is not Mode.GAME:
            return self.mode.value
        return self._game_moment()

    def _game_moment(self) -> str:
        """The game's moment, whatever menu is open over it."""
        assert self.table is not None
        if self.holding:
            return "review"
        phase = self.table.phase
        if phase is Phase.MATCH_OVER:
            return "over"
        waiting = self.table.waiting_for()
        if SEAT in waiting:
            return {Phase.DISCARD: "discard", Phase.PLAY: "play", Phase.PEG_CLAIM: "peg",
                    Phase.COUNT: "count"}[phase]
        return "waiting"

    def bindings(self) -> tuple[Binding, ...]:
        """Every binding in force now, the moment's own first."""
        moment = self.moment
        if self.mode is Mode.GAME:
            return (*_MOMENT_KEYS[moment], *_TABLE, *_HISTORY)
        if self.mode is Mode.DRILL:
            own = tuple(Binding(b.keys, b.description, "drills." + b.method) for b in DRILL_KEYS[moment])
            return (*own, *_HISTORY)
        values = _MENU_VALUES if self.mode in (Mode.SETUP, Mode.SETTINGS, Mode.PRACTICE) else ()
        back = Binding(("escape",), self._escape_text(), "_menu_escape")
        return (*values, *_MENU, back, *_HISTORY)

    def press(self, key: str) -> None:
        """Do what ``key`` does now; an unknown key gets one sentence and changes nothing; a key that makes a move
        typed ahead of the news that brought this moment does nothing and is answered after that news."""
        self.keys_pressed += 1
        if self.table is not None:
            self.table.hurry()
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
        self.say(does_nothing(key))

    def _typed_ahead(self, binding: Binding | None) -> bool:
        """True if ``binding`` makes a move (in the game or a drill) and comes too soon after the news of this
        moment."""
        return (self.mode in (Mode.GAME, Mode.DRILL) and binding is not None and binding.method in _MOVES
                and self.clock() - self.told_at < self.settings.typed_ahead)

    def _note_news(self) -> None:
        """If the game or the drill has moved to a new moment, keys that make moves wait until its news can have
        been heard."""
        if self.mode is Mode.DRILL:
            stand: tuple[object, ...] = (self.drills.moment, id(self.drills.drill))
        elif self.table is not None:
            stand = (len(self.table.view().events), self.told, self.holding, self._game_moment())
        else:
            return
        if stand != self.stand:
            self.stand = stand
            self.told_at = self.clock()

    # ------------------------------------------------------------ help
    def _help(self, key: str) -> None:
        """F1: what to do now and the keys for this moment."""
        own = _MOMENT_KEYS.get(self.moment, ()) if self.mode is Mode.GAME else ()
        if self.mode is Mode.DRILL:
            lines = [f"{key_words(b.keys)}: {b.description}" for b in DRILL_KEYS[self.moment]]
        elif self.mode is Mode.GAME:
            lines = [self._prompt_text()]
            if self.moment == "count" and self.count_clock.running:
                lines[0] += f" {_number(self.count_clock.left()).capitalize()} seconds left to count."
            lines += [f"{key_words(b.keys)}: {b.description}" for b in own]
            if self.table is not None and self.rules.muggins and self.moment in ("review", "discard"):
                lines += [f"{key_words(b.keys)}: {b.description}" for b in _TABLE if b.method == "_call_muggins"]
            lines.append("c b f v s t h n l answer questions, comma and period step through messages. "
                         "Question mark lists every key.")
        else:
            lines = [f"You are in the {self.mode.value}. Up and down arrows move, Enter chooses"
                     + (", left and right change a setting"
                        if self.mode in (Mode.SETUP, Mode.SETTINGS, Mode.PRACTICE) else "")
                     + f"; Escape: {self._escape_text().lower()} Question mark lists every key."]
        for line in lines:
            self.say(line)

    def _every_key(self, key: str) -> None:
        """?: every key, one message each: the keys of this moment are said, and period steps through the rest."""
        groups: list[tuple[str, tuple[Binding, ...]]] = [
            ("In the menus", (*_MENU_VALUES, *_MENU)),
            *((f"When you {_MOMENT_WORDS[m]}", b) for m, b in _MOMENT_KEYS.items()),
            ("At the table, always", _TABLE),
            *((f"In practice, {_DRILL_WORDS[m]}", tuple(Binding(d.keys, d.description, d.method) for d in b))
              for m, b in DRILL_KEYS.items()),
            ("Everywhere", _HISTORY),
        ]
        now = {Mode.GAME: f"When you {_MOMENT_WORDS.get(self.moment, '')}",
               Mode.DRILL: f"In practice, {_DRILL_WORDS.get(self.moment, '')}"}.get(self.mode, "In the menus")
        groups.sort(key=lambda group: (group[0] != now, group[1] is not _TABLE))  # this moment's, the table's
        pages = [f"{title}: " + " ".join(f"{key_words(b.keys)}: {b.description}" for b in bindings)
                 for title, bindings in groups]
        self._say_pages(f"Every key, {_number(len(pages))} messages; period steps to the next, comma back.", pages)

    def _say_pages(self, intro: str, pages: list[str]) -> None:
        """Say ``intro`` and the first page; the history keys step through the rest, which are not said now."""
        self.say(f"{intro} {pages[0]}" if pages else intro)
        self.announcer.history.add_pages(pages[1:])

    def _escape_text(self) -> str:
        return {
            Mode.MAIN: "Quit.", Mode.SETUP: "Back to the main menu.", Mode.SETTINGS: "Back.",
            Mode.GAME_MENU: "Back to the game.", Mode.GAME: "The game menu.", Mode.PRACTICE: "Back to the main menu.",
            Mode.DRILL: "Stop the drills.", Mode.SOUND_TEST: "Back to the settings.",
        }[self.mode]

    # ------------------------------------------------------------ history
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

    # ------------------------------------------------------------ menus
    def _items(self) -> tuple[str, ...]:
        if self.mode is Mode.MAIN:
            saved = ("resume the unfinished game",) if self.saved is not None else ()
            return (*saved, *MAIN_ITEMS)
        if self.mode is Mode.SETUP:
            return (*self.setup.menu_settings(), "start the game")
        if self.mode is Mode.SETTINGS:
            return (*SETTING_NAMES, "sound test", "back")
        if self.mode is Mode.SOUND_TEST:
            return tuple(CUES)
        if self.mode is Mode.PRACTICE:
            return PRACTICE_ITEMS
        return GAME_MENU_ITEMS

    def _item_text(self, item: str) -> str:
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
            return
        choices: dict[str, Callable[[], None]] = {
            "new game": self._new_game, "start the game": self._new_game,
            "resume the unfinished game": self._resume_saved,
            "statistics": self._say_statistics,
            "table setup": lambda: self._enter_menu(Mode.SETUP, "Table setup: "),
            "practice": lambda: self._enter_menu(Mode.PRACTICE, "Practice: "),
            "settings": self._open_settings, "keys": lambda: self._every_key(key),
            "quit": lambda: self._quit_now(key), "back": self._leave_settings,
            "resume": self._resume, "save and quit": self._save_and_quit,
            "abandon the game and quit": self._confirm_abandon,
        }
        choices[item]()

    def _menu_escape(self, key: str) -> None:
        if self.mode is Mode.MAIN:
            self._quit_now(key)
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

    def _practice_choose(self, item: str) -> None:
        if self.drills.change(item, 1):
            self.say(f"{self._item_text(item)}.")
        elif item in ("start counting", "start discarding"):
            self.mode = Mode.DRILL
            self.drills.start("counting" if item == "start counting" else "discarding")
            self._note_news()
        elif item == "figures":
            for line in self.drills.figures():
                self.say(line)
        elif item == "review":
            first, *rest = self.drills.review()
            self._say_pages(first, rest)
        else:
            self._enter_menu(Mode.MAIN, "Main menu: ")

    def _enter_menu(self, mode: Mode, prefix: str) -> None:
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

    # ------------------------------------------------------------ the game: start, save, resume
    def _confirmed(self, question: str) -> bool:
        """True if this Enter answers ``question``, asked by the Enter just before and heard (an Enter typed ahead
        of it, as a double press is, asks again); else ask it."""
        if self.confirm_at == self.keys_pressed - 1 and self.clock() - self.confirm_said >= self.settings.typed_ahead:
            return True
        ahead = self.confirm_at == self.keys_pressed - 1
        self.confirm_at, self.confirm_said = self.keys_pressed, self.clock()
        self.say("That Enter came before you heard the question, so it did nothing." if ahead else question)
        return False

    def _new_game(self) -> None:
        if self.saved is not None and not self._confirmed(
                "A new game replaces your unfinished one. Press Enter again to start it, "
                "or choose Resume the unfinished game."):
            return
        setup = self.setup
        table = OfflineTable.new(setup.rules(), setup.names(), setup.levels, self.seed, self.save_path)
        self.say(f"New game: {setup.describe()}" + (" It is not kept." if self.elsewhere else ""))
        self.saved = None
        self._sit_at(table, Heard(0, frozenset(), -1))

    def _begin(self, saved: SavedTable) -> None:
        """Take up a kept game where the player left it."""
        self._sit_at(OfflineTable(saved, self.save_path), Heard(saved.told, saved.early, saved.passed))

    def _sit_at(self, table: Table, heard: Heard) -> None:
        """Play at ``table``, the player having heard it as far as ``heard``."""
        self.table = table
        table.listen(lambda: self._settle() if self.table is table else None)
        view = table.view()
        self.rules = view.rules
        self.narrator = Narrator(view.names, view.rules, SEAT, self.settings.verbosity)
        events = view.events
        # the narrator's memory, unspoken: what was told, in the order it was told
        self.narrator.tell_all(events[: heard.told])
        self.narrator.tell_all(tuple(events[i] for i in sorted(heard.early) if i >= heard.told))
        self.told = heard.told
        self.early = set(heard.early)
        self.passed = heard.passed
        self.holding = False
        self.stats_seen = 0
        self.mode = Mode.GAME
        self.count_asked = -1
        self._settle()

    def _autosave(self) -> None:
        """Keep the game in progress (after every move), or once the match is over, let it go."""
        table = self.table
        if self.save_path is None or table is None:
            return
        heard = Heard(self.told, frozenset(self.early), self.passed)
        moment, history = self._game_moment(), self.announcer.history.messages
        self._write("game", lambda: table.keep(heard, moment, history))

    def _count_games(self) -> None:
        """Add the games won since last looked to the statistics, and keep them."""
        table = self.table
        assert table is not None
        view = table.view()  # the statistics read the rules and the games won, in the events
        events = view.events
        news = any(isinstance(e, GameWon | MatchWon) for e in events[self.stats_seen:])
        self.stats_seen = len(events)
        if not news or not self.statistics.record(view, table.name, table.levels, SEAT):
            return
        path = self.statistics_path
        if path is None:
            return

        def update() -> None:  # read again, add this game, write: another copy may have added its own since
            with updating(path.parent):
                notice = self._load_statistics()
                if notice:
                    self.say(notice)
                if self.statistics.record(view, table.name, table.levels, SEAT):
                    files.save(path, {"version": STATISTICS_VERSION, **self.statistics.to_json()}, readable=True)

        self._write("statistics", update)

    def _save_and_quit(self) -> None:
        if self.save_path is None:
            self.say("This game is not kept: another copy of audiocrib keeps the games on this data folder. Choose "
                     "Abandon the game and quit, or Resume." if self.elsewhere else
                     "This session has no place to keep games; choose Abandon the game and quit, or Resume.")
            return
        self.unsaved.add("game")  # a failure now is said here, in its own words
        self._autosave()
        if "game" in self.unsaved:
            self.say(f"Your game could not be saved ({self.write_error}). It is still open: free some space or "
                     "check the folder's permissions and choose Save and quit again, or choose Resume to play on.")
            return
        self.say("Game saved. Goodbye.")
        self.finished = True

    def _abandon(self) -> None:
        if self.save_path is not None:
            path = self.save_path
            self.unsaved.add("game")  # a failure now is said here, in its own words
            self._write("game", lambda: path.unlink(missing_ok=True))
            if "game" in self.unsaved:
                self.say(f"Your game could not be let go ({self.write_error}): audiocrib will offer it again at "
                         "the next start, where you can abandon it or start a new game over it. Goodbye.")
                self.finished = True
                return
        self.say("The game is abandoned. Goodbye.")
        self.finished = True

    def _confirm_abandon(self) -> None:
        if self._confirmed("Abandoning deletes this game for good. Press Enter again to abandon it, "
                           "or Escape to go back to the game."):
            self._abandon()

    def _resume_saved(self) -> None:
        saved = self.saved
        if saved is None:  # pragma: no cover - the item is offered only with a saved game
            self.say("There is no unfinished game.")
            return
        self.saved = None
        self.announcer.history.restore(saved.history)
        self.say("Resuming the unfinished game.")
        self.resuming = True
        try:
            self._begin(saved)  # a question waiting for the player is asked again, with what it needs
        finally:
            self.resuming = False
        if self.told and not self.holding and self.moment not in _QUESTIONS:
            self._say_where_it_stands()
            self.say(self._prompt_text())

    def _say_where_it_stands(self) -> None:
        """On a resume: the scores, whose crib, the starter, and in the play the cards on the table."""
        view = self.view()
        self.say(answers.scores(view))
        if view.phase in (Phase.DISCARD, Phase.PLAY, Phase.COUNT):
            self.say(answers.crib_owner(view))
        if view.starter is not None:
            self.say(answers.starter(view))
        if view.phase is Phase.PLAY:
            self.say(answers.table(view))

    def _say_statistics(self) -> None:
        notice = self._load_statistics()  # as they are now, with what another copy added
        if notice:
            self.say(notice)
        for line in self.statistics.summary():
            self.say(line)
        practice = self.drills.all_time_text()
        self.say(f"Practice: {practice}" if practice else "No practice yet.")

    def _open_game_menu(self, key: str) -> None:
        self.mode = Mode.GAME_MENU
        self.menu_index = 0
        self.count_clock.pause()  # the counting clock stops while the game is paused
        self._say_item(prefix="Game menu: ")

    def _resume(self) -> None:
        self.mode = Mode.GAME
        self.count_clock.resume()
        self.say("Back to the game. " + self._prompt_text())

    def _to_main_menu(self, key: str) -> None:
        self.table = None
        self._enter_menu(Mode.MAIN, "Main menu: ")

    def _lock_folder(self, folder: Path) -> bool:
        """Take the data folder's lock for this run; False (and no game kept) if another copy holds it."""
        lock = FolderLock(folder)
        try:
            if not lock.acquire():
                self.elsewhere = True
                self.save_path = None
                return False
        except OSError:  # a folder that cannot hold a lock cannot be written: each write says so when it fails
            return True
        self.lock = lock
        return True

    def close(self) -> None:
        """Let the data folder go (at the end of the run)."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    @property
    def finished(self) -> bool:
        """True once the player has quit; the data folder is let go then, for a copy started next."""
        return self._finished

    @finished.setter
    def finished(self, value: bool) -> None:
        self._finished = value
        if value:
            self.close()

    # ------------------------------------------------------------ the game: narration and the bots
    def view(self) -> PlayerView:
        """The human's view at the moment narrated (during a pause, the game as it stood there)."""
        assert self.table is not None
        if self.holding and self.snapshot is not None:
            return self.snapshot
        return self.table.view()

    def _settle(self) -> None:
        """After any change: narrate the news (stopping at a pause), the bots laying away as a deal begins; then
        count any game won in the statistics, and keep the game."""
        self._catch_up()
        self._note_news()
        self._count_games()
        self._autosave()

    def _pauses_before(self, index: int, events: tuple[Event, ...]) -> bool:
        event = events[index]
        if index == self.passed or index == 0:
            return False
        if isinstance(event, GameStarted):
            return event.game > 1
        if isinstance(event, Dealt):
            return not isinstance(events[index - 1], GameStarted | ThreeForLast | CutForDeal)
        return False

    def _catch_up(self) -> None:
        """Narrate the events not yet told, up to the next pause; once all are told and a deal waits for laying
        away, the bots lay away (only now: a muggins call stays open through the pause) and that is told too."""
        assert self.table is not None and self.narrator is not None
        was_holding = self.holding
        self._tell_until_pause(was_holding)
        while not self.holding and self.table.caught_up():
            self._tell_until_pause(was_holding)
        if self.holding:
            return
        self.snapshot = None
        self._ask()

    def _tell_until_pause(self, was_holding: bool) -> None:
        assert self.table is not None and self.narrator is not None
        events = self.table.view().events
        while self.told < len(events):
            if self.told in self.early:  # heard already, during a pause
                self.told += 1
                continue
            if self._pauses_before(self.told, events):
                self.holding = True
                if not was_holding:
                    self.snapshot = self.table.view_after(self.told, frozenset(self.early))
                    self.next_up = "game" if isinstance(events[self.told], GameStarted) else "deal"
                    if self.next_up == "deal" and self.narrator.verbosity is Verbosity.NORMAL:
                        self.say(self.narrator.standing())
                    self.say(self._prompt_text())
                return
            self._tell(events[self.told])
            self.told += 1
            if isinstance(events[self.told - 1], MatchWon):
                self.say("Press Enter for the main menu.")
        self.holding = False

    def cue(self, *names: str) -> None:
        """Play sound cues (unless sounds are off); a failing device never stops the game."""
        if not self.settings.sounds or not names:
            return
        try:
            self.player.play(names)
        except Exception:  # the device went away: the game goes on in words
            self.player = SilentPlayer("The sound device stopped working")
            self.say("The sound device stopped working; the game goes on without sounds.")

    def _tell(self, event: Event) -> None:
        """Narrate one event: its cues, then its words (at brief, with sounds for words on, some cues alone)."""
        assert self.narrator is not None
        cues = cues_for(event, SEAT, self.rules)
        self.cue(*cues)
        lines = self.narrator.tell(event)
        wordless = (self.settings.sounds_for_words and self.settings.sounds and cues
                    and self.settings.verbosity is Verbosity.BRIEF and isinstance(event, SaidGo | LastCard))
        if wordless:
            self.announcer.history.add(lines[0] if lines else event.kind)  # still in the history to read
            return
        for line in lines:
            self.say(line)

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

    def _ask(self) -> None:
        """When the game waits for the human, say so (and start the counting clock, once the question is said).
        On a resume, first what the player needs: the scores, and the hand or the cards to count."""
        moment = self.moment
        if moment not in _QUESTIONS:
            return
        assert self.table is not None and self.narrator is not None
        self.cursor = 0
        if self.resuming:
            self._say_where_it_stands()
            if moment != "count":
                self.say(answers.hand(self.view(), ()))
        if moment == "peg":
            asked = len(self.table.view().events)
            if asked != self.count_asked:  # a new claim: digits typed for another question are gone
                self.count_asked = asked
                self.typed.clear()
            if self.resuming:
                self.say(self._prompt_text())
            return  # the narrator has just asked for the card's points
        if moment == "play":
            self.cue("your turn")
        if moment == "count":
            asked = len(self.table.view().events)
            if asked != self.count_asked:
                if self.resuming:  # the narrator asked before the game was put away: ask again
                    request = next(e for e in reversed(self.view().events) if isinstance(e, CountRequested))
                    self.cue("count")
                    for line in self.narrator.retell(request):
                        self.say(line)
                self.count_asked = asked
                self.typed.clear()
                timer = self.rules.count_timer
                if timer:
                    self.count_clock.start(timer)
            return  # the narrator has just asked for the count, with the cards
        self.say(self._prompt_text())

    def _prompt_text(self) -> str:
        if self.mode is not Mode.GAME or self.table is None:
            return "No game is being played."
        if self.holding:
            return f"Press Enter for the next {self.next_up}."
        return answers.prompt(self.view(), tuple(self.marked))

    def bot_waiting(self) -> bool:
        """True when another player is to move in the play, the player listening (the terminal paces these moves)."""
        return (self.mode is Mode.GAME and not self.holding and self.table is not None
                and self.table.phase is not Phase.MATCH_OVER and self.moment == "waiting"
                and bool(self.table.waiting_for()))

    def tick(self) -> None:
        """The counting timer: warnings at half time, ten and five seconds, and the timeout itself."""
        if self.mode is Mode.DRILL:
            self.drills.tick()
            self._note_news()  # the time ran out: the answer is news
            return
        if not self.count_clock.running or self.mode is not Mode.GAME or self.moment != "count":
            return
        warnings, out = self.count_clock.check()
        for seconds in warnings:
            self.cue("timer")
            self.say(f"{_number(seconds).capitalize()} seconds left to count.")
        if out:
            self.cue("timer")
            self._act(CountTimeout(SEAT))  # the narrator says the time is up, and what it cost

    def _act(self, action: Action) -> bool:
        assert self.table is not None
        before = len(self.table.view().events)
        refused = self.table.send(action)
        if refused is not None:
            self.cue("illegal")
            self.say(refused)
            return False
        self.marked = []
        self.cursor = 0
        if self.holding:
            self._tell_early(before)
        self._settle()
        return True

    def _tell_early(self, start: int) -> None:
        """During a pause, tell at once the events an action just made (a muggins call), ahead of the next deal
        already dealt, and look back at the show with them in it. A deal voided by a game won now is never told."""
        assert self.table is not None and self.narrator is not None
        events = self.table.view().events
        new = range(start, len(events))
        for index in new:
            self._tell(events[index])
            self.early.add(index)
        if any(isinstance(events[i], GameWon) for i in new):
            self.early.update(range(self.told, start))  # the next deal of a game now over: never told
            return
        self.snapshot = self.table.view_after(self.told, frozenset(self.early))

    # ------------------------------------------------------------ the game: keys
    def _hand(self) -> list[Card]:
        view = self.view()
        return sorted(view.hand if view.hand else view.kept)

    def _card_words(self, card: Card) -> str:
        view = self.view()
        words = card.name.capitalize()
        if self.moment == "discard" and card in self.marked:
            words += ", marked"
        elif self.moment == "play":
            if card in view.playable:
                words += f", makes {_number(view.count + card.rank.value_in_count)}"
            else:
                words += ", would pass thirty-one"
        return words

    def _walk(self, step: int) -> None:
        hand = self._hand()
        if not hand:
            self.say("You hold no cards.")
            return
        self.cursor = (self.cursor + step) % len(hand)
        self.say(f"{self._card_words(hand[self.cursor])}. {self.cursor + 1} of {len(hand)}.")

    def _card_left(self, key: str) -> None:
        self._walk(-1)

    def _card_right(self, key: str) -> None:
        self._walk(1)

    def _select_at(self, key: str) -> None:
        hand = self._hand()
        position = int(key)
        if position > len(hand):
            self.say(_hold_only(len(hand)))
            return
        self.cursor = position - 1
        self.say(f"{self._card_words(hand[self.cursor])}.")

    def _mark_at(self, key: str) -> None:
        hand = self._hand()
        if int(key) > len(hand):
            self.say(_hold_only(len(hand)))
            return
        self.cursor = int(key) - 1
        self._mark(key)

    def _mark(self, key: str) -> None:
        hand = self._hand()
        card = hand[self.cursor % len(hand)]
        need = self.view().must_discard
        if card in self.marked:
            self.marked.remove(card)
            self.say(f"{card.name.capitalize()}, unmarked. {marked_count(len(self.marked), need)}")
            return
        if len(self.marked) >= need:
            self.say(f"You already marked {_number(need)}; unmark one first, or press Enter to lay them away.")
            return
        self.marked.append(card)
        self.say(f"{card.name.capitalize()}, marked. {marked_count(len(self.marked), need)}")

    def _lay_away(self, key: str) -> None:
        need = self.view().must_discard
        if len(self.marked) != need:
            self.say(f"Mark {_number(need)} {'card' if need == 1 else 'cards'} for the crib first; "
                     f"{_number(len(self.marked))} marked.")
            return
        self._act(Discard(SEAT, tuple(self.marked)))

    def _play(self, key: str) -> None:
        hand = self._hand()
        self._act(Play(SEAT, hand[self.cursor % len(hand)]))

    def _type_digit(self, key: str) -> None:
        self.say(self.typed.type(key))

    def _delete_digit(self, key: str) -> None:
        self.say(self.typed.delete())

    def _claim(self, key: str) -> None:
        points = self.typed.take()
        if points is None:
            self.say(NOTHING_CLAIMED if self.moment == "peg" else NOTHING_TYPED)
            return
        self.count_clock.stop()
        self._act(ClaimCount(SEAT, points))

    def _go_on(self, key: str) -> None:
        self.passed = self.told
        self.holding = False
        self.snapshot = None
        self._settle()

    def _hurry(self, key: str) -> None:
        assert self.table is not None
        stamp = len(self.table.view().events)
        if stamp == self.hurried_at:  # said already for this wait: the computer's move, made at once, answers
            return
        self.hurried_at = stamp
        waiting = sorted(self.table.waiting_for())
        who = self.view().names[waiting[0]] if waiting else "nobody"
        self.say(f"Waiting for {who}.")

    def _key_count(self, key: str) -> None:
        self.say(answers.count(self.view()))

    def _key_crib(self, key: str) -> None:
        self.say(answers.crib_owner(self.view()))

    def _key_starter(self, key: str) -> None:
        self.say(answers.starter(self.view()))

    def _key_table(self, key: str) -> None:
        self.say(answers.table(self.view()))

    def _key_scores(self, key: str) -> None:
        self.say(answers.scores(self.view()))

    def _key_turn(self, key: str) -> None:
        if self.holding:
            self.say(f"Yours: press Enter for the next {self.next_up}.")
            return
        text = answers.turn(self.view())
        if self.moment == "count" and self.count_clock.running:
            text += f" {_number(self.count_clock.left()).capitalize()} seconds left to count."
        self.say(text)

    def _key_hand(self, key: str) -> None:
        self.say(answers.hand(self.view(), tuple(self.marked)))

    def _key_held(self, key: str) -> None:
        self.say(answers.held(self.view()))

    def _key_last(self, key: str) -> None:
        self.say(answers.last_play(self.view()))

    def _call_muggins(self, key: str) -> None:
        self._act(CallMuggins(SEAT))


_DRILL_WORDS = {"counting": "while you count", "discarding": "while you lay away", "answered": "after an answer"}
_MOMENT_WORDS = {
    "discard": "lay away", "play": "play a card", "peg": "claim your points in the play",
    "count": "count your hand", "review": "go over a show",
    "waiting": "wait for the computer players", "over": "have finished a match",
}


def _number(n: int) -> str:
    from audiocrib.engine.numbers import number_words

    return number_words(n)


def _hold_only(cards: int) -> str:
    return f"You hold only {_number(cards)} card{'' if cards == 1 else 's'}."

