"""The player's files: read safely, written atomically, and a damaged one set aside with one sentence.

Every file audiocrib reads (settings, statistics, practice figures, the game in progress) is a JSON object with a
``version``. `load` reads one: a missing file is simply absent; a file that is empty, cut short, garbage, from
another version, a folder, or unreadable is renamed aside (``settings.json.damaged``, never deleted or
overwritten; if it cannot be renamed, it is left in its place and nothing is written over it) and the player hears
one sentence saying so. `save` writes the new text beside the old file, flushes
it to the disk and renames it over the old one, so a crash or a power cut at any instant leaves either the old
file or the new one, never half of one.

Every file is hostile until checked. It is read only if it is an ordinary file of a sane size (a FIFO, a device, a
link to ``/dev/zero`` or a file of gigabytes is set aside unread); its JSON may not hold numbers of more than a
hundred digits, NaN or Infinity, or nesting deeper than Python's stack; and the parser given to `load` checks every
value's type and range. The new copy of a file is created afresh (never opened through a link or a file planted
in its place), so a write cannot reach any other file.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> save(folder / "settings.json", {"version": 1, "rate": 250})
>>> load(folder / "settings.json", "settings", 1, lambda data: data["rate"], "the defaults are used")
Loaded(value=250, notice=None)
>>> _ = (folder / "settings.json").write_text('{"version": 1, "ra')
>>> load(folder / "settings.json", "settings", 1, lambda data: data["rate"], "the defaults are used").notice
'Your settings file is cut short, so the defaults are used; the file is kept aside as settings.json.damaged.'
>>> sorted(p.name for p in folder.iterdir())
['settings.json.damaged']
"""

from __future__ import annotations

import errno
import json
import math
import os
import secrets
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

__all__ = ["MAX_BYTES", "Loaded", "folder_problem", "load", "reason", "remove", "save", "set_aside"]

T = TypeVar("T")
MAX_BYTES = 1 << 20
"""The largest file `load` reads unless told otherwise: settings, statistics and practice figures are a few
kilobytes; the game in progress passes its own limit."""
_MAX_DIGITS = 100
"""The longest whole number in a file: far beyond any count or seed audiocrib writes."""
_BAD_VALUE = (ArithmeticError, LookupError, ValueError, TypeError, AttributeError, RecursionError)
"""What a parser may raise on a value it cannot use (huge numbers overflow, deep nesting recurses)."""
_HELD: set[str] = set()
"""The damaged files of this run that could not be set aside: left in place, never written over or removed."""


@dataclass(frozen=True, slots=True)
class Loaded(Generic[T]):
    """What `load` found: the ``value`` (None when there was no usable file) and the ``notice`` to say, if any."""

    value: T | None
    notice: str | None = None


class _Damaged(Exception):
    """Why a file cannot be used, in words that finish "Your settings file ..."."""


def reason(error: OSError) -> str:
    """Why a file could not be read or written, as said to the player ("No space left on device").

    >>> reason(OSError(28, "No space left on device")), reason(OSError("no errno"))
    ('No space left on device', 'an error of the system')
    """
    return error.strerror or "an error of the system"


def _read_bytes(path: Path, limit: int) -> bytes:
    """The bytes of ``path`` if it is an ordinary file of at most ``limit`` bytes; `_Damaged` if not.

    A FIFO would block the read for ever and a device (a link to ``/dev/zero``) never ends, so the file is looked
    at before it is opened, opened without blocking where the system can, and looked at again once open (it may
    have been swapped meanwhile); and no more than ``limit`` bytes are read whatever it claims.
    """
    try:
        before = os.stat(path)
        if stat.S_ISDIR(before.st_mode):
            raise _Damaged("is a folder, not a file")
        if not stat.S_ISREG(before.st_mode):
            raise _Damaged("is not an ordinary file")
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
        descriptor = os.open(path, flags)
        try:
            opened = os.fstat(descriptor)
            if not stat.S_ISREG(opened.st_mode):
                raise _Damaged("is not an ordinary file")
            if opened.st_size > limit:
                raise _Damaged("is too big to be audiocrib's")
            chunks: list[bytes] = []
            size = 0
            while size <= limit:
                chunk = os.read(descriptor, limit + 1 - size)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
        finally:
            os.close(descriptor)
    except IsADirectoryError:
        raise _Damaged("is a folder, not a file") from None
    except PermissionError:
        raise _Damaged("cannot be read: permission is refused") from None
    except OSError as error:
        raise _Damaged(f"cannot be read ({reason(error)})") from None
    if size > limit:
        raise _Damaged("is too big to be audiocrib's")
    return b"".join(chunks)


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise ValueError("a number too long to be audiocrib's")
    return int(text)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("a number too large to be audiocrib's")
    return value


def _no_constant(text: str) -> float:
    raise ValueError(f"{text} is not a number audiocrib writes")


