"""Frozen values made and changed without their `__init__`, and the seeded chance the rules draw from, compiled
with the rules that call them (setup.py): the checked engine makes a frozen state per move (`frozen`,
`unsealed_copy`), and from games.base each was an interpreted call from compiled code (a Python frame a call).

States that use these are frozen dataclasses without `__slots__`: their fields live in a plain dict of their own.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any, Final, TypeVar

S = TypeVar("S")

_FIELDS: Final[dict[type, frozenset[str]]] = {}


def evolve(state: S, **changes: Any) -> S:
    """A copy of a frozen dataclass `state` with some fields changed: `dataclasses.replace` without the cost of a
    frozen `__init__` (about 10x cheaper; the search applies millions of moves). The copy is built before anyone
    can see it, so filling its `__dict__` keeps it immutable in every way that matters. States that use this
    must not declare `__slots__`."""
    cls: Any = type(state)  # a frozen dataclass, which mypy cannot tell from a TypeVar
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = frozenset(f.name for f in fields(cls))
    if not names.issuperset(changes):
        raise TypeError(f"{cls.__name__} has no field(s) {sorted(set(changes) - names)}")
    new, values = unsealed_copy(state)
    values.update(changes)
    return new


def frozen(cls: type[S], values: dict[str, Any]) -> S:
    """A frozen dataclass `cls` made of `values`, which name every one of its fields, without its `__init__` (as
    `evolve` does, and as cheaply: a rules module's `freeze` makes one per move of the checked path). `values`
    becomes the new object's own `__dict__`: pass a dict made for it (a literal), and keep no other hold of it."""
    new = object.__new__(cls)
    object.__setattr__(new, "__dict__", values)  # a plain dict: see unsealed_copy
    return new


def unsealed_copy(state: S) -> tuple[S, dict[str, Any]]:
    """A copy of a frozen dataclass `state` and the dict of its fields, which the caller fills before anyone else
    sees the copy (as `evolve` does). For a caller that changes many fields, spelt in its own code: a working
    state's `freeze` sets twenty, and as `evolve`'s checked keywords they cost it half as much again.

    The copy's fields live in a plain dict of its own, set as its `__dict__`. Filling the dict that reading
    `new.__dict__` makes (a dict that shares its keys with the class) made objects whose attributes CPython 3.11
    cannot read by its fast specialised path: every read of a field took the slow generic one, and a thaw, which
    reads every field, cost 1.6 times as much (Hinode, by callgrind)."""
    new = object.__new__(type(state))
    values = dict(state.__dict__)
    object.__setattr__(new, "__dict__", values)
    return new, values


def chance(seed: int, *salt: int | str) -> random.Random:
    """A random generator determined by a state's seed and a salt naming the chance event."""
    return random.Random(f"{seed}:{':'.join(map(str, salt))}")
