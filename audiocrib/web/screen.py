"""What is on a session's screen, for the page to show: the mode, a title, the menu, the hand, the status lines
(the scores, whose turn, whose crib, the starter, and the cards on the table or the hand counted) and the line
being typed. Every string is the shell's own (its menu items as it says them, the one-key answers).

>>> from audiocrib.shell.announcer import Announcer
>>> from audiocrib.speech import RecordingSpeaker
>>> import io
>>> session = Session(Announcer(RecordingSpeaker(), io.StringIO()), seed=5)
>>> session.start()
>>> shown = describe(session)
>>> shown["title"], shown["menu"]["items"][:1], shown["menu"]["current"], shown["typing"]
('Main menu', ['New game'], 0, None)
>>> session.press("enter")
>>> [card["short"] for card in describe(session)["hand"]]
['2C', '5S', '9C', '9H', 'QH', 'KS']
"""

from __future__ import annotations

from typing import Any

from audiocrib.engine.phase import Phase
from audiocrib.shell.keys import Mode
from audiocrib.shell.session import Session
from audiocrib.telling import answers

__all__ = ["MENU_MODES", "describe"]

MENU_MODES = frozenset({Mode.MAIN, Mode.SETUP, Mode.SETTINGS, Mode.GAME_MENU, Mode.PRACTICE, Mode.SOUND_TEST,
                        Mode.LOBBY, Mode.CREATE, Mode.WAITING_ROOM})
"""The screens that are a menu of items."""
_AT_TABLE = frozenset({Mode.GAME, Mode.GAME_MENU})


def describe(session: Session) -> dict[str, Any]:
    """The "screen" message for ``session`` as it is now."""
    mode = session.mode
    typing = None
    title = mode.value[0].upper() + mode.value[1:]
    if mode is Mode.TYPING:
        typing = {"prompt": session.line.purpose, "secret": session.line.secret, "limit": session.line.limit}
        title = session.line.purpose
    menu = None
    if mode in MENU_MODES:
        items = session._items()
        if items:
            menu = {"items": [session._item_text(item) for item in items],
                    "current": session.menu_index % len(items)}
    hand: list[dict[str, Any]] = []
    status: list[str] = []
    at_table = mode in _AT_TABLE or (mode is Mode.TYPING and session.line_from in _AT_TABLE)
    if at_table and session.table is not None:
        try:
            hand, status = _table(session)
        except Exception:  # a table between two states has no reading for a moment; the next screen will
            hand, status = [], []
    return {"type": "screen", "mode": session.moment, "title": title, "menu": menu, "hand": hand,
            "status": status, "typing": typing}


def _table(session: Session) -> tuple[list[dict[str, Any]], list[str]]:
    view = session.view()
    moment = session.moment
    hand = []
    for card in session._hand():
        entry: dict[str, Any] = {"label": card.name, "short": str(card), "marked": card in session.marked}
        if moment == "play":
            entry["playable"] = card in view.playable
        hand.append(entry)
    status = [answers.scores(view), answers.turn(view), answers.crib_owner(view), answers.starter(view)]
    if view.phase in (Phase.PLAY, Phase.PEG_CLAIM):
        status.append(answers.table(view))
    elif view.phase is not Phase.DISCARD:
        status.append(answers.count(view))  # the hand being counted, or the last one shown
    return hand, status