def _parse_json(raw: bytes) -> Any:
    """The JSON value in ``raw``, as `load` reads it; `_Damaged` (say why) if it is not usable JSON text."""
    if not raw.strip():
        raise _Damaged("is empty")
    try:
        return json.loads(raw.decode("utf-8"), parse_int=_whole, parse_float=_finite, parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise _Damaged("is not text") from None
    except json.JSONDecodeError as error:
        if error.pos >= len(error.doc.rstrip()) or error.msg.startswith("Unterminated string"):
            raise _Damaged("is cut short") from None
        raise _Damaged("is not in audiocrib's format") from None
    except (ValueError, RecursionError):  # a huge number, NaN, or nesting too deep to read
        raise _Damaged("is not in audiocrib's format") from None


def _read(path: Path, version: int, limit: int) -> dict[str, Any]:
    data = _parse_json(_read_bytes(path, limit))
    if not isinstance(data, dict):
        raise _Damaged("is not in audiocrib's format")
    found = data.get("version")
    if type(found) is not int or found != version:  # true and 1.0 equal 1, but audiocrib writes neither
        raise _Damaged("is from another version of audiocrib" if type(found) is int else "is not in audiocrib's format")
    return data


def folder_problem(folder: Path) -> str | None:
    """Why no file in ``folder`` can be reached (``"Permission denied"``, ``"Not a directory"``), or None if they
    can be (or the folder does not exist yet: it is made at the first write)."""
    try:
        os.stat(os.path.join(folder, "."))  # needs the right to go into the folder, as every file in it does
    except FileNotFoundError:
        return None
    except OSError as error:
        return reason(error)
    return None


def set_aside(path: Path) -> Path:
    """Rename ``path`` (a file or a folder) to the first free ``NAME.damaged``, ``NAME.damaged-2``, ... up to
    ``-999``, then to a name of its date and a random part (``NAME.damaged-20260101-120000-1a2b3c4d``) that no
    earlier copy holds; the new path. Raises OSError if it cannot be renamed."""
    for number in range(1, 1000):
        aside = path.with_name(f"{path.name}.damaged" + (f"-{number}" if number > 1 else ""))
        if not os.path.lexists(aside):
            break
    else:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{secrets.token_hex(4)}")
        while os.path.lexists(aside):  # pragma: no cover - 32 random bits in the same second
            aside = path.with_name(f"{path.name}.damaged-{stamp}-{secrets.token_hex(8)}")
    os.rename(path, aside)
    return aside


def _held(path: Path) -> None:
    """Refuse to write over or remove ``path`` if it is a damaged file kept in place (OSError)."""
    if os.path.abspath(path) in _HELD:
        raise OSError(errno.EEXIST, "a damaged file there is kept as it is")


def remove(path: Path) -> None:
    """Delete the file ``path`` if it is there. Raises OSError if it cannot be deleted, or if it is a damaged file
    kept in place."""
    _held(path)
    path.unlink(missing_ok=True)


def load(path: Path, what: str, version: int, parse: Callable[[dict[str, Any]], T], fallback: str,
         limit: int = MAX_BYTES) -> Loaded[T]:
    """Read the JSON object at ``path`` and turn it into a value with ``parse``.

    ``what`` names the file for the player ("settings", "saved game"); ``fallback`` says what happens instead ("the
    defaults are used"). ``parse`` raises ValueError, KeyError or TypeError on a value it cannot use. ``limit`` is
    the largest size read. A missing file gives ``Loaded(None)``; a damaged one is set aside and gives
    ``Loaded(None, sentence)``.
    """
    try:
        os.lstat(path)
    except FileNotFoundError:
        return Loaded(None)
    except OSError:
        pass  # the folder itself cannot be read: said below, like any file that cannot be
    try:
        data = _read(path, version, limit)
        try:
            return Loaded(parse(data))
        except _BAD_VALUE as error:
            raise _Damaged("is not in audiocrib's format") from error
    except _Damaged as damage:
        try:
            aside = set_aside(path)
        except OSError as error:
            _HELD.add(os.path.abspath(path))
            return Loaded(None, f"Your {what} file {damage}, so {fallback}; it could not be kept aside "
                                f"({reason(error)}), so audiocrib leaves it as it is and writes nothing over it.")
        return Loaded(None, f"Your {what} file {damage}, so {fallback}; the file is kept aside as {aside.name}.")


def save(path: Path, data: dict[str, Any] | str, *, readable: bool = False) -> None:
    """Write ``data`` as JSON to ``path`` atomically: to a new ``NAME.partial``, flushed to the disk, then renamed
    over ``path``. ``data`` may be JSON text already. ``readable`` indents it for a person to read. Raises OSError
    when it cannot be written, or when ``path`` is a damaged file that could not be set aside (it is kept as it is).

    The partial file is created afresh and exclusively: whatever is in its place (a copy left by a crash, or a
    link planted to another file) is removed first, and if something is put back meanwhile the write fails rather
    than go through it.
    """
    _held(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data, indent=2 if readable else None, ensure_ascii=True)
    partial = path.with_name(path.name + ".partial")
    try:
        os.unlink(partial)  # a link is removed, never followed; a folder is refused
    except FileNotFoundError:
        pass
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    descriptor = os.open(partial, flags, 0o666)
    with open(descriptor, "w", encoding="utf-8", newline="\n") as file:
        file.write(text + "\n")
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)
