"""The keys of every moment: each a `Binding` of keys, the one sentence the spoken help says, and the method that
does it; and how keys are said ("comma", "Control X").

>>> key_words(("1", "2", "3", "4", "5", "6", "7", "8", "9", "0"))
'1 to 9 and 0'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from audiocrib.engine.text import printable

__all__ = ["BROWSER_HELP_KEY", "HELP_KEY", "Binding", "Mode", "does_nothing", "key_word", "key_words", "welcome"]

HELP_KEY = "tab"
"""The key every sentence names for help in a terminal: F1 is often the terminal's own (GNOME Terminal and MATE
Terminal open their help with it, and it never reaches the game), while every terminal and screen reader passes Tab,
and Tab types nothing into a line, so it is help in every moment, a line being typed included. F1 is help too."""
BROWSER_HELP_KEY = "f1"
"""The key the sentences name for help in a browser, where the page keeps F1 from the browser (on the game area,
its buttons and its text box) and Tab moves to the page's buttons."""


class Mode(StrEnum):
    """Which screen the player is on."""

    MAIN = "main menu"
    SETUP = "table setup"
    SETTINGS = "settings"
    GAME_MENU = "game menu"
    GAME = "game"
    PRACTICE = "practice menu"
    DRILL = "drill"
    SOUND_TEST = "sound test"
    TYPING = "typing"
    CONNECTING = "connecting"
    LOBBY = "lobby"
    CREATE = "new table"
    WAITING_ROOM = "waiting room"
    PEOPLE = "people menu"
    PAST_MATCHES = "past matches"
    REPLAY = "replay"


ONLINE_MENUS = (Mode.LOBBY, Mode.CREATE, Mode.WAITING_ROOM, Mode.PEOPLE)
"""The online screens that are menus."""


@dataclass(frozen=True, slots=True)
class Binding:
    """Keys, what they do in one sentence (the spoken help), and the `Session` method that does it."""

    keys: tuple[str, ...]
    description: str
    method: str


DIGITS = tuple("123456789")


_HISTORY = (
    Binding((",",), "An older message.", "_history_older"),
    Binding((".",), "A newer message.", "_history_newer"),
    Binding(("<",), "The oldest message.", "_history_oldest"),
    Binding((">",), "The newest message.", "_history_newest"),
    Binding(("r",), "Repeat the last message.", "_history_last"),
    Binding((HELP_KEY, "f1"), "Help for this moment.", "_help"),
    Binding(("?",), "Every key, one message each.", "_every_key"),
    Binding(("f2",), "Sounds on or off.", "_toggle_sounds"),
    Binding(("c-c",), "Quit at once.", "_quit_now"),
)


_MENU = (
    Binding(("up",), "The previous item.", "_menu_up"),
    Binding(("down",), "The next item.", "_menu_down"),
    Binding(("home",), "The first item.", "_menu_first"),
    Binding(("end",), "The last item.", "_menu_last"),
    Binding(("enter", "space"), "Choose the item, or change its setting.", "_menu_choose"),
)


_MENU_VALUES = (
    Binding(("right",), "Change the setting forward.", "_menu_forward"),
    Binding(("left",), "Change the setting back.", "_menu_back"),
)


_TABLE = (
    Binding(("c",), "The count: in the play the running count, in the show the hand being counted.", "_key_count"),
    Binding(("b",), "Who owns the crib.", "_key_crib"),
    Binding(("f",), "The starter card.", "_key_starter"),
    Binding(("v",), "The cards on the table in this series.", "_key_table"),
    Binding(("s",), "The scores, and what each side needs to win.", "_key_scores"),
    Binding(("t",), "Whose turn it is.", "_key_turn"),
    Binding(("h",), "Your hand.", "_key_hand"),
    Binding(("n",), "How many cards each player holds.", "_key_held"),
    Binding(("l",), "The last play explained.", "_key_last"),
    Binding(("m",), "Call muggins on a short count, before the next deal.", "_call_muggins"),
    Binding(("a",), "Advice: what the expert would lay away or play now, and why.", "_advice"),
    Binding(("left",), "The previous card in your hand.", "_card_left"),
    Binding(("right",), "The next card in your hand.", "_card_right"),
    Binding(("escape",), "The game menu: resume, settings, save and quit.", "_open_game_menu"),
)


