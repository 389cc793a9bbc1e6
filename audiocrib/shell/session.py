"""The shell's state and what every key means in every moment, apart from the terminal.

A `Session` receives key names (``"c"``, ``"left"``, ``"enter"``, ``"f1"``, ``"tab"``) through `Session.press` and
answers through its `Announcer`. The terminal layer (`audiocrib.shell.app`) only turns key presses into these names,
ticks the counting timer and lets the table's other players move; everything a player can do is here, so the help a
player hears is the same table of bindings the keys are dispatched from (`audiocrib.shell.keys`).

A session is its screens, one module each, over the state they share (`audiocrib.shell.core`): the menus
(`menus`), the table while playing (`at_table`: the narration and the moves sent; `table_keys`: the keys),
practice (`practice`), the player's files (`keeping`) and help (`helping`). The game itself is behind a `Table`
(`audiocrib.shell.table`); the offline one (`audiocrib.shell.offline`) holds the game and the computer players.

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
'Main menu: New game. 1 of 8.'
>>> session.press("enter")
>>> session.moment
'discard'
>>> session.press("z")
>>> speaker.said[-1]
'The z key does nothing now. Press Tab for help.'
"""

from __future__ import annotations

from audiocrib.shell.at_table import AtTable
from audiocrib.shell.coaching import Coaching
from audiocrib.shell.helping import Helping
from audiocrib.shell.keeping import Keeping
from audiocrib.shell.keys import Binding, Mode, welcome
from audiocrib.shell.menus import Menus
from audiocrib.shell.online import OnlineScreens
from audiocrib.shell.pastmatches import PastMatchList
from audiocrib.shell.practice import Practice
from audiocrib.shell.replaying import Replaying
from audiocrib.shell.savedgame import SEAT
from audiocrib.shell.table_keys import TableKeys

__all__ = ["SEAT", "WELCOME", "Binding", "Mode", "Session"]

WELCOME = welcome()
"""The first sentence in a terminal (a browser's names F1: `SessionCore.help_key`)."""


class Session(Menus, Practice, Keeping, Coaching, AtTable, TableKeys, OnlineScreens, PastMatchList, Replaying,
              Helping):
    """One run of the shell: the menus, the table setup, the settings and the game being played.

    ``save_path`` is where the game in progress is kept, written after every move (None: games are not kept);
    the statistics and practice figures are kept beside it. ``settings_file`` keeps the settings and the default
    table when they change. ``open_speech`` starts a speech mode when the player chooses another in the settings
    (None: the choice takes effect at the next start). ``clock`` is read for the counting timer, so a test can
    replace it. ``new_table`` makes the table a new game is played at (None: an offline table with the setup's
    computer players).
    """

    def start(self) -> None:
        """The first words: the main menu (or the saved game on offer)."""
        self._apply_settings()
        self.say(welcome(self.help_key))
        for notice in self.start_notices:
            self.say(notice)
        for notice in self._read_files():
            self.say(notice)
        self.mode = Mode.MAIN
        self.menu_index = 0
        if self.online_address is not None:  # audiocrib online: straight to the server (Escape: the main menu)
            self._play_online()
            return
        if self.saved is not None:
            self.say(f"An unfinished game is waiting: {self._describe_saved(self.saved)} Press Enter to resume it.")
        self._say_item(prefix="Main menu: ")
