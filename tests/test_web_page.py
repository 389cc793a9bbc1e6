"""The browser page (audiocrib/web/page) for real: headless Chromium (tests/browser_driver.py) on a real
``audiocrib serve`` over loopback. The name is typed in the page's text box and the focus comes back to the game
area; keys reach the session (and the browser keeps its own: Control, Alt, F5, Tab); a held key is sent once, a
held arrow repeats; chat is shown as text and nothing runs; the live region and the visible log get the same
texts in order, and a flood leaves the newest 500; the focus is not taken from a button; the hand and the menu
are buttons with marks that are not only colour, and reflow to a phone and 200% zoom; cues and the built-in voice
follow the session's settings; quitting offers a button to start again; a reload puts the player back, and a
dropped server is shown and reconnected to; the page runs under its Content Security Policy with no fault.

What the page sends is read from the driver's record of its socket (``Browser.sent``): the frames are the page's
own, sent to the real server."""

from __future__ import annotations

import json
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.keys import Keys

from audiocrib.shell.keys import BROWSER_HELP_KEY, does_nothing, welcome
from tests.browser_driver import (  # noqa: F401 (browser_fixture: a fixture)
    DESKTOP,
    GAME_AREA,
    KEYS,
    LIVE_REGION,
    TYPED_AHEAD,
    Browser,
    browser_fixture,
    wait_until,
)
from tests.test_serve import Running

PLAYED = """
window.__played = [];
HTMLMediaElement.prototype.play = function () {
  window.__played.push([this.src, this.volume]);
  return Promise.resolve();
};
"""
"""Keeps the sound and volume of every cue the page plays from now on in ``window.__played`` (not played: the
test browser is muted anyway)."""

HOSTILE = "<img src=x onerror=alert(1)>"

pytestmark = pytest.mark.xdist_group("web_page")  # one worker, with the module's one Chromium and one server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    running = Running(tmp_path_factory.mktemp("serve") / "data")
    yield running
    if running.process.poll() is None:
        running.stop()


@pytest.fixture(scope="module")
def page(browser: Browser) -> Browser:
    """The module's one headless Chromium (the driver's fixture), as these tests call it."""
    return browser


def url(server: Running) -> str:
    return f"http://127.0.0.1:{server.port}/"


def shown(page: Browser, element: str) -> bool:
    return bool(page.script("const e = document.getElementById(arguments[0]); return !!e && !e.hidden;", element))


def focused(page: Browser) -> str:
    """The focused element: its id, or its role, or its tag."""
    return str(page.script("const e = document.activeElement;"
                           "return e.id || e.getAttribute('role') || e.tagName.toLowerCase();"))


def log_texts(page: Browser) -> list[str]:
    texts = page.script("return Array.from(document.querySelectorAll('#log li'), (e) => e.textContent);")
    return [str(text) for text in texts]


def menu(page: Browser) -> tuple[list[str], int]:
    """The menu's button texts, and the index of the one marked aria-current (-1 if none)."""
    items, current = page.script(
        "const b = Array.from(document.querySelectorAll('#menu button'));"
        "return [b.map((e) => e.textContent), b.findIndex((e) => e.getAttribute('aria-current') === 'true')];")
    return [str(item) for item in items], int(current)


def spy(page: Browser) -> None:
    """From now on, `sent` has only the frames sent after this (the driver keeps them all in ``window.__sent``)."""
    page.script("window.__sent.length = 0;")


def sent(page: Browser) -> list[dict[str, Any]]:
    return page.sent()


def click_item(page: Browser, text: str) -> None:
    """Click the menu's button whose text starts with ``text`` once it is there."""
    wait_until(lambda: any(item.startswith(text) for item in menu(page)[0]), f"the menu item {text!r}")
    page.script("Array.from(document.querySelectorAll('#menu button'))"
                ".find((e) => e.textContent.startsWith(arguments[0])).click();", text)


def type_line(page: Browser, text: str) -> None:
    """Wait for the text box to be shown and focused, type ``text`` and Enter."""
    try:
        wait_until(lambda: shown(page, "typing") and focused(page) == "line", "the text box, focused")
    except AssertionError as error:
        raise AssertionError(f"{error}; last heard: {log_texts(page)[-6:]}, focused: {focused(page)}") from None
    page.driver.switch_to.active_element.send_keys(text, Keys.ENTER)


def forget(page: Browser, server: Running) -> None:
    """Open the page with nothing kept: what the page kept is cleared, and kept from being written again by the
    page still open (a "keep" on its way) until it reloads."""
    page.open(url(server))
    page.script("Storage.prototype.setItem = function () {}; localStorage.clear();")
    page.reload()


def sit_down(page: Browser, server: Running, name: str) -> None:
    """A fresh browser (nothing kept) opens the page and gives ``name``; then the lobby's menu is shown."""
    forget(page, server)
    type_line(page, name)
    wait_until(lambda: not shown(page, "typing") and menu(page)[0], "the lobby after the name")
    page.caught_up()


