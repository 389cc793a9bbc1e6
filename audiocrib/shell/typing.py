"""What a player enters with the keys: a count typed with the number keys (at most two digits, Backspace
deletes, each key answered in words), and cards marked to lay away.

Used wherever a player types a count or marks cards: in the game and in the drills.

>>> count = TypedCount()
>>> count.type("1"), count.type("2"), count.type("3")
('1', '12', 'You typed 12; no count is more than two digits. Backspace deletes.')
>>> count.delete(), count.take(), count.take()
('Deleted; 1 typed.', 1, None)
"""

from __future__ import annotations

from audiocrib.engine.numbers import number_words

__all__ = ["NOTHING_CLAIMED", "NOTHING_TYPED", "TypedCount", "marked_count"]

NOTHING_TYPED = "Type your count with the number keys first, then press Enter."
"""What Enter says with nothing typed."""
NOTHING_CLAIMED = "Type the points your card made with the number keys, 0 if it made none, then press Enter."
"""What Enter says with nothing typed when the points of a card in the play are asked for."""


class TypedCount:
    """The digits typed so far."""

    def __init__(self) -> None:
        self.text = ""

    def type(self, digit: str) -> str:
        """Add ``digit``; returns what to say (the count so far, or why not)."""
        if len(self.text) >= 2:
            return f"You typed {self.text}; no count is more than two digits. Backspace deletes."
        self.text += digit
        return self.text

    def delete(self) -> str:
        """Delete the last digit; returns what to say."""
        if not self.text:
            return "Nothing typed yet."
        self.text = self.text[:-1]
        return f"Deleted; {self.text or 'nothing'} typed."

    def take(self) -> int | None:
        """The count typed (then cleared), or None if nothing is typed."""
        if not self.text:
            return None
        value, self.text = int(self.text), ""
        return value

    def clear(self) -> None:
        """Forget what was typed."""
        self.text = ""


def marked_count(marked: int, need: int) -> str:
    """What marking a card leaves to do: "One more to mark." or "Press Enter to lay them away."

    >>> marked_count(1, 2), marked_count(2, 2), marked_count(1, 1)
    ('One more to mark.', 'Press Enter to lay them away.', 'Press Enter to lay it away.')
    """
    if marked >= need:
        return "Press Enter to lay them away." if need > 1 else "Press Enter to lay it away."
    return f"{number_words(need - marked).capitalize()} more to mark."
