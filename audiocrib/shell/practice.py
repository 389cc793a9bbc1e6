"""Practice: the glue between the practice menu and the drills (`audiocrib.shell.drills`)."""

from __future__ import annotations

from audiocrib.shell.core import SessionCore
from audiocrib.shell.keys import Mode


class Practice(SessionCore):
    """The practice menu's choices: the drills, the figures, and the review."""

    def _practice_choose(self, item: str) -> None:
        if self.drills.change(item, 1):
            self.say(f"{self._item_text(item)}.")
        elif self.drills.starts(item):
            self.mode = Mode.DRILL
            self.drills.start(self.drills.starts(item) or "")
            self._note_news()
        elif item == "figures":
            for line in self.drills.figures():
                self.say(line)
        elif item == "review":
            first, *rest = self.drills.review()
            self._say_pages(first, rest)
        else:
            self._enter_menu(Mode.MAIN, "Main menu: ")
