"""What server and client agree on about passwords that protect names: how long one is, and the sentences both
sides must recognise (the server says them; a client acts on them).

>>> password_problem("short")
'A password must be from eight to one hundred twenty-eight printable characters; spaces are fine.'
>>> password_problem("correct horse") is None
True
>>> protected_name("Ann")
'The name Ann is protected by a password; sign in with it, or choose another name.'
>>> protected_in("The name Ann is protected by a password; sign in with it, or choose another name.")
'Ann'
"""

from __future__ import annotations

from audiocrib.engine.numbers import number_words
from audiocrib.engine.text import printable

__all__ = ["LONGEST", "SHORTEST", "SIGNED_OUT", "password_problem", "protected_in", "protected_name", "wrong_for"]

SHORTEST, LONGEST = 8, 128
SIGNED_OUT = "You signed out everywhere from another computer or browser; sign in again with your password."
"""The reason the other connections of a player who signs out everywhere are closed with (a WebSocket close reason:
at most 123 bytes)."""
_PROTECTED = ("The name ", " is protected by a password; sign in with it, or choose another name.")
_WRONG = ("That is not the password of the name ", ".")


def password_problem(password: str) -> str | None:
    """Why ``password`` cannot protect a name (one sentence), or None if it can."""
    if not SHORTEST <= len(password) <= LONGEST or not all(printable(c) for c in password):
        return (f"A password must be from {number_words(SHORTEST)} to {number_words(LONGEST)} printable characters;"
                " spaces are fine.")
    return None


def protected_name(name: str) -> str:
    """What a player hears who asks for a name protected by a password without it."""
    return f"{_PROTECTED[0]}{name}{_PROTECTED[1]}"


def wrong_for(name: str) -> str:
    """What a player hears who signs in to ``name`` with a wrong password."""
    return f"{_WRONG[0]}{name}{_WRONG[1]}"


def protected_in(sentence: str) -> str | None:
    """The name a refusal says is protected (`protected_name`) or was given a wrong password for (`wrong_for`),
    else None."""
    for start, end in (_PROTECTED, _WRONG):
        if sentence.startswith(start) and sentence.endswith(end) and len(sentence) > len(start) + len(end):
            return sentence[len(start):-len(end)]
    return None
