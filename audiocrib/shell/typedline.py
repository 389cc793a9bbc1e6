"""Asking the player for a line of text (a server's address, a name, a table's code, a password, a chat
message): `TypedLines`, the screen that answers each key of a `LineEdit` and hands the line on."""

from __future__ import annotations

from collections.abc import Callable

from audiocrib.shell.core import SessionCore
from audiocrib.shell.keys import Mode
from audiocrib.shell.lineedit import LineEdit

__all__ = ["TypedLines"]


class TypedLines(SessionCore):
    """The keys of a line being typed (Mode.TYPING), for the screens that ask for one."""

    def _ask_line(self, line: LineEdit, question: str, then: Callable[[str], None],
                  back: Callable[[], None]) -> None:
        """Ask for a line: the player types, Enter gives it to ``then``, Escape goes ``back``."""
        self.line, self.line_then, self.line_back = line, then, back
        self.line_from = self.mode if self.mode is not Mode.TYPING else self.line_from
        self.mode = Mode.TYPING
        self.say(question + (f" It says {line.text}." if line.text and not line.secret else ""))

    def _typing_key(self, key: str) -> None:
        self.announcer.say(self.line.type(key), keep=False)  # the line itself is kept once it is taken

    def _typing_delete(self, key: str) -> None:
        self.announcer.say(self.line.delete(), keep=False)

    def _typing_left(self, key: str) -> None:
        self.announcer.say(self.line.left(), keep=False)

    def _typing_right(self, key: str) -> None:
        self.announcer.say(self.line.right(), keep=False)

    def _typing_home(self, key: str) -> None:
        self.announcer.say(self.line.home(), keep=False)

    def _typing_end(self, key: str) -> None:
        self.announcer.say(self.line.end(), keep=False)

    def _typing_read(self, key: str) -> None:
        self.say(self.line.read_back())

    def _typing_done(self, key: str) -> None:
        text = self.line.take()
        if not text:
            self.say(f"{self.line.purpose}: nothing typed yet. Type it, or press Escape to go back.")
            return
        self.mode = self.line_from
        self.line_then(text)

    def _typing_cancel(self, key: str) -> None:
        self.line.take()
        self.mode = self.line_from
        self.line_back()
