"""The screen a browser's session sends: read once a view (`ScreenMemo`), it is still the screen as it stands after
every key and every piece of news, at every moment of a real match played through the page's socket."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

import audiocrib.web.websession as websession
from audiocrib.server.app import Server, make_app
from audiocrib.server.serve import STORE_FILE
from audiocrib.server.store import Store
from audiocrib.shell.session import Session
from audiocrib.web.routes import add_pages
from audiocrib.web.screen import ScreenMemo, describe
from tests.web_client import Page, make_table, play_match, sign_in

QUESTIONS = ("s", "t", "b", "v", "c", "h", "left", "right", "space")
"""Keys that answer a question or move about the hand: the view stays the same, the screen may not."""


def test_the_screen_read_once_a_view_is_the_screen_afresh_at_every_turn_of_a_match(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    differences: list[tuple[dict[str, Any], dict[str, Any]]] = []
    kept_views = 0

    def checked(session: Session, memo: ScreenMemo | None = None) -> dict[str, Any]:
        nonlocal kept_views
        if memo is not None and session.table is not None and memo.view is not None:
            try:
                kept_views += memo.view is session.view()
            except LookupError:  # no view yet
                pass
        shown = describe(session, memo)
        afresh = describe(session)
        if shown != afresh:
            differences.append((shown, afresh))
        return afresh

    monkeypatch.setattr(websession, "describe", checked)
    rng = random.Random(26)

    async def script() -> None:
        with Store(tmp_path / STORE_FILE) as store:
            runner = web.AppRunner(make_app(Server(store), add_pages))
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            page = Page(runner.addresses[0][1])
            try:
                await sign_in(page, "Ida")
                await make_table(page)

                async def question(page: Page) -> bool:  # a question or a move about the hand, answered
                    if rng.random() >= 0.5:
                        return False
                    mark = len(page.got)
                    await page.key(rng.choice(QUESTIONS))
                    await page.hears(lambda said: True, since=mark)
                    return True

                await play_match(page, between=question)
            finally:
                await page.close()
                await runner.cleanup()

    asyncio.run(script())
    assert not differences, differences[0]
    assert kept_views > 50, kept_views  # most turns found their view read already
