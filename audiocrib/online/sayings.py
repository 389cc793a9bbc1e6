"""The words of online play, for whatever client speaks them: a table as the lobby lists it, who is at a table or
in the lobby, and a line of chat.

>>> from audiocrib.engine.rules import Rules
>>> from audiocrib.online.messages import Seat, TableState, TableSummary
>>> table_line(TableSummary(4, "Ann", Rules(players=4, team_size=2), 2, 1, False))
"Table 4, Ann's: six-card cribbage, four players in two teams of two, to 121; two seats open, one computer player."
>>> table_line(TableSummary(5, "Bob", Rules(), 1, 0, False, advice=True))
"Table 5, Bob's: six-card cribbage, two players, to 121; one seat open; the coach's advice allowed."
>>> table_line(TableSummary(6, "Cy", Rules(), 0, 1, True, watch=False))
"Table 6, Cy's: six-card cribbage, two players, to 121; under way, one computer player; no watchers."
>>> state = TableState(4, "K7D3M9", 0, 1, Rules(players=3), (Seat("Ann", None, True), Seat("Bob", None, True),
...                    Seat(None, "easy", True, person=False)), True, None)
>>> who_is_here(state)
'At table 4: Ann, the host; you, Bob; and Easy, a computer player. The code is K 7 D 3 M 9.'
>>> import dataclasses
>>> who_is_here(dataclasses.replace(state, code=None, advice=True))
"At table 4: Ann, the host; you, Bob; and Easy, a computer player. The coach's advice is allowed."

On a server that rates its players, each person's rating is beside their name:

>>> rated = (Seat("Ann", None, True, rating=1069), Seat("Bob", None, True, rating=1000), state.seats[2])
>>> who_is_here(dataclasses.replace(state, seats=rated, code=None))
'At table 4: Ann, rated 1,069, the host; you, Bob; and Easy, a computer player.'
>>> table_line(TableSummary(5, "Bob", Rules(), 1, 0, False, host_rating=1032))
"Table 5, Bob's, rated 1,032: six-card cribbage, two players, to 121; one seat open."
>>> chat_line("Ann", "<b>gg</b>")
'Ann says: <b>gg</b>'
"""

from __future__ import annotations

from audiocrib.engine.numbers import number_words
from audiocrib.engine.rules import Rules
from audiocrib.online.messages import LOBBY_PAGE, Lobby, TableState, TableSummary
from audiocrib.online.ratings import rating_words
from audiocrib.online.watching import watch_settings_line, watching_line

__all__ = ["back_line", "chat_line", "code_words", "gone_line", "left_for_now_line", "lobby_count", "lobby_people",
           "rules_words", "table_line", "who_is_here"]


def rules_words(rules: Rules) -> str:
    """The table's game, said: "six-card cribbage, four players in two teams of two, to 121"."""
    teams = ""
    if rules.team_size > 1:
        teams = f" in {number_words(rules.sides)} teams of {number_words(rules.team_size)}"
    match = f", match to {number_words(rules.match_games)} game points" if rules.match_games > 1 else ""
    counting = ", counting by hand" if rules.manual_counting else ""
    return (f"{rules.variant.value} cribbage, {number_words(rules.players)} players{teams}, to {rules.target}"
            f"{match}{counting}")


def _several(count: int, thing: str) -> str:
    return f"{number_words(count)} {thing}{'' if count == 1 else 's'}"


def table_line(table: TableSummary) -> str:
    """One table of the lobby in one sentence."""
    seats = "under way" if table.started else (
        _several(table.open_seats, "seat") + " open" if table.open_seats else "full")
    computers = f", {_several(table.computers, 'computer player')}" if table.computers else ""
    advice = "; the coach's advice allowed" if table.advice else ""
    watch = "" if table.watch else "; no watchers"
    rated = "" if table.host_rating is None else f", rated {rating_words(table.host_rating)}"
    return (f"Table {table.number}, {table.host}'s{rated}: {rules_words(table.rules)}; {seats}{computers}{advice}"
            f"{watch}.")


