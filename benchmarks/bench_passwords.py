"""What a password costs the server: the time of one Argon2id hash with argon2-cffi's defaults (RFC 9106's
low-memory choice: 64 MiB, three passes, four lanes), and how late the event loop runs while a flood of checks goes
through the pool (`audiocrib.server.passwords`), with one worker thread and with two.

Run from the repository root::

    .venv/bin/python benchmarks/bench_passwords.py

The event loop's delay is measured as a table would feel it: a task sleeps 5 ms again and again, and each wake-up
later than asked is its delay; first with no hashing, then while 16 wrong passwords are checked at once.
"""

from __future__ import annotations

import asyncio
import statistics
import time

from argon2 import PasswordHasher

from audiocrib.server import passwords

CHECKS = 16


def per_hash() -> None:
    hasher = PasswordHasher()
    hashed = hasher.hash("correct horse 1")
    wall, cpu = [], []
    for _ in range(10):
        started, used = time.perf_counter(), time.process_time()
        hasher.verify(hashed, "correct horse 1")
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
    print(f"one check: {statistics.median(wall) * 1000:.0f} ms of wall time, {statistics.median(cpu) * 1000:.0f} ms"
          f" of CPU (medians of 10; {hashed[:31]}...)")


def summary(delays: list[float]) -> str:
    delays = sorted(delays)
    return (f"median {statistics.median(delays) * 1000:.1f} ms, 99th percentile"
            f" {delays[int(len(delays) * 0.99)] * 1000:.1f} ms, most {delays[-1] * 1000:.1f} ms")


async def quiet() -> None:
    delays = []
    for _ in range(300):
        started = time.perf_counter()
        await asyncio.sleep(0.005)
        delays.append(time.perf_counter() - started - 0.005)
    print(f"event loop, no hashing: {summary(delays)}")


async def flood(workers: int) -> None:
    passwords.WORKERS = workers
    pool = passwords.Passwords()
    hashed = await pool.make("correct horse 1")
    delays: list[float] = []
    done = False

    async def ticking() -> None:
        while not done:
            started = time.perf_counter()
            await asyncio.sleep(0.005)
            delays.append(time.perf_counter() - started - 0.005)

    ticker = asyncio.ensure_future(ticking())
    started = time.perf_counter()
    await asyncio.gather(*(pool.check(hashed, f"wrong horse {i}") for i in range(CHECKS)))
    took = time.perf_counter() - started
    done = True
    await ticker
    pool.close()
    print(f"{workers} worker{'s' if workers > 1 else ''}: {CHECKS} checks at once in {took:.2f} s"
          f" ({took / CHECKS * 1000:.0f} ms each); event loop meanwhile: {summary(delays)}")


def main() -> None:
    per_hash()
    asyncio.run(quiet())
    for workers in (1, 2, 1, 2):
        asyncio.run(flood(workers))


if __name__ == "__main__":
    main()
