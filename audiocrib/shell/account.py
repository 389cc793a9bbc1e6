"""A name that lasts, by ear: signing in with the password that protects a name, and the lobby's "your name and
password" screen, where the player protects the name, changes or takes off its password, or signs out everywhere
else.

A password is typed in a secret line (`LineEdit` with ``secret``): each character is said as "star" and shown as
one, never spoken or printed back. The server says every sentence of the outcome; these screens ask and move on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from audiocrib.online import messages as m
from audiocrib.online.accounts import SIGNED_OUT, password_problem, protected_in
from audiocrib.shell.lineedit import LineEdit
from audiocrib.shell.servers import save_book
from audiocrib.shell.typedline import TypedLines

__all__ = ["ACCOUNT_ITEM", "AccountScreens"]

ACCOUNT_ITEM = "your name and password"
"""The lobby's item that opens the account screen."""
PROTECT, CHANGE, TAKE_OFF, SIGN_OUT, BACK = ("protect your name with a password", "change your password",
                                             "take the password off your name", "sign out everywhere else",
                                             "back to the lobby")


class AccountScreens(TypedLines):
    """Signing in with a name's password, and the account screen (shown in the lobby's place while open)."""

    account_open: m.AccountState | None = None
    """The account as the screen shows it, while it is open (None: closed)."""

    def _connect(self, password: str | None = None, fresh: bool = False,
                 name_password: str | None = None) -> None:  # pragma: no cover - the online screens'
        raise NotImplementedError

    def _ask_name(self, typed: str | None = None) -> None:  # pragma: no cover - the online screens'
        raise NotImplementedError

    # ----------------------------------------------------------------- signing in
    def _account_refused(self, sentence: str) -> bool:
        """When the server refused the hello because the name is protected (or the password was wrong): say so and
        ask for the name's password; True if it did."""
        name = protected_in(sentence)
        if name is None:
            return False
        self.say(sentence)
        self._ask_name_password(name)
        return True

    def _ask_name_password(self, name: str) -> None:
        self._ask_line(LineEdit(f"Password of {name}", 128, secret=True),
                       f"Type the password of the name {name}, then press Enter; Escape to choose another name.",
                       self._sign_in, self._ask_name_again)

    def _ask_name_again(self) -> None:
        self._ask_name()

    def _sign_in(self, password: str) -> None:
        self._connect(name_password=password)

    # ----------------------------------------------------------------- the account screen
    def _account_items(self) -> tuple[str, ...]:
        state = self.account_open
        if state is None or not state.protected:
            return PROTECT, BACK
        return CHANGE, TAKE_OFF, SIGN_OUT, BACK

    def _account_show(self, state: m.AccountState | str, sentence: str | None = None) -> None:
        """Open (or refresh) the screen with the server's answer, after saying what changed."""
        if isinstance(state, str):
            self.say(state)
            if self.account_open is None:
                self._say_lobby_item()
                return
        else:
            if sentence or state.sentence:
                self.say(sentence or state.sentence or "")
            if state.token is not None:
                self._account_keep_token(state.token)
            self.account_open = dataclasses.replace(state, token=None, sentence=None)  # said and kept: once only
        assert self.account_open is not None
        how = "is protected by a password" if self.account_open.protected else "has no password"
        self.menu_index = 0
        items = self._account_items()
        self.say(f"Your name, {self.account_open.name}, {how}. {self._online_item_text(items[0])}. 1 of"
                 f" {len(items)}.")

    def _account_open_screen(self) -> None:
        client = self.client
        if client is not None:
            self._account_show(client.ask_account())

    def _account_close(self) -> None:
        self.account_open = None
        self._to_lobby()

    def _account_keep_token(self, token: str) -> None:
        """Keep the token the server gave in place of the revoked ones (the browser keeps it through the book)."""
        self.book.remember(self.address.url, self.book.address, self.book.name, token)
        try:
            save_book(self.save_path.parent if self.save_path is not None else None, self.book)
        except OSError:
            self.say("Your new token could not be kept; you will sign in with your password next time.")

    def _account_choose(self, item: str) -> None:
        """The lobby's account item (opens the screen), or an item of the screen."""
        client = self.client
        if item == ACCOUNT_ITEM and self.account_open is None:
            self._account_open_screen()
            return
        if client is None or item == BACK:
            self._account_close()
            return
        if item == SIGN_OUT:
            self._account_show(client.sign_out_everywhere())
        elif item == PROTECT:
            self._new_password(lambda new: client.set_password(None, new))
        elif item == CHANGE:
            self._secret("Your password now", "Type the password your name has now, then press Enter.",
                         lambda old: self._new_password(lambda new: client.set_password(old, new)))
        elif item == TAKE_OFF:
            self._secret("Your password now", "Type the password your name has now, then press Enter; your name"
                         " will have none.", lambda old: self._account_show(client.set_password(old, None)))

    def _secret(self, purpose: str, question: str, then: Callable[[str], None]) -> None:
        self._ask_line(LineEdit(purpose, 128, secret=True), question + " Escape goes back.", then,
                       lambda: self._account_show(self.account_open or "Back."))

    def _new_password(self, send: Callable[[str], m.AccountState | str]) -> None:
        def typed(new: str) -> None:
            problem = password_problem(new)
            if problem:
                self.say(problem)
                self._new_password(send)
                return
            self._secret("The new password again", "Type the new password again, to be sure of it.",
                         lambda again: self._account_show(send(new)) if again == new else
                         self._account_show(self.account_open or "", "The two passwords differ; nothing is"
                                            " changed."))
        self._secret("New password", "Type the new password, from eight to 128 characters, then press Enter.",
                     typed)

    def _account_signed_out(self, sentence: str) -> bool:
        """This computer was signed out from another: forget the token and ask for the password. True if so."""
        if sentence != SIGNED_OUT:
            return False
        self.book.forget(self.address.url)
        self.say(sentence)
        self._ask_name_password(self.book.name)
        return True
