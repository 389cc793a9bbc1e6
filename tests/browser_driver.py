"""Drive the browser page for real: Debian's headless Chromium through Selenium 4 and Debian's chromedriver.

`browser` is a module-scoped fixture (one Chromium per test module, a fresh profile in a temporary folder); its
`Browser` reads the page's live region, presses keys on the game area, waits for a sentence, writes screenshots and
runs axe-core. Selenium Manager is never asked to find or download anything: the driver and the browser are given
by path (``/usr/bin/chromedriver`` and ``/usr/bin/chromium``, or ``$AUDIOCRIB_CHROMEDRIVER`` and
``$AUDIOCRIB_CHROMIUM``).

The tests skip where Chromium, chromedriver or axe-core is missing, and fail instead under CI (``CI`` set), as the
speech tests do: CI installs them (``.ci/run``: ``apt-get install chromium chromium-driver``, and ``npm ci`` in
``tests/browser/`` for axe-core).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager, should anything ever call it: no network

CHROMIUM = Path(os.environ.get("AUDIOCRIB_CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("AUDIOCRIB_CHROMEDRIVER", "/usr/bin/chromedriver"))
HERE = Path(__file__).resolve().parent
AXE = Path(os.environ.get("AUDIOCRIB_AXE", HERE / "browser" / "node_modules" / "axe-core" / "axe.min.js"))
SCREENSHOTS = Path(os.environ.get("AUDIOCRIB_SCREENSHOTS", HERE / "browser" / "screenshots"))
"""Where screenshots go (git-ignored by ``tests/browser/.gitignore``)."""

DESKTOP = (1280, 900)
PHONE = (390, 844)
SIZES = {"desktop": DESKTOP, "phone": PHONE}

GAME_AREA = '[role="application"]'
"""The page's game area: the one element that takes the game's keys."""
LIVE_REGION = '[role="log"][aria-live]'
"""The page's live region: each announcement is added to it as a new span (in a paragraph)."""

TYPED_AHEAD = "came before you heard the"
"""What the session says of a move key pressed too soon after news (its typed-ahead guard), to press it again."""

OPTIONS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--disable-dev-shm-usage", "--mute-audio")

KEYS: dict[str, str] = {
    "escape": Keys.ESCAPE, "f1": Keys.F1, "f2": Keys.F2, "left": Keys.ARROW_LEFT, "right": Keys.ARROW_RIGHT,
    "up": Keys.ARROW_UP, "down": Keys.ARROW_DOWN, "home": Keys.HOME, "end": Keys.END, "enter": Keys.ENTER,
    "space": Keys.SPACE, "backspace": Keys.BACKSPACE, "tab": Keys.TAB,
}
"""The session's key names that are not a single character, as Selenium types them."""

CDP_KEYS: dict[str, tuple[str, str, int]] = {
    "left": ("ArrowLeft", "ArrowLeft", 37), "right": ("ArrowRight", "ArrowRight", 39),
    "up": ("ArrowUp", "ArrowUp", 38), "down": ("ArrowDown", "ArrowDown", 40),
    "enter": ("Enter", "Enter", 13), "space": (" ", "Space", 32), "escape": ("Escape", "Escape", 27),
}
"""Key names as the DevTools protocol dispatches them (key, code, virtual key code), for holding a key down."""

# Records every announcement added to the live region, from what is in it now on, in one synchronous script (so
# nothing added between reading it and observing it is lost). The page adds each announcement as a span, at the end
# of a paragraph of the region or in a new one. Texts go to window.__heard with the time (performance.now()) each was
# seen, in __heardAt.
RECORD = """
const region = document.querySelector(arguments[0]);
if (!region) { return false; }
if (window.__heardObserver) { window.__heardObserver.disconnect(); }
const lines = (node) => node.tagName === 'SPAN' ? [node.textContent]
  : Array.from(node.querySelectorAll('span'), (e) => e.textContent);
window.__heard = Array.from(region.children).flatMap(lines);
window.__heardAt = window.__heard.map(() => performance.now());
window.__heardObserver = new MutationObserver((records) => {
  const now = performance.now();
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType === Node.ELEMENT_NODE && region.contains(node)) {
        for (const text of lines(node)) { window.__heard.push(text); window.__heardAt.push(now); }
      }
    }
  }
});
window.__heardObserver.observe(region, {childList: true, subtree: true});
return true;
"""

