"""The coach at the table: the advice key, the decisions noted as the player makes them, and the review of each
deal after its show (as the setting "The coach's review of each deal" asks)."""

from __future__ import annotations

from audiocrib.coach import LayAwayAdvice, Notebook
from audiocrib.engine.actions import Action, Discard, Play
from audiocrib.engine.views import PlayerView
from audiocrib.shell.core import SessionCore
from audiocrib.telling.coaching import advice_off, lay_away_words, no_advice, play_words
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.reviewing import deal_review_words


class Coaching(SessionCore):
    """The advice key and the reviews of the deals."""

    notebook: Notebook
    """The player's decisions at this table, for the coach's reviews (a new one at each table sat at)."""
    _advised: tuple[int, str] | None
    """The last advice said: (events seen when it was asked, its words), so asking again costs nothing."""

    def _coach_begin(self) -> None:
        """A new table: nothing noted yet."""
        self.notebook = Notebook()
        self._advised = None

    def _seats(self, view: PlayerView) -> SeatNames:
        return SeatNames(view.names, view.rules, view.seat)

    def _advice(self, key: str) -> None:
        """What the expert would do at this decision, and why."""
        assert self.table is not None
        if not self.table.advice_allowed():
            self.say(advice_off())
            return
        view = self.view()
        stamp = len(view.events)
        if self._advised is not None and self._advised[0] == stamp and not self.holding:
            self.say(self._advised[1])
            return
        advice = None if self.holding else self.notebook.coach.advise(view)
        if advice is None:
            self.say(no_advice())
            return
        if isinstance(advice, LayAwayAdvice):
            words = lay_away_words(advice, self._seats(view), view.dealer)
        else:
            words = play_words(advice, self._seats(view))
        self._advised = (stamp, words)
        self.say(words)

    def _note_decision(self, view: PlayerView, action: Action) -> None:
        """The game took the player's ``action``, decided at ``view``: note it for the reviews."""
        if isinstance(action, Discard):
            self.notebook.note(view, action.cards)
        elif isinstance(action, Play):
            self.notebook.note(view, (action.card,))

    def _review_deal(self) -> None:
        """After a deal's show (at the pause, or as the match ends): the coach's review of it, if the setting
        asks for one."""
        if self.settings.review == "off" or self.table is None:
            return
        view = self.view()
        review = self.notebook.deal_review(self.table.view().events, view.game_number, view.deal_number)
        if not review.decisions and not review.counting:
            return
        for line in deal_review_words(review, self._seats(view), costly_only=self.settings.review == "costly"):
            self.say(line)
