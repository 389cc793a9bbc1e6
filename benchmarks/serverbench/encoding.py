"""The server's work for each move of whole matches, timed part by part in this process (``--load encoding``)."""

from __future__ import annotations

import dataclasses
import statistics
import time
from typing import Any


def encoding_costs(seeds: range = range(1, 6)) -> dict[str, Any]:
    """What the server does for each move of whole two-player matches (one a seed, easy players), timed in this
    process without the network: the move itself (`Game.apply`), each seat's view made twice (once for its news,
    once for the view, as `Room._news` does) and the two messages encoded. Milliseconds a move, mean over the
    matches, and the sizes."""
    from audiocrib.bots.player import load_player
    from audiocrib.engine.game import Game
    from audiocrib.engine.rules import Rules

    spent = {"apply": 0.0, "views": 0.0, "encode_view": 0.0, "encode_news": 0.0}
    sizes: list[int] = []
    moves = events = 0
    for seed in seeds:
        game = Game(Rules(), seed=seed)
        players = [load_player("easy", seed=1), load_player("easy", seed=2)]
        moves += _match_costs(game, players, spent, sizes)
        events += len(game.events)
    return {"matches": len(seeds), "moves": moves, "events": events,
            **{f"{key}_ms": round(value / moves * 1000, 3) for key, value in spent.items()},
            "bytes_per_move_mean": round(statistics.mean(sizes)),
            "bytes_per_move_most": max(sizes), "bytes_per_match": sum(sizes) // len(seeds)}


def _match_costs(game: Any, players: list[Any], spent: dict[str, float], sizes: list[int]) -> int:
    """Play ``game`` to its end, adding each part's time to ``spent`` and each move's bytes to ``sizes``."""
    from audiocrib.bots.player import next_action
    from audiocrib.online.messages import News, ViewOf, encode

    moves = 0
    while not game.over:
        seat = min(game.waiting_for())
        action = next_action(game, seat, players[seat])
        first = len(game.events)
        started = time.perf_counter()
        game.apply(action)
        spent["apply"] += time.perf_counter() - started
        moves += 1
        size = 0
        for each in range(2):
            started = time.perf_counter()
            news_events, view = game.view(each).events[first:], game.view(each)
            made = time.perf_counter()
            news = encode(News(first, tuple(news_events)))
            encoded_news = time.perf_counter()
            text = encode(ViewOf(dataclasses.replace(view, events=()), None, False))  # after a move: the state
            done = time.perf_counter()
            spent["views"] += made - started
            spent["encode_news"] += encoded_news - made
            spent["encode_view"] += done - encoded_news
            size += len(news) + len(text)
        sizes.append(size)
    return moves