def start_against_a_computer(page: Browser, selector: str = "#hand button") -> None:
    """From the lobby: a table of two, the other seat a computer player's, its game started, until the six cards
    of the deal (``selector``) are on the page."""
    click_item(page, "Create a table")
    page.press("left")  # one seat for a person, the other a computer player's
    click_item(page, "Create the table")
    click_item(page, "Start the game")
    wait_until(lambda: page.screen().get("mode") == "discard" and page.script(
        "return document.querySelectorAll(arguments[0]).length;", selector) == 6, "the deal")


def test_the_name_is_typed_in_the_text_box_and_the_focus_comes_back(page: Browser, server: Running) -> None:
    forget(page, server)
    wait_until(lambda: shown(page, "typing") and focused(page) == "line", "the text box, focused, for the name")
    label = page.script("return document.getElementById('line').labels[0].textContent;")
    assert label, "the text box has the session's prompt as its label"
    assert page.script("return document.getElementById('line').type;") == "text"
    assert page.script("return document.getElementById('line').maxLength;") == 24, "the name's own limit"
    page.driver.switch_to.active_element.send_keys("Ann", Keys.ENTER)
    wait_until(lambda: not shown(page, "typing"), "the text box to go once the name is taken")
    assert focused(page) == "game"
    assert page.script("return document.activeElement.matches(arguments[0]);", GAME_AREA)
    wait_until(lambda: menu(page)[0], "the lobby's menu")
    kept = json.loads(page.script("return localStorage.getItem('audiocrib.keep');"))
    assert kept["name"] == "Ann" and kept["token"], kept


def test_keys_reach_the_session_and_move_the_menu(page: Browser, server: Running) -> None:
    sit_down(page, server, "Bob")
    spy(page)
    items, before = menu(page)
    heard = page.press("down")
    assert heard, "the down arrow was answered in the live region"
    wait_until(lambda: menu(page)[1] == (before + 1) % len(items), "the menu's current item to move down")
    # The session stopped speech for the key: its answer is added while the region is assertive, to be said at
    # once (a screen reader interrupts itself), and said once (there is no second region).
    assert page.frames("silence")
    assert page.script("return document.querySelector(arguments[0]).getAttribute('aria-live');",
                       LIVE_REGION) == "assertive"
    assert page.script("return document.querySelectorAll('[aria-live]:not(#connection)').length;") == 1
    page.press("W")  # a capital letter goes as the small one
    assert sent(page) == [{"type": "key", "key": "down"}, {"type": "key", "key": "w"}]


def test_the_browser_keeps_its_own_keys(page: Browser, server: Running) -> None:
    sit_down(page, server, "Cy")
    spy(page)
    kept = page.script("""
        const game = document.querySelector(arguments[0]);
        const press = (init) => game.dispatchEvent(new KeyboardEvent('keydown', {bubbles: true, cancelable: true,
                                                                                 ...init}));
        return [press({key: 'r', ctrlKey: true}), press({key: 'F5'}), press({key: 'Tab'}),
                press({key: 'l', altKey: true}), press({key: 'c', metaKey: true}), press({key: 'Shift'})];
        """, GAME_AREA)
    assert kept == [True] * 6, "Control R, F5, Tab, Alt and Meta keys and Shift alone are left to the browser"
    assert page.script("""
        const game = document.querySelector(arguments[0]);
        return game.dispatchEvent(new KeyboardEvent('keydown', {bubbles: true, cancelable: true, key: '?'}));
        """, GAME_AREA) is False, "a key the game takes is kept from the browser and the screen reader"
    wait_until(lambda: sent(page), "the question mark to be sent")
    assert sent(page) == [{"type": "key", "key": "?"}]


def test_a_held_key_is_sent_once_and_a_held_arrow_repeats(page: Browser, server: Running) -> None:
    sit_down(page, server, "Dee")
    page.press("z")
    wait_until(lambda: does_nothing("z", BROWSER_HELP_KEY) in log_texts(page), "the z key's answer, naming F1")
    spy(page)
    start = len(page.heard)
    page.hold("z", count=30)  # a second's repeats, however long a loaded machine takes to send them
    wait_until(lambda: len(page.heard) > start, "the answer to the held key")
    page.press("r")  # the held key's answers are all in once this one's answer has come
    assert sent(page).count({"type": "key", "key": "z"}) == 1
    assert len(page.heard) - start <= 4, page.heard[start:]  # one answer to z, one to r (not thirty to z)
    spy(page)
    page.hold("down", rate=20, count=10)
    wait_until(lambda: len(sent(page)) > 3, "the held arrow's repeats")
    assert {frame["key"] for frame in sent(page)} == {"down"}


