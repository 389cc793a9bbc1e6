"""How much one ``audiocrib serve`` process carries: tables at people's pace, and moves at full speed.

Run from the repository root (the installed ``audiocrib`` of the virtualenv is started as the server)::

    .venv/bin/python benchmarks/bench_server.py --quick          # a smoke run: about 25 seconds
    .venv/bin/python benchmarks/bench_server.py                  # the full run: about 20 minutes
    .venv/bin/python benchmarks/bench_server.py --load encoding  # each move's messages, in-process, no server
    .venv/bin/python benchmarks/bench_server.py --load pace --tables 1000 --seconds 60 --json out.json
    .venv/bin/python benchmarks/bench_server.py --load full --profile server.prof   # the server under cProfile

A real server is started for each run, as tests/test_serve.py's ``Running`` starts it (``audiocrib serve --port 0
--data-dir DIR``, the port read from its first line), on a new data folder in the system's temporary folder. The
players are scripted WebSocket clients (aiohttp's) in processes of their own (``--clients``, 2 by default), over
loopback. Each table has two seats: two people, or (one table in five, ``--computer-share``) one person and an easy
computer player, which the server plays at its own pace (``Limits.computer_pace``, half a second; ``serve`` has no
option to change it). A person lays away the first cards of the hand and plays the first card it may (as
tests/test_serve.py's ``my_move``).

The server's limits per address (``Limits``: 20 connections, 5 new connections a second, 100 messages a second)
have no option in ``serve``, so the clients stay within them: each pair of tables connects from its own loopback
address (127.1.x.y; all of 127.0.0.0/8 is loopback on Linux), and at full speed each connection keeps under its
own limit of 20 messages a second with a bucket of its own (the result says how often a client had to wait on it).

- ``pace``: each game is first played flat out to a point of its own (up to ``--advance`` moves, at random), so
  the tables are spread over a match; then each table makes a move every 2 seconds (a person moves 2 s after the
  table's previous move; a computer player 0.5 s after it, so a table with one moves a little faster).
  Reported: the time from a person's move being sent to the other person at the table receiving its ``news``
  (median, 99th percentile, most), the server's CPU share over the measured window (from /proc/PID/stat: 1.0 is
  one core), and its memory per table (resident size after the tables are made and playing, less the size after
  a warm-up table, over the tables).
- ``full``: every person moves as soon as the server's view says it may; tables whose match is over start a new
  one. Reported: moves a second over the measured window, the same latency, and the bytes the server sends for
  each move (``news`` and ``view`` to each seat).
- ``encoding``: no server; the server's work for each move of whole matches (`encoding_costs`), timed part by
  part in this process.

The parts are in benchmarks/serverbench/: the server process (``process``), the scripted clients (``clients``),
one run (``runs``) and the in-process costs (``encoding``); benchmarks/bench_room.py measures a whole move through
the real `Room` in-process.

Timings are taken in the client processes with ``time.monotonic`` (the sender's send and the receiver's arrival of
the frame are in the same process: both people of a table are in one client process), so they include the clients'
own event-loop delays. Linux only (loopback addresses, /proc). This is not a test: nothing here fails because
something is slow.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from serverbench.clients import PACE
from serverbench.encoding import encoding_costs
from serverbench.runs import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    parser.add_argument("--load", choices=("pace", "full", "encoding", "both"), default="both")
    parser.add_argument("--tables", type=int, nargs="*", help="tables at people's pace (default 10 100 1000)")
    parser.add_argument("--full-tables", type=int, default=100, help="tables at full speed (default 100)")
    parser.add_argument("--seconds", type=float, default=60.0, help="the measured window of each run")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each load (default 2)")
    parser.add_argument("--clients", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--computer-share", type=float, default=0.2, help="tables with a computer player")
    parser.add_argument("--advance", type=int, default=60, help="at people's pace, play each game flat out"
                        " first for up to this many moves (a random number for each table; default 60)")
    parser.add_argument("--gc", action="store_true", help="report the server's garbage collections of 10 ms or"
                        " more (the program is started through a few lines that watch them)")
    parser.add_argument("--gc-threshold", help="start the server with these garbage collector thresholds"
                        " (gc.set_threshold), as 'A,B,C'")
    parser.add_argument("--profile", type=Path, help="run the server under cProfile, its statistics to this file")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.quick:
        paced, full, seconds, repeat, warm, advance = [4], 4, 4.0, 1, 1.0, 4
    else:
        paced, full, seconds, repeat, warm = args.tables or [10, 100, 1000], args.full_tables, args.seconds, \
            args.repeat, 4.0
        advance = args.advance
    found = []
    for _ in range(repeat):
        if args.load in ("pace", "both"):
            for count in paced:
                found.append(run("pace", count, seconds, args.clients, args.computer_share, warm + PACE,
                                 advance, args.profile, args.gc, args.gc_threshold))
                print(json.dumps(found[-1]), flush=True)
        if args.load in ("full", "both"):
            found.append(run("full", full, seconds, args.clients, 0.0, warm, 0, args.profile, args.gc,
                             args.gc_threshold))
            print(json.dumps(found[-1]), flush=True)
    if args.load == "encoding" or (args.load == "both" and not args.quick):
        found.append({"load": "encoding", **encoding_costs()})
        print(json.dumps(found[-1]), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
