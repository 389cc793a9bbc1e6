"""What is on a session's screen, for the page to show: the mode, a title, the menu, the hand, the status lines
(the scores, whose turn as t says it, whose crib, the starter, and the cards on the table or the hand counted) and
the line being typed. Every string is the shell's own (its menu items as it says them, the one-key answers).

>>> from audiocrib.shell.announcer import Announcer
>>> from audiocrib.speech import RecordingSpeaker
>>> import io
>>> session = Session(Announcer(RecordingSpeaker(), io.StringIO()), seed=5)
>>> session.start()
>>> shown = describe(session)
>>> shown["title"], shown["menu"]["items"][:1], shown["menu"]["current"], shown["typing"]
('Main menu', ['New game'], 0, None)
>>> shown["menu"]["change"], shown["enter"]  # no settings to change here, and no move to make
(None, None)
>>> session.press("enter")
>>> shown = describe(session)
>>> [card["short"] for card in shown["hand"]]
['2C', '5S', '9C', '9H', 'QH', 'KS']
>>> shown["enter"]  # what a button for Enter says (and does) for a player without a keyboard
'Lay the marked cards away to the crib.'
>>> shown["advice"]  # and a button for the coach's advice (the a key), while a decision waits
'Advice: what the expert would lay away or play now, and why.'
"""

from __future__ import annotations

from typing import Any

from audiocrib.engine.cards import Card
from audiocrib.engine.phase import Phase
from audiocrib.engine.views import PlayerView
from audiocrib.online.sayings import who_is_here
from audiocrib.shell.keys import Mode
from audiocrib.shell.session import Session
from audiocrib.telling import answers

__all__ = ["MENU_MODES", "ScreenMemo", "describe"]

MENU_MODES = frozenset({Mode.MAIN, Mode.SETUP, Mode.SETTINGS, Mode.GAME_MENU, Mode.PRACTICE, Mode.SOUND_TEST,
                        Mode.LOBBY, Mode.CREATE, Mode.WAITING_ROOM, Mode.PEOPLE})
"""The screens that are a menu of items."""
_AT_TABLE = frozenset({Mode.GAME, Mode.GAME_MENU})
_DECISIONS = frozenset({"discard", "play"})
"""The moments the coach advises on: the lay-away and a card to lay."""


class ScreenMemo:
    """What `describe` read from one view, kept while the session's view stays the same object: a session's screen
    is described after every key, but its view changes only with the server's news."""

    def __init__(self) -> None:
        self.view: PlayerView | None = None
        self.cards: tuple[tuple[Card, str, str, bool], ...] = ()
        """The hand: each card, its name, its notation, and whether it may be played now."""
        self.enter: tuple[PlayerView | None, str, str | None] = (None, "", None)
        """What Enter does: the view and the moment it was worked out for, and its words."""
        self.status: tuple[str, ...] = ()
        """The status lines that come from the view alone: the scores, whose crib, the starter, then the table or
        the count."""

    def read(self, view: PlayerView, cards: list[Card]) -> None:
        """Work out what ``view`` shows (``cards`` being the hand in the order its positions count)."""
        self.view = None  # until all is read: a view that cannot be read now is read again next time
        self.cards = tuple((card, card.name, str(card), card in view.playable) for card in cards)
        status = [answers.scores(view), answers.crib_owner(view), answers.starter(view)]
        if view.phase in (Phase.PLAY, Phase.PEG_CLAIM):
            status.append(answers.table(view))
        elif view.phase is not Phase.DISCARD:
            status.append(answers.count(view))  # the hand being counted, or the last one shown
        self.status = tuple(status)
        self.view = view


def describe(session: Session, memo: ScreenMemo | None = None) -> dict[str, Any]:
    """The "screen" message for ``session`` as it is now (with ``memo``, what was read from its view before is
    not read again)."""
    mode = session.mode
    typing = None
    title = mode.value[0].upper() + mode.value[1:]
    if mode is Mode.TYPING:
        typing = {"prompt": session.line.purpose, "secret": session.line.secret, "limit": session.line.limit,
                  "text": "" if session.line.secret else session.line.text}  # a password is never sent back
        title = session.line.purpose
    menu = None
    if mode in MENU_MODES:
        items = session._items()
        if items:
            menu = {"items": [session._item_text(item) for item in items],
                    "current": session.menu_index % len(items), "change": _change_words(session)}
    hand: list[dict[str, Any]] = []
    status: list[str] = []
    at_table = mode in _AT_TABLE or (mode is Mode.TYPING and session.line_from in _AT_TABLE)
    if at_table and session.table is not None:
        try:
            hand, status = _table(session, memo if memo is not None else ScreenMemo())
        except Exception:  # a table between two states has no reading for a moment; the next screen will
            hand, status = [], []
    elif mode is Mode.WAITING_ROOM and session.client is not None and session.client.state is not None:
        status = [who_is_here(session.client.state)]  # who has sat down, and the code to give the others
    return {"type": "screen", "mode": session.moment, "title": title, "menu": menu, "hand": hand,
            "status": status, "enter": _enter_words(session, memo), "advice": _advice_words(session), "typing": typing}


def _change_words(session: Session) -> list[str] | None:
    """What left and right arrow do in this menu (change the current item's setting back and forward), or None
    where they do not change settings."""
    words = {key: b.description for b in session.bindings() for key in b.keys if key in ("left", "right")}
    return [words["left"], words["right"]] if len(words) == 2 else None


def _enter_words(session: Session, memo: ScreenMemo | None = None) -> str | None:
    """What Enter does now at the table (lay away, play, go on, back to the lobby), in the help's words; None
    where Enter makes no move of the player's (away from the table, or while others are to move). With ``memo``,
    worked out once a view and moment (the keys of a moment change with the cards held, which come with views)."""
    moment = session.moment
    if session.mode is not Mode.GAME or moment in ("waiting", "watching"):
        return None
    view = session.view() if memo is not None and session.table is not None else None
    if memo is not None and view is not None and memo.enter[0] is view and memo.enter[1] == moment:
        return memo.enter[2]
    enter = next((b for b in session._own_keys() if "enter" in b.keys), None)
    words = session._as_here((enter,))[0].description if enter is not None else None
    if memo is not None and view is not None:
        memo.enter = (view, moment, words)
    return words


def _advice_words(session: Session) -> str | None:
    """What the a key does, in the help's words, for a button that presses it: only at the table while the player
    lays away or lays a card, and the table allows the coach's advice (None otherwise)."""
    table = session.table
    if session.mode is not Mode.GAME or session.moment not in _DECISIONS or table is None:
        return None
    if not table.advice_allowed():
        return None
    return next((b.description for b in session.bindings() if b.method == "_advice"), None)


def _table(session: Session, memo: ScreenMemo) -> tuple[list[dict[str, Any]], list[str]]:
    view = session.view()
    if view is not memo.view:
        memo.read(view, session._hand())
    moment = session.moment
    hand = []
    cards = memo.cards
    for index, (card, label, short, playable) in enumerate(cards):
        entry: dict[str, Any] = {"label": label, "short": short, "marked": card in session.marked}
        if moment == "play":
            entry["playable"] = playable
        if moment in ("discard", "play"):
            entry["current"] = index == session.cursor % len(cards)  # the card you are on (space, Enter)
        hand.append(entry)
    crib, starter_line, *rest = memo.status[1:]
    return hand, [memo.status[0], session.turn_text(), crib, starter_line, *rest]
