"""One measured run: a server, its client processes, the measured window, and the figures summed up."""

from __future__ import annotations

import multiprocessing
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from serverbench.clients import client_process
from serverbench.process import Server


def run(load: str, tables: int, seconds: float, clients: int, computer_share: float, warm: float,
        advance: int = 0, profile: Path | None = None, watch_gc: bool = False,
        threshold: str | None = None) -> dict[str, Any]:
    """One server, ``tables`` tables of the given load, measured for ``seconds`` after ``warm`` seconds."""
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory(prefix="bench-server-") as folder:
        server = Server(Path(folder) / "data", profile, watch_gc, threshold)
        try:
            warmup = _clients(context, server.port, [60_000, 60_001], {60_001}, "full", 0, 1)
            _measure(warmup, 2.0, 0.0)
            base_rss = server.rss_bytes()
            every = list(range(tables))
            computers = set(every[::round(1 / computer_share)] if computer_share > 0 else [])
            started = time.monotonic()
            pipes = _clients(context, server.port, every, computers, load, advance, clients)
            setup_seconds = time.monotonic() - started
            cpu = {}

            def at_start() -> None:
                cpu["start"], cpu["loop"] = server.cpu_seconds(), server.cpu_seconds(loop_only=True)

            results = _measure(pipes, seconds, warm, at_start)
            cpu_share = (server.cpu_seconds() - cpu["start"]) / seconds
            loop_share = (server.cpu_seconds(loop_only=True) - cpu["loop"]) / seconds
            rss = server.rss_bytes()
        finally:
            err = server.stop()
    found = _summary(load, tables, len(computers), seconds, results, cpu_share, rss, base_rss, setup_seconds, err)
    found["server_loop_cpu_share"] = round(loop_share, 2)
    return found


def _clients(context: Any, port: int, numbers: list[int], computers: set[int], load: str, advance: int,
             count: int) -> list[tuple[Any, Connection]]:
    started = []
    for index in range(count):
        mine = numbers[index::count]
        ours, theirs = context.Pipe()
        process = context.Process(target=client_process, args=(port, mine, computers & set(mine), load, advance,
                                                                    theirs))
        process.start()
        started.append((process, ours))
    for _, pipe in started:
        message = pipe.recv()
        assert message[0] == "ready", message
    return started


def _measure(started: list[tuple[Any, Connection]], seconds: float, warm: float,
             at_start: Any = None) -> list[dict[str, Any]]:
    now = time.monotonic()
    measure_at = now + warm
    for _, pipe in started:
        pipe.send(("go", measure_at, measure_at + seconds))
    time.sleep(max(0.0, measure_at - time.monotonic()))
    if at_start is not None:
        at_start()
    time.sleep(max(0.0, measure_at + seconds - time.monotonic()))
    results = []
    for process, pipe in started:
        message = pipe.recv()
        assert message[0] == "done", message
        results.append(message[1])
        process.join()
    return results


def _summary(load: str, tables: int, computers: int, seconds: float, results: list[dict[str, Any]],
             cpu_share: float, rss: int, base_rss: int, setup_seconds: float, err: str) -> dict[str, Any]:
    latencies = sorted(x for r in results for x in r["latencies"])
    total = {key: sum(r[key] for r in results) for key in ("moves", "computer_moves", "news_bytes", "news_count",
                                                           "view_bytes", "view_count", "bucket_waits", "matches")}
    moves = total["moves"] + total["computer_moves"]
    refusals = [s for r in results for s in r["refusals"]]
    closes = [s for r in results for s in r["closes"]]

    def ms(fraction: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(len(latencies) * fraction))] * 1000, 1) \
            if latencies else float("nan")

    return {
        "load": load, "tables": tables, "computer_tables": computers, "seconds": seconds,
        "setup_seconds": round(setup_seconds, 1),
        "person_moves": total["moves"], "moves_per_second": round(moves / seconds, 1),
        "latency_samples": len(latencies),
        "median_ms": round(statistics.median(latencies) * 1000, 1) if latencies else float("nan"),
        "p99_ms": ms(0.99), "most_ms": ms(1.0),
        "server_cpu_share": round(cpu_share, 2),
        "clients_cpu_share": round(sum(r["cpu_seconds"] for r in results) / seconds, 2),
        "rss_mb": round(rss / 2**20, 1), "rss_per_table_kb": round((rss - base_rss) / tables / 1024, 1),
        "view_bytes_mean": round(total["view_bytes"] / max(1, total["view_count"])),
        "view_bytes_most": max(r["view_most"] for r in results),
        "news_bytes_mean": round(total["news_bytes"] / max(1, total["news_count"])),
        "bytes_per_move": round((total["view_bytes"] + total["news_bytes"]) / max(1, moves)),
        "bucket_waits": total["bucket_waits"], "matches_ended": total["matches"],
        "refusals": sorted(set(refusals))[:5], "refusal_count": len(refusals),
        "closed_early": closes[:5], "closed_count": len(closes),
        "gc_pauses": _pauses(err),
        "server_errors": [line for line in err.strip().splitlines() if not line.startswith("gc ")][-5:],
    }



def _pauses(err: str) -> dict[str, Any]:
    """The garbage collections of 10 ms or more that the server wrote (with ``--gc``): count, total, most, and
    the objects they freed (found only in cycles: what reference counting frees is not among them)."""
    found: dict[str, list[float]] = {}
    freed: dict[str, int] = {}
    for line in err.splitlines():
        if line.startswith("gc "):
            _, generation, seconds, collected = line.split()
            found.setdefault(generation, []).append(float(seconds))
            freed[generation] = freed.get(generation, 0) + int(collected)
    return {f"generation {g}": {"count": len(p), "total_ms": round(sum(p) * 1000), "most_ms": round(max(p) * 1000),
                                "objects_freed": freed[g]} for g, p in sorted(found.items())}

