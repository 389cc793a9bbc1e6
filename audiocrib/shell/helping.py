"""Help: Tab (or F1) for what to do now and this moment's keys, and question mark for every key, one message each, with
the words for where the keys lead at an online table."""

from __future__ import annotations

from audiocrib.shell.core import SessionCore
from audiocrib.shell.drills import DRILL_KEYS
from audiocrib.shell.keys import (
    _DRILL_WORDS,
    _HISTORY,
    _MENU,
    _MENU_VALUES,
    _MOMENT_KEYS,
    _MOMENT_WORDS,
    _ONLINE,
    _TABLE,
    _TYPING,
    _TYPING_WEB,
    _WATCHER_ONLINE,
    _WATCHER_TABLE,
    _WATCHER_WORDS,
    HELP_KEY,
    Binding,
    Mode,
    _number,
    key_words,
)

_ONLINE_WORDS = {"_open_game_menu": "The game menu: resume, settings, leave the table for now.",
                 "_to_main_menu": "Back to the lobby.",
                 "_key_turn": "Whose turn it is, and at a table with a time limit for each move the time left for it."}
"""What the help says of the keys that lead somewhere else, or say more, at an online table."""


class Helping(SessionCore):
    """The help keys' answers."""

    def _as_here(self, bindings: tuple[Binding, ...]) -> tuple[Binding, ...]:
        """``bindings`` with the words for where they lead at an online table: its game menu has no saving, a match
        over goes back to the lobby, and t says the time left for a move; in a browser, the help key is F1 alone."""
        if self.help_key != HELP_KEY:  # a browser: the help key is named as the page passes it (Tab moves there)
            bindings = tuple(Binding((self.help_key,), b.description, b.method) if b.method == "_help" else b
                             for b in bindings)
        if self.client is None:
            return bindings
        words = _ONLINE_WORDS | (_WATCHER_WORDS if self.client.watching else {})
        return tuple(Binding(b.keys, words[b.method], b.method) if b.method in words else b for b in bindings)

    def _help(self, key: str) -> None:
        """Tab or F1: what to do now and the keys for this moment."""
        own = self._as_here(self._own_keys())
        if self.mode is Mode.DRILL:
            lines = [f"{key_words(b.keys)}: {b.description}" for b in own]
        elif self.mode is Mode.TYPING and self.online_only:  # the browser page's text box has its own keys
            lines = [f"You are typing: {self.line.purpose}. Type it in the text box; Enter sends it, Escape goes "
                     "back.", *(f"{key_words(b.keys)}: {b.description}" for b in _TYPING_WEB[2:6])]
        elif self.mode is Mode.TYPING:
            lines = [f"You are typing: {self.line.purpose}. Type it, Enter takes it, Escape goes back.",
                     *(f"{key_words(b.keys)}: {b.description}" for b in _TYPING[2:8])]
        elif self.mode is Mode.PAST_MATCHES:
            lines = ["You are in the list of past matches, newest first; Enter hears the one you are on again.",
                     *(f"{key_words(b.keys)}: {b.description}" for b in own)]
        elif self.mode is Mode.REPLAY:
            lines = [self._replay_where(), *(f"{key_words(b.keys)}: {b.description}" for b in own),
                     "Comma and period step through messages. Question mark lists every key."]
        elif self.mode is Mode.CONNECTING:
            lines = ["Connecting to the server; you hear when it answers. Escape stops."]
        elif self.mode is Mode.GAME and self.client is not None and self.client.watching:
            lines = [f"You are watching. {self._prompt_text()}",
                     *(f"{key_words(b.keys)}: {b.description}" for b in (*_WATCHER_ONLINE[:2], _WATCHER_TABLE[-1])),
                     "c b f v s t n l answer questions, comma and period step through messages; the keys that make"
                     " moves do nothing. Question mark lists every key."]
        elif self.mode is Mode.GAME:
            lines = [self._prompt_text()]
            if self.moment == "count" and self.count_clock.running:
                lines[0] += f" {_number(self.count_clock.left()).capitalize()} seconds left to count."
            lines += [f"{key_words(b.keys)}: {b.description}" for b in own]
            if self.table is not None and self.rules.muggins and self.moment in ("review", "discard"):
                lines += [f"{key_words(b.keys)}: {b.description}" for b in _TABLE if b.method == "_call_muggins"]
            if self.moment in ("discard", "play"):
                lines += [f"{key_words(b.keys)}: {b.description}" for b in _TABLE if b.method == "_advice"]
            lines.append("c b f v s t h n l answer questions, comma and period step through messages. "
                         "Question mark lists every key.")
        else:
            lines = [f"You are in the {self.mode.value}. Up and down arrows move, Enter chooses"
                     + (", left and right change a setting"
                        if self.mode in (Mode.SETUP, Mode.SETTINGS, Mode.PRACTICE, Mode.CREATE) else "")
                     + ("; slash chats, w says who is here, x mutes or moderates a player"
                        if self.mode is Mode.WAITING_ROOM else "")
                     + f"; Escape: {self._escape_text().lower()} Question mark lists every key."]
        for line in lines:
            self.say(line)

    def _every_key(self, key: str) -> None:
        """?: every key, one message each: the keys of this moment are said, and period steps through the rest.
        Only the keys that do something at this table (the game's, or with none the table set up) are listed: no
        m without muggins, no keys of a moment it never comes to; in the list of past matches and the replay, their
        own keys and the history's alone."""
        if self.mode in (Mode.PAST_MATCHES, Mode.REPLAY):  # only their own keys and the history's work there
            title = "In the list of past matches" if self.mode is Mode.PAST_MATCHES else "Hearing a match again"
            pages = [f"{name}: " + " ".join(f"{key_words(b.keys)}: {b.description}" for b in self._as_here(keys))
                     for name, keys in ((title, self._own_keys()), ("Everywhere", _HISTORY))]
            self._say_pages(f"Every key, {_number(len(pages))} messages; period steps to the next, comma back.", pages)
            return
        rules = self.rules if self.table is not None else self.setup.rules()
        never = {"count": not rules.manual_counting, "peg": not rules.manual_pegging}
        watcher = self.client is not None and self.client.watching  # a watcher's moments are the watcher's alone
        never = {moment: watcher for moment in ("discard", "play", "count", "peg")} | \
            {m: n or watcher for m, n in never.items()} | {"watching": not watcher}
        table = _WATCHER_TABLE if watcher else tuple(b for b in _TABLE if rules.muggins or b.method != "_call_muggins")
        groups: list[tuple[str, tuple[Binding, ...]]] = [
            ("In the menus", (*_MENU_VALUES, *_MENU)),
            *((f"When you {_MOMENT_WORDS[m]}", b) for m, b in _MOMENT_KEYS.items() if not never.get(m, False)),
            ("At the table, always", table),
            *((("At an online table", _WATCHER_ONLINE if watcher else _ONLINE),
               ("Typing a line", _TYPING_WEB if self.online_only else _TYPING))
              if self.client is not None or self.mode is Mode.TYPING else ()),
            *((f"In practice, {_DRILL_WORDS[m]}", tuple(Binding(d.keys, d.description, d.method) for d in b))
              for m, b in DRILL_KEYS.items()),
            ("Everywhere", _HISTORY),
        ]
        now = {Mode.GAME: f"When you {_MOMENT_WORDS.get(self.moment, '')}",
               Mode.DRILL: f"In practice, {_DRILL_WORDS.get(self.moment, '')}"}.get(self.mode, "In the menus")
        groups = [(title, self._own_keys() if title == now and title != "In the menus" else bindings)
                  for title, bindings in groups]
        groups.sort(key=lambda group: (group[0] != now, group[1] is not table))  # this moment's, the table's
        pages = [f"{title}: " + " ".join(f"{key_words(b.keys)}: {b.description}" for b in self._as_here(bindings))
                 for title, bindings in groups]
        self._say_pages(f"Every key, {_number(len(pages))} messages; period steps to the next, comma back.", pages)
