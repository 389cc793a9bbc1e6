"""One browser tab's game: a real shell `Session`, run as a task on the event loop of the process that serves the
page (the server's own, or a gateway's: `audiocrib.web.standalone`).

The session plays online as a terminal does (the shell's `OnlineClient` and `RemoteTable`), through a `LoopLink`:
a task of the same loop, connected to the tables inside the server's process (`audiocrib.web.local`) or to a server
elsewhere. The shell's code is plain calls that wait for the server's answers, so each turn of it (a message from
the page, or news) runs under `run_shell`, which lets the loop serve everyone else while it waits. Nothing polls:
the session sleeps until the page sends something or the server's news wakes it (its link calls ``woken``), and ticks
only while a clock of its own runs (the counting timer). What it says, its cues, its screen and what the browser
should keep go to ``send``. It keeps no file: the browser keeps the token, the name and the settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
import ssl
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from audiocrib.client.address import read_address
from audiocrib.client.awaiting import run_shell
from audiocrib.client.link import Link, LinkMaker, Opener
from audiocrib.client.looplink import LoopLink
from audiocrib.online.fields import NAME, TOKEN, ProtocolError
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.keys import BROWSER_HELP_KEY, Mode
from audiocrib.shell.lineedit import too_long
from audiocrib.shell.printing import LinePrinter
from audiocrib.shell.session import Session
from audiocrib.shell.settings import Settings
from audiocrib.sound.player import cue_file
from audiocrib.web.offloop import BrowserSession
from audiocrib.web.screen import MENU_MODES, ScreenMemo, describe

__all__ = ["BYE", "NO_LINE", "WebSession", "keep_settings", "read_settings"]

Send = Callable[[dict[str, Any]], None]
BYE = "Play again"
"""The "bye" message's words: the label of the page's button to start again (the session has said its goodbye)."""
NO_LINE = "Nothing is being typed now, so that line went nowhere."
NO_MENU = "There is no menu on the screen now."
NO_ITEM = "That menu has no such item."
NO_CARD = "You hold no card there."
NOT_NOW = "Cards are picked by number only while you lay away or play."
FAULT = "The game stopped because of a fault in audiocrib; the host can find it in the server's log."
_log = logging.getLogger(__name__)
_TICK = 0.05
"""Seconds between the session's ticks while a clock of its own runs (the counting timer, a timed drill)."""
_LOOK = 1.0
"""Seconds between looks at the screen while a move time limit runs."""


class WebSpeaker:
    """The session's speech: each announcement a "say" message, a silence a "silence" message."""

    name = "the browser"

    def __init__(self, send: Send) -> None:
        self._send = send

    def speak(self, text: str, interrupt: bool = False) -> None:
        self._send({"type": "say", "text": text, "interrupt": interrupt})

    def silence(self) -> None:
        self._send({"type": "silence"})

    def close(self) -> None:
        """Nothing to let go of."""


class WebCues:
    """The session's sound player: each cue a "cue" message naming its file in ``/sounds/``."""

    muted = False

    def __init__(self, send: Send) -> None:
        self._send = send

    def play(self, names: Iterable[str]) -> None:
        for name in names:
            self._send({"type": "cue", "name": cue_file(name).removesuffix(".wav")})

    def set_volume(self, volume: float) -> None:
        """The page plays at the volume "keep" gives it."""

    def close(self) -> None:
        """Nothing to let go of."""


class _Unprinted(LinePrinter):
    """The announcer's printer: the page shows the lines, from the "say" messages, so none is held or written
    (holding them would schedule a write on the loop for every announcement)."""

    def __init__(self) -> None:
        super().__init__(io.StringIO())

    def print(self, text: str) -> None:
        """Nothing: the "say" message carries the line."""


def keep_settings(settings: Settings) -> dict[str, Any]:
    """What the browser keeps of the settings: the page's voice on or off (the speech choice "the built-in
    voice"), its rate (1.0 is 200 words a minute) and volume, the cues' volume (0 with sounds off), and every
    setting for the next hello."""
    return {"voice": settings.speech == "tts", "rate": settings.rate / 200, "voice_volume": settings.volume / 100,
            "volume": settings.sound_volume / 100 if settings.sounds else 0.0, "session": settings.to_json()}


