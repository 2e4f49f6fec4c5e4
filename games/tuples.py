"""Tuple helpers the rules call in their inner loops, compiled with them (setup.py): an interpreted helper called
from compiled rules costs a Python frame a call (with_item was 3% of a compiled Hinode search from games.base).
`count` and `index` are loops over ints: compiled, the tuple methods are Python method calls that compare every
item as a Python object (8% of a compiled Zipang search iteration, with its ranges)."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def with_item(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`values` with the one at `index` replaced: for a working state's tuples, which change seldom (a list and
    back is cheaper than joining two slices around the new value)."""
    changed = list(values)
    changed[index] = value
    return tuple(changed)


def count(values: tuple[int, ...], value: int) -> int:
    """How many of `values` equal `value` (`values.count(value)`)."""
    n = 0
    for v in values:
        if v == value:
            n += 1
    return n


def index(values: tuple[int, ...], value: int) -> int:
    """Where `value` first is in `values` (`values.index(value)`); ValueError if it is not there."""
    for i, v in enumerate(values):
        if v == value:
            return i
    raise ValueError(f"{value} is not in the tuple")


def kept(items: list[T], frozen: tuple[T, ...]) -> tuple[T, ...]:
    """A tuple of `items`: `frozen` itself if it holds the same objects in the same order, else a new one. For a
    freeze after a move from `frozen`'s state, which shares what the move left unchanged. Compared by identity,
    which implies equality (a value made anew, not the object it was, only costs a new tuple)."""
    if len(items) != len(frozen):
        return tuple(items)
    for item, was in zip(items, frozen):  # noqa: B905 - equal lengths; mypyc loops natively over a plain zip
        if item is not was:
            return tuple(items)
    return frozen
