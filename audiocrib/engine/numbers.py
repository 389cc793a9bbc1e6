"""Whole numbers in words, as they are said aloud: the engine's refusals and the narration both say numbers
through here.

>>> number_words(121)
'one hundred twenty-one'
"""

from __future__ import annotations

__all__ = ["number_words"]

_SMALL = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


_SCALES = ("", " thousand", " million", " billion", " trillion", " quadrillion", " quintillion")


def number_words(n: int) -> str:
    """A whole number in words, up to the quintillions; beyond, "more than a thousand quintillion" (no count
    audiocrib keeps comes near, but a number read from a file must not be able to stop the program).

    >>> number_words(-2_000_017)
    'minus two million seventeen'
    >>> number_words(10**4000)
    'more than a thousand quintillion'
    """
    if n < 0:
        return "minus " + number_words(-n)
    if n >= 1000 ** len(_SCALES):
        return "more than a thousand quintillion"
    if n < 1000:
        return _below_thousand(n)
    groups = []
    for scale in _SCALES:
        n, group = divmod(n, 1000)
        if group:
            groups.append(_below_thousand(group) + scale)
    return " ".join(reversed(groups))


def _below_thousand(n: int) -> str:
    if n < 20:
        return _SMALL[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _SMALL[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return _SMALL[hundreds] + " hundred" + (" " + _below_thousand(rest) if rest else "")
