"""What the command line says when it is given something wrong: one sentence for each mistake, naming the option
and what it takes, with any value shown only as plain printable text (escaped, and cut short when long); and the
checks of values that name files and folders."""

from __future__ import annotations

import argparse
import ast
import errno
import os
import re
from collections.abc import Sequence
from typing import NoReturn

from audiocrib.engine.rules import Variant
from audiocrib.speech import MODES
from audiocrib.telling.narrator import Verbosity

__all__ = ["BIGGEST", "DECIMAL", "SPEECH", "TAKES", "VARIANTS", "VERBOSITY", "Parser", "UsageError", "bad",
           "check_data_dir", "check_transcript", "choice", "clean", "shown", "whole"]


class UsageError(Exception):
    """A mistake on the command line, said as one sentence."""


SPEECH = tuple(MODES)
VERBOSITY = tuple(v.value for v in Verbosity)
VARIANTS = tuple(v.value for v in Variant)


def either(values: Sequence[str]) -> str:
    return f"{', '.join(values[:-1])} or {values[-1]}"


TAKES = {
    "--speech": either(SPEECH),
    "--verbosity": either(VERBOSITY),
    "--rate": "words a minute from 100 to 400",
    "--volume": "a percent from 10 to 100",
    "--sound-volume": "a percent from 10 to 100",
    "--pace": "seconds from 0 to 10",
    "--seed": "a whole number of up to 18 digits",
    "--transcript": "the name of a file to write",
    "--data-dir": "the name of a folder",
    "--starter": "a card, like 5C",
    "--lay": "1 or 2",
    "--crib-cards": "4 or 5",
    "--games": "a whole number of games from 1 to 1,000,000",
    "--variant": either(VARIANTS),
    "--players": "a whole number of players from 2 to 6",
    "--teams": "2 or 3",
    "--target": "points from 31 to 1000, or 0 for the variant's own",
    "--jobs": "a whole number of processes, 1 or more",
    "--host": "an address of this computer to listen on, like 127.0.0.1 or 0.0.0.0",
    "--port": "a port number from 0 to 65535 (0 picks a free one)",
    "--most-tabs": "a number of browser tabs from 0 to 100000 (0: the page is left to gateways)",
    "--certfile": "the name of a certificate file (PEM)",
    "--keyfile": "the name of the certificate's private key file (PEM)",
    "--password-file": "the name of a file holding the server's password",
    "--moderator": "a player's name",
    "--moderators": "the name of a file of moderators' names, one a line",
    "--minutes": "a whole number of minutes from 1 to 527040 (a year)",
    "--reason": "from one to two hundred printable characters",
    "--address": "an address like 203.0.113.7 or 2001:db8::7",
    "FILE": "the name of a file",
    "--trust-proxy": "a reverse proxy's address or network, like 127.0.0.1 or 10.0.0.0/8",
    "--server": "the server's address, like 127.0.0.1:4121 or wss://cribbage.example.org",
    "--server-cert": "the name of the server's certificate file (PEM)",
}
"""What each option with a value takes, as said when the value is missing or wrong."""

_LONGEST = 30
"""Characters of a value shown in a sentence; a longer one is cut short."""
BIGGEST = 10**18 - 1
WHOLE = re.compile(r"[+-]?[0-9]{1,18}")
DECIMAL = re.compile(r"[0-9]{1,6}(\.[0-9]{0,9})?|\.[0-9]{1,9}")
_WORD = re.compile(rf"\S{{{_LONGEST + 2},}}")


def _escape(char: str) -> str:
    if " " <= char <= "~":
        return char
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def shown(value: str) -> str:
    """``value`` as it may be printed and said: printable ASCII only (anything else escaped), cut short when long.

    >>> shown("5H"), shown("5H\\x1b[31m"), shown("")
    ('5H', '5H\\\\x1b[31m', 'an empty value')
    >>> shown("9" * 5000)
    '999999999999999999999999999999 and 4,970 characters more'
    """
    if value == "":
        return "an empty value"
    return _short("".join(_escape(char) for char in value))


def _short(text: str) -> str:
    more = len(text) - _LONGEST
    return text if more <= 0 else f"{text[:_LONGEST]} and {more:,} character{'s' if more > 1 else ''} more"


def _short_word(word: str) -> str:
    end = word[-1] if word[-1] in ".,;:" else ""
    return _short(word[: len(word) - len(end)]) + end


def clean(message: str) -> str:
    """A sentence made fit to print: control and non-ASCII characters escaped, very long words cut short (a
    sentence from elsewhere may hold a value from the command line as it was typed)."""
    escaped = "".join(_escape(char) for char in message.replace("\n", " "))
    return _WORD.sub(lambda match: _short_word(match.group()), escaped)


def bad(option: str, value: str) -> UsageError:
    return UsageError(f"{option} takes {TAKES[option]}, not {shown(value)}.")


