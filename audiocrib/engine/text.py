"""The one rule for text from outside (a file, the command line, another player) that is printed or spoken: which
characters it may hold.

A character is refused, or cleaned away, if Unicode calls it "other" or a "separator": control (Cc: escape codes,
line ends), format (Cf: direction marks and overrides, the Arabic letter mark U+061C, zero-width characters, the
soft hyphen, the interlinear annotation marks U+FFF9 to U+FFFB, the tag characters U+E0000 to U+E007F), surrogate
(Cs), private use (Co), unassigned (Cn), and every space, line and paragraph separator but the plain space (Zs, Zl,
Zp). These are what a terminal does not show as written or a screen reader reads out of order, or not at all. It is
Python's `str.isprintable`; the browser page's check of a key is the same rule (``[^\\p{C}\\p{Z}]``).

The shell cleans every line it says with `clean`; the shell's files, the server and the protocol refuse a name or
a message that is not `printable`.

>>> printable("Bob"), printable("Bob\\u061c"), printable("Ann\\U000e0041"), printable("Eve\\ue000"), printable("")
(True, False, False, False, True)
>>> clean("Bob\\x1b]0;owned\\x07 deals\\u00ad.")
'Bob ]0;owned  deals .'

No seat but the listener's own may be called by the words each listener hears for themselves ("You plays" would
be said of another), in any case or width:

>>> own_word("You"), own_word("\\uff39\\uff4f\\uff55"), own_word("YOURS"), own_word("Yolanda")
(True, True, True, False)
"""

from __future__ import annotations

import unicodedata

__all__ = ["OWN_WORDS", "clean", "own_word", "printable"]

OWN_WORDS = frozenset({"you", "your", "yours"})
"""The words a listener hears for their own seat (`audiocrib.telling.listener`), in lower case."""


def printable(text: str) -> bool:
    """True if ``text`` holds no character the rule refuses (an empty text is printable)."""
    return text.isprintable()


def clean(text: str) -> str:
    """``text`` with each run of characters the rule refuses made one space."""
    if text.isprintable():
        return text
    kept: list[str] = []
    gap = False
    for char in text:
        if char.isprintable():
            kept.append(char)
            gap = False
        elif not gap:
            kept.append(" ")
            gap = True
    return "".join(kept)


def own_word(name: str) -> bool:
    """True if ``name``, normalised (Unicode NFKC, without case, without spaces at its ends), is one of
    `OWN_WORDS`: a name no other seat may have."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold()).strip() in OWN_WORDS
