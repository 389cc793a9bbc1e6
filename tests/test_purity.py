"""The rules engine imports no UI, speech or sound library, and its values are frozen."""

from __future__ import annotations

import ast
import dataclasses
import pathlib
import subprocess
import sys

import pytest

import audiocrib.engine.actions
import audiocrib.engine.events
from audiocrib import coach
from audiocrib.engine.cards import Card
from audiocrib.engine.rules import Rules
from audiocrib.engine.scoring import Score, ScoreItem

COACH_FACTS = [coach.KeepChoice, coach.LayAwayAdvice, coach.CardChoice, coach.PlayAdvice, coach.Reply,
               coach.Decision, coach.DealReview, coach.MatchReview]

# Every module of the pure layers: the engine, the computer players, the coach, the telling, the player's progress
# and the online protocol's messages.
PURE = ["engine", "bots", "coach", "telling", "progress", "online"]
FORBIDDEN = {"prompt_toolkit", "accessible_output2", "pyttsx3", "miniaudio", "speechd", "platformdirs"}
PACKAGE = pathlib.Path(audiocrib.engine.events.__file__).parent.parent
ENGINE = sorted(str(p.relative_to(PACKAGE).with_suffix("")) for layer in PURE for p in (PACKAGE / layer).glob("*.py"))


@pytest.mark.parametrize("module", ENGINE)
def test_engine_module_imports_only_the_standard_library_and_itself(module: str) -> None:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text())
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top == "audiocrib", f"{module} imports {name}"
            assert top not in FORBIDDEN


def test_importing_the_engine_loads_no_ui_library() -> None:
    code = (
        "import sys, audiocrib, audiocrib.engine.game, audiocrib.engine.views, audiocrib.engine.tables,"
        " audiocrib.telling.words;"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {sorted(FORBIDDEN)!r}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "cls",
    [Card, Score, ScoreItem, Rules, *audiocrib.engine.events.EVENT_TYPES.values(),
     *audiocrib.engine.actions.ACTION_TYPES.values(), *COACH_FACTS],
)
def test_values_are_frozen(cls: type) -> None:
    assert dataclasses.is_dataclass(cls)
    assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