_KEPT = frozenset({"voice", "rate", "voice_volume", "volume", "session"})
BROWSER_REVIEW = "off"
"""The coach's review of each deal in a browser until the player turns it on: its coach works on the server."""
_SETTINGS = frozenset(Settings().to_json())


def read_settings(kept: object) -> Settings | None:
    """The settings a hello brings back (what `keep_settings` gave), checked as hostile: only known keys, each
    setting of its kind and among the menu's choices; None if anything is not (the defaults are used).

    >>> read_settings(keep_settings(Settings(pace=0.0))).pace
    0.0
    >>> [read_settings(kept) for kept in ({"session": {"pace": 1e9}}, {"session": {"pace": 1.0, "evil": 1}},
    ...                                   {"session": {}, "script": "x"}, {"session": "pace"}, [1])]
    [None, None, None, None, None]
    """
    if not isinstance(kept, dict) or not isinstance(kept.get("session"), dict) or not set(kept) <= _KEPT:
        return None
    values = kept["session"]
    if not set(values) <= _SETTINGS:
        return None
    try:
        return Settings.from_json({"review": BROWSER_REVIEW, **values})
    except (ValueError, TypeError, KeyError):
        return None


def _checked(kind: Any, value: str) -> str:
    try:
        return str(kind.read(value, "the value"))
    except (ProtocolError, TypeError, ValueError):
        return ""


