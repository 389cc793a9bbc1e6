"""A new table, by ear: the online lobby's "Create a table" screen (seats for people, listed in the lobby or not,
the time for each move, the coach's advice allowed or not, the table setup) and making the table as set up."""

from __future__ import annotations

from audiocrib.online import messages as m
from audiocrib.shell.core import SessionCore
from audiocrib.shell.keys import CREATE_ITEMS, MOVE_LIMITS, Mode

__all__ = ["NewTableScreens"]

_SETTINGS = ("people", "listed", "move_limit", "advice")
"""The items of the menu whose setting left and right arrow (and Enter) change."""


class NewTableScreens(SessionCore):
    """The new table's menu (`Mode.CREATE`), a part of the online screens (`audiocrib.shell.online`)."""

    online_advice: bool = False
    """Whether the new table allows the coach's advice (at a table of people; always, with one seat for a person)."""

    def _online_items(self) -> tuple[str, ...]:  # pragma: no cover - the online screens'
        raise NotImplementedError

    def _seated(self, answer: m.TableState | str) -> None:  # pragma: no cover - the online screens'
        raise NotImplementedError

    def _maybe_begin(self) -> None:  # pragma: no cover - the online screens'
        raise NotImplementedError

    def _back_to_main(self) -> None:  # pragma: no cover - the online screens'
        raise NotImplementedError

    def _create_item_text(self, item: str) -> str:
        rules = self.setup.rules()
        if item == "people":
            rest = "no computer players" if self.online_people >= rules.players else "the rest computer players"
            return f"Seats for people: {self.online_people} of {rules.players}, {rest}"
        if item == "listed":
            return "Listed in the lobby: " + ("yes" if self.online_listed else "no, joined by its code")
        if item == "move_limit":
            limit = self.online_limit
            return "Time for each move: " + ("no limit" if limit is None else f"{limit} seconds")
        if item == "advice":
            if self.online_people <= 1:
                return "Advice from the coach: allowed, as always with one person at the table"
            return "Advice from the coach: " + ("allowed" if self.online_advice else "not allowed")
        if item == "setup":
            return f"Table setup: {rules.describe()}"
        return "Create the table"

    def _online_change(self, direction: int) -> None:
        items = self._online_items()
        item = items[self.menu_index % len(items)]
        if self.mode is not Mode.CREATE or item not in _SETTINGS:
            self.say("This item has no setting to change; press Enter to choose it.")
            return
        players = self.setup.rules().players
        if item == "people":
            self.online_people = max(1, min(players, self.online_people + direction))
        elif item == "listed":
            self.online_listed = not self.online_listed
        elif item == "advice":
            if self.online_people <= 1:
                self.say("Advice is always allowed at a table of one person and computer players; with more seats"
                         " for people, the host chooses.")
                return
            self.online_advice = not self.online_advice
        else:
            at = MOVE_LIMITS.index(self.online_limit)
            self.online_limit = MOVE_LIMITS[max(0, min(len(MOVE_LIMITS) - 1, at + direction))]
        self.say(f"{self._create_item_text(item)}.")

    def _create_choose(self, item: str) -> None:
        client = self.client
        assert client is not None
        if item in _SETTINGS:
            self._online_change(1)
        elif item == "setup":
            self.return_mode = Mode.CREATE
            self._enter_menu(Mode.SETUP, "Table setup: ")
        else:
            self._create_table(start=False)

    def _start_new_table(self) -> None:
        """Start the game, the last item of a new table's setup: the table is made as set up and, with no seat
        waiting for another person, its game starts at once (else the host starts it from the waiting room)."""
        self.return_mode = Mode.MAIN
        self.mode, self.menu_index = Mode.CREATE, CREATE_ITEMS.index("create")
        if self.client is None:
            self._back_to_main()
            return
        self._create_table(start=True)

    def _create_table(self, start: bool) -> None:
        """Make the new table as set up and sit at it; with ``start``, start its game at once when every other
        seat is a computer player's."""
        client = self.client
        assert client is not None
        rules = self.setup.rules()
        levels = list(self.setup.levels)
        seats = tuple(m.PERSON if seat < self.online_people else levels[(seat - 1) % len(levels)]
                      for seat in range(rules.players))
        answer = client.create(rules, seats, self.online_listed, self.online_limit,
                               self.online_advice and self.online_people > 1)
        if start and not isinstance(answer, str) and self.online_people <= 1:
            refused = client.start_game()
            if refused is None:
                self.mode, self.menu_index = Mode.WAITING_ROOM, 0
                self._maybe_begin()  # the game begins once its view has come (here, or from the tick)
                return
            self.say(refused)
        self._seated(answer)
