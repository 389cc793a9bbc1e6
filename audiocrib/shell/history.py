"""The message history, in the audio-game convention: step back and forth through what was said.

``,`` steps to an older message, ``.`` to a newer one, ``<`` and ``>`` jump to the oldest and newest, and ``r``
repeats the last thing said. Stepping never falls off an end: it stays on the first or last message and says so.

>>> history = MessageHistory()
>>> for line in ("Bob deals.", "The starter is the jack of hearts.", "Bob plays the seven of clubs for seven."):
...     history.add(line)
>>> history.older()
'The starter is the jack of hearts.'
>>> history.older()
'Bob deals.'
>>> history.older()
'Bob deals. (This is the oldest message.)'
>>> history.newest()
'Bob plays the seven of clubs for seven.'
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

__all__ = ["LIMIT", "LINE_LIMIT", "MessageHistory"]

LIMIT = 1000
"""Messages kept (and saved with a game in progress)."""
LINE_LIMIT = 4000
"""Characters kept of one message: the longest audiocrib says (a page of help) is a few hundred."""


class MessageHistory:
    """The last ``limit`` announcements, with a reading position that the history keys move.

    ``clean`` is applied to every message kept, whichever way it comes (said, kept unsaid, restored from a save);
    a message longer than `LINE_LIMIT` is kept cut short.
    """

    def __init__(self, limit: int = LIMIT, clean: Callable[[str], str] | None = None) -> None:
        self._messages: deque[str] = deque(maxlen=limit)
        self._position: int | None = None  # None: at the newest (follows new messages)
        self._last: str | None = None  # the last message said
        self._pages: list[str] = []  # the rest of a long answer, unsaid, until the next message
        self._page: int | None = None  # the page being read (None: not reading the pages)
        self._clean = clean

    def __len__(self) -> int:
        return len(self._messages)

    @property
    def messages(self) -> tuple[str, ...]:
        """Every kept message, oldest first."""
        return tuple(self._messages)

    def restore(self, messages: tuple[str, ...] | list[str]) -> None:
        """Put ``messages`` (a resumed game's, oldest first) before the ones kept so far.

        >>> history = MessageHistory()
        >>> history.add("Resuming.")
        >>> history.restore(["Bob deals."])
        >>> history.messages
        ('Bob deals.', 'Resuming.')
        """
        kept = list(self._messages)
        self._messages.clear()
        self._messages.extend(self._kept([*messages[-(self._messages.maxlen or 0):], *kept]))
        self._position = None
        self._pages, self._page = [], None
        if self._last is None and self._messages:
            self._last = self._messages[-1]

    def add(self, message: str) -> None:
        """Keep ``message``; the reading position goes back to the newest."""
        self._messages.extend(self._kept((message,)))
        self._position = None
        self._last = self._messages[-1]
        self._pages, self._page = [], None

    def add_pages(self, pages: list[str] | tuple[str, ...]) -> None:
        """Hold ``pages``, the rest of the long answer just said (every key, say), unsaid: ``.`` reads them one by
        one from there. They are not kept among the messages: the next message lets them go, so the history keys
        then step through the game's own news.

        >>> history = MessageHistory()
        >>> history.add("Bob deals.")
        >>> history.add("Every key: the first page.")
        >>> history.add_pages(["The second page.", "The third page."])
        >>> history.newer(), history.newer(), history.older(), history.older(), history.older()
        ('The second page.', 'The third page.', 'The second page.', 'Every key: the first page.', 'Bob deals.')
        >>> history.last()
        'Every key: the first page.'
        >>> history.add("Bob plays a five.")
        >>> history.older(), history.messages
        ('Every key: the first page.', ('Bob deals.', 'Every key: the first page.', 'Bob plays a five.'))
        """
        self._pages, self._page = list(self._kept(pages)), None

    def _kept(self, messages: Iterable[str]) -> Iterable[str]:
        for message in messages:
            if self._clean is not None:
                message = self._clean(message)
            yield message if len(message) <= LINE_LIMIT else message[: LINE_LIMIT - 4] + " ..."

    def _at(self, index: int, note: str = "") -> str:
        self._position = index
        return self._messages[index] + note

    def _index(self) -> int:
        return len(self._messages) - 1 if self._position is None else self._position

    def older(self) -> str:
        """The message before the one last read (``,``)."""
        if self._page is not None:  # back through the pages, to the message they follow
            self._page = None if self._page == 0 else self._page - 1
            return self._messages[-1] if self._page is None else self._pages[self._page]
        if not self._messages:
            return "There are no messages yet."
        index = self._index()
        if index == 0:
            return self._at(0, " (This is the oldest message.)")
        return self._at(index - 1)

    def newer(self) -> str:
        """The message after the one last read (``.``)."""
        if not self._messages:
            return "There are no messages yet."
        index = self._index()
        if self._pages and index >= len(self._messages) - 1:  # past the long answer's first page: its next
            self._position = len(self._messages) - 1
            if self._page is None or self._page < len(self._pages) - 1:
                self._page = 0 if self._page is None else self._page + 1
                return self._pages[self._page]
            return self._pages[-1] + " (This is the newest message.)"
        if index >= len(self._messages) - 1:
            return self._at(len(self._messages) - 1, " (This is the newest message.)")
        return self._at(index + 1)

    def oldest(self) -> str:
        """The oldest message kept (``<``)."""
        self._page = None
        if not self._messages:
            return "There are no messages yet."
        return self._at(0)

    def newest(self) -> str:
        """The newest message (``>``)."""
        self._page = None
        if not self._messages:
            return "There are no messages yet."
        return self._at(len(self._messages) - 1)

    def last(self) -> str:
        """The last message said (``r``), whatever the reading position."""
        if self._last is None:
            return "Nothing has been said yet."
        return self._last
