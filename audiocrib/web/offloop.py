"""The coach of a browser's session, kept off the event loop.

A browser's session runs on the event loop that serves every tab and table of the process (`audiocrib.web`). The
coach's search of the play can take tens of milliseconds (90 ms at worst in the seven-card game on the machine of
docs/benchmarks.md, "The coach in the browser"), and all that time nothing else on the loop would run: so the
session's coach works in a thread of the loop's executor, as a computer player's move does, while the session
waits for it with `wait_here` and the loop serves the others. Outside a session's task (a test calling it
directly) it works where it is called.
"""

from __future__ import annotations

import asyncio
import functools

from audiocrib.client.awaiting import in_shell_task, wait_here
from audiocrib.coach import Advice, Coach
from audiocrib.engine.views import PlayerView
from audiocrib.shell.session import Session

__all__ = ["BrowserSession", "OffLoopCoach"]


class OffLoopCoach(Coach):
    """A `Coach` whose advice (and so the reviews' weighing of each decision) is worked out off the event loop
    when asked from a session's task. The session waits for it, so its expert is never used by two at once."""

    def advise(self, view: PlayerView) -> Advice | None:
        if not in_shell_task():
            return super().advise(view)
        work = functools.partial(Coach.advise, self, view)
        return wait_here(asyncio.get_running_loop().run_in_executor(None, work))


class BrowserSession(Session):
    """The shell `Session` of a browser's tab: the same session, with its coach off the event loop, weighing a
    deal's decisions only when the player asks for a review (the server pays for every tab's coach)."""

    weighs_every_deal = False

    def _coach_begin(self) -> None:
        super()._coach_begin()
        self.notebook.coach = OffLoopCoach(self.notebook.coach.expert)