_ONLINE = (
    Binding(("/",), "Chat: type a message to everyone at the table.", "_chat_open"),
    Binding(("w",), "Who is at the table, and who is connected.", "_who"),
    Binding(("x",), "Mute a player's chat for yourself, or moderate: choose the player from a list.",
            "_people_open"),
)
"""The keys of an online table (and its waiting room)."""


_WATCHER_WORDS = {
    "_key_hand": "Says that you are watching and hold no cards.",
    "_open_game_menu": "The game menu: resume, settings, stop watching.",
    "_chat_open": "Chat: type a message to the other watchers, and to the players too if the host lets it through.",
    "_who": "Who is at the table, and who is watching.",
}
"""What the help says of the table's keys for a watcher."""
_WATCHER_TABLE = tuple(Binding(b.keys, _WATCHER_WORDS.get(b.method, b.description), b.method) for b in _TABLE
                       if b.method not in ("_call_muggins", "_advice", "_card_left", "_card_right"))
"""The table's keys that do something for a watcher (the moves' keys are the watching moment's)."""
_WATCHER_ONLINE = tuple(Binding(b.keys, _WATCHER_WORDS.get(b.method, b.description), b.method) for b in _ONLINE)
"""The online table's keys, as a watcher has them."""


_TYPING = (
    Binding(("enter",), "Done: take what you typed.", "_typing_done"),
    Binding(("escape",), "Cancel and go back.", "_typing_cancel"),
    Binding(("backspace",), "Delete the character before the cursor.", "_typing_delete"),
    Binding(("up", "down"), "Read back everything you typed.", "_typing_read"),
    Binding(("left",), "Move back one character and say it.", "_typing_left"),
    Binding(("right",), "Say the next character and move past it.", "_typing_right"),
    Binding(("home",), "To the start of the line.", "_typing_home"),
    Binding(("end",), "To the end of the line.", "_typing_end"),
    Binding((HELP_KEY, "f1"), "Help for this moment.", "_help"),
    Binding(("c-c",), "Quit at once.", "_quit_now"),
)
"""The keys while a line is typed: every other key that types a character types it."""


_TYPING_WEB = (
    Binding(("enter",), "Send the line, as the Send button does.", "_typing_done"),
    Binding(("escape",), "Cancel and go back, as the Cancel button does.", "_typing_cancel"),
    Binding(("left", "right"), "Move through the line, as in any text box.", "page"),
    Binding(("home", "end"), "To the start or the end of the line.", "page"),
    Binding(("backspace",), "Delete the character before the cursor.", "page"),
    Binding(("tab",), "To the Send and Cancel buttons; Shift Tab comes back.", "page"),
    Binding(("f1",), "Help for this moment.", "_help"),
)
"""The keys of the browser page's text box, for the help of a browser's session: the box itself keeps every key
but Enter, Escape and F1 (its method "page": the page's, never the session's)."""


_CONNECTING = (Binding(("escape",), "Stop connecting, back to the main menu.", "_stop_connecting"),)


_REPLAY_QUESTIONS = ("c", "b", "f", "v", "s", "t", "h", "n", "l")
"""The table's question keys, which a replay answers for the moment it stands at."""


_PAST_MATCHES = (
    Binding(("up",), "The newer match.", "_past_newer"),
    Binding(("down",), "The older match.", "_past_older"),
    Binding(("home",), "The newest match.", "_past_newest"),
    Binding(("end",), "The oldest match.", "_past_oldest"),
    Binding(("enter", "space"), "Hear this match again.", "_past_choose"),
    Binding(("escape",), "Back to the main menu.", "_past_escape"),
)
"""The keys of the list of past matches on this computer."""