def code_words(code: str) -> str:
    """A table's code said letter by letter, so a screen reader does not read it as a word: "K 7 D 3 M 9"."""
    return ", ".join(" ".join(part) for part in code.split("-"))


def who_is_here(state: TableState) -> str:
    """Who sits at the table: each seat's holder, the host, who is away, the computer players; that the coach's
    advice is allowed, if it is (it is not, unless the host allowed it or the table has one seat for a person); and
    the code."""
    people = []
    for number, seat in enumerate(state.seats):
        if not seat.person:
            people.append(f"{seat.name or (seat.computer or '').capitalize()}, a computer player")
            continue
        if seat.name is None:
            people.append("an open seat")
            continue
        words = "you" if number == state.you else seat.name
        if number == state.you and number != state.host:
            words = f"you, {seat.name}"
        notes = [] if seat.rating is None or number == state.you else [f"rated {rating_words(seat.rating)}"]
        if number == state.host:
            notes.append("the host")
        if seat.computer is not None:
            notes.append("played by a computer player while away")
        elif not seat.connected:
            notes.append("not connected")
        people.append(", ".join([words, *notes]))
    listed = people[0] if len(people) == 1 else "; ".join(people[:-1]) + f"; and {people[-1]}"
    code = f" The code is {code_words(state.code)}." if state.code else ""
    waiting = "" if state.started else " The game has not begun."
    advice = " The coach's advice is allowed." if state.advice else ""
    watch = "" if state.watch is None else " ".join(("", *filter(None, (
        watching_line(state.watch.names, state.you == len(state.seats)), watch_settings_line(state.watch)))))
    return f"At table {state.number}: {listed}.{waiting}{advice}{watch}{code}"


def lobby_count(lobby: Lobby) -> str:
    """How many tables the lobby lists, and which of them this page holds when there is more than one page:
    "no tables open", "three tables open", "tables 21 to 40 of 55".

    >>> from audiocrib.online.messages import Lobby
    >>> lobby_count(Lobby((), 0, ()))
    'no tables open'
    >>> from audiocrib.online.messages import TableSummary
    >>> one = TableSummary(7, "Ann", Rules(players=2), 1, 0, False)
    >>> lobby_count(Lobby((one,) * 20, 15, (), page=2, pages=3))
    'tables 21 to 40 of 55'
    """
    first = (lobby.page - 1) * LOBBY_PAGE + 1
    total = first - 1 + len(lobby.tables) + lobby.more
    if lobby.page == 1 and not lobby.more:
        return "no tables open" if not lobby.tables else (
            "one table open" if len(lobby.tables) == 1 else f"{len(lobby.tables)} tables open")
    return f"tables {first} to {first - 1 + len(lobby.tables)} of {total}"


def lobby_people(lobby: Lobby) -> str:
    """Who is in the lobby (connected to the server)."""
    if not lobby.people:
        return "Nobody else is connected."
    count = _several(len(lobby.people), "person")
    count = count.replace("persons", "people")
    return f"Connected, {count}: " + ", ".join(lobby.people) + "."


def gone_line(name: str, playing: bool) -> str:
    """What the others at the table hear when ``name``'s connection is lost (during the game, or before it)."""
    return f"{name} has lost the connection; the table waits." if playing else f"{name} is away."


def left_for_now_line(name: str) -> str:
    """What the others hear when ``name`` chooses Leave the table for now while the game is on."""
    return f"{name} has left the table for now; the table waits."


def back_line(name: str) -> str:
    """What those who heard ``name`` was gone (`gone_line`, `left_for_now_line`) hear when they are back."""
    return f"{name} is back."


def chat_line(sender: str, text: str) -> str:
    """A line of chat as it is said and kept: the sender's name, then the text exactly as typed."""
    return f"{sender} says: {text}"
