"""The player's files: read safely, written atomically, and a damaged one set aside with one sentence.

Every file audiocrib reads (settings, statistics, practice figures, the game in progress) is a JSON object with a
``version``. `load` reads one: a missing file is simply absent; a file that is empty, cut short, garbage, from
another version, a folder, or unreadable is renamed aside (``settings.json.damaged``, never deleted or
overwritten) and the player hears one sentence saying so. `save` writes the new text beside the old file, flushes
it to the disk and renames it over the old one, so a crash or a power cut at any instant leaves either the old
file or the new one, never half of one.

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

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

__all__ = ["Loaded", "load", "save", "set_aside"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Loaded(Generic[T]):
    """What `load` found: the ``value`` (None when there was no usable file) and the ``notice`` to say, if any."""

    value: T | None
    notice: str | None = None


class _Damaged(Exception):
    """Why a file cannot be used, in words that finish "Your settings file ..."."""


def _read(path: Path, version: int) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise _Damaged("is a folder, not a file") from None
    except PermissionError:
        raise _Damaged("cannot be read: permission is refused") from None
    except OSError as error:
        raise _Damaged(f"cannot be read ({error.strerror or 'an error of the system'})") from None
    if not raw.strip():
        raise _Damaged("is empty")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise _Damaged("is not text") from None
    except json.JSONDecodeError as error:
        if error.pos >= len(error.doc.rstrip()) or error.msg.startswith("Unterminated string"):
            raise _Damaged("is cut short") from None
        raise _Damaged("is not in audiocrib's format") from None
    if not isinstance(data, dict):
        raise _Damaged("is not in audiocrib's format")
    if data.get("version") != version:
        raise _Damaged("is from another version of audiocrib")
    return data


def set_aside(path: Path) -> Path:
    """Rename ``path`` (a file or a folder) to the first free ``NAME.damaged``, ``NAME.damaged-2``, ...; the new
    path. Raises OSError if it cannot be renamed."""
    for number in range(1, 1000):
        aside = path.with_name(f"{path.name}.damaged" + (f"-{number}" if number > 1 else ""))
        if not aside.exists() and not aside.is_symlink():
            os.rename(path, aside)
            return aside
    raise FileExistsError(f"too many damaged copies of {path.name}")


def load(path: Path, what: str, version: int, parse: Callable[[dict[str, Any]], T], fallback: str) -> Loaded[T]:
    """Read the JSON object at ``path`` and turn it into a value with ``parse``.

    ``what`` names the file for the player ("settings", "saved game"); ``fallback`` says what happens instead ("the
    defaults are used"). ``parse`` raises ValueError, KeyError or TypeError on a value it cannot use. A missing
    file gives ``Loaded(None)``; a damaged one is set aside and gives ``Loaded(None, sentence)``.
    """
    if not path.exists() and not path.is_symlink():
        return Loaded(None)
    try:
        data = _read(path, version)
        try:
            return Loaded(parse(data))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise _Damaged("is not in audiocrib's format") from error
    except _Damaged as damage:
        try:
            aside = set_aside(path)
        except OSError as error:
            return Loaded(None, f"Your {what} file {damage}, so {fallback}; it could not be kept aside "
                                f"({error.strerror or 'an error of the system'}).")
        return Loaded(None, f"Your {what} file {damage}, so {fallback}; the file is kept aside as {aside.name}.")


def save(path: Path, data: dict[str, Any] | str, *, readable: bool = False) -> None:
    """Write ``data`` as JSON to ``path`` atomically: to a new ``NAME.partial``, flushed to the disk, then renamed
    over ``path``. ``data`` may be JSON text already. ``readable`` indents it for a person to read. Raises OSError
    when it cannot be written.

    The partial file is created afresh and exclusively: whatever is in its place (a copy left by a crash, or a
    link planted to another file) is removed first, and if something is put back meanwhile the write fails rather
    than go through it.
    """
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