# Before any of the page's own scripts, on every load: keep each frame the page's WebSocket receives (parsed, in
# window.__frames, a burst's messages one by one) and sends (in window.__sent), so a test can see the "screen" the
# gateway describes and the keys the page sends. Added through the DevTools protocol, which the page's Content
# Security Policy does not govern.
FRAMES = """
(() => {
  const Socket = window.WebSocket;
  window.__frames = [];
  window.__sent = [];
  // a burst comes as one frame holding a list: each of its messages is kept in order
  const keep = (list, data) => {
    try { const got = JSON.parse(data); list.push(...(Array.isArray(got) ? got : [got])); }
    catch (e) { list.push({type: '?', data}); }
  };
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => keep(window.__frames, event.data));
    }
    send(data) { keep(window.__sent, data); return super.send(data); }
  };
})();
"""

CAUGHT_UP = """
const told = document.querySelectorAll('#live span');
const shown = document.querySelectorAll('#log li');
return shown.length === 0 || (told.length > 0
  && told[told.length - 1].textContent === shown[shown.length - 1].textContent);
"""
"""True when the live region has been told the visible log's newest line."""

AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(
  (r) => done(r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
                                         nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary)}))),
  (e) => done([{id: 'axe-error', impact: 'critical', help: String(e), nodes: []}]));
"""


def require(*paths: Path, why: str) -> None:
    """Skip the calling test where one of ``paths`` is missing; under CI (``CI`` set), fail instead."""
    missing = [str(path) for path in paths if not path.exists()]
    if not missing:
        return
    message = f"{', '.join(missing)} not found ({why})."
    if os.environ.get("CI"):
        pytest.fail(message + " CI must run these tests.")
    pytest.skip(message)


def require_browser() -> None:
    require(CHROMIUM, CHROMEDRIVER, why="apt-get install chromium chromium-driver")


def require_axe() -> None:
    require(AXE, why="cd tests/browser && npm ci")


def wait_until(test: Callable[[], Any], what: str, timeout: float = 10.0, every: float = 0.02) -> Any:
    """Poll ``test()`` until it returns something true (returned), or fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        result = test()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s in vain for {what}")
        time.sleep(every)


