"""At the table: the game narrated from the table's events as the player's seat hears them, the pauses before
each deal and game, the questions asked, the counting timer, the player's moves sent, and the guard against keys
typed ahead of the news."""

from __future__ import annotations

from audiocrib.engine.actions import Action, CountTimeout
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
from audiocrib.engine.views import PlayerView
from audiocrib.shell.core import SessionCore
from audiocrib.shell.keys import _MOVES, _QUESTIONS, Binding, Mode, _number
from audiocrib.shell.table import Heard, Table
from audiocrib.telling import answers
from audiocrib.telling.cues import cues_for
from audiocrib.telling.narrator import Narrator, Verbosity


class AtTable(SessionCore):
    """The narration of the game being played, and the moves sent to its table."""

    def _game_moment(self) -> str:
        """The game's moment, whatever menu is open over it."""
        assert self.table is not None
        if self.holding:
            return "review"
        phase = self.table.phase
        if phase is Phase.MATCH_OVER:
            return "over"
        if self.table.view().watching:  # at the watchers' seat: no move is ever theirs
            return "watching"
        waiting = self.table.waiting_for()
        if self.seat in waiting:
            return {Phase.DISCARD: "discard", Phase.PLAY: "play", Phase.PEG_CLAIM: "peg",
                    Phase.COUNT: "count"}[phase]
        return "waiting"

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

    def _confirmed(self, question: str) -> bool:
        """True if this Enter answers ``question``, asked by the Enter just before and heard (an Enter typed ahead
        of it, as a double press is, asks again); else ask it."""
        if self.confirm_at == self.keys_pressed - 1 and self.clock() - self.confirm_said >= self.settings.typed_ahead:
            return True
        ahead = self.confirm_at == self.keys_pressed - 1
        self.confirm_at, self.confirm_said = self.keys_pressed, self.clock()
        self.say("That Enter came before you heard the question, so it did nothing." if ahead else question)
        return False

    def _coach_begin(self) -> None:
        """Defined in `coaching`."""
        raise NotImplementedError

    def _review_deal(self) -> None:
        """Defined in `coaching`."""
        raise NotImplementedError

    def _note_decision(self, view: PlayerView, action: Action) -> None:
        """Defined in `coaching`."""
        raise NotImplementedError

    def _match_over(self) -> None:
        """Defined in `coaching`: the last deal's review, the match's, and what Enter and g do now."""
        raise NotImplementedError

    def _sit_at(self, table: Table, heard: Heard) -> None:
        """Play at ``table``, the player having heard it as far as ``heard``."""
        self.table = table
        table.listen(lambda: self._settle() if self.table is table else None)
        view = table.view()
        self.rules = view.rules
        self.seat = view.seat
        self.narrator = Narrator(view.names, view.rules, self.seat, self.settings.verbosity)
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
        self.discard_asked = (-1, -1)
        self._coach_begin()
        self._settle()

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
            if self._pauses_before(self.told, events) and self.table.view().watching:
                self._watcher_passes(events[self.told])  # a watcher's game goes on by itself
            elif self._pauses_before(self.told, events):
                self.holding = True
                if not was_holding:
                    self.snapshot = self.table.view_after(self.told, frozenset(self.early))
                    self.next_up = "game" if isinstance(events[self.told], GameStarted) else "deal"
                    self._review_deal()  # before the scores, which stay beside the prompt
                    if self.next_up == "deal" and self.narrator.verbosity is Verbosity.NORMAL:
                        self.say(self.narrator.standing())
                    self.say(self._prompt_text())
                return
            self._tell(events[self.told])
            self.told += 1
            if isinstance(events[self.told - 1], MatchWon):
                self._match_over()
        self.holding = False

    def _watcher_passes(self, event: Event) -> None:
        """Where a player pauses after a show, a watcher hears the scores and the game goes on, unpaused."""
        assert self.narrator is not None
        if not isinstance(event, GameStarted) and self.narrator.verbosity is Verbosity.NORMAL:
            self.say(self.narrator.standing())

    def _tell(self, event: Event) -> None:
        """Narrate one event: its cues, then its words (at brief, with sounds for words on, some cues alone)."""
        assert self.narrator is not None
        cues = cues_for(event, self.seat, self.rules)
        self.cue(*cues)
        lines = self.narrator.tell(event)
        wordless = (self.settings.sounds_for_words and self.settings.sounds and cues
                    and self.settings.verbosity is Verbosity.BRIEF and isinstance(event, SaidGo | LastCard))
        if wordless:
            self.announcer.history.add(lines[0] if lines else event.kind)  # still in the history to read
            return
        for line in lines:
            self.say(line)

    def _ask(self) -> None:
        """When the game waits for the human, say so (and start the counting clock, once the question is said).
        On a resume, first what the player needs: the scores, and the hand or the cards to count."""
        moment = self.moment
        if moment not in _QUESTIONS:
            return
        assert self.table is not None and self.narrator is not None
        if moment == "discard":  # others lay away meanwhile at a table of people: asked once a deal
            deal = (self.view().game_number, self.view().deal_number)
            if deal == self.discard_asked and not self.resuming:
                return
            self.discard_asked = deal
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
                kept = self.table.count_time()
                if kept is not None:
                    self.count_clock.start(kept, elsewhere=True)
                elif self.rules.count_timer:
                    self.count_clock.start(self.rules.count_timer)
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
        """The counting timer: warnings at half time, ten and five seconds, and the timeout itself; and what has
        come from the server, when playing online."""
        self._poll_online()
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
        if out and not self.count_clock.elsewhere:  # else the table's own timeout comes as news
            self.cue("timer")
            self._act(CountTimeout(self.seat))  # the narrator says the time is up, and what it cost

    def _act(self, action: Action) -> bool:
        assert self.table is not None
        view = self.table.view()
        before = len(view.events)
        refused = self.table.send(action)
        if refused is not None:
            self.cue("illegal")
            self.say(refused)
            return False
        self._note_decision(view, action)
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
