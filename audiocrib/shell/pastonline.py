"""The lobby's "Past matches": the matches this player sat in on the server, newest first, a page at a time, each
in one sentence (its table, when it ended, who, and the result), and one public match found by its table number.
Enter on a match brings its whole log from the server and plays it back (`_replay`, the replay screen's).

>>> import time
>>> now = time.mktime((2026, 11, 27, 18, 0, 0, 0, 0, -1))
>>> when_words(time.mktime((2026, 11, 27, 9, 5, 0, 0, 0, -1)), now)
'today at 09:05'
>>> when_words(time.mktime((2026, 11, 26, 21, 30, 0, 0, 0, -1)), now)
'yesterday at 21:30'
>>> when_words(time.mktime((2026, 3, 2, 14, 0, 0, 0, 0, -1)), now)
'on Monday 2 March 2026 at 14:00'
"""

from __future__ import annotations

import time

from audiocrib.engine.pastmatch import PastMatch
from audiocrib.online.matches import AskMatchLog, AskPastMatches, MatchLog, PastMatchList, past_match_line
from audiocrib.shell.leaderboard import BACK_TO_LOBBY, LobbyList, LobbyLists
from audiocrib.shell.lineedit import LineEdit

__all__ = ["PAST_MATCHES_ITEM", "PastOnline", "when_words"]

PAST_MATCHES_ITEM = "past matches"
"""The lobby's item that opens the list of past matches."""
EARLIER, NEWER, BY_NUMBER = "earlier matches", "newer matches", "a public match by its table number"
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")


def when_words(ended: float, now: float | None = None) -> str:
    """When a match ended, in this computer's time: "today at 09:05", "yesterday at 21:30", or the date."""
    at = time.localtime(ended)
    today = time.localtime(now)
    clock = f"{at.tm_hour:02}:{at.tm_min:02}"
    days = (time.mktime((today.tm_year, today.tm_mon, today.tm_mday, 12, 0, 0, 0, 0, -1)) -
            time.mktime((at.tm_year, at.tm_mon, at.tm_mday, 12, 0, 0, 0, 0, -1))) / 86400
    if round(days) == 0:
        return f"today at {clock}"
    if round(days) == 1:
        return f"yesterday at {clock}"
    return f"on {_DAYS[at.tm_wday]} {at.tm_mday} {_MONTHS[at.tm_mon - 1]} {at.tm_year} at {clock}"


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
        matches = {f"match {entry.number}": past_match_line(entry, when_words(entry.ended)).rstrip(".")
                   for entry in answer.matches}
        paging = (*((EARLIER,) if answer.page < answer.pages else ()), *((NEWER,) if answer.page > 1 else ()))
        shown = LobbyList((*matches, *paging, BY_NUMBER, BACK_TO_LOBBY), matches, self._past_choose)
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

    def _past_choose(self, item: str) -> None:
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

    def _replay(self, match: PastMatch) -> None:
        """Until the replay screen is here: say so."""
        self.say("Replays come with the replay screen.")