def test_chat_is_shown_as_text_and_nothing_runs(page: Browser, server: Running) -> None:
    sit_down(page, server, "Eve")
    click_item(page, "Create a table")
    click_item(page, "Create the table")
    wait_until(lambda: any(item.startswith("Leave the table") for item in menu(page)[0]), "the waiting room")
    page.focus_game()
    page.press("/")
    type_line(page, HOSTILE)
    page.hears(lambda text: text.endswith(HOSTILE))
    wait_until(lambda: not shown(page, "typing"), "the text box to go once the message is sent")
    assert focused(page) == "game"
    assert any(text.endswith(HOSTILE) for text in log_texts(page))
    assert page.script("return document.querySelectorAll('img').length;") == 0
    with pytest.raises(NoAlertPresentException):
        page.driver.switch_to.alert.text  # noqa: B018


def press_on_focus(page: Browser, *keys: str) -> None:
    """Press ``keys`` on whatever has the focus now (not the game area), each once the last was answered."""
    for key in keys:
        count = page.answers()
        page.driver.switch_to.active_element.send_keys(KEYS.get(key, key))
        wait_until(lambda count=count: page.answers() > count, f"an answer to the key {key!r}")


def test_the_keys_work_from_a_button_and_enter_clicks_it(page: Browser, server: Running) -> None:
    sit_down(page, server, "Ola")
    page.script("document.querySelector('#menu button').focus();")
    spy(page)
    items, before = menu(page)
    press_on_focus(page, "down", "f1")
    wait_until(lambda: menu(page)[1] == (before + 1) % len(items), "the menu's current item to move down")
    assert sent(page) == [{"type": "key", "key": "down"}, {"type": "key", "key": "f1"}]
    assert focused(page) == "button"
    spy(page)
    refresh = next(index for index, item in enumerate(menu(page)[0]) if item.startswith("Refresh"))
    page.script("document.querySelectorAll('#menu button')[arguments[0]].focus();", refresh)
    press_on_focus(page, "enter")
    assert sent(page) == [{"type": "choose", "list": "menu", "index": refresh}], "Enter is the button's own click"


def test_f1_in_the_text_box_asks_the_session_and_not_the_browser(page: Browser, server: Running) -> None:
    forget(page, server)
    wait_until(lambda: shown(page, "typing") and focused(page) == "line", "the text box, focused, for the name")
    spy(page)
    page.driver.switch_to.active_element.send_keys("Pa")
    assert page.script("return document.getElementById('line').dispatchEvent(new KeyboardEvent('keydown',"
                       " {bubbles: true, cancelable: true, key: 'F1'}));") is False, "F1 is kept from the browser"
    before = len(page.heard)
    press_on_focus(page, "f1")
    assert len(page.heard) > before, "the session read its help for typing"
    assert sent(page) == [{"type": "key", "key": "f1"}] * 2, "the letters stay in the box"
    assert page.script("return document.getElementById('line').value;") == "Pa"
    assert welcome(BROWSER_HELP_KEY) in log_texts(page), "the welcome names the page's help key, F1"


def test_the_log_keeps_following_when_it_is_resized(page: Browser, server: Running) -> None:
    sit_down(page, server, "Quin")
    page.driver.set_window_size(800, 900)
    page.hold("down", rate=20, count=30)
    page.settle(0.3)
    page.press("f1", "f1")  # long lines, that wrap more in a narrower log
    at_bottom = ("const s = document.getElementById('log-scroll');"
                 "return s.scrollHeight > s.clientHeight + 50 && s.scrollTop + s.clientHeight >= s.scrollHeight - 2;")
    wait_until(lambda: page.script(at_bottom), "the log, overflowing, at its newest line")
    try:
        # Wider, the page takes two columns and the log the narrower one: its lines wrap, it grows under its
        # reader with no new line.
        page.driver.set_window_size(1280, 900)
        wait_until(lambda: page.script("return window.innerWidth;") > 1000, "a wider window")
        wait_until(lambda: page.script(at_bottom), "the log to stay at its newest line", timeout=3)
        page.press("r")
        wait_until(lambda: page.script(at_bottom), "the log to follow the next line", timeout=3)
    finally:
        page.driver.set_window_size(*DESKTOP)


def test_the_live_region_and_the_log_get_the_same_texts_in_order(page: Browser, server: Running) -> None:
    sit_down(page, server, "Fay")
    page.press("down", "down", "f1", "up", "r")
    click_item(page, "Who is here")
    # both are read afresh each time: the last answer ("Connected, one person: Fay.") may reach one a moment before
    # the other, so they are compared once both have it (the "Connected." of signing in is not that answer)
    def both() -> bool:
        return all(any(t.startswith("Connected, ") for t in texts) for texts in (page.heard, log_texts(page)))

    wait_until(both, "the log and the live region to have the answer of Who is here")
    assert log_texts(page) == page.heard
    assert len(page.heard) >= 6


