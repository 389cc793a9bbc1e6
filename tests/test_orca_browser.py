"""Heard through a real screen reader: Orca reading the browser page in Chromium (`tests.screenreader_browser`), on a
real ``audiocrib serve`` over loopback.

Keys are pressed with xdotool into Chromium's window, as a player would. After every key, what Orca said (its key
echo and the few words it says of its own, named in each step) must be exactly the announcements the page was given
for that key, in order, each once: the page's visible log, one line per announcement as the session said it, is the
measure. And the keys must reach the game in Orca's own mode: a letter answered by the game, never by Orca's quick
navigation ("No more combo boxes.").
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from audiocrib.shell.keys import BROWSER_HELP_KEY, does_nothing, welcome
from tests.screenreader import run_desktop
from tests.screenreader_browser import BrowserDesktop, Chromium, require_chromium
from tests.test_serve import Running

pytestmark = [pytest.mark.xdist_group("screenreader"), pytest.mark.slow]

_ECHO = re.compile(r"(return|escape|space|tab|backspace|home|end|left shift|F\d+|[a-z0-9]|\W)", re.IGNORECASE)
"""What Orca says of the keys themselves (its key echo): not the game's words."""
BROWSE = re.compile(r"Browse mode|No more |Wrapping to|heading level|embedded")
"""What Orca says in browse mode (its quick navigation, Say All of the page) or of the game area as it was."""
LOADING = ("Chromium frame.", "audiocrib - Chromium frame.", "Loading. Please wait.", "Finished loading audiocrib.",
           "Focus mode", "audiocrib game.")
"""What Orca says of its own as the page loads: the page's name, and Orca's focus mode for the game area."""
TYPED_AHEAD = "came before you heard the"
"""The session's answer to a move key pressed too soon after news: pressed again."""


def _words(text: str) -> str:
    return " ".join(text.split())


class Page:
    """The page in Chromium on the desktop, with Orca reading it; `step` presses keys and returns what the page was
    told and what Orca said."""

    def __init__(self, desktop: BrowserDesktop, folder: Path, url: str) -> None:
        self.desktop = desktop
        self.mark = desktop.quiet(0.5)
        self.chromium = Chromium(desktop, folder, url)
        self.shown = 0
        """How many lines of the visible log were measured already."""

    def log(self) -> list[str]:
        return self.chromium.log()

    def wait_logged(self, count: int, what: str, timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while len(self.log()) < count:
            if time.monotonic() > end:
                raise AssertionError(f"the page was told no {what} in {timeout} s: {self.log()[self.shown:]}")
            time.sleep(0.05)

    def heard_for_step(self, typed: str = "") -> tuple[list[str], list[str]]:
        """Wait for Orca to say the newest line the page was told, then for quiet (and again while more comes);
        returns (told, heard): the log's new lines, and what Orca said meanwhile but for its key echo (and the echo
        of the letters ``typed``)."""
        while True:
            told = self.log()[self.shown:]
            if told:
                try:
                    self.desktop.wait_for(_words(told[-1])[-40:], after=self.mark, timeout=20)
                except AssertionError:  # not said at all: the comparison says what was
                    pass
            self.desktop.quiet(1.0)
            if self.log()[self.shown:] == told:
                break
        self.shown += len(told)
        now = self.desktop.mark()
        heard = [said for said in self.desktop.since(self.mark).utterances[: now - self.mark]
                 if not _ECHO.fullmatch(said.strip()) and not (typed and said.strip() in typed)]
        self.mark = now
        return told, heard

    def step(self, *keys: str, typed: str = "", expect: int = 1) -> tuple[list[str], list[str]]:
        """Press ``keys`` (xdotool's names) or type ``typed``, wait for at least ``expect`` new lines in the log;
        returns (told, heard) as `heard_for_step`."""
        self.mark = self.desktop.mark()
        if typed:
            self.chromium.type(typed)
        self.chromium.keys(*keys, gap=0.1)
        self.wait_logged(self.shown + expect, f"answer to {keys or typed}")
        time.sleep(0.3)  # the rest of the key's burst, and a computer player's move paced after it
        return self.heard_for_step(typed)

    def reload(self, forget: bool = False) -> tuple[list[str], list[str]]:
        """F5 (after clearing what the page keeps, with ``forget``); what the new page was told and Orca said."""
        loaded = self.chromium.evaluate("performance.timeOrigin")
        if forget:
            self.chromium.evaluate("Storage.prototype.setItem = function () {}; localStorage.clear(); 1")
        self.mark = self.desktop.mark()
        self.chromium.keys("F5")
        end = time.monotonic() + 30
        while self.chromium.evaluate("performance.timeOrigin") == loaded:
            assert time.monotonic() < end, "the page did not reload"
            time.sleep(0.05)
        self.shown = 0
        self.wait_logged(2, "announcement after the reload")
        time.sleep(0.5)
        return self.heard_for_step()

    def move(self, step: str, *keys: str, expect: int = 1) -> tuple[list[str], list[str]]:
        """A move key (a card's digit, Enter): pressed again while the session takes it for typed ahead."""
        for _ in range(4):
            told, heard = self.step(*keys, expect=expect)
            if not any(TYPED_AHEAD in line for line in told):
                return told, heard
            time.sleep(1.0)
        raise AssertionError(f"{step}: the move was never taken: {told}")

    def close(self) -> None:
        self.chromium.close()


def assert_heard_once(step: str, told: list[str], heard: list[str], *own: str) -> None:
    """What Orca said is exactly what the page was told (and Orca's own words ``own``, where it says them): every
    line, in order, once; nothing of browse mode."""
    said = [utterance for utterance in heard if _words(utterance) not in own]
    assert _words(" ".join(said)) == _words(" ".join(told)), f"{step}: the page was told {told} but Orca said {heard}"
    assert not any(BROWSE.search(utterance) for utterance in heard), f"{step}: Orca said {heard}"


@pytest.fixture(scope="module")
def desktop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BrowserDesktop]:
    yield from run_desktop(BrowserDesktop(tmp_path_factory.mktemp("desktop")), require_chromium)


