"""How many browser players one ``audiocrib serve`` carries: simulated tabs on ``/web`` at people's pace.

Run from the repository root (the installed ``audiocrib`` of the virtualenv is started as the server)::

    .venv/bin/python benchmarks/bench_tabs.py --quick                   # a smoke run: under a minute
    .venv/bin/python benchmarks/bench_tabs.py --tabs 10,50,100 --seconds 30 --warm 10 --json tabs.json
    .venv/bin/python benchmarks/bench_tabs.py --tabs 10,50,100 --play same  # as many terminal players beside them
    .venv/bin/python benchmarks/bench_tabs.py --tabs 50,200 --py-spy tabs.txt   # py-spy at the largest size
    .venv/bin/python benchmarks/bench_tabs.py --tabs 1000 --warm 30 --stagger 26  # tables at all moments of a deal

For each size a real server is started as benchmarks/bench_server.py starts it (serverbench's ``Server``:
``audiocrib serve --port 0 --data-dir DIR --most-tabs N``, N ten above the tabs asked for, on a new data folder in
the system's temporary folder). The tabs are scripted WebSocket clients (aiohttp's) in processes of their own
(``--processes``, 2 by default, started by multiprocessing's spawn), speaking the page's protocol at ``/web`` as the
page's JavaScript does (docs/protocol.md, "The browser page's socket"; the header ``Origin:
http://127.0.0.1:PORT``): each sends ``hello`` (with tests/web_client.py's QUICK settings: no pause before a
computer player's move, and there are none here, and no guard on keys typed ahead), types its name as a ``line``,
and is in the lobby. The server limits connections per address (a session's own connection to ``/play``, where it
has one, counts as its tab's), so each table's two tabs connect from a loopback address of their own (127.2.x.y;
all of 127.0.0.0/8 is loopback on Linux; ``--play`` players are on 127.1.x.y).

A run, in this order:

- ``--play N``: N terminal players on ``/play`` (serverbench's clients, N/2 tables of two people) are seated first
  and play at people's pace through the measured window, in the same server and minutes, so one can see whether
  terminal players pay for the tabs. Reported apart (``play_players``): a move sent to the other person's ``news``.
- Idle: the tabs sign in and sit in the lobby doing nothing for ``--idle`` seconds. Reported (``idle``): the
  server's CPU share (from /proc/PID/stat; 1.0 is one core) and per tab, its context switches a second (the sum
  over /proc/PID/task/*/status of voluntary and involuntary switches, over the window), threads and resident size.
- Playing: two tabs make a table as two people, by the page's messages only: one chooses Create a table, sets
  Listed in the lobby to no (right arrow), chooses Create the table and reads the code from the waiting room's
  status; the other chooses Join a table by its code and types it as a line; the host chooses Start the game. Then,
  after ``--warm`` seconds, over ``--seconds``: the table's person to move makes a move 2 seconds after the table's
  previous move (laying away: the first two cards' ``choose`` and Enter; the play: the first playable card's digit
  key and Enter; the show's review: Enter), and each tab presses a question key (``s``, ``t``, ``b``, ``v`` or
  ``c``) every 0.5 to 1.5 seconds, at random.
  Reported: ``move``, from the moment one tab sends its move's last key to the moment the other tab gets its first
  ``say`` after it (median, 99th percentile, most; only moves the other person hears: the play, and the second to
  lay away); ``key``, a question key sent to the same tab's first ``say`` after it; moves asked a second (the
  tables over 2 s) and made; the server's CPU share over the window, per tab, per move made
  (``server_cpu_ms_per_move``: the keys' and any ``--play`` players' share included), and of its main thread alone
  (``server_loop_cpu_share``: the event loop that runs every socket and the game); threads; context switches a
  second; memory per tab (the resident size once the tabs are at their tables, less the size before they came,
  over the tabs); ``lost``, moves and keys whose ``say`` never came within 10 seconds; ``slow_seconds``, for each
  second of the window in which a move took over 100 ms: the second, how many did, and the longest (a queue that
  builds and drains shows as a few such seconds together, a server too slow for its load as every second).

``--stagger S``: each table makes its first move at a moment of its own within S seconds of being told to begin
(else within the 2 s of one move). All tables begin together, so without it they go through every deal in step:
each deal's show, the heaviest moment (hands counted and told, everyone looking back at the show, the next deal
dealt), comes at every table within the same two seconds, as it would only at the start of a tournament. People
in a room sit down at their own moments, so their tables are at all moments of their deals; a deal at this pace
takes about 26 seconds, so ``--stagger 26`` (with ``--warm`` at least as long) spreads the shows over a deal.

``--cprofile FILE``: the server runs under cProfile (its figures written to FILE as it stops): call counts, for
finding what is done too often; its times are inflated by the profiler.

So that each timed ``say`` is the one it times, a table sends a move only when neither tab waits for a ``say``, and
a tab presses a question key only when it waits for none and the other has no move of its own unanswered (when the
server is slow, moves are then made late: fewer are made than asked). Timings are taken in the client processes with
``time.monotonic`` (both tabs of a table are in one process), so they include the clients' own event-loop delays.

``--py-spy FILE``: at the largest size, ``py-spy record --gil --threads --format raw`` of the server over the
measured window (py-spy from the virtualenv, ``pip install py-spy``; it needs ptrace), its collapsed stacks to FILE;
printed: the share of samples by thread name (digits dropped, so a tab's threads count together) and the functions
with the most samples of their own.

``--gateways K``: the server is started with ``--most-tabs 0 --trust-proxy 127.0.0.1`` (it serves no page, and
believes the gateways' X-Forwarded-For), and K gateway processes (``audiocrib web --server ws://127.0.0.1:PORT
--port 0``) serve the tabs, tab n on gateway n mod K (so a table's two people are on two gateways when K > 1);
each gateway's CPU share, threads, context switches and memory are reported apart (``gateways``), and the server's
figures are then its own only: its tables and the gateways' sessions' connections.

The tabs must reach their tables: a run fails loudly (with the first tab's last words) if a client process reports
a tab that never reached the lobby or its table. Otherwise nothing here fails because something is slow: it is not
a test. Linux only (loopback addresses, /proc).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tabsbench.runs import run


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("sizes are whole numbers with commas between, like 10,50,100") from None
    if not sizes or any(size < 2 or size > 5000 for size in sizes):
        raise argparse.ArgumentTypeError("each size is a number of tabs from 2 to 5000")
    return sizes


def _players(text: str) -> int:
    if text == "same":
        return -1
    if not text.isdigit() or int(text) > 10000:
        raise argparse.ArgumentTypeError("players is 'same' or a number from 0 to 10000")
    return int(text)


def _print_profile(found: dict[str, Any]) -> None:
    """py-spy's figures as lines a person reads (they are in the JSON too)."""
    print(f"py-spy, {found['tabs']} tabs: {found['py_spy_samples']} samples of the thread holding the GIL")
    for title in ("by_thread", "by_file", "top_own"):
        print(f"  {title.replace('_', ' ')}:")
        for name, share in found[title].items():
            print(f"    {share * 100:5.1f}%  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run under a minute (6 tabs, 4 players)")
    parser.add_argument("--tabs", type=_sizes, default=[10, 50, 100], help="tabs of each run (default 10,50,100)")
    parser.add_argument("--seconds", type=float, default=30.0, help="the measured window of each run (default 30)")
    parser.add_argument("--warm", type=float, default=10.0, help="seconds at tables before it (default 10)")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds the tabs sit idle in the lobby, measured")
    parser.add_argument("--play", type=_players, default=0, help="terminal players on /play beside the tabs: a number,"
                        " or 'same' for as many as the tabs (default 0)")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each size (default 1; the machine is noisy)")
    parser.add_argument("--processes", type=int, default=2, help="client processes for the tabs (default 2)")
    parser.add_argument("--py-spy", type=Path, help="record the server with py-spy at the largest size, to this file")
    parser.add_argument("--gateways", type=int, default=0, help="the tabs on K gateway processes (audiocrib web),"
                        " the server leaving its page to them (default 0: the server's own page)")
    parser.add_argument("--stagger", type=float, default=0.0, help="each table's first move at random within this"
                        " many seconds, so that the tables do not all reach the show together (default 0: within"
                        " the 2 s of a move; keep --warm at least this)")
    parser.add_argument("--cprofile", type=Path, help="run the server under cProfile (one size), its figures to"
                        " this file")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    sizes, seconds, warm, idle, play = args.tabs, args.seconds, args.warm, args.idle, args.play
    if args.quick:
        sizes, seconds, warm, idle, play = [6], 6.0, 3.0, 3.0, 4
    found: list[dict[str, Any]] = []
    for size in [size for size in sizes for _ in range(max(1, args.repeat))]:
        spy = args.py_spy if size == max(sizes) and not any(f["tabs"] == size for f in found) else None
        print(f"{size} tabs:", file=sys.stderr, flush=True)
        found.append(run(size, seconds, warm, idle, args.processes, size if play < 0 else play, spy, args.gateways,
                         args.stagger, args.cprofile))
        print(json.dumps(found[-1]), flush=True)
        if "by_thread" in found[-1]:
            _print_profile(found[-1])
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