def test_the_focus_stays_on_a_button_while_the_screen_changes(page: Browser, server: Running) -> None:
    sit_down(page, server, "Gus")
    page.script("Array.from(document.querySelectorAll('#menu button'))"
                ".find((e) => e.textContent.startsWith('Refresh')).focus();")
    before = len(page.heard)
    page.driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(lambda: len(page.heard) > before, "the refreshed lobby")
    assert page.script("return document.activeElement.textContent;").startswith("Refresh")
    # The screen's title is shown inside the game area, whose own name stays the page's: never out of date while it
    # has the focus, and never changing under a screen reader's speech.
    named = page.script("return document.querySelector(arguments[0]).getAttribute('aria-label');", GAME_AREA)
    assert named == "audiocrib"
    assert page.screen()["title"] == page.script("return document.getElementById('title').textContent;")
    assert page.script("return document.querySelector(arguments[0]).contains(document.activeElement);", GAME_AREA)


def test_a_reload_puts_the_player_back_without_asking_the_name(page: Browser, server: Running) -> None:
    sit_down(page, server, "Hal")
    kept = page.script("return localStorage.getItem('audiocrib.keep');")
    page.reload()
    wait_until(lambda: menu(page)[0], "the lobby again")
    assert not shown(page, "typing")
    assert focused(page) == "game"
    assert page.script("return localStorage.getItem('audiocrib.keep');") == kept


def test_the_hand_and_the_menu_are_buttons_with_marks_not_only_in_colour(page: Browser, server: Running) -> None:
    sit_down(page, server, "Jo")
    click_item(page, "Create a table")
    page.press("left")  # one seat for a person, the other a computer player's
    click_item(page, "Create the table")
    current = page.script("return getComputedStyle(document.querySelector('#menu [aria-current]'), '::before')"
                          ".content;")
    assert current not in ("none", "normal", ""), "the current menu item has a mark before it"
    page.script(PLAYED)
    click_item(page, "Start the game")
    wait_until(lambda: page.script("return document.querySelectorAll('#hand button').length;") == 6,
               "the six cards of the deal as buttons")
    played = wait_until(lambda: page.script("return window.__played;"), "a sound cue (the deal's)")
    volume = json.loads(page.script("return localStorage.getItem('audiocrib.keep');"))["settings"]["volume"]
    for src, at in played:
        assert re.fullmatch(rf"{url(server)}sounds/[a-z0-9_-]+\.wav", src) and at == pytest.approx(volume), played
    assert page.script("return document.querySelectorAll('#status li').length;") > 0
    before = len(page.heard)
    page.script("document.querySelector('#hand button').click();")
    wait_until(lambda: page.script("return document.querySelector('#hand button').getAttribute('aria-pressed');")
               == "true", "the card pressed to be marked")
    wait_until(lambda: len(page.heard) > before, "the session to say the card was marked")
    marks = page.script("""
        const [marked, plain] = document.querySelectorAll('#hand button');
        return [getComputedStyle(marked, '::after').content, getComputedStyle(plain, '::after').content,
                getComputedStyle(marked).borderTopStyle, getComputedStyle(plain).borderTopStyle];""")
    assert marks[0] not in ("none", "normal") and marks[1] in ("none", "normal"), marks
    assert marks[2] != marks[3], "a marked card's border differs in shape, not only colour"
    assert page.script("return document.querySelector('#hand button').textContent;").endswith(
        page.script("return document.querySelector('#hand .words').textContent;"))
    for width in (375, 640):  # a phone, and a desktop window at 200% zoom: one column, no sideways scrolling
        page.driver.set_window_size(width, 800)
        wait_until(lambda width=width: page.script("return window.innerWidth;") <= width, f"a {width} px window")
        assert page.script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth;")
        # The cards come before the status lines, so a phone shows them on its first screen.
        assert page.script("return document.getElementById('hand-area').getBoundingClientRect().top"
                           " < document.getElementById('status-area').getBoundingClientRect().top;")
    page.screenshots("page-table-marked")


def test_quitting_says_goodbye_and_a_button_starts_again(page: Browser, server: Running) -> None:
    sit_down(page, server, "Kim")
    click_item(page, "Quit")
    wait_until(lambda: shown(page, "bye"), "the button to start again")
    label = page.script("return document.getElementById('again').textContent;")
    assert focused(page) == "again"
    # A screen reader gets the goodbye once: from the live region (the session's "Goodbye.", in the log too), not
    # again in the name of the button that takes the focus, which only says what it does.
    page.settle(0.3)
    told = [*page.heard[page.mark:], label]
    assert sum(text.count("Goodbye") for text in told) == 1, told
    assert label and label not in page.heard and log_texts(page)[-1] == "Goodbye.", (label, log_texts(page)[-3:])
    assert not page.script("return document.querySelectorAll('#menu button').length;")
    before = len(page.heard)
    page.driver.switch_to.active_element.click()
    wait_until(lambda: len(page.heard) > before and menu(page)[0], "a new session, in the lobby")
    assert not shown(page, "bye") and not shown(page, "typing")
    assert focused(page) == "game"


