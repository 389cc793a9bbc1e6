"""A match heard again: any `PastMatch` (one finished on this computer, or one a server sends), told by the game's
own narrator in the words its seat heard (not the coach's after each deal), an event or a deal at a time, forward
and back; the table's questions answered for the moment the replay stands at; every hand of a deal shown; the
coach's review of the match; and the whole match written out as a text file to share.

The replay stands after some number of steps (``replay_at``) of the order in which the seat heard the log (the
log's own, but for a muggins call at a pause, heard before the deal already dealt: `PastMatch.hearing`), as if the
game had just told them: the right arrow tells the next event that says something, the left arrow the one before
again, Enter tells on to the end of the deal as the game did (the scores and "Press Enter for the next deal." at
its pause).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from audiocrib.coach.review import Notebook
from audiocrib.engine.events import Dealt, Discarded, Event, GameStarted, LastCard, Played, SaidGo
from audiocrib.engine.numbers import number_words
from audiocrib.engine.pastmatch import PastMatch
from audiocrib.engine.views import PlayerView
from audiocrib.shell import files
from audiocrib.shell.core import SessionCore
from audiocrib.shell.keys import Mode, key_word
from audiocrib.telling import answers
from audiocrib.telling.cues import cues_for
from audiocrib.telling.listener import SeatNames, Verbosity
from audiocrib.telling.phrases import capitalised
from audiocrib.telling.replaying import (
    Told,
    deal_said,
    hands_said,
    result_said,
    scores_said,
    told,
    transcript,
    when_said,
    who_said,
)
from audiocrib.telling.reviewing import match_review_words

__all__ = ["Replaying", "transcript_name"]

_QUESTIONS: dict[str, Callable[[PlayerView], str]] = {
    "c": answers.count, "b": answers.crib_owner, "f": answers.starter, "v": answers.table, "s": answers.scores,
    "t": answers.turn, "h": partial(answers.hand, positions=False), "n": answers.held, "l": answers.last_play,
}
"""The table's question keys and their answers, each from the seat's view where the replay stands."""
_QUICK_REVIEW = 60
"""The most decisions the coach weighs without a word first: a match of two players to 121 has about forty-five,
weighed in a quarter of a second; a match to seven games, about three hundred, in two seconds."""


def transcript_name(match: PastMatch, ended: datetime) -> str:
    """A transcript's file name from the date and the players, safe on any file system: ASCII letters, digits
    and hyphens, never a name Windows keeps for itself ("audiocrib-2026-11-27-1405-You-Bob")."""
    players = "-".join("".join(ch for ch in name if ch.isascii() and ch.isalnum())[:20] or "player"
                       for name in match.names)
    return f"audiocrib-{ended:%Y-%m-%d-%H%M}-{players}"[:120]


def write_new(folder: Path, stem: str, text: str) -> Path:
    """Write ``text`` to a new file ``stem.txt`` in ``folder`` (``stem-2.txt``, ... when that is taken), created
    afresh and exclusively: never over another file, never through a link. The path; OSError if it cannot be."""
    folder.mkdir(parents=True, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    for number in range(1, 1000):
        path = folder / (f"{stem}.txt" if number == 1 else f"{stem}-{number}.txt")
        try:
            descriptor = os.open(path, flags, 0o666)
        except FileExistsError:
            continue
        with open(descriptor, "w", encoding="ascii", newline="\n") as file:
            file.write(text)
        return path
    raise OSError(17, "too many transcripts of this match are there already")


def documents_folder() -> Path | None:
    """The player's documents folder, where transcripts go (None if it is not there)."""
    import platformdirs

    folder = Path(platformdirs.user_documents_dir())
    return folder if folder.is_dir() else None