@pytest.fixture(scope="module")
def page(desktop: BrowserDesktop, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    """The page opened afresh (a new profile: nothing kept) on a server of the module's own, heard from the moment
    Chromium starts."""
    folder = tmp_path_factory.mktemp("orca-browser")
    server = Running(folder / "data")
    opened = None
    try:
        opened = Page(desktop, folder, f"http://127.0.0.1:{server.port}/")
        yield opened
    finally:
        if opened is not None:
            opened.close()
        server.stop()


def test_the_page_opens_in_focus_mode_and_the_name_is_typed_whole(page: Page) -> None:
    # A player types the name as soon as Orca asks for it.
    asked = page.desktop.wait_for("Type the name the others will hear", after=page.mark)
    heard = page.desktop.since(page.mark).utterances[: asked - page.mark]
    told = page.log()
    assert told[0] == welcome(BROWSER_HELP_KEY) and told[1].startswith("Type the name"), told
    # Orca says the page is loaded and where the focus is; then the page's words, each once, in order.
    assert_heard_once("the page opens", told[:2], heard, *LOADING, "Page has 1 form.", "form",
                      "Your name entry.", "leaving form.", "leaving region.")
    page.shown, page.mark = 2, asked
    told, heard = page.step("Return", typed="ann", expect=3)
    assert told[0] == "Connecting to this server, as ann. Escape stops.", told
    # The focus goes back to the game area, and Orca says so.
    assert_heard_once("the name and Enter", told, heard, "leaving form.", "leaving region.", "audiocrib game.")
    assert told[-1].startswith("Create a table."), told
    for key in ("Down", "c", "Up"):
        told, heard = page.step(key)
        assert_heard_once(key, told, heard)
    assert told[-1] == does_nothing("c", BROWSER_HELP_KEY) or told[-1].startswith("Create a table."), told
    told, heard = page.step("F1")
    assert told[0].startswith("You are in the lobby."), told
    assert_heard_once("F1", told, heard)


def test_a_reload_is_heard_once_in_order_and_keeps_focus_mode(page: Page) -> None:
    told, heard = page.reload()
    assert told[0] == welcome(BROWSER_HELP_KEY), told
    assert_heard_once("the reload", told, heard, *LOADING)
    for key in ("c", "c", "Down"):
        told, heard = page.step(key)
        assert_heard_once(f"{key} after the reload", told, heard)
    assert told == ["Join a table by its code. 2 of 11."], told


def tab_to(page: Page, key: str, words: str) -> list[str]:
    """Press Tab (or Shift Tab) and wait for Orca to say ``words`` of where the focus went; what it said."""
    page.chromium.keys(key)
    page.desktop.wait_for(words, after=page.mark)
    mark = page.desktop.quiet(1.0)
    heard = [said for said in page.desktop.since(page.mark).utterances[: mark - page.mark]
             if not _ECHO.fullmatch(said.strip())]
    page.mark = mark
    assert not any(BROWSE.search(said) for said in heard), heard
    return heard


def test_the_buttons_keep_focus_mode(page: Page) -> None:
    heard = tab_to(page, "Tab", "push button")
    assert heard[-1].endswith("push button."), heard
    told, heard = page.step("c")
    assert_heard_once("c on a menu button", told, heard)
    assert told == [does_nothing("c", BROWSER_HELP_KEY)]
    told, heard = page.step("Down")
    assert_heard_once("Down on a menu button", told, heard)
    tab_to(page, "shift+Tab", "audiocrib game")


def test_a_whole_deal_and_the_question_keys_are_read_once_in_order(page: Page) -> None:
    told, heard = page.step("Home")
    told, heard = page.step("Return")
    assert told[-1].startswith("New table: Seats for people: 2 of 2"), told
    assert_heard_once("Create a table", told, heard)
    told, heard = page.step("Left")
    assert_heard_once("one seat for a person", told, heard)
    told, heard = page.step("End")
    assert told[-1].startswith("Create the table"), told
    told, heard = page.step("Return", expect=2)
    assert_heard_once("Create the table", told, heard)
    told, heard = page.step("Return", expect=3)
    assert_heard_once("Start the game", told, heard)
    assert any(line.startswith("Deal one") for line in told), told
    for key in ("c", "b", "f", "v", "s", "t"):
        told, heard = page.step(key)
        assert_heard_once(key, told, heard)
    # On a card's button (Tab), Orca stays in focus mode: the letters are the game's.
    heard = tab_to(page, "Tab", "toggle button")
    told, heard = page.step("b")
    assert_heard_once("b on a card", told, heard)
    assert told == ["The crib is yours."] or told[0].startswith("The crib is"), told
    tab_to(page, "shift+Tab", "audiocrib game")
    for key in ("1", "2"):
        told, heard = page.move(f"mark {key}", key)
        assert_heard_once(f"mark {key}", told, heard)
    told, heard = page.move("lay away", "Return", expect=2)
    assert_heard_once("lay away", told, heard)
    for _ in range(12):
        if any("next deal" in line for line in page.log()):
            break
        playable = page.chromium.evaluate(
            "Array.from(document.querySelectorAll('#hand button'))"
            ".findIndex((e) => e.getAttribute('aria-disabled') !== 'true')")
        if document_mode(page) != "play" or playable < 0:
            told, heard = page.step("c")
            assert_heard_once("c while the others play", told, heard)
            continue
        told, heard = page.move("go to a card", str(playable + 1))
        assert_heard_once("go to a card", told, heard)
        told, heard = page.move("play", "Return")
        assert_heard_once("play", told, heard)
        told, heard = page.step("c")
        assert_heard_once("c in the play", told, heard)
    assert any("next deal" in line for line in page.log()), page.log()[-10:]
    told, heard = page.move("the next deal", "Return", expect=3)
    assert_heard_once("the next deal", told, heard)
    assert any(line.startswith("Deal two") for line in told), told


def document_mode(page: Page) -> str:
    return str(page.chromium.evaluate("document.body.dataset.mode || ''"))