SPOKEN = """
window.__spoken = [];
window.__cancelled = 0;
speechSynthesis.speak = (utterance) => { window.__spoken.push([utterance.text, utterance.rate]); };
speechSynthesis.cancel = () => { window.__cancelled += 1; };
"""
"""Keeps what the page gives the browser's voice from now on in ``window.__spoken`` (the text and the rate), and
counts its cancels, in ``window.__cancelled``."""


def kept(page: Browser) -> dict[str, Any]:
    found = json.loads(page.script("return localStorage.getItem('audiocrib.keep');"))
    assert isinstance(found, dict)
    return found


def test_the_built_in_voice_speaks_the_announcements_once_the_settings_turn_it_on(page: Browser,
                                                                                   server: Running) -> None:
    sit_down(page, server, "Lu")
    page.script(SPOKEN)
    page.press("down")
    assert page.script("return window.__spoken;") == [], "no voice while the speech setting leaves it off"
    click_item(page, "Settings")
    wait_until(lambda: menu(page)[0][0].startswith("Speech"), "the settings")
    for _ in range(8):
        if kept(page)["settings"]["voice"]:
            break
        page.press("right")
    assert kept(page)["settings"]["voice"] is True
    page.script(SPOKEN)
    heard = page.press("down", "down")
    wait_until(lambda: len(page.script("return window.__spoken;")) >= len(heard), "the voice to catch up")
    spoken = page.script("return window.__spoken;")
    assert [text for text, _ in spoken] == page.heard[page.mark:]
    assert all(rate == pytest.approx(kept(page)["settings"]["rate"]) for _, rate in spoken)
    assert page.script("return window.__cancelled;") >= 1, "a key press stopped the voice (the session's silence)"


WATCH = """
window.__faults = [];
document.addEventListener('securitypolicyviolation', (e) => window.__faults.push('CSP: ' + e.violatedDirective));
window.addEventListener('error', (e) => window.__faults.push('error: ' + e.message), true);
window.addEventListener('unhandledrejection', (e) => window.__faults.push('rejection: ' + e.reason));
"""
"""Installed before the page's own scripts: keeps in ``window.__faults`` every Content Security Policy violation,
script error and unhandled rejection."""

PAGE_FILES = Path(__file__).resolve().parent.parent / "audiocrib" / "web" / "page"


def test_the_page_runs_under_its_policy_with_no_fault(page: Browser, server: Running) -> None:
    watching = page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
    try:
        sit_down(page, server, "Max")
        page.press("down", "?", "f1")
        click_item(page, "Who is here")
        wait_until(lambda: page.script("return performance.getEntriesByType('resource').length;") >= 3,
                   "the page's files")
        loaded = page.script("return performance.getEntriesByType('resource')"
                             ".map((e) => [e.name, e.responseStatus, e.initiatorType]);")
        assert {name.rsplit("/", 1)[1] for name, _, _ in loaded} >= {"page.css", "page.js", "icon.svg"}, loaded
        assert all(status == 200 for _, status, _ in loaded), loaded
        assert page.script("return window.__faults;") == []
    finally:
        page.driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": watching["identifier"]})
    html = (PAGE_FILES / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)|<style|\sstyle=|\son[a-z]+=", html), "no inline script or style"
    script = (PAGE_FILES / "page.js").read_text(encoding="utf-8")
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function", script)


@pytest.mark.slow
def test_a_flood_of_announcements_keeps_the_last_500_in_the_log(page: Browser, server: Running) -> None:
    sit_down(page, server, "Ned")
    for _ in range(12):  # the down arrow held: each repeat is answered, some twenty a second
        page.hold("down", 5.0)
        if len(page.heard) > 540:
            break
    page.settle(0.5, timeout=30)
    logged = log_texts(page)
    assert len(page.heard) > 520
    assert logged == page.heard[-500:], "the log keeps the newest 500, in order"
    assert len(page.live_texts()) <= 50, "the live region keeps only its newest"
    assert page.script("const s = document.getElementById('log-scroll'); "
                       "return s.scrollTop + s.clientHeight >= s.scrollHeight - 2;"), "the log shows its newest"
    page.script("document.getElementById('log-scroll').scrollTop = 0;")
    page.press("r")
    assert page.script("return document.getElementById('log-scroll').scrollTop;") == 0, \
        "the log stays where its reader scrolled back to"


def free_port() -> int:
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        return int(listening.getsockname()[1])


