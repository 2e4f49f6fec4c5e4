"""Tuple helpers the rules call in their inner loops, compiled with them (setup.py): an interpreted helper called
from compiled rules costs a Python frame a call (with_item was 3% of a compiled Hinode search from games.base)."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def with_item(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`values` with the one at `index` replaced: for a working state's tuples, which change seldom (a list and
    back is cheaper than joining two slices around the new value)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)