_REPLAY = (
    Binding(("right",), "The next event, told as you heard it.", "_replay_next"),
    Binding(("left",), "The event before, told again.", "_replay_previous"),
    Binding(("enter", "space"), "Tell on to the end of this deal, as the game told it.", "_replay_deal"),
    Binding(("down",), "The next deal, from its start.", "_replay_next_deal"),
    Binding(("up",), "This deal from its start; at its start, the deal before.", "_replay_previous_deal"),
    Binding(("home",), "The start of the match.", "_replay_first"),
    Binding(("end",), "The end of the match.", "_replay_last"),
    Binding(("a",), "All the hands of this deal: what each player held and laid away.", "_replay_hands"),
    *(Binding(b.keys, b.description, "_replay_question") for b in _TABLE if b.keys[0] in _REPLAY_QUESTIONS),
    Binding(("g",), "The coach goes over the match, one message at a time: period steps to the next.",
            "_replay_review"),
    Binding(("p",), "Write the match out as a text file to share, with every hand.", "_replay_transcript"),
    Binding(("escape",), "Stop hearing the match, back to where you chose it.", "_replay_escape"),
)
"""The keys while a past match is heard again."""


CREATE_ITEMS = ("people", "listed", "move_limit", "advice", "setup", "create")
"""The items of the menu that makes an online table."""
MOVE_LIMITS: tuple[int | None, ...] = (None, 30, 60, 120, 300)
"""The time limits for each move a new online table may have (None: none)."""


_MOMENT_KEYS: dict[str, tuple[Binding, ...]] = {
    "discard": (
        Binding(("space",), "Mark or unmark the card you are on, for the crib.", "_mark"),
        Binding(DIGITS, "Mark or unmark the card at that position.", "_mark_at"),
        Binding(("enter",), "Lay the marked cards away to the crib.", "_lay_away"),
    ),
    "play": (
        Binding(DIGITS, "Go to the card at that position.", "_select_at"),
        Binding(("enter",), "Play the card you are on.", "_play"),
        Binding(("space",), "Play the card you are on.", "_play"),
    ),
    "peg": (
        Binding((*DIGITS, "0"), "Type the points your card made.", "_type_digit"),
        Binding(("backspace",), "Delete the last digit typed.", "_delete_digit"),
        Binding(("enter",), "Claim the points you typed.", "_claim"),
    ),
    "count": (
        Binding((*DIGITS, "0"), "Type your count.", "_type_digit"),
        Binding(("backspace",), "Delete the last digit typed.", "_delete_digit"),
        Binding(("enter",), "Claim the count you typed.", "_claim"),
    ),
    "review": (
        Binding(("enter",), "Go on.", "_go_on"),
        Binding(("g",), "The coach goes over this deal: what your choices cost.", "_go_over"),
    ),
    "waiting": (Binding(("enter",), "Hurry the computer players.", "_hurry"),),
    "watching": (
        Binding(("enter", "space", "m", "a"), "Nothing: a watcher makes no moves.", "_watcher_move"),
        Binding((*DIGITS, "0"), "Nothing: a watcher holds no cards.", "_watcher_move"),
        Binding(("left", "right"), "Nothing: a watcher holds no cards.", "_watcher_move"),
    ),
    "over": (
        Binding(("enter",), "Back to the main menu.", "_to_main_menu"),
        Binding(("g",), "The coach goes over the match, one message at a time: period steps to the next.",
                "_go_over"),
    ),
}


_QUESTIONS = ("discard", "play", "count", "peg")
"""The game's moments that wait for the player's own answer."""


_MOVES = frozenset({"_lay_away", "_play", "_claim", "_go_on", "_to_main_menu", "drills.answer_count",
                    "drills.answer_discard", "drills.answer_play", "drills.next_drill"})
"""The keys that make a move or go on, in the game and the drills: guarded against being typed ahead of the
news."""


_KEY_WORDS = {
    ",": "comma", ".": "period", "<": "less than", ">": "greater than", "?": "question mark", "enter": "Enter",
    "space": "space", "escape": "Escape", "f1": "F1", "f2": "F2", "left": "left arrow", "right": "right arrow",
    "up": "up arrow", "down": "down arrow", "home": "Home", "end": "End", "backspace": "Backspace",
    "c-c": "Control C", "/": "slash", "tab": "Tab",
}