def test_a_dropped_server_is_shown_and_the_page_connects_again(page: Browser, tmp_path: Path) -> None:
    port = free_port()
    first = Running(tmp_path / "data", "--port", str(port))
    try:
        sit_down(page, first, "Ivy")
    finally:
        first.stop()
    down = page.script("return document.getElementById('connection').dataset.down;")
    wait_until(lambda: page.script("return document.getElementById('connection').textContent;") == down,
               "the page to show it is disconnected")
    assert page.script("return document.getElementById('connection').getAttribute('role');") == "status"
    # The gateway's reason for closing is heard, and a key pressed while down is answered, not swallowed.
    page.caught_up()
    assert "The server is stopping." in page.heard[-3:], page.heard[-3:]
    spy(page)
    assert page.press("x") == [down]
    assert sent(page) == []
    heard = len(page.heard)
    again = Running(tmp_path / "data", "--port", str(port))
    try:
        wait_until(lambda: page.script("return document.getElementById('connection').textContent;") == "",
                   "the page to connect again", timeout=20)
        wait_until(lambda: len(page.heard) > heard, "the session to speak again")
        assert not shown(page, "typing"), "the name is not asked again"
    finally:
        again.stop()


def test_cards_are_toggles_only_while_laid_away(page: Browser, server: Running) -> None:
    sit_down(page, server, "Rex")
    start_against_a_computer(page, "#hand button[aria-pressed]")  # the deal, as toggles
    page.script("document.querySelectorAll('#hand button')[0].click();")
    wait_until(lambda: page.script("return document.querySelectorAll('#hand [aria-pressed=true]').length;") == 1,
               "one card marked")
    page.script("document.querySelectorAll('#hand button')[1].click();")
    wait_until(lambda: page.script("return document.querySelectorAll('#hand [aria-pressed=true]').length;") == 2,
               "two cards marked")
    for _ in range(5):
        time.sleep(1.1)  # the session takes no Enter within a second of news (its typed-ahead guard)
        if not any(TYPED_AHEAD in text for text in page.press("enter")):
            break
    wait_until(lambda: page.screen().get("mode") != "discard" and len(page.screen().get("hand") or []) == 4,
               "the four cards kept, after the discard")
    wait_until(lambda: page.script("return document.querySelectorAll('#hand button').length;") == 4, "four cards")
    assert page.script("return document.querySelectorAll('#hand button[aria-pressed]').length;") == 0, \
        "after the discard a card is a plain button, not a toggle"


def test_a_button_says_what_enter_does_and_presses_it(page: Browser, server: Running) -> None:
    sit_down(page, server, "Sal")
    assert not shown(page, "enter"), "no Enter button in the lobby"
    start_against_a_computer(page)
    for index in (0, 1):
        page.script("document.querySelectorAll('#hand button')[arguments[0]].click();", index)
        wait_until(lambda index=index: page.script(
            "return document.querySelectorAll('#hand [aria-pressed=true]').length;") == index + 1, "a card marked")
    words = wait_until(lambda: page.screen().get("enter"), "Enter's words once two cards are marked")
    wait_until(lambda: shown(page, "enter") and page.script(
        "return document.getElementById('enter').textContent;") == words, "the Enter button with those words")
    assert page.script("return document.getElementById('enter').tagName;") == "BUTTON"
    assert page.script("return document.getElementById('hand-area').contains(document.getElementById('enter'));")
    page.script("document.getElementById('enter').focus();")
    spy(page)
    for _ in range(5):
        time.sleep(1.1)  # the session takes no Enter within a second of news (its typed-ahead guard)
        before = len(page.heard)
        page.driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait_until(lambda before=before: len(page.heard) > before, "an answer to the Enter button")
        if not any(TYPED_AHEAD in text for text in page.heard[before:]):
            break
    assert {frame["key"] for frame in sent(page)} == {"enter"} and sent(page)[0]["type"] == "key"
    wait_until(lambda: page.screen().get("mode") != "discard", "the cards laid away")
    # The focus stays on the button while it is there, and goes to the game area once it is not.
    wait_until(lambda: focused(page) == ("enter" if page.screen().get("enter") else "game"),
               "the focus on the button, or on the game area once the button went")


def test_buttons_change_the_setting_you_are_on(page: Browser, server: Running) -> None:
    sit_down(page, server, "Tam")
    assert not shown(page, "change")
    click_item(page, "Settings")
    wait_until(lambda: (page.screen().get("menu") or {}).get("change"), "the settings, which change with arrows")
    back, forward = page.screen()["menu"]["change"]
    wait_until(lambda: shown(page, "change"), "the buttons that change a setting")
    assert page.script("return [document.getElementById('change-back').textContent,"
                       " document.getElementById('change-forward').textContent];") == [back, forward]
    assert page.script("const m = document.getElementById('menu');"
                       "return !!(m.compareDocumentPosition(document.getElementById('change'))"
                       " & Node.DOCUMENT_POSITION_FOLLOWING);"), "after the menu's list"
    click_item(page, "Verbosity")  # tapping an item makes it the one the buttons change
    wait_until(lambda: menu(page)[0][menu(page)[1]].startswith("Verbosity"), "the verbosity setting current")
    before = menu(page)[0][menu(page)[1]]
    spy(page)
    page.script("document.getElementById('change-back').click();")  # full verbosity is the last: back first
    wait_until(lambda: menu(page)[0][menu(page)[1]] != before, "the setting changed back")
    page.script("document.getElementById('change-forward').click();")
    wait_until(lambda: menu(page)[0][menu(page)[1]] == before, "the setting changed forward again")
    assert [frame for frame in sent(page) if frame["type"] == "key"] == [
        {"type": "key", "key": "left"}, {"type": "key", "key": "right"}]
    page.press("escape")
    wait_until(lambda: not (page.screen().get("menu") or {}).get("change") and not shown(page, "change"),
               "the buttons gone with the settings")


