"""The terminal side of the shell: prompt_toolkit reads the keys, the session answers, the table paces the bots.

The application draws nothing. Every announcement is printed once as a plain line by the `Announcer` and stays in
the scrollback, with the cursor on the line below: no redraws, no toolbars, no box drawing, and no
cursor-position requests (prompt_toolkit's renderer is given a `DummyOutput`), so it works the same under
``TERM=dumb``, in a Windows console and in a screen reader's review cursor.

Keys are read by a real prompt_toolkit `Application` with one binding per key the session knows; any other key
reaches the session too, which answers it with one sentence.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from prompt_toolkit.application import Application
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.output import DummyOutput, Output

from audiocrib.engine.text import printable
from audiocrib.shell.session import Session
from audiocrib.shell.table import Table

__all__ = ["KEY_NAMES", "build_application", "pace_computer_players", "run_session"]

os.environ.setdefault("PROMPT_TOOLKIT_NO_CPR", "1")  # never ask the terminal where the cursor is

KEY_NAMES: dict[str, str] = {
    "escape": "escape", "f1": "f1", "tab": "tab", "f2": "f2", "left": "left", "right": "right", "up": "up",
    "down": "down", "home": "home", "end": "end", "enter": "enter", "space": "space", "backspace": "backspace",
    "c-c": "c-c",
    "c-j": "enter",  # Enter pressed before the terminal is in raw mode arrives as a line feed
    **{ch: ch for ch in "abcdefghijklmnopqrstuvwxyz0123456789,.<>?"},
}
"""prompt_toolkit's key name for each key the session has a name for."""
_TICK = 0.02


def _spoken_key(event: KeyPressEvent) -> str:
    press = event.key_sequence[0]
    if len(press.data) == 1 and printable(press.data):
        return press.data
    key = press.key
    return key.value if isinstance(key, Keys) else str(key)


def build_application(session: Session, input: Input | None = None, output: Output | None = None) -> Application[None]:
    """The prompt_toolkit application that feeds ``session`` its keys."""
    bindings = KeyBindings()

    def handler(name: str) -> Callable[[KeyPressEvent], None]:
        def handle(event: KeyPressEvent) -> None:
            session.press(name)
            if session.finished:
                event.app.exit()

        handle.__doc__ = f"Pass the {name} key to the session."
        return handle

    for key, name in KEY_NAMES.items():
        bindings.add(key)(handler(name))

    @bindings.add(Keys.Any)
    def _other(event: KeyPressEvent) -> None:
        """Any other key: the session answers that it does nothing here."""
        session.press(_spoken_key(event))

    # prompt_toolkit's own mouse bindings would act on (and fail on) a mouse report from a terminal left in mouse
    # mode, or on keys typed fast enough to look like one: these come first.
    @bindings.add(Keys.Vt100MouseEvent)
    @bindings.add(Keys.WindowsMouseEvent)
    def _mouse(event: KeyPressEvent) -> None:
        """The mouse: the session says the keys do everything."""
        session.press("mouse")

    @bindings.add(Keys.CPRResponse)
    def _terminal_answer(event: KeyPressEvent) -> None:
        """The terminal's answer to a question the shell never asks: not a key, so not answered."""

    app: Application[None] = Application(
        layout=Layout(Window(FormattedTextControl(""), height=1)),
        key_bindings=bindings,
        full_screen=False,
        input=input,
        output=output if output is not None else DummyOutput(),
    )
    app.ttimeoutlen = 0.05  # a lone Escape is a key of its own, not the start of a sequence
    app.timeoutlen = 0.05
    return app


async def pace_computer_players(session: Session, stop: Callable[[], object], tick: float = _TICK) -> None:
    """Until the player quits (then ``stop`` is called): every ``tick`` seconds tick the counting timer (and take
    the server's news), and while another player is to move, let the table make that move (a computer player after
    the pause the player chose; any key hurries it). The terminal paces its session with it (the browser's sessions
    are woken by news instead: `audiocrib.web.websession`). A computer player's move that fails ends the session,
    said in one sentence, with ``exit_status`` 1."""
    while True:
        session.tick()
        if session.finished:
            stop()
            return
        table = session.table
        if table is None or not session.bot_waiting():
            await asyncio.sleep(tick)
            continue

        def ready(table: Table = table) -> bool:
            return session.table is table and session.bot_waiting()

        try:
            await table.others_move(session.settings.pace, ready)
        except Exception as error:  # a computer player's failure must not freeze the table
            session.say(f"A computer player failed to move ({type(error).__name__}); the game cannot go on.")
            session.exit_status = 1
            session.finished = True


async def run_session(session: Session, input: Input | None = None, output: Output | None = None) -> None:
    """Start ``session`` (its first words are the main menu) and run it until the player quits."""
    app = build_application(session, input, output)
    session.start()
    pacer = asyncio.ensure_future(pace_computer_players(session, app.exit))
    try:
        await app.run_async()
    finally:
        pacer.cancel()
        session.announcer.close()