MAIN_ITEMS = ("new game", "table setup", "practice", "statistics", "settings", "keys", "play online", "quit")


GAME_MENU_ITEMS = ("resume", "settings", "save and quit", "abandon the game and quit")


ONLINE_GAME_MENU_ITEMS = ("resume", "settings", "leave the table for now")


_PREFIXES = {"c": "Control", "s": "Shift", "a": "Alt"}


_NAMED = {"pageup": "Page Up", "pagedown": "Page Down", "delete": "Delete", "insert": "Insert", "tab": "Tab",
          "c-i": "Tab", "s-tab": "Shift Tab", "c-@": "Control at", "c-m": "Enter", "backtab": "Shift Tab"}


def key_word(key: str) -> str:
    """A key as said: "comma", "F7", "Control X", "Shift left arrow", "Page Up"; "that" for one with no plain name.

    >>> [key_word(k) for k in (",", "f7", "c-x", "s-left", "pageup", "\u00e9", "q")]
    ['comma', 'F7', 'Control X', 'Shift left arrow', 'Page Up', 'that', 'q']
    """
    if key in _KEY_WORDS:
        return _KEY_WORDS[key]
    if key in _NAMED:
        return _NAMED[key]
    if len(key) == 1:
        return key if key.isascii() and printable(key) else "that"
    if len(key) in (2, 3) and key[0] == "f" and key[1:].isdigit():
        return key.upper()
    parts = key.split("-")
    if len(parts) > 1 and all(part in _PREFIXES for part in parts[:-1]):
        last = parts[-1]
        name = _KEY_WORDS.get(last) or _NAMED.get(last) or (last.upper() if len(last) == 1 else last)
        if name.isascii() and name.replace(" ", "").isalnum():
            return " ".join([*(_PREFIXES[part] for part in parts[:-1]), name])
    return "that"


def does_nothing(key: str, help_key: str = HELP_KEY) -> str:
    """The one sentence for a key that does nothing now (or the mouse, or pasted text), naming ``help_key``.

    >>> does_nothing("z")
    'The z key does nothing now. Press Tab for help.'
    >>> does_nothing("\u00e9", BROWSER_HELP_KEY)
    'That key does nothing now. Press F1 for help.'
    """
    help_word = key_word(help_key)
    if key == "mouse":
        return f"The mouse does nothing in audiocrib; the keys do everything. Press {help_word} for help."
    if key == "<bracketed-paste>":
        return f"Pasting does nothing here. Press {help_word} for help."
    word = key_word(key)
    return ("That key" if word == "that" else f"The {word} key") + f" does nothing now. Press {help_word} for help."


def welcome(help_key: str = HELP_KEY) -> str:
    """The game's first sentence, naming ``help_key``.

    >>> welcome()
    'Welcome to audiocrib. Press Tab for help at any time.'
    """
    return f"Welcome to audiocrib. Press {key_word(help_key)} for help at any time."


def key_words(keys: tuple[str, ...]) -> str:
    """Keys as said in the help: ``("1", ..., "9")`` is "1 to 9", ``("1", "2", "3")`` "1 to 3", ``("1", "2")``
    "1 or 2", ``(",",)`` "comma"."""
    if len(keys) > 2 and all(k.isdigit() for k in keys):
        return f"{keys[0]} to {keys[-1]}" if keys[-1] != "0" else f"{keys[0]} to {keys[-2]} and 0"
    return " or ".join(_KEY_WORDS.get(k, k) for k in keys)


_DRILL_WORDS = {"counting": "while you count", "discarding": "while you lay away",
                "playing": "while you choose a card to lay", "answered": "after an answer"}


_MOMENT_WORDS = {
    "discard": "lay away", "play": "play a card", "peg": "claim your points in the play",
    "count": "count your hand", "review": "go over a show",
    "waiting": "wait for the computer players", "over": "have finished a match", "watching": "watch a table",
}


def _number(n: int) -> str:
    from audiocrib.engine.numbers import number_words

    return number_words(n)


def _hold_only(cards: int) -> str:
    return f"You hold only {_number(cards)} card{'' if cards == 1 else 's'}."
