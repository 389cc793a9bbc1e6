"""The coach at the table: the advice key, the decisions noted as the player makes them, the review of each
deal after its show (as the setting "The coach's review of each deal" asks, or g at the pause), the review of the
match when it ends (g), and each deal's cost kept in the progress figures."""

from __future__ import annotations

from audiocrib.coach import DealReview, LayAwayAdvice, Notebook
from audiocrib.engine.actions import Action, Discard, Play
from audiocrib.engine.numbers import number_words
from audiocrib.engine.views import PlayerView
from audiocrib.online.ratings import rated_match
from audiocrib.progress.improving import DealCost
from audiocrib.shell.core import SessionCore
from audiocrib.shell.progressbook import ProgressBook
from audiocrib.shell.table import Table
from audiocrib.telling.coaching import advice_off, lay_away_words, no_advice, play_words
from audiocrib.telling.listener import SeatNames
from audiocrib.telling.reviewing import deal_costs, deal_review_words, match_review_words

RATING_WAIT = 2.0
"""Seconds a rated match's closing words wait for the server's notice of the rating, which comes straight after
the match's last news: only a server that could not rate the match leaves them to wait this long."""


class Coaching(SessionCore):
    """The advice key and the reviews of the deals."""

    notebook: Notebook
    """The player's decisions at this table, for the coach's reviews (a new one at each table sat at)."""
    _advised: tuple[int, str] | None
    """The last advice said: (events seen when it was asked, its words), so asking again costs nothing."""
    _costs_kept: set[tuple[int, int]]
    """The deals (game, deal) of this table whose cost is in the progress figures."""
    match_review: tuple[str, ...] = ()
    """The review of the last match that ended in this run, one message each (g says it at the match's end)."""
    weighs_every_deal = True
    """Each deal's decisions are weighed after its show, for the progress figures and the review setting. A
    browser's session, whose coach works on the server, weighs them only when the player asks (g, or the review
    setting on): a thousand tabs weighing every deal would take the server's cores."""
    _match_due = False
    """The match is over and its review not yet worked out (a session that weighs only when asked)."""
    match_closing: tuple[tuple[str, ...], float, Table] | None = None
    """At a rated match's end, what Enter and g do, held to be said after the rating's notice (or once
    `RATING_WAIT` has passed by ``clock`` without one), while the player is at that table."""

    def _coach_begin(self) -> None:
        """A new table: nothing noted yet, except, for a game on this computer resumed from its save, the
        decisions already in its log (each at the view it was made from, worked out again from the seed)."""
        self.notebook = Notebook()
        self.match_closing = None
        self._advised = None
        self._costs_kept = set()
        table = self.table
        if table is not None and self.client is None:
            view = table.view()
            self.notebook.recall(view.events, view.seat, lambda index: table.view_after(index, frozenset()))

    @property
    def progress(self) -> ProgressBook:
        """Defined in `keeping`: the progress figures."""
        raise NotImplementedError

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

    def _deal_shown(self) -> DealReview | None:
        """The review of the deal just shown (at the pause after it, or as the match ends), its cost kept in the
        progress figures the first time; None when the player decided nothing in it here."""
        if self.table is None:
            return None
        view = self.view()
        deal = (view.game_number, view.deal_number)
        review = self.notebook.deal_review(self.table.view().events, *deal)
        if not review.decisions and not review.counting:
            return None
        if deal not in self._costs_kept:
            self._costs_kept.add(deal)
            lay_away, play = deal_costs(review)
            if lay_away is not None or play is not None:
                self.progress.add(DealCost(self.progress.today(), lay_away, play))
        return review

    def _review_deal(self) -> None:
        """After a deal's show (at the pause, or as the match ends): its cost kept, and the coach's review of it
        if the setting asks for one."""
        if self.settings.review == "off" and not self.weighs_every_deal:
            return
        review = self._deal_shown()
        if review is None or self.settings.review == "off":
            return
        for line in deal_review_words(review, self._seats(self.view()), costly_only=self.settings.review == "costly"):
            self.say(line)

    def _match_over(self) -> None:
        """The match has just ended: the last deal's review, the match's review made and kept (g says it here,
        and the Statistics until the next match ends), and what Enter and g do now."""
        assert self.table is not None
        if self.view().watching:  # a watcher decided nothing: no review, and their own figures stay as they were
            self.say("Press Enter for the lobby.")
            return
        self._review_deal()
        self.match_review = ()
        self._match_due = True
        if self.weighs_every_deal:
            self._review_match()
        closing = ("Press g to hear the coach go over the match.",
                   "Press Enter for the lobby." if self.client is not None else "Press Enter for the main menu.")
        state = self.client.state if self.client is not None else None
        if state is not None and rated_match(state.rules, [seat.person for seat in state.seats]):
            self.match_closing = (closing, self.clock() + RATING_WAIT, self.table)  # the rating's notice first
            return
        for line in closing:
            self.say(line)

    def _maybe_close_match(self, now: bool = False) -> None:
        """Online: say what Enter and g do at a rated match's end, held for the rating's notice: after it (``now``), or
        once it has been waited for long enough. Not once the player has left the table."""
        if self.match_closing is None:
            return
        lines, due, table = self.match_closing
        if not now and self.clock() < due:
            return
        self.match_closing = None
        if self.table is table:
            for line in lines:
                self.say(line)

    def _review_match(self) -> None:
        """Work out the review of the match just ended, and keep it (the Statistics say it until the next)."""
        assert self.table is not None
        self._match_due = False
        review = self.notebook.match_review(self.table.view().events)
        self.match_review = tuple(match_review_words(review, self._seats(self.view())))
        self.progress.add(last_match=self.match_review)

    def _go_over(self, key: str) -> None:
        """g: at the pause after a show, the coach's review of that deal; when the match is over, of the match,
        one message at a time."""
        if self.moment == "over":
            if self._match_due and self.table is not None:
                self._review_match()
            pages = list(self.match_review) or ["The coach has no decisions of yours from this match to go over."]
            count = len(pages)
            self._say_pages(f"The coach's review of the match, {number_words(count)} message"
                            f"{'' if count == 1 else 's'}; period steps to the next, comma back.", pages)
            return
        review = self._deal_shown()
        if review is None:
            self.say("The coach has no decisions of yours from this deal to go over.")
            return
        for line in deal_review_words(review, self._seats(self.view())):
            self.say(line)
