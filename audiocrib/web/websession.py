"""One browser tab's game: a real shell `Session` on a thread of its own, with its own event loop.

The session plays online through this same server over a loopback connection (the terminal's `OnlineClient`, its
`Link` and `RemoteTable`), and those block while they wait for the server's answer, so a session never runs on the
server's own event loop: the gateway hands it the page's messages with `WebSession.give` (thread-safe), and it
sends what it says, its cues, its screen and what the browser should keep through ``send``, which must be safe to
call from its thread. It keeps no file: the browser keeps the token, the name and the settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import ssl
import threading
from collections.abc import Callable, Iterable
from typing import Any

from audiocrib.client.address import read_address
from audiocrib.online.fields import NAME, TOKEN, ProtocolError
from audiocrib.shell.announcer import Announcer
from audiocrib.shell.app import pace_computer_players
from audiocrib.shell.keys import BROWSER_HELP_KEY, Mode
from audiocrib.shell.lineedit import too_long
from audiocrib.shell.session import Session
from audiocrib.shell.settings import Settings
from audiocrib.sound.player import cue_file
from audiocrib.web.screen import MENU_MODES, describe

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
"""Seconds between the session's ticks (the counting timer, the server's news)."""
_LOOK = 1.0
"""Seconds at most between looks at the screen when nothing was sent or said."""
"""Seconds between looks at the screen while no message comes (the session's own ticks pace the game)."""


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


class _Nowhere(io.StringIO):
    """The announcer's screen: the page shows the lines, from the "say" messages."""

    def write(self, text: str) -> int:
        return len(text)


def keep_settings(settings: Settings) -> dict[str, Any]:
    """What the browser keeps of the settings: the page's voice on or off (the speech choice "the built-in
    voice"), its rate (1.0 is 200 words a minute) and volume, the cues' volume (0 with sounds off), and every
    setting for the next hello."""
    return {"voice": settings.speech == "tts", "rate": settings.rate / 200, "voice_volume": settings.volume / 100,
            "volume": settings.sound_volume / 100 if settings.sounds else 0.0, "session": settings.to_json()}


_KEPT = frozenset({"voice", "rate", "voice_volume", "volume", "session"})
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
        return Settings.from_json(values)
    except (ValueError, TypeError, KeyError):
        return None


def _checked(kind: Any, value: str) -> str:
    try:
        return str(kind.read(value, "the value"))
    except (ProtocolError, TypeError, ValueError):
        return ""


class WebSession:
    """One tab's session: started with `start`, fed with `give`, ended with `stop` (all safe from any thread).

    ``address`` is what the session connects to (this server, over loopback) and ``ssl_context`` what that
    connection trusts; ``token``, ``name`` and ``settings`` come from the page's hello (checked here).
    """

    def __init__(self, send: Send, address: str, ssl_context: ssl.SSLContext | None, token: str, name: str,
                 settings: object) -> None:
        self._send = send
        self.address = address
        self._url = read_address(address).url
        self._ssl = ssl_context
        self._name = _checked(NAME, name)
        self._token = _checked(TOKEN, token) if self._name else ""
        self._settings = read_settings(settings)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._inbox: asyncio.Queue[dict[str, Any]] | None = None
        self._ready = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="audiocrib-web-session", daemon=True)
        self.session: Session | None = None
        self._news = 0
        self._kept: dict[str, Any] = {}
        """What the browser was last sent to keep."""
        self._woken: asyncio.Event | None = None
        self.ended = threading.Event()
        """Set once the session has ended and let go of its connection."""

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(10)

    def give(self, message: dict[str, Any]) -> None:
        """Hand the session one checked message from the page (a key, a line or a choice)."""
        loop, inbox = self._loop, self._inbox
        if loop is not None and inbox is not None:
            with contextlib.suppress(RuntimeError):  # the session's loop has ended: nothing to do
                loop.call_soon_threadsafe(inbox.put_nowait, message)

    def stop(self) -> None:
        """End the session (the tab went away): its connection to the server closes, as a terminal's would."""
        self._stopping = True
        self.give({"type": "stop"})

    def join(self, seconds: float) -> None:
        self._thread.join(seconds)

    # ----------------------------------------------------------------- the session's thread
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:  # a fault of this session's: its tab is told, the server and the other tabs go on
            _log.exception("A browser's session failed.")
            self._send({"type": "say", "text": FAULT, "interrupt": False})
            self._send({"type": "bye", "text": BYE})
        finally:
            self.ended.set()
            self._ready.set()

    def _make(self) -> Session:
        def speech(mode: str) -> WebSpeaker:
            return WebSpeaker(self._told)

        session = Session(Announcer(WebSpeaker(self._told), _Nowhere()), settings=self._settings or Settings(),
                          player=WebCues(self._told), open_speech=speech, online_address=self.address)
        session.online_only = True
        session.help_key = BROWSER_HELP_KEY  # the page passes F1 everywhere; Tab moves to its buttons
        session.online_ssl = self._ssl
        session.book.address = self.address
        if self._name:
            session.book.name = self._name
            if self._token:
                session.book.remember(self._url, self.address, self._name, self._token)
        return session

    def _told(self, message: dict[str, Any]) -> None:
        """Send what the session says or plays (counted, and the session's loop woken: the screen is looked at
        again after news)."""
        self._news += 1
        if self._woken is not None:
            self._woken.set()
        if message["type"] == "say" and self.session is not None:
            # the token first: a tab closed as soon as it hears it is connected must still have it kept
            self._keep(self.session)
        self._send(message)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._inbox = asyncio.Queue()
        self._woken = asyncio.Event()
        self._ready.set()
        session = self.session = self._make()
        done = asyncio.Event()
        shown: dict[str, Any] = {}
        try:
            if self._stopping:
                return
            session.start()
            pacer = asyncio.ensure_future(pace_computer_players(session, done.set, _TICK))
            looked, looked_at, handled = -1, 0.0, 0
            try:
                while not done.is_set() and not session.finished:
                    if pacer.done():  # the pacing failed: its fault is raised here
                        pacer.result()
                    # the screen changes with what the player sends or the session says (at least once a second
                    # for the rest): looking only then keeps a thousand idle tabs from costing the server much
                    now = self._loop.time()
                    if self._news + handled != looked or now - looked_at >= _LOOK:
                        looked, looked_at = self._news + handled, now
                        shown = self._show(session, shown)
                    message = await self._next(pacer)
                    if message is None:
                        continue
                    if message["type"] == "stop":
                        return
                    handled += 1
                    self._take(session, message)
            finally:
                pacer.cancel()
            self._show(session, shown)
            self._send({"type": "bye", "text": BYE})
        finally:
            if not session.finished:
                with contextlib.suppress(Exception):
                    session.close()  # the connection to the server goes with the tab
            session.announcer.close()

    async def _next(self, pacer: asyncio.Future[None]) -> dict[str, Any] | None:
        """The page's next message; None sooner if the session said something, the pacing ended, or a while
        passed."""
        assert self._inbox is not None and self._woken is not None
        if not self._inbox.empty():
            return self._inbox.get_nowait()
        self._woken.clear()
        getting = asyncio.ensure_future(self._inbox.get())
        woken = asyncio.ensure_future(self._woken.wait())
        waiting: set[asyncio.Future[Any]] = {getting, woken, pacer}
        await asyncio.wait(waiting, timeout=_LOOK, return_when=asyncio.FIRST_COMPLETED)
        woken.cancel()
        if getting.done():
            return getting.result()
        getting.cancel()
        return None

    def _show(self, session: Session, shown: dict[str, Any]) -> dict[str, Any]:
        """Send the screen and what the browser keeps, each when it changed; the screen sent."""
        screen = describe(session)
        if screen != shown:
            self._send(screen)
        self._keep(session)
        return screen

    def _keep(self, session: Session) -> None:
        """Send what the browser keeps, if it changed since it was last sent."""
        found = session.book.token_for(self._url)
        name, token = found if found is not None else (session.book.name, "")
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
