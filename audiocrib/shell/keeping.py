"""Keeping the player's files: the game in progress (autosave, resume, save and quit, abandon), the statistics,
and the data folder's lock, each write failure said once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from audiocrib.engine.events import GameWon, MatchWon
from audiocrib.engine.game import Phase
from audiocrib.progress.statistics import Statistics
from audiocrib.shell import files
from audiocrib.shell.core import SessionCore
from audiocrib.shell.keys import _QUESTIONS, _number
from audiocrib.shell.lock import RUN_LOCK, FolderLock, updating
from audiocrib.shell.offline import OfflineTable
from audiocrib.shell.progressbook import PROGRESS_FILE, ProgressBook
from audiocrib.shell.savedgame import SAVE_VERSION, SEAT, SavedTable
from audiocrib.shell.table import Heard
from audiocrib.telling import answers

STATISTICS_VERSION = 1


class Keeping(SessionCore):
    """The files kept for the player, and the games started, resumed, saved and abandoned."""

    _book: ProgressBook | None = None

    @property
    def progress(self) -> ProgressBook:
        """The progress figures, kept beside the statistics (nowhere, when the statistics are not kept)."""
        if self._book is None:
            path = self.statistics_path
            self._book = ProgressBook(self.say, path.with_name(PROGRESS_FILE) if path is not None else None)
        return self._book

    def _read_files(self) -> list[str]:
        """Read the game in progress, the statistics and the practice figures; a sentence for each damaged one."""
        notices: list[str | None] = []
        problem = files.folder_problem(self.save_path.parent) if self.save_path is not None else None
        if problem is not None and self.save_path is not None:
            notices.append(f"Your data folder, {self.save_path.parent}, cannot be opened ({problem}), so no game "
                           "can be resumed and nothing is kept this time.")
            self.save_path = self.statistics_path = self.drills.record_path = None
        if self.save_path is not None:
            notices.append(self._lock_folder(self.save_path.parent))
        if self.save_path is not None:
            loaded = files.load(self.save_path, "saved game", SAVE_VERSION, SavedTable.from_json,
                                "it cannot be resumed", limit=SavedTable.MAX_BYTES)
            self.saved = loaded.value
            notices.append(loaded.notice)
        notices.append(self._load_statistics())
        notices.append(self.drills.load())
        notices.append(self.progress.load())
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
            self.write_error = files.reason(error)
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

    def _new_game(self) -> None:
        if self.saved is not None and not self._confirmed(
                "A new game replaces your unfinished one. Press Enter again to start it, "
                "or choose Resume the unfinished game."):
            return
        setup = self.setup
        table = (self.new_table(setup) if self.new_table is not None
                 else OfflineTable.new(setup.rules(), setup.names(), setup.levels, self.seed, self.save_path))
        self.say(f"New game: {setup.describe()}" + (" It is not kept." if self.elsewhere else ""))
        self.saved = None
        self._sit_at(table, Heard(0, frozenset(), -1))

    def _begin(self, saved: SavedTable) -> None:
        """Take up a kept game where the player left it."""
        self._sit_at(OfflineTable(saved, self.save_path), Heard(saved.told, saved.early, saved.passed))

    def _autosave(self) -> None:
        """Keep the game in progress (after every move), or once the match is over, let it go."""
        table = self.table
        if self.save_path is None or table is None:
            return
        if table.phase is Phase.MATCH_OVER:  # kept among the past matches before its save is let go
            self._keep_past_match()
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
        if not table.levels:  # no computer players' levels to count the games against (an online table)
            return
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
            self._write("game", lambda: files.remove(path))
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

    def _say_statistics(self) -> None:
        notice = self._load_statistics()  # as they are now, with what another copy added
        if notice:
            self.say(notice)
        for line in self.statistics.summary():
            self.say(line)
        practice = self.drills.all_time_text()
        self.say(f"Practice: {practice}" if practice else "No practice yet.")
        for line in self.progress.words():
            self.say(line)
        last = list(self.progress.progress.last_match)
        if last:
            self._say_pages("The coach's review of your last match, one message at a time; period steps to the "
                            "next.", last)

    def _lock_folder(self, folder: Path) -> str | None:
        """Take the data folder's lock for this run; if it cannot be taken, no game is kept and the sentence why.

        A lock that cannot be taken (its file a folder or a link, a folder without the right to write, a network
        folder without locks) keeps nothing, as when another copy holds it: carrying on as the keeper would let two
        copies offer and save the same game over each other's moves.
        """
        lock = FolderLock(folder)
        try:
            taken = lock.acquire()
        except OSError as error:
            self.save_path = None
            return (f"The data folder's lock, {RUN_LOCK}, cannot be taken ({files.reason(error)}), so this copy "
                    "neither offers nor keeps a game in progress. Here you can practise, or play a game that is not "
                    "kept, or quit.")
        if not taken:
            self.elsewhere = True
            self.save_path = None
            return ("Another copy of audiocrib is open on this data folder and keeps the game in progress. Here you "
                    "can practise, or play a game that is not kept, or quit.")
        self.lock = lock
        return None

    def close(self) -> None:
        """Let the data folder go, and the server's connection (at the end of the run)."""
        self._close_online()
        if self.lock is not None:
            self.lock.release()
            self.lock = None