class Browser:
    """One headless Chromium with a fresh profile in ``profile``. Close it with `quit`."""

    def __init__(self, profile: Path) -> None:
        require_browser()
        options = webdriver.ChromeOptions()
        options.binary_location = str(CHROMIUM)
        for option in OPTIONS:
            options.add_argument(option)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
        self.driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
        self.driver.set_script_timeout(30)
        self.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FRAMES})
        self.mark = 0
        """Where `hears` starts looking: what was heard from the last `press` on."""
        self.moved_on, self.moved_at = "", 0
        """The screen `move` last answered, and how many frames had come when it had."""

    def quit(self) -> None:
        self.driver.quit()

    # -- the page --------------------------------------------------------------------------------------------

    def open(self, url: str, wait: bool = True) -> None:
        """Load ``url``; with ``wait``, until its live region exists and record what it is told from then on."""
        self.driver.get(url)
        if wait:
            self.record()

    def reload(self) -> None:
        """Reload the page (as F5 would) and record its live region again."""
        self.driver.refresh()
        self.record()

    def forget(self) -> None:
        """Clear what the page keeps in localStorage (the token, the name, the settings)."""
        self.driver.execute_script("localStorage.clear();")

    def record(self) -> None:
        """Start recording the live region's new elements (after a load or reload)."""
        wait_until(lambda: self.driver.execute_script(RECORD, LIVE_REGION), "the live region")
        self.mark = 0
        self.moved_on, self.moved_at = "", 0

    def size(self, which: str) -> None:
        """Set the window to the ``"desktop"`` or ``"phone"`` size."""
        width, height = SIZES[which]
        self.driver.set_window_size(width, height)

    def script(self, source: str, *args: Any) -> Any:
        return self.driver.execute_script(source, *args)

    # -- what the live region said ---------------------------------------------------------------------------

    @property
    def heard(self) -> list[str]:
        """Every text added to the live region since the page was (re)loaded, in order."""
        heard = self.driver.execute_script("return window.__heard || [];")
        assert isinstance(heard, list)
        return [str(text) for text in heard]

    def live_texts(self) -> list[str]:
        """The texts in the live region now (the page may keep only the latest)."""
        texts = self.driver.execute_script(
            "const r = document.querySelector(arguments[0]);"
            "return r ? Array.from(r.children, (e) => e.textContent) : [];", LIVE_REGION)
        return [str(text) for text in texts]

    def hears(self, sentence: str | Callable[[str], bool] | re.Pattern[str], timeout: float = 10.0) -> str:
        """Wait until the live region is told ``sentence`` (a text, a test or a pattern) since the last `press`."""
        if isinstance(sentence, str):
            test: Callable[[str], bool] = sentence.__eq__
        elif isinstance(sentence, re.Pattern):
            pattern = sentence
            test = lambda text: pattern.search(text) is not None  # noqa: E731
        else:
            test = sentence

        def found() -> str | None:
            return next((text for text in self.heard[self.mark:] if test(text)), None)

        try:
            return str(wait_until(found, f"{sentence!r}", timeout))
        except AssertionError as error:
            raise AssertionError(f"{error}; last heard: {self.heard[-8:]}") from None

    def frames(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The frames the page's socket received since the page was loaded (of type ``kind``, if given)."""
        frames = self.driver.execute_script("return window.__frames || [];")
        return [frame for frame in frames if kind is None or frame.get("type") == kind]

    def sent(self, kind: str | None = None) -> list[dict[str, Any]]:
        """The frames the page sent on its socket since it was loaded (of type ``kind``, if given)."""
        frames = self.driver.execute_script("return window.__sent || [];")
        return [frame for frame in frames if kind is None or frame.get("type") == kind]

    def screen(self) -> dict[str, Any]:
        """The last "screen" the gateway sent (empty before the first)."""
        screen = self.driver.execute_script(
            "const s = (window.__frames || []).filter((f) => f.type === 'screen'); return s[s.length - 1] || {};")
        assert isinstance(screen, dict)
        return screen

    # -- keys ------------------------------------------------------------------------------------------------

    def game_area(self) -> Any:
        return self.driver.find_element("css selector", GAME_AREA)

    def focus_game(self) -> None:
        self.driver.execute_script("document.querySelector(arguments[0]).focus();", GAME_AREA)

    def caught_up(self, timeout: float = 1.0) -> bool:
        """Wait (``timeout`` at most) until the live region has been told the visible log's newest line: the page
        gives it the announcements that come in a quick run together, a moment after the log shows them."""
        deadline = time.monotonic() + timeout
        while not self.driver.execute_script(CAUGHT_UP):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def press(self, *keys: str, wait: bool = True, timeout: float = 10.0) -> list[str]:
        """Press ``keys`` on the game area (session key names: "enter", "c", "?"), each once the last was answered
        (with ``wait``: something new in the live region); what the live region was told meanwhile."""
        self.focus_game()
        self.caught_up()
        before = self.mark = len(self.heard)
        for key in keys:
            count = self.answers()
            ActionChains(self.driver).send_keys(KEYS.get(key, key)).perform()
            if wait:
                wait_until(lambda count=count: self.answers() > count, f"an answer to the key {key!r}", timeout)
                self.caught_up()
        return self.heard[before:]

    def answers(self) -> int:
        """How many answers the page was given: texts in the live region and sound cues (a burst of refused keys
        is answered by the cue alone)."""
        count = self.driver.execute_script(
            "return (window.__heard || []).length"
            " + (window.__frames || []).filter((f) => f.type === 'cue').length;")
        assert isinstance(count, int)
        return count

    def settle(self, quiet: float = 0.15, timeout: float = 10.0) -> list[str]:
        """Wait until nothing new has come to the live region for ``quiet`` seconds; what came since the last
        `press`."""
        deadline = time.monotonic() + timeout
        self.caught_up()
        count, since = len(self.heard), time.monotonic()
        while time.monotonic() - since < quiet:
            assert time.monotonic() < deadline, f"the live region never went quiet: {self.heard[-5:]}"
            time.sleep(0.02)
            if (now := len(self.heard)) != count:
                count, since = now, time.monotonic()
        return self.heard[self.mark:]

    def type_line(self, text: str, timeout: float = 10.0) -> None:
        """Type ``text`` and Enter into the page's text box, once the gateway asked for a line (the "screen" has
        "typing") and the page put focus on the text box."""
        wait_until(lambda: self.screen().get("typing") and self.script(
            "const e = document.activeElement; return e && e.tagName === 'INPUT';"), "the text box", timeout)
        self.mark = len(self.heard)
        box = self.driver.switch_to.active_element
        box.send_keys(text + Keys.ENTER)

    def choose(self, item: str, tries: int = 30) -> list[str]:
        """In the menu on screen, go down to the item whose words start with ``item`` and press Enter; what the
        live region was told for Enter."""
        self.go_to(item, tries)
        return self.press("enter")

    def go_to(self, item: str, tries: int = 30) -> None:
        """In the menu on screen, go down to the item whose words start with ``item``."""
        screen = self.screen()
        menu = screen.get("menu") or {}
        items = menu.get("items") or []
        if not (items and items[menu.get("current", 0) % len(items)].startswith(item)):
            for _ in range(tries):
                said = self.press("down")
                if any(text.startswith(item) for text in said):
                    break
            else:
                raise AssertionError(f"no item {item!r} in the menu; last heard: {self.heard[-5:]}")

    def move(self) -> bool:
        """Answer the question the game asks the page's player now, if it asks one: lay away the first cards,
        play the first card that can be played, Enter at a pause for review. A question is answered once, unless
        the screen changed since (a new question) or the socket brought something more (asked again after a
        refusal). True if it moved."""
        frames = self.frames()
        screens = [frame for frame in frames if frame.get("type") == "screen"]
        if not screens:
            return False
        screen = screens[-1]
        mode, hand = screen.get("mode"), screen.get("hand") or []
        seen = repr((mode, hand, screen.get("status")))
        if mode != "review" and seen == self.moved_on and len(frames) <= self.moved_at:
            return False
        if mode == "discard":
            marked = [i for i, card in enumerate(hand) if card["marked"]]
            need = len(hand) - 4
            keys = [str(i + 1) for i in marked] + [str(i + 1) for i in range(need)] + ["enter"]
        elif mode == "play":
            playable = [i for i, card in enumerate(hand) if card.get("playable")]
            if not playable:
                return False
            keys = [str(playable[0] + 1), "enter"]
        elif mode == "review":
            keys = ["enter"]
        else:
            return False
        for key in keys:
            for _ in range(5):
                said = self.press(key)
                if not any(TYPED_AHEAD in text for text in said):
                    break
                time.sleep(0.5)  # the session ignores a move key pressed within a second of news (typed_ahead)
        self.settle(0.1)
        self.moved_on, self.moved_at = seen, len(self.frames())
        return True

    def hold(self, key: str, seconds: float | None = None, rate: float = 33.0, count: int | None = None) -> int:
        """Hold ``key`` down for ``seconds``, or for ``count`` keydown events (however long a loaded machine
        takes to send them): a keydown, then repeats at ``rate`` a second as a keyboard sends them (event.repeat
        true), then the keyup; the number of keydown events sent."""
        assert (seconds is None) != (count is None), "hold for seconds or for a count of keydowns"
        self.focus_game()
        if key in CDP_KEYS:
            name, code, number = CDP_KEYS[key]
        else:
            name, code, number = key, f"Key{key.upper()}" if key.isalpha() else "", ord(key.upper())
        text = {"key": name, "code": code, "windowsVirtualKeyCode": number, "nativeVirtualKeyCode": number}
        if len(name) == 1:
            text["text"] = name
        sent, end = 0, time.monotonic() + (seconds or 0.0)
        while True:
            self.driver.execute_cdp_cmd("Input.dispatchKeyEvent",
                                        {"type": "keyDown" if "text" in text else "rawKeyDown", **text,
                                         "autoRepeat": sent > 0})
            sent += 1
            if sent == count if count is not None else time.monotonic() > end:
                break
            time.sleep(1 / rate)
        self.driver.execute_cdp_cmd("Input.dispatchKeyEvent", {"type": "keyUp", **text})
        return sent

    # -- screenshots and axe-core ----------------------------------------------------------------------------

    def screenshot(self, name: str) -> Path:
        """Write a PNG of the window as ``name`` (letters, digits, dashes) in the screenshots folder."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{re.sub(r'[^A-Za-z0-9_-]+', '-', name)}.png"
        assert self.driver.save_screenshot(str(path)), path
        return path

    def screenshots(self, name: str) -> list[Path]:
        """Screenshots of the page now at the desktop and phone sizes (``name-desktop.png``, ``name-phone.png``);
        the window is left at the desktop size."""
        paths = []
        for which in ("phone", "desktop"):
            self.size(which)
            paths.append(self.screenshot(f"{name}-{which}"))
        return paths

    def axe(self) -> list[dict[str, Any]]:
        """Run axe-core on the page now; its violations of impact serious or critical (each with its id, help
        and the elements at fault)."""
        require_axe()
        if not self.driver.execute_script("return typeof axe !== 'undefined';"):
            self.driver.execute_script(AXE.read_text(encoding="utf-8"))
        violations = self.driver.execute_async_script(AXE_RUN)
        return [v for v in violations if v["impact"] in ("serious", "critical")]


@pytest.fixture(scope="module", name="browser")
def browser_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless Chromium for the test module (skipped where missing, failed under CI)."""
    require_browser()
    opened = Browser(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield opened
    finally:
        opened.quit()