def whole(option: str, value: str, low: int, high: int) -> int:
    if WHOLE.fullmatch(value) is None or not low <= int(value) <= high:
        raise bad(option, value)
    return int(value)


def choice(option: str, value: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise bad(option, value)
    return value


_REQUIRED = {
    ("score", "cards"): "Give 3, 4 or 5 cards and the starter, like: audiocrib score 5H 5D 5S JC --starter 5C.",
    ("score", "--starter"): "Give the starter with --starter, like --starter 5C.",
    ("discards", "cards"): "Give the 5, 6 or 7 cards you were dealt, like: audiocrib discards 5H 5S 5C JD 4H 6C"
                           " --dealer.",
    ("table", "which"): "Say which table: audiocrib table hands, or audiocrib table cribs.",
    ("arena", "player"): "Name two or more players, like: audiocrib arena expert medium.",
    ("web", "--server"): "Give the server's address with --server, like: audiocrib web --server 127.0.0.1:4121.",
    ("admin", "ACT"): "Say what to do, like: audiocrib admin who, or audiocrib admin kick Bob --reason Spam.",
}


def _given(text: str) -> str:
    """The value in argparse's ``invalid choice: 'x' (choose from ...)``, as it was typed."""
    quoted = text.split(":", 1)[1].rsplit(" (choose from", 1)[0].strip()
    try:
        value = ast.literal_eval(quoted)
    except (ValueError, SyntaxError):
        return quoted
    return value if isinstance(value, str) else quoted


def sentence(message: str, command: str) -> str:
    """argparse's complaint (about ``command``'s arguments) as one sentence that reads well aloud."""
    if message.startswith("the following arguments are required:"):
        first = message.split(":", 1)[1].split(",")[0].strip()
        return _REQUIRED.get((command, first), f"{first} is needed.")
    if message.startswith("one of the arguments --dealer --pone is required"):
        return "Say whose crib it is: --dealer for yours, --pone for your opponent's."
    if message.startswith("unrecognized arguments:"):
        return f"audiocrib does not know {shown(message.split(':', 1)[1].strip())}."
    ambiguous = re.fullmatch(r"ambiguous option: (\S+) could match (.*)", message, re.S)
    if ambiguous is not None:
        *some, last = [name.strip() for name in ambiguous.group(2).split(",")]
        return f"{shown(ambiguous.group(1))} could be {', '.join(some)} or {last}; write more of it."
    argument = re.fullmatch(r"argument (\S+): (.*)", message, re.S)
    if argument is not None:
        name, what = argument.groups()
        if what.startswith("invalid choice:"):  # the only option left to argparse's choices: the command
            return (f"{shown(_given(what))} is not a command; the commands are play, online, score, discards, table,"
                    " arena, serve, web, backup, restore and admin.")
        if what.startswith("expected one argument") and name in TAKES:
            return f"{name} needs a value: {TAKES[name]}."
        if what.startswith("ignored explicit argument"):
            return f"{name} takes no value."
        other = re.fullmatch(r"not allowed with argument (\S+)", what)
        if other is not None:
            return f"Give {other.group(1)} or {name}, not both."
    return message[0].upper() + message[1:].rstrip(".") + "."


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(sentence(message, self.prog.partition(" ")[2]))


def check_data_dir(value: str) -> None:
    if value == "":  # Path("") is the current folder, and with it the home folder was used unsaid
        raise bad("--data-dir", value)
    if os.path.lexists(value) and not os.path.isdir(value):
        raise UsageError("--data-dir names a file, not a folder; give a folder, or a new name for one.")
    head = os.path.dirname(os.path.abspath(value))
    while not os.path.lexists(head) and os.path.dirname(head) != head:
        head = os.path.dirname(head)
    if not os.path.isdir(head):
        raise UsageError("--data-dir names a folder inside a file; give a folder, or a new name for one.")


def check_transcript(value: str) -> None:
    """Open the transcript to append as the game will, so that a name it cannot write is one sentence now
    (not a traceback), without waiting for a reader (a pipe nothing reads would hang the start)."""
    if value == "":
        raise bad("--transcript", value)
    if os.path.isdir(value):
        raise UsageError("--transcript names a folder; give a file in it, like --transcript game.txt.")
    existed = os.path.lexists(value)
    try:
        handle = os.open(value, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0), 0o666)
    except (FileNotFoundError, NotADirectoryError):
        raise UsageError("--transcript names a file in a folder that does not exist.") from None
    except PermissionError:
        raise UsageError("--transcript names a file that audiocrib may not write.") from None
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise UsageError("--transcript names a pipe that nothing reads.") from None
        raise UsageError(f"--transcript cannot be written: {(error.strerror or 'an error').lower()}.") from None
    except ValueError:  # a NUL in the name
        raise bad("--transcript", value) from None
    os.close(handle)
    if not existed:  # the game makes it again; a start refused below leaves nothing behind
        os.remove(value)