class WebSession:
    """One tab's session: run by `run` (a task of the loop), fed with `give`, ended with `stop`.

    ``address`` is the server's address as the session names it, ``opener`` opens its connection to the server,
    ``ssl_context`` is what that connection trusts; ``token``, ``name`` and ``settings`` come from the page's hello
    (checked here).
    """

    def __init__(self, send: Send, address: str, opener: Opener, ssl_context: ssl.SSLContext | None, token: str,
                 name: str, settings: object) -> None:
        self._send = send
        self.address = address
        self._url = read_address(address).url
        self._opener = opener
        self._ssl = ssl_context
        self._name = _checked(NAME, name)
        self._token = _checked(TOKEN, token) if self._name else ""
        self._settings = read_settings(settings)
        self._inbox: deque[dict[str, Any]] = deque()
        self._wake = asyncio.Event()
        self._stopping = False
        self.session: Session | None = None
        self._kept: dict[str, Any] = {}
        """What the browser was last sent to keep."""
        self._kept_who: tuple[str, str] | None = None
        self._kept_settings: Settings | None = None
        self._shown: dict[str, Any] = {}
        """The screen the browser was last sent."""
        self._memo = ScreenMemo()
        self.ended = asyncio.Event()
        """Set once the session has ended and let go of its connection."""

    def give(self, message: dict[str, Any]) -> None:
        """Hand the session one checked message from the page (a key, a line or a choice)."""
        self._inbox.append(message)
        self._wake.set()

    def stop(self) -> None:
        """End the session (the tab went away): its connection to the server closes, as a terminal's would."""
        self._stopping = True
        self._wake.set()

    # ----------------------------------------------------------------- the session's task
    async def run(self) -> None:
        """Play the session until the player quits or the tab goes; a fault is told to the tab and logged."""
        try:
            await self._main()
        except Exception:  # a fault of this session's: its tab is told, the server and the other tabs go on
            _log.exception("A browser's session failed.")
            self._send({"type": "say", "text": FAULT, "interrupt": False})
            self._send({"type": "bye", "text": BYE})
        finally:
            self.ended.set()

    def _make(self) -> Session:
        def speech(mode: str) -> WebSpeaker:
            return WebSpeaker(self._told)

        def link(url: str, *parts: Any) -> Link:
            hello, deliver, changed, ssl_context = parts
            return LoopLink(url, hello, deliver, changed, self._opener, self._wake.set, ssl_context)

        announcer = Announcer(WebSpeaker(self._told))
        announcer.printer = _Unprinted()
        session = BrowserSession(announcer,
                                 settings=self._settings or Settings(review=BROWSER_REVIEW),
                                 player=WebCues(self._told),
                                 open_speech=speech, online_address=self.address)
        session.online_only = True
        session.help_key = BROWSER_HELP_KEY  # the page passes F1 everywhere; Tab moves to its buttons
        session.online_ssl = self._ssl
        maker: LinkMaker = link
        session.online_link = maker
        session.book.address = self.address
        if self._name:
            session.book.name = self._name
            if self._token:
                session.book.remember(self._url, self.address, self._name, self._token)
        return session

    def _told(self, message: dict[str, Any]) -> None:
        """Send what the session says or plays."""
        if message["type"] == "say" and self.session is not None:
            # the token first: a tab closed as soon as it hears it is connected must still have it kept
            self._keep(self.session)
        self._send(message)

    async def _main(self) -> None:
        session = self.session = self._make()
        try:
            if self._stopping:
                return
            await run_shell(self._begin, session)
            while not session.finished:
                message = await self._next(session)
                if self._stopping:
                    return
                await run_shell(self._turn, session, message)
            self._send({"type": "bye", "text": BYE})
        finally:
            if not session.finished:
                with contextlib.suppress(Exception):
                    await run_shell(session.close)  # the connection to the server goes with the tab
            session.announcer.close()

    def _begin(self, session: Session) -> None:
        session.start()
        self._show(session)

    def _turn(self, session: Session, message: dict[str, Any] | None) -> None:
        """One turn of the session: the page's message taken (if any), then what the server has sent, then the
        screen and what the browser keeps, each sent if it changed."""
        if message is not None:
            self._take(session, message)
        if not session.finished:
            session.tick()
        self._show(session)

    async def _next(self, session: Session) -> dict[str, Any] | None:
        """The page's next message; None sooner if the server sent something (or the session's own clock is
        running and a tick has passed). Whatever wakes the session during a turn brings another turn at once."""
        if not self._inbox and not self._stopping and not self._wake.is_set():
            tick = _tick(session)
            if tick is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), tick)
            else:
                await self._wake.wait()
        self._wake.clear()
        return self._inbox.popleft() if self._inbox else None

    def _show(self, session: Session) -> None:
        """Send the screen and what the browser keeps, each when it changed."""
        screen = describe(session, self._memo)
        if screen != self._shown:
            self._shown = screen
            self._send(screen)
        self._keep(session)

    def _keep(self, session: Session) -> None:
        """Send what the browser keeps, if it changed since it was last sent."""
        found = session.book.token_for(self._url)
        name, token = found if found is not None else (session.book.name, "")
        if (name, token) == self._kept_who and session.settings == self._kept_settings:
            return  # (looked at with every announcement: comparing is cheaper than making the message)
        self._kept_who, self._kept_settings = (name, token), dataclasses.replace(session.settings)
        keep = {"type": "keep", "token": token, "name": name, "settings": keep_settings(session.settings)}
        if keep != self._kept:
            self._kept = keep
            self._send(keep)
    def _take(self, session: Session, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "key":
            session.press(message["key"])
        elif kind == "line":
            if session.mode is not Mode.TYPING:
                session.say(NO_LINE)
                return
            line = session.line
            if len(message["text"]) > line.limit:
                session.say(too_long(line.limit))  # said, not cut short: the page's box should have stopped it
                return
            line.text = message["text"]
            line.cursor = len(line.text)
            session.press("enter")
        elif kind == "choose":
            self._choose(session, message["list"], message["index"])

    def _choose(self, session: Session, which: str, index: int) -> None:
        """A button pressed: the menu's item ``index`` chosen, or the hand's card ``index`` picked by its digit."""
        if which == "menu":
            if session.mode not in MENU_MODES:
                session.say(NO_MENU)
                return
            if index >= len(session._items()):
                session.say(NO_ITEM)
                return
            session.menu_index = index
            session.press("enter")
            return
        if session.mode is not Mode.GAME or session.moment not in ("discard", "play"):
            session.say(NOT_NOW)
            return
        if index >= min(9, len(session._hand())):
            session.say(NO_CARD)
            return
        session.press(str(index + 1))


def _tick(session: Session) -> float | None:
    """Seconds until the session must look again though nothing woke it, or None: `_TICK` while a clock of its own
    runs (the counting timer, a timed drill: its warnings come on time; a match's closing words waiting for the
    rating), `_LOOK` while a move time limit runs (the screen's status tells its seconds left)."""
    if session.mode is Mode.DRILL or (session.count_clock.running and session.moment == "count") or \
            session.match_closing is not None:
        return _TICK
    table = session.table
    if table is not None and table.move_time() is not None:
        return _LOOK
    return None
