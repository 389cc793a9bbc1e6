"""One measured run: a server, its idle tabs, then the same tabs at tables at people's pace (and optionally
``/play`` players beside them), and the figures summed up."""

from __future__ import annotations

import multiprocessing
import statistics
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from serverbench.clients import PACE, client_process
from serverbench.process import Server

from tabsbench.clients import tab_process
from tabsbench.gateways import Gateway
from tabsbench.server import PySpy, Window, threads

SETUP_SECONDS = 900.0
"""How long the client processes may take to sign their tabs in or seat them before the run is given up."""


class NeverSeated(SystemExit):
    """The tabs did not reach their tables (or the lobby): the run fails loudly, with the first tab's words."""


def run(tabs: int, seconds: float, warm: float, idle_seconds: float, processes: int, play: int = 0,
        py_spy: Path | None = None, gateways: int = 0, stagger: float = 0.0,
        cprofile: Path | None = None) -> dict[str, Any]:
    """One server; ``play`` players on ``/play`` at pace; ``tabs`` tabs signed in and measured idle for
    ``idle_seconds``, then seated two at a table and measured for ``seconds`` after ``warm`` seconds. The tabs
    open the page's socket on the server's own port, or with ``gateways`` on that many gateway processes (a
    table's two tabs on two of them; the server's figures are then its own only, each gateway's reported
    apart). With ``stagger``, each table makes its first move at a moment of its own within that many seconds
    after the tables are told to begin (else within `PACE`), so that they do not all reach the show together;
    with ``cprofile``, the server runs under cProfile, its figures written to that file as it stops."""
    context = multiprocessing.get_context("spawn")
    tabs -= tabs % 2
    with tempfile.TemporaryDirectory(prefix="bench-tabs-") as folder:
        server = Server(Path(folder) / "data", profile=cprofile,
                        options=("--most-tabs", str(tabs + 10)) if not gateways else
                        ("--most-tabs", "0", "--trust-proxy", "127.0.0.1"))
        started: list[tuple[Any, Connection]] = []
        ours_gateways: list[Gateway] = []
        try:
            ours_gateways = [Gateway(server.port, tabs + 10) for _ in range(gateways)]
            web_ports = [gateway.port for gateway in ours_gateways] or None
            players = _start(context, client_process, [(server.port, list(range(n, play // 2, processes)),
                                                         set(), "pace", 0) for n in range(processes)]) if play else []
            started += players
            _wait(players, "ready")
            base_rss, base_threads = server.rss_bytes(), threads(server)
            began = time.monotonic()
            pairs = list(range(tabs // 2))  # a table's two tabs: numbers 2p and 2p + 1, in one process
            ours = _start(context, tab_process, [(web_ports or [server.port], [x for p in pairs[n::processes]
                                                                               for x in (2 * p, 2 * p + 1)])
                                                 for n in range(processes)])
            started += ours
            _wait(ours, "signed")
            signed_seconds = time.monotonic() - began
            time.sleep(2.0)  # the sign-ins' last writes
            window = Window(server)
            time.sleep(idle_seconds)
            idle = window.end(idle_seconds, tabs)
            began = time.monotonic()
            for _, pipe in ours:
                pipe.send(("seat",))
            _wait(ours, "ready")
            seated_seconds = time.monotonic() - began
            seated_rss = server.rss_bytes()
            measure_at = time.monotonic() + warm
            for _, pipe in players:
                pipe.send(("go", measure_at, measure_at + seconds))
            for _, pipe in ours:
                pipe.send(("go", measure_at, measure_at + seconds, stagger))
            time.sleep(max(0.0, measure_at - time.monotonic()))
            window = Window(server)
            gateway_windows = [Window(gateway) for gateway in ours_gateways]
            spy = PySpy(server, py_spy, seconds) if py_spy is not None else None
            time.sleep(max(0.0, measure_at + seconds - time.monotonic()))
            playing = window.end(seconds, tabs)
            at_gateways = [w.end(seconds, tabs // max(1, gateways)) for w in gateway_windows]
            profile = spy.finish() if spy is not None else {}
            tab_results = _wait(ours, "done")
            play_results = _wait(players, "done")
        except BaseException:
            for process, _ in started:  # the others wait for a word that will not come
                process.kill()
            raise
        finally:
            for process, _ in started:
                process.join(timeout=30)
            for gateway in ours_gateways:
                gateway.stop()
            err = server.stop()
    found: dict[str, Any] = {"tabs": tabs, "play": play // 2 * 2, "seconds": seconds,
                             "sign_in_seconds": round(signed_seconds, 1), "seat_seconds": round(seated_seconds, 1)}
    found.update(_tab_summary(tabs, seconds, tab_results, playing))
    found["rss_per_tab_kb"] = round((seated_rss - base_rss) / tabs / 1024, 1)
    found["threads_before_tabs"] = base_threads
    found["idle"] = {key: idle[key] for key in ("server_cpu_share", "cpu_share_per_tab", "context_switches_per_second",
                                                "threads", "rss_mb")}
    if players:
        found["play_players"] = _play_summary(play_results)
    if at_gateways:  # the server's figures above are its own; each gateway's (its "server_..." are the gateway's)
        found["gateways"] = at_gateways
    found.update(profile)
    found["server_errors"] = err.strip().splitlines()[-5:]
    return found


def _start(context: Any, target: Any, arguments: list[tuple[Any, ...]]) -> list[tuple[Any, Connection]]:
    started = []
    for args in arguments:
        ours, theirs = context.Pipe()
        process = context.Process(target=target, args=(*args, theirs))
        process.start()
        started.append((process, ours))
    return started


def _wait(started: list[tuple[Any, Connection]], word: str) -> list[dict[str, Any]]:
    """Each process's message ``word`` (its figures, if any); a loud failure if one failed or took too long."""
    found = []
    for _, pipe in started:
        if not pipe.poll(SETUP_SECONDS):
            raise NeverSeated(f"A client process said nothing for {SETUP_SECONDS:.0f} s, waiting for {word!r}.")
        message = pipe.recv()
        if message[0] != word:
            raise NeverSeated(f"The tabs never reached their tables: {message}")
        found.append(message[1] if len(message) > 1 and isinstance(message[1], dict) else {})
    print(f"  {word}", file=sys.stderr, flush=True)
    return found


def _ms(values: list[float], fraction: float) -> float:
    return round(values[min(len(values) - 1, int(len(values) * fraction))] * 1000, 1) if values else float("nan")


def _latency(values: list[float]) -> dict[str, Any]:
    values = sorted(values)
    return {"samples": len(values),
            "median_ms": round(statistics.median(values) * 1000, 1) if values else float("nan"),
            "p99_ms": _ms(values, 0.99), "most_ms": _ms(values, 1.0)}


def _slow_seconds(times: list[tuple[float, float]]) -> list[list[float]]:
    """For each second of the window in which some move was heard over 100 ms after it was made: the second
    (from the first move heard), how many moves were, and the longest (ms). Queues that come and go show here as a
    few seconds with many slow moves, a slow server as slow moves in every second."""
    if not times:
        return []
    first = min(at for at, _ in times)
    seconds: dict[int, list[float]] = {}
    for at, latency in times:
        if latency > 0.1:
            seconds.setdefault(int(at - first), []).append(latency)
    return [[second, len(slow), round(max(slow) * 1000)] for second, slow in sorted(seconds.items())]


def _tab_summary(tabs: int, seconds: float, results: list[dict[str, Any]], playing: dict[str, Any]) -> dict[str, Any]:
    total = {key: sum(r[key] for r in results) for key in ("moves_made", "moves_heard", "keys", "lost",
                                                           "matches_ended", "cpu_seconds")}
    closes = [c for r in results for c in r["closes"]]
    return {
        "move": _latency([x for r in results for x in r["move_latencies"]]),
        "slow_seconds": _slow_seconds([x for r in results for x in r["move_times"]]),
        "key": _latency([x for r in results for x in r["key_latencies"]]),
        "moves_asked_per_second": round(tabs / 2 / PACE, 1),
        "moves_made_per_second": round(total["moves_made"] / seconds, 1),
        "server_cpu_ms_per_move": round(playing["server_cpu_share"] * 1000 / max(0.1, total["moves_made"] / seconds),
                                        1),
        "moves_heard": total["moves_heard"], "keys_per_second": round(total["keys"] / seconds, 1),
        "lost": total["lost"], "matches_ended": total["matches_ended"],
        **playing,
        "clients_cpu_share": round(total["cpu_seconds"] / seconds, 2),
        "closed_count": len(closes), "closed_early": closes[:5],
    }


def _play_summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    """serverbench's ``/play`` players: their move to the other person's ``news``."""
    return {**_latency([x for r in results for x in r["latencies"]]),
            "moves": sum(r["moves"] for r in results),
            "refusals": sum(len(r["refusals"]) for r in results),
            "closed_count": sum(len(r["closes"]) for r in results)}