class Replaying(SessionCore):
    """The replay screen: `_replay` is the one way in."""

    replaying: PastMatch | None = None
    """The match being heard again."""
    replay_at = 0
    """How many steps of the match the replay has told (it stands after them)."""
    transcript_folder: Path | None = None
    """Where transcripts are written (None: the documents folder, or the data folder without one)."""
    wall_clock: Callable[[], float]
    """Defined in `pastmatches`: the time of day."""
    _replay_told: Told
    _replay_events: tuple[Event, ...]
    """The match's log as its seat saw it."""
    _replay_then: Callable[[], None]
    _replay_pages: tuple[str, ...] | None = None
    _replay_seen: tuple[int, PlayerView] | None = None

    if TYPE_CHECKING:  # the menus' and the keeping's, found after this class: a stub here would stand in their way

        def _say_item(self, prefix: str = "") -> None:
            """Defined in `menus`."""

    def _replay(self, match: PastMatch, back: Callable[[], None] | None = None) -> None:
        """Hear ``match`` again; Escape then calls ``back`` (None: back to the screen it was chosen from)."""
        came, index = self.mode, self.menu_index
        self.replaying = match
        self._replay_told = told(match, self.settings.verbosity)
        self._replay_events = match.view_at(len(match.events)).events
        self.replay_at = 0
        self._replay_pages = None
        self._replay_seen = None
        self._replay_then = back if back is not None else (lambda: self._replay_return(came, index))
        self.mode = Mode.REPLAY
        self.say(f"Hearing the match again: {who_said(match)}, {match.rules.describe()}; {result_said(match)}. "
                 f"Right arrow tells the next event, Enter the whole deal; press {key_word(self.help_key)} for help.")

    def _replay_return(self, mode: Mode, index: int) -> None:
        self.mode = mode
        self.menu_index = index
        if mode is Mode.LOBBY:
            self._say_lobby_item()
        else:
            self._say_item(prefix=f"{capitalised(mode.value)}: ")

    def _replay_escape(self, key: str) -> None:
        self.replaying = None
        self._replay_then()

    # ------------------------------------------------------------ where it stands
    def _match(self) -> PastMatch:
        assert self.replaying is not None
        return self.replaying

    def _covered(self) -> int:
        """How many of the log's first events the replay has told (or passed, as the game did a voided deal)."""
        return self._replay_told.hearing.covered(self.replay_at)[0]

    def _replay_view(self) -> PlayerView:
        """The seat's view where the replay stands (kept while it stands there: a long match folds in tens of
        milliseconds)."""
        if self._replay_seen is None or self._replay_seen[0] != self.replay_at:
            n, also = self._replay_told.hearing.covered(self.replay_at)
            self._replay_seen = (self.replay_at, self._match().view_at(n, also=also))
        return self._replay_seen[1]

    def _replay_told_event(self) -> Event:
        """The event the replay told last (the first, at the start)."""
        return self._replay_events[self._replay_told.order[max(self.replay_at - 1, 0)]]

    def _heard(self, step: int) -> bool:
        return bool(self._replay_told.lines[step])

    def _steps(self) -> int:
        return len(self._replay_told.order)

    def _replay_tell(self, step: int) -> None:
        """Tell the step ``step`` as the game told it: its cues, then its words (at brief, with sounds for words
        on, go and last by their cue alone, as at the table)."""
        match = self._match()
        event = self._replay_events[self._replay_told.order[step]]
        cues = cues_for(event, match.seat, match.rules)
        self.cue(*cues)
        lines = self._replay_told.lines[step]
        if (self.settings.sounds_for_words and self.settings.sounds and cues and lines
                and self.settings.verbosity is Verbosity.BRIEF and isinstance(event, SaidGo | LastCard)):
            self.announcer.history.add(lines[0])
            return
        for line in lines:
            self.say(line)

    def _at_end(self) -> None:
        match = self._match()
        self.replay_at = self._steps()
        review = "" if match.watched else " Press g to hear the coach go over it;"
        self.say(f"The end of the match: {result_said(match)}.{review} Home goes back to the start, Escape back.")

    def _replay_next(self, key: str) -> None:
        nxt = next((k for k in range(self.replay_at, self._steps()) if self._heard(k)), None)
        if nxt is None:
            self._at_end()
            return
        self.replay_at = nxt + 1
        self._replay_tell(nxt)

    def _replay_previous(self, key: str) -> None:
        heard = [k for k in range(self.replay_at) if self._heard(k)]
        if len(heard) < 2:
            self._replay_first(key)
            return
        self.replay_at = heard[-2] + 1
        self._replay_tell(heard[-2])

    def _replay_deal(self, key: str) -> None:
        """Enter: tell on to the end of this deal (the next pause), as the game did, then what it said there."""
        steps = self._steps()
        if self.replay_at >= steps:
            self._at_end()
            return
        stop = min((p for p in self._replay_told.hearing.pauses if p > self.replay_at), default=steps)
        for step in range(self.replay_at, stop):
            self.replay_at = step + 1
            self._replay_tell(step)
        if stop >= steps:
            self._at_end()
            return
        if stop in self._replay_told.standing:
            self.say(self._replay_told.standing[stop])
        game = isinstance(self._replay_events[self._replay_told.order[stop]], GameStarted)
        self.say(f"Press Enter for the next {'game' if game else 'deal'}.")

    def _deal_steps(self) -> list[int]:
        """The steps that tell a deal."""
        return [k for k, i in enumerate(self._replay_told.order) if isinstance(self._replay_events[i], Dealt)]

    def _replay_to_deal(self, step: int, prefix: str = "") -> None:
        """Stand at the deal told at ``step``, and tell it, once and short: the game's start told before it ("Game
        two: you deal first.") or else the scores, then the deal's own words ("Deal two: Bob deals.")."""
        self.replay_at = step + 1
        told_ = self._replay_told
        before = step - 1
        opened = before >= 0 and self._heard(before) and isinstance(
            self._replay_events[told_.order[before]], GameStarted)
        lines = list(told_.lines[before]) if opened else [scores_said(self._match(), self._replay_view())]
        lines[0] = prefix + lines[0]
        for line in (*lines, *told_.lines[step]):
            self.say(line)

    def _replay_next_deal(self, key: str) -> None:
        start = next((s for s in self._deal_steps() if s >= self.replay_at), None)
        if start is None and self.replay_at >= self._steps():
            self.say("This is the end of the match; up arrow goes back to its last deal.")
            return
        if start is None:
            self.say("This is the last deal; End goes to the end of the match.")
            return
        self._replay_to_deal(start)

    def _replay_previous_deal(self, key: str) -> None:
        starts = [s for s in self._deal_steps() if s < self.replay_at]
        if not starts:
            self._replay_first(key)
            return
        if self.replay_at > starts[-1] + 1 or len(starts) == 1:
            self._replay_to_deal(starts[-1], "" if len(starts) > 1 else "The first deal. ")
            return
        self._replay_to_deal(starts[-2])

    def _replay_first(self, key: str) -> None:
        self.replay_at = 0
        self.say("The start of the match. Right arrow tells the first event.")

    def _replay_last(self, key: str) -> None:
        self._at_end()

    # ------------------------------------------------------------ questions, hands, review, transcript
    def _replay_question(self, key: str) -> None:
        view = self._replay_view()
        if key == "s" and view.game_number == 0:  # before the first game begins: no "Game zero"
            self.say("The start of the match: nothing is scored yet.")
            return
        self.say(_QUESTIONS[key](view))

    def _replay_hands(self, key: str) -> None:
        """a: every hand of the deal the replay is in, as laid away in all of it."""
        match = self._match()
        covered = self._covered()
        starts = [s for s in match.deal_starts() if s < covered]
        if not starts:
            self.say("No cards have been dealt yet.")
            return
        end = min(i for i in (*match.deal_starts(), *match.pauses(), len(match.events)) if i > starts[-1])
        hands = match.hands_at(end)
        assert hands is not None
        for line in hands_said(match, hands):
            self.say(line)

    def _review_pages(self) -> tuple[str, ...]:
        """The coach's review of the match, from the seat's decisions in its log (worked out once a replay)."""
        if self._replay_pages is None:
            match = self._match()
            events = self._replay_events
            decisions = sum(1 for e in events if isinstance(e, Discarded | Played) and e.seat == match.seat)
            if decisions > _QUICK_REVIEW:  # seconds of weighing: said, so the wait is not silence
                self.say(f"The coach weighs your {number_words(decisions)} decisions in this match; a moment.")
            notebook = Notebook()
            notebook.recall(events[:match.match_end()], match.seat, match.view_at)
            review = notebook.match_review(events)
            self._replay_pages = tuple(match_review_words(review, SeatNames(match.names, match.rules, match.seat)))
        return self._replay_pages

    def _replay_review(self, key: str) -> None:
        """g: the coach's review of the match, as at the end of a match (not for a match watched)."""
        if self._match().watched:
            self.say("The coach goes over a match only for a player in it, and you watched this one.")
            return
        pages = list(self._review_pages()) or ["The coach has no decisions of yours from this match to go over."]
        count = len(pages)
        self._say_pages(f"The coach's review of the match, {number_words(count)} message"
                        f"{'' if count == 1 else 's'}; period steps to the next, comma back.", pages)

    def _replay_transcript(self, key: str) -> None:
        """p: the whole match written out as plain text, with every hand, to the documents folder."""
        if self.online_only:  # the session runs on the server: a file written here would be the host's
            self.say("A transcript is written only by audiocrib on your own computer, not in the browser.")
            return
        match = self._match()
        ended = datetime.fromtimestamp(match.ended)
        folder = self.transcript_folder
        if folder is None:
            folder = documents_folder()
        if folder is None and self.statistics_path is not None:
            folder = self.statistics_path.parent
        if folder is None:
            self.say("The transcript cannot be written: there is no documents folder or data folder to put it in.")
            return
        text = transcript(match, self.settings.verbosity, ended)
        try:
            path = write_new(folder, transcript_name(match, ended), text)
        except OSError as error:
            self.say(f"The transcript could not be written in {folder} ({files.reason(error)}).")
            return
        self.say(f"The match is written out as {path.name}, in {path.parent}.")

    def _replay_where(self) -> str:
        """Where the replay stands, for the help: the match, the deal, and the last event told."""
        match = self._match()
        when = when_said(datetime.fromtimestamp(match.ended), datetime.fromtimestamp(self.wall_clock()))
        when = when[:1].lower() + when[1:]
        text = f"You are hearing the match of {when.removeprefix('on ')} again, {who_said(match)}."
        hands = match.hands_at(self._covered())
        heard = [k for k in range(self.replay_at) if self._heard(k)]
        if hands is not None:
            text += f" {deal_said(match, hands)}."
        if heard:
            text += f" Last told: {self._replay_told.lines[heard[-1]][0]}"
        else:
            text += " At the start."
        return text
