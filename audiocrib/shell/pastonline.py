"""The lobby's "Past matches": the matches this player sat in on the server, newest first, a page at a time, each
in one sentence (its table, when it ended, who, and the result), and one public match found by its table number.
Enter on a match brings its whole log from the server and plays it back (`_replay`, the replay screen's).

>>> from audiocrib.engine.rules import Rules
>>> entry = PastMatchSummary(12, 1_790_000_000, Rules(), ("Ann", "Bob"), 1, 0, (1, 0), (121, 97))
>>> _line(entry, datetime.fromtimestamp(1_790_000_000 + 86_400))  # doctest: +ELLIPSIS
'Yesterday at ..., table 12, six-card, you against Ann: Ann won, one hundred twenty-one to ninety-seven'
"""

from __future__ import annotations

from datetime import datetime

from audiocrib.engine.pastmatch import MatchResult
from audiocrib.engine.views import watcher_seat
from audiocrib.online.matches import AskMatchLog, AskPastMatches, MatchLog, PastMatchList, PastMatchSummary
from audiocrib.shell.leaderboard import BACK_TO_LOBBY, LobbyList, LobbyLists
from audiocrib.shell.lineedit import LineEdit
from audiocrib.telling.replaying import listed_line

__all__ = ["PAST_MATCHES_ITEM", "PastOnline"]

PAST_MATCHES_ITEM = "past matches"
"""The lobby's item that opens the list of past matches."""
EARLIER, NEWER, BY_NUMBER = "earlier matches", "newer matches", "a public match by its table number"


class PastOnline(LobbyLists):
    """The list of past matches on the server, in the lobby's place while open."""

    past_page: PastMatchList | None = None

    def _past_matches_open(self, page: int = 1, table: int | None = None) -> None:
        """Ask for a page of this player's past matches (or the match at ``table``) and read the list."""
        client = self.client
        if client is None:
            return
        answer = client.ask_for(AskPastMatches(page, table), PastMatchList)
        if isinstance(answer, str):
            self.say(answer)
            if self.lobby_list is None:
                self._say_lobby_item()
            return
        self.past_page = answer
        now = datetime.now()
        matches = {f"match {entry.number}": _line(entry, now) for entry in answer.matches}
        paging = (*((EARLIER,) if answer.page < answer.pages else ()), *((NEWER,) if answer.page > 1 else ()))
        shown = LobbyList((*matches, *paging, BY_NUMBER, BACK_TO_LOBBY), matches, self._past_online_choose)
        if table is not None:
            opening = f"Table {table}:" if answer.matches else f"Table {table}: no match to hear again."
        elif not answer.matches:
            opening = "Past matches: none yet; a match is listed here once it is won."
        elif answer.pages == 1:
            count = len(answer.matches)
            opening = f"Past matches, {'one' if count == 1 else count}, newest first."
        else:
            opening = f"Past matches, page {answer.page} of {answer.pages}, newest first."
        self._show_list(opening, shown)

    def _past_online_choose(self, item: str) -> None:
        page = self.past_page.page if self.past_page is not None else 1
        if item == EARLIER:
            self._past_matches_open(page + 1)
        elif item == NEWER:
            self._past_matches_open(page - 1)
        elif item == BY_NUMBER:
            self._ask_line(LineEdit("Table number", 10), "Type the number of the table whose match you want to"
                           " hear again, then press Enter.", self._past_by_number, self._say_lobby_item)
        elif item.startswith("match "):
            self._past_hear(int(item.removeprefix("match ")))

    def _past_by_number(self, text: str) -> None:
        number = text.strip().removeprefix("table ").strip()
        if not (number.isascii() and number.isdigit()) or not 0 < int(number) < 10**9:
            self.say("A table's number is a whole number, like 12.")
            self._say_lobby_item()
            return
        self._past_matches_open(table=int(number))

    def _past_hear(self, table: int) -> None:
        """Bring the match's whole log from the server and play it back."""
        client = self.client
        if client is None:
            return
        log = client.ask_for(AskMatchLog(table), MatchLog)
        if isinstance(log, str):
            self.say(log)
            return
        self._replay(log.past_match(f"table {table} on {self.address.said}"))


def _line(entry: PastMatchSummary, now: datetime) -> str:
    """A server's past match as the list says it, in the words of the list of this computer's (without its full
    stop: the list adds its place in the list)."""
    seat = watcher_seat(entry.rules) if entry.seat is None else entry.seat
    result = MatchResult(entry.side, entry.match_scores, entry.last_scores)
    return listed_line(datetime.fromtimestamp(entry.ended), now, f"table {entry.number}", entry.rules, entry.names,
                       seat, result).rstrip(".")
