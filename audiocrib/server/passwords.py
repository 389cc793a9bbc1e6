"""Passwords that protect names: made into Argon2id hashes and checked against them (argon2-cffi, with its default
parameters, RFC 9106's low-memory choice: 64 MiB, three passes, four lanes), off the server's event loop.

Hashing costs tens of milliseconds of CPU on purpose, and the event loop runs every table, so each hash and check
runs on a small pool of threads (argon2-cffi lets go of the GIL while it works). The pool is bounded twice: at most
`WORKERS` at once, and at most `WAITING` waiting for one; a sign-in beyond that is refused with `BUSY` at once, so
a flood of sign-ins cannot queue forever nor stop the tables.

>>> import asyncio
>>> async def main() -> tuple[bool, bool]:
...     pool = Passwords()
...     hashed = await pool.make("correct horse battery")
...     return await pool.check(hashed, "correct horse battery"), await pool.check(hashed, "wrong horse battery")
>>> asyncio.run(main())
(True, False)
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

__all__ = ["BUSY", "WAITING", "WORKERS", "Passwords", "PasswordsBusy"]

WORKERS = 2
"""Hashes made or checked at once."""
WAITING = 32
"""Hashes that may wait for a worker; one more is refused."""
BUSY = "The server is busy signing other players in; try again in a few seconds."


class PasswordsBusy(Exception):
    """Too many hashes are waiting already; the message is `BUSY`."""


class Passwords:
    """Makes and checks Argon2id hashes on a pool of `WORKERS` threads."""

    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self.hasher = hasher or PasswordHasher()
        self._pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="passwords")
        self._pending = 0

    async def _run(self, work: object, *args: str) -> object:
        if self._pending >= WORKERS + WAITING:
            raise PasswordsBusy(BUSY)
        self._pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)  # type: ignore[arg-type]
        finally:
            self._pending -= 1

    async def make(self, password: str) -> str:
        """The Argon2id hash of ``password``, with a fresh salt (`PasswordsBusy` if too many wait)."""
        return str(await self._run(self.hasher.hash, password))

    async def check(self, hashed: str, password: str) -> bool:
        """True if ``password`` is the one ``hashed`` was made of (compared in constant time by Argon2);
        `PasswordsBusy` if too many wait."""
        return bool(await self._run(self._verify, hashed, password))

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return bool(self.hasher.verify(hashed, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, hashed: str) -> bool:
        """True if ``hashed`` was made with other parameters than today's (it is made again at the next sign-in)."""
        try:
            return bool(self.hasher.check_needs_rehash(hashed))
        except (InvalidHashError, ValueError):
            return False

    def close(self) -> None:
        """Stop the pool's threads (after the work they have)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
