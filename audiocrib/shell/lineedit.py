"""A line of text typed by a player who may not see it (a server's address, a name, a table's code, a line of
chat): each key answered in words, the line read back on request, and gone over letter by letter.

>>> line = LineEdit("Your name", limit=24)
>>> [line.type(c) for c in "Al"], line.type("space"), line.delete()
(['A', 'l'], 'space', 'space deleted.')
>>> line.left(), line.read_back(), line.end()
('l', 'Your name: Al.', 'End of the line.')
>>> line.type("!") if False else line.take()
'Al'
"""

from __future__ import annotations

from audiocrib.engine.text import printable

__all__ = ["LineEdit", "char_word", "too_long"]

_CHAR_WORDS = {
    " ": "space", ".": "dot", ",": "comma", "-": "dash", "_": "underscore", "'": "apostrophe", ":": "colon",
    "/": "slash", "?": "question mark", "!": "exclamation mark", "<": "less than", ">": "greater than",
    "@": "at", "&": "and sign", '"': "quote", ";": "semicolon", "(": "left paren", ")": "right paren",
}


def char_word(char: str) -> str:
    """A character as said: "A" for a capital (screen readers say "cap A" themselves when reading), "space",
    "dot"."""
    return _CHAR_WORDS.get(char, char)


def too_long(limit: int) -> str:
    """The answer to a character, or a whole line, past a line's ``limit``."""
    return f"That is as long as it can be: {limit} characters."


class LineEdit:
    """The text typed so far for ``purpose`` ("Your name"), at most ``limit`` characters, with a cursor; ``secret``
    lines (a password) say "star" for each character."""

    def __init__(self, purpose: str, limit: int = 300, text: str = "", secret: bool = False,
                 spell: bool = False) -> None:
        self.purpose = purpose
        self.limit = limit
        self.text = text[:limit]
        self.cursor = len(self.text)
        self.secret = secret
        self.spell = spell
        """Read back letter by letter (a table's code: "W 4 W 4 H", not a word)."""

    def _said(self, char: str) -> str:
        return "star" if self.secret else char_word(char)

    def type(self, key: str) -> str:
        """Insert the character of ``key`` (a single printable character, or "space") at the cursor; what to
        say."""
        char = " " if key == "space" else key
        if len(char) != 1 or not printable(char):
            return "That key types nothing."
        if len(self.text) >= self.limit:
            return too_long(self.limit)
        self.text = self.text[: self.cursor] + char + self.text[self.cursor:]
        self.cursor += 1
        return self._said(char)

    def delete(self) -> str:
        """Delete the character before the cursor (Backspace)."""
        if self.cursor == 0:
            return "Nothing to delete." if not self.text else "Start of the line; nothing before it to delete."
        gone = self.text[self.cursor - 1]
        self.text = self.text[: self.cursor - 1] + self.text[self.cursor:]
        self.cursor -= 1
        return f"{self._said(gone)} deleted."

    def left(self) -> str:
        """Move the cursor back one character and say it."""
        if self.cursor == 0:
            return "Start of the line." if self.text else "Nothing typed yet."
        self.cursor -= 1
        return self._said(self.text[self.cursor])

    def right(self) -> str:
        """Say the character under the cursor and move past it."""
        if self.cursor >= len(self.text):
            return "End of the line." if self.text else "Nothing typed yet."
        self.cursor += 1
        return self._said(self.text[self.cursor - 1])

    def home(self) -> str:
        """The cursor to the start."""
        self.cursor = 0
        return "Start of the line." if self.text else "Nothing typed yet."

    def end(self) -> str:
        """The cursor to the end."""
        self.cursor = len(self.text)
        return "End of the line." if self.text else "Nothing typed yet."

    def read_back(self) -> str:
        """The whole line read back ("Your name: Ann."), or that nothing is typed yet."""
        if not self.text.strip():
            return f"{self.purpose}: nothing typed yet."
        shown = "star " * len(self.text) if self.secret else " ".join(self.text.upper()) if self.spell else self.text
        return f"{self.purpose}: {shown.strip()}."

    def take(self) -> str:
        """The line typed, trimmed, and the line cleared."""
        text, self.text, self.cursor = self.text.strip(), "", 0
        return text
