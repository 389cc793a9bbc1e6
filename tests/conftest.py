"""What every test module shares: the slow tests first.

Under pytest-xdist (``-n auto --dist loadgroup``, pyproject.toml) each test goes to the next free worker in the
order collected, so the tests marked ``slow`` are put first: the longest start at once, not at the end beside an
idle worker.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, each kept in its place among them; the rest in their order after."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