def test_the_text_box_shows_the_line_the_session_holds(page: Browser, server: Running) -> None:
    sit_down(page, server, "Uma")
    click_item(page, "Change your name")
    heard = page.hears(re.compile("It says Uma"))
    wait_until(lambda: shown(page, "typing") and focused(page) == "line", "the text box for the name")
    assert (page.screen().get("typing") or {}).get("text") == "Uma", page.screen()
    assert page.script("return document.getElementById('line').value;") == "Uma", heard
    page.press("escape")


QUICK = {"session": {"pace": 0.0, "typed_ahead": 0.0}}
"""Settings the page keeps that play at once: no pause before a computer player's move, no guard on move keys."""


def at_a_table(page: Browser, server: Running, name: str) -> None:
    """A fresh browser whose kept settings play at once sits down as ``name`` at a new table of two, against a
    computer player, and the cards are dealt."""
    forget(page, server)
    page.script("const set = Storage.prototype.setItem; Storage.prototype.setItem = function () {};"
                "set.call(localStorage, 'audiocrib.keep',"
                "         JSON.stringify({token: '', name: '', settings: arguments[0]}));", QUICK)
    page.reload()
    type_line(page, name)
    wait_until(lambda: not shown(page, "typing") and menu(page)[0], "the lobby after the name")
    start_against_a_computer(page)


AT_THE_BOTTOM = ("const s = document.getElementById('log-scroll');"
                 "return s.scrollHeight > s.clientHeight + 50 && s.scrollTop + s.clientHeight >= s.scrollHeight - 2;")
"""The log overflows its box and shows its newest line."""


def test_the_log_follows_its_newest_line_after_f1_in_the_name_box(page: Browser, server: Running) -> None:
    forget(page, server)
    wait_until(lambda: shown(page, "typing") and focused(page) == "line", "the text box, focused, for the name")
    press_on_focus(page, "f1")  # the help nearly fills the log: the lobby's lines, in a narrower column, overflow it
    page.settle(0.3)
    type_line(page, "Vic")
    wait_until(lambda: not shown(page, "typing") and menu(page)[0], "the lobby after the name")
    page.settle(0.3)
    for _ in range(12):
        page.press("down")
    wait_until(lambda: page.script(AT_THE_BOTTOM), "the log, overflowing, at its newest line", timeout=3)
    page.press("f1")
    wait_until(lambda: page.script(AT_THE_BOTTOM), "the log to follow the next lines", timeout=3)


def test_start_the_game_at_the_end_of_a_new_tables_setup_starts_it(page: Browser, server: Running) -> None:
    sit_down(page, server, "Wes")
    click_item(page, "Create a table")
    page.press("left")  # one seat for a person, the other a computer player's
    click_item(page, "Table setup")
    wait_until(lambda: page.screen().get("mode") == "table setup", "the new table's setup")
    assert menu(page)[0][-1] == "Start the game", menu(page)[0]
    page.mark = len(page.heard)
    click_item(page, "Start the game")
    page.hears("The game begins.")
    wait_until(lambda: page.screen().get("mode") == "discard" and page.script(
        "return document.querySelectorAll('#hand button').length;") == 6, "the deal, at the new table")
    assert not any(text.startswith("New game: ") for text in page.heard), "no game on the host's computer"


def test_f1_in_the_text_box_says_the_text_boxs_own_keys(page: Browser, server: Running) -> None:
    forget(page, server)
    wait_until(lambda: shown(page, "typing") and focused(page) == "line", "the text box, focused, for the name")
    page.settle(0.3)
    page.mark = len(page.heard)
    press_on_focus(page, "f1")
    said = page.settle(0.3)
    assert said[0].startswith("You are typing: "), said
    # The terminal's line editing (each character said as it is typed, arrows reading back) is not the text box's.
    assert not any("Read back everything you typed" in text or "Say the next character" in text
                   or "Control C" in text for text in said), said
    assert any(text.startswith("Tab: ") and "Send" in text and "Cancel" in text for text in said), said


