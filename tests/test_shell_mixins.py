"""The shell's session is made of mixins (`audiocrib.shell.session.Session`): a method two of them define is either
a stand-in (a docstring and ``raise NotImplementedError``, naming where the real one is) or an override that calls
``super()``. Two real methods of one name would leave one silently unused, as happened when the list of past
matches online and the one on this computer each had a ``_past_choose``."""

from __future__ import annotations

import ast
import inspect
import textwrap

from audiocrib.shell.session import Session


def _kind(function: object) -> str:
    """``stand-in``, ``override`` (calls super()) or ``real``."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    body = tree.body[0].body  # type: ignore[attr-defined]
    statements = [s for s in body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    if len(statements) == 1 and isinstance(statements[0], ast.Raise):
        raised = statements[0].exc
        name = raised.func if isinstance(raised, ast.Call) else raised
        if isinstance(name, ast.Name) and name.id == "NotImplementedError":
            return "stand-in"
    calls_super = any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
                      for node in ast.walk(tree))
    return "override" if calls_super else "real"


def test_no_two_mixins_of_the_session_define_one_method_for_real() -> None:
    defined: dict[str, list[tuple[str, str]]] = {}
    for cls in Session.__mro__:
        if not cls.__module__.startswith("audiocrib.shell"):
            continue
        for name, value in vars(cls).items():
            if inspect.isfunction(value):
                defined.setdefault(name, []).append((cls.__name__, _kind(value)))
    clashes = {name: places for name, places in defined.items() if sum(kind == "real" for _, kind in places) > 1}
    assert clashes == {}
    assert len(defined) > 200  # every mixin was read