def current_card(page: Browser) -> list[int]:
    """The indexes of the hand's buttons marked as the card you are on."""
    found = page.script("return Array.from(document.querySelectorAll('#hand button'))"
                        ".flatMap((b, i) => b.getAttribute('aria-current') === 'true' ? [i] : []);")
    return [int(index) for index in found]


def test_the_card_you_are_on_is_shown_while_laying_away_and_in_the_play(page: Browser, server: Running) -> None:
    at_a_table(page, server, "Xan")
    page.press("2")  # laying away, a digit marks that card and puts you on it
    wait_until(lambda: current_card(page) == [1], "the second card shown as the one you are on")
    page.press("right")
    wait_until(lambda: current_card(page) == [2], "the third card shown as the one you are on")
    end = time.monotonic() + 60
    while not (page.screen().get("mode") == "play" and len(page.screen().get("hand") or []) == 4):
        assert time.monotonic() < end, page.heard[-5:]
        page.move() or time.sleep(0.05)
    page.press("3")  # in the play a digit puts you on that card (Enter plays it)
    wait_until(lambda: current_card(page) == [2], "the third card shown as the one you are on, in the play")
    page.press("left")
    wait_until(lambda: current_card(page) == [1], "the second card shown as the one you are on, in the play")
    marks = page.script("""
        const [other, on] = document.querySelectorAll('#hand button');
        const look = (b) => [getComputedStyle(b, '::before').content, getComputedStyle(b).boxShadow,
                             getComputedStyle(b).borderTopWidth];
        return [look(on), look(other)];""")
    assert marks[0][0] not in ("none", "normal", "") and marks[1][0] in ("none", "normal"), marks
    assert marks[0][1:] != marks[1][1:], "the card you are on differs in shape, not only colour"
    page.screenshots("page-table-play-current")


def test_the_status_says_whose_turn_it_is_in_the_words_of_t(page: Browser, server: Running) -> None:
    at_a_table(page, server, "Yul")
    end = time.monotonic() + 90
    while page.screen().get("mode") != "review":
        assert time.monotonic() < end, page.heard[-5:]
        page.move() or time.sleep(0.05)
    said = page.press("t")[-1]
    wait_until(lambda: said in page.script(
        "return Array.from(document.querySelectorAll('#status li'), (e) => e.textContent);"),
        f"the status to say {said!r} as t does")
    assert not any("Nothing is awaited" in text for text in page.screen()["status"]), page.screen()["status"]


BROKEN_WORDS = """
const broken = [];
for (const element of document.querySelectorAll(arguments[0])) {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/[^\\s-]+-?/g)) {  // a line may break after a hyphen
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  if (element.scrollWidth > element.clientWidth + 1) broken.push('overflowing: ' + element.textContent);
}
return broken;
"""
"""The words broken over two lines in the elements ``arguments[0]`` selects (a break after a hyphen is allowed:
"twenty-" then "one"), and those elements that overflow."""


def test_no_word_breaks_inside_on_a_card_at_a_phones_width(page: Browser, server: Running) -> None:
    from audiocrib.engine.cards import Card, Rank, Suit

    names = [Card(rank, suit).name for rank in Rank for suit in Suit]
    at_a_table(page, server, "Zed")
    for index in (0, 1):  # marked cards: a double border, which narrows the card's words
        page.script("document.querySelectorAll('#hand button')[arguments[0]].click();", index)
    wait_until(lambda: page.script("return document.querySelectorAll('#hand [aria-pressed=true]').length;") == 2,
               "two cards marked")
    page.settle(0.3)
    try:
        for width in (360, 320, 390, 640, 1280):
            page.driver.set_window_size(width, 800)
            wait_until(lambda width=width: page.script("return window.innerWidth;") <= width, f"a {width} px window")
            assert page.script(BROKEN_WORDS, "#hand button, #status li, #enter, #title") == [], width
            # every card's name on a marked card, the narrowest: "diamonds" whole, on one line
            broken = page.script("""
                const words = document.querySelector('#hand [aria-pressed=true] .words');
                const kept = words.textContent;
                const found = [];
                for (const name of arguments[0]) {
                  words.textContent = name;
                  for (const match of name.matchAll(/\\S+/g)) {
                    const word = document.createRange();
                    word.setStart(words.firstChild, match.index);
                    word.setEnd(words.firstChild, match.index + match[0].length);
                    if (new Set(Array.from(word.getClientRects(), (r) => Math.round(r.top))).size > 1) {
                      found.push(name);
                    }
                  }
                  if (words.scrollWidth > words.clientWidth + 1) found.push('overflowing: ' + name);
                }
                words.textContent = kept;
                return found;""", names)
            assert broken == [], (width, broken)
            if width == 360:
                page.script("document.querySelector('#hand [aria-pressed=true] .words').textContent = arguments[0];",
                            "queen of diamonds")
                page.screenshot("page-table-marked-360")
    finally:
        page.driver.set_window_size(*DESKTOP)
